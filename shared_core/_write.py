"""The write path: observe (extract -> gate -> resolve -> persist) and remember."""

from __future__ import annotations

import dataclasses
import logging
import re
import time
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from typing import Any

from . import privacy
from ._base import MemoryBase
from .config import PiiMode
from .embed import CachingEmbedder, represents
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
    SessionTurn,
    Source,
    Status,
    Turn,
    UserState,
    new_id,
)
from .errors import (
    ExtractionError,
    InvalidInputError,
    MemoryDisabledError,
    UserErasedError,
    UserMemoryError,
)
from .fencing import commit_fenced, erased_since, fenced_write, retry_erasures
from .ingest import answers, classify, statement_gate
from .ingest.extract import RuleExtractor
from .ingest.gate import gate
from .ingest.ledger import ANSWER_SIGNAL
from .ingest.lexicon import canonical_value
from .ingest.resolve import Resolver, WriteContext
from .messages import message_turn
from .recall.inject import strip_memory_blocks
from .recall.retrieve import entity_head
from .storage.protocols import (
    Fence,
    RecordFilter,
    UserTouch,
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

__all__ = ["WritePath"]

log = logging.getLogger(__name__)

_ERASED = "the user was erased while this write ran: the erase wins"
#: the session-state field holding the assistant's pending question
_ASKED = "asked"
#: open-vocabulary key families: a frame that reads only these tries its next template
#: ("I prefer medium answers" is a taste; "Keep your answers medium length" names the key)
_OPEN_KEYS = frozenset({"taste", "interest", "rule"})


def _in_answer(cand: Candidate, answer: str) -> bool:
    """Whether a framed open-vocabulary candidate (a taste, an interest, a rule) names only
    words of the answer or its question: "Which airline?" + "hold on" framed as "I prefer
    flying with hold on" is no interest in "flying with hold on" ("Do you still play
    guitar?" + "yep" is one in guitar). Keyed candidates are checked by the gate."""
    family, _, item = cand.key.partition(".")
    if family not in _OPEN_KEYS:
        return True
    words = (item.replace("_", " ") if family == "taste" else cand.value).lower()
    said = answer.lower()
    return all(w in said for w in re.findall(r"[^\W_]+", words))


def _carry_question(state: dict[str, Any], role: str, question: str | None) -> dict[str, Any]:
    """The session state after a turn of ``role``: an assistant turn leaves its question
    (``None``: it asked nothing), a user or tool turn takes the pending one away, so a
    question applies to the very next user turn only. A system turn (the app's prompt,
    which ``observe_messages`` skips) leaves it as it is."""
    if role == "system":
        return dict(state)
    out = {k: v for k, v in state.items() if k != _ASKED}
    if role == "assistant" and question:
        out[_ASKED] = question
    return out


class WritePath(MemoryBase):
    """``observe`` and ``remember``."""

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

        Concurrent writers of one user are safe: in this process they run one at a time;
        across processes a turn computed from data another writer changed is recomputed
        (see :mod:`shared_core.fencing`). A turn that was still being written when
        ``forget`` erased the user is dropped and reported as ``ignored``: the erase wins.

        Raises:
            InvalidInputError: bad text, ids or types (nothing is written).
            ConflictError: other writers changed the user's data during every one of the
                internal retries (``fencing.WRITE_ATTEMPTS``); nothing written.
            BackendError: a store failed (the turn's writes are rolled back together).
        """
        started = time.perf_counter()
        cfg = self.config
        user_id = check_id(user_id, "user_id", max_chars=cfg.max_id_chars)
        text = check_text(text, "text", max_chars=cfg.max_text_chars)
        # a model that echoes its prompt must not feed our own memory block back into memory
        text = strip_memory_blocks(text)
        if not text.strip():
            return [
                Change(
                    action=ChangeAction.IGNORED,
                    reason="the turn only repeated the injected memory block",
                )
            ]
        role = check_role(role)
        session_id = check_optional_id(session_id, "session_id", max_chars=cfg.max_id_chars)
        turn_id = check_optional_id(turn_id, "turn_id", max_chars=cfg.max_id_chars)
        device_id = check_optional_id(device_id, "device_id", max_chars=cfg.max_id_chars)
        system_context = check_id(system_context, "system_context", max_chars=cfg.max_id_chars)
        now = check_datetime(at) or self.clock.now()
        turn_id = turn_id or new_id()[:16]  # one id for every attempt: retries stay idempotent
        retry_erasures(self)
        # session -> (turn index, fence, the question the turn answers)
        reserved: dict[str, tuple[int, Fence | None, str | None]] = {}

        def erased() -> list[Change]:
            for sid, (_, seen, _) in reserved.items():
                self._drop_reserved(user_id, [sid], seen)
            return [Change(action=ChangeAction.IGNORED, reason=_ERASED)]

        changes = fenced_write(
            self,
            user_id,
            lambda fence: self._observe_once(
                fence,
                reserved,
                user_id,
                text,
                role,
                session_id,
                turn_id,
                device_id,
                system_context,
                now,
            ),
            on_erased=erased,
        )
        self.metrics.observe_latency("observe", time.perf_counter() - started)
        for c in changes:
            if c.action is ChangeAction.CONFLICT:
                self.metrics.inc("conflicts_detected")
        return changes

    def _drop_reserved(self, user_id: str, session_ids: Iterable[str], fence: Fence | None) -> None:
        """Drop the sessions an observe wrote at ``fence``'s epoch (the erase won)."""
        drop = getattr(self.sessions, "drop_epoch", None)
        if fence is None or drop is None:
            return
        for sid in session_ids:
            drop(user_id, sid, fence.epoch)

    def _observe_once(
        self,
        fence: Fence | None,
        reserved: dict[str, tuple[int, Fence | None, str | None]],
        user_id: str,
        text: str,
        role: str,
        session_id: str | None,
        turn_id: str,
        device_id: str | None,
        system_context: str,
        now: datetime,
    ) -> list[Change]:
        """One attempt of ``observe`` (validated arguments); see :func:`fenced_write`."""
        cfg = self.config
        state = self.records.user_state(user_id) or UserState(user_id=user_id)
        if not state.memory_enabled:
            return [Change(action=ChangeAction.IGNORED, reason="memory is disabled for this user")]
        session_id = session_id or self._live_session(state, now)
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

        # one atomic step reserves this turn's index: concurrent turns of a session never
        # share one (a read here and a write after the commit could interleave); a retried
        # attempt keeps the index it reserved. The same step carries the assistant's question
        # to the next turn: an assistant turn leaves its question, the next user turn takes
        # it, any other turn clears it (see _carry_question)
        if session_id in reserved:
            turn_index, _, asked = reserved[session_id]
        else:
            seen: list[str | None] = [None]
            question = answers.question_of(text) if role == "assistant" else None
            if question:  # kept as the session keeps turns (PII masked unless pii_mode=off)
                question = self._session_text(question)

            def step(st: dict[str, Any]) -> dict[str, Any]:
                seen[0] = st.get(_ASKED)  # what this (last) attempt of the update replaced
                return {
                    **_carry_question(st, role, question),
                    "turn_index": int(st.get("turn_index", 0)) + 1,
                    "device_id": device_id,
                    "system_context": system_context,
                }

            sess_state = self.sessions.update_state(user_id, session_id, step)
            turn_index = int(sess_state["turn_index"])
            asked = seen[0] if role == "user" and isinstance(seen[0], str) else None
            reserved[session_id] = (turn_index, fence, asked)
        # a session resumed after its short-term state expired is not a new session
        new_session = turn_index == 1 and session_id != state.last_session_id
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
            asked=asked,
        )

        candidates = self._extract(turn) if role in ("user", "tool") else []
        existing = self._live_records(user_id, system_context)
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
            asked=asked,
        )
        for decision in gate(candidates, role=role, config=cfg):
            resolver.apply(decision, ctx, retractable=retractable)
            if decision.verdict.value == "reject":
                self.metrics.inc("gated_out", reason=decision.reason)

        batch = WriteBatch(
            records=resolver.written,
            audit=list(resolver.audit),
            conflicts=list(resolver.conflicts),
        )
        self._close_moot_questions(batch, user_id, system_context, resolver, now, role)
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
        # counters are added by the store in the write's transaction, never read-modify-write
        batch.touch = UserTouch(
            user_id=user_id,
            at=now,
            turns=1,
            sessions=1 if new_session else 0,
            session_id=session_id,
        )
        commit_fenced(self, batch, user_id, fence)

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
        if erased_since(self, fence):
            # another instance erased the user between our commit and the session write:
            # the erase deleted the records; drop what we just put in the session store
            self._drop_reserved(user_id, reserved, fence)
            return [Change(action=ChangeAction.IGNORED, reason=_ERASED)]
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
            UserErasedError: ``forget`` erased the user while this write ran (the erase
                wins; nothing written).
            ConflictError: other writers changed the user's data during every one of
                the internal retries (``fencing.WRITE_ATTEMPTS``); nothing written.
            BackendError: a store failed (nothing written).
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
        cand = Candidate(
            kind=kind_e,
            key=key,
            value=text_value,
            normalized=canonical_value(key, text_value),
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
        ctx = WriteContext(
            user_id=user_id,
            system_context=system_context,
            at=now,
            source=source_e,
            session_id=session_id,
            device_id=device_id,
            actor=actor,
        )

        def once(fence: Fence | None) -> MemoryRecord:
            state = self.records.user_state(user_id) or UserState(user_id=user_id)
            if not state.memory_enabled:
                raise MemoryDisabledError(
                    f"memory is disabled for user {user_id!r}; nothing written"
                )
            existing = self._live_records(user_id, system_context)
            resolver = Resolver(existing, cfg)
            record = resolver.assert_value(cand, ctx, confidence=confidence)
            batch = WriteBatch(
                records=resolver.written,
                audit=list(resolver.audit),
                conflicts=list(resolver.conflicts),
            )
            self._close_moot_questions(batch, user_id, system_context, resolver, now, actor)
            if state.first_seen is None:
                batch.touch = UserTouch(user_id=user_id, at=now)
            commit_fenced(self, batch, user_id, fence)
            return record

        def erased() -> MemoryRecord:
            raise UserErasedError(f"{_ERASED}; nothing written")

        retry_erasures(self)
        return fenced_write(self, user_id, once, on_erased=erased)

    def observe_messages(
        self,
        user_id: str,
        messages: Iterable[Any],
        *,
        session_id: str | None = None,
        device_id: str | None = None,
        system_context: str = "default",
        at: datetime | None = None,
    ) -> list[Change]:
        """Observe a conversation (several turns) in order, in one session.

        Each message is a ``{"role", "content"}`` mapping or any object with a ``role``
        or ``type`` and a ``content`` (LangChain messages, LlamaIndex ``ChatMessage``).
        Roles: ``user``/``human``, ``assistant``/``ai``/``model``, ``tool``/``function``;
        ``system``/``developer`` prompts are the app's words and are skipped, as are
        messages without text (a bare tool call). A message ``id`` becomes the turn id,
        so observing the same messages again is a no-op. Every message is checked
        before anything is written, and all of them go into one session (the given one,
        else the user's live session), so each reply stays paired with its turn.

        Args:
            user_id: whose conversation it is.
            messages: the messages, oldest first.
            session_id: the conversation; defaults to the user's live session or a new one.
            device_id: the device the user is on.
            system_context: memory partition.
            at: when the turns happened (default: now).

        Returns:
            Every message's changes, in order (as :meth:`observe` returns them).

        Raises:
            InvalidInputError: ``messages`` is not a list of messages, or one has an
                unknown role or non-text content (nothing is written).
        """
        if isinstance(messages, str | bytes | Mapping) or not isinstance(messages, Iterable):
            raise InvalidInputError(
                f"messages must be a list of messages, got {type(messages).__name__}"
            )
        cfg = self.config
        turns = [t for t in (message_turn(m) for m in messages) if t is not None]
        for _, text, turn_id in turns:
            check_text(text, "message content", max_chars=cfg.max_text_chars)
            check_optional_id(turn_id, "message id", max_chars=cfg.max_id_chars)
        if not turns:
            return []
        user_id = check_id(user_id, "user_id", max_chars=cfg.max_id_chars)
        now = check_datetime(at) or self.clock.now()
        if session_id is None:
            state = self.records.user_state(user_id) or UserState(user_id=user_id)
            session_id = self._live_session(state, now)
        changes: list[Change] = []
        for role, text, turn_id in turns:
            changes += self.observe(
                user_id,
                text,
                role=role,
                session_id=session_id,
                turn_id=turn_id,
                device_id=device_id,
                system_context=system_context,
                at=now,
            )
        return changes

    def _close_moot_questions(
        self,
        batch: WriteBatch,
        user_id: str,
        system_context: str,
        resolver: Resolver,
        at: datetime,
        actor: str,
    ) -> None:
        """Close (in ``batch``, audited) the open questions this write made moot: those
        whose every value it superseded. Reads the open questions only when the write
        superseded something, the only way a question can lose all its values."""
        if not any(r.status in (Status.SUPERSEDED, Status.REVOKED) for r in resolver.written):
            return
        moot = resolver.obsolete_questions(
            self.records.conflicts(user_id, system_context, open_only=True)
        )
        for c in moot:
            batch.resolved_conflicts.append((c.id, at))
            batch.audit.append(
                AuditEntry(
                    user_id=user_id,
                    action="resolve",
                    record_id=c.record_ids[-1],
                    key=c.key,
                    actor=actor,
                    at=at,
                    detail={"conflicts": [c.id], "reason": "superseded by a later statement"},
                )
            )

    def _extract(self, turn: Turn) -> list[Candidate]:
        cands = self._extract_turn(turn)
        if turn.role != "user" or not isinstance(self.extractor, RuleExtractor):
            return cands
        if turn.asked:
            # a reply to the assistant's question is read with the question, not gated:
            # gating the replies that frame no answer lost right statements (dev23, and
            # full-sentence replies in MemoryBank's dialogues) and stopped no look-alike
            return self._with_answer(turn, cands)
        return statement_gate.mark(turn.text, cands, self.config.statement_gate)

    def _with_answer(self, turn: Turn, cands: list[Candidate]) -> list[Candidate]:
        """The candidates of a user turn that follows the assistant's question.

        An answer to somebody's words, or a reply about a one-off task, a hypothetical or
        another person without a first-person word of its own, asserts nothing (its
        forgets and retractions stand). Otherwise the answer's frames are read (see
        :meth:`_extract_answer`): what the turn says by itself is kept, and a framed
        candidate is added unless the turn's own words already gave its slot or value
        (no fact stored twice); when the frame reads everything the turn's own words did
        and more ("olives, and coriander" as "I don't like olives, and coriander"), the
        frame's reading is taken, with the turn's own candidate where both read the same."""
        assert turn.asked is not None
        if answers.silenced(turn.asked, turn.text):
            if any(c.intent is Intent.ASSERT for c in cands):
                self.metrics.inc("answers_silenced")
            return [c for c in cands if c.intent is not Intent.ASSERT]
        framed = self._extract_answer(turn)
        if not framed:
            return cands

        def weaker(c: Candidate) -> bool:
            """The reply's own reading of a framed key, weaker than the frame's: "在杭州呢"
            read alone as a question, "text me" as a mere hint."""
            return c.intent is Intent.ASSERT and any(
                c.key == f.key and ("question" in c.signals or (f.explicit and not c.explicit))
                for f in framed
            )

        cands = [c for c in cands if not weaker(c)]
        said = [c for c in cands if c.intent is Intent.ASSERT]

        def own(f: Candidate) -> Candidate | None:
            return next((c for c in said if c.key == f.key and c.normalized == f.normalized), None)

        if all(any(own(f) is c for f in framed) for c in said):
            return [
                *(c for c in cands if c.intent is not Intent.ASSERT),
                *(own(f) or f for f in framed),
            ]
        return [
            *cands,
            *(
                f
                for f in framed
                if not any(
                    c.key == f.key
                    or (  # one item of a list key said twice: "日语" as language.spoken.ja
                        c.key.split(".")[0] == f.key.split(".")[0] not in _OPEN_KEYS
                        and c.value.strip().lower() == f.value.strip().lower()
                    )
                    for c in said
                )
            ),
        ]

    def _extract_turn(self, turn: Turn) -> list[Candidate]:
        cands = [c for c in self._extract_raw(turn) if self._usable(c)]
        rules = self.extractor
        if (
            self.config.classify_unmapped
            and turn.role == "user"
            and isinstance(rules, RuleExtractor)
        ):
            cands = self._classify_unmapped(rules, turn, cands)
        return cands

    def _extract_answer(self, turn: Turn) -> list[Candidate]:
        """A short answer to the assistant's question, read as the statement it makes
        ("Where are you based?" + "Leeds." -> "I live in Leeds"; see
        :mod:`shared_core.ingest.answers`): the first framed statement the extractor reads
        onto a key gives the candidates (one read only as a taste, interest or rule waits
        for a later template that names a key), each with the user's own words as its
        evidence span and the ``answer`` signal (its record's metadata carries the
        question). Only assertions onto a key are kept: a frame never forgets or takes
        back, and a free-form note would be the frame's words, not the user's. Rule
        extraction only (see :meth:`_extract`): an LLM extractor is given the question in
        its prompt instead (:func:`shared_core.llm.extraction_inputs`)."""
        if turn.asked is None:
            return []
        first: list[Candidate] = []
        for statement in answers.frame(turn.asked, turn.text):
            framed = dataclasses.replace(turn, text=statement)
            got = [
                dataclasses.replace(c, span=turn.text[:500], signals=c.signals | {ANSWER_SIGNAL})
                for c in self._extract_turn(framed)
                if c.intent is Intent.ASSERT
                and c.key.split(".")[0] != "note"
                and _in_answer(c, f"{turn.text} {turn.asked}")
            ]
            if got and not all(c.key.split(".")[0] in _OPEN_KEYS for c in got):
                first = got
                break
            first = first or got  # open-vocabulary only: a later template may name the key
        if first:
            self.metrics.inc("answers_framed")
        return first

    def _classify_unmapped(
        self, rules: RuleExtractor, turn: Turn, cands: list[Candidate]
    ) -> list[Candidate]:
        """Rule notes, and sentences no rule read, that the embedding classifier maps
        onto a key (MiniLM-class embedders, rule extraction only), what it reads in an
        unread sentence finished by the rules as if they had read it (so the gate rejects
        a classified question, quote or one-off task as it would a rule's); an embedder
        failure keeps what the rules found. When the classifier embeds, the texts the
        commit will index join its embedder call (see :meth:`_index_texts`)."""
        if not classify.supports(self.embedder):
            return cands
        try:
            clf = classify.PrototypeClassifier(self.embedder)
            out = classify.classify_turn(
                turn.text,
                cands,
                clf,
                also=lambda: self._index_texts(turn, cands),
                finish=lambda c: rules.finish(c, turn, c.span),
            )
        except UserMemoryError as exc:
            log.warning("statement classifier skipped: %s", exc)
            return cands
        classified = sum(c.extractor == "classifier" for c in out)
        if classified:
            self.metrics.inc("statements_classified", classified)
        return out

    def _index_texts(self, turn: Turn, cands: list[Candidate]) -> list[str]:
        """The texts the commit of ``turn`` will embed, as far as they are known before
        the classifier and the resolver run: the episode's text and each candidate's
        record texts (see :func:`~shared_core.recall.retrieve.embedding_parts`). Embedded
        in the classifier's call, they are served by the embedder's cache at the commit;
        an embedder without a cache gets none (it would embed them twice)."""
        emb = self.embedder
        if not isinstance(emb, CachingEmbedder) or not emb.caches:
            return []

        def stored(text: str) -> str:  # what persist.mask_record keeps
            return privacy.redact(text).text if mask_all else text

        mask_all = self.config.pii_mode is PiiMode.MASK_ALL
        texts = [stored(self._episode_text(turn))] if self.config.store_turns else []
        for c in cands:
            if c.intent is not Intent.ASSERT:
                continue  # forgetting and retracting write no record of their own
            texts.append(entity_head(c.key, stored(c.value)))
            if c.span:
                texts.append(stored(c.span))
        return [t for t in dict.fromkeys(texts) if represents(emb, t)]

    def _usable(self, cand: Candidate) -> bool:
        """Extractor output is untrusted: drop candidates the stores could not hold."""
        try:
            if cand.key or cand.intent.value == "assert":
                check_key(cand.key)
            for text in (cand.value, cand.normalized, cand.span):
                if text:
                    check_text(text, "candidate text", max_chars=self.config.max_text_chars)
        except InvalidInputError as exc:
            log.warning("dropping a candidate from extractor %s: %s", cand.extractor, exc)
            self.metrics.inc("gated_out", reason="malformed candidate")
            return False
        return True

    def _extract_raw(self, turn: Turn) -> list[Candidate]:
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

    def _episode_text(self, turn: Turn) -> str:
        text = turn.text
        if self.config.pii_mode is not PiiMode.OFF:
            text = privacy.redact(text).text
        return text[:4000]

    def _episode_record(self, turn: Turn, key: str) -> MemoryRecord:
        return MemoryRecord(
            user_id=turn.user_id,
            kind=Kind.EPISODE,
            key=key,
            value=self._episode_text(turn),
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
