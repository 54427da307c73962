"""One frozen configuration object with every default in one place.

Override in code (``MemoryConfig(confirm_window_days=3)`` or ``cfg.with_(...)``)
or with ``USERMEMORY_*`` environment variables via :meth:`MemoryConfig.from_env`
(``USERMEMORY_CONFIDENCE_THRESHOLD=0.6``, ``USERMEMORY_PII_MODE=mask_episodes``,
``USERMEMORY_SOURCE_CONFIDENCE='{"inferred": 0.5}'``).
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from .errors import ConfigError
from .recall.fuse import RetrievalConfig

__all__ = ["DecayPolicy", "MemoryConfig", "PiiMode"]


class PiiMode(StrEnum):
    """PII redaction: off, mask in stored episodes (turn text), or mask everywhere."""

    OFF = "off"
    MASK_EPISODES = "mask_episodes"
    MASK_ALL = "mask_all"


def _frozen(d: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(d))


@dataclass(frozen=True, slots=True, kw_only=True)
class DecayPolicy:
    """``decay(age) = floor + (1 - floor) * exp(-age / tau)``; ``tau_hours=None`` means no decay."""

    tau_hours: float | None
    floor: float = 0.0

    def __post_init__(self) -> None:
        if self.tau_hours is not None and self.tau_hours <= 0:
            raise ConfigError("DecayPolicy.tau_hours must be positive or None")
        if not 0.0 <= self.floor <= 1.0:
            raise ConfigError("DecayPolicy.floor must be in [0, 1]")


_DEFAULT_SOURCE_CONFIDENCE = {
    "user_declare": 0.95,
    "tool_parse": 0.75,
    "admin_set": 0.99,
    "inferred": 0.6,
    "agent": 0.75,  # above the recall threshold (0.7), so recall and context() find notes
}

# Decay classes (see README "Conflicts and decay"):
#   soft     - inferred / non-critical memories: fade with tau = 72 h, may fall under the threshold
#   explicit - explicit, unrevoked user declarations: order by recency, never fade out (floor)
#   hard     - hard constraints and permanent statements: never decay
#   episode  - past turns and session episodes: recency ranks, never filters (floor)
_DEFAULT_DECAY = {
    "soft": DecayPolicy(tau_hours=72.0, floor=0.0),
    "explicit": DecayPolicy(tau_hours=24.0 * 180, floor=0.8),
    "hard": DecayPolicy(tau_hours=None),
    "episode": DecayPolicy(tau_hours=24.0 * 30, floor=0.3),
}


@dataclass(frozen=True, slots=True, kw_only=True)
class MemoryConfig:
    """Every tunable of the write and read paths.

    Attributes:
        source_confidence: default confidence per source.
        implicit_consensus: consistent implicit signals needed before an inferred write.
        implicit_confidence_cap: inferred memories never exceed this confidence.
        confirm_window_days: a contradiction within this window is flagged for confirmation.
        confidence_threshold: recall drops results whose effective confidence is lower.
        context_thresholds: per system_context overrides of ``confidence_threshold``.
        decay: decay classes (soft / explicit / hard / episode), see ``DecayPolicy``.
        default_k: default number of recall results.
        token_budget: default ``context()`` budget in tokens.
        session_ttl_seconds: short-term session memory TTL.
        session_window: recent turns of the current session kept for adapters.
        max_text_chars: longest accepted turn text (longer raises ``TextTooLargeError``).
        max_id_chars: longest accepted id.
        pii_mode: off / mask_episodes / mask_all.
        fusion_k: the k constant of reciprocal rank fusion.
        candidate_pool: how many hits each retriever contributes before fusion.
        embedding_model: sentence-transformers model name or path.
        embedding_cache_size: LRU entries of the text -> vector cache.
        store_turns: keep every observed turn as episodic memory.
        min_relevance: recall abstains from results whose fused relevance is lower.
        fade_threshold: a soft (inferred / non-critical) memory that meets the confidence
            threshold on its stated confidence drops out once confidence x decay falls
            under this (about 6 days after its last reinforcement at the defaults).
        max_key_answers: when the query names a key (structured lookup) whose current
            value the ranked recall left out, ``context()`` adds up to this many such
            values, and up to this many faded inferred values under "Ask to confirm
            before acting" (0 turns both off).
        audit_reads: write a "read" audit entry for every recall (who read what, when).
        classify_unmapped: a durable first-person statement the rules could not map onto
            a key (kept as a free-form note, or not read at all) is mapped onto one by the
            embedding-prototype classifier (:mod:`shared_core.ingest.classify`) when it is
            sure; on by default, and only ever active with a MiniLM-class embedder (off
            with the hashing embedder).
        statement_gate: a rule reading of a user turn (not a reply to an assistant's
            question) is only accepted outright when the learned statement gate
            (:mod:`shared_core.ingest.statement_gate`) gives the turn, or one of its
            sentences, at least this probability of being a durable statement about the
            user; under it the reading is rejected as chat that merely looks like one.
            Forgets, retractions, corrections and pending implicit signals are never
            gated. 0 turns it off.
        audit_read_batch: read entries are buffered and written with the next write, or
            by a background thread when this many are waiting (or the oldest is 2 s old;
            ``close`` waits for it and writes the rest); 1 writes each at once, on the
            caller's thread.
        audit_read_max_pending: the most read entries kept buffered while the store keeps
            failing; beyond it the oldest are dropped, logged and counted
            (``usermemory_read_audit_dropped_total``).
        episode_query_boost: relevance multiplier for episodes when the query refers to
            a past conversation ("last time", "上次").
        retrieval: the fusion function, its weights and the retrieval channels
            (:class:`~shared_core.recall.fuse.RetrievalConfig`); from the environment as
            ``USERMEMORY_RETRIEVAL='{"fusion": "rrf", "channels": ["key", "lexical"]}'``.
    """

    source_confidence: Mapping[str, float] = field(
        default_factory=lambda: _frozen(_DEFAULT_SOURCE_CONFIDENCE)
    )
    implicit_consensus: int = 3
    implicit_confidence_cap: float = 0.75
    confirm_window_days: float = 7.0
    confidence_threshold: float = 0.7
    context_thresholds: Mapping[str, float] = field(default_factory=lambda: _frozen({}))
    decay: Mapping[str, DecayPolicy] = field(default_factory=lambda: _frozen(_DEFAULT_DECAY))
    default_k: int = 3
    token_budget: int = 400
    session_ttl_seconds: int = 1800
    session_window: int = 6
    max_text_chars: int = 32_000
    max_id_chars: int = 256
    pii_mode: PiiMode = PiiMode.OFF
    fusion_k: int = 60
    candidate_pool: int = 30
    embedding_model: str = "sentence-transformers/all-MiniLM-L6-v2"
    embedding_cache_size: int = 4096
    store_turns: bool = True
    min_relevance: float = 0.15
    fade_threshold: float = 0.1
    max_key_answers: int = 2
    audit_reads: bool = True
    classify_unmapped: bool = True
    statement_gate: float = 0.1
    audit_read_batch: int = 64
    audit_read_max_pending: int = 100_000
    episode_query_boost: float = 1.25
    retrieval: RetrievalConfig = field(default_factory=RetrievalConfig)

    def __post_init__(self) -> None:
        if not isinstance(self.retrieval, RetrievalConfig):
            raise ConfigError(
                f"retrieval must be a RetrievalConfig, got {type(self.retrieval).__name__}"
            )
        for name in sorted(_INT_FIELDS):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool):
                raise ConfigError(f"{name} must be an int, got {type(v).__name__}")
        for name in sorted(_BOOL_FIELDS):
            v = getattr(self, name)
            if not isinstance(v, bool):
                raise ConfigError(f"{name} must be a bool, got {v!r}")
        for name in sorted(_FLOAT_FIELDS):
            v = getattr(self, name)
            if not isinstance(v, int | float) or isinstance(v, bool) or v != v:
                raise ConfigError(f"{name} must be a number, got {v!r}")
        for name, value in self.source_confidence.items():
            if not 0.0 <= float(value) <= 1.0:
                raise ConfigError(f"source_confidence[{name!r}] must be in [0, 1], got {value}")
        missing = set(_DEFAULT_SOURCE_CONFIDENCE) - set(self.source_confidence)
        if missing:
            merged = {**_DEFAULT_SOURCE_CONFIDENCE, **self.source_confidence}
            object.__setattr__(self, "source_confidence", _frozen(merged))
        missing_decay = set(_DEFAULT_DECAY) - set(self.decay)
        if missing_decay:
            object.__setattr__(self, "decay", _frozen({**_DEFAULT_DECAY, **self.decay}))
        if self.implicit_consensus < 1:
            raise ConfigError("implicit_consensus must be >= 1")
        for name in (
            "confidence_threshold",
            "implicit_confidence_cap",
            "min_relevance",
            "fade_threshold",
            "statement_gate",
        ):
            v = getattr(self, name)
            if not 0.0 <= v <= 1.0:
                raise ConfigError(f"{name} must be in [0, 1], got {v}")
        for ctx, v in self.context_thresholds.items():
            if not 0.0 <= v <= 1.0:
                raise ConfigError(f"context_thresholds[{ctx!r}] must be in [0, 1], got {v}")
        for name in (
            "default_k",
            "token_budget",
            "session_ttl_seconds",
            "session_window",
            "max_text_chars",
            "max_id_chars",
            "fusion_k",
            "candidate_pool",
            "audit_read_batch",
            "audit_read_max_pending",
        ):
            if int(getattr(self, name)) < 1:
                raise ConfigError(f"{name} must be >= 1")
        if int(self.max_key_answers) < 0:
            raise ConfigError("max_key_answers must be >= 0")
        if self.confirm_window_days < 0:
            raise ConfigError("confirm_window_days must be >= 0")
        if not isinstance(self.pii_mode, PiiMode):
            try:
                object.__setattr__(self, "pii_mode", PiiMode(self.pii_mode))
            except ValueError as exc:
                raise ConfigError(f"pii_mode must be one of {[m.value for m in PiiMode]}") from exc

    def threshold_for(self, system_context: str) -> float:
        """The confidence threshold that applies in ``system_context``."""
        return float(self.context_thresholds.get(system_context, self.confidence_threshold))

    def confidence_for(self, source: str) -> float:
        """Default confidence of a memory from ``source``."""
        return float(self.source_confidence[str(source)])

    def with_(self, **changes: Any) -> MemoryConfig:
        """A copy with some fields changed."""
        return dataclasses.replace(self, **changes)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> MemoryConfig:
        """Build a config from ``USERMEMORY_<FIELD>`` variables, then ``overrides``.

        Mapping fields take JSON objects; ``decay`` takes
        ``{"soft": {"tau_hours": 48, "floor": 0}}``.
        """
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            raw = env.get(f"USERMEMORY_{f.name.upper()}")
            if raw is None:
                continue
            try:
                values[f.name] = _parse_env(f.name, raw)
            except (ValueError, TypeError) as exc:
                raise ConfigError(f"USERMEMORY_{f.name.upper()}={raw!r}: {exc}") from exc
        values.update(overrides)
        return cls(**values)


_INT_FIELDS = {
    "audit_read_batch",
    "audit_read_max_pending",
    "max_key_answers",
    "implicit_consensus",
    "default_k",
    "token_budget",
    "session_ttl_seconds",
    "session_window",
    "max_text_chars",
    "max_id_chars",
    "fusion_k",
    "candidate_pool",
    "embedding_cache_size",
}
#: Switches: a truthy string such as "no" must not read as on.
_BOOL_FIELDS = frozenset({"store_turns", "audit_reads", "classify_unmapped"})
_FLOAT_FIELDS = {
    "implicit_confidence_cap",
    "confirm_window_days",
    "confidence_threshold",
    "min_relevance",
    "fade_threshold",
    "statement_gate",
    "episode_query_boost",
}


def _parse_env(name: str, raw: str) -> Any:
    if name in _INT_FIELDS:
        return int(raw)
    if name in _FLOAT_FIELDS:
        return float(raw)
    if name in _BOOL_FIELDS:
        if raw.lower() not in {"1", "0", "true", "false", "yes", "no"}:
            raise ValueError("expected true/false")
        return raw.lower() in {"1", "true", "yes"}
    if name == "pii_mode":
        return PiiMode(raw)
    if name in {"source_confidence", "context_thresholds"}:
        data = json.loads(raw)
        if not isinstance(data, dict):
            raise ValueError("expected a JSON object")
        base = _DEFAULT_SOURCE_CONFIDENCE if name == "source_confidence" else {}
        return _frozen({**base, **{str(k): float(v) for k, v in data.items()}})
    if name == "retrieval":
        return RetrievalConfig.from_dict(json.loads(raw))
    if name == "decay":
        data = json.loads(raw)
        if not isinstance(data, dict):
            raise ValueError("expected a JSON object")
        merged = dict(_DEFAULT_DECAY)
        for k, v in data.items():
            merged[str(k)] = DecayPolicy(**v)
        return _frozen(merged)
    return raw
