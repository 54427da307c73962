"""LangChain / LangGraph adapters for UserMemory.

Thin adapters only: they convert LangChain types and call ``shared_core``.

* :class:`UserMemoryBuffer` - drop-in ``ConversationBufferMemory`` replacement for
  classic chains (``langchain_classic``).
* :class:`UserMemoryChatHistory` - a ``BaseChatMessageHistory`` for
  ``RunnableWithMessageHistory`` (LCEL chains).
* :class:`UserMemoryRetriever` - a ``BaseRetriever`` over a user's memories.
* :class:`UserMemoryMiddleware` - ``AgentMiddleware`` for ``langchain.agents.create_agent``.
* :class:`UserMemoryStore` - a LangGraph ``BaseStore`` (LangGraph agents, LangMem).
* :func:`create_memory_tools` - ``manage_memory`` / ``search_memory`` tools for agents
  that decide what to remember (the user comes from the run, never from the model).
* :class:`LangChainExtractor` / :class:`LangChainEmbedder` - any chat model / embeddings
  as the core's extractor / embedder.

Submodules load on first attribute access, so ``import langchain_usermemory`` stays
cheap and never imports torch.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .embeddings import LangChainEmbedder, UserMemoryEmbeddings
    from .extractor import LangChainExtractor
    from .history import UserMemoryChatHistory
    from .ids import resolve_session_id, resolve_user_id
    from .memory import UserMemoryBuffer
    from .middleware import UserMemoryMiddleware, UserMemoryState
    from .retriever import UserMemoryRetriever, scored_to_document
    from .store import (
        StoreNamespaceError,
        UserMemoryStore,
        label_user,
        user_label,
        user_namespace,
    )
    from .tools import (
        create_manage_memory_tool,
        create_memory_tools,
        create_search_memory_tool,
    )

__all__ = [
    "LangChainEmbedder",
    "LangChainExtractor",
    "StoreNamespaceError",
    "UserMemoryBuffer",
    "UserMemoryChatHistory",
    "UserMemoryEmbeddings",
    "UserMemoryMiddleware",
    "UserMemoryRetriever",
    "UserMemoryState",
    "UserMemoryStore",
    "create_manage_memory_tool",
    "create_memory_tools",
    "create_search_memory_tool",
    "label_user",
    "resolve_session_id",
    "resolve_user_id",
    "scored_to_document",
    "user_label",
    "user_namespace",
]

_WHERE = {
    "LangChainEmbedder": "embeddings",
    "UserMemoryEmbeddings": "embeddings",
    "LangChainExtractor": "extractor",
    "UserMemoryBuffer": "memory",
    "UserMemoryChatHistory": "history",
    "resolve_session_id": "ids",
    "resolve_user_id": "ids",
    "UserMemoryMiddleware": "middleware",
    "UserMemoryState": "middleware",
    "UserMemoryRetriever": "retriever",
    "scored_to_document": "retriever",
    "StoreNamespaceError": "store",
    "UserMemoryStore": "store",
    "label_user": "store",
    "user_label": "store",
    "user_namespace": "store",
    "create_manage_memory_tool": "tools",
    "create_memory_tools": "tools",
    "create_search_memory_tool": "tools",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
