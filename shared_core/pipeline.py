"""UserMemory: the one place that chains the steps of the write and read paths.

Write path (``observe``): validate -> session memory -> extract -> gate -> resolve -> persist
(records + audit + conflicts in one transaction, then vectors, cache, events).
Read path (``recall``/``context``): validate -> rewrite -> key lookup + dense + lexical ->
fuse -> score (confidence x decay x relevance) -> render.

The steps themselves are pure functions in ``ingest/`` and ``recall/``; this module only
does IO and ordering.
"""

from __future__ import annotations

import hashlib
import logging
import os
import time
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from . import privacy, tokens
from .clock import Clock, SystemClock
from .config import MemoryConfig, PiiMode
from .decay import effective_confidence, is_expired
from .entities import (
    AuditEntry,
    Candidate,
    Change,
    ChangeAction,
    Intent,
    Kind,
    MemoryRecord,
    Provenance,
    Scope,
    ScoredMemory,
    SessionTurn,
    Source,
    Status,
    Turn,
    UserState,
    new_id,
    scope_ref,
)
from .errors import ExtractionError, InvalidInputError, MemoryDisabledError, UserMemoryError
from .ingest.extract import RuleExtractor
from .ingest.gate import GateDecision, Verdict, gate
from .ingest.resolve import Resolver, WriteContext, polarity
from .llm import Embedder, Extractor
from .metrics import Metrics
from .recall.fuse import FusionWeights, calibrated_fusion
from .recall.inject import ContextTemplates, render_context
from .recall.retrieve import record_text, retrieve
from .recall.rewrite import rewrite
from .recall.score import score_hits
from .storage.protocols import (
    EventBus,
    ProfileCache,
    RecordFilter,
    RecordStore,
    SessionStore,
    VectorIndex,
    VectorItem,
    WriteBatch,
)
from .validate import (
    check_datetime,
    check_enum,
    check_id,
    check_key,
    check_optional_id,
    check_role,
    check_text,
    check_value,
)

__all__ = ["UserMemory", "default_url"]

log = logging.getLogger(__name__)

_ENTITY_KINDS_EXCLUDED = (Kind.EPISODE,)


def default_url() -> str:
    """``USERMEMORY_URL`` or a SQLite file in the user's data directory."""
    env = os.environ.get("USERMEMORY_URL")
    if env:
        return env
    import platformdirs

    path = Path(platformdirs.user_data_dir("usermemory", appauthor=False)) / "memory.db"
    return f"sqlite:///{path}"


class UserMemory:
    """Structured long-term memory of users across conversations.

    Args:
        url: where to keep memory; ``None`` opens the embedded default (SQLite in the
            user data dir, or ``USERMEMORY_URL``). ``sqlite:///:memory:`` for tests.
        config: tunables; defaults from ``MemoryConfig.from_env()``.
        clock: time source (inject a ``FakeClock`` in tests and simulations).
        embedder: text -> vectors; default all-MiniLM-L6-v2 via sentence-transformers
            (loaded lazily on first use).
        extractor: turn -> candidates; default the offline English/Chinese rules.
        record_store / vector_index / session_store: explicit stores override the URL's.
        profile_cache / event_bus: optional hot cache and change feed (e.g. Redis).
        vectors_url / sessions_url / cache_url / events_url: open one component from its
            own URL next to the record store, e.g. ``sessions_url="redis://..."``,
            ``vectors_url="pinecone://index?namespace=prod"``.
        templates: replace the Jinja2 templates of ``context()``.

    Example:
        >>> from shared_core import UserMemory
        >>> mem = UserMemory.from_url("sqlite:///:memory:")
        >>> _ = mem.observe("u1", "I only accept SMS notifications, never call me.")
        >>> mem.profile("u1")["contact.channel"]
        'SMS'
    """

    def __init__(
        self,
        url: str | None = None,
        *,
        config: MemoryConfig | None = None,
        clock: Clock | None = None,
        embedder: Embedder | None = None,
        extractor: Extractor | None = None,
        record_store: RecordStore | None = None,
        vector_index: VectorIndex | None = None,
        session_store: SessionStore | None = None,
        profile_cache: ProfileCache | None = None,
        event_bus: EventBus | None = None,
        templates: ContextTemplates | None = None,
        metrics: Metrics | None = None,
        vectors_url: str | None = None,
        sessions_url: str | None = None,
        cache_url: str | None = None,
        events_url: str | None = None,
    ) -> None:
        self.config = config or MemoryConfig.from_env()
        self.clock: Clock = clock or SystemClock()
        self.url = url or default_url()
        from .storage.registry import open_backend, open_component

        opened: list[Any] = []

        def component(u: str | None, role: Any) -> Any:
            if u is None:
                return None
            obj = open_component(u, role, config=self.config, clock=self.clock)
            opened.append(obj)
            return obj

        try:
            vector_index = vector_index or component(vectors_url, "vectors")
            session_store = session_store or component(sessions_url, "sessions")
            profile_cache = profile_cache or component(cache_url, "cache")
            event_bus = event_bus or component(events_url, "events")
            if record_store is None or vector_index is None or session_store is None:
                backends = open_backend(self.url, config=self.config, clock=self.clock)
                record_store = record_store or backends.records
                vector_index = vector_index or backends.vectors
                session_store = session_store or backends.sessions
                profile_cache = profile_cache or backends.profile_cache
                event_bus = event_bus or backends.events
        except BaseException:
            for obj in opened:
                obj.close()
            raise
        self.records: RecordStore = record_store
        self.vectors: VectorIndex = vector_index
        self.sessions: SessionStore = session_store
        self.cache = profile_cache
        self.events = event_bus
        self._embedder = embedder
        self.extractor: Extractor = extractor or RuleExtractor()
        self._fallback_extractor = RuleExtractor()
        self.templates = templates or ContextTemplates()
        self.metrics = metrics or Metrics()
        self.fusion = FusionWeights()
        self._unindexed: set[str] = set()  # outbox: records whose vectors failed to write

    @classmethod
    def from_url(cls, url: str, **kwargs: Any) -> UserMemory:
        """Open memory at ``url`` (``sqlite:///path.db``, ``sqlite:///:memory:``, ...)."""
        return cls(url, **kwargs)

    # -- lifecycle -------------------------------------------------------------------------------
    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            from .embed import default_embedder

            self._embedder = default_embedder(self.config)
        return self._embedder

    def close(self) -> None:
        """Close every store (idempotent)."""
        for part in (self.records, self.vectors, self.sessions, self.cache, self.events):
            if part is not None:
                part.close()

    def __enter__(self) -> UserMemory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- write path ------------------------------------------------------------------------------
    def observe(
        self,
        user_id: str,
        text: str,
        *,
        role: str = "user",
        session_id: str | None = None,
        turn_id: str | None = None,
        device_id: str | None = None,
        system_context: str = "default",
        at: datetime | None = None,
    ) -> list[Change]:
        """Feed one conversation turn through extract -> gate -> resolve -> persist.

        Args:
            user_id: whose turn it is.
            text: the turn's text.
            role: "user", "assistant", "tool" or "system"; only user (and tool) turns
                write long-term memory, every turn is kept as episodic memory.
            session_id: the conversation; defaults to the user's live session or a new one.
            turn_id: the caller's id for this turn (generated when absent); observing the
                same turn id twice is a no-op, so retries are safe.
            device_id: the device the user is on (device-scoped preferences).
            system_context: memory partition ("support", "health", ...); never mixed.
            at: when the turn happened (default: now); relative dates resolve against it.

        Returns:
            What changed: added / updated / superseded / reinforced / pending / revoked /
            conflict / episode / ignored, each with its reason.

        Raises:
            InvalidInputError: bad text, ids or types (nothing is written).
            BackendError: a store failed (the turn's writes are rolled back together).
        """
        started = time.perf_counter()
        cfg = self.config
        user_id = check_id(user_id, "user_id", max_chars=cfg.max_id_chars)
        text = check_text(text, "text", max_chars=cfg.max_text_chars)
        role = check_role(role)
        session_id = check_optional_id(session_id, "session_id", max_chars=cfg.max_id_chars)
        turn_id = check_optional_id(turn_id, "turn_id", max_chars=cfg.max_id_chars)
        device_id = check_optional_id(device_id, "device_id", max_chars=cfg.max_id_chars)
        system_context = check_id(system_context, "system_context", max_chars=cfg.max_id_chars)
        now = check_datetime(at) or self.clock.now()

        state = self.records.user_state(user_id) or UserState(user_id=user_id)
        if not state.memory_enabled:
            return [Change(action=ChangeAction.IGNORED, reason="memory is disabled for this user")]
        session_id = session_id or self._live_session(state, now)
        turn_id = turn_id or new_id()[:16]
        episode_key = f"turn:{session_id}:{turn_id}"
        if self.records.find(
            RecordFilter(
                user_id=user_id,
                system_context=system_context,
                statuses=None,
                kinds=(Kind.EPISODE,),
                keys=(episode_key,),
                limit=1,
            )
        ):
            return [
                Change(
                    action=ChangeAction.IGNORED,
                    key=episode_key,
                    reason="turn already observed (same session_id and turn_id)",
                )
            ]

        sess_state = dict(self.sessions.get_state(user_id, session_id))
        new_session = not sess_state
        turn_index = int(sess_state.get("turn_index", 0)) + 1
        turn = Turn(
            user_id=user_id,
            text=text,
            role=role,
            session_id=session_id,
            turn_id=turn_id,
            turn_index=turn_index,
            device_id=device_id,
            system_context=system_context,
            at=now,
        )

        candidates = self._extract(turn) if role in ("user", "tool") else []
        existing = self.records.find(
            RecordFilter(
                user_id=user_id,
                system_context=system_context,
                statuses=(Status.ACTIVE, Status.PENDING),
                exclude_kinds=_ENTITY_KINDS_EXCLUDED,
            )
        )
        retractable = (
            self._retractable(user_id, session_id)
            if any(c.intent.value == "retract" for c in candidates)
            else []
        )
        extra_ids = {r.supersedes for r in retractable if r.supersedes}
        resolver = Resolver([*existing, *self.records.get(sorted(extra_ids))], cfg)
        ctx = WriteContext(
            user_id=user_id,
            system_context=system_context,
            at=now,
            source=Source.TOOL_PARSE if role == "tool" else Source.USER_DECLARE,
            session_id=session_id,
            turn_id=turn_id,
            turn_index=turn_index,
            device_id=device_id,
            role=role,
            actor=role,
        )
        for decision in gate(candidates, role=role, config=cfg):
            resolver.apply(decision, ctx, retractable=retractable)
            if decision.verdict.value == "reject":
                self.metrics.inc("gated_out", reason=decision.reason)

        batch = WriteBatch(
            records=resolver.written, audit=list(resolver.audit), conflicts=list(resolver.conflicts)
        )
        changes = list(resolver.changes)
        if cfg.store_turns:
            episode = self._episode_record(turn, episode_key)
            batch.records.append(episode)
            changes.append(
                Change(
                    action=ChangeAction.EPISODE,
                    key=episode_key,
                    record=episode,
                    reason="turn kept as episodic memory",
                )
            )
        batch.user_state = UserState(
            user_id=user_id,
            memory_enabled=True,
            sessions=state.sessions + (1 if new_session else 0),
            turns=state.turns + 1,
            first_seen=state.first_seen or now,
            last_seen=now,
            last_session_id=session_id,
        )
        self._commit(batch, user_id)

        written = [
            c.record.id
            for c in changes
            if c.record is not None
            and c.action in (ChangeAction.ADDED, ChangeAction.UPDATED, ChangeAction.PENDING)
            and c.record.kind is not Kind.EPISODE
        ]
        self.sessions.append(
            user_id,
            session_id,
            SessionTurn(
                role=role,
                text=self._session_text(text),
                turn_id=turn_id,
                at=now,
                written=tuple(written),
            ),
            device_id=device_id,
        )
        sess_state.update(turn_index=turn_index, device_id=device_id, system_context=system_context)
        self.sessions.set_state(user_id, session_id, sess_state)
        self.metrics.observe_latency("observe", time.perf_counter() - started)
        for c in changes:
            if c.action is ChangeAction.CONFLICT:
                self.metrics.inc("conflicts_detected")
        return changes

    def remember(
        self,
        user_id: str,
        key: str,
        value: str | int | float | bool,
        *,
        kind: str = "preference",
        source: str = "user_declare",
        system_context: str = "default",
        scope: str = "global",
        device_id: str | None = None,
        session_id: str | None = None,
        hard: bool = False,
        permanent: bool = False,
        valid_until: datetime | None = None,
        confidence: float | None = None,
        at: datetime | None = None,
        actor: str = "app",
    ) -> MemoryRecord:
        """Write one memory from application code (admin tools, forms, business events).

        The write goes through the same conflict rules as ``observe``; if a stronger value
        already holds the slot (e.g. an ``admin_set`` business rule), the returned record
        is the one that holds it and the attempt is audited.

        Raises:
            MemoryDisabledError: the user switched memory off.
            InvalidInputError: bad key, value, kind, source or scope.
        """
        cfg = self.config
        user_id = check_id(user_id, "user_id", max_chars=cfg.max_id_chars)
        key = check_key(key)
        text_value = check_value(value, max_chars=cfg.max_text_chars)
        kind_e = check_enum(kind, Kind, "kind")
        source_e = check_enum(source, Source, "source")
        scope_e = check_enum(scope, Scope, "scope")
        system_context = check_id(system_context, "system_context", max_chars=cfg.max_id_chars)
        device_id = check_optional_id(device_id, "device_id", max_chars=cfg.max_id_chars)
        session_id = check_optional_id(session_id, "session_id", max_chars=cfg.max_id_chars)
        if scope_e is Scope.DEVICE and not device_id:
            raise InvalidInputError("scope='device' needs a device_id")
        if scope_e is Scope.SESSION and not session_id:
            raise InvalidInputError("scope='session' needs a session_id")
        if confidence is not None and not (
            isinstance(confidence, int | float) and 0.0 <= confidence <= 1.0
        ):
            raise InvalidInputError("confidence must be a number in [0, 1]")
        now = check_datetime(at) or self.clock.now()
        until = check_datetime(valid_until, "valid_until")
        state = self.records.user_state(user_id) or UserState(user_id=user_id)
        if not state.memory_enabled:
            raise MemoryDisabledError(f"memory is disabled for user {user_id!r}; nothing written")
        cand = Candidate(
            kind=kind_e,
            key=key,
            value=text_value,
            normalized=text_value.lower(),
            explicit=source_e is not Source.INFERRED,
            permanent=permanent,
            hard=hard,
            valid_until=until,
            scope=scope_e,
            span="",
            extractor=actor,
            signals=frozenset({"explicit_marker"})
            if source_e is not Source.INFERRED
            else frozenset(),
        )
        existing = self.records.find(
            RecordFilter(
                user_id=user_id,
                system_context=system_context,
                statuses=(Status.ACTIVE, Status.PENDING),
                exclude_kinds=_ENTITY_KINDS_EXCLUDED,
            )
        )
        resolver = Resolver(existing, cfg)
        ctx = WriteContext(
            user_id=user_id,
            system_context=system_context,
            at=now,
            source=source_e,
            session_id=session_id,
            device_id=device_id,
            actor=actor,
        )
        record = resolver.assert_value(cand, ctx, confidence=confidence)
        batch = WriteBatch(
            records=resolver.written, audit=list(resolver.audit), conflicts=list(resolver.conflicts)
        )
        if state.first_seen is None:
            batch.user_state = state.__class__(user_id=user_id, first_seen=now, last_seen=now)
        self._commit(batch, user_id)
        return record

    # -- read path -------------------------------------------------------------------------------
    def recall(
        self,
        user_id: str,
        query: str,
        *,
        k: int = 3,
        system_context: str = "default",
        device_id: str | None = None,
        session_id: str | None = None,
        at: datetime | None = None,
        kinds: Sequence[str] | None = None,
    ) -> list[ScoredMemory]:
        """Find what is known about the user that is relevant to ``query``.

        Hybrid retrieval (structured key lookup + dense vectors + lexical BM25), always
        filtered by ``user_id`` and ``system_context`` (and device/session scope), scored
        as confidence x decay x relevance. Returns at most ``k`` results, best first; an
        empty list when nothing relevant is known (abstention).
        """
        started = time.perf_counter()
        cfg = self.config
        user_id = check_id(user_id, "user_id", max_chars=cfg.max_id_chars)
        query = check_text(query, "query", max_chars=cfg.max_text_chars)
        system_context = check_id(system_context, "system_context", max_chars=cfg.max_id_chars)
        device_id = check_optional_id(device_id, "device_id", max_chars=cfg.max_id_chars)
        session_id = check_optional_id(session_id, "session_id", max_chars=cfg.max_id_chars)
        if not isinstance(k, int) or isinstance(k, bool) or k < 1 or k > 1000:
            raise InvalidInputError("k must be an int between 1 and 1000")
        kind_set = tuple(check_enum(x, Kind, "kinds") for x in kinds) if kinds else None
        now = check_datetime(at) or self.clock.now()
        results = self._recall(
            user_id,
            query,
            k=k,
            system_context=system_context,
            device_id=device_id,
            session_id=session_id,
            now=now,
            kinds=kind_set,
        )
        self.metrics.inc("recall")
        if results:
            self.metrics.inc("recall_hits")
        if cfg.audit_reads and results:  # reading nothing reveals nothing (and must not
            # re-create a forgotten user through an audit row)
            self._commit(
                WriteBatch(
                    audit=[
                        AuditEntry(
                            user_id=user_id,
                            action="read",
                            at=now,
                            actor="recall",
                            session_id=session_id,
                            detail={
                                "record_ids": [r.record.id for r in results],
                                "query_sha256": hashlib.sha256(query.encode()).hexdigest()[:16],
                            },
                        )
                    ]
                ),
                user_id,
                invalidate=False,
            )
        self.metrics.observe_latency("recall", time.perf_counter() - started)
        return results

    def _scope_refs(self, device_id: str | None, session_id: str | None) -> tuple[str, ...]:
        refs = [""]
        if device_id:
            refs.append(scope_ref(Scope.DEVICE, device_id=device_id))
        if session_id:
            refs.append(scope_ref(Scope.SESSION, session_id=session_id))
        return tuple(refs)

    def _recall(
        self,
        user_id: str,
        query: str,
        *,
        k: int,
        system_context: str,
        device_id: str | None,
        session_id: str | None,
        now: datetime,
        kinds: tuple[Kind, ...] | None,
    ) -> list[ScoredMemory]:
        cfg = self.config
        rq = rewrite(query)
        refs = self._scope_refs(device_id, session_id)
        pool = max(cfg.candidate_pool, k * 3)
        got = retrieve(
            records=self.records,
            vectors=self.vectors,
            embedder=self.embedder,
            query=rq,
            user_id=user_id,
            system_context=system_context,
            scope_refs=refs,
            pool=pool,
            kinds=kinds,
        )
        loaded = got.loaded
        fused = calibrated_fusion(got.channels, self.fusion)
        hard = self._hard_records(user_id, system_context, refs, now)
        allowed: dict[str, MemoryRecord] = {}
        for rid, rec in loaded.items():
            if (
                rec.user_id != user_id
                or rec.system_context != system_context
                or rec.status is not Status.ACTIVE
                or rec.scope_ref not in refs
                or (kinds is not None and rec.kind not in kinds)
                or _suppressed(rec, hard)
            ):
                continue
            allowed[rid] = rec
        scored = score_hits(
            fused, allowed, now=now, config=cfg, system_context=system_context, episodic=rq.episodic
        )
        return _most_specific(scored)[:k]

    def _hard_records(
        self, user_id: str, system_context: str, refs: tuple[str, ...], now: datetime
    ) -> list[MemoryRecord]:
        recs = self.records.find(
            RecordFilter(
                user_id=user_id,
                system_context=system_context,
                kinds=(Kind.CONSTRAINT,),
                scope_refs=refs,
            )
        )
        return [r for r in recs if not is_expired(r, now)]

    def context(
        self,
        user_id: str,
        query: str,
        *,
        token_budget: int = 400,
        system_context: str = "default",
        device_id: str | None = None,
        session_id: str | None = None,
        at: datetime | None = None,
        k: int | None = None,
    ) -> str:
        """The prompt block to inject for this user and query, within ``token_budget`` tokens.

        Identity (sessions, last seen), hard constraints first (with source and date, and
        their exceptions), confirmation questions for open contradictions, relevant soft
        preferences and facts, relevant past conversations with dates. Stored text is
        rendered as quoted data, never as instructions.
        """
        cfg = self.config
        if not isinstance(token_budget, int) or isinstance(token_budget, bool) or token_budget < 20:
            raise InvalidInputError("token_budget must be an int >= 20")
        recalled = self.recall(
            user_id,
            query,
            k=k or max(cfg.default_k, 6),
            system_context=system_context,
            device_id=device_id,
            session_id=session_id,
            at=at,
        )
        now = check_datetime(at) or self.clock.now()
        refs = self._scope_refs(device_id, session_id)
        constraints = self._hard_records(user_id, system_context, refs, now)
        keys = {r.key for r in constraints if r.hard or r.permanent}
        hard = [
            r for r in constraints if r.hard or r.permanent or (r.key.rsplit(".", 1)[0] in keys)
        ]
        conflicts = [c for c in self.records.conflicts(user_id, system_context) if c.question]
        prof = self.profile(user_id, system_context=system_context, device_id=device_id)
        return render_context(
            user_id=user_id,
            state=self.records.user_state(user_id),
            name=prof.get("name"),
            hard=hard,
            conflicts=conflicts,
            recalled=recalled,
            token_budget=token_budget,
            count_tokens=tokens.count_tokens,
            templates=self.templates,
        )

    def profile(
        self, user_id: str, *, system_context: str = "default", device_id: str | None = None
    ) -> dict[str, str]:
        """The current value of every key (the fast path: no vector search).

        Device-scoped values override global ones when ``device_id`` is given.
        """
        cfg = self.config
        user_id = check_id(user_id, "user_id", max_chars=cfg.max_id_chars)
        system_context = check_id(system_context, "system_context", max_chars=cfg.max_id_chars)
        device_id = check_optional_id(device_id, "device_id", max_chars=cfg.max_id_chars)
        scope_key = f"device:{device_id}" if device_id else ""
        if self.cache is not None:
            try:
                hit = self.cache.get(user_id, system_context, scope_key)
            except UserMemoryError as exc:
                self._degraded("cache", exc)
                hit = None
            if hit is not None:
                return dict(hit)
        now = self.clock.now()
        refs = self._scope_refs(device_id, None)
        recs = self.records.find(
            RecordFilter(
                user_id=user_id,
                system_context=system_context,
                exclude_kinds=_ENTITY_KINDS_EXCLUDED,
                scope_refs=refs,
            )
        )
        threshold = cfg.threshold_for(system_context)
        out: dict[str, str] = {}
        for rec in sorted(recs, key=lambda r: (r.scope_ref != "", r.updated_at)):
            if is_expired(rec, now) or effective_confidence(rec, now, cfg) < threshold:
                continue
            out[rec.key] = rec.value
        if self.cache is not None:
            try:
                self.cache.set(user_id, system_context, out, scope_key)
            except UserMemoryError as exc:
                self._degraded("cache", exc)
        return out

    def history(
        self, user_id: str, key: str, *, system_context: str | None = None
    ) -> list[MemoryRecord]:
        """Every version of ``key``, oldest first (status, source and provenance on each)."""
        user_id = check_id(user_id, "user_id", max_chars=self.config.max_id_chars)
        key = check_key(key)
        return self.records.history(user_id, key, system_context=system_context)

    # -- sessions ----------------------------------------------------------------------------------
    def session_turns(
        self, user_id: str, session_id: str, *, limit: int | None = None
    ) -> list[SessionTurn]:
        """The live session's recent turns, oldest first (short-term memory)."""
        user_id = check_id(user_id, "user_id", max_chars=self.config.max_id_chars)
        session_id = check_id(session_id, "session_id", max_chars=self.config.max_id_chars)
        return self.sessions.turns(user_id, session_id, limit=limit)

    def end_session(
        self, user_id: str, session_id: str, *, at: datetime | None = None
    ) -> MemoryRecord | None:
        """Close a session and write its episode (what it was about, when, key statements).

        Returns the episode record, or ``None`` when the session had no turns.
        """
        from .episodes import summarize_session

        cfg = self.config
        user_id = check_id(user_id, "user_id", max_chars=cfg.max_id_chars)
        session_id = check_id(session_id, "session_id", max_chars=cfg.max_id_chars)
        now = check_datetime(at) or self.clock.now()
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
        written = self.records.get(written_ids)
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
        self._commit(batch, user_id)
        return rec

    # -- privacy -----------------------------------------------------------------------------------
    def forget(self, user_id: str) -> dict[str, int]:
        """Erase everything about the user in every store; return counts per store."""
        user_id = check_id(user_id, "user_id", max_chars=self.config.max_id_chars)
        now = self.clock.now()
        report: dict[str, int] = {}
        for name, count in self.records.erase_user(user_id, at=now).items():
            report[f"records.{name}"] = count
        report["vectors"] = self.vectors.delete_user(user_id)
        report["sessions"] = self.sessions.delete_user(user_id)
        if self.cache is not None:
            report["cache"] = self.cache.delete_user(user_id)
        if self.events is not None:
            report["events"] = self.events.delete_user(user_id)
        self._unindexed = {rid for rid in self._unindexed if not rid.startswith(user_id)}
        return report

    def forget_key(
        self, user_id: str, key: str, *, system_context: str = "default", at: datetime | None = None
    ) -> list[Change]:
        """Revoke ``key`` (and its sub-keys) for the user; versions stay in history."""
        user_id = check_id(user_id, "user_id", max_chars=self.config.max_id_chars)
        key = check_key(key)
        now = check_datetime(at) or self.clock.now()
        existing = self.records.find(
            RecordFilter(
                user_id=user_id,
                system_context=system_context,
                statuses=(Status.ACTIVE, Status.PENDING),
                exclude_kinds=_ENTITY_KINDS_EXCLUDED,
            )
        )
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
        self._commit(WriteBatch(records=resolver.written, audit=list(resolver.audit)), user_id)
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
        if not isinstance(enabled, bool):
            raise InvalidInputError("enabled must be a bool")
        now = self.clock.now()
        state = self.records.user_state(user_id) or UserState(user_id=user_id, first_seen=now)
        self._commit(
            WriteBatch(
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
            ),
            user_id,
        )

    def merge_anonymous(self, anon_id: str, user_id: str, *,
                        at: datetime | None = None) -> list[Change]:
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
        return self.records.audit_log(user_id)

    def reindex(self, user_id: str | None = None) -> int:
        """Repair the vector index: embed records that have no vector (outbox replay)."""
        users = [user_id] if user_id else self.records.users()
        fixed = 0
        for uid in users:
            have = self.vectors.ids_for_user(uid)
            recs = [
                r
                for r in self.records.find(RecordFilter(user_id=uid, system_context=None))
                if r.id not in have
            ]
            if recs:
                self._index(recs)
                fixed += len(recs)
        self._unindexed.clear()
        return fixed

    # -- internals ---------------------------------------------------------------------------------
    def _extract(self, turn: Turn) -> list[Candidate]:
        try:
            return list(self.extractor.extract(turn))
        except (UserMemoryError, ValueError, TypeError, KeyError, RuntimeError) as exc:
            if self.extractor is self._fallback_extractor:
                raise ExtractionError(f"rule extractor failed: {exc}") from exc
            log.warning(
                "extractor %s failed (%s); falling back to rules",
                getattr(self.extractor, "name", "?"),
                exc,
            )
            self.metrics.inc("extractor_fallback")
            return self._fallback_extractor.extract(turn)

    def _live_session(self, state: UserState, now: datetime) -> str:
        ttl = timedelta(seconds=self.config.session_ttl_seconds)
        if state.last_session_id and state.last_seen and now - state.last_seen < ttl:
            return state.last_session_id
        return f"s_{new_id()[:12]}"

    def _retractable(self, user_id: str, session_id: str) -> list[MemoryRecord]:
        for t in reversed(self.sessions.turns(user_id, session_id)):
            if t.role == "user" and t.written:
                return self.records.get(list(t.written))
        return []

    def _session_text(self, text: str) -> str:
        if self.config.pii_mode is PiiMode.OFF:
            return text
        return privacy.redact(text).text

    def _episode_record(self, turn: Turn, key: str) -> MemoryRecord:
        text = turn.text
        if self.config.pii_mode is not PiiMode.OFF:
            text = privacy.redact(text).text
        return MemoryRecord(
            user_id=turn.user_id,
            kind=Kind.EPISODE,
            key=key,
            value=text[:4000],
            normalized="",
            source=Source.TOOL_PARSE
            if turn.role == "tool"
            else (Source.USER_DECLARE if turn.role == "user" else Source.INFERRED),
            confidence=1.0,
            created_at=turn.at,
            updated_at=turn.at,
            explicit=True,
            system_context=turn.system_context,
            scope=Scope.GLOBAL,
            provenance=Provenance(
                session_id=turn.session_id,
                turn_id=turn.turn_id,
                turn_index=turn.turn_index,
                at=turn.at,
                role=turn.role,
                actor=turn.role,
            ),
            metadata={"role": turn.role, "device_id": turn.device_id}
            if turn.device_id
            else {"role": turn.role},
        )

    def _commit(self, batch: WriteBatch, user_id: str, *, invalidate: bool = True) -> None:
        if self.config.pii_mode is PiiMode.MASK_ALL and batch.records:
            batch.records = [_mask_record(r) for r in batch.records]
        if not batch:
            return
        self.records.apply(batch)
        if not invalidate:
            return
        to_index = [r for r in batch.records if r.status in (Status.ACTIVE, Status.PENDING)]
        revoked = [r.id for r in batch.records if r.status is Status.REVOKED]
        if to_index:
            self._index(to_index)
        if revoked:
            try:
                self.vectors.delete(revoked)
            except UserMemoryError as exc:
                self._degraded("vectors", exc)
        if self.cache is not None:
            try:
                self.cache.invalidate(user_id)
            except UserMemoryError as exc:
                self._degraded("cache", exc)
        if self.events is not None:
            for rec in batch.records:
                try:
                    self.events.publish(
                        {
                            "type": "memory.update",
                            "user_id": user_id,
                            "system_context": rec.system_context,
                            "action": rec.status.value,
                            "key": rec.key,
                            "record_id": rec.id,
                            "version": rec.version,
                            "at": rec.updated_at.isoformat(),
                        }
                    )
                except UserMemoryError as exc:
                    self._degraded("events", exc)
                    break

    def _index(self, records: Iterable[MemoryRecord]) -> None:
        recs = [r for r in records if r.status is not Status.PENDING]
        if not recs:
            return
        try:
            vecs = self.embedder.embed([record_text(r) for r in recs])
            self.vectors.upsert(
                [
                    VectorItem(
                        record_id=r.id,
                        user_id=r.user_id,
                        system_context=r.system_context,
                        kind=r.kind,
                        key=r.key,
                        vector=np.asarray(v, dtype=np.float32),
                    )
                    for r, v in zip(recs, vecs, strict=True)
                ]
            )
        except UserMemoryError as exc:
            # the durable write already happened: keep it, repair the index later (reindex())
            self._unindexed.update(r.id for r in recs)
            self._degraded("vectors", exc)

    def _degraded(self, backend: str, exc: Exception) -> None:
        log.warning("%s unavailable, continuing degraded: %s", backend, exc)
        self.metrics.inc("backend_degraded", backend=backend)


def _mask_record(rec: MemoryRecord) -> MemoryRecord:
    value = privacy.redact(rec.value).text
    span = rec.provenance.span
    prov = rec.provenance
    if span:
        prov = Provenance(**{**prov.to_dict(), "at": prov.at, "span": privacy.redact(span).text})
    return rec.replace(value=value, provenance=prov)


def _suppressed(rec: MemoryRecord, hard: Sequence[MemoryRecord]) -> bool:
    """An inferred interest/taste never surfaces against a hard "never" about the same topic."""
    if not rec.key.startswith(("interest.", "taste.")) or "." not in rec.key:
        return False
    topic = rec.key.split(".", 1)[1]
    return any(
        h.key.split(".", 1)[-1] == topic and polarity(h.normalized) < 0 and h.hard for h in hard
    )


def _most_specific(scored: list[ScoredMemory]) -> list[ScoredMemory]:
    """Where a device/session-scoped value and a global one share a key, keep the scoped one."""
    scoped_keys = {(s.record.kind, s.record.key) for s in scored if s.record.scope_ref}
    return [
        s for s in scored if s.record.scope_ref or (s.record.kind, s.record.key) not in scoped_keys
    ]


def _state_dict(state: UserState) -> dict[str, Any]:
    return {f: getattr(state, f) for f in state.__dataclass_fields__}
