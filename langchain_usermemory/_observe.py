"""Observe a conversation through whichever core the adapter holds.

``UserMemory`` / ``AsyncUserMemory`` take a whole conversation (``observe_messages``);
a core without it (the server's ``UserMemoryClient``) gets the turns one by one, in
order, in the same session.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ._compat import acall, call

__all__ = ["aobserve_turns", "observe_turns"]


def _turns(messages: Sequence[Any]) -> list[tuple[str, str]]:
    return [(m["role"], m["content"]) for m in messages]


def observe_turns(memory: Any, user_id: str, messages: Sequence[Any], **kwargs: Any) -> None:
    """``observe_messages`` when the core has it, else ``observe`` per ``{"role", "content"}``.

    Args:
        memory: the core (or a client of a memory server).
        user_id: whose conversation.
        messages: role/content dicts (or, with ``observe_messages``, any messages).
        **kwargs: ``session_id``, ``device_id``, ``system_context``.
    """
    if hasattr(memory, "observe_messages"):
        call(memory, "observe_messages", user_id, list(messages), **kwargs)
        return
    for role, text in _turns(messages):
        call(memory, "observe", user_id, text, role=role, **kwargs)


async def aobserve_turns(memory: Any, user_id: str, messages: Sequence[Any], **kwargs: Any) -> None:
    """Async :func:`observe_turns`."""
    if hasattr(memory, "observe_messages"):
        await acall(memory, "observe_messages", user_id, list(messages), **kwargs)
        return
    for role, text in _turns(messages):
        await acall(memory, "observe", user_id, text, role=role, **kwargs)
