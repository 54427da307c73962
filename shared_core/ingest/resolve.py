"""Write-path step 3: resolve gated candidates against what is already stored.

Pure: a :class:`Resolver` is built from the user's current records (active and
pending, all keys of one system_context) and applies candidates one by one, producing
the records to write, audit entries, conflicts and the ``Change`` list. Nothing is
ever deleted here: old versions are superseded and kept.

Conflict table (same slot, different value; first matching row wins):

==  ==============================================  =========================================
#   situation                                       outcome
==  ==============================================  =========================================
1   stored value is a business rule (admin_set),    stored value stays; the new one is
    new one is not                                  ignored (reason: business rule outranks)
2   new value is a business rule (admin_set)        new version; old superseded
3   stored value is permanent ("never ...") and     both kept: the new value waits as pending,
    the new one is not an explicit revocation       a confirmation question is opened
    (correction or "from now on ...")
4   stored value is explicit, new one is inferred   stored value stays (explicit beats inferred)
5   new source ranks lower (tool_parse < user)      stored value stays
6   same source rank, stored value has consensus    stored value stays (several independent
    (>= 2 sources) and the new one is a single      sources beat one)
    non-explicit signal
7   otherwise                                       newer wins: new version, old superseded;
                                                    within ``confirm_window_days`` (and not a
                                                    correction) a confirmation question opens
==  ==============================================  =========================================

Related keys: a child key with the opposite polarity of a permanent parent
("contact.call.emergency = allowed" under "contact.call = never") is stored as an
*exception*: both stay active and the conflict is recorded (visible, not a question).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import timedelta

from ..entities import (
    Candidate,
    ChangeAction,
    Intent,
    Kind,
    MemoryRecord,
    Source,
    Status,
    scope_ref,
)
from .gate import GateDecision, Verdict
from .ledger import Ledger, WriteContext, normalized_value

__all__ = ["Resolver", "WriteContext", "polarity", "source_rank"]

_SOURCE_RANK = {
    Source.INFERRED: 0,
    Source.AGENT: 1,
    Source.TOOL_PARSE: 2,
    Source.USER_DECLARE: 3,
    Source.ADMIN_SET: 4,
}
_NEGATIVE = frozenset({"never", "no", "dislike", "false", "disallowed", "forbidden", "off"})
_POSITIVE = frozenset({"allowed", "yes", "like", "true", "always", "on", "ok"})


def source_rank(source: Source) -> int:
    """inferred < agent < tool_parse < user_declare < admin_set."""
    return _SOURCE_RANK[source]


def polarity(normalized: str) -> int:
    """+1 for allow/like values, -1 for never/dislike values, 0 otherwise."""
    v = normalized.strip().lower()
    if v in _NEGATIVE:
        return -1
    if v in _POSITIVE:
        return 1
    return 0


#: how many restating turn ids a record keeps in ``metadata["restated_in"]``
_MAX_RESTATED = 16


class Resolver(Ledger):
    """Applies gated candidates to a working copy of one user's records.

    The rules (the conflict table above) live here; the :class:`Ledger` it extends holds
    the records and records each change, audit entry and conflict.

    Args:
        existing: the user's ACTIVE and PENDING non-episode records in the context.
        config: thresholds and confidences.
    """

    # -- entry points --------------------------------------------------------------------------
    def apply(
        self,
        decision: GateDecision,
        ctx: WriteContext,
        *,
        retractable: Sequence[MemoryRecord] = (),
        confidence: float | None = None,
    ) -> None:
        """Resolve one gated candidate."""
        cand = decision.candidate
        if decision.verdict is Verdict.REJECT:
            self._change(ChangeAction.IGNORED, decision.reason, cand.key or None, candidate=cand)
            return
        if cand.intent is Intent.RETRACT:
            self._retract(cand, ctx, retractable)
        elif cand.intent is Intent.FORGET:
            self._forget(cand, ctx)
        elif decision.verdict is Verdict.PENDING:
            self._implicit(cand, ctx)
        else:
            self._explicit(cand, ctx, confidence)

    def assert_value(
        self, cand: Candidate, ctx: WriteContext, *, confidence: float | None = None
    ) -> MemoryRecord:
        """An application write (``remember``): resolve it, return the record holding the slot."""
        self._explicit(cand, ctx, confidence)
        slot = self._slot(cand, ctx)
        current = self._active(slot)
        if current is not None and current.normalized == normalized_value(cand):
            return current
        # the write lost to a higher-ranked value: return what was recorded for it
        last = self._out.changes[-1]
        if last.record is not None:
            return last.record
        assert current is not None
        return current

    # -- which slot -------------------------------------------------------------------------------
    def _retarget(self, cand: Candidate, ctx: WriteContext) -> Candidate:
        """A correction naming the value it replaces corrects the slot that holds it.

        "I'm allergic to penicillin" + "also to aspirin" fill ``allergy.medication`` and
        ``allergy.medication.aspirin``; "actually not aspirin, ibuprofen" must replace
        aspirin, not penicillin.
        """
        if not cand.replaces:
            return cand
        ref = scope_ref(cand.scope, ctx.device_id, ctx.session_id)
        for r in self._by_id.values():
            if (
                r.status is Status.ACTIVE
                and r.slot[:3] == (ctx.user_id, ctx.system_context, cand.kind.value)
                and r.scope_ref == ref
                and (r.key == cand.key or r.key.startswith(cand.key + "."))
                and r.normalized == cand.replaces
            ):
                return cand if r.key == cand.key else dataclasses.replace(cand, key=r.key)
        return cand

    # -- explicit assertions ----------------------------------------------------------------------
    def _explicit(self, cand: Candidate, ctx: WriteContext, confidence: float | None) -> None:
        cand = self._retarget(cand, ctx)
        slot = self._slot(cand, ctx)
        conf = confidence if confidence is not None else self._config.confidence_for(ctx.source)
        if cand.confidence_hint is not None and confidence is None:
            conf = min(conf, max(0.0, min(1.0, cand.confidence_hint)))
        active = self._active(slot)
        if active is None:
            self._add(cand, ctx, conf)
            return
        if active.normalized == normalized_value(cand):
            self._reinforce(active, cand, ctx, conf)
            return
        self._contradict(active, cand, ctx, conf)

    def _add(self, cand: Candidate, ctx: WriteContext, conf: float) -> None:
        rec = self._put(self._new_record(cand, ctx, source=ctx.source, confidence=conf))
        self._audit("create", ctx, rec, value=rec.value, version=1)
        self._change(ChangeAction.ADDED, "new memory", rec.key, record=rec, candidate=cand)
        self._check_exception(rec, ctx, cand)

    def _check_exception(self, rec: MemoryRecord, ctx: WriteContext, cand: Candidate) -> None:
        """A child key that contradicts a permanent parent is kept as a visible exception."""
        if "." not in rec.key:
            return
        parent_key = rec.key.rsplit(".", 1)[0]
        for other in list(self._by_id.values()):
            if (
                other.status is Status.ACTIVE
                and other.key == parent_key
                and other.system_context == rec.system_context
                and other.permanent
                and polarity(other.normalized) * polarity(rec.normalized) < 0
            ):
                reason = (
                    f"exception to a permanent rule: {parent_key} = {other.value!r} stays; "
                    f"{rec.key} = {rec.value!r} applies in its case"
                )
                self._conflict(ctx, rec.key, other, rec, reason, cand, question=False)

    def _reinforce(
        self, active: MemoryRecord, cand: Candidate, ctx: WriteContext, conf: float
    ) -> None:
        if (
            source_rank(ctx.source) > source_rank(active.source)
            or (cand.permanent and not active.permanent)
            or (cand.hard and not active.hard)
        ):
            self._supersede(active, cand, ctx, conf, reason="confirmed by a stronger statement")
            return
        meta = dict(active.metadata)
        if ctx.turn_id:  # where it was said again (read path: drop stale turns of a key)
            meta["restated_in"] = [*meta.get("restated_in", []), ctx.turn_id][-_MAX_RESTATED:]
        rec = self._put(
            active.replace(
                evidence=active.evidence + 1,
                confidence=max(active.confidence, conf),
                updated_at=ctx.at,
                explicit=active.explicit or cand.explicit,
                metadata=meta,
            )
        )
        self._audit("reinforce", ctx, rec, evidence=rec.evidence)
        self._change(
            ChangeAction.REINFORCED,
            f"same value stated again ({rec.evidence} signals)",
            rec.key,
            record=rec,
            candidate=cand,
        )

    def _supersede(
        self,
        active: MemoryRecord,
        cand: Candidate,
        ctx: WriteContext,
        conf: float,
        *,
        reason: str,
        source: Source | None = None,
        evidence: int = 1,
        explicit: bool | None = None,
    ) -> MemoryRecord:
        old = self._put(active.replace(status=Status.SUPERSEDED, updated_at=ctx.at))
        new = self._new_record(
            cand,
            ctx,
            source=source or ctx.source,
            confidence=conf,
            version=active.version + 1,
            supersedes=active.id,
            evidence=evidence,
        )
        if explicit is not None:
            new = new.replace(explicit=explicit)
        new = self._put(new)
        self._audit("supersede", ctx, old, by=new.id, reason=reason)
        self._audit("update", ctx, new, value=new.value, version=new.version, previous=old.id)
        self._change(
            ChangeAction.UPDATED, reason, new.key, record=new, previous=old, candidate=cand
        )
        self._change(
            ChangeAction.SUPERSEDED,
            f"replaced by version {new.version}",
            old.key,
            record=old,
            candidate=cand,
        )
        self._check_exception(new, ctx, cand)
        return new

    def _contradict(
        self, active: MemoryRecord, cand: Candidate, ctx: WriteContext, conf: float
    ) -> None:
        new_rank, old_rank = source_rank(ctx.source), source_rank(active.source)
        revokes = cand.correction or "explicit_marker" in cand.signals
        new_explicit = cand.explicit or revokes
        if active.source is Source.ADMIN_SET and ctx.source is not Source.ADMIN_SET:
            self._ignore(
                cand, ctx, active, "business rule (admin_set) outranks a personal preference"
            )
            return
        if ctx.source is Source.ADMIN_SET:
            self._supersede(active, cand, ctx, conf, reason="business rule (admin_set) set")
            return
        if active.permanent and not revokes:
            self._hold_for_confirmation(active, cand, ctx, conf)
            return
        if active.explicit and not new_explicit:
            self._ignore(cand, ctx, active, "explicit statement beats inferred signal")
            return
        if new_rank < old_rank:
            self._ignore(
                cand,
                ctx,
                active,
                f"lower-ranked source ({ctx.source.value}) does not override {active.source.value}",
            )
            return
        if new_rank == old_rank and active.evidence >= 2 and not new_explicit:
            self._ignore(
                cand,
                ctx,
                active,
                f"consensus of {active.evidence} signals beats a single source",
            )
            return
        reason = "correction" if cand.correction else "newer statement wins"
        new = self._supersede(active, cand, ctx, conf, reason=reason)
        window = timedelta(days=self._config.confirm_window_days)
        said = active.provenance.at or active.created_at
        if not cand.correction and ctx.at - said <= window and active.explicit:
            why = (
                f"contradiction within {self._config.confirm_window_days:g} days: "
                f"{active.value!r} -> {new.value!r}"
            )
            self._conflict(ctx, new.key, active, new, why, cand, question=True)

    def _hold_for_confirmation(
        self, active: MemoryRecord, cand: Candidate, ctx: WriteContext, conf: float
    ) -> None:
        slot, norm = self._slot(cand, ctx), normalized_value(cand)
        for r in self._by_id.values():
            if (
                r.status is Status.PENDING
                and r.slot == slot
                and r.normalized == norm
                and r.metadata.get("contradicts") == active.id
            ):  # said again while its question is open: one question, more evidence
                rec = self._put(r.replace(evidence=r.evidence + 1, updated_at=ctx.at))
                self._audit("reinforce", ctx, rec, evidence=rec.evidence, status="pending")
                self._change(
                    ChangeAction.REINFORCED,
                    f"{rec.value!r} already waits for confirmation against {active.value!r}",
                    active.key,
                    record=rec,
                    previous=active,
                    candidate=cand,
                )
                return
        held = self._put(
            self._new_record(
                cand,
                ctx,
                source=ctx.source,
                confidence=conf,
                status=Status.PENDING,
                version=0,
                metadata={"awaiting_confirmation": True, "contradicts": active.id},
            )
        )
        why = (
            f"{active.key} = {active.value!r} is permanent until explicitly revoked; "
            f"{held.value!r} kept pending confirmation"
        )
        self._conflict(ctx, active.key, active, held, why, cand, question=True)
        self._audit("create", ctx, held, value=held.value, status="pending")

    def _ignore(self, cand: Candidate, ctx: WriteContext, kept: MemoryRecord, reason: str) -> None:
        self._audit("reject", ctx, kept, key=cand.key, rejected_value=cand.value, reason=reason)
        self._change(ChangeAction.IGNORED, reason, cand.key, previous=kept, candidate=cand)

    # -- implicit signals --------------------------------------------------------------------------
    def _implicit(self, cand: Candidate, ctx: WriteContext) -> None:
        slot = self._slot(cand, ctx)
        norm = normalized_value(cand)
        active = self._active(slot)
        base = self._config.confidence_for(Source.INFERRED)
        if active is not None and active.normalized == norm:
            rec = self._put(active.replace(evidence=active.evidence + 1, updated_at=ctx.at))
            self._audit("reinforce", ctx, rec, evidence=rec.evidence, implicit=True)
            self._change(
                ChangeAction.REINFORCED,
                f"implicit signal agrees ({rec.evidence} signals)",
                rec.key,
                record=rec,
                candidate=cand,
            )
            return
        if active is not None and (active.explicit or source_rank(active.source) > 0):
            self._ignore(cand, ctx, active, "explicit statement beats inferred signal")
            return
        pending = self._pending(slot, norm)
        turns = list(pending.metadata.get("turns", [])) if pending else []
        if ctx.turn_id is not None and ctx.turn_id in turns:
            self._change(
                ChangeAction.IGNORED,
                "signal already counted for this turn",
                cand.key,
                candidate=cand,
            )
            return
        turns.append(ctx.turn_id)
        n = len(turns)
        need = self._config.implicit_consensus
        if n < need:
            meta = {"turns": turns}
            rec = (
                pending.replace(evidence=n, updated_at=ctx.at, metadata=meta)
                if pending
                else self._new_record(
                    cand,
                    ctx,
                    source=Source.INFERRED,
                    confidence=base,
                    status=Status.PENDING,
                    version=0,
                    metadata=meta,
                ).replace(explicit=False)
            )
            rec = self._put(rec)
            self._audit("pending", ctx, rec, evidence=n, needed=need)
            self._change(
                ChangeAction.PENDING,
                f"implicit signal {n}/{need}: waiting for consensus",
                rec.key,
                record=rec,
                candidate=cand,
            )
            return
        conf = min(self._config.implicit_confidence_cap, base + 0.05 * (n - 1))
        if pending is not None:
            self._put(
                pending.replace(
                    status=Status.SUPERSEDED,
                    updated_at=ctx.at,
                    metadata={"turns": turns, "promoted": True},
                )
            )
        if active is None:
            rec = self._put(
                self._new_record(
                    cand,
                    ctx,
                    source=Source.INFERRED,
                    confidence=conf,
                    evidence=n,
                    metadata={"turns": turns},
                ).replace(explicit=False)
            )
            self._audit("create", ctx, rec, value=rec.value, consensus=n)
            self._change(
                ChangeAction.ADDED,
                f"implicit preference after {n} consistent signals",
                rec.key,
                record=rec,
                candidate=cand,
            )
            return
        self._supersede(
            active,
            cand,
            ctx,
            conf,
            reason=f"newer inferred value after {n} consistent signals",
            source=Source.INFERRED,
            evidence=n,
            explicit=False,
        )

    # -- forget / retract --------------------------------------------------------------------------
    def _forget(self, cand: Candidate, ctx: WriteContext) -> None:
        prefix = cand.key
        want = (cand.normalized or cand.value).strip().lower()
        hits = [
            r
            for r in self._by_id.values()
            if r.status in (Status.ACTIVE, Status.PENDING)
            and r.system_context == ctx.system_context
            and r.kind is not Kind.EPISODE
            and (r.key == prefix or r.key.startswith(prefix + "."))
            and (not want or want in r.normalized.lower() or want in r.value.lower())
        ]
        if not hits:
            self._change(
                ChangeAction.IGNORED,
                f"nothing stored under {prefix!r} to forget",
                prefix,
                candidate=cand,
            )
            return
        for r in hits:
            rec = self._put(r.replace(status=Status.REVOKED, updated_at=ctx.at))
            self._audit("revoke", ctx, rec, reason="forget request")
            self._change(
                ChangeAction.REVOKED,
                "forgotten at the user's request",
                rec.key,
                record=rec,
                candidate=cand,
            )

    def _retract(
        self, cand: Candidate, ctx: WriteContext, retractable: Sequence[MemoryRecord]
    ) -> None:
        live = [self._by_id.get(r.id, r) for r in retractable]
        live = [r for r in live if r.status in (Status.ACTIVE, Status.PENDING)]
        if not live:
            self._change(
                ChangeAction.IGNORED,
                "nothing from the previous turn to take back",
                None,
                candidate=cand,
            )
            return
        why = "said as a joke" if "joke" in cand.signals else "taken back by the user"
        for r in live:
            rec = self._put(r.replace(status=Status.REVOKED, updated_at=ctx.at))
            self._audit("revoke", ctx, rec, reason=why)
            self._change(ChangeAction.REVOKED, why, rec.key, record=rec, candidate=cand)
            prev = self._by_id.get(rec.supersedes) if rec.supersedes else None
            if prev is not None and prev.status is Status.SUPERSEDED:
                restored = self._put(prev.replace(status=Status.ACTIVE, updated_at=ctx.at))
                self._audit("restore", ctx, restored, reason=why)
                self._change(
                    ChangeAction.UPDATED,
                    "previous version restored",
                    restored.key,
                    record=restored,
                    candidate=cand,
                )
