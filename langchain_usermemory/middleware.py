"""Agent middleware for LangChain v1 ``create_agent``.

:class:`UserMemoryMiddleware` adds the core's context block to the system message of
every model call (``wrap_model_call`` / ``awrap_model_call``, so nothing is persisted
into the agent state) and observes the new user and AI turns once the agent finishes
(``after_agent`` / ``aafter_agent``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Annotated, Any, NotRequired

from langchain.agents.middleware import AgentMiddleware, AgentState, ModelRequest, ModelResponse
from langchain.agents.middleware.types import ExtendedModelResponse, PrivateStateAttr
from langchain_core.messages import AIMessage, AnyMessage, BaseMessage, HumanMessage, SystemMessage
from langgraph.config import get_config
from langgraph.runtime import Runtime

from shared_core import (
    InvalidIdError,
    InvalidInputError,
    Plan,
    UserMemoryError,
    arun_plan,
    check_count,
    core_call,
    run_plan,
)

from ._compat import lookup, message_text
from .ids import resolve_session_id, resolve_user_id

__all__ = ["UserMemoryMiddleware", "UserMemoryState"]

logger = logging.getLogger(__name__)

ModelResult = ModelResponse[Any] | AIMessage | ExtendedModelResponse[Any]


class UserMemoryState(AgentState[Any]):
    """Agent state plus the id of the last message already observed (private)."""

    usermemory_observed: NotRequired[Annotated[str | None, PrivateStateAttr]]


def _config_section(name: str) -> dict[str, Any]:
    try:
        config = get_config()
    except RuntimeError:  # outside a runnable context
        return {}
    section: Any = config.get(name) or {}
    return dict(section) if isinstance(section, Mapping) else {}


def _with_block(system: SystemMessage | None, block: str) -> SystemMessage:
    if system is None:
        return SystemMessage(content=block)
    content = system.content
    if isinstance(content, str):
        merged = f"{content}\n\n{block}" if content else block
        return SystemMessage(content=merged, additional_kwargs=system.additional_kwargs)
    blocks: list[str | dict[Any, Any]] = [*content, {"type": "text", "text": block}]
    return SystemMessage(content=blocks, additional_kwargs=system.additional_kwargs)


def _last_human_text(messages: Sequence[AnyMessage]) -> str:
    for message in reversed(messages):
        if isinstance(message, HumanMessage):
            return message_text(message)
    return ""


def _new_turns(messages: Sequence[BaseMessage], cursor: str | None) -> list[tuple[str, str]]:
    """The (role, text) turns after ``cursor``, or from the last human message on."""
    start = None
    if cursor is not None:
        for i, message in enumerate(messages):
            if message.id == cursor:
                start = i + 1
                break
    if start is None:
        start = 0
        for i in range(len(messages) - 1, -1, -1):
            if isinstance(messages[i], HumanMessage):
                start = i
                break
    turns: list[tuple[str, str]] = []
    for message in messages[start:]:
        if isinstance(message, HumanMessage):
            role = "user"
        elif isinstance(message, AIMessage):
            role = "assistant"
        else:  # tool results and system messages are not conversation turns
            continue
        text = message_text(message)
        if text:
            turns.append((role, text))
    return turns


def _as_dicts(turns: list[tuple[str, str]]) -> list[dict[str, str]]:
    return [{"role": role, "content": text} for role, text in turns]


class UserMemoryMiddleware(AgentMiddleware[UserMemoryState, Any, Any]):
    """Long-term user memory for ``langchain.agents.create_agent``.

    Example::

        agent = create_agent(
            model,
            tools=[...],
            middleware=[UserMemoryMiddleware(memory)],
            context_schema=Context,  # a dataclass with a ``user_id`` field
        )
        agent.invoke({"messages": [...]}, context=Context(user_id="u1"))

    The user id is resolved in the order every LangChain entry point shares (see
    :mod:`langchain_usermemory.ids`): ``config["configurable"]["user_id"]``, then
    ``config["metadata"]["user_id"]``, then ``runtime.context.user_id`` (any object or
    mapping with a ``user_id``), then the ``user_id`` given here. The session id
    likewise from ``session_id``, else the thread id.

    Args:
        memory: a ``shared_core.UserMemory`` or ``AsyncUserMemory`` (``ainvoke``
            awaits the async core natively).
        user_id: fallback user id when neither the context nor the config has one.
        token_budget: the largest context block, in tokens.
        system_context: the core's system context.
        observe: observe the new user/AI turns when the agent finishes.
        fail_open: on a memory backend error, log it and let the agent run without
            memory instead of failing the run (a missing user id still raises).
    """

    state_schema = UserMemoryState

    def __init__(
        self,
        memory: Any,
        *,
        user_id: str | None = None,
        token_budget: int = 400,
        system_context: str = "default",
        observe: bool = True,
        fail_open: bool = False,
    ) -> None:
        super().__init__()
        check_count(token_budget, "token_budget")
        self.memory = memory
        self.user_id = user_id
        self.token_budget = token_budget
        self.system_context = system_context
        self.observe = observe
        self.fail_open = fail_open
        self.tools = []

    # -- ids -----------------------------------------------------------------------

    def _ids(self, runtime: Runtime[Any] | None) -> tuple[str, str | None, str | None]:
        # the first user id given wins even if invalid: never fall back to another user
        user_id = resolve_user_id(runtime=runtime, default=self.user_id)
        session_id = resolve_session_id(runtime=runtime)
        context = runtime.context if runtime is not None else None
        device_id = lookup(context, "device_id") or _config_section("configurable").get("device_id")
        return user_id, session_id, str(device_id) if device_id else None

    def _handle(self, exc: UserMemoryError, what: str) -> None:
        if isinstance(exc, InvalidIdError) or not self.fail_open:
            raise exc
        logger.warning("usermemory %s failed, continuing without memory: %s", what, exc)

    @staticmethod
    def _skip(exc: InvalidInputError, role: str) -> None:
        """A turn the core cannot store (too large, NUL bytes) is skipped, not fatal.

        The model has already answered; failing the run now would lose the answer and
        the other turns. A bad user id is still an error.
        """
        if isinstance(exc, InvalidIdError):
            raise exc
        logger.warning("usermemory did not store a %s turn: %s", role, exc)

    # -- model calls ---------------------------------------------------------------

    def _with_context(self, request: ModelRequest[Any]) -> Plan[ModelRequest[Any]]:
        """``request`` with the user's memory block added to its system message."""
        user_id, session_id, device_id = self._ids(request.runtime)
        query = _last_human_text(request.messages)
        if not query:
            return request
        kwargs = {
            "token_budget": self.token_budget,
            "system_context": self.system_context,
            "session_id": session_id,
            "device_id": device_id,
        }
        try:
            block = str((yield core_call("context", user_id, query, **kwargs)))
        except UserMemoryError as exc:
            self._handle(exc, "context")
            block = ""
        if not block:
            return request
        return request.override(system_message=_with_block(request.system_message, block))

    def wrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], ModelResponse[Any]],
    ) -> ModelResult:
        """Add the user's memory block to the system message, then call the model.

        Args:
            request: the model request.
            handler: calls the model.

        Returns:
            The model response.
        """
        return handler(run_plan(self.memory, self._with_context(request)))

    async def awrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], Awaitable[ModelResponse[Any]]],
    ) -> ModelResult:
        """Async :meth:`wrap_model_call` (awaits an ``AsyncUserMemory`` natively)."""
        return await handler(await arun_plan(self.memory, self._with_context(request)))

    # -- after the run -------------------------------------------------------------

    def _observe_run(
        self, state: UserMemoryState, runtime: Runtime[Any]
    ) -> Plan[dict[str, Any] | None]:
        """Observe the run's new turns together; when one cannot be stored (too large,
        NUL bytes) observe the others one by one and skip it."""
        if not self.observe:
            return None
        messages = list(state.get("messages") or [])
        turns = _new_turns(messages, state.get("usermemory_observed"))
        user_id, session_id, device_id = self._ids(runtime)
        kwargs = {
            "session_id": session_id,
            "device_id": device_id,
            "system_context": self.system_context,
        }
        try:
            try:  # the run's turns together: each reply stays with its turn
                yield core_call("observe_messages", user_id, _as_dicts(turns), **kwargs)
            except InvalidInputError as exc:
                if isinstance(exc, InvalidIdError):
                    raise
                for role, text in turns:  # one turn cannot be stored: keep the others
                    try:
                        yield core_call("observe", user_id, text, role=role, **kwargs)
                    except InvalidInputError as bad:
                        self._skip(bad, role)
        except UserMemoryError as exc:
            self._handle(exc, "observe")
        return {"usermemory_observed": messages[-1].id if messages else None}

    def after_agent(self, state: UserMemoryState, runtime: Runtime[Any]) -> dict[str, Any] | None:
        """Observe the user and AI turns this run added.

        A turn the core rejects as invalid (too large, NUL bytes) is logged and
        skipped; the other turns are still observed.

        Args:
            state: the final agent state.
            runtime: the run's runtime (context).

        Returns:
            The private cursor update (id of the last observed message).
        """
        return run_plan(self.memory, self._observe_run(state, runtime))

    async def aafter_agent(
        self, state: UserMemoryState, runtime: Runtime[Any]
    ) -> dict[str, Any] | None:
        """Async :meth:`after_agent`.

        Args:
            state: the final agent state.
            runtime: the run's runtime (context).

        Returns:
            The private cursor update.
        """
        return await arun_plan(self.memory, self._observe_run(state, runtime))
