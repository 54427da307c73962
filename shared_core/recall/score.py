"""Read-path step 3: filter fused hits, rank them by relevance, keep a calibrated score.

Pure. A record is dropped when it is expired (``valid_until`` passed), when it fails the
confidence filter (``decay.is_recallable``: stated confidence under the context's
threshold, or a soft memory faded under ``fade_threshold``; episodes are exempt), or when
its calibrated relevance is under ``min_relevance`` (abstention).

Two relevances per result:

* the *calibrated* relevance - the fusion of ``fuse.py``, in [0, 1] with an absolute
  meaning (``components["calibrated"]``); it decides abstention;
* ``relevance`` - the *ranking* relevance, in [0, 1]: a mix of the retrievers' ranking
  signals (:class:`RankWeights`): BM25 normalised by the query's best BM25 hit, calibrated
  dense similarity, the (specificity-weighted) key match, the BM25 of the turn just before
  (an answer often sits in the reply to a question), a boost for the speaker the query
  asks about ("what did *you* recommend"), and one for a day the query names.

``score = confidence x decay x relevance``. Relevance decides: an episode has no decay
here, so a relevant turn from months ago is never pushed under irrelevant recent ones;
recency breaks ties, and becomes a small boost only when the query asks for it ("last
time", "recently", "上次", "最近"). Non-episode memories keep their decay class (a soft,
unreinforced inference ranks lower as it fades).

The weights were fitted on the dev half of the hand-labelled MemoryBank probes
(``benchmarks/memorybank_recall.py``) and checked on the generated evaluation set.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime

from ..config import MemoryConfig
from ..decay import decay, decay_class, effective_confidence, is_expired, is_recallable
from ..entities import Kind, MemoryRecord, ScoredMemory
from .fuse import FusedHit
from .intent import QueryIntent

__all__ = ["RankSignals", "RankWeights", "score_hits"]


@dataclass(frozen=True, slots=True, kw_only=True)
class RankWeights:
    """How the ranking mixes its signals (fitted on the MemoryBank dev half)."""

    lexical: float = 1.0  # BM25 / the query's best BM25
    dense: float = 1.0  # calibrated cosine
    key: float = 2.0  # structured key match (specificity-weighted)
    key_specificity_power: float = 2.0  # a broad prefix's share counts as share ** power
    previous_turn: float = 0.45  # BM25 (normalised) of the turn just before, same session
    speaker: float = 0.6  # multiplier bonus when the turn's speaker is the one asked about
    date: float = 1.0  # the turn is from a day the query names
    recency: float = 0.15  # only when the query asks for the latest occurrence

    @property
    def ceiling(self) -> float:
        """The largest possible mix: dividing by it keeps ``score`` in [0, 1]."""
        additive = (
            self.lexical + self.dense + self.key + self.previous_turn + self.date + self.recency
        )
        return additive * (1.0 + self.speaker) or 1.0


@dataclass(frozen=True, slots=True)
class RankSignals:
    """Per-query inputs of the ranking beyond the fused hits."""

    bm25: Mapping[str, float] = field(default_factory=dict)
    intent: QueryIntent = field(default_factory=QueryIntent)
    dated: frozenset[str] = frozenset()


DEFAULT_WEIGHTS = RankWeights()


def _role(rec: MemoryRecord) -> str:
    if rec.kind is Kind.EPISODE:
        return str(rec.metadata.get("role") or rec.provenance.role or "user")
    return "user" if rec.provenance.role in (None, "user") else str(rec.provenance.role)


def _day(rec: MemoryRecord) -> tuple[int, int]:
    when = rec.provenance.at or rec.created_at
    return (when.month, when.day)


def score_hits(
    hits: Iterable[FusedHit],
    records: Mapping[str, MemoryRecord],
    *,
    now: datetime,
    config: MemoryConfig,
    system_context: str,
    episodic: bool = False,
    signals: RankSignals | None = None,
    weights: RankWeights | None = None,
) -> list[ScoredMemory]:
    """Turn fused hits into ranked :class:`ScoredMemory`, best first."""
    sig = signals or RankSignals()
    w = weights or DEFAULT_WEIGHTS
    top_bm25 = max(sig.bm25.values(), default=0.0) or 1.0
    lex = {rid: s / top_bm25 for rid, s in sig.bm25.items()}
    # the lexical score of each turn by (session, turn index), for the previous-turn signal
    by_pos: dict[tuple[str, int], float] = {}
    for rid, s in lex.items():
        rec = records.get(rid)
        if rec is not None and rec.kind is Kind.EPISODE and rec.provenance.turn_index:
            by_pos[(rec.provenance.session_id or "", rec.provenance.turn_index)] = s
    hit_list = list(hits)
    seen = {h.record_id for h in hit_list}
    hit_list += [
        FusedHit(record_id=rid, relevance=0.0, rrf=0.0, matched_by=("date",))
        for rid in sig.dated
        if rid not in seen
    ]
    recency_asked = episodic or sig.intent.recency
    out: list[ScoredMemory] = []
    for hit in hit_list:
        rec = records.get(hit.record_id)
        if rec is None or is_expired(rec, now):
            continue
        if not is_recallable(rec, now, config, system_context):
            continue
        eff = effective_confidence(rec, now, config)
        calibrated = hit.relevance
        is_episode = rec.kind is Kind.EPISODE
        if episodic and is_episode:
            calibrated = min(1.0, calibrated * config.episode_query_boost)
        dated = hit.record_id in sig.dated
        if dated:  # the day the query names is evidence of relevance by itself
            calibrated = max(calibrated, config.min_relevance)
        if calibrated < config.min_relevance:
            continue
        comp = hit.components
        rank = (
            w.lexical * lex.get(hit.record_id, 0.0)
            + w.dense * comp.get("dense", 0.0)
            + w.key * comp.get("key", 0.0) ** w.key_specificity_power
        )
        if is_episode and rec.provenance.turn_index:
            prev = (rec.provenance.session_id or "", rec.provenance.turn_index - 1)
            rank += w.previous_turn * by_pos.get(prev, 0.0)
        if sig.intent.speaker is not None and _role(rec) == sig.intent.speaker:
            rank *= 1.0 + w.speaker
        if dated or (sig.intent.dates and _day(rec) in sig.intent.dates):
            rank += w.date
        if recency_asked:  # exp(-age / tau) of the record's decay class
            policy = config.decay[decay_class(rec)]
            if policy.tau_hours is not None:
                age_hours = max(0.0, (now - rec.updated_at).total_seconds() / 3600.0)
                rank += w.recency * math.exp(-age_hours / policy.tau_hours)
        rank /= w.ceiling
        d = 1.0 if is_episode else decay(rec, now, config)
        out.append(
            ScoredMemory(
                record=rec,
                score=rec.confidence * d * rank,
                confidence=rec.confidence,
                decay=d,
                relevance=rank,
                matched_by=hit.matched_by,
                components={
                    **{f"{k}_score": v for k, v in comp.items()},
                    "bm25": sig.bm25.get(hit.record_id, 0.0),
                    "calibrated": calibrated,
                    "effective_confidence": eff,
                    "rrf": hit.rrf,
                },
            )
        )
    # relevance decides; among equals the newer memory first
    out.sort(key=lambda s: (s.score, s.record.updated_at), reverse=True)
    return _distinct_turns(out)


def _distinct_turns(ranked: list[ScoredMemory]) -> list[ScoredMemory]:
    """Keep the best-ranked (among equals, the newest) of turns that say the same words.

    Routine exchanges recur ("No outage reported right now." in twenty sessions); five
    copies would fill the top five and push out everything else the query needs.
    """
    seen: set[str] = set()
    out = []
    for s in ranked:
        if s.record.kind is Kind.EPISODE and s.record.key.startswith("turn:"):
            text = " ".join(s.record.value.casefold().split())
            if text in seen:
                continue
            seen.add(text)
        out.append(s)
    return out
