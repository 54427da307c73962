"""Export and import one user's memory (GDPR-style portability), PII masked on request."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from . import privacy
from .entities import AuditEntry, Conflict, MemoryRecord, UserState
from .errors import InvalidInputError, UserErasedError
from .fencing import commit_fenced, fenced_write
from .ids import check_id, check_optional_id
from .storage.protocols import Fence, RecordFilter, WriteBatch

if TYPE_CHECKING:
    from ._manage import Management as UserMemory

__all__ = ["EXPORT_FORMAT", "export_user", "import_user"]

EXPORT_FORMAT = "usermemory.export/1"


def _mask_text(value: str | None) -> str | None:
    return privacy.redact(value).text if value else value


def export_user(mem: UserMemory, user_id: str, *, mask_pii: bool = False) -> dict[str, Any]:
    """Everything held about ``user_id`` in every store, as JSON-serialisable data."""
    mem.flush_audit()
    records = mem.records.find(RecordFilter(user_id=user_id, system_context=None, statuses=None))
    records.sort(key=lambda r: (r.created_at, r.version))
    state = mem.records.user_state(user_id)
    sessions = {
        sid: [t.to_dict() for t in mem.sessions.turns(user_id, sid)]
        for sid in mem.sessions.sessions(user_id)
    }
    rec_dicts = [r.to_dict() for r in records]
    if mask_pii:
        for d in rec_dicts:
            d["value"] = _mask_text(d["value"])
            d["normalized"] = _mask_text(d["normalized"])
            d["provenance"]["span"] = _mask_text(d["provenance"]["span"])
        for turns in sessions.values():
            for t in turns:
                t["text"] = _mask_text(t["text"])
    return {
        "format": EXPORT_FORMAT,
        "user_id": user_id,
        "exported_at": mem.clock.now().isoformat(),
        "pii_masked": mask_pii,
        "state": None
        if state is None
        else {
            "memory_enabled": state.memory_enabled,
            "sessions": state.sessions,
            "turns": state.turns,
            "first_seen": state.first_seen.isoformat() if state.first_seen else None,
            "last_seen": state.last_seen.isoformat() if state.last_seen else None,
            "last_session_id": state.last_session_id,
        },
        "records": rec_dicts,
        "audit": [a.to_dict() for a in mem.records.audit_log(user_id)],
        "conflicts": [c.to_dict() for c in mem.records.conflicts(user_id, None, open_only=False)],
        "sessions": sessions,
        "vectors": len(mem.vectors.ids_for_user(user_id)),
    }


def _check_ids(
    records: list[MemoryRecord],
    audit: list[AuditEntry],
    conflicts: list[Conflict],
    state: UserState | None,
    *,
    max_chars: int,
) -> None:
    """Every id and key of an import passes the same check as at every other entry point
    (a key with a line break or U+2028 could otherwise end the context block)."""
    for r in records:
        check_id(r.id, "record id")
        check_id(r.key, "key")
        check_id(r.system_context, "system_context", max_chars=max_chars)
        if r.scope_ref:
            check_id(r.scope_ref, "scope_ref")
        check_optional_id(r.provenance.session_id, "session_id")
        check_optional_id(r.provenance.turn_id, "turn_id")
    for a in audit:
        check_optional_id(a.session_id, "audit session_id")
    for c in conflicts:
        check_id(c.id, "conflict id")
        check_id(c.key, "conflict key")
        check_id(c.system_context, "system_context", max_chars=max_chars)
    if state is not None:
        check_optional_id(state.last_session_id, "last_session_id")


def import_user(mem: UserMemory, data: Mapping[str, Any]) -> int:
    """Load an :func:`export_user` dump; returns the number of records imported.

    The commit is a fenced write of the user (:func:`shared_core.fencing.fenced_write`):
    an import still in flight when ``forget`` erased the user commits nothing.

    Raises:
        InvalidInputError: not an export, a masked one, or a malformed id or record.
        UserErasedError: the user was erased while the import ran (nothing imported).
    """
    from datetime import datetime

    if not isinstance(data, Mapping) or data.get("format") != EXPORT_FORMAT:
        raise InvalidInputError(f"not a UserMemory export (expected format {EXPORT_FORMAT!r})")
    if data.get("pii_masked"):
        raise InvalidInputError("a PII-masked export cannot be imported: export without mask_pii")
    user_id = check_id(data.get("user_id"), "user_id", max_chars=mem.config.max_id_chars)
    try:
        records = [MemoryRecord.from_dict(d) for d in data.get("records", [])]
        audit = [
            AuditEntry(**{**a, "at": datetime.fromisoformat(a["at"])})
            for a in data.get("audit", [])
        ]
        conflicts = [
            Conflict(
                **{
                    **c,
                    "record_ids": tuple(c["record_ids"]),
                    "detected_at": datetime.fromisoformat(c["detected_at"]),
                    "resolved_at": datetime.fromisoformat(c["resolved_at"])
                    if c.get("resolved_at")
                    else None,
                }
            )
            for c in data.get("conflicts", [])
        ]
        st = data.get("state")
        state = (
            None
            if st is None
            else UserState(
                user_id=user_id,
                memory_enabled=bool(st["memory_enabled"]),
                sessions=int(st["sessions"]),
                turns=int(st["turns"]),
                first_seen=datetime.fromisoformat(st["first_seen"]) if st["first_seen"] else None,
                last_seen=datetime.fromisoformat(st["last_seen"]) if st["last_seen"] else None,
                last_session_id=st.get("last_session_id"),
            )
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidInputError(f"malformed export: {exc}") from exc
    if any(r.user_id != user_id for r in records):
        raise InvalidInputError("export mixes users: every record must belong to user_id")
    _check_ids(records, audit, conflicts, state, max_chars=mem.config.max_id_chars)
    # superseded/revoked first so the one-active-per-slot rule holds while inserting
    records.sort(key=lambda r: r.status.value == "active")
    batch = WriteBatch(records=records, audit=audit, conflicts=conflicts, user_state=state)

    def once(fence: Fence | None) -> int:
        # the commit path invalidates the profile cache, publishes events and indexes vectors
        commit_fenced(mem, batch, user_id, fence)
        return len(records)

    def erased() -> int:
        raise UserErasedError(f"{user_id!r} was erased while the import ran: nothing imported")

    return fenced_write(mem, user_id, once, on_erased=erased)
