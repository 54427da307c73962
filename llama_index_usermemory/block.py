"""``UserMemoryBlock``: UserMemory as a block of LlamaIndex's ``Memory``.

``llama_index.core.memory.Memory`` keeps a short-term FIFO of chat messages and
calls its blocks at two moments:

* ``aget`` (every time the memory is read): the block recalls what is relevant to the
  latest user message and returns the core's context block, which ``Memory`` renders
  into the system message (or the latest user message);
* ``aput`` (**only when messages are flushed out of the short-term FIFO**, i.e. when
  the queue grows past ``token_limit * chat_history_token_ratio``): the block observes
  the flushed messages, oldest first.

So a preference said in the current session reaches long-term memory when it is
flushed, not when it is said; until then it is still in the short-term history the
LLM sees. Nothing is lost at a flush boundary: every flushed message is observed in
order (user, assistant and tool text; system prompts are skipped), a message the core
cannot take right now (a backend error) is kept and retried before the next read or
write, and at the end of a conversation :meth:`UserMemoryBlock.aflush` moves whatever
is still in the short-term FIFO into long-term memory and closes the core session.
If you want every message observed the moment it is said, use
:class:`~llama_index_usermemory.UserChatMemory` instead.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import Any

from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.bridge.pydantic import ConfigDict, Field, PrivateAttr
from llama_index.core.memory import BaseMemoryBlock, Memory
from llama_index.core.storage.chat_store.base_db import MessageStatus

from shared_core import BackendError, InvalidInputError, MemoryDisabledError

from ._bridge import CoreBridge, bridge_of, init_checked, run_sync
from ._messages import core_role, latest_user_text, message_text

__all__ = ["UserMemoryBlock"]

logger = logging.getLogger(__name__)


class UserMemoryBlock(BaseMemoryBlock[str]):
    """A ``Memory`` block backed by a ``UserMemory`` (or ``AsyncUserMemory``).

    Example:
        >>> from llama_index.core.memory import Memory
        >>> block = UserMemoryBlock(memory=um, user_id="u1")  # doctest: +SKIP
        >>> mem = Memory.from_defaults(session_id="s1", memory_blocks=[block])  # doctest: +SKIP

    Attributes:
        memory: the core object.
        user_id: whose memory this is.
        system_context: the core's system context (isolation domain).
        device_id: optional device for device-scoped memories.
        token_budget: budget of the rendered context block (``None`` = core default).
        k: number of recalled memories (``None`` = core default).
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    name: str = Field(default="user_memory", description="Name of the memory block.")
    description: str | None = Field(
        default="What UserMemory knows about the user: constraints, preferences, episodes."
    )
    memory: Any = Field(description="A shared_core.UserMemory or AsyncUserMemory.", exclude=True)
    user_id: str = Field(description="The user whose memory this block reads and writes.")
    system_context: str = Field(default="default")
    device_id: str | None = Field(default=None)
    token_budget: int | None = Field(default=None, gt=0)
    k: int | None = Field(default=None, gt=0)

    _bridge: CoreBridge | None = PrivateAttr(default=None)
    # (role, text, session_id, turn_id) in arrival order; the turn id makes retries idempotent.
    _pending: list[tuple[str, str, str | None, str]] = PrivateAttr(default_factory=list)
    _lock: asyncio.Lock | None = PrivateAttr(default=None)
    _lock_loop: asyncio.AbstractEventLoop | None = PrivateAttr(default=None)

    def __init__(self, **data: Any) -> None:
        """Build the block; bad arguments raise ``InvalidInputError`` (a ``ValueError``)."""
        init_checked(self, super().__init__, data, ("user_id",))

    def _get_bridge(self) -> CoreBridge:
        return bridge_of(self)

    @property
    def pending(self) -> int:
        """Messages received but not yet stored because the backend failed (retried later)."""
        return len(self._pending)

    def _get_lock(self) -> asyncio.Lock:
        loop = asyncio.get_running_loop()
        if self._lock is None or self._lock_loop is not loop:
            self._lock = asyncio.Lock()
            self._lock_loop = loop
        return self._lock

    async def _aget(self, messages: list[ChatMessage] | None = None, **block_kwargs: Any) -> str:
        """Recall for the latest user message and return the core's context block.

        Args:
            messages: the short-term history (plus the new input, if any).
            **block_kwargs: ``session_id`` (passed by ``Memory``), and optionally
                ``user_id``/``system_context``/``device_id`` overrides.

        Returns:
            The context block, or ``""`` when there is no user message to recall for.
        """
        await self._drain()
        query = latest_user_text(messages)
        if not query:
            return ""
        kwargs: dict[str, Any] = {
            "system_context": block_kwargs.get("system_context", self.system_context),
            "device_id": block_kwargs.get("device_id", self.device_id),
            "session_id": block_kwargs.get("session_id"),
        }
        if self.token_budget is not None:
            kwargs["token_budget"] = self.token_budget
        if self.k is not None:
            kwargs["k"] = self.k
        user_id = block_kwargs.get("user_id", self.user_id)
        text: str = await self._get_bridge().acall("context", user_id, query, **kwargs)
        return text

    async def _aput(self, messages: list[ChatMessage]) -> None:
        """Observe messages flushed out of short-term memory, oldest first.

        System prompts and messages without text (bare tool calls) are skipped. Each
        message's session id comes from ``additional_kwargs["session_id"]`` (set by
        ``Memory``). Text the core rejects as invalid is logged and skipped; when the
        backend fails, the message and everything after it are kept and retried (with
        the same turn id, so a retry never stores a turn twice).
        """
        batch: list[tuple[str, str, str | None, str]] = []
        for message in messages:
            role = core_role(message)
            text = message_text(message)
            if role is None or not text:
                continue
            session_id = message.additional_kwargs.get("session_id")
            sid = str(session_id) if session_id is not None else None
            batch.append((role, text, sid, uuid.uuid4().hex[:16]))
        async with self._get_lock():
            self._pending.extend(batch)
            await self._drain_locked()

    async def _drain(self) -> None:
        if self._pending:
            async with self._get_lock():
                await self._drain_locked()

    async def _drain_locked(self) -> None:
        while self._pending:
            role, text, session_id, turn_id = self._pending[0]
            try:
                await self._get_bridge().acall(
                    "observe",
                    self.user_id,
                    text,
                    role=role,
                    session_id=session_id,
                    turn_id=turn_id,
                    device_id=self.device_id,
                    system_context=self.system_context,
                )
            except MemoryDisabledError:
                logger.info("memory is disabled for this user; flushed message not stored")
            except InvalidInputError as exc:
                logger.warning("flushed %s message not stored: %s", role, exc)
            except BackendError as exc:
                # Keep this message and the ones after it; retried on the next get/put.
                logger.warning(
                    "backend failed; %d flushed message(s) kept for retry: %s",
                    len(self._pending),
                    exc,
                )
                return
            self._pending.pop(0)

    async def aflush(self, memory: Memory, *, end_session: bool = True) -> int:
        """Move what is still in ``memory``'s short-term FIFO into long-term memory.

        ``Memory`` only hands messages to blocks when its FIFO overflows, so the last
        turns of a conversation would otherwise never be stored. Call this when a
        conversation ends. The messages are archived in ``memory`` (as a flush would do),
        passed to every block of ``memory`` that accepts short-term messages, and, with
        ``end_session``, the core session is closed so its episode is written.

        Args:
            memory: the ``Memory`` this block belongs to.
            end_session: also call the core's ``end_session`` for ``memory.session_id``.

        Returns:
            The number of messages moved.

        Raises:
            InvalidInputError: this block is not one of ``memory.memory_blocks``.
        """
        if not any(block is self for block in memory.memory_blocks):
            raise InvalidInputError("this UserMemoryBlock is not a block of the given Memory")
        active = await memory.sql_store.get_messages(memory.session_id, status=MessageStatus.ACTIVE)
        if active:
            await memory.sql_store.archive_oldest_messages(memory.session_id, n=len(active))
            for block in memory.memory_blocks:
                await block.aput(active, from_short_term_memory=True, session_id=memory.session_id)
        await self._drain()
        if self._pending:
            raise BackendError(
                f"{len(self._pending)} message(s) could not be stored yet; they are kept "
                "in the block and retried on the next call"
            )
        if end_session:
            await self._get_bridge().acall("end_session", self.user_id, memory.session_id)
        return len(active)

    def flush(self, memory: Memory, *, end_session: bool = True) -> int:
        """Sync twin of :meth:`aflush` (safe inside a running event loop)."""
        result: int = run_sync(self.aflush(memory, end_session=end_session))
        return result

    async def atruncate(self, content: str, tokens_to_truncate: int) -> str | None:
        """Shorten the context block by dropping its last lines (``Memory`` asks on overflow).

        Args:
            content: the rendered context block.
            tokens_to_truncate: roughly how many tokens to remove.

        Returns:
            The shortened block, or ``None`` when nothing useful is left.
        """
        lines = content.splitlines()
        budget = max(0, len(content) - 4 * max(0, tokens_to_truncate))
        while lines and len("\n".join(lines)) > budget:
            lines.pop()
        kept = "\n".join(lines).strip()
        return kept or None

    def __repr__(self) -> str:
        return (
            f"UserMemoryBlock(name={self.name!r}, user_id={self.user_id!r}, "
            f"system_context={self.system_context!r})"
        )
