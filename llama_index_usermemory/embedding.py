"""``LlamaIndexEmbedder``: any LlamaIndex ``BaseEmbedding`` as the core's ``Embedder``."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from llama_index.core.base.embeddings.base import BaseEmbedding

from shared_core import InvalidInputError, check_count, multilingual_flag

__all__ = ["LlamaIndexEmbedder"]


class LlamaIndexEmbedder:
    """Wraps a LlamaIndex embedding model for ``UserMemory(embedder=...)``.

    Vectors come from ``get_text_embedding_batch`` and are L2-normalised here (the
    core compares by dot product).

    Args:
        embed_model: any ``llama_index.core.embeddings.BaseEmbedding``
            (``HuggingFaceEmbedding``, ``OpenAIEmbedding``, ``MockEmbedding``, ...).
        dimension: the vector size; when ``None`` it is measured once by embedding a
            short probe text.
        name: the embedder name the core records with stored vectors (defaults to
            ``"llamaindex:<class>:<model_name>"``); change it when the model changes.
        multilingual: whether the model understands more than English; by default
            ``False`` only for a known English-only ``model_name`` (e.g.
            ``all-MiniLM-L6-v2``). Recall leaves the dense channel out for
            mostly-Chinese queries with an English-only model.

    Raises:
        InvalidInputError: ``embed_model`` is not a ``BaseEmbedding`` or the dimension
            is not positive.
    """

    def __init__(
        self,
        embed_model: BaseEmbedding,
        *,
        dimension: int | None = None,
        name: str | None = None,
        multilingual: bool | None = None,
    ) -> None:
        if not isinstance(embed_model, BaseEmbedding):
            raise InvalidInputError(
                f"embed_model must be a llama_index BaseEmbedding, got {type(embed_model).__name__}"
            )
        self.embed_model = embed_model
        self.name: str = name or (
            f"llamaindex:{type(embed_model).__name__}:{embed_model.model_name}"
        )
        self.multilingual = multilingual_flag(multilingual, embed_model.model_name)
        if dimension is None:
            dimension = len(embed_model.get_text_embedding("dimension probe"))
        self.dimension: int = check_count(dimension, "dimension")

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Embed a batch of texts.

        Args:
            texts: the texts (``str`` each).

        Returns:
            A float32 array of shape ``(len(texts), dimension)`` with unit-length rows
            (an all-zero vector stays zero).

        Raises:
            InvalidInputError: ``texts`` is a single string, a text is not a string, or
                the model returned vectors of the wrong size or non-finite values.
        """
        if isinstance(texts, str | bytes):
            raise InvalidInputError("texts must be a sequence of strings, not a single string")
        items = list(texts)
        for text in items:
            if not isinstance(text, str):
                raise InvalidInputError(f"texts must be strings, got {type(text).__name__}")
        if not items:
            return np.zeros((0, self.dimension), dtype=np.float32)
        raw = self.embed_model.get_text_embedding_batch(items)
        matrix = np.asarray(raw, dtype=np.float32)
        if matrix.shape != (len(items), self.dimension):
            raise InvalidInputError(
                f"embedding model returned shape {matrix.shape}, "
                f"expected {(len(items), self.dimension)}"
            )
        if not np.isfinite(matrix).all():
            raise InvalidInputError(
                f"embedding model {self.name!r} returned NaN or infinite values"
            )
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        norms[norms == 0.0] = 1.0
        out: npt.NDArray[np.float32] = (matrix / norms).astype(np.float32, copy=False)
        return out
