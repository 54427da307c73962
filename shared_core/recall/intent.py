"""Read-path step 1b: what a query asks about *time* and *speaker* (rule-based, EN + ZH).

Three signals the ranking uses (``score.py``), none of them a filter on its own:

* ``recency`` - the query asks for the latest occurrence ("last time", "recently",
  "上次", "最近"): recency becomes a boost instead of a tie-break;
* ``speaker`` - "what did *you* recommend / 你给我推荐过" asks for the assistant's words,
  "I told you / 我和你分享过" for the user's own;
* ``dates`` - calendar days the query names ("on May 4th", "April 27", "5月4日", "4月27号"),
  as ``(month, day)`` pairs; turns of those days are boosted (and loaded, see
  ``retrieve.py``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["QueryIntent", "detect_intent"]

_RECENCY = re.compile(
    r"\b(?:last time|the last|latest|most recent(?:ly)?|recently|lately|just now|"
    r"the other day|a few days ago)\b|上次|上回|最近|最新|刚才|前几天",
    re.IGNORECASE,
)
_ASSISTANT = re.compile(
    r"\b(?:did you|have you|you (?:once |ever |have |had )?(?:recommend|suggest|told|tell|"
    r"said|say|share|gave|give|mention|advise|teach|taught|introduc)\w*|your (?:advice|"
    r"suggestion|recommendation)s?)\b"
    r"|(?<![和跟给向对与])你(?:曾经|曾|之前|以前)?(?:给|和|跟|向|为)?我?"
    r"(?:推荐|建议|介绍|分享|告诉|说|讲|提)"
    r"|(?<![和跟给向对与])你(?:曾经|曾|之前|以前)?(?:给|教)(?:了|过)?我",
    re.IGNORECASE,
)
_USER = re.compile(
    r"\b(?:i (?:once |ever |have |had )?(?:told|tell|said|say|shared|share|mentioned|"
    r"mention|recommended|recommend|asked|consulted)|did i|do i|am i|was i|my)\b"
    r"|我(?:曾经|曾|之前|以前)?(?:和|跟|给|向|对)你|我(?:曾经|曾)",
    re.IGNORECASE,
)
_MONTHS = {
    m: i
    for i, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for m in names
}
_MONTH_ALT = "|".join(sorted(_MONTHS, key=len, reverse=True))
_EN_DATE = re.compile(
    rf"\b(?P<m>{_MONTH_ALT})\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\b"
    rf"|\b(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m2>{_MONTH_ALT})\b",
    re.IGNORECASE,
)
_ZH_NUM = {
    "一": 1,
    "二": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
    "十": 10,
}
_ZH_DATE = re.compile(
    r"(?P<m>\d{1,2}|[一二三四五六七八九十]{1,3})月(?P<d>\d{1,2}|[一二三四五六七八九十]{1,3})[日号號]"
)
_MAX_SCAN = 2000  # intent words sit in the question, not in a pasted document


@dataclass(frozen=True, slots=True)
class QueryIntent:
    recency: bool = False
    speaker: str | None = None  # "user" | "assistant" | None
    dates: tuple[tuple[int, int], ...] = ()  # (month, day)


def _zh_int(s: str) -> int:
    if s.isdigit():
        return int(s)
    if s == "十":
        return 10
    if s.startswith("十"):
        return 10 + _ZH_NUM.get(s[1:], 0)
    if s.endswith("十"):
        return 10 * _ZH_NUM.get(s[:-1], 0)
    if "十" in s:
        a, b = s.split("十", 1)
        return 10 * _ZH_NUM.get(a, 0) + _ZH_NUM.get(b, 0)
    return _ZH_NUM.get(s, 0)


def _dates(text: str) -> tuple[tuple[int, int], ...]:
    found: list[tuple[int, int]] = []
    for m in _EN_DATE.finditer(text):
        month = _MONTHS[(m.group("m") or m.group("m2")).lower()]
        day = int(m.group("d") or m.group("d2"))
        found.append((month, day))
    for m in _ZH_DATE.finditer(text):
        found.append((_zh_int(m.group("m")), _zh_int(m.group("d"))))
    return tuple(dict.fromkeys((mo, d) for mo, d in found if 1 <= mo <= 12 and 1 <= d <= 31))


def detect_intent(query: str) -> QueryIntent:
    """The time and speaker signals of ``query`` (only its first 2,000 characters are read)."""
    text = query[:_MAX_SCAN]
    speaker: str | None = None
    if _ASSISTANT.search(text):
        speaker = "assistant"
    elif _USER.search(text):
        speaker = "user"
    return QueryIntent(
        recency=_RECENCY.search(text) is not None, speaker=speaker, dates=_dates(text)
    )
