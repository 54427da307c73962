"""The embedder base class: input validation, an LRU text -> vector cache, batching."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from cachetools import LRUCache

from .. import _forksafe
from ..errors import ConfigError, InvalidInputError
from .languages import multilingual_flag

__all__ = ["CachingEmbedder", "CallableEmbedder", "Vectors", "l2_normalise", "validate_texts"]

Vectors = npt.NDArray[np.float32]


def validate_texts(texts: Sequence[str]) -> list[str]:
    if isinstance(texts, str | bytes):
        raise InvalidInputError("embed() takes a sequence of strings, not a single string")
    try:
        items = list(texts)
    except TypeError as exc:
        raise InvalidInputError(f"embed() takes a sequence of strings, got {type(texts)}") from exc
    for i, t in enumerate(items):
        if not isinstance(t, str):
            raise InvalidInputError(f"embed() texts[{i}] is {type(t).__name__}, expected str")
    return items


def l2_normalise(vectors: npt.NDArray[Any]) -> Vectors:
    arr = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(arr, axis=1, keepdims=True)
    out: Vectors = np.divide(arr, norms, out=np.zeros_like(arr), where=norms > 0)
    return out


class CachingEmbedder:
    """Base class: input validation, an LRU cache, de-duplication and batching.

    Subclasses implement :meth:`_encode` for a list of unique, uncached texts and either
    set ``_dim`` or a lazy :meth:`_load` that sets it. ``embed`` only sends cache misses to
    the model, in batches of
    ``batch_size``, de-duplicates identical texts and returns rows in input order.

    Attributes:
        model_calls: how many batches were sent to the model.
        cache_hits: texts answered from the cache (including in-call duplicates).
        cache_misses: texts that were encoded.
    """

    name: str
    #: False for an English-only model (see :func:`represents`)
    multilingual: bool = True

    def __init__(self, *, batch_size: int = 32, cache_size: int = 4096) -> None:
        if int(batch_size) < 1:
            raise ConfigError("batch_size must be >= 1")
        if int(cache_size) < 0:
            raise ConfigError("cache_size must be >= 0")
        self.batch_size = int(batch_size)
        self._dim: int | None = None
        self._cache_size = int(cache_size)
        self._cache: LRUCache[str, Vectors] = LRUCache(maxsize=max(1, self._cache_size))
        self._cache_lock = threading.Lock()
        self._model_lock = threading.RLock()
        self.model_calls = 0
        self.cache_hits = 0
        self.cache_misses = 0
        _forksafe.track(self)  # also when no UserMemory holds it

    def after_fork(self) -> None:
        """In a forked child: new locks (a parent thread may have held one at the fork;
        the model itself is kept: an ONNX Runtime session runs in the child even when a
        parent thread was inside it at the fork)."""
        self._cache_lock = threading.Lock()
        self._model_lock = threading.RLock()

    @property
    def caches(self) -> bool:
        """Whether embedded texts are kept (``cache_size`` > 0): a text embedded ahead of
        time is then served from the cache, not encoded again."""
        return self._cache_size > 0

    @property
    def dimension(self) -> int:
        """Length of every vector (known up front for MiniLM; otherwise loads the model)."""
        return self._dimension()

    @dimension.setter
    def dimension(self, value: int) -> None:
        raise ConfigError(f"the dimension of {self.name!r} is fixed by its model")

    def _load(self) -> object:
        """Load the model; must set ``self._dim``."""
        raise NotImplementedError

    def _dimension(self) -> int:
        if self._dim is None:
            self._load()
        if self._dim is None:
            raise ConfigError(f"embedder {self.name!r} did not report its dimension")
        return self._dim

    def _encode(self, texts: list[str]) -> Vectors:
        raise NotImplementedError

    def clear_cache(self) -> None:
        """Drop every cached vector."""
        with self._cache_lock:
            self._cache.clear()

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Embed ``texts``; rows are unit length and in input order.

        Args:
            texts: the strings to embed (a list or tuple, not a bare ``str``).

        Returns:
            A ``float32`` array of shape ``(len(texts), dimension)``.

        Raises:
            InvalidInputError: ``texts`` is not a sequence of ``str``.
        """
        items = validate_texts(texts)
        if not items:
            return np.zeros((0, self.dimension), dtype=np.float32)
        found: dict[str, Vectors] = {}
        missing: list[str] = []
        with self._cache_lock:
            for text in dict.fromkeys(items):
                vec = self._cache.get(text)
                if vec is None:
                    missing.append(text)
                else:
                    found[text] = vec
        with self._model_lock:
            self.cache_hits += len(items) - len(missing)
            self.cache_misses += len(missing)
        for start in range(0, len(missing), self.batch_size):
            batch = missing[start : start + self.batch_size]
            with self._model_lock:
                self.model_calls += 1
                raw = np.asarray(self._encode(batch), dtype=np.float32)
            if raw.shape != (len(batch), self.dimension):
                raise ConfigError(
                    f"embedder {self.name!r} returned shape {raw.shape}, "
                    f"expected {(len(batch), self.dimension)}"
                )
            if not np.isfinite(raw).all():
                raise ConfigError(f"embedder {self.name!r} returned non-finite values")
            encoded = l2_normalise(raw)
            for text, vec in zip(batch, encoded, strict=True):
                vec.setflags(write=False)
                found[text] = vec
            if self._cache_size:
                with self._cache_lock:
                    self._cache.update(zip(batch, encoded, strict=True))
        return np.stack([found[t] for t in items]).astype(np.float32, copy=False)


class CallableEmbedder(CachingEmbedder):
    """Wraps any ``texts -> vectors`` function as an :class:`~shared_core.llm.Embedder`.

    Output rows are L2-normalised and cached (LRU). A wrong output shape or non-finite
    values raise :class:`~shared_core.errors.ConfigError`.

    Args:
        fn: called with a ``list[str]``; returns an array-like of shape ``(n, dimension)``.
        dimension: vector length ``fn`` produces.
        name: identifier stored with vectors (changing model => change the name).
        batch_size: texts per ``fn`` call.
        cache_size: LRU entries; 0 disables the cache.
        multilingual: ``False`` when the model only knows English (see :func:`represents`).

    Example:
        >>> emb = CallableEmbedder(lambda ts: [[1.0, 0.0]] * len(ts), dimension=2, name="toy")
        >>> emb.embed(["a"]).tolist()
        [[1.0, 0.0]]
    """

    def __init__(
        self,
        fn: Callable[[list[str]], Any],
        dimension: int,
        name: str,
        *,
        batch_size: int = 64,
        cache_size: int = 4096,
        multilingual: bool = True,
    ) -> None:
        super().__init__(batch_size=batch_size, cache_size=cache_size)
        self.multilingual = multilingual_flag(multilingual)
        if not callable(fn):
            raise ConfigError("CallableEmbedder needs a callable")
        if int(dimension) < 1:
            raise ConfigError("dimension must be >= 1")
        if not isinstance(name, str) or not name:
            raise ConfigError("CallableEmbedder needs a non-empty name")
        self._fn = fn
        self._dim = int(dimension)
        self.name = name

    def _encode(self, texts: list[str]) -> Vectors:
        out = np.asarray(self._fn(list(texts)), dtype=np.float32)
        if out.ndim != 2:
            raise ConfigError(f"embedder {self.name!r} returned an array of shape {out.shape}")
        return out
