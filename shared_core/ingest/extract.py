"""The offline rule extractor for English and Chinese (write path, step 1).

:class:`RuleExtractor` turns one user (or tool) turn into :class:`Candidate` objects
with precompiled, linear-time regular expressions; no model, no network. The gate
and the resolver decide what is actually written.

Key taxonomy (``value`` keeps the surface text, ``normalized`` is canonical):

=========================  ============  ====================================================
key                        kind          examples -> value (normalized)
=========================  ============  ====================================================
contact.channel            preference    "I only accept SMS", "只接受短信通知" -> sms
contact.call               constraint    "never call me", "不要给我打电话" -> never (hard);
                                         "I don't take phone calls" / "不接电话" -> never
                                         (hard, permanent); "you can call me" -> allowed
contact.call.emergency     constraint    "in an emergency you may call" -> allowed (soft)
contact.quiet_hours        constraint    "don't contact me after 9pm" -> "after 21:00"
allergy.medication         fact          "allergic to penicillin", "对青霉素过敏" -> penicillin
allergy.medication.<slug>  fact          additive: "I'm also allergic to ibuprofen", "我对布洛芬也
                                         过敏" -> ibuprofen (a sibling; the first one stays)
allergy.food / allergy     fact          peanuts, 花生 / anything else (".<slug>" when additive)
health.condition           fact          "I have diabetes", "我有高血压" -> diabetes / hypertension
diet                       preference    vegetarian, vegan, halal, 吃素, 清真
budget.max / budget.min    preference    "at most 20000", "最多两万", "5k" -> 20000 / 5000
location.city/.country/    fact          "I live in Berlin", "I'm in Lisbon", "我搬到北京了",
  .address                               "my address is ..."
name / name.preferred      fact          "my name is Alice Chen", "我叫张伟", "你好，我是张伟"
                                         / "call me Al"
language                   preference    "please reply in Chinese", "用英文回复我" -> chinese
industry                   fact          "I work in SaaS", "我们是做制造业的" -> manufacturing
job.title                  fact          "I'm a nurse", "我是护士"
taste.<item>               preference    "I love jazz" -> like, "我讨厌香菜" -> dislike
recommend.<topic>          constraint    "never recommend credit cards" -> never (hard)
interest.<topic>           preference    "I've been looking at credit cards" -> interested
                                         (always implicit)
rule.<slug>                constraint    "always cc my assistant" -> the instruction
device.<id>                relationship  "my device is dev_8821" -> owner
family.<relation>          relationship  "my wife is Jane", "我女儿叫小美" -> the name
seat                       preference    "aisle seat", "靠窗的座位" -> aisle / window
timezone                   fact          "my timezone is Europe/Berlin"
event.<slug>               event         "I had surgery last Friday" -> "surgery on 2026-04-10"
=========================  ============  ====================================================

Signals: ``explicit_marker``, ``question``, ``hypothetical``, ``third_party``, ``joke``,
``retraction``, ``negated``. "forget my X" and negations ("I no longer live in Berlin",
"I don't keep halal anymore", "我没有高血压了") give ``Intent.FORGET``; "forget my contact
info" / "删除我的联系方式" targets ``contact.channel`` only (the ``contact.call`` rule stays);
"never mind" / "算了" / a bare "just kidding" give ``Intent.RETRACT``. Corrections ("not X,
Y", "Y, not X", "不是X，是Y", "是Y，不是X") set ``correction=True`` on the ``Y`` candidate,
which replaces the base slot (an additive ``.<slug>`` sibling is not targeted by value).

Layout: this module holds the driver and the contact/identity/forget handlers;
``_rulebase`` the markers, sentence/clause splitting and open-vocabulary handlers;
``_rules_facts`` the fact/preference/event handlers; ``lexicon`` every word list;
``dates`` relative-date resolution.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Callable, Iterator
from datetime import datetime

from ..entities import Candidate, Intent, Kind, Scope, Turn
from . import _rules_facts as F
from . import lexicon as L
from ._rulebase import (
    CJK,
    CORRECTION_RE,
    CUT_ZH,
    HYPOTHETICAL_RE,
    IMPLICIT_CUE_RE,
    JOKE_RE,
    LAUGH_RE,
    PERMANENT_RE,
    QUOTED_RE,
    RETRACT_RE,
    Clause,
    Hit,
    Sentence,
    alt,
    cand,
    clauses,
    first_person,
    h_address,
    h_correction,
    h_note,
    h_rule,
    has_explicit_marker,
    is_self_question,
    neg_before,
    normalize_text,
    ok_topic,
    phrase,
    scope_of,
    sentences,
    third_party,
)
from ._rules_packs import h_birthday, h_move, h_rows
from .dates import parse_until
from .lexicon import parse_number, slugify

__all__ = ["RuleExtractor"]

logger = logging.getLogger(__name__)

_I = re.IGNORECASE
#: The most candidates one turn yields: a turn that states more facts than this is a paste,
#: and its later sentences are not read (the turn itself is kept as an episode).
MAX_CANDIDATES = 64


class RuleExtractor:
    """Offline English/Chinese rule extractor implementing the ``Extractor`` protocol.

    Example:
        >>> from datetime import datetime, UTC
        >>> from shared_core.entities import Turn
        >>> turn = Turn(user_id="u", text="I only accept SMS notifications, never call me.",
        ...             session_id="s", turn_id="t", at=datetime(2026, 4, 15, tzinfo=UTC))
        >>> [(c.key, c.normalized) for c in RuleExtractor().extract(turn)]
        [('contact.channel', 'sms'), ('contact.call', 'never')]
    """

    name = "rules"

    def __init__(self, *, roles: frozenset[str] = frozenset({"user", "tool"})) -> None:
        """Create the extractor.

        Args:
            roles: turn roles to extract from; every other role yields ``[]``.
        """
        self._roles = roles

    def extract(self, turn: Turn) -> list[Candidate]:
        """Extract memory candidates from one turn.

        Args:
            turn: the turn; only ``text``, ``role`` and ``at`` are read.

        Returns:
            The candidates in order of appearance (deduplicated); ``[]`` for other roles
            or when nothing is found. Never raises on odd text.
        """
        if turn.role not in self._roles or not turn.text or not turn.text.strip():
            return []
        try:
            return self._extract(turn.text, turn.at)
        except Exception:  # a bug must not break the conversation; log and degrade
            logger.exception("rule extractor failed on a turn of %d chars", len(turn.text))
            return []

    def _extract(self, raw: str, at: datetime) -> list[Candidate]:
        text = normalize_text(raw)
        joke = JOKE_RE.search(text) is not None
        laugh = LAUGH_RE.search(text) is not None
        retraction = RETRACT_RE.search(text) is not None
        marker = has_explicit_marker(text)
        out: list[Candidate] = []
        correcting = False
        for sent_text in sentences(text):
            correcting = correcting or CORRECTION_RE.search(sent_text) is not None
            sent = Sentence(
                text=sent_text,
                question=is_self_question(sent_text),
                hypothetical=HYPOTHETICAL_RE.search(sent_text) is not None,
                correction=correcting,
                implicit_cue=IMPLICIT_CUE_RE.search(sent_text) is not None,
                scope=scope_of(sent_text),
                valid_until=parse_until(sent_text, at),
            )
            quoted = QUOTED_RE.search(sent_text) is not None
            for clause, hit in self._sentence_hits(sent, at):
                c = _finish(hit, clause, sent, marker=marker, joke=joke or laugh)
                if quoted:
                    c = dataclasses.replace(c, signals=c.signals | {"quoted"})
                out.append(c)
            if len(out) >= MAX_CANDIDATES:
                logger.info("turn capped at %d memory candidates", MAX_CANDIDATES)
                break
        out = _dedupe(out)
        if retraction:
            out.append(
                Candidate(
                    kind=Kind.FACT,
                    key="",
                    intent=Intent.RETRACT,
                    signals=frozenset({"retraction", "joke"} if joke else {"retraction"}),
                    span=text.strip()[:200],
                )
            )
        elif joke and not out:
            out.append(
                Candidate(
                    kind=Kind.FACT,
                    key="",
                    intent=Intent.RETRACT,
                    signals=frozenset({"joke", "retraction"}),
                    span=text.strip()[:200],
                )
            )
        return out

    def _sentence_hits(self, sent: Sentence, at: datetime) -> Iterator[tuple[Clause, Candidate]]:
        whole = Clause(
            sent.text,
            0,
            sent,
            PERMANENT_RE.search(sent.text) is not None,
            third_party(sent.text),
            at,
        )
        consumed: list[tuple[int, int]] = []
        for _start, _end, c in _claim(whole, _SENTENCE_HANDLERS, consumed):
            yield whole, c
        # a handler whose hint is nowhere in the sentence is not tried on its clauses
        low = sent.text.lower()
        active = tuple(e for e in _CLAUSE_HANDLERS if _hint_matches(e[1], low))
        for ctext, cstart in clauses(sent.text):
            if _overlaps(cstart, cstart + len(ctext), consumed):
                continue
            clause = Clause(
                ctext,
                cstart,
                sent,
                PERMANENT_RE.search(ctext) is not None,
                third_party(ctext) or (whole.third_party and not first_person(ctext)),
                at,
            )
            used: list[tuple[int, int]] = []
            for _start, _end, c in _claim(clause, active, used):
                yield clause, c
            if not used:
                for _s, _e, c in h_rule(clause):
                    used.append((_s, _e))
                    yield clause, c
            if not used:
                for _s, _e, c in h_note(clause):
                    yield clause, c


def _overlaps(start: int, end: int, spans: list[tuple[int, int]]) -> bool:
    return any(start < e and s < end for s, e in spans)


def _finish(c: Candidate, clause: Clause, sent: Sentence, *, marker: bool, joke: bool) -> Candidate:
    signals = set(c.signals)
    interest = c.key.startswith("interest.")
    if marker:
        signals.add("explicit_marker")
    if sent.question and not interest:
        signals.add("question")
    if sent.hypothetical:
        signals.add("hypothetical")
    if clause.third_party and not c.key.startswith("family."):
        signals.add("third_party")
    if joke:
        signals.add("joke")
    explicit = c.explicit or ((marker or clause.permanent) and not interest)
    correction = sent.correction and not interest and c.intent is Intent.ASSERT
    return dataclasses.replace(
        c,
        explicit=explicit or correction,
        correction=correction or c.correction,
        permanent=c.permanent or (clause.permanent and c.kind is Kind.CONSTRAINT),
        scope=sent.scope if c.scope is Scope.GLOBAL else c.scope,
        valid_until=c.valid_until or sent.valid_until,
        span=sent.text.strip()[:500],
        signals=frozenset(signals),
        extractor="rules",
    )


def _dedupe(cands: list[Candidate]) -> list[Candidate]:
    seen: set[tuple[str, str, str]] = set()
    out: list[Candidate] = []
    for c in cands:
        k = (c.intent.value, c.key, c.normalized)
        if k not in seen:
            seen.add(k)
            out.append(c)
    return out


# ---- forget requests ------------------------------------------------------------------
_FORGET_EN = re.compile(
    r"\b(?:forget|delete|remove|erase|clear|wipe|drop)\s+(?:about\s+)?(?:everything\s+(?:about|on)\s+"
    r"|all\s+(?:about\s+)?|any\s+(?:info\s+)?(?:about\s+)?)?(?:(?P<that>that|the\s+fact\s+that)\s+"
    r"(?P<clause>.{3,200})|my\s+(?P<obj>[^,.;!?]{2,40}))",
    _I,
)
_FORGET_ZH = re.compile(
    r"(?:别记|不要记|忘掉|忘记|忘了|删除|删掉|删了|清除|去掉|清空)(?:关于)?(?:掉)?(?P<me>我的?)(?P<obj>[^，,。.!?！？；;]{1,20})"
)


def _forget_key(obj: str) -> str | None:
    t = phrase(obj, 4).lower().rstrip("s") if obj.isascii() else CUT_ZH.sub("", obj.strip())
    for k in (t, t + "s", phrase(obj, 4).lower()):
        if k in L.FORGET_TOPICS:
            return L.FORGET_TOPICS[k]
    return None


_KIND_OF_PREFIX = {
    "contact": Kind.PREFERENCE,
    "diet": Kind.PREFERENCE,
    "budget": Kind.PREFERENCE,
    "language": Kind.PREFERENCE,
    "seat": Kind.PREFERENCE,
    "interest": Kind.PREFERENCE,
    "taste": Kind.PREFERENCE,
    "family": Kind.RELATIONSHIP,
    "device": Kind.RELATIONSHIP,
    "rule": Kind.CONSTRAINT,
    "recommend": Kind.CONSTRAINT,
}


def _forget(c: Candidate, value: str | None = None) -> Candidate:
    return dataclasses.replace(
        c, intent=Intent.FORGET, explicit=True, value=c.value if value is None else value
    )


def _h_forget(cl: Clause) -> Iterator[Hit]:
    for m in _FORGET_EN.finditer(cl.text):
        if m.group("clause"):
            sub = Clause(m.group("clause"), 0, cl.sentence, False, False, cl.at)
            for _s, _e, c in _run(sub):
                if c.intent is Intent.ASSERT:
                    yield m.start(), m.end(), _forget(c)
        elif m.group("obj") and (key := _forget_key(m.group("obj"))):
            kind = _KIND_OF_PREFIX.get(key.split(".")[0], Kind.FACT)
            yield m.start(), m.end(), cand(kind, key, "", explicit=True, intent=Intent.FORGET)
    for m in _FORGET_ZH.finditer(cl.text):
        if key := _forget_key(m.group("obj")):
            kind = _KIND_OF_PREFIX.get(key.split(".")[0], Kind.FACT)
            yield m.start(), m.end(), cand(kind, key, "", explicit=True, intent=Intent.FORGET)
        else:
            sub = Clause("我" + m.group("obj"), 0, cl.sentence, False, False, cl.at)
            for _s, _e, c in _run(sub):
                if c.intent is Intent.ASSERT:
                    yield m.start(), m.end(), _forget(c)


# ---- contact ---------------------------------------------------------------------------
_CH_EN = alt(k for k in L.CHANNELS if k.isascii())
_CH_ZH = "(?:" + alt(k for k in L.CHANNELS if not k.isascii()) + ")(?!支付)"
_QUIET_EN = re.compile(
    r"\b(?:don't|do\s+not|dont|never|no|please\s+don't|stop)\s+(?:ever\s+)?(?:contact(?:ing)?|call(?:ing|s)?"
    r"|text(?:ing|s)?|messag(?:e|ing|es)|email(?:ing|s)?|notif(?:y|ications?)|disturb(?:ing)?"
    r"|bother(?:ing)?|ping(?:ing)?)\s+(?:me\s+)?(?P<dir>after|past|before)\s+(?P<h>\d{1,2})"
    r"(?::(?P<mi>\d{2}))?\s*(?P<ap>[ap]\.?m\.?)?"
    r"|\bquiet\s+hours\s+(?:are\s+|is\s+|:\s*|start\s+at\s+)?(?P<dir2>after|from)?\s*(?P<h2>\d{1,2})"
    r"(?::(?P<mi2>\d{2}))?\s*(?P<ap2>[ap]\.?m\.?)?",
    _I,
)
_ZH_HOUR = r"(?P<h>\d{1,2}|[一二两三四五六七八九十]{1,3})"
_QUIET_ZH = re.compile(
    r"(?P<pre>晚上|夜里|夜间|下午|傍晚|早上|上午|凌晨|中午)?\s*"
    + _ZH_HOUR
    + r"\s*(?:点|:00)(?P<half>半)?\s*"
    r"(?P<dir>以后|之后|后|以前|之前|前)\s*(?:就)?(?:请)?(?:千万)?(?:别|不要|不准|勿|请勿)(?:再)?(?:给我)?"
    r"(?:联系|打扰|打电话|发消息|发信息|发短信|发通知|通知|打|发)"
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
    r"\bquiet\b|\b(?:don't|do\s+not|dont|never|no)\b|\bdisturb|\bsleep|\boffline\b|\bsilent\b"
    r"|打扰|联系|通知|消息|电话|发|免打扰|睡觉",
    _I,
)
_T = r"(?P<h{n}>\d{{1,2}}|midnight|noon)(?::(?P<m{n}>\d{{2}}))?\s*(?P<a{n}>[ap]\.?m\.?)?"
_NAMED_HOURS = {"midnight": (12, "am"), "noon": (12, "pm")}
_QUIET_RANGE_EN = re.compile(
    r"(?:\bfrom\s+|\bbetween\s+|\bare\s+|\bis\s+|:\s*)?(?<![\d.,$€£¥])"
    + _T.format(n=1)
    + r"\s*(?:to|until|till|and|-|–)\s*"
    + _T.format(n=2)
    + r"(?![\d%])",
    _I,
)
_ZH_H = r"(?P<h{n}>\d{{1,2}}|[一二两三四五六七八九十]{{1,3}})\s*(?:点|:00|：00)(?P<half{n}>半)?"
_QUIET_RANGE_ZH = re.compile(
    r"(?P<pre1>晚上|夜里|夜间|下午|傍晚|中午|早上|上午|凌晨)?\s*"
    + _ZH_H.format(n=1)
    + r"\s*(?:到|至|-|~|～)\s*(?:第二天|次日|明天|明早)?"
    + r"(?P<pre2>早上|上午|凌晨|早晨|中午|下午|晚上)?\s*"
    + _ZH_H.format(n=2)
)
_ZH_UNTIL = re.compile(
    r"(?:早上|上午|第二天|次日|明早|早晨)\s*"
    + _ZH_H.format(n=2)
    + r"\s*(?:以后|之后)?(?:再说|再发|再联系|再通知|才可以|可以)"
)


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
        if not (a1 or a2 or (g["m1"] and g["m2"])):
            continue  # "500 to 800" is not a time range
        h1 = named1[0] if named1 else int(g["h1"])
        h2 = named2[0] if named2 else int(g["h2"])
        if h1 > 24 or h2 > 24:
            continue
        if a1 is None and a2 is not None:
            # "10 to 7am": the start is the evening before
            a1 = "pm" if a2.lower().startswith("a") and h1 > h2 else a2
        t1, t2 = _ampm(h1, int(g["m1"] or 0), a1), _ampm(h2, int(g["m2"] or 0), a2)
        value = f"{t1[0]:02d}:{t1[1]:02d}-{t2[0]:02d}:{t2[1]:02d}"
        yield m.start(), m.end(), cand(Kind.CONSTRAINT, "contact.quiet_hours", value, hard=True)
    for m in _QUIET_RANGE_ZH.finditer(cl.text):
        z1, z2 = parse_number(m.group("h1")), parse_number(m.group("h2"))
        if z1 is None or z2 is None or z1 > 24 or z2 > 24:
            continue
        pre1 = m.group("pre1") or ""
        pm1 = pre1 in ("晚上", "夜里", "夜间", "下午", "傍晚") or (not pre1 and z1 > z2 and z1 < 12)
        pm2 = (m.group("pre2") or "") in ("下午", "晚上")
        s1 = (z1 + 12 if pm1 and z1 < 12 else z1) % 24
        s2 = (z2 + 12 if pm2 and z2 < 12 else z2) % 24
        mi1, mi2 = (30 if m.group(h) else 0 for h in ("half1", "half2"))
        value = f"{s1:02d}:{mi1:02d}-{s2:02d}:{mi2:02d}"
        yield m.start(), m.end(), cand(Kind.CONSTRAINT, "contact.quiet_hours", value, hard=True)


def _h_quiet(cl: Clause) -> Iterator[Hit]:
    ranged = list(_h_quiet_range(cl))
    yield from ranged
    if ranged:
        return
    for m in _QUIET_EN.finditer(cl.text):
        h = int(m.group("h") or m.group("h2"))
        mi = int(m.group("mi") or m.group("mi2") or 0)
        ap = (m.group("ap") or m.group("ap2") or "").lower()
        direction = (
            (m.group("dir") or "after").lower().replace("past", "after").replace("from", "after")
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


_NAME_CALL = re.compile(r"\b[Cc]all\s+me\s+(?P<n>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)")
_NAME_EN = re.compile(
    r"\b(?:my\s+(?:full\s+)?name\s+is|my\s+name's|i(?:'m|\s+am)\s+called|the\s+name's)\s+"
    r"(?P<n>[^\W\d_][\w'-]*(?:\s+[^\W\d_][\w'-]*){0,2})",
    _I,
)
_NAME_IM = re.compile(
    r"^\W*(?:(?:[Hh]i|[Hh]ello|[Hh]ey)\W+)?[Ii](?:'m|\s+am)\s+(?P<n>[A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+)?)"
    r"\s*(?:here|by\s+the\s+way)?(?:\s+(?:from|and\s+[Ii]|and\s+my)\b.*)?\W*$"
)
_NAME_ZH = re.compile(
    r"我(?:的名字|名字)?(?:叫|是)(?P<pre>做)?(?P<n>[" + CJK + r"]{2,4}|[A-Za-z][A-Za-z ]{0,20})"
)
#: "我是张伟" as a whole clause (optionally after a greeting): a self-introduction when the
#: two or three characters start with a common surname and are not a job/role word.
_NAME_ZH_IS = re.compile(
    r"^\W*(?:(?:你好|您好|嗨|哈喽|大家好)\W*)?我是(?P<n>[" + CJK + r"]{2,3})(?:啊|呀|哦)?\W*$"
)
_NAME_ZH_PREF = re.compile(
    r"叫我(?P<n>[" + CJK + r"A-Za-z]{1,6}?)(?:就行|就好|就可以|吧|$|[，,。.!！])"
)
_NAME_CUT_ZH = re.compile(r"(?:我|是|在|今|住|了|呢|啊|吧|的|来|从|和|，).*$")
_NAME_WORD_CUT = re.compile(r"\s+(?:and|but|from|i|by|here|please|so|nice)\b.*$", _I)


def _h_name(cl: Clause) -> Iterator[Hit]:
    t = cl.text
    for m in _NAME_CALL.finditer(t):
        n = m.group("n").split()
        if n[0].lower() in L.NAME_STOP or neg_before(t, m.start()):
            continue
        yield m.start(), m.end(), cand(Kind.FACT, "name.preferred", " ".join(n))
    if me := _NAME_EN.search(t):
        name = _NAME_WORD_CUT.sub("", me.group("n")).strip()
        if name and name.split()[0].lower() not in L.NAME_STOP:
            yield me.start(), me.end(), cand(Kind.FACT, "name", name)
    if mi := _NAME_IM.search(t):
        words = mi.group("n").split()
        if all(w.lower() not in L.NAME_STOP and L.lookup(L.LANGUAGES, w) is None for w in words):
            yield mi.start("n"), mi.end("n"), cand(Kind.FACT, "name", mi.group("n"))
    mz = _NAME_ZH.search(t)
    if mz and not mz.group("pre") and "叫" in t[mz.start() : mz.start("n")]:
        raw = mz.group("n")
        name = raw if raw.isascii() else _NAME_CUT_ZH.sub("", raw)
        if len(name.strip()) >= 2 and not name.startswith(("了", "过")):
            yield mz.start(), mz.end(), cand(Kind.FACT, "name", name.strip())
    if (mis := _NAME_ZH_IS.search(t)) and _zh_self_intro(mis.group("n")):
        yield mis.start("n"), mis.end("n"), cand(Kind.FACT, "name", mis.group("n"))
    if mp := _NAME_ZH_PREF.search(t):
        yield mp.start(), mp.end(), cand(Kind.FACT, "name.preferred", mp.group("n"))


def _zh_self_intro(name: str) -> bool:
    """Whether "我是<name>" introduces a person ("张伟"), not a role ("护士", "新来的")."""
    return (
        name[0] in L.ZH_SURNAMES
        and not name.endswith(L.ZH_JOB_SUFFIXES)
        and not name.endswith(("人", "的", "了", "者", "生", "员", "家", "族"))
        and name not in L.ZH_NOT_NAMES
    )


_EMERGENCY = re.compile(r"emergenc|urgent|紧急|急事|急情", _I)
_CALL_NEG_EN = re.compile(
    r"\b(?:never|don't|do\s+not|dont|stop|no\s+need\s+to)\s+(?:ever\s+)?(?:again\s+)?(?:call|phone|ring)"
    r"(?:ing)?\s+me\b|\bno\s+(?:more\s+)?(?:phone\s+)?calls\b|\bi\s+(?:don't|do\s+not|never)\s+"
    r"(?:take|answer|pick\s+up|want|accept)\s+(?:any\s+)?(?:phone\s+)?calls\b",
    _I,
)
_CALL_POS_EN = re.compile(
    r"\b(?:you\s+(?:can|may|could)|feel\s+free\s+to|it's\s+(?:ok|okay|fine)\s+to|go\s+ahead\s+and"
    r"|please|just)\s+(?:also\s+)?(?:call|phone|ring)\s+me\b|\bcall(?:ing)?\s+(?:me\s+)?is\s+"
    r"(?:ok|okay|fine|allowed)\b|\bcalls\s+are\s+(?:ok|okay|fine|allowed)\b",
    _I,
)
_CALL_NEG_ZH = re.compile(
    r"(?:不要|别|不准|不许|不用|别再|不要再|请勿|勿)(?:再)?(?:给我|跟我|和我)?(?:打电话|打我电话|来电|电话联系|call我)"
    r"|不要打电话给我|别打电话给我|不接电话"
)
_CALL_POS_ZH = re.compile(
    r"(?:可以|能|允许)(?:给我)?打(?:我)?电话|打电话(?:也行|也可以|没问题|可以)"
)


#: Standing rules about oneself ("I don't take phone calls", "no phone calls", "我不接电话")
#: are permanent; a request ("don't call me", "不要给我打电话") is hard but a later plain
#: "you can call me" replaces it without a confirmation question.
_CALL_STANDING = re.compile(r"\bcalls\b|不接电话", _I)


def _h_call(cl: Clause) -> Iterator[Hit]:
    t = cl.text
    emergency = _EMERGENCY.search(cl.sentence.text) is not None
    for rx in (_CALL_NEG_EN, _CALL_NEG_ZH):
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
            r"\b(?P<ch>" + _CH_EN + r")\s+(?:only\b|is\s+(?:best|better|preferred|fine|the\s+best"
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
    (re.compile(r"\b(?P<ch>text|sms|email|e-mail|whatsapp|wechat|telegram)\s+me\b", _I), False),
    (
        re.compile(
            r"\bsend\s+(?:it|them|this|that|the\s+[\w-]+|me\s+(?:the\s+)?[\w-]+)?\s*(?:to\s+my|by"
            r"|via|over|as\s+an?)\s+(?P<ch>email|e-mail|sms|text|whatsapp|wechat|telegram)\b",
            _I,
        ),
        False,
    ),
    (re.compile(r"只(?:接受|要|用|收|看)(?P<ch>" + _CH_ZH + r")"), True),
    (re.compile(r"(?:喜欢|偏好|习惯|倾向于?|首选)(?:用|通过)?(?P<ch>" + _CH_ZH + r")"), True),
    (re.compile(r"(?P<ch>" + _CH_ZH + r")(?:最好|就行|就好|比较好|优先)"), True),
    (re.compile(r"(?:请)?(?:用|通过)(?P<ch>" + _CH_ZH + r")(?:通知|联系)我"), True),
    (re.compile(r"(?:用|通过|发)(?P<ch>" + _CH_ZH + r")(?:通知|联系|告诉|发给|给)我"), False),
    (re.compile(r"给我发(?P<ch>" + _CH_ZH + r")"), False),
    (re.compile(r"(?P<ch>" + _CH_ZH + r")(?:联系|通知)我(?=就行|就好|最好|吧)"), True),
    (re.compile(r"(?P<ch>" + _CH_ZH + r")(?:联系|通知)我"), False),
)


def _h_channel(cl: Clause) -> Iterator[Hit]:
    t = cl.text
    for rx, explicit in _CHANNEL_RX:
        for m in rx.finditer(t):
            if neg_before(t, m.start()):
                continue
            canon = L.CHANNELS.get(m.group("ch").lower())
            if canon is None:
                continue
            exp = explicit and not cl.sentence.implicit_cue
            c = cand(
                Kind.PREFERENCE, "contact.channel", m.group("ch"), normalized=canon, explicit=exp
            )
            yield m.start(), m.end(), c


_RECO_EN = re.compile(
    r"\b(?:never|don't|do\s+not|dont|stop|no\s+more)\s+(?:ever\s+)?(?:again\s+)?(?:recommend|suggest|offer"
    r"|pitch|push|sell|promote|advertise|send)(?:ing)?\s+(?:me\s+)?(?:any\s+)?(?P<t>[^,.;!?]{2,60})",
    _I,
)
_RECO_ZH = re.compile(
    r"(?:不要|别|不用|别再|不要再|不准|请勿|勿)(?:再)?(?:给我|向我|跟我|对我|和我)?(?:推荐|推销|推|介绍)"
    r"(?:任何)?(?P<t>[^，,。.!?！？；;]{1,16})"
)


def _h_recommend(cl: Clause) -> Iterator[Hit]:
    for rx in (_RECO_EN, _RECO_ZH):
        for m in rx.finditer(cl.text):
            topic = phrase(m.group("t"), 4)
            if ok_topic(topic):
                key = "recommend." + slugify(topic)
                c = cand(Kind.CONSTRAINT, key, "never", normalized="never", hard=True)
                yield m.start(), m.end(), c


# ---- registry ---------------------------------------------------------------------------
_Handler = Callable[[Clause], Iterator[Hit]]
_Entry = tuple[_Handler, tuple[str, ...] | None]
_SENTENCE_HANDLERS: tuple[_Entry, ...] = (
    (h_correction, ("not", "isn't", "wasn't", "no", "不是", "不对", "错了", "更正", "纠正")),
    (h_address, ("address", "地址", "住址")),
    (h_move, ("mov", "relocat", "left", "搬", "based", "live", "living", "located", "resid")),
)
_CLAUSE_HANDLERS: tuple[_Entry, ...] = (
    (
        _h_forget,
        (
            "forget",
            "delete",
            "remove",
            "erase",
            "clear",
            "wipe",
            "drop",
            "记",
            "忘",
            "删",
            "清除",
            "去掉",
            "清空",
        ),
    ),
    (
        _h_quiet,
        (
            "after",
            "past",
            "before",
            "quiet",
            "点",
            " to ",
            "until",
            "till",
            "between",
            "-",
            "–",
            "and",
        ),
    ),
    (h_birthday, ("born", "birthday", "b-day", "bday", "生日", "出生")),
    (_h_name, ("name", "call", "i'm", "am", "叫", "名字", "我是")),
    (_h_call, ("call", "phone", "ring", "电话", "来电")),
    (_h_channel, tuple(L.CHANNELS)),
    (
        _h_recommend,
        (
            "recommend",
            "suggest",
            "offer",
            "pitch",
            "push",
            "sell",
            "promot",
            "advertis",
            "send",
            "推",
            "介绍",
        ),
    ),
    (h_rows, None),
    *F.CLAUSE_HANDLERS,
)


_HINT_RES: dict[tuple[str, ...], re.Pattern[str]] = {}


def _hint_matches(hint: tuple[str, ...] | None, low: str) -> bool:
    """Whether a lowercased text contains one of ``hint``'s substrings (``None``: always)."""
    if hint is None:
        return True
    rx = _HINT_RES.get(hint)
    if rx is None:
        rx = _HINT_RES[hint] = re.compile(alt(hint))
    return rx.search(low) is not None


def _claim(
    clause: Clause, handlers: tuple[_Entry, ...], used: list[tuple[int, int]]
) -> Iterator[Hit]:
    """Run ``handlers`` in order; a hit overlapping a span claimed by an earlier handler is
    dropped (one handler may yield several candidates for one span). A handler whose hint
    does not match the clause is skipped without running its patterns. A handler that
    fails is logged and skipped: one bad rule never costs the turn its other candidates."""
    low = clause.text.lower()
    for handler, hint in handlers:
        if not _hint_matches(hint, low):
            continue
        mine: list[tuple[int, int]] = []
        try:
            for start, end, c in handler(clause):
                if not _overlaps(start, end, used):
                    mine.append((start, end))
                    yield start, end, c
        except Exception:  # a bug in one rule must not drop the turn's other candidates
            logger.exception("rule %s failed on a clause of %d chars", handler.__name__, len(low))
        used.extend(mine)


def _run(clause: Clause) -> Iterator[Hit]:
    """Run the clause handlers except "forget" on ``clause`` (for "forget that I ...")."""
    yield from _claim(clause, tuple(e for e in _CLAUSE_HANDLERS if e[0] is not _h_forget), [])
