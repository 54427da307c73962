"""Time decay and effective confidence: pure functions of (record, now, config).

The rule (README, "Conflicts and decay"):

* soft (inferred / non-critical) memories fade: ``exp(-age / 72 h)``; they must meet the
  threshold on their stated confidence (an inferred value reaches it through consensus),
  rank lower as they age, and drop out once their *effective* confidence
  (``confidence x decay``) falls under ``fade_threshold`` (0.1: about six days after the
  last reinforcement), unless reinforced.
* explicit, unrevoked user declarations order by recency but never fade out: their
  decay has a floor (0.8) and their effective confidence is their stated confidence,
  so a preference declared in session 3 is still recalled at session 50.
* hard constraints and permanent statements ("never ...") do not decay at all.
* episodes (past turns, session summaries): never filtered, and not multiplied by their
  decay in recall (relevance decides, ``recall/score.py``): their decay class's ``tau``
  only shapes the recency boost of queries that ask for the latest ("last time").
"""

from __future__ import annotations

import math
from datetime import datetime

from .config import MemoryConfig
from .entities import Kind, MemoryRecord, Source

__all__ = ["decay", "decay_class", "effective_confidence", "is_expired", "is_recallable"]


def decay_class(record: MemoryRecord) -> str:
    """Which decay policy applies: "episode", "hard", "explicit" or "soft"."""
    if record.kind is Kind.EPISODE:
        return "episode"
    if record.hard or record.permanent:
        return "hard"
    if record.explicit and record.source is not Source.INFERRED:
        return "explicit"
    return "soft"


def decay(record: MemoryRecord, now: datetime, config: MemoryConfig) -> float:
    """``floor + (1 - floor) * exp(-age / tau)`` for the record's decay class, in [0, 1]."""
    policy = config.decay[decay_class(record)]
    if policy.tau_hours is None:
        return 1.0
    age_hours = max(0.0, (now - record.updated_at).total_seconds() / 3600.0)
    return policy.floor + (1.0 - policy.floor) * math.exp(-age_hours / policy.tau_hours)


def effective_confidence(record: MemoryRecord, now: datetime, config: MemoryConfig) -> float:
    """The confidence recall compares with the threshold.

    Soft memories lose confidence as they decay; explicit declarations, hard/permanent
    items and episodes keep their stated confidence (decay only orders them).
    """
    if decay_class(record) == "soft":
        return record.confidence * decay(record, now, config)
    return record.confidence


def is_expired(record: MemoryRecord, now: datetime) -> bool:
    """True once ``valid_until`` has passed."""
    return record.valid_until is not None and record.valid_until <= now


def is_recallable(
    record: MemoryRecord, now: datetime, config: MemoryConfig, system_context: str
) -> bool:
    """Whether the record passes the confidence filter of ``system_context`` at ``now``.

    Episodes always pass (recency only ranks them); every other record needs its stated
    confidence at the context's threshold; a soft record also needs its effective
    confidence at ``fade_threshold`` (it fades out when not reinforced).
    """
    if record.kind is Kind.EPISODE:
        return True
    if record.confidence < config.threshold_for(system_context):
        return False
    if decay_class(record) == "soft":
        return effective_confidence(record, now, config) >= config.fade_threshold
    return True
