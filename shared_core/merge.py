"""Anonymous-visitor merge: move an anonymous id's memory to the signed-in user.

Backend-independent: it reads through the store protocols and writes one batch, so it
works the same on SQLite, PostgreSQL and Redis sessions.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from .entities import (
    AuditEntry,
    Candidate,
    Change,
    Kind,
    MemoryRecord,
    Provenance,
    SessionTurn,
    new_id,
)
from .errors import UserErasedError
from .fencing import commit_fenced, fenced_write, store_fence
from .ingest.resolve import Resolver, WriteContext
from .storage.protocols import Fence, RecordFilter, WriteBatch

if TYPE_CHECKING:
    from ._manage import Management as UserMemory

__all__ = ["merge_anonymous"]


def merge_anonymous(mem: UserMemory, anon_id: str, user_id: str, *, at: datetime) -> list[Change]:
    """Move ``anon_id``'s sessions and long-term memories to ``user_id``, then erase ``anon_id``.

    Each active memory of the anonymous visitor is replayed, oldest first, through the
    same conflict rules as a new statement of the user (so a signed-in user's business
    rules and permanent statements still win); episodes are copied; live session turns
    move to the same session ids under the user. One audit entry records the merge.

    The merge is a fenced write of ``user_id`` (:func:`shared_core.fencing.fenced_write`)
    that also expects ``anon_id``'s fence: if either id is erased while it runs, nothing
    of it commits (the erase wins) and :class:`~shared_core.errors.UserErasedError` is
    raised; a concurrent write to either id makes it recompute.
    """
    first_anon = store_fence(mem, anon_id)  # an erase of anon_id after this point wins

    def once(fence: Fence | None) -> list[Change]:
        anon_fence = store_fence(mem, anon_id)
        if (
            anon_fence is not None
            and first_anon is not None
            and anon_fence.epoch != first_anon.epoch
        ):
            raise UserErasedError(f"{anon_id!r} was erased while the merge ran: nothing merged")
        changes, batch = _merge_batch(mem, anon_id, user_id, at)
        batch.expect_also = () if anon_fence is None else (anon_fence,)
        commit_fenced(mem, batch, user_id, fence)
        # inside the write's fence scope: the copied sessions belong to the epoch the merge
        # committed in, so an erase of the user right now leaves them unreachable
        for sid in mem.sessions.sessions(anon_id):
            for turn in mem.sessions.turns(anon_id, sid):
                mem.sessions.append(
                    user_id,
                    sid,
                    SessionTurn(role=turn.role, text=turn.text, turn_id=turn.turn_id, at=turn.at),
                )
        return changes

    def erased() -> list[Change]:
        raise UserErasedError(f"{user_id!r} was erased while the merge ran: nothing merged")

    changes = fenced_write(mem, user_id, once, on_erased=erased)
    mem.forget(anon_id)
    return changes


def _merge_batch(
    mem: UserMemory, anon_id: str, user_id: str, at: datetime
) -> tuple[list[Change], WriteBatch]:
    """What the merge writes to ``user_id``, from fresh reads of both ids."""
    anon = mem.records.find(RecordFilter(user_id=anon_id, system_context=None))
    anon.sort(key=lambda r: r.updated_at)
    contexts = sorted({r.system_context for r in anon})
    changes: list[Change] = []
    batch = WriteBatch()
    for ctx_name in contexts:
        resolver = Resolver(mem._live_records(user_id, ctx_name), mem.config)
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
    return changes, batch


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
