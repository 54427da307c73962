"""Session episodes: what a finished conversation was about, rule-based and offline."""

from __future__ import annotations

from collections.abc import Sequence

from .entities import MemoryRecord, SessionTurn, Source

__all__ = ["summarize_session"]

_MAX_OPENING = 160


def summarize_session(
    session_id: str, turns: Sequence[SessionTurn], written: Sequence[MemoryRecord]
) -> str:
    """A one-paragraph episode: date, size, what the user opened with, what they stated.

    Key statements cite their turn ids so "when did I say ..." can point at the turn.
    """
    start = turns[0].at
    user_turns = [t for t in turns if t.role == "user"]
    opening = (user_turns[0].text if user_turns else turns[0].text).strip()
    if len(opening) > _MAX_OPENING:
        opening = opening[: _MAX_OPENING - 1] + "…"
    parts = [
        f"Session {session_id} on {start:%Y-%m-%d} ({len(turns)} turns).",
        f"The user opened with: {opening}",
    ]
    # an inference is not a statement (and must not resurface, quoted in a summary, when a
    # hard rule suppresses it)
    written = [r for r in written if r.source is not Source.INFERRED]
    if written:
        stated = "; ".join(
            f"{r.key} = {r.value} (turn {r.provenance.turn_id})" for r in written[:8]
        )
        parts.append(f"Stated: {stated}.")
    return " ".join(parts)
