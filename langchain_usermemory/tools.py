"""Memory tools for LangChain / LangGraph agents that decide what to remember.

:func:`create_manage_memory_tool` and :func:`create_search_memory_tool` (or both at once
with :func:`create_memory_tools`) return ``StructuredTool`` objects, the counterparts of
LangMem's tools over UserMemory. The user is never a tool argument the model fills:
each call finds it in the run (see :mod:`langchain_usermemory.ids`: the run's
``configurable`` / ``metadata`` ``user_id``, the LangGraph runtime context such as
``create_agent(..., context_schema=...)`` + ``invoke(..., context=Ctx(user_id=...))``),
else the ``user_id`` given here. Writes are the agent's notes (source ``agent``) and go
through the core's conflict rules; the tool answers the model with what is kept.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from langchain_core.runnables import RunnableConfig
from langchain_core.tools import StructuredTool, ToolException

from shared_core import (
    MANAGE_MEMORY_DESCRIPTION,
    MANAGE_MEMORY_NAME,
    SEARCH_MEMORY_DESCRIPTION,
    SEARCH_MEMORY_NAME,
    InvalidIdError,
    InvalidInputError,
    ManageMemoryArgs,
    MemoryTools,
    SearchMemoryArgs,
)

from .ids import resolve_user_id

__all__ = ["create_manage_memory_tool", "create_memory_tools", "create_search_memory_tool"]


@contextmanager
def _tool_errors() -> Iterator[None]:
    """Bad arguments become a ``ToolException``: the model gets the reason and can retry.

    A missing or bad user id is the app's error, never hidden from it: it propagates.
    """
    try:
        yield
    except InvalidIdError:
        raise
    except InvalidInputError as exc:
        raise ToolException(str(exc)) from exc


def _user(config: RunnableConfig | None, default: str | None) -> str:
    return resolve_user_id(config=config or {}, default=default)


def create_manage_memory_tool(
    memory: Any,
    *,
    user_id: str | None = None,
    kind: str = "preference",
    system_context: str = "default",
    confidence: float | None = None,
    name: str = MANAGE_MEMORY_NAME,
) -> StructuredTool:
    """A tool that creates, updates or deletes one memory of the run's user.

    Args:
        memory: a ``shared_core.UserMemory`` or ``AsyncUserMemory``.
        user_id: the user when the run names none (single-user apps).
        kind: the kind of memories the tool writes.
        system_context: the core's system context.
        confidence: the notes' confidence (``None``: the core's default for ``agent``).
        name: the tool name the model sees.

    Returns:
        The tool (``response_format="content_and_artifact"``: the ``ToolMessage`` holds
        the text for the model and a structured artifact with the stored record).
    """

    tools = MemoryTools(memory, kind=kind, system_context=system_context, confidence=confidence)

    def manage(
        action: str, key: str, config: RunnableConfig, value: str | None = None
    ) -> tuple[str, dict[str, Any]]:
        with _tool_errors():
            return tools.manage(_user(config, user_id), action, key, value)

    async def amanage(
        action: str, key: str, config: RunnableConfig, value: str | None = None
    ) -> tuple[str, dict[str, Any]]:
        with _tool_errors():
            return await tools.amanage(_user(config, user_id), action, key, value)

    return StructuredTool.from_function(
        func=manage,
        coroutine=amanage,
        name=name,
        description=MANAGE_MEMORY_DESCRIPTION,
        args_schema=ManageMemoryArgs,
        response_format="content_and_artifact",
        handle_tool_error=True,
    )


def create_search_memory_tool(
    memory: Any,
    *,
    user_id: str | None = None,
    system_context: str = "default",
    max_results: int = 10,
    name: str = SEARCH_MEMORY_NAME,
) -> StructuredTool:
    """A tool that searches the run's user's memories (the core's hybrid recall).

    Args:
        memory: a ``shared_core.UserMemory`` or ``AsyncUserMemory``.
        user_id: the user when the run names none.
        system_context: the core's system context.
        max_results: the most memories one call returns.
        name: the tool name the model sees.

    Returns:
        The tool; its text lists one readable memory per line ("Contact channel: SMS
        (said 2026-04-12)"), its artifact each hit's metadata and value.
    """
    tools = MemoryTools(memory, system_context=system_context, max_results=max_results)

    def search(
        query: str, config: RunnableConfig, limit: int = 5
    ) -> tuple[str, list[dict[str, Any]]]:
        with _tool_errors():
            return tools.search(_user(config, user_id), query, limit)

    async def asearch(
        query: str, config: RunnableConfig, limit: int = 5
    ) -> tuple[str, list[dict[str, Any]]]:
        with _tool_errors():
            return await tools.asearch(_user(config, user_id), query, limit)

    return StructuredTool.from_function(
        func=search,
        coroutine=asearch,
        name=name,
        description=SEARCH_MEMORY_DESCRIPTION,
        args_schema=SearchMemoryArgs,
        response_format="content_and_artifact",
        handle_tool_error=True,
    )


def create_memory_tools(
    memory: Any,
    *,
    user_id: str | None = None,
    kind: str = "preference",
    system_context: str = "default",
    confidence: float | None = None,
    max_results: int = 10,
) -> list[StructuredTool]:
    """Both tools: ``[manage_memory, search_memory]`` (arguments as the two factories).

    Example::

        agent = create_agent(model, tools=create_memory_tools(memory), context_schema=Ctx)
        agent.invoke({"messages": [...]}, context=Ctx(user_id="ada"))
    """
    return [
        create_manage_memory_tool(
            memory,
            user_id=user_id,
            kind=kind,
            system_context=system_context,
            confidence=confidence,
        ),
        create_search_memory_tool(
            memory, user_id=user_id, system_context=system_context, max_results=max_results
        ),
    ]
