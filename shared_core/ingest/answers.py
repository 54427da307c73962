"""Answers to the assistant's questions: the pending question and the statements it frames.

Users answer what the assistant asks tersely: "Leeds." after "Where are you based?",
"just penicillin" after "Any allergies I should know about?", 杭州 after 你住在哪个城市.
Alone such an answer names no key, yet it is a declaration by the user. The write path
keeps the assistant's last question in the session state (:func:`question_of`) and hands it
to the next user turn only; when that turn yields nothing by itself, :func:`frame` turns
question + answer into the statements the user would have made ("I live in Leeds"), tried
in order through the ordinary extractor and gate.

Records read this way are declarations like any other (source ``user_declare``, the
normal confidence): the user said them, and the frame only supplies the words the
question already put in their mouth. Their evidence span is the user's own reply and
their metadata carries the question (``"answering"``), so an application can show
"Leeds (answering: Where are you based?)".

The rows (which questions, which statements) are data in
:mod:`shared_core.ingest._rules_answers`; this module is the mechanics: reading the
question, cleaning the answer, telling a yes from a no, picking the option a choice names,
and the pronoun swap of yes/no questions no row knows ("Are you vegetarian?" + "yep" ->
"I am vegetarian"). A question no row knows is read by its structure: without its wrapper
("Quick question: ..."), by its concepts, or by the key its topic names in the taxonomy's
own words ("Occupation:" -> "I'm {a}"), a negated one ("Any airline you'd rather avoid?")
by the key's negated statements only.

Example:
    >>> frame("Where are you based?", "Leeds.")
    ('I live in Leeds',)
    >>> frame("你对什么过敏吗？", "青霉素")
    ('我对青霉素过敏',)
    >>> frame("What time should I set the alarm?", "7am")
    ()
"""

from __future__ import annotations

import functools
import re

from . import _rules_answers as R
from . import lexicon as L
from ._rulebase import CJK, normalize_text, sentences

__all__ = [
    "MAX_ANSWER_CHARS",
    "MAX_QUESTION_CHARS",
    "frame",
    "question_form",
    "question_of",
    "silenced",
]

#: The longest question kept in the session state (its end is kept: the question itself).
MAX_QUESTION_CHARS = 240
#: Only short answers are framed; a longer reply is read on its own (English / Chinese).
MAX_ANSWER_CHARS = {"en": 80, "zh": 30}

_I = re.IGNORECASE
_CJK = re.compile(f"[{CJK}]")  # the rules' own test for Chinese text
_ZH_QUESTION_END = re.compile(r"(?:吗|嘛|么|呢|没有|不)\W*$")
#: a Chinese question without its question mark, as the turn's last sentence: 你住在哪个城市
_ZH_QUESTION_WORD = re.compile(r"吗|呢|哪|什么|几|多少|怎么|如何|是否|有没有|(\w)不\1")
_TRAILING = re.compile(r"[\s\"'“”‘’)\]）】」』~～…]+$|[\U0001F300-\U0001FAFF\u2600-\u27BF]+\s*$")


def question_of(text: str) -> str | None:
    """The last question an assistant turn asks (at most :data:`MAX_QUESTION_CHARS`), else
    ``None``: a sentence ending in ``?``/``？``, or a Chinese one ending in 吗 / 呢 / 几 ...
    without its question mark."""
    if not text or not (re.search(r"[?？:：]", text) or _CJK.search(text)):
        return None
    last = True
    for sent in reversed(sentences(normalize_text(text))):
        s = _TRAILING.sub("", sent.strip())
        if not s:
            continue
        zh = _CJK.search(s) is not None
        if (
            s.endswith(("?", "？"))
            or (
                last and s.endswith((":", "：")) and len(s) <= 80
            )  # a form field: "Food allergies:"
            or (zh and _ZH_QUESTION_END.search(s))
            or (zh and last and s[-1] not in "。！!." and _ZH_QUESTION_WORD.search(s))
        ):
            s = s.strip()
            return s[-MAX_QUESTION_CHARS:] if len(s) > MAX_QUESTION_CHARS else s
        last = False
    return None


_CONTRACTIONS = (
    (re.compile(r"\b(what|where|who|how|when|which|that|it)'s\b", _I), r"\1 is"),
    (re.compile(r"\b(you|we|they)'re\b", _I), r"\1 are"),
    (re.compile(r"\byou've\b", _I), "you have"),
    (re.compile(r"\b(?:r)\s+(?=u\b|you\b)", _I), "are "),
    (re.compile(r"\bwanna\b", _I), "want to"),
)


@functools.lru_cache(maxsize=256)
def question_form(question: str) -> str:
    """The question as the rows read it: lower case, contractions spelled out, Traditional
    characters read as Simplified, 您 as 你, one space between words."""
    q = normalize_text(question).translate(L.T2S).replace("您", "你").lower()
    for pattern, repl in _CONTRACTIONS:
        q = pattern.sub(repl, q)
    return re.sub(r"\s+", " ", q).strip()


def _core(q: str) -> str:
    """The question without its wrapper (an opener, a reason, a form's numbering, a polite
    tail: :data:`~shared_core.ingest._rules_answers.WRAPPER_LEAD` / ``WRAPPER_TAIL``)."""
    for _ in range(2):
        q = _WRAP_LEAD.sub("", q, count=1)
    return _WRAP_TAIL.sub("", q).strip() or q


_WRAP_LEAD = re.compile(R.WRAPPER_LEAD, _I)
_WRAP_TAIL = re.compile(R.WRAPPER_TAIL, _I)
_SPEND_ASK = re.compile(R.SPEND_ASK, _I)


def _lang(question: str) -> str:
    return "zh" if _CJK.search(question) else "en"


# -- the answer --------------------------------------------------------------------------------
_LEAD_EN = re.compile(
    r"^(?:(?:oh|um+|uh+|er+m?|hmm+|well|so|ok(?:ay)?|ah|actually|honestly|basically|i\s+guess"
    r"|i\s+think|i'?d\s+say|probably|prob|prolly|probs|mostly|mainly|usually|normally|typically|generally|just"
    r"|only|it\s+is|it'?s|that\s+is|that'?s|that\s+would\s+be|that'?d\s+be|currently|these\s+days"
    r"|right\s+now|at\s+the\s+moment|mine\s+is|my\s+\w+\s+is|i'?m|i\s+am|i\s+have|i've"
    r"|definitely|absolutely|for\s+sure|(?:you\s+can\s+)?call\s+me|(?:the\s+|my\s+)?name'?s|i\s+go\s+by"
    r"|i\s+live\s+in|(?:i'?m\s+)?(?:based|living)\s+in)\b[\s,.:;!-]*)+",
    _I,
)
_TAIL_EN = re.compile(
    r"(?:[\s,]+(?:is|are|'s|would\s+be|will\s+be)?\s*(?:fine|good|ok|okay|great|perfect|best"
    r"|preferred|ideal)(?:\s+(?:thanks|thank\s+you|with\s+me|for\s+me))?"
    r"|[\s,]+(?:works|suits\s+me|please|pls|plz|thanks|thank\s+you|thx|ty|i\s+think|i\s+guess"
    r"|probably|mostly|ideally|usually|normally|as\s+well|too|myself|here|btw|by\s+the\s+way|lol|haha)"
    r"|\s*[.!~…]+)+\s*$",
    _I,
)
_LEAD_ZH = re.compile(
    r"^(?:嗯+|呃+|哦+|噢+|额+|啊+|唔+|恩+|就是|就|是|目前|现在|大概|应该是?|可能是?|一般|主要是?|只有|只是|只|其实|我觉得|叫我"
    r"|我?(?:现在|目前)?(?:常住|定居|人)在|我?(?:现在|目前)?住在?"
    r"|[他她它]叫|[他她它]是"
    r"|[，,。.、\s])+"
)
_TAIL_ZH = re.compile(
    r"(?:就行了?|就好了?|就可以了?|就ok|即可|都行|这边|那边|这儿|那儿|吧|啊|呀|呢|哦|啦|嘛|哈|呗|噢|[，,。.!！~～…\s])+$",
    _I,
)
_PREP_EN = re.compile(r"^(in|at|to|for|with|by|on|as|from|near|around|outside|via)\b", _I)
_ENDS_PREP_EN = re.compile(r"\s+(?:in|at|to|for|with|by|on|as|from)\s*$", _I)


def _clean(answer: str, lang: str) -> str:
    a = normalize_text(answer).strip()
    if lang == "zh":
        a = re.sub(r"[，,、]\s*(?:还有|以及)", "和", a.translate(L.T2S))
        for _ in range(2):
            a = _TAIL_ZH.sub("", _LEAD_ZH.sub("", a)).strip()
        return a
    a = re.sub(r"\.\s+(?=(?:and|also|plus|or)\b)", ", ", a, flags=_I)  # "olives. and coriander"
    for _ in range(2):
        a = _TAIL_EN.sub("", _LEAD_EN.sub("", a)).strip()
    return a.strip(" ,;:-\"'")


_YES_EN = re.compile(
    r"^(?:yes|yeah|yea|yep|yup|ya|yah|aye|sure|of\s+course|definitely|absolutely|certainly"
    r"|correct|right|that'?s\s+right|indeed|totally|uh[\s-]?huh|mhm|yes\s+indeed"
    r"|(?:i\s+(?:am|do|have|can|sure\s+do|sure\s+am)|i'm)(?=\W*$|\s*[,.;!])"  # the echo alone
    r"|you\s+bet|for\s+sure|always|very\s+much"
    # a degree or a frequency alone is a yes ("Do you speak French?" + "a little")
    r"|(?:a\s+(?:little|bit)(?:\s+bit)?|fluently|every\s+(?:day|morning|night|week)|daily|most\s+days"
    r"|all\s+the\s+time|regularly|often|mostly)(?=\W*$))\b",
    _I,
)
_NO_EN = re.compile(
    r"^(?:no(?=\s*(?:[,.!;:—–-]|$|thanks|thank|not\b|never\b|i\b))|nope|nah|not\s+really|never|not\s+at\s+all|i'?m\s+not|i\s+am\s+not|i\s+don'?t"
    r"|i\s+do\s+not|i\s+haven'?t|i\s+have\s+not|i\s+can'?t|i\s+cannot|negative|not\s+anymore"
    r"|not\s+any\s+more)\b",
    _I,
)
#: a yes on its own ("是的", "嗯，…"); a yes that repeats the verb (能吃, 养了) is read by the swap
_YES_ZH = re.compile(
    r"^(?:是的?|对的?|嗯+|恩|有的?|那?(?:当然|肯定|必须)(?:是|的)?|算是|没错|会的?|能|可以|对呀|是啊|有啊|好的?)(?:啊|呀|呢|啦|嘛|哈|吧|的)*(?=[\W\s]|$)"
)
_NO_ZH = re.compile(r"^(?:不|没|别|无)")


def _polarity(answer: str, lang: str) -> tuple[str, str] | None:
    """("yes" | "no", what the answer adds after it) for a yes/no answer, else ``None``."""
    a = normalize_text(answer).strip()
    if lang == "zh":
        a = a.translate(L.T2S)
        for pol, rx in (("no", _NO_ZH), ("yes", _YES_ZH)):
            m = rx.match(a)
            if m:
                return pol, _clean(a[m.end() :], "zh")
        return None
    a = re.sub(r"^(?:oh|um+|uh+|well|haha|ah)[\s,]+", "", a, flags=_I)
    for pol, rx in (("no", _NO_EN), ("yes", _YES_EN)):
        m = rx.match(a)
        if m:
            return pol, _clean(re.sub(r"^[\s,.;:!-]+", "", a[m.end() :]), "en")
    return None


_ZH_ADVERB = re.compile(
    r"^(?:那?(?:当然|肯定)是?|必须|挺|很|特别|超|比较|还挺|还|也|都|一直|经常|常)"
)


def _echo_yes(q: str, answer: str) -> tuple[str, str] | None:
    """A Chinese yes that repeats the question's words (你对花粉过敏吗 + 过敏，春天难受):
    ("yes", what follows them); a 不 / 没 before them is no yes."""
    a = _ZH_ADVERB.sub("", normalize_text(answer).strip().translate(L.T2S))
    modal = re.match(r"(?:能|会|可以)", a)
    if modal and (
        a[modal.end() : modal.end() + 2] in q or a[modal.end() : modal.end() + 1] in "吃喝用"
    ):
        a = a[modal.end() :]  # 你吃辣吗 + 肯定能吃啊; 你对芒果过敏吗 + 会过敏
    if a.startswith("爱") and "喜欢" in q:
        a = "喜欢" + a[1:]  # 你喜欢喝咖啡吗 + 超爱
    head = a[:2]
    if (
        head not in q
        and a[:1] in "吃喝有养用会要"
        and a[:1] in q
        and a[1:2] in ("", "的", "嘛", "啊", "呀", "啦", "，", ",")
    ):
        head = a[:1]  # 你吃辣吗 + 肯定吃嘛
    if head and all(_CJK.fullmatch(c) for c in head) and head in q:
        if head[0] in "不没别" or head in ("什么", "哪个", "你们"):
            return None
        return "yes", _clean(a[2:], "zh")
    return None


_NOT_A_VALUE_EN = re.compile(
    # a clause of its own: "the weather is nice", "can you help me", "I'm busy"
    r"\b(?:is|are|was|were|am|be|been|has|have|had|do|does|did|can|could|will|would|should|shall|must"
    r"|might|isn't|aren't|wasn't|hasn't|haven't|don't|doesn't|didn't|can't|won't|wouldn't|i|you|we|they"
    r"|he|she|it|me|us|them|who|what|why|how|that|this|there|cares|stop|asking|telling|browsing|busy"
    r"|help|know|raining|snowing)\b"
    # amounts, pointers and meta that name nothing
    r"|^(?:a\s+lot|lots|loads|tons|heaps|plenty|several|some|a\s+few|few|a\s+couple|too\s+many|many|much"
    r"|not\b.*|nothing\s+much|everything|all\s+of\s+(?:them|it|that)"
    r"|none\s+of\s+(?:them|it|that)|depends\b.*|(?:the|this|that|a|an)\s+(?:\w+\s+)?one|(?:a\s+)?weird\s+question"
    r"|(?:(?:very|pretty|quite|really|super|fairly|kinda|a\s+bit|somewhat)\s+)?(?:bad|severe|serious|mild|minor|bad\s+one|strong))$",
    _I,
)
_WHEN_EN = re.compile(
    r"\b(?:today|tomorrow|yesterday|tonight|now|later|soon|monday|tuesday|wednesday|thursday|friday"
    r"|saturday|sunday|weekend|\d{1,2}\s*(?:am|pm)|o'clock|next\s+\w+|last\s+\w+)\b",
    _I,
)
_NOT_A_VALUE_ZH = re.compile(
    r"^[我你他她]|问问|你猜|关.{0,2}事|不错|挺好|还行|在忙|多了|太多|很多|全部|所有|没什么|不怎么|一般般"
)
_WHEN_ZH = re.compile(
    r"今天|明天|后天|昨天|前天|今晚|一会|下次|下周|上周|周[一二三四五六日末]|星期|礼拜|再说"
)
#: questions whose answer may be a time ("When's your birthday?" + "tomorrow")
_ASKS_TIME = re.compile(
    r"\b(?:birthday|born|hours?|when|muted|quiet|times|(?:what|which)\s+times?)\b|生日|出生|几点|时段|时间",
    _I,
)


_STATE_EN = re.compile(
    r"^\W*(?:i'?m|i\s+am)\s+(?:on|at|in|out|off|away|with|driving|walking|working|eating|cooking|busy|just)\b",
    _I,
)
_ASKS_PLACE = re.compile(r"\bwhere\b|\b(?:city|town|country|based|live|living|located)\b|哪", _I)


def _a_value(a: str, q: str, raw: str = "") -> bool:
    """Whether the cleaned answer's first clause can fill a slot: a value, not a sentence
    of its own ("the weather is nice", 我在忙), an amount or pointer that names nothing
    ("a lot", "the blue one") or, unless a time is asked for, a time ("tomorrow")."""
    # the value comes before a condition or an aside: "Hilton if there's one"
    first = re.split(
        r"[,.;!?—–，。；！？]|\b(?:if|when|because|unless|but|though|although|as\s+long\s+as|since)\b",
        a,
        maxsplit=1,
    )[0].strip()
    if _STATE_EN.match(raw) and not _ASKS_PLACE.search(q):
        return False  # "I'm on the train": where the user is now, no answer
    time_asked = _ASKS_TIME.search(q) is not None
    if _CJK.search(first) and (  # by the answer's script, whatever the question's language
        _NOT_A_VALUE_ZH.search(first) or (_WHEN_ZH.search(first) and not time_asked)
    ):
        return False
    return not re.search(r"[A-Za-z]", first) or not (
        _NOT_A_VALUE_EN.search(first) or (_WHEN_EN.search(first) and not time_asked)
    )


# -- filling templates -------------------------------------------------------------------------
_DETERMINER = re.compile(r"^(?:a|an|the|my|our|some|self[\s-]employed|retired|unemployed)\b", _I)
_NUMBER = re.compile(
    r"^(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|[一二两三四五六七八九十]+)"
    r"(?:\s+of\s+them)?$",
    _I,
)


def _count(r: str) -> str:
    return re.sub(r"\s+of\s+them$", "", r, flags=_I)


def _with_article(a: str) -> str:
    if _DETERMINER.match(a) or len(a.split()) > 4 or _NUMBER.match(a):
        return a
    return ("an " if a[:1].lower() in "aeiou" else "a ") + a


_SMALL_WORDS = frozenset(
    {"of", "the", "and", "de", "la", "le", "du", "da", "del", "van", "von", "upon", "on", "am"}
)
#: words before a place that stay as they are ("near Manchester", "outside Leeds")
_PLACE_PREPS = frozenset({"near", "in", "at", "around", "outside", "by", "close", "to", "just"})


def _proper(a: str) -> str:
    """A name written all in lower case, as a proper name ("jen" -> "Jen", "new york" ->
    "New York", "stoke-on-trent" -> "Stoke-on-Trent"); any other answer as it is."""
    if not re.fullmatch(r"[a-z][a-z .,'&-]{0,40}", a) or len(a.split()) > 4:
        return a
    parts = re.split(r"([\s,-]+)", a)
    lead = 0
    while lead < len(parts) and (parts[lead] in _PLACE_PREPS or not parts[lead].strip(" ,-")):
        lead += 1
    return "".join(
        p
        if n < lead or (n > lead and p in _SMALL_WORDS) or not p.strip(" ,-")
        else p[:1].upper() + p[1:]
        for n, p in enumerate(parts)
    )


def _fill(template: str, a: str, lang: str, **groups: str) -> str:
    """``template`` with the answer ``a`` in it, the words both repeat said once ("in Leeds"
    into "I live in {a}" -> "I live in Leeds"; 对青霉素过敏 into 我对{a}过敏)."""
    if "{A}" in template:  # a proper name: "york" -> "York"
        template, a = template.replace("{A}", "{a}"), _proper(a)
    head, _, tail = template.partition("{a}")
    if "{a_}" in template:
        head, _, tail = template.partition("{a_}")
        a = _with_article(a)
    if re.search(r"don't|never|不", head) and re.match(r"no\s+", a, _I):
        a = a[3:].lstrip()  # "no pork" into "I don't eat {a}"
    extra = ""
    if lang == "zh" and tail:  # 教育，在中学教书 into 我在{a}行业工作: the rest after it
        parts = re.split(r"[，,。；;！!]", a, maxsplit=1)
        if len(parts) == 2 and parts[0].strip():
            a, extra = parts[0], (f"，{parts[1]}" if parts[1].strip() else "")
    if lang == "zh":
        for n in range(min(3, len(head)), 0, -1):
            if a.startswith(head[-n:]):
                a = a[n:]
                break
        for n in range(min(4, len(tail)), 0, -1):
            if a.endswith(tail[:n]):
                a = a[: len(a) - n]
                break
        if not a:
            return ""
        return (head + a + tail).format(**groups) + extra
    head_words = head.lower().split()
    for n in range(
        min(3, len(head_words)), 0, -1
    ):  # "allergic to latex" into "I'm allergic to {a}"
        said = " ".join(head_words[-n:])
        if re.match(re.escape(said) + r"\b", a, _I) and not (n == 1 and said in ("i", "my")):
            a = a[len(said) :].strip()
            break
    if _PREP_EN.match(a) and _ENDS_PREP_EN.search(head):
        head = _ENDS_PREP_EN.sub(" ", head)
    tail_words = tail.strip().lower()
    if tail_words and a.lower().endswith(tail_words):
        a = a[: len(a) - len(tail_words)].rstrip()
    if not a:
        return ""
    return (head + a + tail).format(**groups).strip()


# -- the three kinds of question -----------------------------------------------------------------
@functools.lru_cache(maxsize=1)
def _rows() -> tuple[
    list[tuple[str, re.Pattern[str], tuple[str, ...]]],
    list[tuple[str, re.Pattern[str], str | None, str | None]],
    list[tuple[str, re.Pattern[str], str, str]],
]:
    wh = [(lang, re.compile(R.english(p), _I), t) for lang, p, t in R.WH_ROWS]
    yn = [(lang, re.compile(R.english(p), _I), y, n) for lang, p, y, n in R.YESNO_ROWS]
    ch = [(lang, re.compile(p, _I), t, need) for lang, p, t, need in R.CHOICE_ROWS]
    return wh, yn, ch


def _groups(m: re.Match[str]) -> dict[str, str]:
    g = {k: v for k, v in m.groupdict().items() if v}
    if "w" not in g:
        g["w"] = next((v for k, v in g.items() if k.startswith("w")), "")
    return g


_NEGATED_BEFORE = re.compile(
    r"(?:\bnot|\bno|\bnever|n't|\bwithout|不要|不|别|没|从来不|从不)\W{0,3}$", _I
)
#: a yes/no question that checks a standing preference ("Is an exit row okay for you?")
_PREFERENCE_CHECK = re.compile(
    r"\b(?:ok|okay|alright|fine|prefer|preferred|better|best|easiest|easier|good|suit|work\s+for|like|want|usually|normally|typically|generally|tend\s+to|should\s+i\s+(?:use|keep|stick|go\s+with))\b"
    r"|可以吗|行吗|好吗|要吗|喜欢|习惯|一般|(?:要|需要).{0,8}(?:吗|么)",
    _I,
)
_CHOICE_MARK = re.compile(r"\bor\b|还是|或者|或是", _I)


def _named(rx: re.Pattern[str], answer: str) -> list[str]:
    """The options of ``rx`` the answer names, first said first, negated ones left out."""
    return [
        m.group(0).lower()
        for m in rx.finditer(answer)
        if not _NEGATED_BEFORE.search(answer[max(0, m.start() - 14) : m.start()])
    ]


def _choice(q: str, answer: str, lang: str, pol: tuple[str, str] | None) -> tuple[str, ...] | None:
    """A choice question ("window or aisle?", 靠窗还是靠过道): the statements of the option
    the answer names first (``None``: not a choice question; ``()``: no option chosen). A
    yes/no check of one option of a vocabulary ("Is an exit row okay?") is a choice too:
    a yes takes it, naming another option takes that one."""
    offers = _CHOICE_MARK.search(q) is not None
    for row_lang, rx, templates, need in _rows()[2]:
        if row_lang != lang or (need and not re.search(need, q, _I)):
            continue
        offered = {m.group(0).lower() for m in rx.finditer(q)}
        if not offered or (len(offered) < 2 and (offers or not _PREFERENCE_CHECK.search(q))):
            continue  # one option of this vocabulary in an "X or something else?" question
        named = _named(rx, answer)
        if named:
            c = named[0]
        elif len(offered) == 1 and pol is not None and pol[0] == "yes":
            c = next(iter(offered))
        else:
            return ()
        return tuple(t.replace("{c}", c) for t in templates.split("|"))
    if offers:  # an open "X or Y?" whose answer names neither may still be a wh row's
        return _any_choice(q, answer, lang) or None
    return None


_OPTION_LEFT = re.compile(
    r"[,:;—–]|\b(?:prefer|like|want|you|u|be|is|are|use|go\s+for|choose|get|usually|generally)\b",
    _I,
)
_OPTION_RIGHT = re.compile(
    r"[,?.!:;—–]|\b(?:for|when|in|on|at|generally|usually|normally|then|these\s+days)\b", _I
)
_CHOICE_STOP = frozenset({"a", "an", "the", "some", "more", "less", "by", "with", "to", "of"})


def _any_choice(q: str, answer: str, lang: str) -> tuple[str, ...]:
    """An "X or Y?" question no row knows ("Coffee or tea?", 川菜还是粤菜): the option the
    answer starts with, as "I prefer {c}" (or the question turned around: "Are you a
    student or working?" + "student" -> "I am a student")."""
    m = _CHOICE_MARK.search(q)
    if m is None:
        return ()
    before, after = q[: m.start()], q[m.end() :]
    if lang == "zh":
        left = re.split(r"[，,：:。？?]|你|喜欢|习惯|一般|要|用|是", before)[-1].strip()
        right = re.split(r"[，,：:。？?！!]|呢|吗", after)[0].strip()
        a = _clean(answer, "zh")
        for opt in (left, right):
            if opt and (a.startswith(opt) or (len(opt) >= 2 and a.startswith(opt[:2]))):
                if re.search(r"你(?:现在|目前|平时)?是" + re.escape(left) + "$", before):
                    return (f"我是{opt}", f"我喜欢{opt}")  # 你是学生还是已经工作了 + 学生
                return (f"我喜欢{opt}", f"我{opt}")
        return ()
    left = " ".join(_OPTION_LEFT.split(before)[-1].split()[-3:])
    right = " ".join(_OPTION_RIGHT.split(after)[0].split()[:3])
    first = re.split(r"[,.;!—–-]", _clean(answer, "en").lower(), maxsplit=1)[0]
    picked = [
        opt
        for opt in (left, right)
        if opt
        and any(
            re.search(r"\b" + re.escape(w) + r"\b", first)
            for w in opt.lower().split()
            if w not in _CHOICE_STOP and len(w) > 2
        )
    ]
    if len(picked) != 1:
        return ()
    opt = picked[0]
    if re.search(r"(?:^|\b)(?:are|r)\s+(?:you|u)\b", before, _I):
        return (f"I am {opt}",)
    return (f"I prefer {opt}",)


_WH_EN = re.compile(
    r"^(?:\W|and\b|so\b|also\b|ok(?:ay)?\b|great\b|cool\b|\s)*(?:what|where|which|who|whom|whose|when|why|how)\b",
    _I,
)
_SWAP_EN = (
    (
        re.compile(
            r"\b(?:are|r)\s+(?:you|u)\s+(?:still\s+|currently\s+|by\s+any\s+chance\s+)?(?P<rest>.+)$",
            _I,
        ),
        "I am {rest}",
    ),
    (re.compile(r"\bdo\s+(?:you|u)\s+(?:still\s+|currently\s+)?(?P<rest>.+)$", _I), "I {rest}"),
    (re.compile(r"\bhave\s+(?:you|u)\s+got\s+(?P<rest>.+)$", _I), "I have {rest}"),
    (re.compile(r"\bis\s+(?:your|ur)\s+(?P<subj>\w+)\s+(?P<rest>.+)$", _I), "My {subj} is {rest}"),
    (
        re.compile(
            r"\bcan\s+(?:you|u)\s+(?P<rest>(?:eat|drink|speak|read|have|tolerate)\b.+)$", _I
        ),
        "I can {rest}",
    ),
)
_PRONOUNS_EN = {
    "your": "my",
    "ur": "my",
    "yours": "mine",
    "yourself": "myself",
    "you": "me",
    "u": "me",
    "me": "you",
    "my": "your",
}
_ANY_EN = re.compile(r"\b(?:any|some)\s+(?:\w+\s+)?\w+\b|\b(?:anything|something|anyone)\b", _I)
_OBJECT_ARTICLE = re.compile(r"^(?:any|a|an|some)\s+", _I)


#: verbs whose object an answer may name instead of saying yes ("Do you play any
#: sports?" + "tennis")
_NAMING_VERBS = frozenset(
    {
        "like",
        "love",
        "enjoy",
        "play",
        "speak",
        "eat",
        "drink",
        "follow",
        "use",
        "have",
        "take",
        "prefer",
        "watch",
        "read",
    }
)
_NAMED_EN = re.compile(
    r"^(?!(?:it|that|this|not|no|never|just|only|i|we|you|they|he|she|maybe|probably)\b)[\w'-]+(?:\s+[\w'-]+){0,2}$",
    _I,
)


def _swap_en(q: str, pol: str, rest: str) -> tuple[str, ...]:
    if _WH_EN.match(q):
        return ()
    body = re.sub(r"[\s?!.]+$", "", q)
    body = re.sub(
        r"\s*,?\s*\b(?:at\s+all|by\s+any\s+chance|then|though|btw|too|as\s+well)$",
        "",
        body,
        flags=_I,
    )
    for rx, template in _SWAP_EN:
        m = rx.search(body)
        if not m:
            continue
        said = m.group("rest")
        verb = said.split()[0].lower() if said.split() else ""
        if pol == "named":  # "Are you into sports?" + "football": the instance named
            if template == "I am {rest}":
                prep = re.match(r"(?:into|in|on|at|from|with)\s+", said, _I)
                # "a pescatarian", never "I am Monday" (a name)
                return (f"I am {prep.group(0)}{rest}" if prep else f"I am {_with_article(rest)}",)
            if template == "I {rest}" and verb in _NAMING_VERBS:
                return (f"I {verb} {rest}",)
            return ()
        if (
            pol == "no"
            and template == "I am {rest}"
            and rest
            and not re.match(r"(?:but|and|not|though|i\b|it\b|that\b|just\b)", rest, _I)
        ):
            return (f"I am {rest}",)  # "Are you working?" + "no, retired since 2019"
        if pol == "no" and (template != "I {rest}" or verb not in R.NEG_VERBS_EN):
            return ()
        words = [_PRONOUNS_EN.get(w.lower(), w) for w in re.findall(r"[\w'/-]+|[^\w\s]", said)]
        said = re.sub(r"\s+([,.;:])", r"\1", " ".join(words))
        if pol == "yes" and rest:
            if _ANY_EN.search(said):
                said = _ANY_EN.sub(rest, said, count=1)
            elif _NUMBER.match(rest):
                obj = said.split(None, 1)
                if len(obj) == 2:
                    said = f"{obj[0]} {_count(rest)} {_OBJECT_ARTICLE.sub('', obj[1])}"
        elif _ANY_EN.search(said) and not re.search(r"\bany\s+(?:kids|children|pets)\b", said, _I):
            return ()  # "yes" to "anything?" says nothing until it names the thing
        groups = {k: v for k, v in m.groupdict().items() if k != "rest"}
        out = template.format(rest=said, **groups)
        if pol == "no":
            out = re.sub(r"^I ", "I don't ", out)
        return (out,)
    return ()


_SWAP_ZH = re.compile(
    r"(?:^|[，,。：:？?！!]|你|家里)(?:自己|平时|一般|现在|还|也|家里)?(?:(?P<ab>喜不喜欢|吃不吃|喝不喝|有没有|养没养|是不是|会不会|用不用|能不能吃|抽不抽烟|结没结婚)"
    r"|(?P<v>喜欢|能吃|吃|喝|有|养|是|会|用|抽烟|开车|结婚|成家|单身|需要|住在|住|要(?!我)))(?P<o>[^吗嘛么呢？?。，,]*)(?:吗|嘛|么|呢)\W*$"
)
_AB_ZH = {
    "喜不喜欢": "喜欢",
    "吃不吃": "吃",
    "喝不喝": "喝",
    "有没有": "有",
    "养没养": "养",
    "是不是": "是",
    "会不会": "会",
    "用不用": "用",
    "能不能吃": "能吃",
    "抽不抽烟": "抽烟",
    "结没结婚": "结婚",
}


def _swap_zh(q: str, pol: str, rest: str, answer: str, *, echo: bool = False) -> tuple[str, ...]:
    m = _SWAP_ZH.search(q)
    if not m or re.search(r"什么|哪|几|多少|怎么", q):
        return ()
    v = _AB_ZH.get(m.group("ab") or "", m.group("v") or "")
    o = m.group("o") or ""
    if v.startswith("住") and pol != "no" and o:
        return (f"我住在{o}",)  # 你住北京吗 + 对
    if v in ("结婚", "成家"):
        v, o = "结婚", "了"
    if v == "单身":
        o = ""
    if pol == "no":
        if not v.endswith(R.NEG_VERBS_ZH) or v.startswith("能"):
            return ()
        return (f"我不{v}{o}",)
    a = normalize_text(answer).translate(L.T2S)
    said = re.match(
        r"(?:挺|很|特别|超|比较|还挺|当然)?(?:能|爱|会|常|经常|喜欢)?(?:"
        + "|".join(map(re.escape, dict.fromkeys((v, v[0], v[-1]))))
        + ")",
        a,
    )
    if echo:  # no yes word: a yes only when the answer starts with the verb (能吃, 养了，一只狗)
        if said is None:
            return ()
        rest = _clean(re.sub(r"^[了过的]", "", a[said.end() :]), "zh")
    if rest and v in ("有", "养") and not rest.startswith(v):
        count = re.split(r"[，,。]", rest)[0].replace("俩", "两个").replace("仨", "三个")
        if re.fullmatch(
            r"[一二两三四五六七八九十\d]+[个只条位]?", count
        ):  # 有，两个 -> 我有两个孩子
            rest = count + o
        return (f"我{'养了' if v == '养' else '有'}{rest}",)
    out = [f"我{said.group(0)}{o}"] if said and said.group(0) != v[-1] else []
    out.append(f"我{v}{o}")
    if v in ("吃", "喝"):
        out.append(f"我能{v}{o}")
    return tuple(dict.fromkeys(out))


_HEDGE = re.compile(
    r"\bi\s+(?:think|believe|guess|reckon|suppose|assume|gather|heard|'d\s+say|would\s+say)\b"
    r"|\bif\s+i\s+(?:remember|recall)(?:\s+(?:right|correctly))?\b|我觉得|我猜|我想|我记得",
    _I,
)
_FIRST_PERSON = re.compile(
    r"\b(?:i|i'm|im|i've|i'd|i'll|me|my|mine|myself|we|our|us)\b|我|俺|咱|本人", _I
)


def silenced(question: str | None, answer: str) -> bool:
    """Whether ``answer`` states nothing about the user because of the question it answers:
    somebody's words (a caption, a sentence to translate, what someone said), a reply to a
    one-off question that names the occasion itself ("这顿饭预算多少？" + "这顿两百以内"), or
    a reply without a first-person word to a question about another person, a thing or a
    hypothetical ("你哥住哪？" + "住在重庆"; "Which language is that menu in?" + "Italian")."""
    if not question:
        return False
    q = question_form(question)
    if R.QUOTED_RE.search(q):
        return True
    if R.ONE_OFF_RE.search(q) and R.OCCASION_RE.search(answer):
        return True  # "这顿饭预算多少？" + "这顿两百以内": the answer names the occasion itself
    said = _HEDGE.sub(" ", answer)  # "Italian, I think": a hedge is no first-person statement
    if (
        R.ONE_OFF_RE.search(q)
        and R.OCCASION_RE.search(q)
        and len(said.split()) <= 4
        and not _FIRST_PERSON.search(said)
        and not re.search(r"\b(?:not|never|no)\b|n't|不|别|没", said, _I)
    ):
        return True  # "How much for dinner tonight?" + "up to $90": this occasion's value
    return R.ABOUT_OTHERS_RE.search(q) is not None and _FIRST_PERSON.search(said) is None


_PERSON_WORD = re.compile(r"\b(?:my|me|i|you|am|who|what|how|should|to)\b|我|你", _I)


@functools.lru_cache(maxsize=1)
def _topics() -> tuple[tuple[str, str, re.Pattern[str], tuple[str, ...], tuple[str, ...]], ...]:
    """(lang, key, words, templates, templates when negated) of every topic frame: the key's
    own words from the taxonomy (label and query words, less the general ones) and the
    row's extra words."""
    from ..taxonomy import KEYS

    out = []
    for key, extra_en, extra_zh, t_en, t_zh in R.TOPIC_FRAMES:
        row = KEYS.get(key)
        own_en = (row.label_en, *row.words_en) if row else ()
        own_zh = (row.label_zh, *row.words_zh) if row else ()
        neg_en, neg_zh = R.TOPIC_NEGATED.get(key, ((), ()))
        for lang, own, extra, templates, neg in (
            ("en", own_en, extra_en, t_en, neg_en),
            ("zh", own_zh, extra_zh, t_zh, neg_zh),
        ):
            words = {
                w.lower()
                for w in own
                if w.lower() not in R.TOPIC_GENERIC and not _PERSON_WORD.search(w)
            } | set(extra)
            # a Chinese word of one character names no topic (菜 in 香菜)
            words = {w for w in words if (lang == "zh") == bool(_CJK.search(w)) and len(w) > 1}
            if not words or not (templates or neg):
                continue
            alts = "|".join(
                re.escape(w).replace(r"\ ", r"[\s-]+") for w in sorted(words, key=len, reverse=True)
            )
            rx = rf"(?<![\w-])(?:{alts})(?:e?s)?(?![\w-])" if lang == "en" else f"(?:{alts})"
            out.append((lang, key, re.compile(rx, _I), templates, neg))
    return tuple(out)


_TOPIC_NEGATION = re.compile(R.TOPIC_NEGATION, _I)
_TOPIC_TRIP = re.compile(R.TOPIC_TRIP, _I)
#: a template that states what the user does not do or want
_NEGATIVE_TEMPLATE = re.compile(r"n't|\b(?:never|not|no)\b|不|别", _I)
_YOUR_BEFORE = re.compile(r"\b(?:your|ur)\s+(?:[\w'-]+\s+){0,3}$", _I)
_WH_BEFORE = re.compile(
    r"\b(?:what|which|any|there\s+(?:a|an))\s+(?:(?:kind|type|sort)\s+of\s+|other\s+|particular\s+|specific\s+)?(?:[\w'-]+\s+)?$",
    _I,
)
_HOW_BEFORE = re.compile(
    r"\bhow\s+(?:do|would|will|should|can)\s+(?:you|u)\s+(?:[\w'-]+\s+){0,3}$", _I
)
#: "Would you prefer we continue in another language?": a preference of the user's
_PREF_BEFORE = re.compile(
    r"\b(?:you|u)(?:'d)?\s+(?:\w+\s+)?(?:prefer|rather|like|want|need)\b[^?,]{0,40}$", _I
)
_YOU_EN = re.compile(
    r"\b(?:you|u|ya|your|ur)\b|\bshould\s+i\s+(?:use|quote|show|display|reply|answer|write|format|address|put|list|note|record)\b",
    _I,
)
_LABEL_NOT = re.compile(r"\b(?:the|this|that|these|those|his|her|their|its)\b", _I)
_WH_ZH = re.compile(r"什么|哪|啥|几|多少|怎么|如何")
_YN_ZH = re.compile(r"(?:吗|嘛|么)\W*$")
_THING_ZH = re.compile(r"[这那](?:个|份|本|篇|张|段|部|首|家|些|件|条)")
_ASKS_ZH = re.compile(r"什么|哪|啥|几|多少|吗|呢|[?？:：]\s*$|是\W*$")


def _preference(key: str) -> bool:
    """Whether the taxonomy keeps ``key`` as a preference or constraint (what a "would you
    prefer ...?" question can ask), not a fact ("a different city for the meetup")."""
    from ..taxonomy import kind_of

    return kind_of(key).value in ("preference", "constraint")


def _topic(q: str, lang: str) -> tuple[str, tuple[str, ...]] | None:
    """The key a question no row reads is about, by the taxonomy's words for it, and its
    statements: "What's your go-to cuisine?", "Occupation:", 付款方式偏好？ (``None``: no
    key named for the user)."""
    words = re.findall(r"[\w'/-]+", q)
    label = len(words) <= 5 and not _WH_EN.match(q) and not _LABEL_NOT.search(q)
    if _TOPIC_TRIP.search(q):
        return None  # "Which city are you flying to?": this trip's place
    negated = _TOPIC_NEGATION.search(re.split(r"[,，;；]", q)[-1]) is not None
    best: tuple[int, int, str, tuple[str, ...]] | None = None
    for n, (row_lang, key, rx, positive, neg) in enumerate(_topics()):
        templates = neg if negated else positive
        if row_lang != lang or not templates:
            continue
        for m in rx.finditer(q):
            before = q[: m.start()]
            if re.match(r"(?:'s|s')\s", q[m.end() :]):
                continue  # "your company's CEO": the topic owns what is asked about
            if lang == "en":
                ok = (
                    _YOUR_BEFORE.search(before) is not None
                    or label
                    or (_PREF_BEFORE.search(before) is not None and _preference(key))
                    or (
                        (_WH_BEFORE.search(before) or _HOW_BEFORE.search(before))
                        and _YOU_EN.search(q) is not None
                    )
                )
            else:  # a wh-question, not about a thing (这个文件是什么语言的)
                ok = _ASKS_ZH.search(q) is not None
                ok = (
                    ok
                    and (_WH_ZH.search(q) is not None or not _YN_ZH.search(q))
                    and not _THING_ZH.search(q)
                    and (
                        "你" in q
                        or len(q) <= 12
                        or re.search(r"(?:什么|哪|啥)\S{0,3}$", before) is not None
                    )
                )
            if ok and (best is None or len(m.group(0)) > best[0]):
                best = (len(m.group(0)), n, key, templates)
    return (best[2], best[3]) if best else None


def _concept(q: str, lang: str) -> tuple[str, ...] | None:
    """The templates of the first concept row every pattern of which the question has."""
    for row_lang, patterns, templates in _concepts():
        if row_lang == lang and all(rx.search(q) for rx in patterns):
            return templates
    return None


@functools.lru_cache(maxsize=1)
def _concepts() -> tuple[tuple[str, tuple[re.Pattern[str], ...], tuple[str, ...]], ...]:
    return tuple(
        (lang, tuple(re.compile(R.english(p), _I) for p in patterns), templates)
        for lang, patterns, templates in R.CONCEPT_ROWS
    )


def _wh(
    templates: tuple[str, ...],
    groups: dict[str, str],
    q: str,
    raw: str,
    lang: str,
    pol: tuple[str, str] | None,
    *,
    soft: bool = False,
) -> tuple[str, ...] | None:
    """The statements of a wh row (``None``: the question is a yes/no one after all, read
    by the swap). A ``soft`` row (a topic or concept frame) leaves a bare yes or no to the
    swap ("Do you travel business class?" + "yes")."""
    if soft and pol is not None and not pol[1]:
        return None
    if pol is not None and pol[0] == "no" and not pol[1]:
        return ()  # "Any allergies?" + "no": nothing the keys hold
    if pol == ("yes", "") and lang == "en":
        return None  # "Are you lactose intolerant?" + "yes": the question turned around
    if pol == ("yes", ""):
        return ()  # "你还有别的爱好吗？" + "当然啦": a yes that names nothing
    if (
        pol is not None
        and pol[0] == "no"
        and re.match(r"(?:but|and|not|though|我|i\b)", pol[1], _I)
    ):
        return ()  # "no, but my son is": not an answer about the user
    if pol is not None and pol[0] == "yes" and re.match(r"(?:我|i\b|i'm\b)", pol[1], _I):
        return ()  # "当然啦，我还喜欢音乐制作": the user's own sentence says what it says
    # "yes, penicillin"; "no, Kathryn" (the assistant's guess corrected)
    a = pol[1] if pol is not None and pol[1] else _clean(raw, lang)
    if not a or R.NON_ANSWER.search(a) or R.CHATTER.match(a) or R.CHATTER.match(raw):
        return ()
    # "text me", "email me": the channel
    a = re.sub(
        r"^(texts?|e-?mails?|call|ring|phone|message|whatsapp|dm|ping)\s+(?:me|us)\b",
        r"\1",
        a,
        flags=_I,
    )
    if not _a_value(a, q, raw):  # "yes, a bad one": a yes with a comment, read by the swap
        return None if pol is not None and pol[0] == "yes" else ()
    return tuple(dict.fromkeys(s for t in templates if (s := _fill(t, a, lang, **groups))))


def frame(question: str | None, answer: str) -> tuple[str, ...]:
    """The statements ``answer`` makes as a reply to ``question``, most natural first
    (``()`` when the question is not framed or the answer states nothing)."""
    if not question or not answer or not answer.strip():
        return ()
    lang = _lang(question)
    whole = question_form(question)
    if R.NOT_FRAMED.search(_SPEND_ASK.sub(" ", whole)):
        return ()
    q = _core(whole)  # the rows read the question without its wrapper
    raw = normalize_text(answer).strip()
    if len(raw) > MAX_ANSWER_CHARS[lang] or R.NON_ANSWER.search(raw):
        return ()
    pol = _polarity(raw, lang)
    if pol is None and lang == "zh":
        pol = _echo_yes(q, raw)
    wh, yn, _ = _rows()
    asks_wh = (_WH_EN.match(q) if lang == "en" else _WH_ZH.search(q)) is not None
    for row_lang, rx, yes, no in yn:
        m = rx.search(q) if row_lang == lang and not asks_wh else None
        if not m:
            continue
        groups = _groups(m)
        if pol is None:
            template, r = (yes, _clean(raw, lang)) if yes and "{r}" in yes else (None, "")
        else:
            template, r = (yes, pol[1]) if pol[0] == "yes" else (no, "")
        if not template or ("{r}" in template and not r):
            return ()
        x = _OBJECT_ARTICLE.sub("", groups.get("x", ""))
        if _NUMBER.match(r) and x:  # "Do you have kids?" + "yes, two"
            r = f"{_count(r)} {x}"
        named = re.match(r"(?:(?:a|an|the|my)\s+)?[\w-]+\s+((?:called|named)\s+\S.*)$", r, _I)
        out = [t.replace("{r}", r).format(**groups) for t in template.split("|")]
        if named and x:  # "Do you have a dog?" + "yes, a greyhound called Pip"
            out.insert(0, f"I have {groups['x']} {named.group(1)}")
        return tuple(dict.fromkeys(out))
    chosen = _choice(q, raw if lang == "en" else raw.translate(L.T2S), lang, pol)
    if chosen is not None:
        return chosen
    read: tuple[str, ...] | None = None
    soft = False
    negated = _TOPIC_NEGATION.search(re.split(r"[,，;；]", q)[-1]) is not None
    for row_lang, rx, templates in wh:
        m = rx.search(q) if row_lang == lang else None
        if not m:
            continue
        if negated and not _NEGATIVE_TEMPLATE.search(" ".join(templates)):
            topic = _topic(q, lang)  # "Any payment method you'd rather not use?": its no-row
            if topic is None:
                return ()
            read, soft = _wh(topic[1], {"w": ""}, q, raw, lang, pol, soft=True), True
        else:
            read = _wh(templates, _groups(m), q, raw, lang, pol)
        break
    else:  # no row knows the wording: the question's concepts, then its topic
        concept = _concept(q, lang)
        topic = _topic(q, lang) if concept is None else None
        if concept is not None or topic is not None:
            templates = concept if concept is not None else topic[1]  # type: ignore[index]
            read, soft = _wh(templates, {"w": ""}, q, raw, lang, pol, soft=True), True
    if read is not None and not (soft and read and lang == "en" and not asks_wh):
        return read
    # a yes/no question: turned around ("Do you collect miles with any airline?" + "yes,
    # Avios" -> "I collect miles with Avios"), before what its topic reads
    return tuple(dict.fromkeys((*_turned(q, raw, lang, pol), *(read or ()))))


#: the thing a yes/no question asks the user's reaction to ("Is ibuprofen alright for you?",
#: "Does dairy bother you?", "Can you handle spicy food?")
_REACTION_EN = (
    re.compile(
        r"^(?:is|are|would|will)\s+(?P<x>[\w' -]{2,40}?)\s+"
        r"(?:ok(?:ay)?|alright|all\s+right|fine|safe|good|a\s+problem|an\s+issue)\s+(?:for|with)\s+(?:you|u)\b",
        _I,
    ),
    re.compile(
        r"^(?:do|does|did|can|could|would|will)\s+(?P<x>[\w' -]{2,40}?)\s+"
        r"(?:cause|give|bother|upset|affect|agree\s+with|disagree\s+with|make)\s+(?:you|u|your)\b",
        _I,
    ),
    re.compile(
        r"^(?:can|could|do)\s+(?:you|u)\s+(?:handle|tolerate|stomach|digest|take)\s+"
        r"(?P<x>[\w' -]{2,40}?)\W*$",
        _I,
    ),
)
_IT_EN = re.compile(
    r"^(?:it|they|that|those|these|this)(?:'s|\s+(?:is|are|gives?|makes?|causes?|does|do|upsets?|wrecks?|bothers?|triggers?|brings?)\b)",
    _I,
)


def _resolved(q: str, rest: str) -> tuple[str, ...]:
    """The answer's "it" read as the thing the question names ("Is ibuprofen alright for
    you?" + "no, it gives me hives" -> "ibuprofen gives me hives")."""
    m = _IT_EN.match(rest)
    if not m:
        return ()
    for rx in _REACTION_EN:
        x = rx.match(re.sub(r"^(?:\W|and\b|so\b|also\b)+", "", q))
        if x and not re.search(r"\b(?:and|or|that|this|it)\b", x.group("x"), _I):
            thing = re.sub(r"^(?:the|any|a|an|some)\s+", "", x.group("x").strip(), flags=_I)
            return (thing + rest[len(m.group(0).split()[0].split("'")[0]) :],)
    return ()


def _turned(q: str, raw: str, lang: str, pol: tuple[str, str] | None) -> tuple[str, ...]:
    """A yes/no question turned around with the answer in it (the pronoun swap)."""
    if lang == "en" and pol is not None and pol[1]:
        said = _resolved(q, pol[1])
        if said:
            return said
    if lang == "zh":
        if pol is None:
            return _swap_zh(q, "yes", "", raw, echo=True)
        return _swap_zh(q, pol[0], pol[1], raw)
    if pol is None:
        first = re.split(r"[,.;!—–]", _clean(raw, "en"), maxsplit=1)[0].strip()
        if not _NAMED_EN.match(first) or R.CHATTER.match(first) or R.CHATTER.match(raw):
            return ()
        if not _a_value(first, q, raw):
            return ()
        return _swap_en(q, "named", first)
    return _swap_en(q, pol[0], pol[1])
