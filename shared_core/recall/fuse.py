"""Read-path step 2b: fuse the ranked lists of the retrievers into one relevance per record.

Two pure, pluggable fusion functions (select with ``Fusion`` / ``fuse(..., method=)``):

* :func:`reciprocal_rank_fusion` - classic RRF, ``sum(w / (k + rank))``, rescaled to [0, 1]
  by its maximum possible value. Rank-only, so it cannot abstain.
* :func:`calibrated_fusion` (default) - each channel's raw score is first calibrated to
  [0, 1] (key match = 1; cosine mapped linearly from ``dense_floor`` to ``dense_ceiling``;
  lexical = query-term coverage, see ``retrieve.py``), then combined with a weighted noisy-OR,
  ``1 - prod(1 - w_c * s_c)``. Agreement between channels raises relevance like RRF does,
  and the result keeps an absolute meaning, so irrelevant queries score near 0 and recall
  can abstain. RRF is used as the tie-breaker.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

__all__ = [
    "ChannelHits",
    "FusedHit",
    "FusionWeights",
    "calibrated_fusion",
    "reciprocal_rank_fusion",
]


@dataclass(frozen=True, slots=True)
class ChannelHits:
    """One retriever's ranked output: (record_id, raw score), best first."""

    name: str  # "key" | "dense" | "lexical"
    hits: Sequence[tuple[str, float]]


@dataclass(frozen=True, slots=True)
class FusedHit:
    record_id: str
    relevance: float
    rrf: float
    matched_by: tuple[str, ...]
    components: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class FusionWeights:
    key: float = 0.9
    dense: float = 0.85
    lexical: float = 0.75
    dense_floor: float = 0.25
    dense_ceiling: float = 0.75
    rrf_k: int = 60

    def weight(self, channel: str) -> float:
        return float(getattr(self, channel, 0.5))


def reciprocal_rank_fusion(
    channels: Sequence[ChannelHits], weights: FusionWeights | None = None
) -> dict[str, float]:
    """RRF scores rescaled to [0, 1] by the best possible score."""
    w = weights or FusionWeights()
    scores: dict[str, float] = {}
    for ch in channels:
        cw = w.weight(ch.name)
        for rank, (rid, _) in enumerate(ch.hits, start=1):
            scores[rid] = scores.get(rid, 0.0) + cw / (w.rrf_k + rank)
    best = sum(w.weight(ch.name) for ch in channels) / (w.rrf_k + 1) or 1.0
    return {rid: s / best for rid, s in scores.items()}


def calibrate(channel: str, raw: float, weights: FusionWeights) -> float:
    """Map a channel's raw score to [0, 1]."""
    if channel == "key":
        return max(0.0, min(1.0, raw))
    if channel == "dense":
        span = weights.dense_ceiling - weights.dense_floor
        return max(0.0, min(1.0, (raw - weights.dense_floor) / span))
    return max(0.0, min(1.0, raw))


def calibrated_fusion(
    channels: Sequence[ChannelHits], weights: FusionWeights | None = None
) -> list[FusedHit]:
    """Weighted noisy-OR of calibrated channel scores; best first (RRF breaks ties)."""
    w = weights or FusionWeights()
    rrf = reciprocal_rank_fusion(channels, w)
    parts: dict[str, dict[str, float]] = {}
    for ch in channels:
        for rid, raw in ch.hits:
            s = calibrate(ch.name, raw, w)
            prev = parts.setdefault(rid, {}).get(ch.name, 0.0)
            parts[rid][ch.name] = max(prev, s)
    out: list[FusedHit] = []
    for rid, comp in parts.items():
        miss = 1.0
        for name, s in comp.items():
            miss *= 1.0 - w.weight(name) * s
        out.append(
            FusedHit(
                record_id=rid,
                relevance=1.0 - miss,
                rrf=rrf.get(rid, 0.0),
                matched_by=tuple(n for n, s in comp.items() if s > 0),
                components=dict(comp),
            )
        )
    out.sort(key=lambda h: (h.relevance, h.rrf), reverse=True)
    return out


FusionFunction = Callable[[Sequence[ChannelHits], FusionWeights | None], list[FusedHit]]
