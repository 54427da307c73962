"""``UserMemoryRetriever``: a LlamaIndex retriever over one user's memories."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from llama_index.core.base.base_retriever import BaseRetriever
from llama_index.core.callbacks import CallbackManager
from llama_index.core.schema import NodeWithScore, QueryBundle, QueryType, TextNode

from shared_core import InvalidInputError, ScoredMemory, check_count, check_id, memory_line

from ._bridge import CoreBridge

__all__ = ["UserMemoryRetriever", "scored_to_node"]

# Metadata the LLM sees next to each memory's text (the rest stays for code). The text
# itself says who said it and when; a raw ``source`` would call a stored assistant reply
# "inferred".
_LLM_METADATA = ("key", "kind")


def scored_to_node(hit: ScoredMemory) -> NodeWithScore:
    """Turn one recall result into a ``NodeWithScore``.

    The node's text reads on its own ("Contact channel: SMS (said 2026-04-12)",
    "Assistant replied on 2026-04-12: ...", see :func:`shared_core.readable.memory_line`)
    and its id is the record id; the metadata are the same as the LangChain retriever's
    documents: value, id, user_id, key, kind, source, score, confidence, decay,
    relevance, matched_by, version, scope, hard, permanent, system_context, updated_at,
    valid_until and provenance (session, turn, time, span). Only key and kind are shown
    to the LLM next to the text; none are embedded.

    Args:
        hit: a ``ScoredMemory`` from ``recall()``.

    Returns:
        The node with the final recall score.
    """
    record = hit.record
    metadata: dict[str, Any] = {**hit.metadata(), "value": record.value}
    node = TextNode(
        id_=record.id,
        text=memory_line(record),
        metadata=metadata,
        excluded_llm_metadata_keys=[k for k in metadata if k not in _LLM_METADATA],
        excluded_embed_metadata_keys=list(metadata),
    )
    return NodeWithScore(node=node, score=hit.score)


def _check_query(query: Any) -> QueryType:
    # LlamaIndex's instrumentation would fail on a non-string with a bare pydantic error
    if not isinstance(query, str | QueryBundle):
        raise InvalidInputError(f"query must be a str or QueryBundle, got {type(query).__name__}")
    return query


class UserMemoryRetriever(BaseRetriever):
    """Retrieve a user's memories relevant to a query as ``NodeWithScore``.

    Usable anywhere LlamaIndex takes a retriever, e.g. as the retriever of a
    ``CondensePlusContextChatEngine`` or inside a ``RetrieverQueryEngine``.
    ``aretrieve`` awaits the core without blocking the event loop (an
    ``AsyncUserMemory`` natively, a sync ``UserMemory`` in a worker thread).

    Args:
        memory: a ``shared_core.UserMemory`` or ``shared_core.AsyncUserMemory``.
        user_id: whose memories to search.
        k: how many memories to return.
        system_context: the core's system context.
        device_id: device for device-scoped memories.
        session_id: the current session, if any (session-scoped memories).
        kinds: restrict to these kinds ("preference", "fact", ...); ``None`` for all.
        callback_manager: LlamaIndex callback manager.
        verbose: LlamaIndex verbose flag.

    Raises:
        InvalidInputError: an invalid ``user_id`` (``InvalidIdError``) or ``k`` < 1.
    """

    def __init__(
        self,
        memory: Any,
        user_id: str,
        *,
        k: int = 3,
        system_context: str = "default",
        device_id: str | None = None,
        session_id: str | None = None,
        kinds: Sequence[str] | None = None,
        callback_manager: CallbackManager | None = None,
        verbose: bool = False,
    ) -> None:
        check_id(user_id, "user_id")
        check_count(k, "k")
        self._bridge = CoreBridge(memory)
        self.memory = memory
        self.user_id = user_id
        self.k = k
        self.system_context = system_context
        self.device_id = device_id
        self.session_id = session_id
        self.kinds = list(kinds) if kinds is not None else None
        super().__init__(callback_manager=callback_manager, verbose=verbose)

    def _recall_kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "k": self.k,
            "system_context": self.system_context,
            "device_id": self.device_id,
            "session_id": self.session_id,
        }
        if self.kinds is not None:
            kwargs["kinds"] = self.kinds
        return kwargs

    def retrieve(self, str_or_query_bundle: QueryType) -> list[NodeWithScore]:
        """Retrieve the user's memories for a query (a ``str`` or ``QueryBundle``).

        Raises:
            InvalidInputError: the query is not a string / ``QueryBundle``, or the core
                rejects it (empty, too large, NUL bytes).
        """
        return super().retrieve(_check_query(str_or_query_bundle))

    async def aretrieve(self, str_or_query_bundle: QueryType) -> list[NodeWithScore]:
        """Async :meth:`retrieve`."""
        return await super().aretrieve(_check_query(str_or_query_bundle))

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        hits = self._bridge.call(
            "recall", self.user_id, query_bundle.query_str, **self._recall_kwargs()
        )
        return [scored_to_node(hit) for hit in hits]

    async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        hits = await self._bridge.acall(
            "recall", self.user_id, query_bundle.query_str, **self._recall_kwargs()
        )
        return [scored_to_node(hit) for hit in hits]
