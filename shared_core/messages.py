"""Chat messages as turns: one reader for every message shape the library accepts
(``{"role", "content"}`` mappings, LangChain messages, LlamaIndex ``ChatMessage``), used
by ``observe_messages`` in the core and by the server client."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import InvalidInputError

__all__ = ["message_turn"]

_MESSAGE_ROLES = {
    "user": "user",
    "human": "user",
    "assistant": "assistant",
    "ai": "assistant",
    "model": "assistant",
    "chatbot": "assistant",
    "tool": "tool",
    "function": "tool",
    "system": None,
    "developer": None,
}


def message_turn(message: Any) -> tuple[str, str, str | None] | None:
    """(role, text, id) of one chat message, ``None`` for a system prompt or no text.

    Duck-typed so the core needs no framework: a mapping with ``role``/``content``, or an
    object with ``role`` (LlamaIndex) or ``type`` (LangChain) and ``content``; list
    content keeps its text parts (strings, ``{"type": "text", "text": ...}``, ``.text``).
    """
    if isinstance(message, Mapping):
        role, content, msg_id = message.get("role"), message.get("content"), message.get("id")
    else:
        role = getattr(message, "role", None) or getattr(message, "type", None)
        content, msg_id = getattr(message, "content", None), getattr(message, "id", None)
    role = getattr(role, "value", role)  # a str enum (LlamaIndex MessageRole)
    if not isinstance(role, str) or role.lower() not in _MESSAGE_ROLES:
        raise InvalidInputError(
            f"a message needs a role in {sorted(_MESSAGE_ROLES)}, got {role!r} "
            f"({type(message).__name__})"
        )
    core_role = _MESSAGE_ROLES[role.lower()]
    if isinstance(content, list | tuple):
        parts = []
        for part in content:
            text = part.get("text") if isinstance(part, Mapping) else getattr(part, "text", part)
            if isinstance(part, Mapping) and part.get("type", "text") != "text":
                continue
            if isinstance(text, str):
                parts.append(text)
        content = "\n".join(p for p in parts if p)
    if content is None:
        content = ""
    if not isinstance(content, str):
        raise InvalidInputError(f"message content must be text, got {type(content).__name__}")
    if core_role is None or not content.strip():
        return None
    return core_role, content, msg_id if isinstance(msg_id, str) and msg_id.strip() else None
