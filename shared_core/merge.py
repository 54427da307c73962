"""Anonymous-visitor merge: move an anonymous id's memory to the signed-in user.

Backend-independent: it reads through the store protocols and writes one batch, so it
works the same on SQLite, PostgreSQL and Redis sessions.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from .entities import (
    NON_ENTITY_KINDS,
    AuditEntry,
    Candidate,
    Change,
    Kind,
    MemoryRecord,
    Provenance,
    Status,
    new_id,
)
from .ingest.persist import commit
from .ingest.resolve import Resolver, WriteContext
from .storage.protocols import RecordFilter, WriteBatch

if TYPE_CHECKING:
    from ._manage import Management as UserMemory

__all__ = ["merge_anonymous"]


def merge_anonymous(mem: UserMemory, anon_id: str, user_id: str, *, at: datetime) -> list[Change]:
    """Move ``anon_id``'s sessions and long-term memories to ``user_id``, then erase ``anon_id``.

    Each active memory of the anonymous visitor is replayed, oldest first, through the
    same conflict rules as a new statement of the user (so a signed-in user's business
    rules and permanent statements still win); episodes are copied; live session turns
    move to the same session ids under the user. One audit entry records the merge.
    """
    anon = mem.records.find(RecordFilter(user_id=anon_id, system_context=None))
    anon.sort(key=lambda r: r.updated_at)
    contexts = sorted({r.system_context for r in anon})
    changes: list[Change] = []
    batch = WriteBatch()
    for ctx_name in contexts:
        existing = mem.records.find(
            RecordFilter(
                user_id=user_id,
                system_context=ctx_name,
                statuses=(Status.ACTIVE, Status.PENDING),
                exclude_kinds=NON_ENTITY_KINDS,
            )
        )
        resolver = Resolver(existing, mem.config)
        for rec in anon:
            if rec.system_context != ctx_name:
                continue
            if rec.kind is Kind.EPISODE:
                batch.records.append(_moved_episode(rec, user_id))
                continue
            cand = Candidate(
                kind=rec.kind,
                key=rec.key,
                value=rec.value,
                normalized=rec.normalized,
                explicit=rec.explicit,
                permanent=rec.permanent,
                hard=rec.hard,
                valid_until=rec.valid_until,
                scope=rec.scope,
                span=rec.provenance.span or "",
                signals=frozenset({"explicit_marker"}) if rec.explicit else frozenset(),
                extractor="merge",
            )
            wctx = WriteContext(
                user_id=user_id,
                system_context=ctx_name,
                at=rec.updated_at,
                source=rec.source,
                session_id=rec.provenance.session_id,
                turn_id=rec.provenance.turn_id,
                turn_index=rec.provenance.turn_index,
                device_id=rec.scope_ref.removeprefix("device:") if rec.scope_ref else None,
                role=rec.provenance.role,
                actor="merge",
            )
            resolver.assert_value(cand, wctx, confidence=rec.confidence)
        batch.records.extend(resolver.written)
        batch.audit.extend(resolver.audit)
        batch.conflicts.extend(resolver.conflicts)
        changes.extend(resolver.changes)
    batch.audit.append(
        AuditEntry(
            user_id=user_id,
            action="merge",
            actor="merge",
            at=at,
            detail={"from_anonymous": True, "records": len(anon)},
        )
    )
    commit(mem, batch, user_id)
    for sid in mem.sessions.sessions(anon_id):
        for turn in mem.sessions.turns(anon_id, sid):
            mem.sessions.append(
                user_id,
                sid,
                turn.__class__(role=turn.role, text=turn.text, turn_id=turn.turn_id, at=turn.at),
            )
    mem.forget(anon_id)
    return changes


def _moved_episode(rec: MemoryRecord, user_id: str) -> MemoryRecord:
    prov = rec.provenance
    return rec.replace(
        id=new_id(),
        user_id=user_id,
        provenance=Provenance(
            session_id=prov.session_id,
            turn_id=prov.turn_id,
            turn_index=prov.turn_index,
            at=prov.at,
            span=prov.span,
            role=prov.role,
            actor="merge",
        ),
    )
