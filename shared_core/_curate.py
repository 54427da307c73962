"""What the user (or an app acting for them) does to stored memories besides writing new
ones: answer confirmation questions (``conflicts``, ``resolve_conflict``), list them
(``memories``) and set when they expire (``set_expiry``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from ._base import MemoryBase
from .entities import (
    AuditEntry,
    Candidate,
    Conflict,
    Kind,
    MemoryRecord,
    Scope,
    Source,
    Status,
    UserState,
)
from .errors import InvalidInputError, MemoryDisabledError, NotFoundError, UserErasedError
from .fencing import commit_fenced, fenced_write, retry_erasures
from .ingest.lexicon import canonical_value
from .ingest.resolve import Resolver, WriteContext
from .storage.protocols import Fence, RecordFilter, WriteBatch
from .validate import (
    check_datetime,
    check_enum,
    check_flag,
    check_id,
    check_key,
    check_optional_id,
    check_value,
)

__all__ = ["Curation"]


class Curation(MemoryBase):
    """``conflicts``, ``resolve_conflict``, ``memories``, ``set_expiry``."""

    def conflicts(
        self, user_id: str, *, system_context: str | None = None, open_only: bool = True
    ) -> list[Conflict]:
        """The user's conflicts, oldest first: by default the open confirmation questions.

        Args:
            user_id: whose conflicts.
            system_context: one memory partition (``None``: every one).
            open_only: only the questions still waiting for the user's answer.
        """
        user_id = check_id(user_id, "user_id", max_chars=self.config.max_id_chars)
        system_context = check_optional_id(
            system_context, "system_context", max_chars=self.config.max_id_chars
        )
        found = self.records.conflicts(
            user_id, system_context, open_only=check_flag(open_only, "open_only")
        )
        return sorted(found, key=lambda c: c.detected_at)

    def memories(
        self,
        user_id: str,
        *,
        system_context: str = "default",
        kinds: Sequence[str] | None = None,
        key_prefix: str | None = None,
        all_versions: bool = False,
    ) -> list[MemoryRecord]:
        """The user's memories in one ``system_context``, newest change first.

        Args:
            user_id: whose memories.
            system_context: the memory partition.
            kinds: only these kinds (``None``: every kind, episodes included).
            key_prefix: only keys that start with it (``"contact."`` matches
                ``contact.call``).
            all_versions: every version (superseded, revoked, pending too), not only the
                current ones.
        """
        cfg = self.config
        user_id = check_id(user_id, "user_id", max_chars=cfg.max_id_chars)
        system_context = check_id(system_context, "system_context", max_chars=cfg.max_id_chars)
        kind_t = None if kinds is None else tuple(check_enum(k, Kind, "kind") for k in kinds)
        if key_prefix is not None and (not isinstance(key_prefix, str) or not key_prefix):
            raise InvalidInputError("key_prefix must be a non-empty string")
        return self.records.find(
            RecordFilter(
                user_id=user_id,
                system_context=system_context,
                statuses=None if check_flag(all_versions, "all_versions") else (Status.ACTIVE,),
                kinds=kind_t,
                key_prefixes=None if key_prefix is None else (key_prefix,),
            )
        )

    def set_expiry(
        self,
        user_id: str,
        expiries: Mapping[str, datetime | None],
        *,
        system_context: str = "default",
        metadata: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> list[MemoryRecord]:
        """Set when memories stop being used (``valid_until``), by record id.

        The records keep their id, value and version (an expiry is not a new statement);
        ``None`` means never. ``metadata`` merges entries into a record's metadata (a
        ``None`` value removes the entry); the LangGraph store keeps an item's TTL there
        to refresh it on reads.

        Returns:
            The updated records.

        Raises:
            NotFoundError: an id that is not a record of the user in ``system_context``.
            InvalidInputError: a bad id, time or metadata.
        """
        cfg = self.config
        user_id = check_id(user_id, "user_id", max_chars=cfg.max_id_chars)
        system_context = check_id(system_context, "system_context", max_chars=cfg.max_id_chars)
        if not isinstance(expiries, Mapping):
            raise InvalidInputError("expiries must map record ids to a time or None")
        until = {
            check_id(rid, "record id", max_chars=cfg.max_id_chars): check_datetime(
                when, "valid_until"
            )
            for rid, when in expiries.items()
        }
        extra = {rid: dict(m) for rid, m in (metadata or {}).items()}
        if set(extra) - set(until):
            raise InvalidInputError("metadata names a record that expiries does not")
        if not until:
            return []

        def once(fence: Fence | None) -> list[MemoryRecord]:
            found = {r.id: r for r in self.records.get(list(until))}
            missing = [
                rid
                for rid in until
                if rid not in found
                or found[rid].user_id != user_id
                or found[rid].system_context != system_context
            ]
            if missing:
                raise NotFoundError(f"no record {missing[0]!r} of this user in {system_context!r}")
            out = []
            for rid, when in until.items():
                meta = dict(found[rid].metadata)
                for k, v in extra.get(rid, {}).items():
                    if v is None:
                        meta.pop(k, None)
                    else:
                        meta[k] = v
                out.append(found[rid].replace(valid_until=when, metadata=meta))
            commit_fenced(self, WriteBatch(records=out), user_id, fence)
            return out

        return fenced_write(self, user_id, once, on_erased=list)

    def resolve_conflict(
        self,
        user_id: str,
        key: str,
        value: str | int | float | bool,
        *,
        system_context: str = "default",
        at: datetime | None = None,
        actor: str = "user",
    ) -> MemoryRecord:
        """Answer the open confirmation question(s) on ``key`` with the user's ``value``.

        ``value`` is one of the conflicting values or a new one. It is recorded as the
        user's own correction (source ``user_declare``, as if they said "actually ..."),
        so it replaces even a permanent value without opening a new question; the other
        values that waited for confirmation are revoked (kept in the history), and every
        open conflict on ``key`` is closed (``resolved_at``), in one fenced write.

        Returns:
            The record that now holds the slot.

        Raises:
            NotFoundError: no open conflict on ``key`` in ``system_context``.
            MemoryDisabledError: the user switched memory off (nothing written).
            InvalidInputError: bad user id, key, value or ``system_context``.
            UserErasedError: ``forget`` erased the user meanwhile (nothing written).
        """
        cfg = self.config
        user_id = check_id(user_id, "user_id", max_chars=cfg.max_id_chars)
        key = check_key(key)
        text_value = check_value(value, max_chars=cfg.max_text_chars)
        system_context = check_id(system_context, "system_context", max_chars=cfg.max_id_chars)
        now = check_datetime(at) or self.clock.now()
        norm = canonical_value(key, text_value)

        def once(fence: Fence | None) -> MemoryRecord:
            state = self.records.user_state(user_id) or UserState(user_id=user_id)
            if not state.memory_enabled:
                raise MemoryDisabledError(
                    f"memory is disabled for user {user_id!r}; nothing written"
                )
            open_ = [
                c
                for c in self.records.conflicts(user_id, system_context, open_only=True)
                if c.key == key
            ]
            if not open_:
                raise NotFoundError(f"no open conflict on {key!r} in {system_context!r}")
            ids = {rid for c in open_ for rid in c.record_ids}
            live = self._live_records(user_id, system_context)
            involved = [r for r in live if r.id in ids]
            # the answer keeps the kind, scope and strength of the value it names, else of
            # the value that holds the slot
            template = next(
                (r for r in involved if r.normalized == norm),
                next((r for r in involved if r.status is Status.ACTIVE), None),
            )
            scope = template.scope if template else Scope.GLOBAL
            ref = template.scope_ref if template else ""
            cand = Candidate(
                kind=template.kind if template else Kind.PREFERENCE,
                key=template.key if template else key,
                value=text_value,
                normalized=norm,
                explicit=True,
                correction=True,
                permanent=template.permanent if template else False,
                hard=template.hard if template else False,
                scope=scope,
                span="",
                extractor=actor,
                signals=frozenset({"explicit_marker"}),
            )
            ctx = WriteContext(
                user_id=user_id,
                system_context=system_context,
                at=now,
                source=Source.USER_DECLARE,
                device_id=ref.removeprefix("device:") if ref.startswith("device:") else None,
                session_id=ref.removeprefix("session:") if ref.startswith("session:") else None,
                actor=actor,
            )
            resolver = Resolver(live, cfg)
            record = resolver.assert_value(cand, ctx)
            written = {r.id: r for r in resolver.written}
            audit = list(resolver.audit)
            for r in involved:
                current = written.get(r.id, r)
                if current.status is not Status.PENDING:
                    continue
                status = Status.SUPERSEDED if current.normalized == norm else Status.REVOKED
                written[r.id] = current.replace(status=status, updated_at=now)
                audit.append(
                    AuditEntry(
                        user_id=user_id,
                        action="supersede" if status is Status.SUPERSEDED else "revoke",
                        record_id=r.id,
                        key=r.key,
                        actor=actor,
                        at=now,
                        detail={"reason": "confirmation answered", "answer": text_value},
                    )
                )
            audit.append(
                AuditEntry(
                    user_id=user_id,
                    action="resolve",
                    record_id=record.id,
                    key=key,
                    actor=actor,
                    at=now,
                    detail={"conflicts": [c.id for c in open_], "answer": text_value},
                )
            )
            batch = WriteBatch(
                records=list(written.values()),
                audit=audit,
                conflicts=list(resolver.conflicts),
                resolved_conflicts=[(c.id, now) for c in open_],
            )
            commit_fenced(self, batch, user_id, fence)
            return record

        def erased() -> MemoryRecord:
            raise UserErasedError("the user was erased while this answer ran; nothing written")

        retry_erasures(self)
        return fenced_write(self, user_id, once, on_erased=erased)
