"""Write-path step 2: decide which candidates may reach long-term memory.

Pure: ``gate(candidates, role=..., config=...) -> list[GateDecision]``.

* explicit declarations (and anything with an explicit marker) pass;
* implicit, behavioural signals become *pending* evidence: the resolver writes them only
  after ``config.implicit_consensus`` consistent signals, with lower confidence;
* jokes, irony, questions, hypotheticals, third-party statements, negated statements,
  quoted or reported speech, passing states ("right now", "I'm starving") and one-off
  tasks ("book me a seat to Rome") are rejected with a reason, and so are values that
  cannot be meant literally (a played name, "allergic to Mondays", "住在被窝里");
* forget requests and retractions always pass (they only ever remove).
"""

from __future__ import annotations

import re
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
    ("transient", "a passing state, not a durable fact"),
    ("task", "a one-off task, not a standing preference"),
    ("invalid_value", "invalid value (out of range or malformed): candidate skipped"),
)

_WRITE_ROLES = frozenset({"user", "tool"})

#: Names nobody gives as their own but everyone uses to play a part: "我是秦始皇，打钱",
#: "I'm Batman", "I am Groot". A name or nickname with one of these is a joke.
_PLAYED_NAMES = frozenset(
    {
        "秦始皇",
        "孙悟空",
        "玉皇大帝",
        "如来佛祖",
        "奥特曼",
        "皇上",
        "朕",
        "本宫",
        "哀家",
        "你爸爸",
        "你爸",
        "你爹",
        "你大爷",
        "天王老子",
        "batman",
        "superman",
        "spiderman",
        "spider-man",
        "iron man",
        "ironman",
        "groot",
        "santa",
        "santa claus",
        "god",
        "the queen",
        "the king",
        "napoleon",
        "your father",
        "your dad",
    }
)
#: Not an allergen, whatever the wording: "allergic to Mondays / work / people", "对上班过敏".
_NOT_ALLERGENS = re.compile(
    r"^(?:mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?|weekdays?"
    r"|mornings?|work|working|my\s+job|jobs?|people|humans?|homework|exercise|effort|adulting"
    r"|responsibilit(?:y|ies)|meetings?|school|math|maths|running|stupidity|nonsense|drama"
    r"|上班|工作|学习|早起|周一|星期一|开会|加班|考试|数学|人类|运动|作业)$",
    re.IGNORECASE,
)
#: "被窝里", "床上", "家里": a place inside or on something is no city.
_LOCATIVE_ZH = re.compile(r"^[\u4e00-\u9fff]{1,4}(?:里|上|中|下|内|外|边|旁)$")


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
    if cand.intent is Intent.ASSERT and (jest := _implausible(cand)):
        return GateDecision(cand, Verdict.REJECT, jest)
    if cand.explicit or "explicit_marker" in cand.signals or cand.correction:
        return GateDecision(cand, Verdict.ACCEPT, "explicit declaration")
    return GateDecision(cand, Verdict.PENDING, "implicit signal: needs consensus")


def _implausible(cand: Candidate) -> str | None:
    """Why a value cannot be meant literally (a played name, a hyperbolic allergen, a
    place that is no city), or ``None``."""
    value = (cand.value or "").strip().strip("\"'.!?。！？").casefold()
    key = cand.key
    if key in ("name", "name.preferred") and value in _PLAYED_NAMES:
        return "a played name, said as a joke"
    if key.startswith("allergy") and _NOT_ALLERGENS.match(value):
        return "hyperbole: not an allergen"
    if key.startswith("location.") and _LOCATIVE_ZH.match(value):
        return "a spot, not a city"
    return None
