"""Read-path step 3b: which scored records may be shown, and which asked-about values to add.

Policy applied after ranking, on structured records (never on rendered text):

* :func:`suppressed` - an inferred interest/taste is never shown against a hard "never"
  about the same topic;
* :func:`live_turn` - raw turns of the live session are short-term memory, not past
  conversations;
* :func:`most_specific` - a device/session-scoped value hides the global one of its key;
* :func:`asked_answers` - current (and faded inferred) values of the keys a query names
  that the ranking left out;
* :func:`stale_turns` - past turns that stated a value since replaced or taken back;
* :func:`standing_profile` - the user's current explicit declarations of the core keys
  (:data:`STANDING_KEYS`), shown in every context block whatever the query's wording.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import datetime

from ..config import MemoryConfig
from ..decay import decay_class, is_expired, is_recallable
from ..entities import NON_ENTITY_KINDS, Kind, MemoryRecord, ScoredMemory, Source, Status
from ..ingest.resolve import polarity

__all__ = [
    "STANDING_KEYS",
    "SUPPRESSIBLE",
    "asked_answers",
    "asked_records",
    "current_values",
    "hard_constraints",
    "live_turn",
    "mark_archived",
    "most_specific",
    "stale_turns",
    "standing_profile",
    "suppressed",
]

#: key families a hard "never" about the same topic suppresses (see :func:`suppressed`)
SUPPRESSIBLE = ("interest.", "taste.")

#: core keys whose explicit current value is in every context block (the name is in the
#: identity line): contact channel and hours, language, diet, allergies and health facts
STANDING_KEYS = ("contact.", "language", "diet", "allergy", "health.")


def hard_constraints(
    records: Sequence[MemoryRecord], refs: tuple[str, ...], now: datetime
) -> list[MemoryRecord]:
    """The active, unexpired constraints of these scopes among ``records`` (order kept)."""
    return [
        r
        for r in records
        if r.kind is Kind.CONSTRAINT
        and r.status is Status.ACTIVE
        and r.scope_ref in refs
        and not is_expired(r, now)
    ]


def asked_records(
    records: Sequence[MemoryRecord], key_prefixes: tuple[str, ...]
) -> list[MemoryRecord]:
    """Every current and past version (any scope) of the keys a query names."""
    if not key_prefixes:
        return []
    return [
        r
        for r in records
        if r.kind not in NON_ENTITY_KINDS
        and r.status in (Status.ACTIVE, Status.SUPERSEDED, Status.REVOKED)
        and r.key.startswith(key_prefixes)
    ]


def current_values(
    records: Sequence[MemoryRecord],
    refs: tuple[str, ...],
    now: datetime,
    config: MemoryConfig,
    system_context: str,
) -> dict[str, str]:
    """The current value of every key among ``records`` (the profile).

    Active, unexpired, recallable entity records of these scopes; a scoped value
    overrides the global one, a newer one an older one.
    """
    out: dict[str, str] = {}
    live = [
        r
        for r in records
        if r.status is Status.ACTIVE and r.kind not in NON_ENTITY_KINDS and r.scope_ref in refs
    ]
    for rec in sorted(live, key=lambda r: (r.scope_ref != "", r.updated_at)):
        if is_expired(rec, now) or not is_recallable(rec, now, config, system_context):
            continue
        out[rec.key] = rec.value
    return out


def live_turn(rec: MemoryRecord, session_id: str) -> bool:
    """A raw turn of the live session: it is short-term memory, not a past conversation."""
    return rec.kind is Kind.EPISODE and rec.key.startswith(f"turn:{session_id}:")


def suppressed(rec: MemoryRecord, hard: Sequence[MemoryRecord]) -> bool:
    """An inferred interest/taste never surfaces against a hard "never" about the same topic."""
    if not rec.key.startswith(SUPPRESSIBLE) or "." not in rec.key:
        return False
    topic = rec.key.split(".", 1)[1]
    return any(
        h.key.split(".", 1)[-1] == topic and polarity(h.normalized) < 0 and h.hard for h in hard
    )


def mark_archived(hit: ScoredMemory) -> ScoredMemory:
    """Flag a recall hit that was read from the archive (record metadata and components)."""
    rec = hit.record.replace(metadata={**hit.record.metadata, "archived": True})
    return dataclasses.replace(hit, record=rec, components={**hit.components, "archived": 1.0})


def most_specific(scored: list[ScoredMemory]) -> list[ScoredMemory]:
    """Where a device/session-scoped value and a global one share a key, keep the scoped one."""
    scoped_keys = {(s.record.kind, s.record.key) for s in scored if s.record.scope_ref}
    return [
        s for s in scored if s.record.scope_ref or (s.record.kind, s.record.key) not in scoped_keys
    ]


def asked_answers(
    asked: Sequence[MemoryRecord],
    refs: tuple[str, ...],
    now: datetime,
    shown: set[str],
    hard: Sequence[MemoryRecord],
    cfg: MemoryConfig,
    system_context: str,
) -> tuple[list[MemoryRecord], list[MemoryRecord]]:
    """Current values of the keys the query names that the ranked recall left out.

    The structured lookup answers the key a query asks about even when other hits
    outrank it (an inferred value that has started to fade ranks low). Returns
    ``(missing, faded)``: recallable values to add to the preferences, and
    consensus-backed inferred values that decay has dropped from recall (about six
    days after their last reinforcement). The evidence of a faded inference is not
    thrown away: ``context()`` shows it under "Ask to confirm before acting" instead
    of asserting or forgetting it. At most ``cfg.max_key_answers`` of each.
    """
    if cfg.max_key_answers == 0:
        return [], []
    live = [
        r
        for r in asked
        if r.status is Status.ACTIVE
        and r.scope_ref in refs
        and not is_expired(r, now)
        and not suppressed(r, hard)
    ]
    scoped = {r.key for r in live if r.scope_ref}
    live = [r for r in live if r.scope_ref or r.key not in scoped]
    missing = [r for r in live if r.key not in shown and is_recallable(r, now, cfg, system_context)]
    answered = shown | {r.key for r in missing}
    faded = [
        r
        for r in live
        if r.source is Source.INFERRED
        and r.key not in answered
        and decay_class(r) == "soft"
        and r.confidence >= cfg.threshold_for(system_context)
        and not is_recallable(r, now, cfg, system_context)
    ]
    missing.sort(key=lambda r: r.updated_at, reverse=True)
    faded.sort(key=lambda r: r.updated_at, reverse=True)
    return missing[: cfg.max_key_answers], faded[: cfg.max_key_answers]


def stale_turns(asked: Sequence[MemoryRecord]) -> set[str]:
    """Turn ids that stated (or restated) a value of the asked keys that is no longer current."""

    def turns(r: MemoryRecord) -> set[str]:
        said = {r.provenance.turn_id} if r.provenance.turn_id else set()
        return said | set(r.metadata.get("restated_in", ()))

    current: set[str] = set()
    stale: set[str] = set()
    for r in asked:
        if r.status is Status.ACTIVE:
            current |= turns(r)
        elif not r.metadata.get("promoted"):
            stale |= turns(r)
    return stale - current


def standing_profile(
    records: Sequence[MemoryRecord],
    refs: tuple[str, ...],
    now: datetime,
    shown: set[str],
    config: MemoryConfig,
    system_context: str,
) -> list[MemoryRecord]:
    """Explicit, current values of :data:`STANDING_KEYS` not already shown, scoped first.

    "How will you tell me my order is ready?" names no key, yet the stored
    ``contact.channel = SMS`` is what the agent must know; inferred values are not
    standing facts (they are recalled, or asked about, when relevant).
    """
    keep: dict[str, MemoryRecord] = {}
    for rec in sorted(records, key=lambda r: (r.scope_ref == "", r.key)):  # scoped first
        if (
            rec.kind is Kind.EPISODE
            or rec.status is not Status.ACTIVE
            or rec.scope_ref not in refs
            or rec.key in shown
            or not rec.key.startswith(STANDING_KEYS)
            or not rec.explicit
            or rec.source is Source.INFERRED
            or is_expired(rec, now)
            or not is_recallable(rec, now, config, system_context)
        ):
            continue
        keep.setdefault(rec.key, rec)
    return list(keep.values())
