"""Rule handlers for facts, preferences, relationships and events (English and Chinese).

Each handler takes a :class:`Clause` and yields ``(start, end, candidate)``; the
driver in :mod:`shared_core.ingest.extract` applies sentence-level signals. Private.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from ..entities import Candidate, Kind
from . import lexicon as L
from ._rulebase import (
    ANYMORE as _ANYMORE,
)
from ._rulebase import (
    CJK,
    CUT_ZH,
    NOT_END,
    Clause,
    Hit,
    alt,
    cand,
    neg_before,
    phrase,
    split_items,
    zh_name_at,
)
from ._rulebase import (
    negate as _negate,
)
from ._rules_open import h_interest, h_taste
from ._rules_packs import NOT_ITEM_START, ONE_TRIP, TIMEZONES, allergy_key, complains, more_items
from ._rules_place import h_budget, h_location
from .dates import DATE_HINTS, resolve_dates
from .lexicon import slugify

__all__ = ["CLAUSE_HANDLERS"]

_I = re.IGNORECASE


# ---- allergy ---------------------------------------------------------------------------
_ALLERGY_EN = re.compile(
    r"\b(?P<neg>not\s+|no\s+longer\s+|not\s+really\s+)?(?:also\s+|very\s+|really\s+|severely\s+|badly\s+"
    r"|deathly\s+|mildly\s+)*allergic\s+to\s+(?P<item>" + NOT_END + r"{1,80}?)"
    # how long it has lasted ends the item: "allergic to X for as long as I can remember"
    r"(?=\s+(?:so|but|because|which|please|and\s+(?:i|my|please)|since|ever\s+since"
    r"|for\s+(?:years|ages|decades|as\s+long|most\s+of|all\s+my|my\s+whole|the\s+last))\b|\s*[,.;!?]|$)"
    r"|\b(?:i\s+have|i've\s+got|i\s+got)\s+(?:an?\s+|(?:severe|bad|serious|mild|deadly|nasty)\s+)*"
    r"(?!(?:severe|bad|serious|mild|deadly|nasty)\s)(?P<item2>[\w\- ]{2,30}?)\s+allerg(?:y|ies)\b"
    r"(?!\s+to\b)"
    # "it's a proper allergy to kiwi" (not an intolerance): the user's own, said of the reaction
    r"|\b(?:have|'ve\s+got|got|it's|it\s+is|that's|that\s+is)\s+(?:an?\s+)?(?:severe\s+|bad\s+|serious\s+|mild\s+"
    r"|deadly\s+|real\s+|proper\s+|genuine\s+|true\s+|actual\s+)?allerg(?:y|ies)\s+to\s+(?P<item4>"
    + NOT_END
    + r"{1,60})",
    _I,
)
_ALLERGY_ZH = re.compile(
    r"(?P<neg>不再|已经不|并不|并没有|没有|没|不)?对(?P<item>(?:(?!对|我)[^，,。.!?！？；;]){1,20}?)"
    r"(?:严重|特别|非常|很|有点|有些|比较|超级|超)?(?P<neg2>不再|已经不|不)?过敏"
)
_ALLERGY_ZH2 = re.compile(
    r"我(?P<neg3>不再|已经不)?(?:是)?(?:有)?(?!对|不|没|并|是)"
    # "我在写一篇关于过敏的文章": allergy as a topic names no allergen
    r"(?P<item3>(?:(?!关于|有关)[" + CJK + r"A-Za-z]){1,10}?)过敏"
    r"(?!的(?:文章|书|知识|问题|视频|资料|科普|帖子|事))"
)
#: "布洛芬我吃了会过敏", "猫毛我一碰就过敏": the allergen fronted, the user eats or touches it.
_ALLERGY_ZH3 = re.compile(
    r"^\W*(?P<item5>["
    + CJK
    + r"A-Za-z]{1,8}?)(?:的话)?我(?:一|只要|每次)?(?:吃|用|服用|喝|碰|接触|闻|打)"
    r"(?:了|到|完)?(?:就|会|都|也)?(?:会)?(?:严重|有点|特别)?过敏"
)
#: The words around a Chinese allergen: "就花粉" / "坚果类食物" / "乳胶制品" / "头孢类的药".
_ZH_ALLERGEN_LEAD = re.compile(r"^(?:就|也|都|还|一|会|容易|比较|特别|有点)+")
_ZH_ALLERGEN_TAIL = (
    re.compile(
        r"(?:类|类的|之类的?|这类的?|等)?(?:食物|食品|制品|药物|药品|的药|药|东西)$|(?:类|之类的?|等)$"
    ),
    re.compile(
        r"(?:的|之类的?|这类的?|等)?(?:食物|食品|制品|药物|药品|的药|东西)$|(?:之类的?|等)$"
    ),
)


def _zh_allergen(item: str) -> str:
    """The allergen itself, without the adverb before it or the class word after it."""
    if item.isascii():
        return item
    lead = _ZH_ALLERGEN_LEAD.sub("", item) or item
    for rx in _ZH_ALLERGEN_TAIL:  # "坚果类食物" -> "坚果", but "贝类食物" -> "贝类"
        core = rx.sub("", lead)
        if len(core) >= 2:
            return core
    return lead


_ITEM_TRIM = re.compile(
    r"\b(?:too|as\s+well|either|also|sadly|unfortunately|honestly|apparently|tbh|lol|btw|fwiw"
    r"|big\s+time|though|tho|myself|personally)\b|也|都",
    _I,
)
_NEW_CLAUSE = re.compile(NOT_ITEM_START, _I)
#: "also" / "too" / "another" / "也" / "还": one more allergy that coexists with the earlier ones.
_ADDITIVE = re.compile(
    r"\b(?:also|too|as\s+well|another|in\s+addition)\b|(?:也|还|另外)(?:对|有)?[^，,。；;]{0,12}过敏",
    _I,
)


#: Words in the allergen slot that name no allergen ("allergic to it", "对什么过敏").
_NOT_ALLERGENS = frozenset(
    [
        "it",
        "that",
        "this",
        "them",
        "both",
        "all of them",
        "both of them",
        "什么",
        "哪些",
        "啥",
        "哪个",
        "什么东西",
    ]
)


#: The allergens named first and then pointed back to: "Codeine and aspirin, I'm allergic to
#: both of them".
_BOTH = re.compile(
    r"^(?:both(?:\s+of\s+them)?|them\s+(?:both|all)|all\s+(?:of\s+them|three|two|four)|those(?:\s+two)?)$",
    re.IGNORECASE,
)
_FRONTED_LIST = re.compile(
    r"^\W*(?P<list>[a-z][\w-]*(?:\s*(?:,|and|&)\s*[a-z][\w-]*){1,4})\s*[,:;-]\s*$", re.IGNORECASE
)


#: Someone else just before "对…过敏", inside a longer run ("…明明说了有同事对虾过敏结果…",
#: "她对芒果过敏"): the allergy is theirs ("我和朋友都对虾过敏" keeps the user's).
_OTHER_BEFORE_ZH = re.compile(
    r"(?:[他她]们?|别人|人家|有人|有(?:个|位|一个|一位|两个|几个)?(?:同事|朋友|同学|人|小朋友|孩子|客人|学生)"
    r"|(?<![和跟与])(?:同事|朋友|同学|室友|舍友|同桌|闺蜜))(?:也|还|好像|可能)?$"
)


def h_allergy(cl: Clause) -> Iterator[Hit]:
    """allergy.medication / allergy.food / allergy."""
    seen: list[tuple[int, int]] = []
    for rx in (_ALLERGY_EN, _ALLERGY_ZH, _ALLERGY_ZH3, _ALLERGY_ZH2):
        for m in rx.finditer(cl.text):
            if any(m.start() < e and s < m.end() for s, e in seen):
                continue
            before = cl.text[max(0, m.start() - 8) : m.start()]
            if rx is _ALLERGY_ZH and not cl.third_party and _OTHER_BEFORE_ZH.search(before):
                continue  # (a clause about someone else keeps its candidate, flagged later)
            seen.append(m.span())
            g = m.groupdict()
            raw = (
                (g.get("item") or g.get("item2") or g.get("item3") or g.get("item4"))
                or g.get("item5")
                or ""
            )
            neg = bool(g.get("neg") or g.get("neg2") or g.get("neg3")) or bool(
                g.get("item2") is None and _ANYMORE.search(cl.text)
            )
            if _BOTH.match(raw.strip()) and (
                fronted := _FRONTED_LIST.match(cl.sentence.text[: cl.start])
            ):
                raw = fronted.group("list")  # "Amoxicillin and ibuprofen, I'm allergic to both"
            items = [_zh_allergen(_ITEM_TRIM.sub("", i).strip()) for i in split_items(raw)]
            items = [i for i in items if i not in ("药", "药物", "吃", "用", "食物")]
            groups: dict[str, list[str]] = {}
            items = [i for i in items if not (i.isascii() and _NEW_CLAUSE.match(i))]
            for item in (i for i in items if i and i.lower() not in _NOT_ALLERGENS):
                groups.setdefault(allergy_key(item), []).append(item)
            known = [k for k in groups if k != "allergy"]
            if len(known) == 1 and "allergy" in groups:
                # items said in one list share their kind: "dogs and horses", "kiwi and
                # lychee" (the unknown one goes with the one the vocabulary knows)
                groups[known[0]] += groups.pop("allergy")
            additive = not neg and _ADDITIVE.search(cl.text) is not None
            for key, vals in groups.items():
                if additive:  # a sibling slot per substance: allergy.medication.<slug>
                    for v in vals:
                        canon = L.canonical_value(key, v)
                        sub = f"{key}.{slugify(canon)}"
                        yield m.start(), m.end(), cand(Kind.FACT, sub, v, normalized=canon)
                    continue
                c = cand(Kind.FACT, key, ", ".join(vals))
                yield m.start(), m.end(), _negate(c) if neg else c


# ---- health, diet ----------------------------------------------------------------------
_COND_ALT = alt(k for k in L.CONDITIONS if k.isascii())
_COND_EN = re.compile(
    r"\bi(?:\s+(?:also|still|now))?(?:\s+|(?='))(?P<nh>no\s+longer\s+|don't\s+|do\s+not\s+)?"
    r"(?:have|'ve\s+(?:also\s+)?got|have\s+(?:also\s+)?got|suffer\s+from|live\s+with|got"
    # "i get migraines every month", "i keep getting cluster headaches": a recurring one
    r"|(?:often\s+|regularly\s+|still\s+|always\s+)?get|keep\s+getting|suffer\s+with"
    # "i've had colitis since uni": a condition had for years is one the user has
    r"|'ve\s+had|\s+have\s+had)\s+"
    r"(?:an?\s+)?(?P<c>" + _COND_ALT + r")\b(?!\s+(?:once|before|as\s+a\s+kid|as\s+a\s+child))"
    r"(?:\s*(?:,|and|&)\s*(?:an?\s+)?(?P<c2>" + _COND_ALT + r")\b)?"
    # "I'm a type 2 diabetic": the type said before the adjective
    r"|\bi(?:'m|\s+am)\s+(?:also\s+)?an?\s+(?P<typed>type\s*[12]\s+diabetic)\b"
    r"|\bi(?:'m|\s+am|'ve\s+been|\s+was)\s+(?:also\s+)?(?:got\s+)?diagnosed\s+with\s+(?:an?\s+)?"
    r"(?P<free>"
    + NOT_END
    + r"{2,40})|\bi(?:'m|\s+am)\s+(?:also\s+)?(?P<neg>not\s+|no\s+longer\s+)?"
    r"(?P<adj>pregnant|diabetic|asthmatic|epileptic|coeliac|celiac|autistic|bipolar|anaemic|anemic"
    r"|pre-?diabetic)\b"
    # a condition said as a fragment, the whole clause: "coeliac here", "hypothyroidism and
    # IBS", "type 2 diabetic btw" (a question, "asthma?", is no statement)
    r"|^\W*(?:(?:also|and|plus)\s+)?(?P<f>" + _COND_ALT + r")"
    # "asthma since childhood and high blood pressure since my forties": each one dated
    r"(?:\s+since\s+[^,.;!?]{1,30}?(?=\s*(?:,|and|&)\s*(?:" + _COND_ALT + r")\b))?"
    r"(?:\s*(?:,|and|&|\+|plus)\s*(?P<f2>" + _COND_ALT + r"))?"
    r"(?:\s+(?:here|too|also|btw|fyi|actually|sufferer))?"
    # "type 1 diabetic since i was 9", "adhd here so keep it short": the fragment may be
    # dated or give a reason after it
    r"(?:\s+since\s+[^,.;!?]{1,40})?(?:[\s.!]*$|(?=\s+so\s+\w))"
    # "asthma's been part of my life since childhood", "migraines are a regular thing for
    # me": a condition the user lives with, said of the condition (round 11)
    r"|^\W*(?P<f3>"
    + _COND_ALT
    + r")(?:'s|\s+has|\s+have)\s+(?:always\s+)?been\s+(?:a\s+(?:big\s+|huge\s+)?)?"
    r"part\s+of\s+my\s+life\b"
    r"|^\W*(?P<f4>" + _COND_ALT + r")\s+(?:is|are)\s+(?:a\s+)?"
    r"(?:regular|constant|daily|weekly|monthly|recurring|lifelong|chronic|ongoing|real|big)\s+"
    r"(?:thing|issue|problem|struggle|battle|part\s+of\s+life)\s+for\s+me\b",
    _I,
)
_COND_ZH = re.compile(
    r"我(?P<add>也|还|另外)?(?:(?P<neg>已经没有|没有|不再有|不再|没)(?:患|得)?|有|患有|得了|患了|确诊了?"
    r"|被诊断出?)(?P<c>[" + CJK + r"A-Za-z0-9]{1,8})"
    r"|我(?P<neg2>没有?|不再)?(?P<preg>怀孕)"
)


def _conditions(key_values: list[str], additive: bool) -> Iterator[Candidate]:
    """One candidate per condition: the first fills ``health.condition`` unless the turn
    adds to earlier ones ("also", "too", 也, 还); the others get a sibling slot each
    (``health.condition.<slug>``) so they coexist instead of replacing each other."""
    for i, value in enumerate(key_values):
        canon = L.CONDITIONS.get(value.lower(), value)
        if i == 0 and not additive:
            yield cand(
                Kind.FACT, "health.condition", value, normalized=L.CONDITIONS.get(value.lower())
            )
        else:
            sub = f"health.condition.{slugify(canon)}"
            yield cand(Kind.FACT, sub, value, normalized=canon)


_TYPED_DIABETIC = re.compile(r"^(type\s*[12])\s+diabetics?$", _I)


def h_condition(cl: Clause) -> Iterator[Hit]:
    """health.condition (and ``health.condition.<slug>`` for additional conditions)."""
    for m in _COND_EN.finditer(cl.text):
        surface = (
            m.group("c")
            or m.group("typed")
            or m.group("free")
            or m.group("adj")
            or m.group("f")
            or m.group("f3")
            or m.group("f4")
        )
        # "type 2 diabetic" names the condition "type 2 diabetes"
        value = _TYPED_DIABETIC.sub(r"\1 diabetes", phrase(surface, 4))
        if not value:
            continue
        neg = bool(m.group("neg") or m.group("nh")) or _ANYMORE.search(cl.text) is not None
        if neg:
            c = cand(
                Kind.FACT, "health.condition", value, normalized=L.CONDITIONS.get(value.lower())
            )
            yield m.start(), m.end(), _negate(c)
            if m.group("c2"):
                c2 = phrase(m.group("c2"), 4)
                yield m.start(), m.end(), _negate(cand(Kind.FACT, "health.condition", c2))
            continue
        second = m.group("c2") or m.group("f2")
        values = [value] + ([phrase(second, 4)] if second else [])
        additive = _ADDITIVE.search(cl.text) is not None
        for c in _conditions(values, additive):
            yield m.start(), m.end(), c
    for m in _COND_ZH.finditer(cl.text):
        surface = m.group("preg") or CUT_ZH.sub("", m.group("c") or "")
        known = max(
            (k for k in L.CONDITIONS if not k.isascii() and surface.startswith(k)),
            key=len,
            default=None,
        )
        if known is None:
            continue
        if m.group("neg") or m.group("neg2"):
            yield m.start(), m.end(), _negate(cand(Kind.FACT, "health.condition", known))
            continue
        for c in _conditions([known], bool(m.group("add"))):
            yield m.start(), m.end(), c


_DIET_ALT = (
    r"vegetarian|vegan|pescatarian|veggie|halal|kosher|gluten[- ]free|keto|paleo|lactose[- ]free"
)
_DIET_EN = re.compile(
    r"\bi(?:'m|\s+am)\s+(?P<neg>not\s+|no\s+longer\s+)?(?:a\s+|an\s+|strictly\s+|now\s+|fully\s+)*(?P<d>"
    + _DIET_ALT
    + r")\b|\bi\s+(?P<neg2>no\s+longer\s+|don't\s+|do\s+not\s+)?(?:now\s+|only\s+|strictly\s+)*"
    r"(?:eat|keep|follow|need|go)\s+(?:only\s+)?(?:a\s+)?(?P<d2>"
    + _DIET_ALT
    + r")\b|\bi(?:'m|\s+am)\s+on\s+an?\s+(?P<d3>"
    + _DIET_ALT
    + r")\s+diet"
    r"|\bmy\s+diet\s+is\s+(?P<d4>"
    + _DIET_ALT
    + r")|\bi\s+(?P<meat>don't|do\s+not|never)\s+eat\s+meat\b"
    # "ugh as a vegetarian this menu is useless", "being vegan, ...": the user's diet as
    # the frame of a remark; "everything I eat has to be halal"; "our house is kosher"
    r"|(?:^\W*(?:(?:ugh|so|well|honestly|tbh|and|but)\W+)*|[,;]\s*)(?:as|being)\s+(?:an?\s+)?"
    r"(?:strict\s+|lifelong\s+|committed\s+|practising\s+|practicing\s+)?(?P<d5>"
    + _DIET_ALT
    + r")\b(?!\s+(?:restaurant|option|dish|meal|place|menu|friend|partner|wife|husband"
    r"|version|alternative)s?\b)"
    r"(?!,?\s+(?:my|he|she|they|his|her)\s)"
    r"|\beverything\s+i\s+(?:eat|cook|buy)\s+(?:has\s+to|must|needs\s+to|should)\s+be\s+(?P<d6>"
    + _DIET_ALT
    + r")\b|\bour\s+(?:house|home|household|kitchen|family)\s+is\s+"
    r"(?:strictly\s+|fully\s+|all\s+)?(?P<d7>" + _DIET_ALT + r")\b",
    _I,
)
_DIET_ZH = re.compile(
    r"我(?:现在|已经|目前|如今|最近)?(?P<neg>不再|已经不|不)?(?:现在|已经|开始|目前|如今|最近|改成|改为|也|只|都|长期|常年|长年|多年|一直|就|从小|自小|打小)*"
    r"(?:是|只吃|改吃|吃|要|一直)?(?:一?[个名位])?(?P<d>素食主义者|素食者|纯素食?|素食|吃素|清真|无麸质|生酮)"
    r"|我(?:不|从不)吃肉(?P<meat>)"
)


def h_diet(cl: Clause) -> Iterator[Hit]:
    """diet."""
    for rx in (_DIET_EN, _DIET_ZH):
        for m in rx.finditer(cl.text):
            g = m.groupdict()
            d = next((g[k] for k in ("d", "d2", "d3", "d4", "d5", "d6", "d7") if g.get(k)), None)
            if d is None:
                d = "vegetarian" if rx is _DIET_EN else "吃素"
            c = cand(Kind.PREFERENCE, "diet", d, normalized=L.DIETS.get(d.lower(), d.lower()))
            yield m.start(), m.end(), _negate(c) if (g.get("neg") or g.get("neg2")) else c


# ---- language, industry, job ---------------------------------------------------------------
_LANG_EN_ALT = alt(k for k in L.LANGUAGES if k.isascii())
_LANG_ZH_ALT = alt(k for k in L.LANGUAGES if not k.isascii())
_LANG_RX = (
    re.compile(
        r"\b(?:reply|respond|answer|talk|speak|write|communicate|chat)\s+(?:to\s+me\s+|with\s+me\s+|back\s+)?"
        r"(?:only\s+)?in\s+(?P<l>"
        + _LANG_EN_ALT
        + r")\b|\b(?:use|prefer)\s+(?P<l2>"
        + _LANG_EN_ALT
        + r")\b"
        r"|\b(?P<l3>"
        + _LANG_EN_ALT
        + r")\s+please\b|\bi\s+(?:only\s+)?(?:speak|understand|read)\s+(?P<l4>"
        + _LANG_EN_ALT
        + r")\b"
        # a Chinese language name in an English request: "please reply in 中文"
        r"|\b(?:reply|respond|answer|talk|write)\s+(?:to\s+me\s+)?in\s*(?P<l5>"
        + _LANG_ZH_ALT
        + r")",
        _I,
    ),
    # "会讲德语" / "能说日语" is a language spoken, not one to reply in
    re.compile(r"(?<!会)(?<!能)(?:用|说|讲)(?P<l>" + _LANG_ZH_ALT + r")"),
)


_CANNOT_SPEAK = re.compile(r"不会|不懂|不太会|看不懂|听不懂|\b(?:can't|cannot|don't)\s+\w*\s*$", _I)


_WHEN_I = re.compile(
    r"\b(?:even\s+(?:if|when|though)|although|though|when|if|whenever)\s+i\s+$", _I
)


def h_language(cl: Clause) -> Iterator[Hit]:
    """language."""
    for rx in _LANG_RX:
        for m in rx.finditer(cl.text):
            lang = next(v for k, v in m.groupdict().items() if v)
            if _CANNOT_SPEAK.search(cl.text[max(0, m.start() - 8) : m.start() + 1]):
                continue  # "我不会说英语" / "I can't speak French": not a reply language
            if _WHEN_I.search(cl.text[: m.start()]):
                continue  # "reply in French, even if I write in English": what the user writes
            # "用英文再说一遍" asks this answer again: a signal, kept after three (consensus)
            c = cand(Kind.PREFERENCE, "language", lang, explicit=not cl.sentence.implicit_cue)
            yield m.start(), m.end(), c


_IND_EN = re.compile(
    r"\b(?:i(?:'m|\s+am)|we(?:'re|\s+are)|i\s+work|we\s+work|our\s+company\s+is|my\s+company\s+is"
    r"|i(?:'m|\s+am)\s+working)\s+(?P<neg>not\s+)?in\s+(?:the\s+)?(?P<ind>" + NOT_END + r"{2,40})"
    r"|\b(?:we(?:'re|\s+are)|i\s+run|i\s+own|i\s+work\s+(?:at|for))\s+an?\s+"
    r"(?P<ind2>[\w\- ]{2,30}?)\s+"
    r"(?:company|business|startup|firm|shop)\b",
    _I,
)
_IND_ZH = re.compile(
    r"(?:我们|我|我们公司|我司)(?:是)?(?:做|搞|从事|干)(?P<ind>["
    + CJK
    + r"A-Za-z]{1,10}?)(?:的|行业|这一?行)"
    # ("我在写作业", "我在创业": a word ending in 业 that is no sector)
    r"|我(?:在|从事)(?P<ind2>["
    + CJK
    + r"]{1,6}?)(?:行业|(?<![作毕失就创营专事学课物副主职家])业|领域)"
)


def h_industry(cl: Clause) -> Iterator[Hit]:
    """industry (English needs a known industry word; Chinese "做X的" takes any X)."""
    for m in _IND_EN.finditer(cl.text):
        words = phrase(m.group("ind") or m.group("ind2"), 4).split()
        for n in (3, 2, 1):
            term = " ".join(words[:n])
            if term.lower() in L.INDUSTRIES:
                c = cand(Kind.FACT, "industry", term)
                # the sector claims its own words: "in healthcare as a nurse" keeps the role
                at = m.start("ind") if m.group("ind") else m.start()
                end = at + len(term) if m.group("ind") else m.end()
                yield m.start(), end, _negate(c) if m.group("neg") else c
                break
    for m in _IND_ZH.finditer(cl.text):
        term = m.group("ind") or m.group("ind2")
        # "我是做会计的" names a job, "我是做教育的" a sector
        key = "job.title" if term.endswith(L.ZH_JOB_SUFFIXES) else "industry"
        yield m.start(), m.end(), cand(Kind.FACT, key, term)


_JOB_EN = re.compile(
    r"\bi(?:'m|\s+am)\s+(?P<neg>not\s+|no\s+longer\s+)?(?:a|an)\s+(?P<job>" + NOT_END + r"{2,50})"
    r"|\bi\s+work\s+as\s+(?:a\s+|an\s+)?(?P<job2>" + NOT_END + r"{2,50})"
    r"|\bmy\s+(?:job|profession|occupation|role|title|job\s+title)\s+is\s+(?!in\s)(?:a\s+|an\s+)?(?P<job3>"
    + NOT_END
    + r"{2,50})",
    _I,
)
_JOB_ZH = re.compile(
    r"我(?P<neg>不再|已经不)?是(?:一名|一个|一位|名|个)?(?P<job>["
    + CJK
    + r"A-Za-z]{1,8}?)(?=[，,。.!?！？；;]|$|了)"
    r"|我的(?:工作|职业)是(?P<job2>[" + CJK + r"A-Za-z]{1,10})"
)
_JOB_CUT = re.compile(
    # a place adverb before the employer goes with it: "engineer over at Spotify"
    r"\s+(?:(?:over|down|up|out|right|based)\s+)?(?:at|in|for|with|from|who|that|and|but|by)\b.*$",
    _I,
)


def h_job(cl: Clause) -> Iterator[Hit]:
    """job.title."""
    for m in _JOB_EN.finditer(cl.text):
        raw = m.group("job") or m.group("job2") or m.group("job3")
        title = phrase(_JOB_CUT.sub("", raw), 4)
        if not title:
            continue
        if m.group("job") and title.split()[-1].lower().rstrip("s") not in L.JOB_HEADS:
            continue
        c = cand(Kind.FACT, "job.title", title)
        # the span ends with the title: "a barista at a little cafe called Bean There" leaves
        # the employer to its own row
        group = "job" if m.group("job") else "job2" if m.group("job2") else "job3"
        at = raw.lower().find(title.lower())
        end = m.start(group) + at + len(title) if at >= 0 else m.end()
        yield m.start(), end, _negate(c) if m.group("neg") else c
    for m in _JOB_ZH.finditer(cl.text):
        title = (m.group("job") or m.group("job2") or "").strip()
        if m.group("job") and not title.endswith(L.ZH_JOB_SUFFIXES):
            continue
        c = cand(Kind.FACT, "job.title", title)
        yield m.start(), m.end(), _negate(c) if m.group("neg") else c


# ---- relationships, devices, seat, timezone ---------------------------------------------------
_REL_EN = alt(k for k in L.FAMILY if k.isascii())
_REL_ZH = alt(k for k in L.FAMILY if not k.isascii())
_FAMILY_EN = re.compile(
    r"(?i:\bmy\s+(?P<rel>"
    + _REL_EN
    + r")(?:'s\s+name\s+is|\s+is\s+called|\s+is\s+named|\s+named|\s+called"
    r"|\s+is|,)?)\s+(?P<n>[A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+)?)"
)
_FAMILY_ZH = re.compile(
    r"我(?:的)?(?P<rel>"
    + _REL_ZH
    + r")(?:叫|名叫|名字叫|的名字是|的名字叫)(?P<n>["
    + CJK
    + r"]{1,3}|[A-Za-z]+)"
)
_NOT_NAMES = frozenset(
    {"is", "i", "the", "a", "an", "and", "he", "she", "my", "also", "just", "not"}
)


def h_family(cl: Clause) -> Iterator[Hit]:
    """family.<relation> = the person's name."""
    for rx in (_FAMILY_EN, _FAMILY_ZH):
        for m in rx.finditer(cl.text):
            name = m.group("n").strip()
            if not name.isascii():
                name = zh_name_at(cl.text, m.start("n"), 3)  # "朵朵今年…" -> "朵朵"
            if name.split()[0].lower() in _NOT_NAMES:
                continue
            rel = L.FAMILY[m.group("rel").lower()]
            yield m.start(), m.end(), cand(Kind.RELATIONSHIP, f"family.{rel}", name)


_DEVICE_RX = re.compile(
    r"\b(?:my\s+device(?:\s+id)?\s*(?:is|:|=)|i\s+own\s+(?:the\s+)?device|this\s+is\s+my\s+device"
    r"|i\s+use\s+device)\s*(?P<d>[A-Za-z0-9][\w\-:.]{1,63})|\bdevice\s+(?P<d2>[\w\-]*\d[\w\-]*)\s+is\s+mine\b"
    r"|我的设备(?:号|id|ID|编号)?(?:是|为|:|：)?\s*(?P<d3>[A-Za-z0-9][\w\-:.]{1,63})"
    r"|设备\s*(?P<d4>[A-Za-z0-9][\w\-:.]{1,63})\s*是我的",
    _I,
)


def h_device(cl: Clause) -> Iterator[Hit]:
    """device.<id> = owner."""
    for m in _DEVICE_RX.finditer(cl.text):
        dev = next(v for v in m.groupdict().values() if v).rstrip(".:").lower()
        if dev:
            yield m.start(), m.end(), cand(Kind.RELATIONSHIP, f"device.{dev}", "owner")


_SEAT_EN = re.compile(r"\b(?P<s>aisle|window|middle|exit[- ]row)\s+seats?\b", _I)
_SEAT_ZH = re.compile(r"(?P<s>靠窗|靠过道|过道|靠走廊|中间)(?:的)?(?:座位|位置|位子|位)")
_SEAT_ZH_MAP = {
    "靠窗": "window",
    "靠过道": "aisle",
    "过道": "aisle",
    "靠走廊": "aisle",
    "中间": "middle",
}
_SEAT_PREFER = re.compile(r"\b(?:prefer|always|like|love|usually)\b|喜欢|偏好|习惯|都要|总是", _I)
_SEAT_ME = re.compile(r"\b(?:i|i'll|i'd|me|my)\b|我", _I)


def h_seat(cl: Clause) -> Iterator[Hit]:
    """seat (implicit unless stated as a preference)."""
    if not _SEAT_ME.search(cl.text) or ONE_TRIP.search(cl.sentence.text):
        return  # "book me an aisle seat on the 7am flight" is one booking
    explicit = _SEAT_PREFER.search(cl.text) is not None and not cl.sentence.implicit_cue
    for m in _SEAT_EN.finditer(cl.text):
        seat = m.group("s").lower().replace(" ", "-")
        yield m.start(), m.end(), cand(Kind.PREFERENCE, "seat", seat, explicit=explicit)
    for m in _SEAT_ZH.finditer(cl.text):
        c = cand(
            Kind.PREFERENCE,
            "seat",
            m.group("s"),
            normalized=_SEAT_ZH_MAP[m.group("s")],
            explicit=explicit,
        )
        yield m.start(), m.end(), c


_TZ_RX = re.compile(
    r"\bmy\s+time\s*zone\s+is\s+(?P<tz>[\w/+\-:]{2,40})|\bi(?:'m|\s+am)\s+(?:in|on)\s+(?P<tz2>(?:UTC|GMT)\s*"
    r"[+-]\s*\d{1,2}(?::\d\d)?|[A-Z][a-z]+/[A-Z][\w]+)(?:\s+time)?|我的?时区是\s*(?P<tz3>[\w/+\-:]{2,40})",
    _I,
)


#: Zone abbreviations said only as the zone's name ("my time zone is WAT"); the ones that
#: are also words ("eat", "wat") are read here only, after "my time zone is".
_ZONE_ABBR = {
    "wat": "Africa/Lagos",
    "eat": "Africa/Nairobi",
    "cat": "Africa/Maputo",
    "ist": "Asia/Kolkata",
    "gst": "Asia/Dubai",
    "wib": "Asia/Jakarta",
    "ict": "Asia/Bangkok",
    "myt": "Asia/Kuala_Lumpur",
    "kst": "Asia/Seoul",
    "awst": "Australia/Perth",
    "acst": "Australia/Adelaide",
}


def h_timezone(cl: Clause) -> Iterator[Hit]:
    """timezone."""
    for m in _TZ_RX.finditer(cl.text):
        tz = next(v for v in m.groupdict().values() if v)
        low = tz.strip().lower()
        named = _ZONE_ABBR.get(low) or TIMEZONES.get(low)
        norm = named.lower() if named else tz.replace(" ", "").lower()
        yield m.start(), m.end(), cand(Kind.FACT, "timezone", tz, normalized=norm)


# ---- events ------------------------------------------------------------------------------------
_EVENT_EN = re.compile(
    r"\bi\s+(?:just\s+|also\s+|finally\s+)?(?:had|got|did|went\s+to|attended|started|finished|bought|visited"
    r"|lost|broke|signed|ordered|booked|completed|passed|failed|graduated\s+from|have|'ve\s+got|have\s+got"
    r"|will\s+have|am\s+having|'m\s+having|'ll\s+have)\s+(?P<ev>" + NOT_END + r"{1,60})",
    _I,
)
#: A plan said with 要去 / 要做 ("我明天要去上海出差") is a one-off, transient plan that
#: stores nothing (benchmarks/phrasing/SCHEMA.md); what happened, or an appointment one
#: has ("我明天有个面试", and as English "I have a flight tomorrow" has it, without the
#: measure word: "我周五有面试", "我后天有航班"), is an event.
_EVENT_ZH = re.compile(
    r"我[^，,。.!?！？；;]{0,12}?(?:做了|去了|参加了|买了|开始了|完成了|生了|丢了|摔了|做过|有个|有一个|有场|有一场"
    r"|办了|有(?=(?:" + "|".join(L.ZH_APPOINTMENTS) + r")(?![" + CJK + r"])))"
    r"(?P<ev>[" + CJK + r"A-Za-z0-9]{1,10})"
)


def h_event(cl: Clause) -> Iterator[Hit]:
    """event.<slug> with the absolute date in the value ("surgery on 2026-04-10")."""
    found = [m for rx in (_EVENT_EN, _EVENT_ZH) for m in rx.finditer(cl.text)]
    dates = resolve_dates(cl.text, cl.at) if found else []
    if not dates:
        return
    for m in found:
        ev = m.group("ev")
        for d in dates:
            ev = ev.replace(d.text, " ")
        ev = re.sub(r"\b(?:on|at|in|this|last)\s*$", "", ev.strip(), flags=_I)
        ev = phrase(CUT_ZH.sub("", ev), 3)
        slug = slugify(ev, max_words=3)
        if not slug or slug in L.TOPIC_STOP:
            continue
        value = f"{ev} on {dates[0].iso}"
        yield (
            m.start(),
            m.end(),
            cand(Kind.EVENT, f"event.{slug}", value, normalized=value.lower()),
        )


# ---- rule packs: data rows (key, value, explicit, pattern), one pack per language ------------
#: How the user wants answers. ``explicit`` rows are requests ("keep answers short"); the
#: others are behavioural complaints ("too long") that become a preference only after the
#: consensus rule (``MemoryConfig.implicit_consensus`` signals).
PACK_EN: tuple[tuple[str, str, bool, str], ...] = (
    (
        "response.length",
        "short",
        True,
        r"\b(?:keep|make)\s+(?:your\s+|the\s+|my\s+)?(?:answers?|replies|responses|it)\s+"
        r"(?:short|brief|concise)|\b(?:short|brief|concise)\s+(?:answers?|replies|responses)\b"
        r"|\bbe\s+(?:brief|concise)\b",
    ),
    (
        "response.length",
        "short",
        False,
        r"(?<!not\s)\btoo\s+(?:long|verbose|wordy)\b|\bshorter,?\s+please\b",
    ),
    (
        "response.length",
        "long",
        True,
        r"\b(?:detailed|longer|in-depth|thorough)\s+(?:answers?|replies|responses|explanations)\b"
        r"|\bgo\s+into\s+(?:more\s+)?detail\b",
    ),
    ("response.length", "long", False, r"(?<!not\s)\btoo\s+short\b|\bmore\s+detail,?\s+please\b"),
    (
        "response.format",
        "bullets",
        True,
        r"\bbullet(?:ed)?\s*(?:points?|lists?)\b|\bin\s+bullets\b",
    ),
    ("response.format", "table", True, r"\b(?:in|as)\s+a\s+table\b"),
    (
        "response.tone",
        "formal",
        True,
        r"\b(?:be|keep\s+it|stay|sound)\s+(?:more\s+)?formal\b",
    ),
    (
        "response.tone",
        "professional",
        True,
        r"\b(?:be|keep\s+it|stay|sound)\s+(?:more\s+)?professional\b",
    ),
    (
        "response.tone",
        "casual",
        True,
        r"\b(?:be|keep\s+it|sound)\s+(?:more\s+)?(?:casual|informal|relaxed)\b",
    ),
)
PACK_ZH: tuple[tuple[str, str, bool, str], ...] = (
    (
        "response.length",
        "short",
        True,
        r"(?:回答|回复)(?:得)?(?:要|尽量|请|都)?(?:简短|简洁|短)|简短一[点些]|简洁一[点些]",
    ),
    ("response.length", "short", False, r"太长了|短一[点些]|说重点"),
    ("response.length", "long", True, r"(?:回答|回复)(?:得)?(?:要)?详细|详细一[点些]"),
    ("response.format", "bullets", True, r"分点(?:列出|回答|说)|用列表"),
    ("response.format", "table", True, r"用表格"),
    ("response.tone", "formal", True, r"正式一[点些]|(?:语气|说话)正式"),
    ("response.tone", "casual", True, r"随意一[点些]|轻松一[点些]|口语化"),
)
#: Item rows: the named group ``v`` is the item; ``value`` ``"*"`` keeps it (as said, in
#: its language), otherwise ``value`` maps surface words to codes ("狗" -> "dog"). A list
#: key gets one ``<key>.<slug>`` sibling per item after the first, like allergies.
_PETS = {
    "dog": "dog", "dogs": "dog", "puppy": "dog", "puppies": "dog", "cat": "cat", "cats": "cat",
    "kitten": "cat",
    "rabbit": "rabbit", "bunny": "rabbit", "hamster": "hamster", "parrot": "parrot",
    "bird": "bird", "fish": "fish", "turtle": "turtle", "tortoise": "turtle",
    "lizard": "lizard", "snake": "snake", "horse": "horse", "狗": "dog", "小狗": "dog",
    "狗狗": "dog", "猫": "cat", "小猫": "cat", "猫咪": "cat", "兔子": "rabbit",
    "仓鼠": "hamster", "鹦鹉": "parrot", "鸟": "bird", "鱼": "fish", "金鱼": "fish",
    "乌龟": "turtle",
}  # fmt: skip
_PET_EN = "|".join(sorted((k for k in _PETS if k.isascii()), key=len, reverse=True))
_PET_ZH = "|".join(sorted((k for k in _PETS if not k.isascii()), key=len, reverse=True))
ITEM_PACK: tuple[tuple[str, Kind, dict[str, str] | None, str], ...] = (
    (
        "intolerance",
        Kind.CONSTRAINT,
        None,
        r"\bi(?:'m|\s+am)\s+(?:also\s+)?(?P<v>lactose|gluten|fructose|histamine|caffeine|dairy)"
        r"[- ]intolerant\b|\bi(?:'m|\s+am)\s+(?:also\s+)?intolerant\s+to\s+"
        r"(?P<v2>[a-z][a-z -]{1,30}?)"
        r"(?=\s*(?:[,.;!?]|$)|\s+(?:and|so|but|because|since|which|though|as)\b)|\bi\s+(?:have|'ve\s+got)\s+(?:an?\s+)?(?P<v3>lactose|gluten"
        r"|fructose|histamine)\s+intolerance\b"
        # "I have a bit of an intolerance to histamine", "I've got a mild intolerance to soy"
        r"|\bi(?:\s+have|'ve\s+got|\s+have\s+got)\s+(?:a\s+(?:bit\s+of\s+|slight\s+|mild\s+|real\s+)?an?\s+|an?\s+)?"
        r"(?:slight\s+|mild\s+|bad\s+|severe\s+)?intolerance\s+(?:to|for)\s+"
        r"(?P<v4>[a-z][a-z -]{1,30}?)"
        r"(?=\s*(?:[,.;!?]|$)|\s+(?:and|so|but|because|since|which|though|as)\b)",
    ),
    ("intolerance", Kind.CONSTRAINT, None, r"我(?:有)?(?P<v>乳糖|麸质|果糖|酒精)不耐受?"),
    (
        "pet.species",
        Kind.FACT,
        _PETS,
        r"\bi\s+(?:have|'ve\s+got|have\s+got|own)\s+(?:a|an|one|two|three|\d)\s+(?:\w+\s+)?"
        r"(?P<v>"
        + _PET_EN
        + r")\b"
        + L.NOT_A_PET_AFTER
        + r"|\bmy\s+(?P<v2>"
        + _PET_EN
        + r")(?:'s\s+name\s+is|\s+is\s+called"
        r"|\s+named|\s+called)\b"
        # a pet just taken in: "I just got a puppy", "I adopted two kittens last week"; a
        # new owner: "I'm a first-time kitten owner" ("a hot dog", "a dog toy" are no pets)
        r"|\bi(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+|also\s+)?(?:got|gotten|adopted"
        r"|rescued|brought\s+home)\s+(?:a|an|one|two|three|\d)\s+(?!hot\s|corn\s|sea\s)"
        r"(?:(?:new|little|baby|rescue|tiny|second|third|cute|young|old)\s+)?(?:\w+\s+)?"
        r"(?P<v3>"
        + _PET_EN
        + r")(?:s|es)?\b"
        + L.NOT_A_PET_AFTER
        + r"|\bi(?:'m|\s+am)\s+(?:a\s+)?(?:new|first[- ]time)\s+(?P<v4>"
        + _PET_EN
        + r")\s+"
        r"(?:owner|mom|mum|dad|parent)\b",
    ),
    (
        "pet.species",
        Kind.FACT,
        _PETS,
        r"我(?:家)?(?:养了?|有)(?:一|两|三|\d)?[只条个匹]?(?P<v>" + _PET_ZH + r")",
    ),
)
_PACK_RX = tuple(
    (key, value, explicit, re.compile(rx, _I)) for key, value, explicit, rx in PACK_EN + PACK_ZH
)
_ITEM_RX = tuple((key, kind, codes, re.compile(rx, _I)) for key, kind, codes, rx in ITEM_PACK)


#: Words that point back at items named elsewhere ("intolerant to both").
_ANAPHORA = frozenset(
    ["both", "it", "them", "that", "this", "those", "these", "all", "either", "each"]
)


def h_pack(cl: Clause) -> Iterator[Hit]:
    """The rows of :data:`PACK_EN` / :data:`PACK_ZH`: a match yields its key and value;
    the rows of :data:`ITEM_PACK`: the item each match names."""
    complaint = complains(cl.sentence.text)
    for key, value, explicit, rx in _PACK_RX:
        if complaint and key.startswith("response."):
            continue  # "I hate when you use bullet points"
        if (m := rx.search(cl.text)) is not None:
            if key.startswith("response.") and neg_before(cl.text, m.start()):
                continue  # "别用表格回答" asks for no table
            exp = explicit and not cl.sentence.implicit_cue
            c = cand(Kind.PREFERENCE, key, m.group(0), normalized=value, explicit=exp)
            yield m.start(), m.end(), c
    for key, kind, codes, rx in _ITEM_RX:
        for n, m in enumerate(rx.finditer(cl.text)):
            item = next(v for k, v in m.groupdict().items() if v).strip()
            if item.lower() in _ANAPHORA:
                continue  # "I'm intolerant to both": the items were named elsewhere
            more = more_items(cl.text, m.end()) if codes is None else ""
            # "intolerant to wheat and lactose": the items said after the first one
            for k, said in enumerate([item, *(x for x in more.split(" and ") if x)]):
                norm = codes.get(said.lower(), said.lower()) if codes else said.lower()
                slot = key if n == 0 and k == 0 else f"{key}.{slugify(norm)}"
                c = cand(kind, slot, said, normalized=norm)
                yield m.start(), m.end(), _negate(c) if _ANYMORE.search(cl.text) else c


def _hint(words: str) -> tuple[str, ...]:
    return tuple(words.split())


_DIGITS = "0 1 2 3 4 5 6 7 8 9 "


#: (handler, cheap pre-filter): a handler runs only on clauses whose lowercased text contains
#: one of its hint substrings (``None``: always run).
CLAUSE_HANDLERS: tuple[tuple[Callable[[Clause], Iterator[Hit]], tuple[str, ...] | None], ...] = (
    (h_allergy, _hint("allerg 过敏")),
    (
        h_pack,
        _hint(
            "answer repl respons brief concise too short long detail bullet table formal"
            " professional casual informal relaxed 回答 回复 简短 简洁 太长 短一 重点 详细"
            " 分点 列表 表格 正式 随意 轻松 口语 intoleran 不耐 have got own my 养 有 adopt rescue"
            " brought owner"
        ),
    ),
    # a condition's own name lets a fragment through ("coeliac here", "hypothyroidism and IBS")
    (
        h_condition,
        _hint("have got suffer diagnos live i'm am 有 患 得了 确诊 诊断 怀孕")
        + tuple(k for k in L.CONDITIONS if k.isascii()),
    ),
    (
        h_diet,
        _hint("veg pescatarian halal kosher gluten keto paleo lactose meat 素 清真 麸质 生酮 肉"),
    ),
    (
        h_budget,
        _hint(
            _DIGITS + "预算 零 一 二 两 三 四 五 六 七 八 九 十 百 千 万 hundred thousand grand"
            " twenty thirty forty fifty sixty seventy eighty ninety"
        ),
    ),
    (
        h_location,
        _hint(
            "live stay reside moved relocated based located living home city i'm am here"
            " 住 居 搬 移居 在 家"
        ),
    ),
    (h_language, tuple(k for k in L.LANGUAGES)),
    (h_industry, _hint("in company business startup firm shop 做 搞 从事 干 行业 业 领域")),
    (h_job, _hint("a work job profession occupation role title 是")),
    (h_family, _hint("my 我")),
    (h_device, _hint("device 设备")),
    (h_seat, _hint("seat 座位 位置 位子 过道位 窗位 走廊位")),
    (h_timezone, _hint("zone utc gmt / 时区")),
    (h_event, DATE_HINTS),
    (
        h_interest,
        _hint(
            "been interested looking considering shopping curious tell show teach what you 看 研究"
            " 了解 关注 考虑 琢磨 介绍 讲讲 说说 聊聊 有 想 打算 兴趣"
        ),
    ),
    (
        h_taste,
        _hint(
            "love like enjoy adore hate dislike detest loathe despise stand bear into fan prefer"
            " obsessed crazy about hooked"
            " 喜欢 爱 讨厌 受不了 不吃 吃不了 不能吃 不敢吃 喝不了 能吃 迷"
        ),
    ),
)
