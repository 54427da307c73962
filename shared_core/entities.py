"""The data model shared by every step, store and adapter.

All types are frozen dataclasses holding plain, JSON-friendly values so that they
cross thread, process and framework boundaries without surprises. Times are
aware UTC datetimes.

A *slot* is what a memory is unique by: (user_id, system_context, kind, key,
scope_ref). At most one record per slot has ``status == "active"``; every older
version stays with ``status == "superseded"`` (or "revoked"/"retracted").
"""

from __future__ import annotations

import dataclasses
import secrets
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

__all__ = [
    "NON_ENTITY_KINDS",
    "AuditEntry",
    "Candidate",
    "Change",
    "ChangeAction",
    "Conflict",
    "Intent",
    "Kind",
    "MemoryRecord",
    "Provenance",
    "Scope",
    "ScoredMemory",
    "SessionTurn",
    "Source",
    "Status",
    "Turn",
    "UserState",
    "new_id",
    "new_time_id",
    "scope_ref",
]


def new_id() -> str:
    """A new random id (32 hex chars)."""
    return uuid.uuid4().hex


def new_time_id() -> str:
    """A new id that sorts by creation time (32 hex chars: Unix milliseconds, 12 hex,
    then 80 random bits, like a UUIDv7 without the version bits).

    Audit entries use it: the audit log is append-only, and a time-ordered primary key
    appends to the end of its index, where a random one writes a page anywhere in it (a
    read-audit flush of 64 entries dirtied ~60 more pages with random ids).
    """
    return f"{time.time_ns() // 1_000_000:012x}{secrets.token_hex(10)}"


class Kind(StrEnum):
    """What a memory is about."""

    FACT = "fact"
    EVENT = "event"
    PREFERENCE = "preference"
    RELATIONSHIP = "relationship"
    CONSTRAINT = "constraint"
    EPISODE = "episode"


#: Kinds that are not entities (raw conversation turns and summaries): left out of the
#: profile, the key lookup and conflict resolution.
NON_ENTITY_KINDS: tuple[Kind, ...] = (Kind.EPISODE,)


class Source(StrEnum):
    """Where a memory came from; sets its default confidence (see ``MemoryConfig``)."""

    USER_DECLARE = "user_declare"
    TOOL_PARSE = "tool_parse"
    ADMIN_SET = "admin_set"
    INFERRED = "inferred"
    AGENT = "agent"  # written by an agent (LangGraph store, memory tools): its own notes


class Scope(StrEnum):
    """Where a memory applies."""

    GLOBAL = "global"
    DEVICE = "device"
    SESSION = "session"


class Status(StrEnum):
    """Life cycle of one record version."""

    ACTIVE = "active"  # the current value of its slot
    SUPERSEDED = "superseded"  # replaced by a newer version (kept)
    REVOKED = "revoked"  # the user asked to forget / take it back (kept for audit)
    PENDING = "pending"  # an implicit signal waiting for consensus; never recalled


class Intent(StrEnum):
    """What a candidate asks the memory to do."""

    ASSERT = "assert"  # store this value
    FORGET = "forget"  # "forget my address": revoke the slot(s) named by key
    RETRACT = "retract"  # "just kidding" / "never mind": undo the previous turn's writes


class ChangeAction(StrEnum):
    """What ``observe``/``remember`` did with one candidate."""

    ADDED = "added"  # a new slot
    UPDATED = "updated"  # a new version of an existing slot
    SUPERSEDED = "superseded"  # an old version replaced (reported alongside UPDATED)
    REINFORCED = "reinforced"  # same value again: confidence/evidence raised, no new version
    PENDING = "pending"  # implicit signal recorded; needs more consensus
    REVOKED = "revoked"  # forgotten / retracted on request
    CONFLICT = "conflict"  # kept both; a confirmation question is due
    EPISODE = "episode"  # the turn itself was stored as episodic memory
    IGNORED = "ignored"  # rejected by the gate or the resolver (reason says why)


def scope_ref(scope: Scope, device_id: str | None = None, session_id: str | None = None) -> str:
    """The slot component for a scope: "" (global), "device:<id>" or "session:<id>"."""
    if scope is Scope.DEVICE:
        return f"device:{device_id}" if device_id else ""
    if scope is Scope.SESSION:
        return f"session:{session_id}" if session_id else ""
    return ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Provenance:
    """Where and when a memory was said."""

    session_id: str | None = None
    turn_id: str | None = None
    turn_index: int | None = None
    at: datetime | None = None
    span: str | None = None  # the source text span (possibly redacted)
    role: str | None = None
    # who wrote it: "user", "assistant", "app", "admin", "extractor:<name>"
    actor: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "session_id": self.session_id,
            "turn_id": self.turn_id,
            "turn_index": self.turn_index,
            "at": self.at.isoformat() if self.at else None,
            "span": self.span,
            "role": self.role,
            "actor": self.actor,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Provenance:
        at = data.get("at")
        return cls(
            session_id=data.get("session_id"),
            turn_id=data.get("turn_id"),
            turn_index=data.get("turn_index"),
            at=datetime.fromisoformat(at) if isinstance(at, str) else at,
            span=data.get("span"),
            role=data.get("role"),
            actor=data.get("actor"),
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class MemoryRecord:
    """One version of one memory.

    ``value`` is the text as stated (or as set by the app); ``normalized`` is the
    canonical form used for comparison ("SMS" / "text me" -> "sms").
    """

    id: str = field(default_factory=new_id)
    user_id: str
    kind: Kind
    key: str
    value: str
    normalized: str = ""
    source: Source = Source.USER_DECLARE
    confidence: float = 0.95
    version: int = 1
    status: Status = Status.ACTIVE
    created_at: datetime
    updated_at: datetime
    valid_until: datetime | None = None  # None = no expiry
    permanent: bool = False  # "never"/"always"/"永远不要": stands until explicitly revoked
    hard: bool = False  # hard constraint (must be obeyed) vs soft preference
    explicit: bool = True  # explicitly declared vs implicitly inferred
    scope: Scope = Scope.GLOBAL
    scope_ref: str = ""  # "", "device:<id>", "session:<id>"
    system_context: str = "default"
    provenance: Provenance = field(default_factory=Provenance)
    evidence: int = 1  # independent signals that support this value
    supersedes: str | None = None  # id of the version this one replaced
    metadata: Mapping[str, Any] = field(default_factory=dict)

    @property
    def slot(self) -> tuple[str, str, str, str, str]:
        return (self.user_id, self.system_context, self.kind.value, self.key, self.scope_ref)

    def replace(self, **changes: Any) -> MemoryRecord:
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable dict (times as ISO 8601 strings)."""
        return {
            "id": self.id,
            "user_id": self.user_id,
            "kind": self.kind.value,
            "key": self.key,
            "value": self.value,
            "normalized": self.normalized,
            "source": self.source.value,
            "confidence": self.confidence,
            "version": self.version,
            "status": self.status.value,
            "created_at": self.created_at.isoformat(),
            "updated_at": self.updated_at.isoformat(),
            "valid_until": self.valid_until.isoformat() if self.valid_until else None,
            "permanent": self.permanent,
            "hard": self.hard,
            "explicit": self.explicit,
            "scope": self.scope.value,
            "scope_ref": self.scope_ref,
            "system_context": self.system_context,
            "provenance": self.provenance.to_dict(),
            "evidence": self.evidence,
            "supersedes": self.supersedes,
            "metadata": dict(self.metadata),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MemoryRecord:
        """Inverse of :meth:`to_dict`."""

        def dt(v: Any) -> datetime | None:
            return datetime.fromisoformat(v) if isinstance(v, str) else v

        created = dt(data["created_at"])
        updated = dt(data["updated_at"])
        assert created is not None and updated is not None
        return cls(
            id=data["id"],
            user_id=data["user_id"],
            kind=Kind(data["kind"]),
            key=data["key"],
            value=data["value"],
            normalized=data.get("normalized", ""),
            source=Source(data.get("source", "user_declare")),
            confidence=float(data.get("confidence", 0.95)),
            version=int(data.get("version", 1)),
            status=Status(data.get("status", "active")),
            created_at=created,
            updated_at=updated,
            valid_until=dt(data.get("valid_until")),
            permanent=bool(data.get("permanent", False)),
            hard=bool(data.get("hard", False)),
            explicit=bool(data.get("explicit", True)),
            scope=Scope(data.get("scope", "global")),
            scope_ref=data.get("scope_ref", ""),
            system_context=data.get("system_context", "default"),
            provenance=Provenance.from_dict(data.get("provenance") or {}),
            evidence=int(data.get("evidence", 1)),
            supersedes=data.get("supersedes"),
            metadata=dict(data.get("metadata") or {}),
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class Turn:
    """One conversation turn as it enters the write path."""

    user_id: str
    text: str
    role: str = "user"
    session_id: str
    turn_id: str
    turn_index: int = 0
    device_id: str | None = None
    system_context: str = "default"
    at: datetime
    #: the question the assistant asked in the turn just before this user turn, if any
    #: ("Where are you based?" before "Leeds."): the turn may be its answer
    asked: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Candidate:
    """Something an extractor believes the turn says about the user.

    Attributes:
        kind: what it is.
        key: the slot key, dotted lowercase ("contact.call", "allergy.medication").
        value: the value as stated; ``normalized`` its canonical form.
        explicit: the user asked to remember it / declared it directly.
        permanent: "never"/"always" wording: stands until explicitly revoked.
        hard: a hard constraint rather than a soft preference.
        correction: the turn corrects an earlier statement ("actually ...").
        replaces: for a correction, the normalized value it replaces ("not aspirin,
            ibuprofen" -> "aspirin"), so the resolver corrects the slot that holds it
            (``allergy.medication.aspirin``) rather than the first one of the key.
        intent: assert, forget (revoke ``key``) or retract (undo the last turn).
        confidence_hint: the extractor's own confidence, 0..1, if it has one.
        valid_until: when it stops holding (a resolved absolute date), if said.
        scope: global, device or session.
        span: the evidence text span in the turn.
        signals: markers the gate reads ("joke", "hypothetical", "question",
            "third_party", "negated", "explicit_marker", ...).
    """

    kind: Kind
    key: str
    value: str = ""
    normalized: str = ""
    explicit: bool = False
    permanent: bool = False
    hard: bool = False
    correction: bool = False
    replaces: str = ""
    intent: Intent = Intent.ASSERT
    confidence_hint: float | None = None
    valid_until: datetime | None = None
    scope: Scope = Scope.GLOBAL
    span: str = ""
    signals: frozenset[str] = frozenset()
    extractor: str = "rules"


@dataclass(frozen=True, slots=True, kw_only=True)
class Conflict:
    """Two values for related slots that contradict each other."""

    id: str = field(default_factory=new_id)
    user_id: str
    system_context: str
    key: str
    record_ids: tuple[str, ...]
    reason: str
    question: str  # the confirmation question to ask the user
    detected_at: datetime
    resolved_at: datetime | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "user_id": self.user_id,
            "system_context": self.system_context,
            "key": self.key,
            "record_ids": list(self.record_ids),
            "reason": self.reason,
            "question": self.question,
            "detected_at": self.detected_at.isoformat(),
            "resolved_at": self.resolved_at.isoformat() if self.resolved_at else None,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Change:
    """What happened to one candidate (or turn) in ``observe``/``remember``."""

    action: ChangeAction
    reason: str
    key: str | None = None
    record: MemoryRecord | None = None
    previous: MemoryRecord | None = None
    candidate: Candidate | None = None
    conflict: Conflict | None = None

    def __str__(self) -> str:
        what = f"{self.key}={self.record.value!r}" if self.record is not None else (self.key or "")
        return f"{self.action.value}: {what} ({self.reason})"


@dataclass(frozen=True, slots=True, kw_only=True)
class ScoredMemory:
    """One recall result: the record, its final score and the parts of it.

    ``score = confidence x decay x relevance``.
    """

    record: MemoryRecord
    score: float
    confidence: float
    decay: float
    relevance: float
    matched_by: tuple[str, ...] = ()  # "key", "dense", "lexical"
    components: Mapping[str, float] = field(default_factory=dict)

    @property
    def provenance(self) -> Provenance:
        return self.record.provenance

    @property
    def source(self) -> Source:
        return self.record.source

    def metadata(self) -> dict[str, Any]:
        """Flat, JSON-friendly metadata for framework documents/nodes (one shape everywhere)."""
        r = self.record
        return {
            "id": r.id,
            "user_id": r.user_id,
            "key": r.key,
            "kind": r.kind.value,
            "source": r.source.value,
            "score": self.score,
            "confidence": self.confidence,
            "decay": self.decay,
            "relevance": self.relevance,
            "matched_by": list(self.matched_by),
            "version": r.version,
            "scope": r.scope.value,
            "hard": r.hard,
            "permanent": r.permanent,
            "system_context": r.system_context,
            "updated_at": r.updated_at.isoformat(),
            "valid_until": r.valid_until.isoformat() if r.valid_until else None,
            "provenance": r.provenance.to_dict(),
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "record": self.record.to_dict(),
            "score": self.score,
            "confidence": self.confidence,
            "decay": self.decay,
            "relevance": self.relevance,
            "matched_by": list(self.matched_by),
            "components": dict(self.components),
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class AuditEntry:
    """One line of the audit log: who did what to which record, when, from which turn."""

    id: str = field(default_factory=new_time_id)
    user_id: str
    action: (
        str  # create / update / supersede / revoke / delete / read / erase / conflict / settings
    )
    record_id: str | None = None
    key: str | None = None
    actor: str = "system"
    at: datetime
    session_id: str | None = None
    turn_id: str | None = None
    detail: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "user_id": self.user_id,
            "action": self.action,
            "record_id": self.record_id,
            "key": self.key,
            "actor": self.actor,
            "at": self.at.isoformat(),
            "session_id": self.session_id,
            "turn_id": self.turn_id,
            "detail": dict(self.detail),
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class UserState:
    """Per-user bookkeeping: the memory switch and session statistics."""

    user_id: str
    memory_enabled: bool = True
    sessions: int = 0
    turns: int = 0
    first_seen: datetime | None = None
    last_seen: datetime | None = None
    last_session_id: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class SessionTurn:
    """A turn as kept in short-term session memory."""

    role: str
    text: str
    turn_id: str
    at: datetime
    written: tuple[str, ...] = ()  # ids of records this turn wrote (for "just kidding")

    def to_dict(self) -> dict[str, Any]:
        return {
            "role": self.role,
            "text": self.text,
            "turn_id": self.turn_id,
            "at": self.at.isoformat(),
            "written": list(self.written),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SessionTurn:
        return cls(
            role=data["role"],
            text=data["text"],
            turn_id=data["turn_id"],
            at=datetime.fromisoformat(data["at"]),
            written=tuple(data.get("written") or ()),
        )
