"""Conversions between LlamaIndex chat messages and UserMemory turns."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from llama_index.core.base.llms.types import ChatMessage, MessageRole, TextBlock

from shared_core import SessionTurn

__all__ = [
    "core_role",
    "latest_user_text",
    "message_text",
    "turn_to_message",
]

_ROLE_MAP: dict[str, str | None] = {
    MessageRole.USER.value: "user",
    MessageRole.ASSISTANT.value: "assistant",
    MessageRole.MODEL.value: "assistant",
    MessageRole.CHATBOT.value: "assistant",
    MessageRole.TOOL.value: "tool",
    MessageRole.FUNCTION.value: "tool",
    # System/developer prompts are the application's instructions, not the user's words.
    MessageRole.SYSTEM.value: None,
    MessageRole.DEVELOPER.value: None,
}


def core_role(message: ChatMessage) -> str | None:
    """The core's role for a message, or ``None`` when it must not be observed.

    Args:
        message: a LlamaIndex chat message.

    Returns:
        ``"user"``, ``"assistant"`` or ``"tool"``; ``None`` for system/developer prompts.
    """
    role = message.role.value if isinstance(message.role, MessageRole) else str(message.role)
    return _ROLE_MAP.get(role, "assistant")


def message_text(message: ChatMessage) -> str:
    """The text of a message: its text blocks joined by newlines (images etc. skipped).

    Args:
        message: a LlamaIndex chat message.

    Returns:
        The text, stripped; ``""`` when the message carries no text (a bare tool call).
    """
    parts = [block.text for block in message.blocks if isinstance(block, TextBlock)]
    return "\n".join(p for p in parts if p).strip()


def latest_user_text(messages: Sequence[ChatMessage] | None) -> str:
    """The text of the newest user message with text in ``messages`` (``""`` if none)."""
    for message in reversed(messages or ()):
        if core_role(message) == "user":
            text = message_text(message)
            if text:
                return text
    return ""


def turn_to_message(turn: SessionTurn) -> ChatMessage:
    """A session turn as a LlamaIndex chat message (turn id and time kept in kwargs)."""
    role = {
        "user": MessageRole.USER,
        "assistant": MessageRole.ASSISTANT,
        "tool": MessageRole.ASSISTANT,
    }.get(turn.role, MessageRole.ASSISTANT)
    extra: dict[str, Any] = {"turn_id": turn.turn_id, "at": turn.at.isoformat()}
    if turn.role == "tool":
        extra["usermemory_role"] = "tool"
    return ChatMessage(role=role, content=turn.text, additional_kwargs=extra)
