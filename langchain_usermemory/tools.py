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

from collections.abc import Awaitable, Callable, Iterator
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


def _tool(
    run: Callable[..., Any],
    arun: Callable[..., Awaitable[Any]],
    user_id: str | None,
    **spec: Any,
) -> StructuredTool:
    """A ``StructuredTool`` over a :class:`MemoryTools` method and its async twin.

    The arguments the model filled (validated by the spec's ``args_schema``) are passed on
    by name; the user comes from the run's config / context, else ``user_id``.
    """

    def func(config: RunnableConfig, **args: Any) -> Any:
        with _tool_errors():
            return run(resolve_user_id(config=config or {}, default=user_id), **args)

    async def coroutine(config: RunnableConfig, **args: Any) -> Any:
        with _tool_errors():
            return await arun(resolve_user_id(config=config or {}, default=user_id), **args)

    return StructuredTool.from_function(
        func=func,
        coroutine=coroutine,
        response_format="content_and_artifact",
        handle_tool_error=True,
        **spec,
    )


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
    return _tool(
        tools.manage,
        tools.amanage,
        user_id,
        name=name,
        description=MANAGE_MEMORY_DESCRIPTION,
        args_schema=ManageMemoryArgs,
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
    return _tool(
        tools.search,
        tools.asearch,
        user_id,
        name=name,
        description=SEARCH_MEMORY_DESCRIPTION,
        args_schema=SearchMemoryArgs,
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
