"""A drop-in replacement for ``ConversationBufferMemory`` backed by UserMemory.

``ConversationBufferMemory`` pastes the whole transcript into every prompt, so the
prompt grows without bound and forgets everything when the process ends.
:class:`UserMemoryBuffer` instead gives the chain

* the core's ``context()`` block for the current input (long-term memories about
  the user, relevant to what they just said, within a token budget), and
* a short window of the current session's turns (so follow-ups still work),

and writes every exchange back through ``observe()``.
"""

from __future__ import annotations

import uuid
from typing import Any

from langchain_classic.base_memory import BaseMemory
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from pydantic import ConfigDict, Field

from shared_core import (
    InvalidInputError,
    Plan,
    SessionTurn,
    arun_plan,
    core_call,
    count_tokens,
    run_plan,
    truncate_to_tokens,
)

from ._compat import init_checked, input_text, require_id

__all__ = ["UserMemoryBuffer"]


_MIN_CONTEXT = 21  # context() takes token_budget >= 20; one token for the newline


def _new_session_id() -> str:
    return f"lc-{uuid.uuid4().hex[:16]}"


class UserMemoryBuffer(BaseMemory):
    """Long-term user memory for classic chains (``ConversationChain``, ``LLMChain``).

    Drop it in where ``ConversationBufferMemory`` was used::

        memory = UserMemory.from_url("sqlite:///memory.db")
        chain = ConversationChain(llm=llm, memory=UserMemoryBuffer(memory=memory, user_id="u1"))

    The history variable holds the core's context block for the current input plus the
    last ``window`` turns of the current session, and never exceeds ``token_budget``.
    ``clear()`` ends the session (the core writes its episode) and starts a new one; it
    does not erase long-term memory (use ``memory.forget(user_id)`` for that).

    Attributes:
        memory: a ``shared_core.UserMemory`` (sync and async chains) or
            ``shared_core.AsyncUserMemory`` (async chains: ``ainvoke``).
        user_id: whose memory this is.
        session_id: the current session; a fresh id per instance and after ``clear()``.
        memory_key: the prompt variable to fill ("history" fits ``ConversationChain``).
        input_key: the chain input holding the user's message (inferred when ``None``).
        output_key: the chain output holding the AI's reply (inferred when ``None``).
        token_budget: the most tokens the history variable may take.
        window: how many recent turns of the current session to include.
        window_share: the share of ``token_budget`` the recent turns may use at most.
        system_context: the core's system context (app / product area).
        device_id: optional device for device-scoped memories.
        human_prefix: the label of user turns in the string history.
        ai_prefix: the label of AI turns in the string history.
        return_messages: return a list of messages (a ``SystemMessage`` with the
            context block, then the recent turns) for chat prompts instead of a string.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    memory: Any
    user_id: str
    session_id: str = Field(default_factory=_new_session_id)
    memory_key: str = "history"
    input_key: str | None = None
    output_key: str | None = None
    token_budget: int = Field(default=400, ge=2 * _MIN_CONTEXT)
    window: int = Field(default=6, ge=0)
    window_share: float = Field(default=0.5, gt=0.0, le=1.0)
    system_context: str = "default"
    device_id: str | None = None
    human_prefix: str = "Human"
    ai_prefix: str = "AI"
    return_messages: bool = False

    def __init__(self, **data: Any) -> None:
        """Build the memory; bad arguments raise ``InvalidInputError`` (a ``ValueError``)."""
        init_checked(self, super().__init__, data)

    @property
    def memory_variables(self) -> list[str]:
        """The prompt variables this memory fills (``[memory_key]``)."""
        return [self.memory_key]

    # -- loading -----------------------------------------------------------------

    def _query(self, inputs: dict[str, Any]) -> str:
        return input_text(inputs, self.input_key, self.memory_variables)

    def _window_lines(self, turns: list[SessionTurn]) -> list[tuple[str, str]]:
        """The recent turns (oldest first) that fit the window's share of the budget."""
        # the core's context() needs at least _MIN_CONTEXT tokens of its own
        budget = min(int(self.token_budget * self.window_share), self.token_budget - _MIN_CONTEXT)
        kept: list[tuple[str, str]] = []
        used = 0
        for turn in reversed(turns[-self.window :] if self.window else []):
            role = "human" if turn.role == "user" else "ai"
            prefix = self.human_prefix if role == "human" else self.ai_prefix
            cost = count_tokens(f"{prefix}: {turn.text}")
            if used + cost > budget:
                room = budget - used - count_tokens(f"{prefix}:")
                if not kept and room > 8:  # always keep a cut version of the newest turn
                    kept.append((role, truncate_to_tokens(turn.text, room)))
                break
            kept.append((role, turn.text))
            used += cost
        kept.reverse()
        return kept

    def _context_budget(self, lines: list[tuple[str, str]]) -> int:
        used = sum(count_tokens(self._line(role, text)) for role, text in lines)
        return max(_MIN_CONTEXT, self.token_budget - used - 1)

    def _line(self, role: str, text: str) -> str:
        prefix = self.human_prefix if role == "human" else self.ai_prefix
        return f"{prefix}: {text}"

    def _render(self, block: str, lines: list[tuple[str, str]]) -> dict[str, Any]:
        if self.return_messages:
            messages: list[BaseMessage] = []
            if block:
                messages.append(SystemMessage(content=block))
            for role, text in lines:
                messages.append(HumanMessage(content=text) if role == "human" else AIMessage(text))
            return {self.memory_key: messages}
        parts = [block] if block else []
        parts.extend(self._line(role, text) for role, text in lines)
        return {self.memory_key: "\n".join(parts)}

    def _context_kwargs(self, budget: int) -> dict[str, Any]:
        return {
            "token_budget": budget,
            "system_context": self.system_context,
            "device_id": self.device_id,
            "session_id": self.session_id,
        }

    def _load(self, inputs: dict[str, Any]) -> Plan[dict[str, Any]]:
        user_id = require_id(self.user_id, "user_id")
        query = self._query(inputs)
        lines: list[tuple[str, str]] = []
        if self.window:
            turns = yield core_call("session_turns", user_id, self.session_id, limit=self.window)
            lines = self._window_lines(list(turns))
        budget = self._context_budget(lines)
        block = yield core_call("context", user_id, query, **self._context_kwargs(budget))
        return self._render(str(block), lines)

    def load_memory_variables(self, inputs: dict[str, Any]) -> dict[str, Any]:
        """Return the context block for the current input plus the session window.

        Args:
            inputs: the chain inputs (the user's message under ``input_key``).

        Returns:
            ``{memory_key: history}`` (a string, or messages if ``return_messages``).
        """
        return run_plan(self.memory, self._load(inputs))

    async def aload_memory_variables(self, inputs: dict[str, Any]) -> dict[str, Any]:
        """Async :meth:`load_memory_variables` (awaits ``AsyncUserMemory`` natively).

        Args:
            inputs: the chain inputs.

        Returns:
            ``{memory_key: history}``.
        """
        return await arun_plan(self.memory, self._load(inputs))

    # -- saving ------------------------------------------------------------------

    def _exchange(self, inputs: dict[str, Any], outputs: dict[str, Any]) -> tuple[str, str]:
        human = self._query(inputs)
        if self.output_key is not None:
            key = self.output_key
        else:
            keys = [k for k in outputs if k != "full_generation"]
            if len(keys) != 1:
                raise InvalidInputError(
                    f"one output key expected, got {sorted(outputs)}; set output_key on the memory"
                )
            key = keys[0]
        ai = outputs[key]
        ai_text = ai.text if isinstance(ai, BaseMessage) else str(ai)
        return human, str(ai_text)

    def _turns(self, inputs: dict[str, Any], outputs: dict[str, Any]) -> list[dict[str, str]]:
        """The exchange as one user turn and its reply (observed together, in order)."""
        human, ai = self._exchange(inputs, outputs)
        pairs = (("user", human), ("assistant", ai))
        return [{"role": role, "content": text} for role, text in pairs if text.strip()]

    def _observe_kwargs(self) -> dict[str, Any]:
        return {
            "session_id": self.session_id,
            "device_id": self.device_id,
            "system_context": self.system_context,
        }

    def _save(self, inputs: dict[str, Any], outputs: dict[str, Any]) -> Plan[None]:
        user_id = require_id(self.user_id, "user_id")
        turns = self._turns(inputs, outputs)
        if turns:
            yield core_call("observe_messages", user_id, turns, **self._observe_kwargs())

    def save_context(self, inputs: dict[str, Any], outputs: dict[str, Any]) -> None:
        """Observe the user's input and the AI's reply (both go to the session).

        Args:
            inputs: the chain inputs.
            outputs: the chain outputs.
        """
        run_plan(self.memory, self._save(inputs, outputs))

    async def asave_context(self, inputs: dict[str, Any], outputs: dict[str, Any]) -> None:
        """Async :meth:`save_context`.

        Args:
            inputs: the chain inputs.
            outputs: the chain outputs.
        """
        await arun_plan(self.memory, self._save(inputs, outputs))

    # -- clearing ----------------------------------------------------------------

    def _clear(self) -> Plan[None]:
        yield core_call("end_session", require_id(self.user_id, "user_id"), self.session_id)
        self.session_id = _new_session_id()

    def clear(self) -> None:
        """End the current session and start a new one; long-term memory is kept."""
        run_plan(self.memory, self._clear())

    async def aclear(self) -> None:
        """Async :meth:`clear`."""
        await arun_plan(self.memory, self._clear())
