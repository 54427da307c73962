"""A LangChain retriever over one user's memories (the core's hybrid recall)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables.config import RunnableConfig
from pydantic import ConfigDict, Field

from shared_core import (
    InvalidInputError,
    Plan,
    ScoredMemory,
    arun_plan,
    check_count,
    core_call,
    memory_line,
    run_plan,
)

from ._compat import init_checked
from .ids import resolve_session_id, resolve_user_id, using_config

__all__ = ["UserMemoryRetriever", "scored_to_document"]


def scored_to_document(hit: ScoredMemory) -> Document:
    """Turn one recall result into a ``Document``.

    ``page_content`` reads on its own ("Contact channel: SMS (said 2026-04-12)", see
    :func:`shared_core.readable.memory_line`), so the usual "join the documents" prompt
    works; the metadata carry the bare ``value``, the record's id, key, kind, source,
    score parts (score, confidence, decay, relevance, matched_by) and its provenance
    (session, turn, time, text span).

    Args:
        hit: a ``ScoredMemory`` from ``recall()``.

    Returns:
        The document.
    """
    record = hit.record
    return Document(
        id=record.id,
        page_content=memory_line(record),
        metadata={**hit.metadata(), "value": record.value},
    )


class UserMemoryRetriever(BaseRetriever):
    """Retrieve a user's memories relevant to a query as ``Document``s.

    The user id is resolved in the order every LangChain entry point shares (see
    :mod:`langchain_usermemory.ids`): ``invoke(query, user_id=...)``, then
    ``config["configurable"]["user_id"]``, ``config["metadata"]["user_id"]``, the
    LangGraph runtime context, and last the ``user_id`` field. ``k`` can be overridden
    per call (``invoke(query, k=5)``).

    Attributes:
        memory: a ``shared_core.UserMemory`` or ``shared_core.AsyncUserMemory``
            (``ainvoke`` awaits the async core natively).
        user_id: default user; ``None`` means "take it from the run's config".
        k: how many memories to return.
        system_context: the core's system context.
        device_id: device for device-scoped memories.
        kinds: restrict to these kinds ("preference", "fact", ...), ``None`` for all.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    memory: Any
    user_id: str | None = None
    k: int = Field(default=3, ge=1)
    system_context: str = "default"
    device_id: str | None = None
    kinds: Sequence[str] | None = None

    def __init__(self, **data: Any) -> None:
        """Build the retriever; bad arguments raise ``InvalidInputError`` (a ``ValueError``)."""
        init_checked(self, super().__init__, data)

    def invoke(
        self, input: str, config: RunnableConfig | None = None, **kwargs: Any
    ) -> list[Document]:
        """Retrieve the memories for ``input`` (the user from the call or its config)."""
        with using_config(config):
            return super().invoke(input, config, **kwargs)

    async def ainvoke(
        self, input: str, config: RunnableConfig | None = None, **kwargs: Any
    ) -> list[Document]:
        """Async :meth:`invoke`."""
        with using_config(config):
            return await super().ainvoke(input, config, **kwargs)

    def _user_id(self, kwargs: dict[str, Any]) -> str:
        # an explicit (even empty) id wins: never fall back to another user's default
        return resolve_user_id(kwargs.pop("user_id", None), default=self.user_id)

    def _recall_kwargs(self, metadata: dict[str, Any], kwargs: dict[str, Any]) -> dict[str, Any]:
        k = kwargs.pop("k", self.k)
        check_count(k, "k")
        out: dict[str, Any] = {
            "k": k,
            "system_context": kwargs.pop("system_context", None)
            or metadata.get("system_context")
            or self.system_context,
            "device_id": kwargs.pop("device_id", None) or self.device_id,
            "session_id": resolve_session_id(kwargs.pop("session_id", None)),
        }
        kinds = kwargs.pop("kinds", None) or self.kinds
        if kinds is not None:
            out["kinds"] = list(kinds)
        if kwargs:
            raise InvalidInputError(f"unexpected retriever arguments: {sorted(kwargs)}")
        return out

    def _recall(
        self, query: str, metadata: dict[str, Any], kwargs: dict[str, Any]
    ) -> Plan[list[Document]]:
        user_id = self._user_id(kwargs)
        hits = yield core_call("recall", user_id, query, **self._recall_kwargs(metadata, kwargs))
        return [scored_to_document(hit) for hit in hits]

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun, **kwargs: Any
    ) -> list[Document]:
        return run_plan(self.memory, self._recall(query, run_manager.metadata, kwargs))

    async def _aget_relevant_documents(
        self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun, **kwargs: Any
    ) -> list[Document]:
        return await arun_plan(self.memory, self._recall(query, run_manager.metadata, kwargs))
