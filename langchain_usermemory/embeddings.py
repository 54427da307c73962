"""Bridges between LangChain ``Embeddings`` and the core's ``Embedder`` protocol."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from langchain_core.embeddings import Embeddings

from shared_core import CachingEmbedder, ConfigError, Embedder, InvalidInputError, multilingual_flag

__all__ = ["LangChainEmbedder", "UserMemoryEmbeddings"]


class LangChainEmbedder(CachingEmbedder):
    """Use any LangChain ``Embeddings`` as the core's embedder.

    Example::

        from langchain_core.embeddings import DeterministicFakeEmbedding
        memory = UserMemory.from_url(
            "sqlite:///:memory:", embedder=LangChainEmbedder(DeterministicFakeEmbedding(size=64))
        )

    Built on the core's ``CachingEmbedder``: rows are L2-normalised, repeated texts are
    served from an LRU cache, and a wrong shape or non-finite values raise
    ``ConfigError``. ``dimension`` is taken from the argument or, the first time it is
    needed, by embedding one probe text.

    Args:
        embeddings: the LangChain embeddings model.
        name: a stable name for the model (stored with the vectors).
        dimension: the vector size, if known (saves the probe call).
        batch_size: texts per ``embed_documents`` call.
        cache_size: LRU entries; 0 disables the cache.
        multilingual: whether the model understands more than English; by default
            ``False`` only for a known English-only model name (e.g.
            ``HuggingFaceEmbeddings(model_name="all-MiniLM-L6-v2")``). Recall leaves the
            dense channel out for mostly-Chinese queries with an English-only model.
    """

    def __init__(
        self,
        embeddings: Embeddings,
        *,
        name: str | None = None,
        dimension: int | None = None,
        batch_size: int = 64,
        cache_size: int = 4096,
        multilingual: bool | None = None,
    ) -> None:
        super().__init__(batch_size=batch_size, cache_size=cache_size)
        if not isinstance(embeddings, Embeddings):
            raise InvalidInputError(
                f"expected a langchain_core Embeddings, got {type(embeddings).__name__}"
            )
        if dimension is not None and int(dimension) < 1:
            raise InvalidInputError(f"dimension must be >= 1, got {dimension}")
        self.embeddings = embeddings
        model = getattr(embeddings, "model", None) or getattr(embeddings, "model_name", None)
        suffix = f":{model}" if isinstance(model, str) else ""
        self.name = name or f"langchain:{type(embeddings).__name__}{suffix}"
        self.multilingual = multilingual_flag(multilingual, model)
        self._dim = int(dimension) if dimension is not None else None

    def _dimension(self) -> int:
        if self._dim is None:
            probe = np.asarray([self.embeddings.embed_query("dimension probe")], dtype=np.float32)
            if probe.ndim != 2 or probe.shape[1] < 1:
                raise ConfigError(
                    f"embedder {self.name!r} returned a vector of shape {probe.shape}"
                )
            self._dim = int(probe.shape[1])
        return self._dim

    def _encode(self, texts: list[str]) -> npt.NDArray[np.float32]:
        out = np.asarray(self.embeddings.embed_documents(list(texts)), dtype=np.float32)
        if self._dim is None and out.ndim == 2:
            self._dim = int(out.shape[1])
        return out


class UserMemoryEmbeddings(Embeddings):
    """The other way round: expose a core ``Embedder`` as LangChain ``Embeddings``.

    Handy to give LangGraph's ``InMemoryStore`` or a LangChain vector store the same
    embedding model as the memory (e.g. ``shared_core.embed.HashingEmbedder``).

    Args:
        embedder: any object implementing the core's ``Embedder`` protocol.
    """

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed documents.

        Args:
            texts: the texts.

        Returns:
            One vector per text.
        """
        return [list(map(float, row)) for row in self.embedder.embed(texts)]

    def embed_query(self, text: str) -> list[float]:
        """Embed one query.

        Args:
            text: the query.

        Returns:
            Its vector.
        """
        return self.embed_documents([text])[0]
