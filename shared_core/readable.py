"""Memories as sentences a model (or a person) can read without knowing the schema.

Retrievers and agent tools hand memories to an LLM one by one, outside the context
block; ``contact.channel = "SMS"`` means little there, so they use :func:`memory_line`:
"Contact channel: SMS (said 2026-04-12)". :func:`key_label` is the one place that turns
a key into words.
"""

from __future__ import annotations

import importlib
import json

from .entities import Kind, MemoryRecord, Source
from .scripts import break_markers, one_line

__all__ = ["key_label", "memory_line", "value_text"]

_TEXT_FIELDS = ("content", "text", "memory", "note", "value")

_SAID = {
    Source.USER_DECLARE: "said",
    Source.TOOL_PARSE: "from a tool,",
    Source.ADMIN_SET: "business rule since",
    Source.INFERRED: "inferred",
    Source.AGENT: "noted by the agent on",
}
_EPISODE = {"user": "User said", "assistant": "Assistant replied", "tool": "Tool output"}


def key_label(key: str) -> str:
    """The display label of a memory key: ``"contact.channel"`` -> ``"Contact channel"``.

    Args:
        key: a dotted memory key.

    Returns:
        The taxonomy's label for the key, else the key's words, capitalised.
    """
    named = _taxonomy_label(key)
    if named is not None and named != key:
        return named
    words = one_line(key).replace("_", " ").replace(".", " ").split()
    text = " ".join(words) or one_line(key)
    return text[:1].upper() + text[1:]


def _taxonomy_label(key: str) -> str | None:
    """The key taxonomy's display label (``shared_core.taxonomy.label``) once it ships.

    Until then (or for a key it does not know, returned unchanged) :func:`key_label`
    spells the key's words.
    """
    try:
        taxonomy = importlib.import_module("shared_core.taxonomy")
    except ImportError:
        return None
    label = getattr(taxonomy, "label", None)
    return str(label(key)) if callable(label) else None


def value_text(value: str) -> str:
    """A stored value as plain text.

    A JSON object (what a LangGraph store item or an agent's note holds) reads as its
    text field (``content``, ``text``, ``memory``, ``note``, ``value``) plus
    ``"field: value"`` for the others; any other value is returned as is. Whitespace and
    control characters collapse to single spaces.

    Args:
        value: the record's value.

    Returns:
        The text.
    """
    text = value
    if value.lstrip().startswith("{"):
        try:
            data = json.loads(value)
        except (ValueError, RecursionError):
            data = None
        if isinstance(data, dict) and data:
            parts = []
            for name, item in data.items():
                shown = item if isinstance(item, str) else json.dumps(item, ensure_ascii=False)
                parts.append(shown if name in _TEXT_FIELDS else f"{name}: {shown}")
            text = "; ".join(parts)
    return one_line(text)


def memory_line(record: MemoryRecord) -> str:
    """One memory as a sentence that reads on its own.

    Examples: ``"Contact channel: SMS (said 2026-04-12)"``,
    ``"Assistant replied on 2026-04-12: I will text you."``.

    Args:
        record: the memory.

    Returns:
        The sentence: label, value, who said it and when.
    """
    when = f"{(record.provenance.at or record.created_at):%Y-%m-%d}"
    value = break_markers(value_text(record.value))  # never a prompt-block marker
    if record.kind is Kind.EPISODE:
        role = record.provenance.role or str(record.metadata.get("role") or "")
        if record.key.startswith("turn:") and role in _EPISODE:
            return f"{_EPISODE[role]} on {when}: {value}"
        return f"Conversation on {when}: {value}"
    said = _SAID.get(record.source, record.source.value)
    return f"{break_markers(key_label(record.key))}: {value} ({said} {when})"
