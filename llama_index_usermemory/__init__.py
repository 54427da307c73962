"""LlamaIndex adapters for UserMemory (install with ``pip install "usermemory[llamaindex]"``).

* :class:`UserMemoryBlock` - a block for ``llama_index.core.memory.Memory``.
* :class:`UserChatMemory` - a ``BaseMemory`` for chat engines and agents.
* :class:`UserMemoryRetriever` - a retriever returning ``NodeWithScore``.
* :class:`LlamaIndexExtractor` - memory extraction with any LlamaIndex LLM.
* :class:`LlamaIndexEmbedder` - any LlamaIndex ``BaseEmbedding`` as the embedder.
* :func:`create_memory_tools` - ``manage_memory`` / ``search_memory`` ``FunctionTool`` objects
  bound to one user, for agents that decide what to remember.
"""

from __future__ import annotations

try:
    import llama_index.core  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    from shared_core import MissingDependencyError

    raise MissingDependencyError("llama-index-core", "llamaindex") from exc

from .block import UserMemoryBlock
from .chat_memory import UserChatMemory
from .embedding import LlamaIndexEmbedder
from .extractor import LlamaIndexExtractor
from .retriever import UserMemoryRetriever, scored_to_node
from .tools import create_manage_memory_tool, create_memory_tools, create_search_memory_tool

__all__ = [
    "LlamaIndexEmbedder",
    "LlamaIndexExtractor",
    "UserChatMemory",
    "UserMemoryBlock",
    "UserMemoryRetriever",
    "create_manage_memory_tool",
    "create_memory_tools",
    "create_search_memory_tool",
    "scored_to_node",
]
