"""Sessions and privacy operations: end_session, forget, export/import, merge, switches."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from ._curate import Curation
from .entities import (
    AuditEntry,
    Candidate,
    Change,
    Intent,
    Kind,
    MemoryRecord,
    Provenance,
    SessionTurn,
    Source,
    Status,
    UserState,
)
from .errors import (
    BackendError,
    InvalidInputError,
    UserMemoryError,
)
from .fencing import commit_fenced, fenced_write, retry_erasures
from .ingest.gate import GateDecision, Verdict
from .ingest.resolve import Resolver, WriteContext
from .storage.protocols import (
    Fence,
    FencedStore,
    RecordFilter,
    WriteBatch,
)
from .validate import (
    check_datetime,
    check_flag,
    check_id,
    check_key,
)

__all__ = ["Management"]


class Management(Curation):
    """``end_session``, ``forget``, ``export``, ``import_user``, ``merge_anonymous``, ..."""

    def end_session(
        self, user_id: str, session_id: str, *, at: datetime | None = None
    ) -> MemoryRecord | None:
        """Close a session and write its episode (what it was about, when, key statements).

        Returns the episode record, or ``None`` when the session had no turns.
        """
        cfg = self.config
        user_id = check_id(user_id, "user_id", max_chars=cfg.max_id_chars)
        session_id = check_id(session_id, "session_id", max_chars=cfg.max_id_chars)
        now = check_datetime(at) or self.clock.now()
        return fenced_write(
            self,
            user_id,
            lambda fence: self._end_session_once(fence, user_id, session_id, now),
            on_erased=lambda: None,
        )

    def _end_session_once(
        self, fence: Fence | None, user_id: str, session_id: str, now: datetime
    ) -> MemoryRecord | None:
        from .episodes import summarize_session

        state = dict(self.sessions.get_state(user_id, session_id))
        turns = self.sessions.end(user_id, session_id)
        context_name = str(state.get("system_context") or "default")
        if not turns:
            eps = self.records.find(
                RecordFilter(
                    user_id=user_id,
                    system_context=context_name,
                    kinds=(Kind.EPISODE,),
                    key_prefixes=(f"turn:{session_id}:",),
                )
            )
            turns = [
                SessionTurn(
                    role=e.provenance.role or "user",
                    text=e.value,
                    turn_id=e.provenance.turn_id or "",
                    at=e.provenance.at or e.created_at,
                )
                for e in sorted(eps, key=lambda e: e.created_at)
            ]
        if not turns:
            return None
        written_ids = [rid for t in turns for rid in t.written]
        # an implicit signal still waiting for consensus is not something the user stated
        written = [
            r
            for r in self.records.get(written_ids)
            if r.status is not Status.PENDING and not r.metadata.get("promoted")
        ]
        summary = summarize_session(session_id, turns, written)
        started = turns[0].at
        rec = MemoryRecord(
            user_id=user_id,
            kind=Kind.EPISODE,
            key=f"session:{session_id}",
            value=summary,
            normalized="",
            source=Source.INFERRED,
            confidence=1.0,
            created_at=now,
            updated_at=now,
            explicit=True,
            system_context=context_name,
            provenance=Provenance(
                session_id=session_id, turn_id=turns[0].turn_id, at=started, actor="end_session"
            ),
            metadata={
                "turns": len(turns),
                "ended_at": now.isoformat(),
                "statements": [{"key": r.key, "turn_id": r.provenance.turn_id} for r in written],
            },
        )
        old = self.records.find(
            RecordFilter(
                user_id=user_id, system_context=context_name, kinds=(Kind.EPISODE,), keys=(rec.key,)
            )
        )
        batch = WriteBatch(
            records=[o.replace(status=Status.SUPERSEDED, updated_at=now) for o in old]
        )
        if old:
            rec = rec.replace(version=old[0].version + 1, supersedes=old[0].id)
        batch.records.append(rec)
        batch.audit.append(
            AuditEntry(
                user_id=user_id,
                action="create",
                record_id=rec.id,
                key=rec.key,
                actor="end_session",
                at=now,
                session_id=session_id,
            )
        )
        commit_fenced(self, batch, user_id, fence)
        return rec

    # -- privacy -----------------------------------------------------------------------------------
    def forget(self, user_id: str) -> dict[str, int]:
        """Erase everything about the user in every store; return counts per store.

        The erase is final: it moves the user's fence in the durable store first, so a
        write of this user still in flight anywhere (another thread, process or instance)
        cannot commit after it, and sessions or cached profiles written before it are
        unreachable from every instance even where their deletion has not arrived yet.

        Raises:
            BackendError: a store could not be reached. The records are erased (unless
                they are the store that failed) and every store that did not confirm is
                queued durably in the record store and retried automatically (on later
                writes and on the next ``forget``) until it confirms; calling ``forget``
                again is safe.
        """
        user_id = check_id(user_id, "user_id", max_chars=self.config.max_id_chars)
        retry_erasures(self, force=True)
        with self._user_locks(user_id):
            return self._forget_locked(user_id)

    def _forget_locked(self, user_id: str) -> dict[str, int]:
        # drops the user's buffered reads (after a write that took some has settled) and
        # keeps out those of recalls that overlap the erase: they read erased records
        with self.read_audit.erasing(user_id):
            # dated when it runs, not when forget() was called (it may have waited for the
            # user's lock): the stores cut other processes' reads that started before it
            return self._erase_stores(user_id, self.clock.now())

    def _erase_stores(self, user_id: str, now: datetime) -> dict[str, int]:
        report: dict[str, int] = {}
        failed: dict[str, str] = {}

        def attempt(name: str, fn: Callable[[], Any]) -> None:
            # every store is tried even when one fails: a partial erase is retried, not skipped
            try:
                result = fn()
            except UserMemoryError as exc:
                failed[name] = f"{type(exc).__name__}: {exc}"
                return
            if isinstance(result, dict):
                report.update({f"{name}.{k}": v for k, v in result.items()})
            else:
                report[name] = int(result)

        attempt("records", lambda: self.records.erase_user(user_id, at=now))
        attempt("vectors", lambda: self.vectors.delete_user(user_id))
        attempt("sessions", lambda: self.sessions.delete_user(user_id))
        if self.cache is not None:
            attempt("cache", lambda: self.cache.delete_user(user_id) if self.cache else 0)
        if self.events is not None:
            attempt("events", lambda: self.events.delete_user(user_id) if self.events else 0)
        if failed:
            queued = ""
            owed = sorted(set(failed) - {"records"})
            if "records" not in failed and owed and isinstance(self.records, FencedStore):
                try:
                    self.records.queue_erasure(user_id, owed, at=now)
                    queued = f"; {owed} queued durably and retried until they confirm"
                except UserMemoryError as exc:  # pragma: no cover - records just answered
                    queued = f"; could not queue the retry ({exc})"
            raise BackendError(
                f"forget({user_id!r}) erased {sorted(report)} but failed on "
                + "; ".join(f"{k} ({v})" for k, v in failed.items())
                + queued
                + ": the erase is not complete yet (calling forget() again is safe)"
            )
        return report

    def complete_erasures(self) -> int:
        """Deliver the erasures ``forget`` could not finish (a store was unreachable) now.

        They are queued durably in the record store, so any instance sharing it can
        finish them; this also happens on every ``forget`` and, at most every few
        seconds, on writes. Returns how many (user, store) erasures were confirmed; those
        whose store still fails stay queued.
        """
        return retry_erasures(self, force=True)

    def forget_key(
        self, user_id: str, key: str, *, system_context: str = "default", at: datetime | None = None
    ) -> list[Change]:
        """Revoke ``key`` (and its sub-keys) for the user; versions stay in history.

        A concurrent ``observe`` of the same user cannot bring the revoked version back:
        whichever commits second is recomputed from the other's result.

        Raises:
            InvalidInputError: bad user id, key or ``system_context`` (nothing revoked).
            ConflictError: the write's internal retry budget ran out (nothing revoked).
        """
        user_id = check_id(user_id, "user_id", max_chars=self.config.max_id_chars)
        key = check_key(key)
        system_context = check_id(
            system_context, "system_context", max_chars=self.config.max_id_chars
        )
        now = check_datetime(at) or self.clock.now()
        return fenced_write(
            self,
            user_id,
            lambda fence: self._forget_key_once(fence, user_id, key, system_context, now),
            on_erased=list,
        )

    def _forget_key_once(
        self, fence: Fence | None, user_id: str, key: str, system_context: str, now: datetime
    ) -> list[Change]:
        existing = self._live_records(user_id, system_context)
        resolver = Resolver(existing, self.config)
        cand = Candidate(
            kind=Kind.FACT, key=key, intent=Intent.FORGET, explicit=True, extractor="app"
        )
        resolver.apply(
            GateDecision(cand, Verdict.ACCEPT, "forget_key"),
            WriteContext(
                user_id=user_id,
                system_context=system_context,
                at=now,
                source=Source.ADMIN_SET,
                actor="app",
            ),
        )
        batch = WriteBatch(records=resolver.written, audit=list(resolver.audit))
        commit_fenced(self, batch, user_id, fence)
        return list(resolver.changes)

    def export(self, user_id: str, *, mask_pii: bool = False) -> dict[str, Any]:
        """Everything held about the user, JSON-serialisable (PII masked on request)."""
        from .portability import export_user

        user_id = check_id(user_id, "user_id", max_chars=self.config.max_id_chars)
        return export_user(self, user_id, mask_pii=mask_pii)

    def import_user(self, data: Mapping[str, Any]) -> int:
        """Load an ``export()`` dump back (records, audit, conflicts, state); returns records."""
        from .portability import import_user

        return import_user(self, data)

    def set_memory_enabled(self, user_id: str, enabled: bool) -> None:
        """Switch all writes for the user on or off (reads keep working)."""
        user_id = check_id(user_id, "user_id", max_chars=self.config.max_id_chars)
        check_flag(enabled, "enabled")
        now = self.clock.now()

        def once(fence: Fence | None) -> None:
            state = self.records.user_state(user_id) or UserState(user_id=user_id, first_seen=now)
            batch = WriteBatch(
                user_state=state.__class__(**{**_state_dict(state), "memory_enabled": enabled}),
                audit=[
                    AuditEntry(
                        user_id=user_id,
                        action="settings",
                        at=now,
                        actor="app",
                        detail={"memory_enabled": enabled},
                    )
                ],
            )
            commit_fenced(self, batch, user_id, fence)

        fenced_write(self, user_id, once, on_erased=lambda: None)

    def merge_anonymous(
        self, anon_id: str, user_id: str, *, at: datetime | None = None
    ) -> list[Change]:
        """Move an anonymous visitor's memory and sessions to the signed-in ``user_id``.

        Conflicts are resolved by the usual rules (the user's business rules and
        permanent statements win); the anonymous id is erased afterwards and the merge
        is audited on the user.
        """
        from .merge import merge_anonymous

        cfg = self.config
        anon_id = check_id(anon_id, "anon_id", max_chars=cfg.max_id_chars)
        user_id = check_id(user_id, "user_id", max_chars=cfg.max_id_chars)
        if anon_id == user_id:
            raise InvalidInputError("anon_id and user_id must differ")
        now = check_datetime(at) or self.clock.now()
        return merge_anonymous(self, anon_id, user_id, at=now)

    def users(self) -> list[str]:
        return self.records.users()

    def audit_log(self, user_id: str) -> list[AuditEntry]:
        user_id = check_id(user_id, "user_id", max_chars=self.config.max_id_chars)
        self.flush_audit()
        return self.records.audit_log(user_id)

    def reindex(self, user_id: str | None = None) -> int:
        """Repair the vector index: embed records that have no vector (outbox replay).

        Records the embedder cannot represent (Chinese text with an English-only model)
        have no vector by design and are not counted.
        """
        users = [user_id] if user_id else self.records.users()
        fixed = 0
        for uid in users:
            have = self.vectors.ids_for_user(uid)
            recs = [
                r
                for r in self.records.find(RecordFilter(user_id=uid, system_context=None))
                if r.id not in have and self._vector_parts(r)
            ]
            if recs:
                self._index(recs)
                fixed += len(recs)
        self._unindexed.clear()
        return fixed


def _state_dict(state: UserState) -> dict[str, Any]:
    return {f: getattr(state, f) for f in state.__dataclass_fields__}
