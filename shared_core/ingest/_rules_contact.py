"""Rule handlers for contact and identity: quiet hours (single ends and ranges), names,
phone calls, contact channels and do-not-recommend topics (English and Chinese).

Each handler takes a :class:`Clause` and yields ``(start, end, candidate)``; the driver in
:mod:`shared_core.ingest.extract` runs them in its registry order. Private.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Iterator

from ..entities import Kind
from . import lexicon as L
from ._rulebase import (
    CALLED_AS,
    CJK,
    NAME_CUT_ZH,
    Clause,
    Hit,
    alt,
    cand,
    neg_before,
    negate,
    ok_topic,
    phrase,
    zh_name_at,
)
from .lexicon import parse_number, slugify

__all__ = [
    "h_call",
    "h_channel",
    "h_name",
    "h_quiet",
    "h_recommend",
    "lower_name_ok",
    "quiet_pair",
]

_I = re.IGNORECASE


# ---- contact ---------------------------------------------------------------------------
_CH_EN = alt(k for k in L.CHANNELS if k.isascii())
_CH_ZH = "(?:" + alt(k for k in L.CHANNELS if not k.isascii()) + ")(?!支付)"
_QUIET_EN = re.compile(
    r"\b(?:don't|do\s+not|dont|never|no|please\s+don't|stop)\s+(?:ever\s+)?(?:contact(?:ing)?|call(?:ing|s)?"
    r"|text(?:ing|s)?|messag(?:e|ing|es)|email(?:ing|s)?|notif(?:y|ications?)|disturb(?:ing)?"
    r"|bother(?:ing)?|ping(?:ing)?|send(?:ing)?\s+me\s+(?:anything|stuff|any\s+\w+))\s+(?:me\s+)?(?P<dir>after|past|before)\s+(?P<h>\d{1,2})"
    r"(?::(?P<mi>\d{2}))?\s*(?P<ap>[ap]\.?m\.?)?"
    r"|(?:\bquiet\s+hours\s+(?:are\s+|is\s+|:\s*|start\s+at\s+)?|\b(?:nothing|no\s+(?:messages|texts|calls|emails"
    r"|notifications|pings))\s+(?=after|past|before))(?P<dir2>after|from|past|before)?\s*(?P<h2>\d{1,2})(?![\d/])(?!\s*/\s*\d)"
    r"(?::(?P<mi2>\d{2}))?\s*(?P<ap2>[ap]\.?m\.?)?",
    _I,
)
_ZH_HOUR = r"(?P<h>\d{1,2}|[零一二两三四五六七八九十]{1,3})"
_QUIET_ZH = re.compile(
    r"(?P<pre>晚上|夜里|夜间|下午|傍晚|早上|上午|凌晨|中午|白天)?\s*"
    + _ZH_HOUR
    + r"\s*(?:点|:00)(?P<half>半)?\s*"
    r"(?P<dir>以后|之后|后|以前|之前|前)\s*(?:就)?(?:请)?(?:千万)?(?:别|不要|不准|勿|请勿)(?:再)?(?:给我)?"
    r"(?:联系|打扰|打电话|发消息|发信息|发短信|发通知|通知|打|发|找我|吵我|烦我)"
)


def _hhmm(h: int, mi: int, after: bool, pm: bool | None) -> str:
    if pm is True and h < 12:
        h += 12
    elif pm is None and after and h < 12:
        h += 12  # "after 9" means the evening
    if pm is False and h == 12:
        h = 0
    return f"{h % 24:02d}:{mi:02d}"


_QUIET_CUE = re.compile(
    r"\bquiet\b|\b(?:don't|do\s+not|dont|never|no|nothing|bed|asleep|unreachable|unavailable|dnd)\b"
    r"|\bdisturb|\bsleep|\boffline\b|\bsilent\b|\bsilence\b|\bmute\b"
    # "I'm not reachable between 1 and 2pm", "leave me alone between midnight and 7"
    r"|\bnot\s+(?:reachable|available|contactable)\b|\bleave\s+me\s+(?:alone|be)\b"
    # "kindly avoid messaging between 9 and 6", "avoid calling me before 8"
    r"|\bavoid\s+(?:contact|call|text|messag|email|ping|notif|disturb)"
    r"|打扰|联系|通知|消息|电话|发|免打扰|睡觉|找我|吵我|烦我|勿扰|休息时间|午睡|午休|推送|提醒"
    # "…我在接孩子，别打来", "那会儿不要打过来"
    r"|(?:别|不要|勿)打",
    _I,
)
_T = r"(?P<h{n}>\d{{1,2}}|midnight|noon)(?::(?P<m{n}>\d{{2}}))?\s*(?P<a{n}>[ap]\.?m\.?)?"
#: Office hours said as a bare "9-5": "I'm at work 9-5", "office hours 8 to 4".
_WORKDAY = re.compile(
    r"\b(?:at\s+work|work(?:ing)?\s+hours|office\s+hours|on\s+shift|in\s+the\s+office)\b", _I
)
_NAMED_HOURS = {"midnight": (12, "am"), "noon": (12, "pm")}
_QUIET_RANGE_EN = re.compile(
    r"(?:\bfrom\s+|\bbetween\s+|\bare\s+|\bis\s+|:\s*)?(?<![\d.,$€£¥])"
    + _T.format(n=1)
    + r"\s*(?:to|until|till|and|-|–)\s*"
    + _T.format(n=2)
    + r"(?![\d%])",
    _I,
)
_ZH_H = (
    r"(?P<h{n}>\d{{1,2}}|[零一二两三四五六七八九十]{{1,3}})\s*"
    r"(?:点|[:：](?P<min{n}>[0-5]\d))(?P<half{n}>半)?"
)
_QUIET_RANGE_ZH = re.compile(
    r"(?P<pre1>晚上|夜里|夜间|半夜|深夜|下午|傍晚|中午|早上|上午|凌晨|白天|晚|早)?\s*(?:从)?\s*"
    + _ZH_H.format(n=1)
    # "白天从九点一直睡到下午四点": what is done over the span may stand before 到
    + r"\s*(?:以后|之后|后)?\s*(?:一直|一觉)?(?:睡|补觉|休息|午睡)?"
    + r"\s*(?:到|至|-|~|～)\s*(?:第二天|次日|明天|明早)?"
    + r"(?P<pre2>早上|上午|凌晨|早晨|中午|下午|晚上|早|晚)?\s*"
    + _ZH_H.format(n=2)
)
_ZH_UNTIL = re.compile(
    r"(?:早上|上午|第二天|次日|明早|早晨)\s*"
    + _ZH_H.format(n=2)
    + r"\s*(?:以后|之后)?(?:再说|再发|再联系|再通知|才可以|可以)"
)


#: Calls refused only for a stretch of the day ("no calls between 10pm and 7am", "don't
#: ring me after 9"): quiet hours, not calls refused outright.
CALLS_IN_A_WINDOW = re.compile(
    r"\b(?:(?:phone\s+)?calls?|ring|phone)(?:\s+me)?(?:\s+(?:please|pls|at\s+all))?"
    r"\s+(?:(?:between|after|before|past|from|until|till)\s+(?:\d|noon\b|midnight\b"
    r"|mid-?day\b|work\b|dinner\b|bedtime\b|(?:one|two|three|four|five|six|seven|eight"
    r"|nine|ten|eleven|twelve)\b)|at\s+night\b|overnight\b|late\s+at\s+night\b)",
    _I,
)


#: Being reached, said as a verb or a noun: what a range of bare hours keeps away.
_REACHED = re.compile(
    r"\b(?:contact|call|ring|text|messag|e-?mail|notif|alert|ping|disturb|bother|reach|buzz)", _I
)


def _bare_night(h1: int, h2: int, sentence: str) -> bool:
    """Two bare hours that cross the night ("no notifications between 10 and 6", "don't
    text me from 11 till 7"), in a sentence that keeps contact away: an evening start
    (7-11, or 12 as midnight before a morning end) and a morning end."""
    night = (7 <= h1 <= 11 and 1 <= h2 <= 10 and h1 > h2) or (h1 == 12 and 5 <= h2 <= 9)
    kept_away = _KEPT_AWAY.search(sentence) is not None
    return night and kept_away and _REACHED.search(sentence) is not None


#: A span said in words ("between 10 and 6", "11 till 7"), not a score or a count ("8-4").
_SAID_SPAN = re.compile(r"\d\s+(?:to|until|till|and)\s+\d", _I)
_KEPT_AWAY = re.compile(r"\b(?:no|nothing|don't|do\s+not|dont|never|avoid|stop|mute|silence)\b", _I)


def _ampm(h: int, mi: int, ap: str | None) -> tuple[int, int]:
    if ap:
        if ap.lower().startswith("p") and h < 12:
            h += 12
        elif ap.lower().startswith("a") and h == 12:
            h = 0
    return h % 24, mi


def _h_quiet_range(cl: Clause) -> Iterator[Hit]:
    """ "don't contact me from 10pm to 7am", "夜里11点到第二天6点请勿打扰" -> "22:00-07:00"."""
    if not _QUIET_CUE.search(cl.sentence.text):
        return
    for m in _QUIET_RANGE_EN.finditer(cl.text):
        g = m.groupdict()
        a1, a2 = g["a1"], g["a2"]
        named1, named2 = _NAMED_HOURS.get(g["h1"].lower()), _NAMED_HOURS.get(g["h2"].lower())
        a1, a2 = (named1[1] if named1 else a1), (named2[1] if named2 else a2)
        h1 = named1[0] if named1 else int(g["h1"])
        h2 = named2[0] if named2 else int(g["h2"])
        if not (a1 or a2 or (g["m1"] and g["m2"])):
            if _WORKDAY.search(cl.sentence.text) and 6 <= h1 <= 11 and 1 <= h2 <= 8:
                a1, a2 = "am", "pm"  # "I'm at work 9-5": the working day
            elif _bare_night(h1, h2, cl.sentence.text) and _SAID_SPAN.search(m.group(0)):
                # "no notifications between 10 and 6": over the night (12 is midnight)
                a1, a2 = ("am" if h1 == 12 else "pm"), "am"
            else:
                continue  # "500 to 800" is not a time range
        if h1 > 24 or h2 > 24:
            continue
        if a1 is None and a2 is not None:
            # "10 to 7am": the start is the evening before; "12 till 8 in the morning" is
            # midnight, not noon
            night = a2.lower().startswith("a") and (h1 > h2 or h1 == 12)
            a1 = ("am" if h1 == 12 else "pm") if night else a2
        t1, t2 = _ampm(h1, int(g["m1"] or 0), a1), _ampm(h2, int(g["m2"] or 0), a2)
        value = f"{t1[0]:02d}:{t1[1]:02d}-{t2[0]:02d}:{t2[1]:02d}"
        yield m.start(), m.end(), cand(Kind.CONSTRAINT, "contact.quiet_hours", value, hard=True)
    for m in _QUIET_RANGE_ZH.finditer(cl.text):
        z1, z2 = parse_number(m.group("h1")), parse_number(m.group("h2"))
        if z1 is None or z2 is None or z1 > 24 or z2 > 24:
            continue
        pre1 = m.group("pre1") or ""
        pm2 = (m.group("pre2") or "") in ("下午", "晚上", "晚")
        # "九点到三点" crosses midnight from the evening, but "九点到下午三点" and "白天九点到
        # 三点" are a morning start: the end said as afternoon comes after it the same day
        # "夜里一点到早上六点": the small hours of the night are the morning's
        small_hours = pre1 in ("夜里", "夜间") and 1 <= z1 <= 5
        pm1 = (pre1 in ("晚上", "晚", "夜里", "夜间", "下午", "傍晚") and not small_hours) or (
            (not pre1 or pre1 in ("半夜", "深夜"))
            and z1 > z2
            and z1 < 12
            and not (pm2 and z1 < z2 + 12)
        )
        s1 = (z1 + 12 if pm1 and z1 < 12 else z1) % 24
        if pre1 in ("夜里", "夜间", "凌晨", "半夜", "深夜") and z1 == 12:
            s1 = 0  # "夜里12点" is midnight
        # a start read as noon ("12点半到2点") ends in the same afternoon, as 中午 says aloud
        same_half = (
            (pre1 in ("中午", "下午", "傍晚", "晚上") or s1 == 12) and z2 < 12 and z2 + 12 > s1
        )
        if not m.group("pre2") and same_half:
            pm2 = True  # "中午十二点到两点", "晚上八点到十一点": the end is later the same day
        s2 = (z2 + 12 if pm2 and z2 < 12 else z2) % 24
        mi1, mi2 = (30 if m.group(f"half{n}") else int(m.group(f"min{n}") or 0) for n in (1, 2))
        value = f"{s1:02d}:{mi1:02d}-{s2:02d}:{mi2:02d}"
        yield m.start(), m.end(), cand(Kind.CONSTRAINT, "contact.quiet_hours", value, hard=True)


#: "11 at night" / "8 in the morning" / "4 in the afternoon": the day part said in words.
_DAYPART_EN = re.compile(
    r"\b(\d{1,2}(?::\d{2})?)\s*(?:o'clock\s+)?(?:(?P<pm>at\s+night|in\s+the\s+(?:evening|afternoon)|tonight)"
    r"|(?P<am>(?:in\s+the|the\s+next|next)\s+morning))\b",
    _I,
)
#: Clock times written short: "21h" / "7h30" (European), "11p" / "7a" (US shorthand),
#: "half eleven" / "half past ten" (British): said again as "21:00", "11pm", "11:30".
_SHORT_CLOCK = re.compile(
    r"\b(?P<h>[01]?\d|2[0-4])h(?P<m>[0-5]\d)?\b"
    r"|(?<![\d.,$€£¥])\b(?P<h2>1[0-2]|[1-9])(?P<ap>[ap])\b(?=\s*(?:-|–|to|until|till|and|,|\.|$))"
    r"|\bhalf\s+(?:past\s+)?(?P<h3>\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b",
    _I,
)


def _short_clock(m: re.Match[str]) -> str:
    if m.group("h") is not None:
        return f"{int(m.group('h'))}:{m.group('m') or '00'}"
    if m.group("h2") is not None:
        return f"{m.group('h2')}{m.group('ap').lower()}m"
    h3 = m.group("h3").lower()
    return f"{_HOUR_NUMBER.get(h3, h3)}:30"


#: "nothing after 9pm, and nothing before 8am": both ends in one sentence, in any clauses.
_QUIET_PAIR_EN = re.compile(
    r"(?:\b(?:after|past)\s+(?P<h1>\d{1,2})(?::(?P<m1>\d{2}))?\s*(?P<a1>[ap]\.?m\.?)?\b"
    # "from 8pm ... until 7": a start said with "from" needs its am/pm
    r"|\bfrom\s+(?P<h3>\d{1,2})(?::(?P<m3>\d{2}))?\s*(?P<a3>[ap]\.?m\.?)).{0,60}?"
    r"\b(?:before|until|till)\s+(?P<h2>\d{1,2})(?::(?P<m2>\d{2}))?\s*(?P<a2>[ap]\.?m\.?)?",
    _I,
)
_QUIET_PAIR_CUE = re.compile(
    r"\b(?:nothing|no\s+(?:messages|texts|calls|emails|notifications|pings)|don't|do\s+not|dont"
    r"|never|avoid)\b",
    _I,
)


#: An hour said as a word before a day part or am/pm ("ten at night", "seven a.m.") or
#: after a bound ("after nine", "until seven").
_WORD_HOUR = re.compile(
    r"\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
    r"(?=\s*(?:o'clock\b|[ap]\.?m\b|at\s+night\b|in\s+the\s+(?:morning|evening)\b|tonight\b))"
    r"|(?<=\bafter\s)(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b"
    r"|(?<=\bbefore\s)(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b"
    r"|(?<=\buntil\s)(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b"
    r"|(?<=\btill\s)(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b"
    r"|(?<=\bhalf\s)(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b"
    # the end of a range said in words: "between half ten at night and seven", "eleven to six"
    r"|(?:(?<=[\dm]\sand\s)|(?<=[\dm]\sto\s)|(?<=\bnight\sand\s)|(?<=\bnight\sto\s))"
    r"(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
    r"\b(?=\s*(?:$|[,.;!?]|please|pls|thanks|am\b|pm\b|o'clock|in\s+the|the\s+next))",
    _I,
)
#: "half six" (British): half past the hour.
_HALF_HOUR = re.compile(r"\bhalf\s+(\d{1,2})\b(?!\s*(?:hours?|an?\b|past\b))", _I)
_HOUR_NUMBER = {
    w: str(n)
    for n, w in enumerate(
        ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"), start=1
    )
} | {"eleven": "11", "twelve": "12"}


def _daypart(text: str) -> str:
    text = _SHORT_CLOCK.sub(_short_clock, text)
    text = _WORD_HOUR.sub(lambda m: _HOUR_NUMBER[next(g for g in m.groups() if g).lower()], text)
    text = _HALF_HOUR.sub(lambda m: m.group(1) + ":30", text)
    return _DAYPART_EN.sub(lambda m: m.group(1) + ("pm" if m.group("pm") else "am"), text)


@functools.lru_cache(maxsize=64)
def _quiet_pair(sentence: str) -> str | None:
    """ "nothing after 9pm please, and nothing before 8 in the morning" -> "21:00-08:00"."""
    if not _QUIET_PAIR_CUE.search(sentence):
        return None
    return quiet_pair(sentence)


def quiet_pair(sentence: str) -> str | None:
    """The two open ends of a sentence about quiet hours ("after nine ... before seven in the
    morning" -> "21:00-07:00"), whoever judged it to be about them (the rules' cue words, or
    the note classifier's key)."""
    m = _QUIET_PAIR_EN.search(_daypart(sentence))
    if m is None:
        return None
    h1, h2 = int(m.group("h1") or m.group("h3")), int(m.group("h2"))
    if h1 > 24 or h2 > 24:
        return None
    a1 = m.group("a1") or m.group("a3") or ("pm" if h1 < 12 else None)
    t1 = _ampm(h1, int(m.group("m1") or m.group("m3") or 0), a1)
    t2 = _ampm(h2, int(m.group("m2") or 0), m.group("a2") or ("am" if h2 < 12 else None))
    return f"{t1[0]:02d}:{t1[1]:02d}-{t2[0]:02d}:{t2[1]:02d}"


_ZH_PAIR_H = (
    r"(?P<pre{n}>早上|上午|凌晨|早晨|白天|中午|下午|傍晚|晚上|夜里|夜间|半夜|深夜|早|晚)?\s*"
    r"(?P<h{n}>\d{{1,2}}|[零一二两三四五六七八九十]{{1,3}})\s*(?:点|[:：](?P<min{n}>[0-5]\d))(?P<half{n}>半)?\s*"
)
_ZH_BEFORE, _ZH_AFTER = r"(?:以前|之前|前)", r"(?:以后|之后|后)"
#: "早上九点前、晚上十一点后都不要联系我", "晚上10点以后和早上8点之前别找我": both ends of
#: the quiet hours, each said on its own side, in one sentence.
_ZH_GAP = r"[^。！？!?]{0,10}?"
_QUIET_PAIR_ZH = (
    re.compile(_ZH_PAIR_H.format(n=1) + _ZH_BEFORE + _ZH_GAP + _ZH_PAIR_H.format(n=2) + _ZH_AFTER),
    re.compile(_ZH_PAIR_H.format(n=1) + _ZH_AFTER + _ZH_GAP + _ZH_PAIR_H.format(n=2) + _ZH_BEFORE),
)
_QUIET_PAIR_ZH_CUE = re.compile(r"别|不要|勿|不准|不许|免打扰|不方便")
_ZH_EVENING = ("下午", "傍晚", "晚上", "夜里", "夜间", "晚")


def _zh_clock(m: re.Match[str], n: int, *, evening: bool) -> str | None:
    """One end of a Chinese pair as HH:MM: ``evening`` for the "after" end with no day part."""
    h = parse_number(m.group(f"h{n}"))
    if h is None or h > 24:
        return None
    pre = m.group(f"pre{n}") or ""
    if h < 12 and (pre in _ZH_EVENING or (not pre and evening)):
        h += 12
    elif pre in ("凌晨", "半夜", "深夜", "夜里") and h == 12:
        h = 0
    mi = 30 if m.group(f"half{n}") else int(m.group(f"min{n}") or 0)
    return f"{h % 24:02d}:{mi:02d}"


@functools.lru_cache(maxsize=64)
def _quiet_pair_zh(sentence: str) -> str | None:
    """ "早上九点前、晚上十一点后都不要联系我" -> "23:00-09:00"."""
    if not _QUIET_PAIR_ZH_CUE.search(sentence) or not _QUIET_CUE.search(sentence):
        return None
    before_first, after_first = (rx.search(sentence) for rx in _QUIET_PAIR_ZH)
    if before_first is not None:  # "早上九点前、晚上十一点后": the later end starts it
        m, first, second = before_first, 2, 1
    elif after_first is not None:
        m, first, second = after_first, 1, 2
    else:
        return None
    start, end = _zh_clock(m, first, evening=True), _zh_clock(m, second, evening=False)
    return f"{start}-{end}" if start and end else None


_RANGE_START = re.compile(
    r"\b(?:after|past|from)\s+(?:\d|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
    r"|half|midnight|noon)",
    _I,
)


def h_quiet(cl: Clause) -> Iterator[Hit]:
    pair = _quiet_pair(cl.sentence.text) or _quiet_pair_zh(cl.sentence.text)
    if pair is not None:
        # once a sentence, on the clause where the range starts ("my kid goes to bed at 7,
        # so nothing from 8pm until 6": not the child's clause)
        at = _RANGE_START.search(cl.sentence.text)
        first = cl.start == 0 if at is None else cl.start <= at.start() < cl.start + len(cl.text)
        if first:
            yield 0, len(cl.text), cand(Kind.CONSTRAINT, "contact.quiet_hours", pair, hard=True)
        return
    if _DAYPART_EN.search(cl.text) or _WORD_HOUR.search(cl.text) or _SHORT_CLOCK.search(cl.text):
        cl = dataclasses.replace(cl, text=_daypart(cl.text))
    ranged = list(_h_quiet_range(cl))
    yield from ranged
    if ranged:
        return
    for m in _QUIET_EN.finditer(cl.text):
        h = int(m.group("h") or m.group("h2"))
        mi = int(m.group("mi") or m.group("mi2") or 0)
        ap = (m.group("ap") or m.group("ap2") or "").lower()
        direction = (
            (m.group("dir") or m.group("dir2") or "after")
            .lower()
            .replace("past", "after")
            .replace("from", "after")
        )
        pm = None if not ap else ap.startswith("p")
        value = f"{direction} {_hhmm(h, mi, direction == 'after', pm)}"
        yield m.start(), m.end(), cand(Kind.CONSTRAINT, "contact.quiet_hours", value, hard=True)
    for m in _QUIET_ZH.finditer(cl.text):
        hz = parse_number(m.group("h"))
        if hz is None or hz > 24:
            continue
        pre = m.group("pre") or ""
        pm = True if pre in ("晚上", "夜里", "夜间", "下午", "傍晚") else (False if pre else None)
        after = m.group("dir") in ("以后", "之后", "后")
        value = (
            f"{'after' if after else 'before'} {_hhmm(hz, 30 if m.group('half') else 0, after, pm)}"
        )
        end = _ZH_UNTIL.search(cl.sentence.text) if after else None
        h2 = parse_number(end.group("h2")) if end else None
        if h2 is not None and h2 < 13:
            value = f"{value.split()[1]}-{h2:02d}:{30 if end and end.group('half2') else 0:02d}"
        yield m.start(), m.end(), cand(Kind.CONSTRAINT, "contact.quiet_hours", value, hard=True)


#: initials as a name word: "J.R. Smith", "call me A.J."
_INITIALS = r"(?-i:[A-Z]\.){2,3}"
_NAME_CALL = re.compile(
    r"\b[Cc]all\s+me\s+(?P<n>(?:" + _INITIALS + r"|(?:Mrs|Mr|Ms|Mx|Dr|Prof|Miss)\.?\s+[A-Z][\w'-]*"
    r"|[A-Z][\w'-]*)(?:\s+[A-Z][\w'-]*)?)"
)
#: The short form offered after the name, in a clause of its own: "I'm Tomasz, but Tom is
#: fine", "name's Margaret, Maggie's ok".
SHORT_IS_FINE = re.compile(
    r"^\W*(?:but\s+)?(?:just\s+)?(?P<n>(?-i:[A-Z])[a-z'-]+)(?:\s+is|'s)\s+(?:fine|ok|okay|good|great"
    r"|easier|better)\b(?:\s+(?:too|by\s+me|with\s+me))?\W*$",
    _I,
)
_NAMED_BEFORE = re.compile(
    r"\b(?:name(?:'s|\s+is)|i'm|i\s+am|it's|this\s+is)\s+(?-i:[A-Z])[a-z'-]+", _I
)
#: "it's Kwame, in case you need my name": the name given as "it's X" in a sentence that says
#: it is the user's name.
_ITS_NAME = re.compile(
    r"^\W*(?:(?:oh|and|also|btw|thanks|ok|okay|so)\W+)*it's\s+(?P<n>(?-i:[A-Z])[a-z'-]+)\W*$", _I
)
_MY_NAME = re.compile(r"\bmy\s+name\b", _I)
_NAME_EN = re.compile(
    r"\b(?:my\s+(?:full\s+|real\s+|legal\s+|actual\s+|good\s+)?name\s+is|my\s+name's|i(?:'m|\s+am)\s+called|the\s+name's"
    # "the name on my passport is Oluwaseun Adeyemi"
    r"|the\s+name\s+on\s+my\s+(?:passport|id|licen[cs]e|birth\s+certificate|bank\s+card|card)\s+is"
    # "real name is Josefina", "legal name's Olumide" (the subject dropped)
    r"|(?:^|(?<=[,.;]\s))\W*(?:my\s+)?(?:real|legal|full|actual|official)\s+name(?:\s+is|'s)|^\W*name(?:\s+is|'s)(?=\s+(?-i:[A-Z])))\s+"
    r"(?P<n>(?:" + _INITIALS + r"|[^\W\d_][\w'-]*)(?:\s+[^\W\d_][\w'-]*){0,2})",
    _I,
)
_NAME_IM = re.compile(
    r"^\W*(?:(?:[Hh]i|[Hh]ello|[Hh]ey|[Hh]iya|[Oo]k|[Oo]kay|[Ss]o|[Ww]ell|[Yy]eah|[Aa]nyway|[Uu]m"
    r"|[Oo]h|[Aa]nd|[Aa]lso|[Bb]tw|[Ff]yi)\W+)*"
    r"[Ii](?:'m|\s+am)\s+(?P<n>[A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+)?)"
    r"\s*(?:here|by\s+the\s+way)?(?:\s+(?:from|and\s+[Ii]|and\s+my)\b.*)?\W*$"
)
#: What one calls for, not one's name: "我叫外卖", "我叫了个车", "我叫滴滴".
_ORDERED_ZH = (
    "外卖",
    "车",
    "滴滴",
    "快递",
    "代驾",
    "救护车",
    "出租车",
    "网约车",
    "跑腿",
    "闪送",
    "上门",
)
_NAME_ZH = re.compile(
    # ("室友管我叫大胃王" is what others call the user, read below)
    r"(?<!管)我(?:的)?(?:名字|大名|全名|真名|本名|中文名)?(?:叫|是)(?P<pre>做)?"
    r"(?P<n>[" + CJK + r"]{2,4}|[A-Za-z][A-Za-z ]{0,20})"
)
#: "我是张伟" as a whole clause (optionally after a greeting): a self-introduction when the
#: two or three characters start with a common surname and are not a job/role word.
_NAME_ZH_IS = re.compile(
    r"^\W*(?:(?:你好|您好|嗨|哈喽|大家好|哈啰)[呀啊哈]?\W*)?"
    r"我是(?P<n>[" + CJK + r"]{2,3})(?:啊|呀|哦)?\W*$"
)
_NAME_ZH_PREF = re.compile(
    # ("称呼我为王老师"; "大家都管我叫阿杰")
    r"(?<!别)(?<!不要)(?<!不用)(?<!别再)(?:(?:叫|喊|称呼)我(?:(?<=称呼我)为)?|管我叫)"
    # "叫我起床", "喊我吃饭": a call to do something, not a name
    r"(?!起床|起来|吃饭|回家|去|来|过来|一声|一下|做|帮|别|不要|出去|下楼|上班|睡觉|开门)"
    r"(?P<n>(?:(?!吧|呢|了|就|哈|也(?:行|可以|成|好))[" + CJK + r"A-Za-z]){1,6}?)(?:吗|呢)?"
    r"(?:就行|就好|就可以|也行|也可以|也成|也好|吧|$|[，,。.!！？?])"
)
#: Names offered in turn, each as good as the other ("叫我秦始皇也行，叫我彭于晏也行",
#: "喊我小王也可以喊我王总也可以"): no name is chosen, whichever is said.
_NAMES_IN_TURN_ZH = re.compile(
    r"(?:叫|喊|称呼)我[^，,。]{1,8}?(?:也|都)(?:行|可以|成|好)[^。]{0,12}?"
    r"(?:叫|喊|称呼)我[^，,。]{1,8}?(?:也|都)(?:行|可以|成|好)"
)
_NAME_WORD_CUT = re.compile(
    r"\s+(?:and|but|from|i|by|here|please|pls|so|nice|if|when|for|in\s+case|btw|fyi|fwiw|lol"
    r"|though|tho|because|cause|cuz|just|though|anyway|haha)\b.*$",
    _I,
)


#: The short form after a stated name: "... but please just Kathi", "..., just Tobi is fine".
JUST_NAME = re.compile(
    r"\s*,?\s*(?:but\s+)?(?:please\s+|pls\s+)?(?:just\s+|only\s+)(?P<n>(?-i:[A-Z])[a-z'-]+)"
    r"(?:\s+(?:is\s+fine|is\s+ok|please|pls|works))?\W*$",
    _I,
)
#: "don't call me mo (anymore)": the name is no longer wanted, whatever its case.
_NOT_CALLED = re.compile(
    r"\b(?:don't|do\s+not|dont|never|stop)\s+(?:ever\s+)?call(?:ing)?\s+me(?=" + CALLED_AS + r")\s+"
    r"(?P<n>[a-z][\w'-]{1,15})",
    _I,
)


#: A lowercase first name is read only where the wording itself introduces one (people type
#: "raj here, quick q", "hi im sam", "everyone calls me jojo", "i go by lex", "this is kavya
#: from accounts"); the word must not be one the lexicons know or a state ("im new here",
#: "hey im back", "newbie here", "coeliac here").
_LOWER = r"(?P<n>[a-z][a-z'-]{1,15})"
_LOWER_NAME_SLOTS = (
    (
        "name",
        re.compile(r"^\W*(?:(?:hi|hey|hello|hiya|yo)\W+)?" + _LOWER + r"\s+here\s*(?:[,.!:;-]|$)"),
    ),
    (
        "name",
        re.compile(
            r"^\W*(?:hi|hey|hello|hiya|yo)\W+i'm\s+"
            + _LOWER
            + r"\s*(?:[,.!]|$|(?=\s+(?:and|btw|from|here)\b))"
        ),
    ),
    (
        "name",
        re.compile(
            r"^\W*(?:(?:hi|hey|hello|hiya|yo)\W+)?this\s+is\s+"
            + _LOWER
            + r"\s+(?:from|at)\s+(?:the\s+)?\w"
        ),
    ),
    (
        "name.preferred",
        re.compile(
            r"\b(?:everyone|everybody|people|friends|my\s+friends|most\s+people|they\s+all|folks)"
            r"\s+(?:just\s+|usually\s+|all\s+)?calls?\s+me\s+"
            + _LOWER
            + r"\s*(?:[,.!;]|$|(?=\s+(?:so|and|but|too)\b))"
        ),
    ),
    (
        "name.preferred",
        re.compile(
            r"\bi\s+go\s+by\s+" + _LOWER + r"\s*(?:[,.!;]|$|(?=\s+(?:so|and|but|now|these)\b))"
        ),
    ),
)
#: Words that stand where a first name would and are none: states, roles, people in general.
_NOT_LOWER_NAME = frozenset(
    (
        *(
            "same",
            "newbie",
            "noob",
            "lurker",
            "newcomer",
            "beginner",
            "mum",
            "mom",
            "dad",
            "parent",
        ),
        *("question", "help", "anyone", "everyone", "nobody", "someone", "me", "you", "us"),
        *("them", "nothing", "something", "everything", "all", "who", "what", "lost", "stuck"),
        *("late", "early", "bored", "broke", "back", "here", "there", "stressed", "exhausted"),
        *("knackered", "shattered", "starving", "freezing", "cold", "hot", "ill", "unwell"),
        *("awake", "up", "off", "out", "in", "away", "online", "offline", "good", "great"),
        *("grand", "alright", "cool", "lucky", "screwed", "doomed", "dying", "dead", "over"),
        *("human", "person", "customer", "user", "member", "guest", "admin", "support", "team"),
        *("everyone's", "nobody's", "that", "this", "it", "one", "two", "first", "last", "next"),
        *("gonna", "gone", "sure", "right", "wrong", "sorry", "curious", "confused", "worried"),
        *("nervous", "scared", "annoyed", "upset", "angry", "mad", "sad", "happy", "tired"),
        *(
            "hello",
            "hi",
            "hey",
            "hiya",
            "yo",
            "thanks",
            "ok",
            "okay",
            "yes",
            "no",
            "hmm",
            "oh",
            "bye",
        ),
        # what people are called in jest, and how one goes places ("i go by bus")
        *("crazy", "lazy", "silly", "funny", "grumpy", "bossy", "nosy", "moody", "picky"),
        *("fussy", "needy", "clumsy", "messy", "sleepy", "nerdy", "geeky", "weird", "stupid"),
        *(
            "dumb",
            "daft",
            "mental",
            "nuts",
            "names",
            "later",
            "whenever",
            "anytime",
            "tomorrow",
            "every",
            "mine",
            "boss",
        ),
        *("bus", "train", "car", "bike", "foot", "plane", "boat", "tube", "metro", "taxi"),
        *("uber", "road", "rail", "coach", "air", "sea", "feel", "instinct", "ear", "rules"),
    )
)


def lower_name_ok(word: str) -> bool:
    """Whether a lowercase word in a name's slot can be a first name (no known word, no state)."""
    low = word.lower()
    return not (
        low in L.NAME_STOP
        or low in _NOT_LOWER_NAME
        or low.endswith(("ing", "ed", "ful", "ous", "less", "ive", "able", "ible", "ish", "ist"))
        or any(
            L.lookup(table, low) is not None
            for table in (L.LANGUAGES, L.CONDITIONS, L.DIETS, L.FOODS, L.FAMILY, L.CHANNELS)
        )
        or low in L.JOB_HEADS
        or low in L.CITIES
        or low in L.COUNTRIES
    )


def h_name(cl: Clause) -> Iterator[Hit]:
    t = cl.text
    for key, rx in _LOWER_NAME_SLOTS:
        if (ml := rx.search(t)) is not None and lower_name_ok(ml.group("n")):
            yield ml.start("n"), ml.end("n"), cand(Kind.FACT, key, ml.group("n").capitalize())
    for m in _NOT_CALLED.finditer(t):
        if m.group("n").lower() not in L.NAME_STOP:
            said = cand(Kind.FACT, "name.preferred", m.group("n"))
            yield m.start(), m.end(), negate(said)
    for m in _NAME_CALL.finditer(t):
        n = m.group("n").split()
        if n[0].lower() in L.NAME_STOP or neg_before(t, m.start()):
            continue
        yield m.start(), m.end(), cand(Kind.FACT, "name.preferred", " ".join(n))
    if me := _NAME_EN.search(t):
        name = _NAME_WORD_CUT.sub("", me.group("n")).strip()
        if name and name.split()[0].lower() not in L.NAME_STOP:
            yield me.start(), me.end(), cand(Kind.FACT, "name", name)
        # "my name's Katharina but please just Kathi": the short form is what to call them
        mp = JUST_NAME.match(t, me.end()) if name else None
        if mp is not None and mp.group("n").lower() not in L.NAME_STOP:
            yield mp.start("n"), mp.end("n"), cand(Kind.FACT, "name.preferred", mp.group("n"))
    ms = SHORT_IS_FINE.match(t)
    if (
        ms is not None
        and ms.group("n").lower() not in L.NAME_STOP
        and _NAMED_BEFORE.search(cl.sentence.text[: cl.start])
    ):
        yield ms.start("n"), ms.end("n"), cand(Kind.FACT, "name.preferred", ms.group("n"))
    mk = _ITS_NAME.match(t)
    if (
        mk is not None
        and mk.group("n").lower() not in L.NAME_STOP
        and _MY_NAME.search(cl.sentence.text)
    ):
        yield mk.start("n"), mk.end("n"), cand(Kind.FACT, "name", mk.group("n"))
    if mi := _NAME_IM.search(t):
        words = mi.group("n").split()
        if all(w.lower() not in L.NAME_STOP and L.lookup(L.LANGUAGES, w) is None for w in words):
            yield mi.start("n"), mi.end("n"), cand(Kind.FACT, "name", mi.group("n"))
    mz = _NAME_ZH.search(t)
    if mz and not mz.group("pre") and re.search("叫|名", t[mz.start() : mz.start("n")]):
        raw = mz.group("n")
        name = raw if raw.isascii() else NAME_CUT_ZH.sub("", zh_name_at(t, mz.start("n"), 4))
        # "我叫了外卖" / "我叫不出来他的名字" / "我叫错了" name no one, nor does something
        # ordered: "我叫外卖了", "我叫车了" (a name is not followed by 了)
        after = t[mz.start("n") + len(name) : mz.start("n") + len(name) + 1]
        ordered = after == "了" or name.startswith(_ORDERED_ZH)
        if (
            len(name.strip()) >= 2
            and not name.startswith(("了", "过", "不", "没", "错", "别"))
            and not ordered
        ):
            yield mz.start(), mz.end(), cand(Kind.FACT, "name", name.strip())
    if (mis := _NAME_ZH_IS.search(t)) and _zh_self_intro(mis.group("n")):
        yield mis.start("n"), mis.end("n"), cand(Kind.FACT, "name", mis.group("n"))
    if (mp := _NAME_ZH_PREF.search(t)) and not _NAMES_IN_TURN_ZH.search(cl.sentence.text):
        yield mp.start(), mp.end(), cand(Kind.FACT, "name.preferred", mp.group("n"))


def _zh_self_intro(name: str) -> bool:
    """Whether "我是<name>" introduces a person ("张伟"), not a role ("护士", "新来的")."""
    return (
        name[0] in L.ZH_SURNAMES
        and not name.endswith(L.ZH_JOB_SUFFIXES)
        and not name.endswith(("人", "的", "了", "者", "生", "员", "家", "族"))
        # a self-label, not a name: 路痴, 吃货, 铲屎官, 社恐, 工作狂, 起床困难户
        and not name.endswith(
            ("痴", "控", "迷", "货", "党", "狗", "鬼", "官", "恐", "牛", "狂", "户")
        )
        and name not in L.ZH_NOT_NAMES
    )


_EMERGENCY = re.compile(r"emergenc|urgent|紧急|急事|急情", _I)
_CALL_NEG_EN = re.compile(
    r"\b(?:never|don't|do\s+not|dont|stop|no\s+need\s+to)\s+(?:ever\s+)?(?:again\s+)?(?:call|phone|ring)"
    r"(?:ing)?\s+me\b(?!\s+(?:that|this|by|names?|an?)\b|\s+(?-i:[A-Z])[a-z]|" + CALLED_AS + r")"
    r"|\bno\s+(?:more\s+)?(?:phone\s+|voice\s+)?calls\b"
    # "do not call on my mobile", "never ring my landline"
    r"|\b(?:never|don't|do\s+not|dont)\s+(?:call|phone|ring)\s+(?:(?:me\s+)?on\s+)?my\s+(?:mobile|cell"
    r"|phone|landline|number|mobile\s+number|cell\s+phone)\b"
    r"|\bi\s+(?:don't|do\s+not|dont|never)\s+"
    r"(?:take|answer|pick\s+up|want|accept|do|like|make)\s+(?:any\s+)?(?:phone\s+)?calls\b",
    _I,
)
_CALL_POS_EN = re.compile(
    r"\b(?:you\s+(?:can|may|could)|feel\s+free\s+to|it's\s+(?:ok|okay|fine)\s+to|go\s+ahead\s+and"
    r"|please|just)\s+(?:also\s+)?(?:call|phone|ring)\s+me\b|\bcall(?:ing)?\s+(?:me\s+)?is\s+"
    r"(?:ok|okay|fine|allowed)\b|\bcalls\s+are\s+(?:ok|okay|fine|allowed)\b"
    # "you can give me a ring any time", "I don't mind a phone call"
    r"|\b(?:you\s+(?:can|may|could)|feel\s+free\s+to|happy\s+for\s+you\s+to)\s+give\s+me\s+a\s+"
    r"(?:call|ring|bell)\b|\bi\s+(?:don't|do\s+not|dont)\s+mind\s+(?:a\s+|the\s+odd\s+)?"
    r"(?:phone\s+calls?|calls|call|talking\s+on\s+the\s+phone|being\s+called)\b",
    _I,
)
_CALL_NEG_ZH = re.compile(
    r"(?:不要|别|不准|不许|不用|别再|不要再|请勿|勿)(?:再)?(?:给我|跟我|和我)?(?:打电话|打我电话|来电|电话联系|call我)"
    r"|不要打电话给我|别打电话给我|不接电话"
    # calls waved away: "来电就免了", "打电话就不必了"
    r"|(?:来电|打电话|电话联系|电话)(?:就|也)?(?:免了|不必了|省了|省省吧)"
)
#: With the phone named earlier in the sentence ("电话的话，除非急事，不然不要打给我"), a bare
#: "don't ring me" refuses calls.
_CALL_NEG_ZH_TOPIC = re.compile(r"(?:不要|别|不用)(?:再)?(?:打给我|给我打|打过来)")
_CALL_POS_ZH = re.compile(
    # ("不能打电话", "不可以打电话" allow nothing)
    r"(?<![不没])(?:可以|能|允许)(?:给我)?打(?:我)?电话"
    r"|打电话(?:给我)?(?:完全|绝对|都|也|随时)?(?:也行|也可以|没问题|可以)"
)


#: Standing rules about oneself ("I don't take phone calls", "no phone calls", "我不接电话")
#: are permanent; a request ("don't call me", "不要给我打电话") is hard but a later plain
#: "you can call me" replaces it without a confirmation question.
_CALL_STANDING = re.compile(r"\bcalls\b|不接电话", _I)


def h_call(cl: Clause) -> Iterator[Hit]:
    t = cl.text
    emergency = _EMERGENCY.search(cl.sentence.text) is not None
    topic = "电话" in cl.sentence.text and _CALL_NEG_ZH.search(cl.sentence.text) is None
    for rx in (_CALL_NEG_EN, _CALL_NEG_ZH, *((_CALL_NEG_ZH_TOPIC,) if topic else ())):
        for m in rx.finditer(t):
            standing = _CALL_STANDING.search(m.group(0)) is not None
            c = cand(Kind.CONSTRAINT, "contact.call", "never", hard=True, permanent=standing)
            yield m.start(), m.end(), c
            if emergency and re.search(r"unless|except|除非|除了", cl.sentence.text, _I):
                yield m.end(), m.end(), cand(Kind.CONSTRAINT, "contact.call.emergency", "allowed")
    for rx in (_CALL_POS_EN, _CALL_POS_ZH):
        for m in rx.finditer(t):
            key = "contact.call.emergency" if emergency else "contact.call"
            yield m.start(), m.end(), cand(Kind.CONSTRAINT, key, "allowed")


#: What is sent, how it is sent, and the channel's group opened: "updates by email",
#: "correspondence to be sent by post", "reminders as push notifications".
_UPDATES_BY = (
    r"(?:updates|notifications|reminders|alerts|correspondence|confirmations|receipts|invoices"
    r"|statements|messages|news)\s+(?:(?:to\s+be\s+|be\s+|should\s+be\s+)?(?:sent|delivered"
    r"|coming)\s+)?(?:by|via|through|over|as|on)\s+(?:an?\s+)?(?P<ch>"
)
#: A way rated for the user: "更靠谱", "比较好", "最方便".
_RATED_ZH = r"(?:更|比较|最|还是)(?:靠谱|好|快|方便|合适|稳妥|省事|稳)"
_CHANNEL_RX: tuple[tuple[re.Pattern[str], bool], ...] = (
    (
        re.compile(
            r"\bi\s+(?:only\s+|just\s+|really\s+|much\s+)?(?:accept|want|prefer|receive|get|check"
            r"|read)\s+(?:only\s+)?(?:notifications?\s+|updates?\s+|messages?\s+|alerts?\s+)?"
            r"(?:by\s+|via\s+|through\s+|over\s+|on\s+)?(?P<ch>" + _CH_EN + r")\b",
            _I,
        ),
        True,
    ),
    (
        re.compile(
            r"(?<!plain\s)(?<!rich\s)\b(?P<ch>"
            + _CH_EN
            + r")\s+(?:only\b|is\s+(?:best|better|preferred|fine|the\s+best"
            r"|ideal|easiest)\b|works\s+best\b)",
            _I,
        ),
        True,
    ),
    (
        re.compile(
            r"\b(?:contact|reach|notify|message|ping|update|alert)\s+me\s+(?:only\s+)?(?:by|via|on"
            r"|through|over|with|using)\s+(?P<ch>" + _CH_EN + r")\b",
            _I,
        ),
        True,
    ),
    (re.compile(r"\bonly\s+(?:by|via|through)\s+(?P<ch>" + _CH_EN + r")\b", _I), True),
    # "the easiest way to reach me is whatsapp", "best contact: email", "preferred contact
    # method - text"
    (
        re.compile(
            r"\b(?:best|easiest|quickest|fastest|surest|preferred|simplest)\s+(?:bet|way|method"
            r"|option)?\s*(?:(?:to|of)\s+(?:reach|contact|get\s+hold\s+of|get\s+in\s+touch\s+with)"
            r"\s+me|contact(?:\s+method)?|channel)\s*(?:is|would\s+be|:|-|=)\s*(?:via\s+|by\s+|on\s+"
            # "... is a text", "... is a plain old phone call"
            r"|through\s+)?(?:(?:an?|the)\s+)?(?:(?:plain|good|simple|quick|short|old|old-fashioned)\s+)*"
            r"(?P<ch>" + _CH_EN + r")\b",
            _I,
        ),
        True,
    ),
    # "I'd prefer updates by email", "all correspondence to be sent by post", "send my
    # reminders as push notifications"
    (
        re.compile(
            r"\b(?:prefer|all|any|always|future)\s+(?:[a-z]+\s+){0,2}?"
            + _UPDATES_BY
            + _CH_EN
            + r")\b",
            _I,
        ),
        True,
    ),
    (re.compile(r"\b" + _UPDATES_BY + _CH_EN + r")\b", _I), False),
    # "just text me" / "only whatsapp me" is how to reach the user; "text me the address" is
    # a task, and a bare "text me" is one signal (see _CONTRAST for "text me, don't call")
    (
        re.compile(
            r"\b(?:just|only|pls|please|always|best\s+to)\s+(?P<ch>text|sms|email|e-mail|whatsapp|wechat"
            r"|telegram|signal)\s+me\b(?!\s*(?:the|a|an|this|that"
            r"|it|my|your|at|when|if|back|later|tomorrow|tonight|once|after|before|in|on|\w+ing)\b)",
            _I,
        ),
        True,
    ),
    (re.compile(r"\b(?P<ch>text|sms|email|e-mail|whatsapp|wechat|telegram)\s+me\b", _I), False),
    (
        re.compile(
            r"\bsend\s+(?:it|them|this|that|the\s+[\w-]+|me\s+(?:the\s+)?[\w-]+)?\s*(?:to\s+my|by"
            r"|via|over|as\s+an?)\s+(?P<ch>email|e-mail|sms|text|whatsapp|wechat|telegram)\b",
            _I,
        ),
        False,
    ),
    (
        re.compile(
            r"只(?:接受|要|用|收|看|上|回|刷)(?P<ch>" + _CH_ZH + r"|" + _CH_EN + r")(?![A-Za-z])",
            _I,
        ),
        True,
    ),
    # the channel as the verb: "直接微信我就好", "有事短信我"
    (
        re.compile(
            r"(?P<ch>" + _CH_ZH + r")(?:找|戳|私|联系|滴滴|敲)?我(?:就好|就行|就可以|就ok|吧|哈)"
        ),
        True,
    ),
    (re.compile(r"(?:喜欢|偏好|习惯|倾向于?|首选)(?:用|通过)?(?P<ch>" + _CH_ZH + r")"), True),
    (re.compile(r"(?P<ch>" + _CH_ZH + r")(?:最好|就行|就好|比较好|优先)"), True),
    (re.compile(r"(?:请)?(?:用|通过)(?P<ch>" + _CH_ZH + r")(?:通知|联系)我"), True),
    (
        re.compile(
            r"(?:用|通过|发)(?P<ch>" + _CH_ZH + r")(?:通知|联系|告诉|发给|给)我"
            # ("发短信给我更靠谱": the way rated for the user)
            r"(?:吧|就行|就好|" + _RATED_ZH + r")?(?=$|[，,。.!！])"
        ),
        True,
    ),
    (re.compile(r"(?:用|通过|发)(?P<ch>" + _CH_ZH + r")(?:通知|联系|告诉|发给|给)我"), False),
    (re.compile(r"给我发(?P<ch>" + _CH_ZH + r")"), False),
    (
        re.compile(
            r"(?P<ch>" + _CH_ZH + r")(?:联系|通知)我(?=就行|就好|最好|吧|" + _RATED_ZH + r")"
        ),
        True,
    ),
    (re.compile(r"(?P<ch>" + _CH_ZH + r")(?:联系|通知)我"), False),
)


#: A channel set against another in the same sentence ("text me, don't call", "whatsapp me,
#: I don't do emails", "发短信给我，邮件我不看") is a standing preference, not a one-off request.
_CONTRAST = re.compile(
    r"\b(?:don't|do\s+not|dont|never|no)\s+(?:\w+\s+)?(?:call|ring|phone|email|e-mail|text|calls|emails)"
    r"|\brather\s+than\b|\binstead\b|\bi\s+(?:don't|dont|never)\s+(?:do|check|read|use)\b"
    r"|(?:别|不要|不用)(?:给我)?打电话|(?:邮件|电话|短信|微信)我?(?:基本|从来|一般)?不(?:看|接|回|用)"
    # "我这人不太看微信的", "我不怎么回邮件"
    r"|不(?:太|怎么|大|常)?(?:看|接|回|用)(?:微信|邮件|短信|邮箱|信箱|电话)",
    _I,
)
_ME_TAIL = re.compile(
    r"\s*(?:the|a|an|this|that|it|my|your|at|when|if|back|later|tomorrow|tonight|once|after"
    r"|before|in|on|\w+ing)\b",
    _I,
)


def h_channel(cl: Clause) -> Iterator[Hit]:
    t = cl.text
    contrast = _CONTRAST.search(cl.sentence.text) is not None
    for rx, explicit in _CHANNEL_RX:
        for m in rx.finditer(t):
            if neg_before(t, m.start()):
                continue
            canon = L.CHANNELS.get(m.group("ch").lower())
            if canon is None:
                continue
            standing = explicit or (contrast and not _ME_TAIL.match(t, m.end()))
            exp = standing and not cl.sentence.implicit_cue
            c = cand(
                Kind.PREFERENCE, "contact.channel", m.group("ch"), normalized=canon, explicit=exp
            )
            yield m.start(), m.end(), c


_RECO_EN = re.compile(
    r"\b(?:never|don't|do\s+not|dont|stop|no\s+more)\s+(?:ever\s+)?(?:again\s+)?(?:bother\s+)?(?:recommend|suggest|offer"
    r"|pitch|push|sell|promote|advertise|send"
    # "don't ever point me to fast food places", "never steer me towards timeshares"
    r"|(?:point|steer|direct)\s+me\s+(?:to|towards?|at))(?:ing)?\s+(?:me\s+)?(?:any\s+)?(?P<t>[^,.;!?]{2,60})",
    _I,
)
_RECO_ZH = re.compile(
    r"(?:不要|别|不用|别再|不要再|不准|请勿|勿)(?:再)?(?:给我|向我|跟我|对我|和我)?(?:推荐|推销|推送(?!通知|消息|提醒|信息)|推(?!送)|介绍|安利)"
    r"(?:任何)?(?P<t>(?![荐销])[^，,。.!?！？；;]{1,16})"
)


#: A word for "things of that kind" after the topic: "crypto stuff", "MLM things", "diet
#: content", "gambling related stuff" -> the topic itself.
_KIND_OF_THING = re.compile(
    r"(?<=\w)(?:\s+|-)(?:related\s+|type\s+|kind\s+of\s+)?(?:stuff|things|content|nonsense|rubbish|junk)$",
    _I,
)


def h_recommend(cl: Clause) -> Iterator[Hit]:
    for rx in (_RECO_EN, _RECO_ZH):
        for m in rx.finditer(cl.text):
            topic = _KIND_OF_THING.sub("", phrase(m.group("t"), 4))
            if ok_topic(topic):
                key = "recommend." + slugify(topic)
                c = cand(Kind.CONSTRAINT, key, "never", normalized="never", hard=True)
                yield m.start(), m.end(), c
