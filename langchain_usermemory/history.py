"""A ``BaseChatMessageHistory`` for LCEL chains (``RunnableWithMessageHistory``).

:class:`UserMemoryChatHistory` keeps one conversation (a user's session): its messages
are the session's turns from the core's session store, and every message added is
observed at once (``observe_messages``), so what the user says becomes long-term memory
that a later session recalls (through :class:`~langchain_usermemory.UserMemoryRetriever`
in the same chain, or the middleware's context block).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.chat_history import BaseChatMessageHistory
from langchain_core.messages import AIMessage, BaseMessage, ChatMessage, HumanMessage

from shared_core import InvalidInputError, SessionTurn, check_count

from ._compat import acall, call, require_id
from .ids import resolve_user_id

__all__ = ["UserMemoryChatHistory"]


def _turn_message(turn: SessionTurn) -> BaseMessage:
    extra = {"at": turn.at.isoformat()}
    if turn.role == "user":
        return HumanMessage(content=turn.text, id=turn.turn_id, additional_kwargs=extra)
    if turn.role == "assistant":
        return AIMessage(content=turn.text, id=turn.turn_id, additional_kwargs=extra)
    return ChatMessage(role=turn.role, content=turn.text, id=turn.turn_id, additional_kwargs=extra)


class UserMemoryChatHistory(BaseChatMessageHistory):
    """One user's conversation, stored in UserMemory.

    Example::

        chain_with_history = RunnableWithMessageHistory(
            chain,
            lambda user_id, session_id: UserMemoryChatHistory(memory, session_id, user_id=user_id),
            input_messages_key="question",
            history_messages_key="history",
            history_factory_config=[
                ConfigurableFieldSpec(id="user_id", annotation=str),
                ConfigurableFieldSpec(id="session_id", annotation=str),
            ],
        )
        chain_with_history.invoke(
            {"question": "..."}, config={"configurable": {"user_id": "ada", "session_id": "s3"}}
        )

    ``messages`` are the session's turns (oldest first; system prompts and text-less
    tool calls are not turns). ``add_messages`` observes the messages in order, in this
    session, so each reply stays paired with its turn and a message id makes a retry a
    no-op. ``clear()`` ends the session (the core writes its episode); long-term memory
    is kept (erase it with ``memory.forget(user_id)``).

    Args:
        memory: a ``shared_core.UserMemory`` or ``AsyncUserMemory``, or a server client
            (``UserMemoryClient`` / ``AsyncUserMemoryClient``); the async methods await an
            async one natively.
        session_id: the conversation.
        user_id: whose conversation; when ``None``, found in the current run's config
            (see :mod:`langchain_usermemory.ids`).
        system_context: the core's system context.
        device_id: optional device for device-scoped memories.
        window: how many recent turns ``messages`` returns (``None``: all the
            session store keeps).

    Raises:
        InvalidIdError: no user id, or an empty session id.
        InvalidInputError: ``window`` < 1.
    """

    def __init__(
        self,
        memory: Any,
        session_id: str,
        *,
        user_id: str | None = None,
        system_context: str = "default",
        device_id: str | None = None,
        window: int | None = None,
    ) -> None:
        if memory is None:
            raise InvalidInputError("memory= (a UserMemory or AsyncUserMemory) is required")
        if window is not None:
            check_count(window, "window")
        self.memory = memory
        self.user_id = resolve_user_id(user_id)
        self.session_id = require_id(session_id, "session_id")
        self.system_context = system_context
        self.device_id = device_id
        self.window = window

    def _observe_kwargs(self) -> dict[str, Any]:
        return {
            "session_id": self.session_id,
            "device_id": self.device_id,
            "system_context": self.system_context,
        }

    @property
    def messages(self) -> list[BaseMessage]:  # type: ignore[override]
        """The session's turns as messages, oldest first."""
        turns = call(self.memory, "session_turns", self.user_id, self.session_id, limit=self.window)
        return [_turn_message(t) for t in turns]

    async def aget_messages(self) -> list[BaseMessage]:
        """Async :attr:`messages`."""
        turns = await acall(
            self.memory, "session_turns", self.user_id, self.session_id, limit=self.window
        )
        return [_turn_message(t) for t in turns]

    def add_messages(self, messages: Sequence[BaseMessage]) -> None:
        """Observe the messages, in order, into this session.

        Args:
            messages: the new messages (the input and the model's reply).
        """
        call(
            self.memory, "observe_messages", self.user_id, list(messages), **self._observe_kwargs()
        )

    async def aadd_messages(self, messages: Sequence[BaseMessage]) -> None:
        """Async :meth:`add_messages`."""
        await acall(
            self.memory, "observe_messages", self.user_id, list(messages), **self._observe_kwargs()
        )

    def clear(self) -> None:
        """End the session (its episode is written); long-term memory stays."""
        call(self.memory, "end_session", self.user_id, self.session_id)

    async def aclear(self) -> None:
        """Async :meth:`clear`."""
        await acall(self.memory, "end_session", self.user_id, self.session_id)
