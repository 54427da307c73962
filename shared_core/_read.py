"""The read path: recall = gather (parse the query, search, one records read) + rank
(fuse, filter, score), context, profile, history."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence
from datetime import datetime

from . import tokens
from ._base import MemoryBase
from .decay import decay_class
from .entities import (
    NON_ENTITY_KINDS,
    AuditEntry,
    Kind,
    MemoryRecord,
    Scope,
    ScoredMemory,
    SessionTurn,
    Status,
    scope_ref,
)
from .errors import InvalidInputError, UserMemoryError
from .recall import select
from .recall.fuse import RetrievalConfig
from .recall.inject import render_context
from .recall.retrieve import Candidates, no_archive_message, retrieve, supports_archive
from .recall.rewrite import ParsedQuery, parse_query
from .recall.score import RankSignals, score_hits
from .storage.protocols import RecordFilter
from .validate import (
    check_datetime,
    check_enum,
    check_flag,
    check_id,
    check_key,
    check_optional_id,
    check_text,
)

__all__ = ["ReadPath"]


class ReadPath(MemoryBase):
    """``recall``, ``context``, ``profile``, ``history``, ``session_turns``."""

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
        include_archive: bool = False,
    ) -> list[ScoredMemory]:
        """Find what is known about the user that is relevant to ``query``.

        Hybrid retrieval (structured key lookup + dense vectors + lexical BM25), always
        filtered by ``user_id`` and ``system_context`` (and device/session scope), scored
        as confidence x decay x relevance. Returns at most ``k`` results, best first; an
        empty list when nothing relevant is known (abstention). ``recall`` is
        :meth:`gather` then :meth:`rank`.

        With ``include_archive=True`` the key and lexical channels and the record loads
        also read the store's archive (rows moved by ``archive_older_than``; PostgreSQL).
        Archived active records compete like live ones, keep their stored status, and
        are marked ``record.metadata["archived"] is True`` and
        ``components["archived"] == 1.0``. A store without an archive (the embedded
        SQLite one) raises :class:`~shared_core.errors.InvalidInputError`.
        """
        started = time.perf_counter()
        since = self.read_audit.mark()  # an erase from here on: no read entry
        cand = self.gather(
            user_id,
            query,
            k=k,
            system_context=system_context,
            device_id=device_id,
            session_id=session_id,
            at=at,
            kinds=kinds,
            include_archive=include_archive,
        )
        return self._finish_recall(cand, self.rank(cand), started, since)

    def gather(
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
        include_archive: bool = False,
        retrieval: RetrievalConfig | None = None,
    ) -> Candidates:
        """The first half of :meth:`recall`: the candidates of ``query``, not yet ranked.

        Runs the retrieval channels of ``retrieval`` (default: ``config.retrieval``; a
        channel left out is not queried) and reads the user's records once. Pass the
        result to :meth:`rank`; ``candidates.records`` holds every record that was read
        (benchmarks check it for other users' records). Arguments as for :meth:`recall`.

        Example:
            >>> from shared_core import RetrievalConfig, UserMemory
            >>> mem = UserMemory("sqlite:///:memory:")
            >>> _ = mem.remember("u1", "contact.channel", "SMS")
            >>> lexical = RetrievalConfig(channels=("lexical",))
            >>> cand = mem.gather("u1", "SMS", retrieval=lexical)
            >>> [c.name for c in cand.channels]
            ['lexical']
            >>> mem.rank(cand)[0].record.value
            'SMS'
            >>> mem.close()
        """
        cfg = self.config
        user_id = check_id(user_id, "user_id", max_chars=cfg.max_id_chars)
        query = check_text(query, "query", max_chars=cfg.max_text_chars)
        system_context = check_id(system_context, "system_context", max_chars=cfg.max_id_chars)
        device_id = check_optional_id(device_id, "device_id", max_chars=cfg.max_id_chars)
        session_id = check_optional_id(session_id, "session_id", max_chars=cfg.max_id_chars)
        if not isinstance(k, int) or isinstance(k, bool) or k < 1 or k > 1000:
            raise InvalidInputError("k must be an int between 1 and 1000")
        kind_set = tuple(check_enum(x, Kind, "kinds") for x in kinds) if kinds else None
        self._check_archive(include_archive)
        if retrieval is not None and not isinstance(retrieval, RetrievalConfig):
            raise InvalidInputError("retrieval must be a RetrievalConfig")
        return self._gather(
            user_id,
            parse_query(query),
            k=k,
            system_context=system_context,
            device_id=device_id,
            session_id=session_id,
            now=check_datetime(at) or self.clock.now(),
            kinds=kind_set,
            include_archive=include_archive,
            retrieval=retrieval or cfg.retrieval,
            history=False,
        )

    def _check_archive(self, include_archive: object) -> None:
        """Validate ``include_archive``: a bool, and True only on a store with an archive."""
        wanted = check_flag(include_archive, "include_archive")
        if wanted and not supports_archive(self.records):
            raise InvalidInputError(no_archive_message(self.records))

    def _scope_refs(self, device_id: str | None, session_id: str | None) -> tuple[str, ...]:
        refs = [""]
        if device_id:
            refs.append(scope_ref(Scope.DEVICE, device_id=device_id))
        if session_id:
            refs.append(scope_ref(Scope.SESSION, session_id=session_id))
        return tuple(refs)

    def _gather(
        self,
        user_id: str,
        query: ParsedQuery,
        *,
        k: int,
        system_context: str,
        device_id: str | None,
        session_id: str | None,
        now: datetime,
        kinds: tuple[Kind, ...] | None,
        include_archive: bool,
        retrieval: RetrievalConfig,
        history: bool,
    ) -> Candidates:
        refs = self._scope_refs(device_id, session_id)
        got = retrieve(
            records=self.records,
            vectors=self.vectors,
            embedder=self.embedder,
            query=query,
            user_id=user_id,
            system_context=system_context,
            scope_refs=refs,
            pool=max(self.config.candidate_pool, k * 3),
            kinds=kinds,
            include_archive=include_archive,
            channels=retrieval.channels,
            history=history,
        )
        if got.degraded:
            self.metrics.inc("backend_degraded", backend="vectors")
        return Candidates(
            user_id=user_id,
            system_context=system_context,
            scope_refs=refs,
            session_id=session_id,
            now=now,
            k=k,
            kinds=kinds,
            query=query,
            retrieval=retrieval,
            retrieved=got,
        )

    def rank(self, candidates: Candidates) -> list[ScoredMemory]:
        """The second half of :meth:`recall`: fuse, filter and score ``candidates``.

        Fuses the channels with ``candidates.retrieval``'s fusion function, drops what may
        not be shown (another scope, an inactive version, a turn of the live session, an
        inference a hard rule contradicts) and returns the top ``k``, best first. Pure: no
        store is read.
        """
        if not isinstance(candidates, Candidates):
            raise InvalidInputError("rank() takes the Candidates that gather() returned")
        c, got = candidates, candidates.retrieved
        fused = c.retrieval.fuse(got.channels)
        hard = select.hard_constraints(got.rows, c.scope_refs, c.now)
        refs = set(c.scope_refs)
        allowed: dict[str, MemoryRecord] = {}
        for rid, rec in got.loaded.items():
            if (
                rec.user_id != c.user_id
                or rec.system_context != c.system_context
                or rec.status is not Status.ACTIVE
                or rec.scope_ref not in refs
                or (c.kinds is not None and rec.kind not in c.kinds)
                or select.suppressed(rec, hard)
                or (c.session_id is not None and select.live_turn(rec, c.session_id))
            ):
                continue
            allowed[rid] = rec
        rq = c.query.rewritten
        scored = score_hits(
            fused,
            allowed,
            now=c.now,
            config=self.config,
            system_context=c.system_context,
            episodic=rq.episodic,
            signals=RankSignals(bm25=got.bm25, intent=c.query.intent, dated=frozenset(got.dated)),
        )
        if got.archived:
            scored = [select.mark_archived(s) if s.record.id in got.archived else s for s in scored]
        return select.most_specific(scored)[: c.k]

    def _finish_recall(
        self, cand: Candidates, results: list[ScoredMemory], started: float, since: int
    ) -> list[ScoredMemory]:
        """Metrics and the read audit of one recall."""
        self.metrics.inc("recall")
        if results:
            self.metrics.inc("recall_hits")
        if self.config.audit_reads and results:  # reading nothing reveals nothing (and
            # must not re-create a forgotten user through an audit row)
            self._audit_read(
                AuditEntry(
                    user_id=cand.user_id,
                    action="read",
                    at=cand.now,
                    actor="recall",
                    session_id=cand.session_id,
                    detail={
                        "record_ids": [r.record.id for r in results],
                        "query_sha256": hashlib.sha256(
                            cand.query.rewritten.original.encode()
                        ).hexdigest()[:16],
                    },
                ),
                since,
            )
        self.metrics.observe_latency("recall", time.perf_counter() - started)
        return results

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
        include_archive: bool = False,
    ) -> str:
        """The prompt block to inject for this user and query, within ``token_budget`` tokens.

        Identity (sessions, last seen), hard constraints first (with source and date, and
        their exceptions), confirmation questions for open contradictions, relevant soft
        preferences and facts, relevant past conversations with dates. When the query names
        a key (the structured lookup), its current value is shown even if the ranking left
        it out, a faded inferred value is listed as something to confirm, and past turns
        that stated a since-replaced value of it are left out (unless the query is about a
        past conversation). Stored text is rendered as quoted data, never as instructions.
        ``include_archive`` is passed to :meth:`recall` (archived past conversations can be
        injected). The user's records are read once (with the retrieval's searches).
        """
        started = time.perf_counter()
        since = self.read_audit.mark()  # an erase from here on: no read entry
        cfg = self.config
        if not isinstance(token_budget, int) or isinstance(token_budget, bool) or token_budget < 20:
            raise InvalidInputError("token_budget must be an int >= 20")
        user_id = check_id(user_id, "user_id", max_chars=cfg.max_id_chars)
        query = check_text(query, "query", max_chars=cfg.max_text_chars)
        system_context = check_id(system_context, "system_context", max_chars=cfg.max_id_chars)
        device_id = check_optional_id(device_id, "device_id", max_chars=cfg.max_id_chars)
        session_id = check_optional_id(session_id, "session_id", max_chars=cfg.max_id_chars)
        k = k or max(cfg.default_k, 6)
        if not isinstance(k, int) or isinstance(k, bool) or k < 1 or k > 1000:
            raise InvalidInputError("k must be an int between 1 and 1000")
        self._check_archive(include_archive)
        now = check_datetime(at) or self.clock.now()
        cand = self._gather(
            user_id,
            parse_query(query),
            k=k,
            system_context=system_context,
            device_id=device_id,
            session_id=session_id,
            now=now,
            kinds=None,
            include_archive=include_archive,
            retrieval=cfg.retrieval,
            history=True,
        )
        recalled = self._finish_recall(cand, self.rank(cand), started, since)
        rows, refs, rq = cand.retrieved.rows, cand.scope_refs, cand.query.rewritten
        constraints = select.hard_constraints(rows, refs, now)
        keys = {r.key for r in constraints if r.hard or r.permanent}
        hard = [
            r for r in constraints if r.hard or r.permanent or (r.key.rsplit(".", 1)[0] in keys)
        ]
        conflicts = [c for c in self.records.conflicts(user_id, system_context) if c.question]
        name_refs = self._scope_refs(device_id, None)
        name = select.current_values(rows, name_refs, now, cfg, system_context).get("name")
        shown = {s.record.key for s in recalled} | {r.key for r in hard}
        asked = select.asked_records(rows, rq.key_prefixes)
        missing, faded = select.asked_answers(
            asked, refs, now, shown, constraints, cfg, system_context
        )
        standing = select.standing_profile(
            rows, refs, now, shown | {r.key for r in missing}, cfg, system_context
        )
        if asked and not rq.episodic:
            # the structured layer answers the asked key: a past turn that stated a value
            # since replaced or taken back would only bring the stale value back
            stale = select.stale_turns(asked)
            recalled = [
                s
                for s in recalled
                if not (s.record.key.startswith("turn:") and s.record.provenance.turn_id in stale)
            ]
        return render_context(
            user_id=user_id,
            state=self.records.user_state(user_id),
            name=name,
            hard=hard,
            conflicts=conflicts,
            faded=faded,
            recalled=recalled,
            missing=missing,
            standing=standing,
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
                exclude_kinds=NON_ENTITY_KINDS,
                scope_refs=refs,
            )
        )
        out = select.current_values(recs, refs, now, cfg, system_context)
        # a profile that depends on the clock (an expiry, a fading inferred value) must not
        # be cached: the cache's TTL runs on wall time, the memory's clock may not
        time_bound = any(r.valid_until is not None or decay_class(r) == "soft" for r in recs)
        if self.cache is not None and not time_bound:
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
