"""Write-path step 2: decide which candidates may reach long-term memory.

Pure: ``gate(candidates, role=..., config=...) -> list[GateDecision]``.

* explicit declarations (and anything with an explicit marker) pass;
* implicit, behavioural signals become *pending* evidence: the resolver writes them only
  after ``config.implicit_consensus`` consistent signals, with lower confidence;
* jokes, irony, questions, hypotheticals, third-party statements and negated
  statements are rejected with a reason;
* forget requests and retractions always pass (they only ever remove).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from ..config import MemoryConfig
from ..entities import Candidate, Intent

__all__ = ["GateDecision", "Verdict", "gate"]


class Verdict(StrEnum):
    ACCEPT = "accept"
    PENDING = "pending"
    REJECT = "reject"


# signal -> why it is rejected (first match wins, in this order)
_REJECTING_SIGNALS: tuple[tuple[str, str], ...] = (
    ("joke", "said as a joke"),
    ("irony", "said ironically"),
    ("retraction", "retracted in the same turn"),
    ("question", "a question, not a statement"),
    ("hypothetical", "hypothetical, not a statement of fact"),
    ("third_party", "about someone else, not the user"),
    ("negated", "negated statement"),
    ("quoted", "quoted or reported speech"),
    ("invalid_value", "invalid value (out of range or malformed): candidate skipped"),
)

_WRITE_ROLES = frozenset({"user", "tool"})


@dataclass(frozen=True, slots=True)
class GateDecision:
    candidate: Candidate
    verdict: Verdict
    reason: str


def gate(candidates: Sequence[Candidate], *, role: str, config: MemoryConfig) -> list[GateDecision]:
    """Classify each candidate as accept / pending / reject, with the reason."""
    del config  # the thresholds that need counts live in the resolver
    out: list[GateDecision] = []
    for cand in candidates:
        out.append(_decide(cand, role))
    return out


def _decide(cand: Candidate, role: str) -> GateDecision:
    if role not in _WRITE_ROLES:
        return GateDecision(cand, Verdict.REJECT, f"{role} turns are not a source of user memory")
    if cand.intent is Intent.RETRACT:
        # a joke-only turn ("haha just kidding") retracts the previous turn
        return GateDecision(cand, Verdict.ACCEPT, "retraction of the previous turn")
    if cand.intent is Intent.FORGET:
        if not cand.key:
            return GateDecision(cand, Verdict.REJECT, "forget request without a key")
        return GateDecision(cand, Verdict.ACCEPT, "explicit forget request")
    for signal, why in _REJECTING_SIGNALS:
        if signal in cand.signals:
            return GateDecision(cand, Verdict.REJECT, why)
    if not cand.key.strip() or not (cand.value or "").strip():
        return GateDecision(cand, Verdict.REJECT, "malformed candidate: empty key or value")
    if cand.explicit or "explicit_marker" in cand.signals or cand.correction:
        return GateDecision(cand, Verdict.ACCEPT, "explicit declaration")
    return GateDecision(cand, Verdict.PENDING, "implicit signal: needs consensus")
