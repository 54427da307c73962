"""Open-vocabulary and sentence-level rule handlers: corrections ("not X, Y"), addresses,
standing instructions (``rule.<slug>``), free-form notes (``note.<slug>``), interests
(``interest.<topic>``) and tastes (``taste.<item>``). Private to :mod:`shared_core.ingest`.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator

from .. import taxonomy
from ..entities import Kind
from ..errors import InvalidInputError
from . import lexicon as L
from ._rulebase import (
    CJK,
    CUT_ZH,
    NOT_END,
    Clause,
    Hit,
    cand,
    classify,
    ok_topic,
    phrase,
    split_items,
)
from .lexicon import canonical_value, slugify

__all__ = [
    "NOTE_CONFIDENCE",
    "STUFF_RE",
    "food_before",
    "h_address",
    "h_correction",
    "h_interest",
    "h_note",
    "h_rule",
    "h_taste",
    "with_item",
]

_I = re.IGNORECASE


# ---- sentence level: "not X, Y" corrections and addresses ----------------------------
_CORR_EN = re.compile(
    r"\b(?:not|isn't|is\s+not|wasn't|no)\s+(?:in\s+|the\s+|a\s+|an\s+)?(?P<old>[^,;:.!?]{1,40}?)\s*"
    r"(?:[,;]|\bbut\b)\s*(?:but\s+|rather\s+|instead\s+)?(?:(?:i'm|i\s+am|it's|it\s+is|we're"
    r"|we\s+are|i\s+mean)\s+)?(?:in\s+|a\s+|an\s+|the\s+)?(?P<new>[^,;:.!?]{1,40})",
    _I,
)
_CORR_ZH = re.compile(
    r"不是(?P<old>[^，,。！？!?；;]{1,20}?)\s*[，,]?\s*(?:而|我)?是(?P<new>[^，,。！？!?；;]{1,20})"
)


_CORR_ZH_BARE = re.compile(
    r"(?:不对|错了|说错了|更正一下|纠正一下)[，,\s]*(?:应该|其实)?是(?P<new>[^，,。！？!?；;]{1,20})"
)


#: "Y, not X" / "I meant Y, not X" / "是Y，不是X": the new value first.
#: "Y, not X" / "I meant Y, not X": found from each "not" (linear), X after it up to a
#: clause end, Y the words before it (see :func:`_new_first`).
_NOT_AT = re.compile(r"\bnot\s++", _I)
_OLD_AFTER = re.compile(
    r"(?:the\s+|a\s+|an\s+|in\s+)?"
    r"(?P<old>[$€£¥]?[^\W_](?:[\w -]|(?<=\d),(?=\d{3})){0,40}?)\s*+"
    r"(?=$|[;:!?]|,(?!\d{3})|\.(?!\d))",
    _I,
)
_SEP_BEFORE = re.compile(r"\s*+[,;]?\s*+(?:(?:and|but)\s++)?\Z", _I)
_NEW_BEFORE = re.compile(r"[$€£¥]?[^\W_](?:[\w' -]|(?<=\d),(?=\d{3})){0,60}+\Z", _I)


def _new_first(text: str) -> Iterator[tuple[int, int, str, str]]:
    """(start of Y, end, Y, X) for each "Y, not X" in ``text``; linear in its length."""
    after = 0
    for m in _NOT_AT.finditer(text):
        if m.start() < after:
            continue
        mo = _OLD_AFTER.match(text, m.end())
        if mo is None:
            continue
        lo = max(after, m.start() - 72)
        left = text[lo : m.start()]
        sep = _SEP_BEFORE.search(left)
        head = left[: sep.start()] if sep else left
        mn = _NEW_BEFORE.search(head, max(0, len(head) - 62))
        if mn is None:
            continue
        after = mo.end()
        yield lo + mn.start(), mo.end(), mn.group(0), mo.group("old")


_CORR_ZH_NEW_FIRST = re.compile(
    r"是(?P<new>[^，,。！？!?；;是]{1,20}?)\s*[，,]?\s*(?:而)?不是(?P<old>[^，,。！？!?；;]{1,20})"
)


def _classified_tail(text: str) -> tuple[str, tuple[str, Kind, str]] | None:
    """The longest vocabulary term (1-3 words) that ends ``text`` and its classification."""
    words = phrase(text, 12).split()
    for n in (3, 2, 1):
        if len(words) >= n:
            term = " ".join(words[-n:])
            found = classify(term)
            if found is not None:
                # the term must end what was said, not a clause cut off before a new one:
                # "I'm in Canada so show me CAD, not US dollars" corrects no country
                at = text.lower().rfind(term.lower())
                if at >= 0 and len(text[at + len(term) :].split()) > 2:
                    return None
                return term, found
    return None


_ZH_WRAP = re.compile(r"^(?:我)?(?:也)?(?:对|吃|用|是)?|(?:也)?(?:过敏|的)$")
_AMOUNT_TAIL = re.compile(r"(?P<n>[$€£¥]?\d{1,3}(?:,\d{3})+|[$€£¥]?\d+(?:\.\d+)?\s?[kK]?)\s*$")
_YEAR = re.compile(r"^(?:19|20)\d\d$")


def _zh_term(text: str) -> str:
    """The bare term of a Chinese correction side ("对阿司匹林过敏" -> "阿司匹林")."""
    return _ZH_WRAP.sub("", CUT_ZH.sub("", text).strip()).strip()


def _corrected_amount(new: str, old: str) -> str | None:
    """ "I meant 3,000, not 30000": both sides are amounts (not years) -> the new amount."""
    mn, mo = _AMOUNT_TAIL.search(new), _AMOUNT_TAIL.match(old.strip())
    if mn is None or mo is None:
        return None
    try:
        a, b = L.parse_number(mn.group("n")), L.parse_number(mo.group("n"))
    except InvalidInputError:
        return None  # an amount out of range corrects nothing
    if a is None or b is None or a == b or min(a, b) < 100:
        return None
    if _YEAR.match(mn.group("n")) and _YEAR.match(mo.group("n")):
        return None
    return str(a)


#: A language of the user's own said with its rank or origin ("my first language", "native
#: tongue", "a native speaker"): "X, not Y" there contrasts languages spoken, it corrects no
#: reply language.
_OWN_LANGUAGE = re.compile(
    r"\b(?:first|native|mother|second|home|main)\s+(?:language|tongue)\b|\bnative\s+(?:\w+\s+)?speaker\b"
    r"|\bgrew\s+up\s+(?:speaking|with)\b",
    _I,
)


def h_correction(cl: Clause) -> Iterator[Hit]:
    """ "not X, Y" / "Y, not X" / "不是X，是Y" / "是Y，不是X" / "不对，是Y": Y replaces X.

    The key comes from the vocabulary of Y (or of X); the candidate is a correction, so
    the resolver supersedes the slot (version 2, version 1 kept).
    """
    for rx in (_CORR_EN, _CORR_ZH, _CORR_ZH_BARE):
        for m in rx.finditer(cl.text):
            new, old = phrase(m.group("new"), 3), phrase(m.groupdict().get("old") or "", 3)
            found = classify(new) or classify(old)
            if found is None or not new:
                continue
            if rx is _CORR_EN and m.group(0)[:2].lower() == "no" and classify(new) is None:
                continue  # "No calls please - unless ..., then fine" corrects nothing
            key, kind, _canon = found
            if key == "language" and _OWN_LANGUAGE.search(cl.text):
                continue  # "english isn't my first language, polish is": languages spoken
            c = cand(kind, key, new)
            was = _old_value(old, key)
            yield m.start(), m.end(), dataclasses.replace(c, correction=True, replaces=was)
    for start, end, new_text, old_text in _new_first(cl.text):
        tail = _classified_tail(new_text)
        if tail is None:
            if (amount := _corrected_amount(new_text, old_text)) is not None:
                c = cand(Kind.PREFERENCE, "budget.max", amount, normalized=amount)
                yield start, end, dataclasses.replace(c, correction=True)
            continue
        term, (key, kind, _canon) = tail
        if key == "language" and _OWN_LANGUAGE.search(cl.text):
            continue  # "my native tongue is tagalog, not english": spoken, not the reply's
        old_term = classify(phrase(old_text, 3))
        if old_term is not None and old_term[0] != key:
            continue
        c = cand(kind, key, term)
        yield (
            start + new_text.rfind(term),
            end,
            dataclasses.replace(c, correction=True, replaces=old_term[2] if old_term else ""),
        )
    for m in _CORR_ZH_NEW_FIRST.finditer(cl.text):
        new = _zh_term(m.group("new"))
        found = classify(new) or classify(_zh_term(m.group("old")))
        if found is None or not new:
            continue
        key, kind, _canon = found
        c = cand(kind, key, new)
        was = _old_value(_zh_term(m.group("old")), key)
        yield m.start(), m.end(), dataclasses.replace(c, correction=True, replaces=was)


def _old_value(old: str, key: str) -> str:
    """The canonical value a correction replaces, when it is a term of the same key."""
    if not old:
        return ""
    found = classify(old) or classify(_zh_term(old))
    if found is None and (tail := _classified_tail(old)) is not None:
        found = tail[1]  # "allergic to aspirin" -> aspirin
    return found[2] if found is not None and found[0] == key else ""


_ADDR_EN = re.compile(
    r"\bmy\s+(?:new\s+|home\s+|current\s+|shipping\s+|delivery\s+|mailing\s+)?address\s+"
    # an e-mail address is no place: "my address is ann.lee@gmail.com"
    r"(?:is|:)\s*(?!\s*[\w.+-]+@[\w-]+\.)(?P<a>[^;!?\n]{3,120})",
    _I,
)
_ADDR_ZH = re.compile(
    r"我的?(?:新|家庭|收货|送货|现在的)?(?:地址|住址)(?:是|为|:|：)\s*(?P<a>[^；;!?！？\n]{2,80})"
)


def h_address(cl: Clause) -> Iterator[Hit]:
    """location.address: the rest of the sentence after "my address is" / "我的地址是"."""
    for rx in (_ADDR_EN, _ADDR_ZH):
        m = rx.search(cl.text)
        if m:
            addr = m.group("a").strip().rstrip("。.")
            yield m.start(), m.end(), cand(Kind.FACT, "location.address", addr)


# ---- other standing instructions ---------------------------------------------------------------
_RULE_EN = re.compile(
    r"^\W*(?:(?:please|and|also|but|so|remember\s+(?:to\s+)?)\s+)*(?P<m>always|never(?!\s*mind)"
    r"|from\s+now\s+on|going\s+forward|in\s+(?:the\s+)?future|don't\s+ever|do\s+not\s+ever)\b"
    # what one has known or wondered all along is no instruction: "(genuinely) never known"
    r"(?!\s+(?:known|knew|heard|understood|realised|realized|noticed|wondered|figured|got\s+it)\b),?\s+"
    r"(?P<instr>[^.;!?]{2,100})",
    _I,
)
_RULE_ZH = re.compile(
    r"^\W*(?:请|记住|也)*(?P<m>以后都|以后|从现在开始都?|今后都?|每次都|永远|总是|一律)(?:请|要|都)?"
    r"(?P<instr>[^。.!?！？；;]{2,40})"
)


def h_rule(cl: Clause) -> Iterator[Hit]:
    """rule.<slug> for always/never/from-now-on instructions that no other handler claimed."""
    for rx in (_RULE_EN, _RULE_ZH):
        m = rx.match(cl.text)
        if m is None:
            continue
        instr = m.group("instr").strip()
        slug = slugify(instr, max_words=4)[:40]
        if not slug:
            continue
        value = f"{m.group('m')} {instr}" if rx is _RULE_EN else m.group("m") + instr
        c = cand(
            Kind.CONSTRAINT,
            f"rule.{slug}",
            value,
            normalized=canonical_value("rule", value),
            hard=True,
        )
        yield m.start(), m.end(), c


# ---- free-form notes: nothing a user declares about themselves is silently lost ---------
#: The confidence a note starts with (above the default recall threshold of 0.7, below a
#: matched key's 0.95): the rules did not understand it, they only kept the user's words.
NOTE_CONFIDENCE = 0.75
_NOTE_EN = re.compile(
    r"^\W*(?:(?:also|and|but|so|well|actually|btw|oh)\W+)*"
    r"(?P<body>i(?:'m|\s+am)\s+(?!a\s+bit\b)\S.{1,100}"
    r"|i(?:'ve|\s+have)\s+(?:never|always)\s+\S.{1,100}"
    r"|i\s+(?:have|don't|do\s+not|can't|cannot|never|always|usually|work|speak|own|rent|drive|wear"
    r"|sleep|was\s+born|grew\s+up|only|rarely|mostly|live\s+(?=alone|on\s+my\s+own|by\s+myself))\b.{2,100}"
    # how the user gets about, the shifts they do (round 11): "i cycle everywhere", "i do
    # night shifts", "i walk to work"
    r"|i\s+(?:cycle|bike|walk|commute|get\s+the\s+(?:bus|train|tube)|take\s+the\s+(?:bus|train|tube))\s+"
    r"(?:everywhere|to\s+work|to\s+the\s+office|every\s*where|most\s+places|or\s+walk)\b.{0,60}"
    r"|i\s+(?:do|work|pull)\s+(?:night|nights|early|late|double|long|12[\s-]hour|rotating|split)\s+shifts\b.{0,60}"
    # a fear said of the thing feared: "flying terrifies me", "heights scare me"
    r"|(?:flying|driving|heights|needles|spiders|snakes|the\s+dark|crowds|deep\s+water|the\s+dentist|lifts|elevators)\s+"
    r"(?:really\s+|absolutely\s+|genuinely\s+)?(?:terrifies|terrify|scares|scare|freaks|freak)\s+me(?:\s+out)?)$",
    _I,
)
_NOTE_ZH = re.compile(
    r"^\W*(?P<body>我(?:(?:到现在|至今|这么多年|长这么大)(?:都|还|也)?)?(?:(?:不会|不能|从来不|从不|从来没有?|从没|每天|一直|平时|习惯|是个?|有|天生|晚上|早上|只)"
    r"[^?？吗呢]{2,40}"
    # a lasting trait said in one or two words: "我恐高", "我怕黑", "我晕车", "我上夜班的"
    r"|(?:上夜班|上晚班|上白班|倒班|晕(?:车|船|机|血)|怕|恐|近视|远视|散光|失眠|打呼|睡眠|常年|不抽烟|抽烟"
    # a self-label in one word: "我路痴", "我脸盲", "我社恐"
    r"|路痴|脸盲|社恐|社牛|吃货|夜猫子|左撇子|工作狂|夜猫|起床困难户|强迫症|选择困难症?"
    # living alone: "我一个人住", "我自己住", "我独居"
    r"|一个人住|自己一个人住|自己住|独居"
    # a lasting fact said in the negative: "我没驾照", "我没有护照", "我戒烟三年了"
    r"|没有?(?:驾照|驾驶证|护照|车|房子?|医保|社保)|戒(?:烟|了烟))"
    r"[^?？吗呢]{0,40}))$"
)
#: The same with the thing fronted as the topic: "驾照我一直没考", "游泳我不会", "车我不会开",
#: "飞机我从来没坐过", "坐车我晕得厉害" (not a pointer or a time: "这题我不会", "明天我没空").
_NOTE_ZH_FRONTED = re.compile(
    r"^\W*(?P<body>(?!这|那|哪|啥|什么|今天|明天|昨天|后天|现在|刚才|待会|上次|这次|下次|他|她|它|你|您|谁|我"
    # a time is no topic: "小时候我特别怕狗", "周末我一般不…"
    r"|小时候|以前|之前|过去|当年|那时|那会|去年|今年|明年|前年|平时|平常|周末|晚上|早上|白天|最近|目前|[^我]{0,3}时候?我)"
    r"[\u4e00-\u9fff]{1,4}"
    r"我(?:是|真的?|根本|也|还|都)*"
    r"(?:(?:一直|从来|从|到现在都?|至今|这辈子|长这么大|都)(?:都|也|还)?没有?|(?:学)?不会|(?:最|特别|很)?怕|晕)"
    r"[^?？吗呢，,。]{0,30})$"
)
#: Passing states, feelings, plans, opinions and chat: not durable facts about the user.
_NOT_DURABLE = re.compile(
    r"\b(?:today|tonight|now|right\s+now|tomorrow|yesterday|this\s+(?:morning|afternoon|evening"
    r"|week|weekend|month)|later|soon|going\s+to|gonna|will|would|could|should|might|think"
    r"|guess|hope|wonder|want|wanted|need|needed|trying|looking|feel|feeling|tired|hungry|busy"
    r"|bored|fine|good|great|ok|okay|sorry|glad|happy|sure|here|back|done|ready|thanks?|just"
    r"|kidding|joking|wondering|asking|curious|confused|not\s+sure|no\s+idea|a\s+question"
    r"|if|what|how|why|when|where|who|you|your|it|that|this|basically|totally|literally"
    r"|anymore|any\s+more|no\s+longer|at\s+the\s+moment|atm|currently"
    r"|on\s+my\s+way|on\s+the\s+(?:train|bus|plane|way|phone|road)|in\s+a\s+meeting"
    r"|at\s+(?:the\s+)?(?:airport|station|office|gym|hospital|store|shop|mall|beach|doctor's|dentist)"
    r"|lol|haha\w*|hehe\w*|lmao)\b|[\"“”「」]"
    # a stay with its end said ("I'm on holiday in Crete till Sunday", "in Paris until Friday")
    r"|\b(?:till|until|til|through)\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday"
    r"|tomorrow|tonight|the\s+weekend|next\s+\w+|the\s+end\s+of\s+(?:the\s+)?\w+|the\s+\d{1,2}(?:st|nd|rd|th)?)\b"
    r"|\bon\s+(?:holiday|holidays|vacation|leave|a\s+trip|a\s+break|a\s+business\s+trip|honeymoon)\b"
    # something under way ("I'm reading a book about ...") is no lasting fact
    r"|\bi(?:'m|\s+am)\s+(?:currently\s+|just\s+)?(?:reading|learning\s+about|researching|working\s+on"
    r"|watching|listening\s+to)\b"
    # an ailment of the day ("I have a headache", "I've got the flu") is no lasting fact
    r"|\b(?:a\s+(?:headache|cold|cough|fever|hangover|sore\s+\w+|stomach\s*ache|tummy\s*ache|toothache"
    r"|runny\s+nose|temperature|blocked\s+nose)|the\s+(?:flu|hiccups|sniffles)|jet\s*lag(?:ged)?)\b"
    r"|今天|(?<!到)现在|明天|昨天|刚才|刚刚|马上|待会|这会儿|这周|这几天|觉得|想|打算|可能|也许|累|饿|忙|开心|难过|问|你"
    r"|哈哈|呵呵|嘿嘿|不再|已经不|才怪|开玩笑|逗你"
    # someone the user knows is the subject: "我有个同事是吃素的", "我有位朋友住在大理"
    r"|我有(?:一|几|两)?(?:个|位)(?:同事|朋友|同学|邻居|亲戚|室友|客户|老板|领导|哥们|闺蜜|熟人|网友)"
    # how this conversation goes, not who the user is: "我是认真的", "我是说真的", "我是来咨询的",
    # "我是第一次用", "我是新用户", "我是路人"
    r"|认真的|说真的|来(?:咨询|问|看看|问问|了解|办理|投诉|反馈)|第一次|头一回|新用户|新来的|路人|打酱油",
    _I,
)


#: Telling the assistant, as a lead-in: "跟你说个事，我是左撇子", "告诉你一下，…": its 你
#: is whom the user talks to, not a sign of chat about the assistant.
_TELL_YOU_ZH = re.compile(
    r"(?:跟|和|给|同)你(?:说|讲)(?:一下|一声|下|个事儿?|件事)?|告诉你(?:一下|一声|个事)?|提醒你一下"
)


_SO_THEN = re.compile(r",\s*(?:so|which\s+means)\s+(?!i\b|i'm\b).*$", _I)


def h_note(cl: Clause) -> Iterator[Hit]:
    """note.<slug> = the user's words, for a durable first-person statement no rule read
    ("I'm left-handed", "I work night shifts", "我不会开车"), with a lower confidence."""
    m = _NOTE_EN.match(cl.text) or _NOTE_ZH.match(cl.text) or _NOTE_ZH_FRONTED.match(cl.text)
    if m is None or _NOT_DURABLE.search(m.group("body")):
        return
    # what follows ", so ..." is the consequence asked for, not part of the trait ("I'm left
    # handed, so the scissors need to be lefty ones")
    if _NOT_DURABLE.search(_SO_THEN.sub("", _TELL_YOU_ZH.sub("", cl.sentence.text))):
        return
    if "要" in m.group("body"):
        return  # "我要..." is a wish or a plan; "睡觉要开着灯" later in the sentence is not
    body = m.group("body").strip().rstrip(".!。！")
    slug = slugify(re.sub(r"^(?:i(?:'m|\s+am)?|我)\s*", "", body, flags=_I), max_words=4)[:40]
    if not slug:
        return
    c = cand(Kind.FACT, f"note.{slug}", body, normalized=body.lower())
    yield m.start("body"), m.end("body"), dataclasses.replace(c, confidence_hint=NOTE_CONFIDENCE)


# ---- interests, tastes ------------------------------------------------------------------------
_INTEREST_RX = (
    re.compile(
        r"\bi(?:'ve|\s+have)?\s+been\s+(?:looking\s+(?:at|into)|researching|reading\s+about|thinking\s+about"
        r"|considering|checking\s+out|eyeing|comparing)\s+(?P<t>" + NOT_END + r"{2,60})"
        r"|\bi(?:'m|\s+am)\s+(?:interested\s+in|looking\s+(?:at|into|for)|considering|shopping\s+for"
        r"|curious\s+about)\s+(?P<t2>" + NOT_END + r"{2,60})"
        r"|\b(?:tell|show|teach)\s+me\s+(?:more\s+)?(?:about\s+)?(?P<t3>" + NOT_END + r"{2,60})"
        r"|\bwhat\s+(?:kinds?\s+of\s+|sorts?\s+of\s+|types?\s+of\s+)?"
        r"(?P<t4>[\w\- ]{2,40}?)\s+(?:do|does|can"
        r"|could|would)\s+you\s+(?:have|offer|sell|recommend|suggest|carry)\b"
        r"|\b(?:do|does)\s+you\s+(?:have|offer|sell|carry)\s+(?:any\s+)?(?P<t5>"
        + NOT_END
        + r"{2,40})",
        _I,
    ),
    re.compile(
        r"我(?:最近|一直|这段时间)(?:在)?(?:看|研究|了解|关注|考虑|琢磨)(?P<t>[^，,。.!?！？；;]{1,12})"
        r"|我(?:在|正在)(?:看|研究|了解|关注|考虑)(?P<t2>[^，,。.!?！？；;]{1,12})"
        r"|(?:介绍一下|介绍下|讲讲|说说|聊聊)(?P<t3>[^，,。.!?！？；;]{1,12})"
        r"|(?:你们)?有(?:什么|哪些|啥)(?P<t4>["
        + CJK
        + r"A-Za-z]{1,10}?)(?:吗|呢|推荐|可以|？|\?|$)"
        r"|我(?:想|想要|打算)(?:了解|买|办|看看|申请)(?:一下)?(?P<t5>[^，,。.!?！？；;]{1,12})"
        r"|我对(?P<t6>[^，,。.!?！？；;]{1,12}?)(?:很|挺|比较|非常|特别|超|超级|蛮|一直)?感兴趣"
    ),
)


def h_interest(cl: Clause) -> Iterator[Hit]:
    """interest.<topic> (always implicit); "我对X感兴趣" also declares taste.<topic> = like."""
    for rx in _INTEREST_RX:
        for m in rx.finditer(cl.text):
            raw = next(v for v in m.groupdict().values() if v)
            topic = phrase(raw.removeprefix("一下"), 4)
            if ok_topic(topic):
                key = "interest." + slugify(topic)
                yield m.start(), m.end(), cand(Kind.PREFERENCE, key, "interested", explicit=False)
                if m.groupdict().get("t6") and not raw.endswith(("不", "没")):
                    # "我对天文很感兴趣" also declares it: a standing taste for the topic
                    like = cand(
                        Kind.PREFERENCE, "taste." + slugify(topic), "like", normalized="like"
                    )
                    yield m.start(), m.end(), like


_TASTE_EN = re.compile(
    # the household taste said for all: "we all love Thai food", "we both hate olives"
    r"\b(?:i|we\s+(?:all|both))(?:\s+|(?='))(?:really\s+|absolutely\s+|truly\s+|just\s+|kind\s+of\s+|kinda\s+|totally\s+|also\s+|do\s+"
    r"|still\s+|genuinely\s+)*(?P<pol>love|like|enjoy|adore|hate|dislike|detest|loathe|despise"
    r"|can't\s+stand|cannot\s+stand|can't\s+bear|don't\s+like|do\s+not\s+like|don't\s+enjoy|don't\s+love"
    r"|am\s+into|'m\s+into|am\s+a\s+(?:big\s+|huge\s+)?fan\s+of|'m\s+a\s+(?:big\s+|huge\s+)?fan\s+of"
    # "I'm lowkey obsessed with Thai food", "I'm crazy about dumplings"
    r"|(?:am|'m)\s+(?:(?:lowkey|low-key|kinda|kind\s+of|so|totally|honestly|absolutely|literally|a\s+bit"
    r"|a\s+little|lowkey)\s+)*(?:obsessed\s+with|crazy\s+about|mad\s+about|hooked\s+on)"
    r"|prefer)\s+(?P<item>" + NOT_END + r"{1,60})",
    _I,
)
_TASTE_POL_EN = (
    r"(?P<pol>love|like|enjoy|adore|hate|dislike|detest|loathe|despise|can't\s+stand|cannot\s+stand"
    r"|can't\s+bear|don't\s+like|do\s+not\s+like|don't\s+enjoy|don't\s+love)"
)
#: A second taste after "but" / "though" / "while" in a first-person taste clause, its
#: subject dropped: "I really like spicy food but can't stand olives".
_TASTE_THEN_EN = re.compile(
    r"\b(?:but|though|while|whereas|yet)\s+(?:i\s+)?(?:(?:really|absolutely|just|totally|truly)\s+)*"
    + _TASTE_POL_EN
    + r"\s+(?P<item>"
    + NOT_END
    + r"{1,60})",
    _I,
)
#: Praise words before the item liked: "love a good jollof rice" -> jollof rice.
_PRAISED = re.compile(r"^(?:an?\s+)?(?:good|nice|proper|decent|great|really\s+good)\s+(?=\w+)", _I)
#: Degree adverbs people put before a Chinese taste verb ("我贼喜欢", "我超级爱吃", "我可爱吃").
_ZH_DEGREE = (
    r"(?:很|非常|特别|真的|是真的|超级|超|挺|最|也|还|比较|一直|从小就|本来就|就|都|贼|巨|蛮|相当|可|老|好"
    r"|平时|一向|这辈子|一辈子|从小到大|平生)*"
)
_ZH_NOT = r"(?:不太|不怎么|不大|不是很|不)"
_TASTE_ZH = re.compile(
    r"我" + _ZH_DEGREE + r"(?P<pol>" + _ZH_NOT + r"(?:喜欢|爱)(?:吃|喝)?|喜欢吃|喜欢喝|喜欢"
    # ("我爱好户外运动": a hobby, not 爱 + 好户外运动)
    r"|热爱|爱吃|爱喝|爱好|爱(?!好)|迷上了|迷上|痴迷于?|着迷于?|迷(?![路糊信惑失茫人你他她上])"
    # ("我不太能吃辣": a mild can't, a dislike)
    r"|讨厌吃|讨厌喝|讨厌|受不了|不吃|吃不了|(?:不太|不怎么|不大)?不?能吃|不敢吃|喝不了|能吃)(?P<item>[^，,。.!?！？；;]{1,12})"
)
#: The same without a subject, in a later clause of a first-person sentence ("我喜欢吃面条，
#: 不喜欢吃米饭", "我是个吃货，最爱小龙虾"): only the eating/drinking verbs and "最爱".
_TASTE_ZH_BARE = re.compile(
    r"^\W*(?:但是?|而且|也|还|就|可是)?"
    + _ZH_DEGREE
    + r"(?P<pol>"
    + _ZH_NOT
    + r"?(?:喜欢|爱)(?:吃|喝|(?=看|玩|打|踢|听|弹|画|跑|逛|追|下|钓|爬|游|旅|拍))"
    r"|讨厌(?:吃|喝)|最爱|最喜欢)"
    r"(?P<item>[^，,。.!?！？；;]{1,12})"
)
_DISLIKE = re.compile(
    r"hate|dislike|detest|loathe|despise|can't|cannot|don't|do\s+not|不|讨厌|受不了", _I
)


_TASTE_DEICTIC = re.compile(
    r"^\W*(?:this|that|these|those|your|it|is|are|was|when|how|what|whatever)\b|^\W*(?:这个|那个|你的|这家|那家)",
    _I,
)


#: "AC/DC", "R/B": a slash inside one capitalised name is no list.
_ACRONYM_SLASH = re.compile(r"\b([A-Z][A-Z0-9]{0,4})/([A-Z][A-Z0-9]{0,4})\b")
#: Category nouns a list of modifiers shares: "action and comedy movies".
_SHARED_HEADS = frozenset(
    {"movies", "films", "shows", "series", "music", "songs", "books", "novels", "stories"}
    | {"poems", "cuisine", "weather"}
)


def _shared_head(parts: list[str]) -> list[str]:
    """Give one-word modifiers the category noun the last item ends with: "action and
    comedy movies" -> action movies, comedy movies; "sunny and warm weather" -> sunny
    weather, warm weather. A plural or a category noun on its own ("comedies and romance
    films", "music and movies"), an activity ("gardening and classical music") and a word
    cased unlike the shared modifier ("pizza and Italian cuisine") are items already."""
    if len(parts) < 2:
        return parts
    *first, last = parts
    words = last.split()
    head = words[-1].lower() if len(words) >= 2 else ""
    if head not in _SHARED_HEADS:
        return parts
    out = []
    upper = words[-2][:1].isupper()
    for p in first:
        bare = " " not in p and p.isascii() and not p.lower().endswith(("s", "ing"))
        bare = bare and p[:1].isupper() == upper
        out.append(f"{p} {words[-1]}" if bare and p.lower() not in _SHARED_HEADS else p)
    return [*out, last]


#: Where a household taste holds, after the item: "Thai food in this house", "curry at home",
#: "we all hate sprouts here".
_AT_HOME = re.compile(
    r"\s+(?:in\s+(?:this|our|my)\s+(?:house|home|household|family)|at\s+home|as\s+a\s+family)\b.*$"
    r"|\s+(?:over\s+|round\s+|around\s+)?here\W*$",
    _I,
)


#: A food named by what a dish has in it: "anything with cilantro (in it)", "food containing
#: capers", "dishes made with fennel" -> the food itself.
WITH_ITEM_RE = re.compile(
    r"^(?:anything|everything|something|food|foods|dishes|meals|stuff)\s+(?:with|containing|that\s+has"
    r"|that\s+have|that\s+contains?|made\s+with|cooked\s+with)\s+(?=\w)",
    _I,
)
_IN_IT_RE = re.compile(r"\s+in\s+(?:it|them)\b.*$", _I)


def with_item(raw: str) -> str:
    """ "anything with cilantro in it" -> "cilantro"; other items as they are."""
    m = WITH_ITEM_RE.match(raw)
    return _IN_IT_RE.sub("", raw[m.end() :]) if m else raw


#: The verb before a pastime in a list ("... and play chess", "... and do crosswords").
_PASTIME_VERB = re.compile(r"^(?:play|do|go|practi[cs]e)\s+(?=[a-z])", _I)
#: "the stuff", "that stuff": a kind of thing named before in the sentence.
STUFF_RE = re.compile(r"^(?:the|that|this)?\s*stuff$", _I)
_FOOD_GENERIC = frozenset(
    [
        "food",
        "foods",
        "cuisine",
        "dish",
        "dishes",
        "meal",
        "meals",
        "snack",
        "snacks",
        "spicy",
        "sweets",
        "dessert",
        "desserts",
    ]
)


def food_before(text: str) -> str:
    """The last food named in ``text`` that is not a word for food in general, or ""."""
    names = [
        m.group(0)
        for m in taxonomy._FOOD_RE.finditer(text)
        if m.group(0).isascii() and m.group(0).lower() not in _FOOD_GENERIC
    ]
    return names[-1] if names else ""


def h_taste(cl: Clause) -> Iterator[Hit]:
    """taste.<item> = like / dislike."""
    rxs: tuple[re.Pattern[str], ...] = (_TASTE_EN, _TASTE_ZH, _TASTE_ZH_BARE)
    if not cl.third_party and (first := _TASTE_EN.search(cl.text)) is not None:
        rxs = (*rxs, _TASTE_THEN_EN) if _TASTE_THEN_EN.search(cl.text, first.start("item")) else rxs
    for rx in rxs:
        for m in rx.finditer(cl.text):
            if _TASTE_DEICTIC.match(m.group("item")):
                continue  # "I love this song", "what I love is when ...": not a standing taste
            if rx is _TASTE_ZH_BARE and cl.third_party:
                continue
            raw = with_item(_AT_HOME.sub("", m.group("item").strip()))
            if raw.startswith("的"):  # "我最喜欢的运动是游泳": the taste is what follows 是
                fav = re.match(r"的[^是]{0,8}?是(?P<v>.+)", raw)
                if fav is None:
                    continue  # "这是我很喜欢的活动": the thing liked is named elsewhere
                raw = fav.group("v")
            item = phrase(
                re.sub(
                    r"^(?:to\s+|去|玩|(?:喝|吃)(?=[\u4e00-\u9fff]{2}))",
                    "",
                    raw,
                    flags=_I,
                ),
                4,
            )
            item = _PRAISED.sub("", item) if len(item.split()) > 1 else item
            # "我能吃一点辣" -> 辣 (how much is no part of the item)
            item = re.sub(r"^(?:一点点?|一些|一点儿)(?=[\u4e00-\u9fff])", "", item)
            # "我超讨厌榴莲的味道" -> 榴莲 (the taste is of the food)
            item = re.sub(r"(?<=[\u4e00-\u9fff])的(?:味道|味儿|气味|口感|香味|吃法)$", "", item)
            item = re.sub(r"(?<=[\u4e00-\u9fff])的$", "", item)  # "我超爱吃火锅的" -> 火锅
            if STUFF_RE.match(item):
                # "leave out the coriander, I can't stand the stuff": the food named before
                item = food_before(cl.sentence.text[: cl.start + m.start("item")])
            if not ok_topic(item):
                continue
            parts = _shared_head(split_items(_ACRONYM_SLASH.sub(r"\1-\2", item)))[:3]
            # "I do bouldering and play chess": the verb of a later pastime is no part of it
            parts = parts[:1] + [_PASTIME_VERB.sub("", p) for p in parts[1:]]
            for part in parts:
                if not ok_topic(part):
                    continue
                value = "dislike" if _DISLIKE.search(m.group("pol")) else "like"
                if value == "dislike" and L.PHONE_CALLS_RE.match(part.strip()):
                    calls = cand(Kind.CONSTRAINT, "contact.call", "never", hard=True)
                    yield m.start(), m.end(), calls
                    continue
                c = cand(Kind.PREFERENCE, "taste." + slugify(part), value, normalized=value)
                # the span ends with the item ("I like dark chocolate but milk chocolate is
                # too sweet for me": what follows "but" is read by its own row)
                at = m.group("item").lower().find(part.lower())
                end = m.start("item") + at + len(part) if at >= 0 else m.end()
                yield m.start(), end, c
