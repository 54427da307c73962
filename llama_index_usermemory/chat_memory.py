"""``UserChatMemory``: UserMemory as the ``memory=`` of chat engines and agents.

Any LlamaIndex component that takes a ``BaseMemory`` accepts it:
``SimpleChatEngine``, ``CondensePlusContextChatEngine``, ``FunctionAgent`` and
``AgentWorkflow``. Unlike ``Memory`` + :class:`~llama_index_usermemory.UserMemoryBlock`,
every ``put`` is observed by the core immediately, and ``get`` returns

1. one system message holding the core's context block for the current query (what
   is known about the user: constraints, preferences, relevant past episodes, each
   with its source and date), then
2. the recent turns of the current session, oldest first.

Long-term memories and per-turn episodes live in the core's record store, so a new
process (a new chat at session 50) recalls what was said at session 3. The recent turns
of the *current* session come from the core's session store: in-process by default
(lost on restart, expiring after ``MemoryConfig.session_ttl_seconds``), shared and
restart-safe with the Redis session store.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from llama_index.core.base.llms.types import ChatMessage, MessageRole
from llama_index.core.bridge.pydantic import ConfigDict, Field, PrivateAttr
from llama_index.core.memory.types import BaseMemory

from shared_core import InvalidInputError, Plan, SessionTurn, arun_plan, core_call, run_plan

from ._bridge import CoreBridge, bridge_of, init_checked
from ._messages import core_role, message_text, turn_to_message

__all__ = ["UserChatMemory"]


def _new_session_id() -> str:
    return uuid.uuid4().hex


class UserChatMemory(BaseMemory):
    """A chat-engine/agent memory that stores every message in UserMemory.

    Sync methods never touch the caller's event loop, so they are safe inside
    Jupyter's running loop; async methods never block the loop. With an
    ``AsyncUserMemory`` the async methods await it on the caller's loop and the sync
    methods use its sync twin (``.sync``), so no async client is ever driven from a
    second loop (see ``llama_index_usermemory._bridge``).

    Example:
        >>> from shared_core import UserMemory  # doctest: +SKIP
        >>> from llama_index.core.chat_engine import SimpleChatEngine  # doctest: +SKIP
        >>> um = UserMemory.from_url("sqlite:///memory.db")  # doctest: +SKIP
        >>> memory = UserChatMemory(memory=um, user_id="u1", session_id="s50")  # doctest: +SKIP
        >>> engine = SimpleChatEngine.from_defaults(llm=llm, memory=memory)  # doctest: +SKIP

    Attributes:
        memory: the core object (``UserMemory`` or ``AsyncUserMemory``).
        user_id: whose memory this is.
        session_id: the current conversation (a new random id by default).
        system_context: the core's system context (isolation domain).
        device_id: optional device for device-scoped memories.
        token_budget: budget of the context block (``None`` = core default).
        k: number of recalled memories (``None`` = core default).
        window: recent session turns returned by ``get`` (``None`` = core default).
        include_context: put the context block in front of the turns.
        context_role: role of the context message (``system`` by default).
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    memory: Any = Field(description="A shared_core.UserMemory or AsyncUserMemory.", exclude=True)
    user_id: str
    session_id: str = Field(default_factory=_new_session_id)
    system_context: str = "default"
    device_id: str | None = None
    token_budget: int | None = Field(default=None, gt=0)
    k: int | None = Field(default=None, gt=0)
    window: int | None = Field(default=None, gt=0)
    include_context: bool = True
    context_role: MessageRole = MessageRole.SYSTEM

    _bridge: CoreBridge | None = PrivateAttr(default=None)

    def __init__(self, **data: Any) -> None:
        """Build the memory; bad arguments raise ``InvalidInputError`` (a ``ValueError``)."""
        init_checked(self, super().__init__, data, ("user_id", "session_id"))

    def _get_bridge(self) -> CoreBridge:
        return bridge_of(self)

    @classmethod
    def class_name(cls) -> str:
        """The LlamaIndex class name."""
        return "UserChatMemory"

    @classmethod
    def from_defaults(cls, **kwargs: Any) -> UserChatMemory:
        """Build from keyword arguments (``memory=``, ``user_id=`` are required).

        ``chat_history=`` (a list of messages) is observed into the new session and
        ``llm=`` is accepted and ignored, for compatibility with ``ChatMemoryBuffer``.
        """
        chat_history = kwargs.pop("chat_history", None)
        kwargs.pop("llm", None)
        instance = cls(**kwargs)
        if chat_history:
            instance.put_messages(list(chat_history))
        return instance

    # -- helpers ---------------------------------------------------------------------------

    def _observe_kwargs(self) -> dict[str, Any]:
        return {
            "session_id": self.session_id,
            "device_id": self.device_id,
            "system_context": self.system_context,
        }

    def _context_kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "system_context": self.system_context,
            "device_id": self.device_id,
            "session_id": self.session_id,
        }
        if self.token_budget is not None:
            kwargs["token_budget"] = self.token_budget
        if self.k is not None:
            kwargs["k"] = self.k
        return kwargs

    def _assemble(self, context: str, turns: Sequence[SessionTurn]) -> list[ChatMessage]:
        messages = [turn_to_message(t) for t in turns]
        if self.include_context and context.strip():
            messages.insert(0, ChatMessage(role=self.context_role, content=context))
        return messages

    @staticmethod
    def _query(input: str | None, turns: Sequence[SessionTurn]) -> str:
        if input is not None and not isinstance(input, str):
            raise InvalidInputError("input must be a string or None")
        if input and input.strip():
            return input
        for turn in reversed(turns):
            if turn.role == "user" and turn.text.strip():
                return turn.text
        return ""

    @staticmethod
    def _observable(message: ChatMessage) -> tuple[str, str] | None:
        if not isinstance(message, ChatMessage):
            raise InvalidInputError(f"expected a ChatMessage, got {type(message).__name__}")
        role = core_role(message)
        text = message_text(message)
        if role is None or not text:
            return None
        return role, text

    def _observable_all(self, messages: Sequence[ChatMessage]) -> list[tuple[str, str]]:
        return [p for p in (self._observable(m) for m in messages) if p is not None]

    def _new_messages(
        self, messages: Sequence[ChatMessage], turns: Sequence[SessionTurn]
    ) -> list[tuple[str, str]]:
        """The messages of ``messages`` that the session does not already end with."""
        wanted = self._observable_all(messages)
        have = [(t.role, t.text) for t in turns]
        # The longest prefix of ``wanted`` that the stored session ends with is skipped.
        for size in range(min(len(wanted), len(have)), 0, -1):
            if have[-size:] == wanted[:size]:
                return wanted[size:]
        return wanted

    # -- plans (one body for each sync method and its async twin) -------------------------

    def _get(self, input: str | None) -> Plan[list[ChatMessage]]:
        turns = yield core_call("session_turns", self.user_id, self.session_id, limit=self.window)
        query = self._query(input, turns)
        context = ""
        if query and self.include_context:
            context = yield core_call("context", self.user_id, query, **self._context_kwargs())
        return self._assemble(context, turns)

    def _get_all(self) -> Plan[list[ChatMessage]]:
        turns = yield core_call("session_turns", self.user_id, self.session_id, limit=None)
        return [turn_to_message(t) for t in turns]

    def _put(self, message: ChatMessage) -> Plan[None]:
        pair = self._observable(message)
        if pair is not None:
            role, text = pair
            yield core_call("observe", self.user_id, text, role=role, **self._observe_kwargs())

    def _put_messages(self, messages: list[ChatMessage], *, only_new: bool) -> Plan[None]:
        """Observe the messages in one ``observe_messages`` call (``only_new``: those the
        session does not already end with)."""
        if only_new:
            stored = yield core_call("session_turns", self.user_id, self.session_id, limit=None)
            pairs = self._new_messages(messages, stored)
        else:
            pairs = self._observable_all(messages)
        turns = [{"role": role, "content": text} for role, text in pairs]
        if turns:
            yield core_call("observe_messages", self.user_id, turns, **self._observe_kwargs())

    def _reset(self) -> Plan[None]:
        yield core_call("end_session", self.user_id, self.session_id)
        self.session_id = _new_session_id()

    # -- sync API --------------------------------------------------------------------------

    def get(self, input: str | None = None, **kwargs: Any) -> list[ChatMessage]:
        """The context block for ``input`` (or the latest user turn) plus recent turns.

        Args:
            input: the query to recall for; defaults to the latest user turn.
            **kwargs: ignored (chat engines pass ``initial_token_count``).

        Returns:
            ``[context system message?, *recent session turns]``.
        """
        return run_plan(self._get_bridge(), self._get(input))

    def get_all(self) -> list[ChatMessage]:
        """Every turn of the current session, oldest first (no context block)."""
        return run_plan(self._get_bridge(), self._get_all())

    def put(self, message: ChatMessage) -> None:
        """Observe one message now (system prompts and text-less tool calls are skipped)."""
        run_plan(self._get_bridge(), self._put(message))

    def put_messages(self, messages: list[ChatMessage]) -> None:
        """Observe several messages at once, in order, in this session (``observe_messages``)."""
        run_plan(self._get_bridge(), self._put_messages(messages, only_new=False))

    def set(self, messages: list[ChatMessage]) -> None:
        """Make ``messages`` the session's history as far as long-term memory allows.

        Long-term memory cannot unsay things, so ``set`` observes only the messages the
        session does not already end with (a history that repeats the stored turns
        adds nothing; new turns are appended).
        """
        run_plan(self._get_bridge(), self._put_messages(messages, only_new=True))

    def reset(self) -> None:
        """End the current session (the core writes its episode) and start a new one.

        Long-term memories are kept; use the core's ``forget`` to erase them.
        """
        run_plan(self._get_bridge(), self._reset())

    # -- async API -------------------------------------------------------------------------

    async def aget(self, input: str | None = None, **kwargs: Any) -> list[ChatMessage]:
        """Async :meth:`get`."""
        return await arun_plan(self._get_bridge(), self._get(input))

    async def aget_all(self) -> list[ChatMessage]:
        """Async :meth:`get_all`."""
        return await arun_plan(self._get_bridge(), self._get_all())

    async def aput(self, message: ChatMessage) -> None:
        """Async :meth:`put`."""
        await arun_plan(self._get_bridge(), self._put(message))

    async def aput_messages(self, messages: list[ChatMessage]) -> None:
        """Async :meth:`put_messages` (in order)."""
        await arun_plan(self._get_bridge(), self._put_messages(messages, only_new=False))

    async def aset(self, messages: list[ChatMessage]) -> None:
        """Async :meth:`set`."""
        await arun_plan(self._get_bridge(), self._put_messages(messages, only_new=True))

    async def areset(self) -> None:
        """Async :meth:`reset`."""
        await arun_plan(self._get_bridge(), self._reset())
