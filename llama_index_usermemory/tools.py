"""Memory tools for LlamaIndex agents (``FunctionAgent``, ``ReActAgent``, ``AgentWorkflow``).

:func:`create_memory_tools` returns two ``FunctionTool`` objects bound to one user at
construction (the model never names the user): ``manage_memory`` creates, updates or
deletes one memory through the core's conflict rules (source ``agent``: a note never
overrides what the user said) and ``search_memory`` runs the core's hybrid recall. Each
tool's ``ToolOutput.content`` is the text the model reads; ``raw_output`` holds the
structured result (``{"text", "artifact"}``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from llama_index.core.tools import FunctionTool

from shared_core import (
    MANAGE_MEMORY_DESCRIPTION,
    MANAGE_MEMORY_NAME,
    SEARCH_MEMORY_DESCRIPTION,
    SEARCH_MEMORY_NAME,
    InvalidInputError,
    ManageMemoryArgs,
    MemoryTools,
    SearchMemoryArgs,
    check_id,
)

__all__ = ["create_manage_memory_tool", "create_memory_tools", "create_search_memory_tool"]


def _text(raw: Any) -> str:
    return str(raw["text"]) if isinstance(raw, dict) else str(raw)


async def _atext(raw: Any) -> str:
    return _text(raw)


def _answer(text: str, artifact: Any) -> dict[str, Any]:
    return {"text": text, "artifact": artifact}


def _error(exc: InvalidInputError) -> dict[str, Any]:
    # the model is told what was wrong and can retry; nothing was written
    return _answer(f"Error: {exc}", None)


def _tool(
    run: Callable[..., tuple[str, Any]],
    arun: Callable[..., Awaitable[tuple[str, Any]]],
    user: str,
    **spec: Any,
) -> FunctionTool:
    """A ``FunctionTool`` over a :class:`MemoryTools` method and its async twin, for ``user``.

    The model's arguments are passed on by name; its bad input comes back as an answer.
    """

    def fn(**args: Any) -> dict[str, Any]:
        try:
            return _answer(*run(user, **args))
        except InvalidInputError as exc:
            return _error(exc)

    async def async_fn(**args: Any) -> dict[str, Any]:
        try:
            return _answer(*await arun(user, **args))
        except InvalidInputError as exc:
            return _error(exc)

    return FunctionTool.from_defaults(
        fn=fn, async_fn=async_fn, callback=_text, async_callback=_atext, **spec
    )


def create_manage_memory_tool(
    memory: Any,
    user_id: str,
    *,
    kind: str = "preference",
    system_context: str = "default",
    confidence: float | None = None,
    name: str = MANAGE_MEMORY_NAME,
) -> FunctionTool:
    """A ``FunctionTool`` that creates, updates or deletes one memory of ``user_id``.

    Args:
        memory: a ``shared_core.UserMemory`` or ``AsyncUserMemory``.
        user_id: the user the tool is bound to.
        kind: the kind of memories the tool writes.
        system_context: the core's system context.
        confidence: the notes' confidence (``None``: the core's default for ``agent``).
        name: the tool name the model sees.

    Returns:
        The tool (sync and async).

    Raises:
        InvalidInputError: no ``memory``; ``InvalidIdError`` (a subclass) for an empty or
            malformed ``user_id``.
    """
    user = check_id(user_id)
    tools = MemoryTools(memory, kind=kind, system_context=system_context, confidence=confidence)
    return _tool(
        tools.manage,
        tools.amanage,
        user,
        name=name,
        description=MANAGE_MEMORY_DESCRIPTION,
        fn_schema=ManageMemoryArgs,
    )


def create_search_memory_tool(
    memory: Any,
    user_id: str,
    *,
    system_context: str = "default",
    max_results: int = 10,
    name: str = SEARCH_MEMORY_NAME,
) -> FunctionTool:
    """A ``FunctionTool`` that searches ``user_id``'s memories.

    Args:
        memory: a ``shared_core.UserMemory`` or ``AsyncUserMemory``.
        user_id: the user the tool is bound to.
        system_context: the core's system context.
        max_results: the most memories one call returns.
        name: the tool name the model sees.

    Returns:
        The tool; its content lists one readable memory per line ("Contact channel: SMS
        (said 2026-04-12)"), ``raw_output["artifact"]`` each hit's metadata and value.

    Raises:
        InvalidInputError: no ``memory`` or ``max_results`` < 1; ``InvalidIdError`` (a
            subclass) for an empty or malformed ``user_id``.
    """
    user = check_id(user_id)
    tools = MemoryTools(memory, system_context=system_context, max_results=max_results)
    return _tool(
        tools.search,
        tools.asearch,
        user,
        name=name,
        description=SEARCH_MEMORY_DESCRIPTION,
        fn_schema=SearchMemoryArgs,
    )


def create_memory_tools(
    memory: Any,
    user_id: str,
    *,
    kind: str = "preference",
    system_context: str = "default",
    confidence: float | None = None,
    max_results: int = 10,
) -> list[FunctionTool]:
    """Both tools, bound to ``user_id``: ``[manage_memory, search_memory]``.

    Example::

        tools = create_memory_tools(um, "alice")
        agent = FunctionAgent(tools=tools, llm=llm)
        await agent.run(user_msg="Please only text me.")
    """
    return [
        create_manage_memory_tool(
            memory,
            user_id,
            kind=kind,
            system_context=system_context,
            confidence=confidence,
        ),
        create_search_memory_tool(
            memory, user_id, system_context=system_context, max_results=max_results
        ),
    ]
