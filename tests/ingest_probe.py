"""What ``observe`` keeps for a few user turns (shared test helper for the extraction tests).

One home for the probe that the ingest tests use to ask "what did these turns store?", so a
test file does not define its own copy.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from shared_core import UserMemory
from shared_core.config import MemoryConfig
from shared_core.embed import HashingEmbedder
from shared_core.taxonomy import canonical

AT = datetime(2026, 4, 15, 9, 0, tzinfo=UTC)


def active_records(
    *turns: str,
    embedder: Any = None,
    config: MemoryConfig | None = None,
    at: datetime = AT,
    statuses: Sequence[str] = ("active",),
    session_per_turn: bool = False,
) -> list[dict[str, Any]]:
    """Exported non-episode records with a status in ``statuses`` after the user's turns.

    Turns are observed in order as user ``u``, in one session (or one session per turn), one
    minute apart from ``at`` when it is given (else at the current time).
    """
    emb = HashingEmbedder() if embedder is None else embedder
    with UserMemory("sqlite:///:memory:", embedder=emb, config=config) as mem:
        for n, text in enumerate(turns):
            session = f"s{n}" if session_per_turn else "s"
            mem.observe(
                "u", text, session_id=session, turn_id=f"t{n}", at=at + timedelta(minutes=n)
            )
        return [
            r
            for r in mem.export("u")["records"]
            if r["kind"] != "episode" and r["status"] in statuses
        ]


def stored(*turns: str, embedder: Any = None, at: datetime = AT) -> set[tuple[str, str]]:
    """(canonical key, canonical value) of every active, non-episode record after the turns."""
    return {
        canonical(r["key"], r["value"], r["normalized"])
        for r in active_records(*turns, embedder=embedder, at=at)
    }


def conversation(*turns: tuple[str, str]) -> list[dict[str, Any]]:
    """Active non-episode records after ``(role, text)`` turns of user ``u`` in one session,
    one minute apart from ``AT`` (the assistant's turns observed with ``role="assistant"``)."""
    with UserMemory("sqlite:///:memory:", embedder=HashingEmbedder()) as mem:
        for n, (role, text) in enumerate(turns):
            mem.observe(
                "u", text, role=role, session_id="s", turn_id=f"t{n}", at=AT + timedelta(minutes=n)
            )
        return [
            r
            for r in mem.export("u")["records"]
            if r["kind"] != "episode" and r["status"] == "active"
        ]


def answered(question: str, answer: str) -> set[tuple[str, str]]:
    """(canonical key, value) stored after the assistant asks and the user answers."""
    return {
        canonical(r["key"], r["value"], r["normalized"])
        for r in conversation(("assistant", question), ("user", answer))
    }


def has_value(found: Iterable[tuple[str, str]], key: str, value: str) -> bool:
    """A (key, value) pair under ``key`` (or ``key.<slug>``) whose value is ``value``, any case."""
    return any(
        (k == key or k.startswith(key + ".")) and v.lower() == value.lower() for k, v in found
    )
