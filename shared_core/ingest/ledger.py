"""The working copy a :class:`~shared_core.ingest.resolve.Resolver` applies its decisions to.

:mod:`~shared_core.ingest.resolve` decides (its conflict table says which value holds a
slot); a :class:`Ledger` carries the decisions out: it holds one user's records by id,
builds new versions with their provenance, and records every step as the records to
write, audit entries, conflicts and the ``Change`` list the caller returns. Pure: nothing
is read from or written to a store here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..config import MemoryConfig
from ..entities import (
    AuditEntry,
    Candidate,
    Change,
    ChangeAction,
    Conflict,
    MemoryRecord,
    Provenance,
    Source,
    Status,
    scope_ref,
)

__all__ = ["ANSWER_SIGNAL", "Ledger", "Slot", "WriteContext", "answering", "normalized_value"]

#: (user_id, system_context, kind, key, scope_ref): the place one value holds
Slot = tuple[str, str, str, str, str]


@dataclass(frozen=True, slots=True, kw_only=True)
class WriteContext:
    """Who/when/where of the write being resolved."""

    user_id: str
    system_context: str
    at: datetime
    source: Source
    session_id: str | None = None
    turn_id: str | None = None
    turn_index: int | None = None
    device_id: str | None = None
    role: str | None = None
    actor: str = "user"
    #: the assistant's question the turn answers; records read from the answer carry it
    asked: str | None = None


@dataclass(slots=True)
class _Result:
    records: dict[str, MemoryRecord] = field(default_factory=dict)
    audit: list[AuditEntry] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)


#: the signal of a candidate read from a short answer to the assistant's question
ANSWER_SIGNAL = "answer"


def answering(cand: Candidate, ctx: WriteContext) -> dict[str, str]:
    """``{"answering": question}`` for a candidate read from an answer to ``ctx.asked``
    (so an application can show "(answering: Where are you based?)"), else ``{}``."""
    if ctx.asked and ANSWER_SIGNAL in cand.signals:
        return {"answering": ctx.asked}
    return {}


def normalized_value(cand: Candidate) -> str:
    """The candidate's value as slots compare it (normalized form, lower case)."""
    return (cand.normalized or cand.value).strip().lower()


class Ledger:
    """One user's records (by id) and the record of every change made to them.

    Args:
        existing: the user's ACTIVE and PENDING non-episode records in the context.
        config: thresholds and confidences.
    """

    def __init__(self, existing: Iterable[MemoryRecord], config: MemoryConfig) -> None:
        self._config = config
        self._by_id: dict[str, MemoryRecord] = {r.id: r for r in existing}
        self._out = _Result()

    # -- results ---------------------------------------------------------------------------
    @property
    def changes(self) -> list[Change]:
        return self._out.changes

    @property
    def written(self) -> list[MemoryRecord]:
        """Every record created or modified, in write order."""
        return list(self._out.records.values())

    @property
    def audit(self) -> list[AuditEntry]:
        return self._out.audit

    @property
    def conflicts(self) -> list[Conflict]:
        return self._out.conflicts

    def obsolete_questions(self, open_questions: Iterable[Conflict]) -> list[Conflict]:
        """The open questions this ledger's writes answered by a later statement.

        A question asks which of its records to follow. Once every one of them has been
        superseded (the user said a third value: A, then B, then C within the confirmation
        window), nothing it asks about is live any more, so it is closed; the newer
        question about the current value stays. Questions about a value still pending or
        active stay open until the user answers them.
        """
        if not self._out.records:
            return []
        live = {r.id for r in self._by_id.values() if r.status in (Status.ACTIVE, Status.PENDING)}
        mine = {c.id for c in self._out.conflicts}
        return [
            c
            for c in open_questions
            if c.id not in mine
            and c.resolved_at is None
            and any(rid in self._out.records for rid in c.record_ids)
            and not any(rid in live for rid in c.record_ids)
        ]

    # -- lookups and writes ----------------------------------------------------------------------
    def _slot(self, cand: Candidate, ctx: WriteContext) -> Slot:
        ref = scope_ref(cand.scope, ctx.device_id, ctx.session_id)
        return (ctx.user_id, ctx.system_context, cand.kind.value, cand.key, ref)

    def _active(self, slot: Slot) -> MemoryRecord | None:
        for r in self._by_id.values():
            if r.status is Status.ACTIVE and r.slot == slot:
                return r
        return None

    def _pending(self, slot: Slot, normalized: str) -> MemoryRecord | None:
        for r in self._by_id.values():
            if (
                r.status is Status.PENDING
                and r.slot == slot
                and r.normalized == normalized
                and not r.metadata.get("awaiting_confirmation")
            ):
                return r
        return None

    def _put(self, record: MemoryRecord) -> MemoryRecord:
        self._by_id[record.id] = record
        self._out.records[record.id] = record
        return record

    def _change(
        self,
        action: ChangeAction,
        reason: str,
        key: str | None,
        *,
        record: MemoryRecord | None = None,
        previous: MemoryRecord | None = None,
        candidate: Candidate | None = None,
        conflict: Conflict | None = None,
    ) -> None:
        self._out.changes.append(
            Change(
                action=action,
                reason=reason,
                key=key,
                record=record,
                previous=previous,
                candidate=candidate,
                conflict=conflict,
            )
        )

    def _audit(
        self, action: str, ctx: WriteContext, record: MemoryRecord | None, **detail: Any
    ) -> None:
        self._out.audit.append(
            AuditEntry(
                user_id=ctx.user_id,
                action=action,
                record_id=record.id if record else None,
                key=record.key if record else detail.get("key"),
                actor=ctx.actor,
                at=ctx.at,
                session_id=ctx.session_id,
                turn_id=ctx.turn_id,
                detail=detail,
            )
        )

    def _new_record(
        self,
        cand: Candidate,
        ctx: WriteContext,
        *,
        source: Source,
        confidence: float,
        status: Status = Status.ACTIVE,
        version: int = 1,
        supersedes: str | None = None,
        evidence: int = 1,
        metadata: Mapping[str, Any] | None = None,
    ) -> MemoryRecord:
        return MemoryRecord(
            user_id=ctx.user_id,
            kind=cand.kind,
            key=cand.key,
            value=cand.value,
            normalized=normalized_value(cand),
            source=source,
            confidence=confidence,
            version=version,
            status=status,
            created_at=ctx.at,
            updated_at=ctx.at,
            valid_until=cand.valid_until,
            permanent=cand.permanent,
            hard=cand.hard,
            explicit=cand.explicit or cand.correction or "explicit_marker" in cand.signals,
            scope=cand.scope,
            scope_ref=scope_ref(cand.scope, ctx.device_id, ctx.session_id),
            system_context=ctx.system_context,
            provenance=Provenance(
                session_id=ctx.session_id,
                turn_id=ctx.turn_id,
                turn_index=ctx.turn_index,
                at=ctx.at,
                span=cand.span or None,
                role=ctx.role,
                actor=f"extractor:{cand.extractor}" if ctx.role else ctx.actor,
            ),
            evidence=evidence,
            supersedes=supersedes,
            metadata={**answering(cand, ctx), **(metadata or {})},
        )

    def _conflict(
        self,
        ctx: WriteContext,
        key: str,
        old: MemoryRecord,
        new: MemoryRecord,
        reason: str,
        cand: Candidate,
        *,
        question: bool,
    ) -> None:
        """Record a conflict between ``old`` and ``new`` (audited) and report it as a
        ``CONFLICT`` change (``new`` is the change's record, ``old`` its previous).

        With ``question`` it stays open with a dated confirmation question; without, it is
        recorded resolved (a visible exception, nothing to ask).
        """
        said = old.provenance.at or old.updated_at
        # dated, not "now": the question is shown until it is answered, maybe weeks later
        q = (
            f"On {said:%Y-%m-%d} you said {key} = {old.value!r}; on {ctx.at:%Y-%m-%d} you "
            f"said {new.value!r}. Which one should I follow?"
            if question
            else ""
        )
        conflict = Conflict(
            user_id=ctx.user_id,
            system_context=ctx.system_context,
            key=key,
            record_ids=(old.id, new.id),
            reason=reason,
            question=q,
            detected_at=ctx.at,
            resolved_at=None if question else ctx.at,
        )
        self._out.conflicts.append(conflict)
        self._audit("conflict", ctx, new, reason=reason, other=old.id)
        self._change(
            ChangeAction.CONFLICT,
            reason,
            key,
            record=new,
            previous=old,
            candidate=cand,
            conflict=conflict,
        )
