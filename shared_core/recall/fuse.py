"""Read-path step 2b: fuse the ranked lists of the retrievers into one relevance per record.

Two pure, pluggable fusion functions, chosen with :class:`RetrievalConfig`
(``MemoryConfig(retrieval=RetrievalConfig(fusion_function=rrf_fusion))``, modelled on
langchain-postgres' ``HybridSearchConfig.fusion_function``), which also says which
retrieval channels run:

* :func:`rrf_fusion` - classic RRF (:func:`reciprocal_rank_fusion`), ``sum(w / (k + rank))``,
  rescaled to [0, 1] by its maximum possible value. Rank-only, so it cannot abstain.
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
from typing import Any

from ..errors import ConfigError

__all__ = [
    "CHANNELS",
    "FUSION_FUNCTIONS",
    "ChannelHits",
    "FusedHit",
    "FusionFunction",
    "FusionWeights",
    "RetrievalConfig",
    "calibrated_fusion",
    "reciprocal_rank_fusion",
    "rrf_fusion",
]

#: the retrieval channels: structured key lookup, BM25 lexical search, dense vectors
CHANNELS: tuple[str, ...] = ("key", "lexical", "dense")


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
    parts = _components(channels, w)
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


def _components(channels: Sequence[ChannelHits], w: FusionWeights) -> dict[str, dict[str, float]]:
    """Calibrated score of every record in every channel that returned it."""
    parts: dict[str, dict[str, float]] = {}
    for ch in channels:
        for rid, raw in ch.hits:
            s = calibrate(ch.name, raw, w)
            prev = parts.setdefault(rid, {}).get(ch.name, 0.0)
            parts[rid][ch.name] = max(prev, s)
    return parts


def rrf_fusion(
    channels: Sequence[ChannelHits], weights: FusionWeights | None = None
) -> list[FusedHit]:
    """Reciprocal rank fusion as a fusion function: relevance is the rescaled RRF score."""
    w = weights or FusionWeights()
    rrf = reciprocal_rank_fusion(channels, w)
    parts = _components(channels, w)
    out = [
        FusedHit(
            record_id=rid,
            relevance=min(1.0, score),
            rrf=score,
            matched_by=tuple(n for n, s in parts[rid].items() if s > 0),
            components=dict(parts[rid]),
        )
        for rid, score in rrf.items()
    ]
    out.sort(key=lambda h: h.relevance, reverse=True)
    return out


#: ``(channels, weights) -> fused hits, best first``
FusionFunction = Callable[[Sequence[ChannelHits], FusionWeights | None], list[FusedHit]]

#: fusion functions by name (``USERMEMORY_RETRIEVAL='{"fusion": "rrf"}'``)
FUSION_FUNCTIONS: Mapping[str, FusionFunction] = {
    "calibrated": calibrated_fusion,
    "rrf": rrf_fusion,
}


@dataclass(frozen=True, slots=True, kw_only=True)
class RetrievalConfig:
    """How recall retrieves and fuses: the fusion function, its weights and the channels.

    Modelled on langchain-postgres' ``HybridSearchConfig``: ``fusion_function`` is any
    :data:`FusionFunction` (:func:`calibrated_fusion`, the default, keeps an absolute
    relevance so recall can abstain; :func:`rrf_fusion` ranks only). Hits of a channel left
    out of ``channels`` are not fused (the ablations of ``benchmarks/evaluate.py``).

    Example:
        >>> from shared_core import MemoryConfig
        >>> cfg = MemoryConfig(retrieval=RetrievalConfig(channels=("key", "lexical")))
        >>> cfg.retrieval.channels
        ('key', 'lexical')
    """

    fusion_function: FusionFunction = calibrated_fusion
    weights: FusionWeights = field(default_factory=FusionWeights)
    channels: tuple[str, ...] = CHANNELS

    def __post_init__(self) -> None:
        if not callable(self.fusion_function):
            raise ConfigError("RetrievalConfig.fusion_function must be callable")
        if not isinstance(self.weights, FusionWeights):
            raise ConfigError("RetrievalConfig.weights must be a FusionWeights")
        if isinstance(self.channels, str) or not isinstance(self.channels, Sequence):
            raise ConfigError(f"RetrievalConfig.channels must be a sequence of {CHANNELS}")
        channels = tuple(dict.fromkeys(self.channels))
        unknown = [c for c in channels if c not in CHANNELS]
        if unknown or not channels:
            raise ConfigError(
                f"RetrievalConfig.channels must be a non-empty subset of {CHANNELS}, "
                f"got {self.channels!r}"
            )
        object.__setattr__(self, "channels", channels)

    def fuse(self, channels: Sequence[ChannelHits]) -> list[FusedHit]:
        """Fuse the hits of the configured channels (others are ignored), best first."""
        return self.fusion_function([c for c in channels if c.name in self.channels], self.weights)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RetrievalConfig:
        """``{"fusion": "calibrated" | "rrf", "channels": [...], "weights": {...}}``.

        Raises:
            ConfigError: an unknown key, fusion name, channel or weight.
        """
        if not isinstance(data, Mapping):
            raise ConfigError("retrieval settings must be a JSON object")
        unknown = set(data) - {"fusion", "channels", "weights"}
        if unknown:
            raise ConfigError(f"unknown retrieval settings {sorted(unknown)}")
        kwargs: dict[str, Any] = {}
        if "fusion" in data:
            name = data["fusion"]
            if name not in FUSION_FUNCTIONS:
                raise ConfigError(f"fusion must be one of {sorted(FUSION_FUNCTIONS)}, got {name!r}")
            kwargs["fusion_function"] = FUSION_FUNCTIONS[name]
        if "channels" in data:
            kwargs["channels"] = data["channels"]
        if "weights" in data:
            try:
                kwargs["weights"] = FusionWeights(**data["weights"])
            except TypeError as exc:
                raise ConfigError(f"bad fusion weights: {exc}") from exc
        return cls(**kwargs)
