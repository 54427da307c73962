"""Rule handlers for amounts and places: budgets (bounds, ranges, currencies, Chinese
numerals) and where the user lives (city, country, address words). Private to
:mod:`shared_core.ingest`; registered by :mod:`shared_core.ingest._rules_facts`.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Iterator

from .. import taxonomy
from ..entities import Candidate, Kind
from ..errors import InvalidInputError
from . import lexicon as L
from ._rulebase import ANYMORE as _ANYMORE
from ._rulebase import CJK, CUT_ZH, NOT_END, Clause, Hit, cand
from ._rulebase import negate as _negate
from ._rules_packs import MAYBE
from .lexicon import parse_number

__all__ = ["h_budget", "h_location"]

_I = re.IGNORECASE


# ---- budget ----------------------------------------------------------------------------
_NOT_UNIT = (
    r"(?!\s{0,3}(?:hours?|hrs?|days?|weeks?|months?|years?|minutes?|mins?|seconds?|km|kilometers?|miles?"
    r"|kg|lbs?|pounds?\s+of|people|persons?|guests?|times|percent|%|pm|am|o'clock|:\d|x\b"
    # a length of text is no amount: "回答不超过200字", "最多三页", "under 300 words"
    r"|words?\b|characters?\b|chars?\b|pages?\b|lines?\b|paragraphs?\b"
    r"|天|个|次|小时|分钟|年|岁|人|公里|斤|点|%|周|月|号|字|词|页|行|段|篇|句))"
)


def _amt(name: str) -> str:
    # An amount starts only where a digit run starts ((?<![\d.,])) and its runs are
    # possessive, so a wall of digits is scanned once per pattern, not once per position.
    number = (
        r"(?:(?:₹|\b(?:usd|eur|gbp|aud|cad|nzd|sgd|chf|inr|rs\.?))\s?)?"
        r"[$€£¥￥]?\s?(?<![\d.,])(?:\d{1,3}(?:\s\d{3})++(?![\d,])|\d[\d,]*+)(?:\.\d++)?"
        r"\s?(?:(?:万|千)(?:[一二两三四五六七八九](?![十百千万])|\d(?![\d.,万千]))?|[kKw](?![a-zA-Z])|thousand|grand|million"
        r"|lakhs?\b|lacs?\b|crores?\b)?"
        r"(?:\s?(?:dollars|usd|eur|euros|rmb|yuan|bucks|quid|pounds|gbp|aud|cad|nzd|chf|sgd|inr|jpy"
        r"|元|块钱?|美元|美金|欧元|欧(?![洲美])|英镑|日元)(?![a-z]))?"
        r"|(?<![零一二两三四五六七八九十百千万亿])[零一二两三四五六七八九十百千万亿]{1,8}+"
        r"(?:元|块钱?|美元|美金|欧元|欧(?![洲美])|英镑|日元)?"
        r"|\b(?:(?:a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|fifty)[\s-]+)+(?:and\s+a\s+half\s+)?(?:hundred|thousand|grand)\b"
        r"(?:\s?(?:dollars|usd|euros|bucks|pounds|quid))?"
        # "fifty pounds", "sixty-five bucks": a bare word number needs its currency
        r"|\b(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)"
        r"(?:[\s-](?:one|two|three|four|five|six|seven|eight|nine))?\s(?:dollars|euros|bucks|pounds|quid)\b"
    )
    return f"(?P<{name}>{number}){_NOT_UNIT}"


_AMT = _amt("amt")
_RANGE = re.compile(
    r"(?:between\s+|from\s+|在)?"
    + _amt("lo")
    + r"\s*(?:-|–|~|to|and|到|至)\s*"
    + _amt("hi")
    + r"(?:\s*(?:之间|左右))?",
    _I,
)
_BUDGET_RX = (
    re.compile(
        # "budget for furniture is about £1,500": what the budget is for may come between
        r"\b(?:my\s+|the\s+|our\s+)?budget(?:\s+for\s+(?:the\s+|a\s+|an\s+|my\s+|our\s+)?[a-z]+(?:\s+[a-z]+)?(?=\s+is\b|'s\b|\s*:))?"
        r"(?:'s)?\s*(?:is\s+|of\s+|:\s*|=\s*|would\s+be\s+|will\s+be\s+|'s\s+)?"
        r"(?P<q>around\s+|about\s+|roughly\s+|approximately\s+|like\s+|up\s+to\s+|max\s+|maximum\s+|under\s+"
        r"|at\s+most\s+|at\s+least\s+)?" + _AMT,
        _I,
    ),
    re.compile(
        r"预算(?:是|为|大概|大约|在|有|:|：|改成|改为|调到|调整为|换成|变成|卡在|定在|压在|就|只有|也就|顶多){0,3}\s*"
        r"(?P<q>大概|大约|差不多|不超过|最多|控制在|至少)?\s*" + _AMT
    ),
    re.compile(
        r"\b(?P<q>at\s+most|no\s+more\s+than|not\s+more\s+than|up\s+to|a\s+maximum\s+of|maximum(?:\s+of)?"
        r"|max|under|below|less\s+than|not\s+over|nothing\s+(?:over|above|more\s+than)|tops"
        r"|not\s+(?:to\s+)?(?:go|going)\s+(?:over|above)|not\s+(?:to\s+)?exceed|not\s+(?:to\s+)?spend\s+more\s+than"
        r"|(?:don't|dont|do\s+not)\s+want\s+to\s+(?:go|spend)\s+(?:over|above|more\s+than)"
        # "can't go over 800 bucks", "I won't pay more than 50", "can't spend above 2k"
        r"|(?:can't|cant|cannot|can\s+not|won't|wont|will\s+not|shouldn't)\s+(?:go|spend|pay|afford)"
        r"\s+(?:(?:a\s+(?:penny|cent)|anything)\s+)?(?:over|above|more\s+than|beyond)"
        r"|at\s+least|no\s+less\s+than|a\s+minimum\s+of"
        r"|minimum(?:\s+of)?|min)\s+" + _AMT,
        _I,
    ),
    re.compile(
        r"(?P<q>最多|最高|不超过|不要超过|别超过|不会超过|不能超过|不想超过|至多|顶多|上限|至少|最少|不低于|起码)\s*"
        # "上限是六千块", "最少也得三千"
        r"(?:是|就是|为|也得|也要|得|要)?(?:能|可以|只能)?(?:花|用|出|付|掏)?\s*" + _AMT
    ),
    re.compile(_AMT + r"\s*(?P<q>以内|以下|之内)"),
    # 5: "my limit is $250", "spending cap of 800"
    re.compile(
        r"\b(?:my\s+|the\s+)?(?:spending\s+|price\s+)?(?:limit|cap|ceiling|max(?:imum)?\s+price)"
        r"(?:'s)?\s*(?:is\s+|of\s+|:\s*|=\s*)(?P<q>around\s+|about\s+|roughly\s+)?" + _AMT,
        _I,
    ),
    # 6: "500 bucks max", "400 tops" (with a currency, or in a sentence about the budget)
    re.compile(_AMT + r"\s*(?P<q>max|maximum|tops|at\s+(?:the\s+)?most|or\s+less)\b", _I),
    # 8: the amount alone in a clause of a budget sentence ("budget: 3k", "预算：三千")
    re.compile(
        r"^\W*(?P<q>around\s+|about\s+|roughly\s+|max\s+|up\s+to\s+|under\s+|大概|大约|差不多)?\s*"
        # "on a tight budget, like 30 quid a week for food": hedged, per week, for a purpose
        r"(?:(?<![\w\s])\s*(?:like|maybe|just|only)\s+)?"
        + _AMT
        + r"\s*(?:左右|上下)?(?:\s+(?:a|per)\s+(?:week|month|day|night|year)"
        r"|\s+(?:weekly|monthly))?(?:\s+for\s+[a-z]+(?:\s+[a-z]+)?)?\W*$",
        _I,
    ),
    re.compile(
        r"\b(?:spend|pay|afford)\s+(?P<q>up\s+to\s+|at\s+most\s+|about\s+|around\s+|at\s+least\s+|more\s+than\s+|over\s+)?"
        + _AMT,
        _I,
    ),
    # "anything over 1k is too much for me"
    re.compile(
        r"\b(?:anything|something)\s+(?P<q>over|above|more\s+than)\s+"
        + _AMT
        + r"\s+(?:is|would\s+be|'s)\s+(?:too\s+(?:much|expensive|pricey|steep)|out"
        r"|off\s+the\s+table|a\s+no)\b",
        _I,
    ),
    # "somewhere around £1,000 would be ideal", "$800 is my limit"
    re.compile(
        r"(?:\bsomewhere\s+|\b)(?P<q>around\s+|about\s+|roughly\s+|up\s+to\s+|under\s+)?"
        + _AMT
        + r"\s+(?:would\s+be\s+(?:ideal|perfect|great|good|fine|my\s+limit|the\s+max)"
        r"|is\s+(?:my\s+(?:limit|max|ceiling|cap|upper\s+limit)|ideal|the\s+max)"
        # "2k is the absolute ceiling for me", "£500 is the hard limit" (round 11)
        r"|is\s+(?:the|my)\s+(?:absolute\s+|hard\s+|total\s+|very\s+|upper\s+)?(?:ceiling|limit|cap|max|maximum)\s+(?:for\s+me|i\s+can\s+(?:do|go|spend|pay)))\b",
        _I,
    ),
    # "I've got about $300 to play with", "I have 2k for this"
    re.compile(
        r"\b(?:i(?:'ve|\s+have)?\s+got|i\s+have|we(?:'ve|\s+have)?\s+got)\s+(?P<q>about\s+|around\s+|roughly\s+|maybe\s+|up\s+to\s+|only\s+|just\s+)?"
        + _AMT
        + r"\s+(?:to\s+(?:spend|play\s+with|work\s+with|blow|put\s+towards?)"
        r"|(?:set|put)\s+aside\b|saved\s+(?:up\s+)?for\b"
        r"|for\s+(?:this|the|it|a|an|my)\b|in\s+(?:my|the)\s+budget)",
        _I,
    ),
    # a fronted amount as the limit ("五万块是我的上限", "3k封顶"); the money at hand
    # ("我手头就一千块")
    re.compile(
        _AMT + r"\s*(?:是|就是|算)?(?:我的?)?(?P<q>上限|极限|封顶|顶天|最高)"
        r"(?:了)?(?=$|[，。,.!！])"
    ),
    re.compile(
        r"(?:手头|手上|兜里|卡里)(?:就|只|只有|就剩|总共)(?:有)?\s*(?P<q>大概|大约)?" + _AMT
    ),
    # what the user will put in, with "about": "这台相机我能出1.5w左右", "人均五千上下就行"
    # (a place's price stays one: "那家店人均三百左右")
    re.compile(
        r"(?:我)?(?:能|可以|愿意|打算|准备|最多能)(?:出|花|掏)\s*(?P<q>大概|大约|差不多)?\s*"
        + _AMT
        + r"\s*(?:左右|上下)"
    ),
    re.compile(
        r"人均\s*(?P<q>大概|大约|差不多)?\s*"
        + _AMT
        + r"\s*(?:左右|上下)\s*(?:就行|就好|就可以|就够了?|最好|吧)"
    ),
    # "I've lowered my limit to 100 a month", "we raised our budget to 2k": the new limit
    re.compile(
        r"\b(?:lowered|raised|changed|dropped|upped|set|cut|reduced|increased|bumped|moved|capped)\s+"
        r"(?:up\s+|down\s+)?(?:my|our|the)\s+(?:spending\s+|monthly\s+|weekly\s+)?(?:budget|limit|cap|max)"
        r"\s+(?:up\s+|down\s+)?to\s+(?P<q>around\s+|about\s+|roughly\s+)?" + _AMT,
        _I,
    ),
    # "around 50 bucks for a birthday present": the sum put on the thing wanted, first
    re.compile(
        r"^\W*(?:(?:ok|so|and|um|hmm)\W+)?(?P<q>around\s+|about\s+|roughly\s+|up\s+to\s+|max\s+|under\s+"
        r"|no\s+more\s+than\s+|not\s+more\s+than\s+|less\s+than\s+)"
        + _AMT
        + r"\s+(?:for|on)\s+(?:a|an|the|my|our|some)\b",
        _I,
    ),
)
_AMT_MAX, _BARE_BUDGET = _BUDGET_RX[6], _BUDGET_RX[7]
_MIN_WORDS = re.compile(r"at\s+least|no\s+less|minimum|min\b|至少|最少|不低于|起码", _I)
_MONEY = re.compile(
    r"[$€£¥￥₹]|k\b|万|千|thousand|grand|million|dollars|usd|eur|euros|pounds|gbp|rupees|inr|aud|cad"
    r"|rmb|yuan|bucks|quid|元|块",
    _I,
)


_DIGITS_GO_ON = re.compile(r"\s*[-–.]\s*\d")
#: A currency named in the words: "between 500 and 800 dollars" is a budget range.
_CURRENCY = re.compile(
    r"[$€£¥￥]|\b(?:dollars|usd|eur|euros|rmb|yuan|bucks|pounds|gbp|quid)\b|元|块|美元|欧元|人民币|美金|英镑|日元|港币|台币",
    _I,
)
#: Words that make an amount the user's own limit, not a price ("it costs 500 to 800").
_WANT = re.compile(
    r"\b(?:i|i'd|i'm|i'll|me|my|ideal|ideally|would\s+be|somewhere|keep\s+it|looking)\b|我"
    r"|^\W*(?:somewhere\s+|anywhere\s+)?between\b"
    # a range put forward for something asked about: "礼物的话五百到一千块吧"
    r"|的话|(?:之间|左右|以内)\W*$|吧\W*$|(?:都|也)?(?:能|可以)接受",
    _I,
)
#: A range of round Chinese amounts beside a shopping request ("帮我看下沙发，五千到八千之间")
#: is a budget without the word 预算 ("五点到八点之间" has no 千/万 and is no amount).
_SHOPPING_ZH = re.compile(r"帮我|给我|推荐|挑|买|选|看(?:下|看|一下)")
_ROUND_ZH = re.compile(r"[千万kKw]")
#: Money already spent, just before a range: "花了两三百", "一共用了三到五千".
_SPENT_ZH = re.compile(r"(?:花|用|付|花掉|用掉)了(?:大概|差不多|大约|将近)?$")
_GROUPED_SPACE = re.compile(r"(?<=\d)\s(?=\d{3}(?!\d))")


#: ... or an amount given as a range ("in the 40-60k range") or a ceiling ("my ceiling").
#: ... or a bare amount with its ceiling word, as a correction says it ("make that 2k max").
_HAS_BUDGET = re.compile(
    r"budget|预算|spend|afford|price|花|价|\d\s*k?\s+range\b|\bceiling\b"
    # a sum per head the user accepts: "人均一万到一万五都能接受" ("那家店人均三百" is a price)
    r"|人均[^，,。]{1,16}?(?:能接受|可以接受|接受得了|就行|就好)"
    # (a count is no amount: "6 max at dinner", "I walked 400 max"; "make that 900 max" is)
    r"|(?:^|\s)(?:[$€£]\d[\d.,]*|\d[\d.,]*\s*(?:k|grand))\s+(?:max|tops|at\s+most)\b"
    r"|\bmake\s+(?:that|it)\s+(?:to\s+)?\d{3}[\d.,]*\s+(?:max|tops|at\s+most)\b",
    _I,
)


@functools.lru_cache(maxsize=64)
def _mentions_budget(sentence: str) -> bool:
    """Once per sentence, not once per clause (a sentence may have hundreds)."""
    return _HAS_BUDGET.search(sentence) is not None


#: A currency written before the number: "AUD 3000", "Rs. 25,000", "₹40,000".
_CODE_FIRST = re.compile(r"^\s*(?:₹|(?:usd|eur|gbp|aud|cad|nzd|sgd|chf|inr|rs\.?)\s?)", _I)


def _amount(text: str) -> int | str | None:
    """The amount in ``text``; the reason as a string when it is out of range."""
    try:
        return parse_number(_GROUPED_SPACE.sub("", _CODE_FIRST.sub("", text)))
    except InvalidInputError as exc:
        return str(exc)


def _invalid(key: str, raw: str, why: str) -> Candidate:
    """A candidate the gate rejects ("invalid value"): a bad value skips itself, not the
    turn. Its value shows the start of the raw text and ``why``."""
    shown = raw.strip() if len(raw.strip()) <= 40 else raw.strip()[:40] + "…"
    return cand(Kind.PREFERENCE, key, f"{shown} ({why})", normalized="", signals=("invalid_value",))


_BARE_NUMBER = re.compile(r"^\s*[$€£¥￥]?\s?\d+(?:\.\d+)?\s*$")
_SCALE_SUFFIX = re.compile(
    r"^\s*[$€£¥￥]?\s?(?P<n>\d+(?:\.\d+)?)\s?(?:k|K|w|thousand|grand|million|万|千)\b", _I
)


def _scaled_low(
    lo_raw: str, lo: int | str | None, hi_raw: str, hi: int | str | None
) -> int | str | None:
    """ "15-20k", "2 to 3 thousand": a bare low end is on the high end's scale."""
    if not isinstance(lo, int) or not isinstance(hi, int) or not _BARE_NUMBER.match(lo_raw):
        return lo
    m = _SCALE_SUFFIX.match(hi_raw)
    if m is None:
        return lo
    base, low = float(m.group("n")), float(re.sub(r"[^\d.]", "", lo_raw))
    if not base or low >= base:
        return lo
    scaled = low * hi / base
    return int(scaled) if scaled == int(scaled) else lo


_SLANG_MONEY = re.compile(r"\b(?:bucks?|quid)\b", _I)
_BELOW = re.compile(r"less\s+than|under|below", _I)
_NEGATED_BEFORE = re.compile(r"\b(?:don't|dont|do\s+not|won't|will\s+not|never|not)\b[^,.;]*$", _I)


def h_budget(cl: Clause) -> Iterator[Hit]:
    """budget.max / budget.min (normalized = plain integer). One currency named anywhere in
    the clause holds for every bound in it ("at least 1000 dollars but no more than 1500",
    "max budget 700$"): a bound said without it gets the clause's currency code."""
    hits = [
        # slang currency words get their ISO code beside them: "100 bucks" -> "100 bucks (USD)"
        (s, e, dataclasses.replace(c, value=f"{c.value} ({taxonomy.currency_of(c.value)})"))
        if c.value and _SLANG_MONEY.search(c.value) and "(" not in c.value
        else (s, e, c)
        for s, e, c in _budget_hits(cl)
    ]
    codes = {taxonomy.currency_of(v) for _, _, c in hits if (v := c.value)} - {""}
    code = taxonomy.currency_of(cl.text)
    if len(codes) > 1 or not code or (codes and codes != {code}):
        yield from hits
        return
    for s, e, c in hits:
        if c.value and not taxonomy.currency_of(c.value) and not c.signals:
            c = dataclasses.replace(c, value=f"{c.value} ({code})")
        yield s, e, c


def _budget_hits(cl: Clause) -> Iterator[Hit]:
    has_budget = _mentions_budget(cl.sentence.text)
    ranged: list[tuple[int, int]] = []
    shopping = _SHOPPING_ZH.search(cl.sentence.text) is not None
    if has_budget or shopping or (_CURRENCY.search(cl.text) and _WANT.search(cl.sentence.text)):
        for r in _RANGE.finditer(cl.text):
            sure = has_budget or (_CURRENCY.search(cl.text) and _WANT.search(cl.sentence.text))
            if not sure and _ROUND_ZH.search(r.group(0)) is None:
                continue
            if _DIGITS_GO_ON.match(cl.text, r.end()):
                continue  # "415-555-0199" is a phone number, not a range
            if _SPENT_ZH.search(cl.text, max(0, r.start() - 4), r.start()):
                continue  # "上个月花了两百到三百": money already spent sets no limit
            lo, hi = _amount(r.group("lo")), _amount(r.group("hi"))
            lo = _scaled_low(r.group("lo"), lo, r.group("hi"), hi)
            if isinstance(lo, str) or isinstance(hi, str):
                ranged.append(r.span())
                why = lo if isinstance(lo, str) else str(hi)
                yield r.start(), r.end(), _invalid("budget.max", r.group(0), why)
            elif lo is not None and hi is not None and lo < hi:
                ranged.append(r.span())
                value = r.group(0).strip()
                yield (
                    r.start(),
                    r.end(),
                    cand(Kind.PREFERENCE, "budget.min", value, normalized=str(lo)),
                )
                yield (
                    r.start(),
                    r.end(),
                    cand(Kind.PREFERENCE, "budget.max", value, normalized=str(hi)),
                )
    for i, rx in enumerate(_BUDGET_RX):
        for m in rx.finditer(cl.text):
            if any(m.start() < e and s < m.end() for s, e in ranged):
                continue
            q = m.group("q") or ""
            key = "budget.min" if _MIN_WORDS.search(q) else "budget.max"
            if _BELOW.match(q) and _NEGATED_BEFORE.search(
                cl.text[max(0, m.start() - 30) : m.start()]
            ):
                key = "budget.min"  # "I don't want to spend less than 100": a lower bound
            amount = _amount(m.group("amt"))
            if isinstance(amount, str):
                yield m.start(), m.end(), _invalid(key, q + m.group("amt"), amount)
                continue
            if amount is None or amount == 0:
                continue  # "我的预算是零" sets no limit
            if not (i in (0, 1) or has_budget or _MONEY.search(m.group("amt")) or amount >= 100):
                continue
            if rx is _BARE_BUDGET and not has_budget:
                continue  # a number alone is a budget only in a sentence about the budget
            if rx is _AMT_MAX and not (has_budget or _CURRENCY.search(m.group(0))):
                continue  # "I walked 400 max" is no budget; "500 bucks max" is
            value = m.group(0).strip() if i in (2, 3, 4, 6) else (q + m.group("amt")).strip()
            if not _CURRENCY.search(value) and (named := _CURRENCY.search(cl.sentence.text)):
                value = f"{value} {named.group(0)}"  # "预算一万二，人民币": the currency said apart
            yield m.start(), m.end(), cand(Kind.PREFERENCE, key, value, normalized=str(amount))


# ---- location ----------------------------------------------------------------------------
_LOC_EN = re.compile(
    r"\bi\s+(?P<neg>no\s+longer\s+|don't\s+|do\s+not\s+|used\s+to\s+)?(?:currently\s+|now\s+|still\s+)?"
    r"(?:live|stay|reside)s?\s+in\s+(?P<p>" + NOT_END + r"{2,60})"
    r"|\bi(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+)?(?:moved|relocated)\s+(?:back\s+)?to\s+"
    r"(?P<p2>" + NOT_END + r"{2,60})|\bi(?:'m|\s+am)\s+(?:now\s+)?(?:based|located|living)\s+in\s+"
    r"(?P<p3>"
    + NOT_END
    + r"{2,60})|\bmy\s+(?:home\s*town|city)\s+is\s+(?P<p4>"
    + NOT_END
    + r"{2,60})"
    r"|\bwhat\s+if\s+i\s+moved\s+to\s+(?P<p5>" + NOT_END + r"{2,60})"
    r"|\bi\s+(?:now\s+|currently\s+)?live\s+at\s+(?P<p6>[^;!?]{3,80})"
    r"|\bi(?:'m|\s+am)\s+(?:currently\s+|now\s+|still\s+|right\s+now\s+)?in\s+(?P<p7>"
    + NOT_END
    + r"{2,60})"
    # "here in Lagos the traffic is crazy", "over here in Leeds we ...": where the user is
    r"|(?:^\W*|\b(?:we|i)\s+|(?<=[,;]\s))(?:(?:out|over|down|up)\s+)?here\s+in\s+(?P<p8>(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)?)",
    _I,
)


def _bare_in_place(place: str) -> bool:
    """ "I'm in X": only a known city/country or a capitalised name (not an industry,
    month, timezone or "a meeting")."""
    low = place.lower()
    if low in L.CITIES or low in L.COUNTRIES:
        return True
    words = place.split()
    return (
        0 < len(words) <= 3
        and all(w[0].isupper() for w in words)
        and low not in L.INDUSTRIES
        and low not in L.LANGUAGES
        and words[0].lower() not in L.NOT_PLACE
        and not any(ch.isdigit() or ch in "/+" for ch in place)
    )


_ZH_CITY_ALT = "|".join(re.escape(c) for c in L.ZH_CITY_NAMES)
_LOC_ZH = re.compile(
    # "我从小就住在杭州", "我上学那会儿就住在成都": a time since which, then 就
    r"(?:我|本人)(?:从小|自小|打小|(?:上学|读书|念书|上大学|大学|高中|初中|小学)(?:的)?(?:时候?|那会儿?))?"
    r"(?P<neg>不再|已经不|现在不|不)?(?:就|都)?(?:现在|目前|一直|还|长期|常年|长年|多年来?)?(?:现居(?:于|在)?|现住(?:在)?"
    r"|住在|居住在|生活在|定居在|定居于|常住在|常住|定居"
    r"|住)(?!过|地址|址)(?P<p>[^，,。.!?！？；;]{1,20})"
    r"|我(?:已经|刚|最近|刚刚)?(?:搬到|搬去|搬家到|移居到?)了?(?P<p2>[^，,。.!?！？；;]{1,20})"
    r"|我(?P<neg3>已经不|不再|不)?(?:现在|目前)?(?:也|还)?在(?P<p3>["
    + CJK
    + r"]{2,6}?)(?:住|生活|定居)"
    r"|我(?:们)?家(?:就)?(?:住)?在(?P<p4>[^，,。.!?！？；;]{1,20})|(?:^\W*|我)家住(?P<p5>[^，,。.!?！？；;]{2,20})"
    # "我人在深圳", "我现在在杭州这边": a known city at the clause end
    r"|(?:我|^\W*(?=现在|目前|如今))(?:人|一个人|自己|独自)?(?:现在|目前|如今|一直)?(?:也|还)?(?:人)?(?:住)?在"
    r"(?P<p6>" + _ZH_CITY_ALT + r")(?:这边|这儿|这里|市)?(?:打拼|闯荡|扎根|生活)?\W*$"
)
_PLACE_CUT_EN = re.compile(
    r"\s+(?:now|since|for|with|and|but|because|last|next|this|these|two|three|a|in\s+\d+|\d+\s+(?:years?|months?|weeks?)|on|at"
    r"|recently|already|too|anymore|any\s+more|with|near|where|which|when|right\s+now|today|so)\b.*$",
    _I,
)
#: A known city and a district or landmark ("南京鼓楼", "杭州西湖边上"), no street or number.
_CITY_DISTRICT = re.compile(
    r"^(?:" + "|".join(re.escape(c) for c in L.ZH_CITY_NAMES) + r")[\u4e00-\u9fff]{0,4}$"
)
_ADDRESS_HINT = re.compile(
    r"\d|\b(?:street|st|road|rd|avenue|ave|lane|ln|blvd|boulevard|drive|dr|apt|suite)\b|路|街|号|巷|弄|小区|室|栋|楼",
    _I,
)


def _place_key(place: str) -> str:
    low = place.lower()
    if low in L.COUNTRIES:
        return "location.country"
    if _ADDRESS_HINT.search(place) and not _CITY_DISTRICT.match(place):
        return "location.address"
    return "location.city"


#: A stay, not a home: "I'm in Paris this week for a conference", "I'm in Rome on holiday".
_VISIT = re.compile(
    r"\b(?:this|next|for\s+the|for\s+a|for\s+the\s+next)\s+(?:week|weekend|month|few\s+days|couple\s+of\s+days|days?)\b"
    r"|\b(?:today|tonight|tomorrow|until|till|for\s+(?:a|the)\s+(?:conference|meeting|wedding|trip|visit|work\s+trip)"
    r"|on\s+(?:holiday|vacation|a\s+trip|business|a\s+business\s+trip|a\s+work\s+trip|a\s+layover|tour)|visiting|for\s+work|passing\s+through|layover)\b",
    _I,
)


#: "when I'm in X", "whenever I'm in X": the times the user is somewhere else.
_WHEN_BEFORE = re.compile(r"\b(?:when|whenever|while|if|once|every\s+time)\s*$", _I)


def h_location(cl: Clause) -> Iterator[Hit]:
    """location.city / location.country / location.address."""
    if MAYBE.search(cl.sentence.text):
        return  # "thinking about maybe moving to Lisbon" is no place of residence
    for m in _LOC_EN.finditer(cl.text):
        g = m.groupdict()
        neg = (g.get("neg") or "").lower()
        if neg.startswith("used"):
            continue
        raw = next(g[k] for k in ("p", "p2", "p3", "p4", "p5", "p6", "p7", "p8") if g.get(k))
        place = _PLACE_CUT_EN.sub("", raw.strip()).strip()
        if (g.get("p7") or g.get("p8")) and not _bare_in_place(place):
            continue
        if g.get("p7") and _WHEN_BEFORE.search(cl.text[: m.start()]):
            continue  # "I stick with Premier Inn when I'm in the UK": a stay, not a home
        # "I'm in Paris this week for a conference": a stay is a signal, not a home
        visit = bool(g.get("p7") or g.get("p8")) and _VISIT.search(cl.sentence.text) is not None
        place = (
            re.sub(r"^the\s+(?=[a-z]+$)", "", place, flags=_I)
            if place.lower() not in L.COUNTRIES
            else place
        )
        if not place or not (
            place[0].isupper()
            or place[0].isdigit()
            or place.lower() in L.COUNTRIES
            or place.lower() in L.CITIES
        ):
            continue
        c = cand(Kind.FACT, _place_key(place), place, explicit=not visit)
        # the span ends with the place ("I'm in Manila so Philippine time" leaves the time)
        group = next(k for k in ("p", "p2", "p3", "p4", "p5", "p6", "p7", "p8") if g.get(k))
        end = min(m.end(), m.start(group) + len(_PLACE_CUT_EN.sub("", raw.rstrip())))
        yield m.start(), end, _negate(c) if (neg or _ANYMORE.search(cl.text)) else c
    for m in _LOC_ZH.finditer(cl.text):
        g = m.groupdict()
        raw = next(g[k] for k in ("p", "p2", "p3", "p4", "p5", "p6") if g.get(k))
        place = CUT_ZH.sub("", raw).strip().removeprefix("在")
        place = re.sub(r"(?:这边|那边|这里|那里|市区)$", "", place)
        if not place or place in ("这", "那", "这里", "那里", "哪里", "哪"):
            continue
        if L.NOT_HOME_ZH.search(place):
            continue
        neg = g.get("neg") or g.get("neg3")
        for key, said in zh_places(place):
            c = cand(Kind.FACT, key, said)
            yield m.start(), m.end(), _negate(c) if neg else c


def zh_places(place: str) -> list[tuple[str, str]]:
    """(key, place) for a Chinese place: "加拿大温哥华" is a country and a city."""
    return [(_place_key(said), said) for _key, said in L.place_keys(place)]
