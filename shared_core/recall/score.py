"""Read-path step 3: score fused hits as confidence x decay x relevance, filter, rank.

Pure. A record is dropped when it is expired (``valid_until`` passed), when it fails the
confidence filter (``decay.is_recallable``: stated confidence under the context's
threshold, or a soft memory faded under ``fade_threshold``; episodes are exempt), or when
its relevance is under ``min_relevance`` (abstention).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime

from ..config import MemoryConfig
from ..decay import decay, effective_confidence, is_expired, is_recallable
from ..entities import Kind, MemoryRecord, ScoredMemory
from .fuse import FusedHit

__all__ = ["score_hits"]


def score_hits(
    hits: Iterable[FusedHit],
    records: Mapping[str, MemoryRecord],
    *,
    now: datetime,
    config: MemoryConfig,
    system_context: str,
    episodic: bool = False,
) -> list[ScoredMemory]:
    """Turn fused hits into ranked :class:`ScoredMemory`, best first."""
    out: list[ScoredMemory] = []
    for hit in hits:
        rec = records.get(hit.record_id)
        if rec is None or is_expired(rec, now):
            continue
        if not is_recallable(rec, now, config, system_context):
            continue
        eff = effective_confidence(rec, now, config)
        relevance = hit.relevance
        if episodic and rec.kind is Kind.EPISODE:
            relevance = min(1.0, relevance * config.episode_query_boost)
        if relevance < config.min_relevance:
            continue
        d = decay(rec, now, config)
        out.append(
            ScoredMemory(
                record=rec,
                score=rec.confidence * d * relevance,
                confidence=rec.confidence,
                decay=d,
                relevance=relevance,
                matched_by=hit.matched_by,
                components={
                    **{f"{k}_score": v for k, v in hit.components.items()},
                    "effective_confidence": eff,
                    "rrf": hit.rrf,
                },
            )
        )
    out.sort(key=lambda s: (s.score, s.record.updated_at), reverse=True)
    return out
