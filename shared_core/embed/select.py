"""Which embedder UserMemory uses when none is given (``default_embedder``)."""

from __future__ import annotations

import importlib.util
import logging
import os
import threading

from .. import _forksafe
from ..config import MemoryConfig
from ..errors import ConfigError, MissingDependencyError
from .cache import CachingEmbedder
from .hashing import HashingEmbedder
from .models import OnnxEmbedder, SentenceTransformerEmbedder

__all__ = ["default_embedder"]

logger = logging.getLogger(__name__)

_warned_fallback = False
_warn_lock = threading.Lock()
_forksafe.renew_lock(globals(), "_warn_lock")


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
