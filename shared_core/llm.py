"""Framework-free protocols for the pluggable model parts: extractors and embedders.

Adapters (``langchain_usermemory``, ``llama_index_usermemory``) supply implementations
backed by LangChain / LlamaIndex models; the core ships offline defaults
(:class:`shared_core.ingest.extract.RuleExtractor`,
:class:`shared_core.embed.SentenceTransformerEmbedder`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from .entities import Candidate, Turn

__all__ = ["AsyncExtractor", "Embedder", "Extractor"]


@runtime_checkable
class Extractor(Protocol):
    """Turns one conversation turn into memory candidates.

    Implementations must not raise on odd text: return ``[]`` when nothing is found.
    LLM-backed extractors fall back to the rule extractor on malformed output.
    """

    name: str

    def extract(self, turn: Turn) -> list[Candidate]: ...


@runtime_checkable
class AsyncExtractor(Protocol):
    """An extractor with a native async path (used by ``AsyncUserMemory`` when present)."""

    name: str

    def extract(self, turn: Turn) -> list[Candidate]: ...

    async def aextract(self, turn: Turn) -> list[Candidate]: ...


@runtime_checkable
class Embedder(Protocol):
    """Text -> unit-length float32 vectors.

    ``embed`` takes a batch and returns an array of shape ``(len(texts), dimension)``
    whose rows are L2-normalised (cosine similarity = dot product).
    """

    name: str
    dimension: int

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]: ...
