"""Answer frames: the assistant's question as per-language data rows (issue 12).

Users answer the assistant's questions tersely ("Leeds." after "Where are you based?"); the
answer is a declaration, but alone it names no key. A frame turns the question and the
answer into the statement the user would have made ("I live in Leeds"), which then goes
through the ordinary extractor and gate (:mod:`shared_core.ingest.answers` drives it).

Every row starts with its language (``"en"``/``"zh"``); its pattern is matched against the
question as :func:`~shared_core.ingest.answers.question_form` puts it (lower case,
``what's`` -> ``what is``, Traditional -> Simplified, 您 -> 你). ``{you}`` and ``{your}`` in
an English pattern also match chat spellings (``u``, ``ur``).

* **wh rows** (:data:`WH_ROWS`): ``(lang, pattern, templates)``. The templates are tried in
  order until the extractor reads one; ``{a}`` is the cleaned answer, ``{a_}`` the answer
  with an article when it is a bare noun ("nurse" -> "a nurse"), ``{w}`` the pattern's
  group ``w`` ("What's your dog's name?" -> dog). "Where are you based?" -> "I live in {a}".
* **yes/no rows** (:data:`YESNO_ROWS`): ``(lang, pattern, yes, no)``: the statement a yes
  makes and the one a no makes, ``None`` where a no says nothing the keys hold. ``{x}`` is
  the pattern's group ``x``, ``{r}`` what the answer adds ("yes, two cats"). A yes/no
  question no row knows turns by a pronoun swap ("Are you vegan?" + "yep" -> "I am vegan");
  a no only where the verb takes a negation naturally (:data:`NEG_VERBS_EN`, ``_ZH``).
* **choice rows** (:data:`CHOICE_ROWS`): ``(lang, options, templates, needs)``: a question
  offering options of one vocabulary ("window or aisle?", 靠窗还是靠过道; ``needs``: what the
  question must also say) and the statement(s) the option named makes (``{c}``,
  ``|``-separated). Other "X or Y?" questions take the option named as "I prefer {c}".
* **by structure** when no row knows the wording: the rows read the question without its
  wrapper (:data:`WRAPPER_LEAD` / :data:`WRAPPER_TAIL`: "Quick question:", "Just so I can
  tailor things,", 方便问一下, "1."); :data:`CONCEPT_ROWS` need every concept of a kind of
  question in any order (a time, a "not", a way of contacting: quiet hours); and
  :data:`TOPIC_FRAMES` find the key a question names for the user by the taxonomy's own
  words for it ("What's your go-to cuisine?", "Occupation:", 付款方式偏好？), negated
  questions taking :data:`TOPIC_NEGATED`. ``{A}`` in a template is the answer as a proper
  name ("york" -> "York").

What is never framed (:data:`NOT_FRAMED`): a hypothetical (:data:`HYPOTHETICAL`), a one-off
task, offer or occasion (:data:`ONE_OFF`), another person (:data:`OTHERS`) or somebody's
words (:data:`QUOTED`: a caption, a sentence to translate, what someone told the user). The
answer to a quoted question stores nothing at all, and neither does an answer to one of the
others that has no first-person word of its own ("你哥住哪？" + "住在重庆"). Adding a kind of
question is adding a row here. Private to :mod:`shared_core.ingest`.
"""

# ruff: noqa: E501  (the rows below are data: one pattern a line reads best)
from __future__ import annotations

import re

__all__ = [
    "ABOUT_OTHERS_RE",
    "CHATTER",
    "CHOICE_ROWS",
    "CONCEPT_ROWS",
    "HYPOTHETICAL",
    "NEG_VERBS_EN",
    "NEG_VERBS_ZH",
    "NON_ANSWER",
    "NOT_FRAMED",
    "OCCASION_RE",
    "ONE_OFF",
    "ONE_OFF_RE",
    "OTHERS",
    "QUOTED",
    "QUOTED_RE",
    "SPEND_ASK",
    "THING",
    "TOPIC_FRAMES",
    "TOPIC_GENERIC",
    "TOPIC_NEGATED",
    "TOPIC_NEGATION",
    "TOPIC_TRIP",
    "WH_ROWS",
    "WRAPPER_LEAD",
    "WRAPPER_TAIL",
    "YESNO_ROWS",
    "english",
]

_YOU = r"(?:you|u|ya)"
_YOUR = r"(?:your|ur)"


def english(pattern: str) -> str:
    """``pattern`` with ``{you}`` / ``{your}`` spelled out (``you|u|ya``, ``your|ur``)."""
    return pattern.replace("{you}", _YOU).replace("{your}", _YOUR)


# fmt: off
#: relatives and others a question may be about ("your sister"), unless it asks their name
REL_EN = (
    r"(?:son|daughter|kids?|children|child|wife|husband|partner|spouse|mum|mom|mother|father|dad"
    r"|parents?|sister|brother|siblings?|friends?|boss|colleagues?|family|baby|girlfriend"
    r"|boyfriend|guests?|team|roommates?|flatmates?|grandparents?|grandma|grandpa|aunt|uncle"
    r"|cousins?|neighbou?rs?|clients?|customers?|other\s+half|fianc[eé]e?)"
)
REL_ZH = (
    r"(?:儿子|女儿|孩子|小孩|老婆|老公|妻子|丈夫|爱人|对象|男朋友|女朋友|妈妈|爸爸|母亲|父亲|爸妈"
    r"|父母|姐姐|妹妹|哥哥|弟弟|朋友|同事|老板|家人|宝宝|爷爷|奶奶|外婆|外公|室友|客户|领导|闺蜜|兄弟"
    r"|哥|姐|弟|妹|妈|爸|舅|姨|叔|婶|姑|公婆|岳父|岳母|婆婆|公公)"
)
_NOT_TOLD = r"(?<!n't\s)(?<!not\s)(?<!never\s)"
#: the things an offer may be about that are still the user's standing preferences
_STANDING = r"call|address|refer\s+to|contact|reach|message|text|e-?mail|notify|format|reply|respond|answer|write|talk|keep|use|show|display|suggest|recommend|avoid|leave\s+out|stick|include|skip"

#: Hypotheticals and dreams: "If you could live anywhere, where?", 要是能换工作.
HYPOTHETICAL = english(
    r"\bif\s+{you}\s+(?:could|were|was|had|won|would|can|ever|moved|lived|got|became|did|went|inherited)\b"
    r"|\bif\s+money\b|\bimagine\b|\bsuppose\b|\bhypothetical|\bdream\b|\bin\s+(?:a|an)\s+(?:perfect|ideal)\s+world\b"
    r"|\bwould\s+{you}\s+(?:ever|consider)\b|\bif\s+(?:it|that)\s+(?:were|was)\b|\bever\s+(?:wanted|thought|considered)\b"
    r"|如果|要是|假如|假设|想象|梦想|万一|理想的"
)
#: One-off tasks, offers and this occasion's choices: the assistant asks what to do now, not
#: who the user is ("What time should I set the alarm?", 要订几点的车, 这顿饭预算多少).
ONE_OFF = english(
    r"\b(?:would|do)\s+{you}\s+(?:like|want)\s+(?:me|us)\s+to\b(?!\s+(?:" + _STANDING + r"))"
    r"|" + _NOT_TOLD + r"\bwant\s+me\s+to\b(?!\s+(?:" + _STANDING + r"))"
    r"|\bwould\s+{you}\s+like\s+(?:to(?!\s+be\s+(?:contacted|reached|notified|called|addressed|referred\s+to)\b)|a|an|the|some|it)\b|\bdo\s+{you}\s+want\s+(?:a|an|the|some|it|to)\b|\bwould\s+{you}\s+(?:like|fancy)\W*$|\bdo\s+{you}\s+want\W*$"
    r"|\b(?:today|tonight|tomorrow|this\s+(?:time|trip|flight|booking|order|weekend|week|morning|evening|afternoon|meeting|one|call|meal|dinner|lunch|visit|stay|holiday|vacation)"
    r"|next\s+(?:week|month|weekend|time|trip)|for\s+now|for\s+(?:the|this|that)\s+(?:[\w-]+\s+)?(?:trip|flight|party|dinner|lunch|breakfast|brunch|meal|event|booking|order|gift|present|wedding|outing|celebration|meeting|conference|visit|stay|holiday|vacation|night|evening))\b"
    r"|\b(?:are|r)\s+{you}\s+staying\s+(?:at|in)\b"
    r"|\b(?:alarm|timer|meeting|appointment|reservation|booking|book\s+(?:a|an|the|it|this|that|for|{your})|order|deliver(?:y|ed)?|tickets?|table\s+for|the\s+call|check[\s-]?in|check[\s-]?out|pick\s*up|drop[\s-]?off)\b"
    r"|\bwhat\s+time\b(?!\s*zone)|\bwhen\s+(?:should|do|would)\s+{you}\s+(?:like|want|need)\b|\bhow\s+many\s+(?:people|guests|tickets|nights|rooms|seats|copies|servings)\b"
    r"|\bdid\s+{you}\b(?!\s+(?:move|live|grow|relocate|come))|\bhave\s+{you}\s+ever\b"
    # a thing: "Which language is that menu in?", "Was that too long?"
    r"|\b(?:is|are|was|were)\s+(?:that|this|these|those)\b(?!\s+(?:ok|okay|alright|fine|right|correct|true|good|a\s+problem)\b)"
    r"|这次|这趟|这回|这顿|这餐|这单|这件|这份|本次|今天|今晚|明天|后天|这个?周末|下周|下次|现在要|一会|几点(?!.{0,4}(?:以后|之后|以前|之前|到|不要|别|不想|不方便|免打扰))|订|预约|预定|闹钟|要不要我|需要我|我帮你|我给你"
)
#: Other people: "Where does your sister live?", "Does she eat meat?", 你妈对什么过敏 (the
#: names of the user's own family are asked about the user: "What's your wife's name?").
OTHERS = english(
    r"\b{your}\s+" + REL_EN + r"\b(?!(?:'s|s'|')?\s+(?:first\s+)?names?\b|\s+called\b|'s\s+birthday\b|\s+(?:usually\s+|normally\s+)?call\s+{you}\b)"
    r"|(?<!['\"‘“])(?<!\bas\s)\b(?:he|she|they|him|her|his|their)\b(?!['\"’”])"
    r"|\b(?:the\s+)?(?:recipient|sender|addressee|attendees?|invitees?)\b"
    r"|(?:你|您)(?:的)?" + REL_ZH + r"(?!(?:的)?(?:叫|名字|怎么称呼|姓什么))|(?<![其吉])他|她"
)
#: Somebody's words, not the user's statement: a caption, a sentence to translate, what
#: someone told the user, a quiz.
QUOTED = (
    r"\b(?:caption|slogan|sentence|phrase|translat\w*|subject\s+line|headline|wording|inscription|engrav\w*"
    r"|password|quiz|trivia|riddle|lyrics?|quote(?!\s+(?:prices?|costs?|rates?|amounts?|figures?|me)\b)|tagline|motto)\b"
    r"|\bwhat\s+(?:did|does|do|would)\s+(?:\w+\s+){1,3}(?:tell|told|say|said|write|wrote|text|texted|ask|asked|mean)\b"
    r"|\b(?:should|will|does|would)\s+(?:it|the(?:\s+\w+){1,2})\s+(?:say|read)\b"
    r"|翻译|标语|文案|口号|题目|答案是|谜语|歌词|怎么说的|说了什么|跟你说|告诉你什么"
)

#: Questions that are not framed: their answers state nothing durable about the user.
NOT_FRAMED = re.compile("|".join((HYPOTHETICAL, ONE_OFF, OTHERS, QUOTED)), re.IGNORECASE)
#: Questions whose answer is read as nothing at all, even a first-person one.
QUOTED_RE = re.compile(QUOTED, re.IGNORECASE)
#: A wh-question about a thing: "Which language is that menu in?" (its answer describes the
#: thing); a yes/no check of one ("Was that too long?") may still be answered with a
#: standing preference ("keep it brief in general").
THING = r"\b(?:what|which|where|who|whose|how)\b[^?]{0,40}\b(?:is|are|was|were)\s+(?:that|this|these|those)\b"
#: Questions whose answer asserts nothing unless it has a first-person word of its own (a
#: one-off task's answer is still read: "Would you like to hear about credit card offers?"
#: + "nope, not interested in credit cards" states a standing preference).
ABOUT_OTHERS_RE = re.compile("|".join((HYPOTHETICAL, OTHERS, THING)), re.IGNORECASE)
ONE_OFF_RE = re.compile(ONE_OFF, re.IGNORECASE)
#: An answer that names the occasion itself ("这顿两百以内", "just for tonight"): one-off.
OCCASION_RE = re.compile(
    r"\b(?:this\s+(?:time|trip|once|one|meal|visit)|tonight|today|tomorrow|for\s+now|just\s+this)\b"
    r"|这次|这顿|这趟|这回|这单|这一?餐|今天|今晚|明天|暂时",
    re.IGNORECASE,
)

#: Answers that state nothing: not sure, 随便, I'd rather not say, a joke, a counter-question
#: (also when a remark follows: "no preference really", "都行，没什么讲究").
NON_ANSWER = re.compile(english(
    r"^\W*(?:not\s+sure|unsure|no\s+idea|no\s+clue|dunno|don'?t\s+know|do\s+not\s+know|idk|i\s+don'?t\s+know"
    r"|hard\s+to\s+say|it\s+depends|depends|(?:i'?d\s+|i\s+would\s+)?(?:rather|prefer)\s+not(?:\s+to)?(?:\s+(?:say|answer|share|tell|disclose))?"
    r"|none\s+of\s+{your}\s+business|pass|skip|whatever|doesn'?t\s+matter|no\s+preference|no\s+strong\s+(?:preference|opinion)"
    r"|either(?:\s+(?:one|is\s+fine|works))?|both|any(?:thing)?|up\s+to\s+{you}|{you}\s+(?:choose|decide|pick)|surprise\s+me"
    r"|can'?t\s+remember|forgot|good\s+question|why(?:\s+do\s+{you}\s+ask)?|who\s+knows|haven'?t\s+decided|not\s+decided|undecided"
    r"|let\s+me\s+think|maybe|possibly|perhaps|kind\s+of|sort\s+of|sometimes|occasionally|it\s+varies|varies"
    r"|none|nothing|nobody|n/?a|no\s+comment|ask\s+me\s+later|later)"
    r"(?:\W|\b(?:really|at\s+all|honestly|tbh|to\s+be\s+honest|thanks|mate|lol)\b)*(?:$|[,.;!—–-])"
    r"|^\W*(?:不知道|不清楚|不确定|说不好|不好说|随便|随意|都行|都可以|都好|无所谓|看情况|看心情|再说|保密|秘密|不想说|不方便说|不告诉你"
    r"|你猜|你定|你决定|你看着办|没想好|还没想好|忘了|记不清|没有|没|无|不用了|算了)(?:\W*$|[，,。；;！!])"
    r"|问(?:这|这个|这些|那么多)(?:干嘛|干什么|做什么|干啥)|(?:干嘛|为什么|为啥|凭什么)(?:要)?问"
    r"|[?？]\s*$|\b(?:lol|lmao|haha+|hehe|rofl|jk|kidding|joking)\b|哈哈|呵呵|嘿嘿|开玩笑|逗你|[😂🤣😜🙃😉]"
    r"|\bwhat\s+about\s+{you}\b|你呢|\bon\s+the\s+moon\b|\bmars\b|火星|月球"
), re.IGNORECASE)

#: Chatter that fills no slot: acknowledgements, greetings, fillers, deferrals, "same as
#: before" ("What do you do for work?" + "hold on" is no job). Matched against the whole
#: cleaned answer of a wh-question (a yes/no question takes "ok" or "sure" as a yes).
CHATTER = re.compile(english(
    r"^\W*(?:(?:ok(?:ay)?|k+|sure|yes|yeah|yep|no|nope|nah|please|pls|thanks?|thank\s+you|thx|ty|cheers|mate"
    r"|cool|nice|great|awesome|perfect|got\s+it|gotcha|noted|alright|fine|right|hi|hello|hey|yo|good\s+(?:morning|afternoon|evening|night|question)"
    r"|morning|evening|bye|hold\s+on|hang\s+on|one\s+sec(?:ond)?|a\s+sec|just\s+a\s+(?:sec|second|moment|minute)|wait(?:\s+what)?|brb|back"
    r"|huh|what|eh|hmm+|um+|uh+|er+|let\s+me\s+(?:check|think|see|look)(?:\s+(?:about\s+)?it)?|same\s+as\s+(?:before|last\s+time|above|always)"
    r"|as\s+(?:above|before|usual|i\s+said)|like\s+i\s+said|see\s+above|(?:the\s+)?usual|ditto|same|sorry|pardon|excuse\s+me"
    r"|never\s*mind|nvm|test(?:ing)?|what\s+do\s+{you}\s+mean|good|not\s+now|later|next(?:\s+question)?|move\s+on"
    r"|(?:i'?ll|i\s+will)\s+(?:tell|let)\s+{you}(?:\s+know)?(?:\s+later)?|(?:skip|pass)(?:\s+(?:this|that|it)(?:\s+one)?)?"
    r"|(?:can|could|shall)\s+we\s+(?:move\s+on|skip(?:\s+(?:this|that|it))?|do\s+this\s+later)"
    r"|(?:that'?s|it'?s|that\s+is|it\s+is)\s+(?:private|personal|a\s+secret|confidential|none\s+of\s+{your}\s+business)"
    r"|i\s+(?:don'?t|do\s+not|can'?t|cannot)\s+(?:remember|recall)(?:\s+(?:right\s+)?now)?"
    r"|好的?|好吧|好嘞|行|行吧|可以|嗯+|恩+|哦+|噢+|谢谢|多谢|你好|您好|早上好|晚上好|稍等(?:一下)?|等一下|等等|马上|一会儿?|同上|跟之前一样|和(?:以前|之前)一样"
    r"|老样子|还是那样|不告诉你|什么|啥|啊+|哈+|收到|知道了|没事|算了|在吗|喂|不记得了?|记不得了?|下一个|下一题|跳过|先不说|以后再说|私人问题|隐私)"
    r"[\s,.!?~…，。！？、吧呀呢哦啦嘛]*)+$"
), re.IGNORECASE)

# -- wh rows: (lang, question pattern, statement templates) ------------------------------------
WH_ROWS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    # where the user lives, moves to, moved from
    ("en", r"\b(?:where|(?:what|which)\s+(?:city|town|country|place|area))\b.{0,20}\b(?:relocating|moving|move)\s+to\b|\bwhere\b.{0,20}\b(?:planning|going|hoping|about|intending|set|thinking\s+of|looking)\s+(?:to\s+)?(?:move|moving|relocate|relocating)\b(?!\s+from)|\bwhere\s+(?:are|is|will)\s+{you}\s+(?:be\s+)?(?:relocating|moving)\b|\bwhere\s+(?:is|will)\s+(?:the|{your})\s+(?:new\s+)?(?:move|home|place)\b", ("I'm moving to {A}",)),
    ("en", r"\bwhere\s+(?:did|have)\s+{you}\s+(?:move|moved|come|relocate|relocated)\s+from\b|\bwhere\s+(?:did\s+{you}\s+live|were\s+{you}\s+living|{you}\s+lived)\s+before\b", ("I moved here from {A}",)),
    ("en", r"\bwhere\b.{0,24}\b{you}\b.{0,16}\b(?:based|live|living|located|reside|residing|settled|staying\s+these\s+days|call\s+home)\b", ("I live in {A}",)),
    ("en", r"\b(?:what|which)\s+(?:city|town|country|part\s+of\s+\w+|area|neighbou?rhood|state|region)\b.{0,30}\b{you}\b.{0,16}\b(?:in|live|based|living|located|from|reside|call\s+home)\b", ("I live in {A}",)),
    ("en", r"^\W*(?:and\s+)?(?:{your}\s+)?(?:current\s+|home\s+)?(?:city|town|location|country|(?:city|country)\s+of\s+residence)\W*$", ("I live in {A}",)),
    ("en", r"\bwhere\s+is\s+home\b|\bwhere\s+(?:is|are)\s+{you}\s+(?:based|located|living)\b|\b(?:{your}|home)\s+(?:city|town|location)\b|\bwhereabouts\s+are\s+{you}\b", ("I live in {A}",)),
    # family names first: "What's your wife's name?" is not the user's name
    ("en", r"\bwhat\s+(?:is|are)\s+{your}\s+(?P<w>wife|husband|partner|spouse|girlfriend|boyfriend|fianc[eé]e?)(?:'s|s)?\s+name\b|\b{your}\s+(?P<w2>wife|husband|partner|spouse|girlfriend|boyfriend)\s+called\b", ("My {w} is called {A}",)),
    ("en", r"\b(?:what\s+are\s+)?{your}\s+(?P<w>kids|children|sons|daughters|son|daughter|child|kid)(?:(?:'s|s'|')?\s+names?|\s+called)\b", ("My {w} are called {A}", "My {w} is called {A}")),
    ("en", r"\b(?:what\s+(?:is|are)\s+)?{your}\s+(?P<w>dog|cat|pet|puppy|kitten|rabbit|bunny|hamster|parrot|bird|fish|horse)(?:(?:'s|s'|s)?\s+names?|s?\s+called)\b", ("My {w} is called {A}",)),
    # the user's names and pronouns
    ("en", r"\b(?:what|how)\s+(?:should|shall|can|do|may|would|will)\s+(?:i|we|{you}\s+(?:like|want)\s+(?:me|us)\s+to)\s+(?:call|address|refer\s+to)\s+{you}\b|\bwhat\s+do\s+{you}\s+(?:go\s+by|prefer\s+to\s+be\s+called|like\s+to\s+be\s+called|want\s+to\s+be\s+called)\b|\b(?:preferred|nick)\s*name\b|\bwhat\s+name\s+do\s+{you}\s+(?:go\s+by|prefer|use)\b|\bwhat\s+name\s+(?:should|shall|can|do|may)\s+(?:i|we)\s+use\b|\bwhat\s+do\s+(?:people|friends|folks|most\s+people|others|{your}\s+friends)\s+(?:usually\s+|normally\s+)?call\s+{you}\b", ("Call me {A}",)),
    ("en", r"\bwhat\s+is\s+{your}\s+(?:full\s+|first\s+|given\s+)?name\b|\bwho\s+am\s+i\s+(?:talking|speaking|chatting)\s+(?:to|with)\b|\bmay\s+i\s+have\s+{your}\s+name\b|\b{your}\s+name\b|^\W*(?:and\s+)?(?:full\s+|first\s+)?name\W*$|^\W*and\s+{you}\s+are\W*$|\bcould\s+i\s+(?:ask|get|have)\s+{your}\s+name\b", ("My name is {A}",)),
    ("en", r"\b{your}\s+pronouns\b|\bwhat\s+pronouns\b", ("My pronouns are {a}",)),
    # age and birthday
    ("en", r"\bhow\s+old\s+(?:are\s+{you}|{you}\s+are)\b|\b{your}\s+age\b|\bwhat\s+age\b|^\W*(?:and\s+)?age\W*$", ("I am {a} years old", "I am {a}")),
    ("en", r"\bwhen\s+is\s+{your}\s+birthday\b|\bwhen\s+were\s+{you}\s+born\b|\b{your}\s+(?:birthday|date\s+of\s+birth|dob|birth\s+date)\b|^\W*(?:and\s+)?(?:birthday|date\s+of\s+birth|dob|birth\s+date)\W*$|\bwhen\s+(?:do|does)\s+{you}\s+(?:celebrate|have)\s+{your}\s+birthday\b", ("My birthday is {a}", "I was born on {a}", "I was born in {a}")),
    # budget
    ("en", r"\bbudget\b|\bhow\s+much\s+(?:are|were|do|would|can)\s+{you}\s+(?:\w+\s+){0,2}(?:spend|pay|invest|afford)\b|\bprice\s+range\b|\bspending\s+limit\b|\bthe\s+most\s+{you}(?:'d|\s+would|\s+will|\s+can|\s+want\s+to|\s+are\s+willing\s+to)\s+(?:pay|spend)\b|\bmax(?:imum)?\s+(?:price|spend)\b|\bupper\s+limit\b|\bhow\s+much\s+(?:money\s+)?(?:is|would\s+be)\s+too\s+much\b", ("My budget is {a}",)),
    # health
    ("en", r"\ballerg(?:ies|ic|y)\b|\breact\s+(?:badly\s+)?to\b", ("I'm allergic to {a}",)),
    ("en", r"\bintoleran(?:ces?|t)\b|\bsensitivit(?:y|ies)\b|\b(?:don't|do\s+not|doesn't|does\s+not)\s+agree\s+with\s+{you}\b", ("I'm intolerant to {a}", "I'm {a} intolerant")),
    ("en", r"\b(?:medications?|meds|medicines?|pills|prescriptions?|drugs)\b", ("I take {a}",)),
    ("en", r"\b(?:medical|health|chronic|long[\s-]term)\s+(?:conditions?|issues?|problems?|concerns?)\b|\bconditions?\s+i\s+should\s+know\b", ("I have {a}",)),
    # food and diet
    ("en", r"\bdiet(?:ary)?\s+(?:restrictions?|requirements?|needs?|preferences?|rules?)\b|\bfollow\s+(?:a|any)\s+(?:particular\s+|special\s+|specific\s+)?diet\b|\bwhat\s+(?:kind\s+of\s+|sort\s+of\s+)?diet\b", ("I'm {a}", "I eat {a}", "I don't eat {a}")),
    ("en", r"\b(?:anything|any\s+foods?|foods?|things?|what)\b.{0,24}\b{you}\s+(?:don't|do\s+not|can't|cannot|won't|never)\s+(?:eat|touch)\b|\b(?:foods?|anything)\s+{you}\s+avoid\b|\bwhat\s+do\s+{you}\s+avoid\s+eating\b", ("I don't eat {a}",)),
    ("en", r"\b(?:anything|any\s+foods?|foods?|what)\b.{0,24}\b{you}\s+(?:don't|do\s+not)\s+(?:like|enjoy)\b|\b(?:foods?|dishes|anything|things?)\s+{you}\s+(?:really\s+|just\s+|absolutely\s+)?(?:hate|dislike|can't\s+stand|cannot\s+stand)\b|\b(?:which|what)\s+(?:foods?|dishes)\s+do\s+{you}\s+(?:really\s+)?(?:hate|dislike)\b", ("I don't like {a}",)),
    ("en", r"\b(?:{your}\s+)?fav(?:ou?rite)?\s+(?P<w>food|dish|cuisine|meal|snack|drink|dessert|fruit)\b", ("My favourite {w} is {a}", "I love {a}")),
    ("en", r"\bwhat\s+(?:kind\s+of\s+|sort\s+of\s+|type\s+of\s+)?(?:food|cuisine|dishes)\s+do\s+{you}\s+(?:like|love|enjoy|prefer)\b|\bwhat\s+do\s+{you}\s+(?:usually\s+|normally\s+|typically\s+)?order\b", ("I love {a}",)),
    # work
    ("en", r"\bwhat\s+do\s+{you}\s+do(?:\s+for\s+(?:a\s+living|work)|\s+professionally)?\s*\??$|\b{your}\s+(?:job|occupation|profession|line\s+of\s+work|role|job\s+title)\b|\bwhat\s+(?:kind\s+of\s+|sort\s+of\s+|line\s+of\s+)?work\s+(?:do|are)\s+{you}\b|\bwhat\s+do\s+{you}\s+do\s+for\s+(?:a\s+living|work)\b", ("I'm {a}", "I work as {a_}", "I'm {a_}", "I work in {a}")),
    ("en", r"\bwho\s+do\s+{you}\s+work\s+for\b|\bwhere\s+do\s+{you}\s+work\b|\b(?:which|what)\s+company\b|\b{your}\s+employer\b", ("I work at {A}", "I work for {A}")),
    ("en", r"\b(?:what|which)\s+(?:industry|sector|field)\b", ("I work in {a}",)),
    # language
    ("en", r"\b(?:what|which)\s+languages?\s+(?:(?:do|can)\s+{you}\s+speak|are\s+{you}\s+fluent\s+in|do\s+{you}\s+know)\b|\bspeak\s+any\s+other\s+languages?\b", ("I speak {a}",)),
    ("en", r"\b(?:what|which)\s+language\b(?!\s+(?:is|was|are|were)\s+(?:the|that|this|it|these|those)\b)|\bin\s+which\s+language\b|\bpreferred\s+language\b|\b(?:prefer|like|want)\s+(?:another|a\s+different|some\s+other)\s+language\b|^\W*(?:reply\s+)?language\W*$", ("Please reply in {a}",)),
    # contact
    ("en", r"\b(?:best|preferred|easiest)\s+(?:way|channel|method|number|app|platform)\b.{0,20}\b(?:contact|reach|get\s+in\s+touch|notify|message|update)\b|\bhow\s+(?:do|would|should|can)\s+(?:{you}\s+(?:like|prefer|want)\s+(?:us|me)\s+to|i|we)\s+(?:contact|reach|notify|message|update|get\s+in\s+touch|get\s+hold\s+of)\b|\bhow\s+(?:do|would)\s+{you}\s+(?:like|prefer|want)\s+to\s+be\s+(?:contacted|reached|notified)\b|\bpreferred\s+contact\b|\bcontact\s+(?:method|channel|preference)\b", ("Contact me by {a}", "Contact me on {a}")),
    ("en", r"\b{your}\s+e-?mail(?:\s+address)?\b", ("My email is {a}",)),
    ("en", r"\b(?:when|what\s+times?|what\s+hours?)\b.{0,30}\b(?:not|n't|never)\s+(?:contact|message|call|text|disturb|ping|bother)\b|\b(?:quiet|do[\s-]not[\s-]disturb|dnd|silent|mute[d]?)\b.{0,24}\b(?:hours?|times?|window|period)\b|\b(?:hours?|times?)\b.{0,30}\b(?:muted|silenced|silent|quiet)\b|\b(?:hours?|times?)\b.{0,20}\bavoid\s+(?:messaging|contacting|calling|texting|pinging)\s+{you}\b", ("Don't contact me {a}", "My quiet hours are {a}")),
    # travel
    ("en", r"\b(?:what|which)\s+(?:kind\s+of\s+|sort\s+of\s+)?seats?\b|\bseat(?:ing)?\s+preference\b|\bwhere\s+do\s+{you}\s+(?:usually\s+|normally\s+)?(?:like|prefer|want)\s+to\s+sit\b", ("I prefer {a} seats", "I prefer {a_} seat")),
    ("en", r"\b(?:what|which)\s+(?:cabin\s+|travel\s+|seat\s+)?class\b", ("I fly {a}", "I prefer {a}")),
    ("en", r"\b(?:what|which)\s+airlines?\b.{0,24}\b(?:avoid|won't|never|hate|refuse)\b|\bairlines?\s+{you}(?:'d|\s+would)?\s+(?:rather\s+)?(?:avoid|won't\s+fly|never\s+fly|refuse)", ("I never fly {A}",)),
    ("en", r"\b(?:what|which)\s+airlines?\b|\b(?:favou?rite|preferred)\s+airlines?\b|\b(?:airlines?|carriers?)\b.{0,20}\bloyal\s+to\b", ("I prefer flying with {A}",)),
    ("en", r"\b(?:what|which)\s+hotels?\s*(?:chain|brand|group)?\b|\b(?:favou?rite|preferred)\s+hotels?\b", ("I prefer {A} hotels", "I usually stay at {A}")),
    ("en", r"\broom\s+preferences?\b|\b(?:what|which)\s+(?:kind\s+of\s+|sort\s+of\s+|type\s+of\s+)?room\b", ("I prefer {a_} room", "I prefer {a} rooms", "I need {a_} room")),
    ("en", r"\bloyalty\b|\bfrequent[\s-]+fl(?:y|i)er\b|\bmembership\s+(?:program|programme|scheme)s?\b|\brewards?\s+(?:programs?|programmes?|schemes?|cards?)\b", ("I'm a member of {a}",)),
    # family and pets
    ("en", r"\bhow\s+many\s+(?P<w>kids|children|sons|daughters)\b", ("I have {a} {w}", "I have {a}")),
    ("en", r"\bwhat\s+(?:kind\s+of\s+|sort\s+of\s+|type\s+of\s+)?pets?\b|\bwhat\s+(?:animals?|pets?)\s+do\s+{you}\s+have\b", ("I have {a}",)),
    ("en", r"\brelationship\s+status\b|\bmarital\s+status\b", ("I'm {a}",)),
    # preferences about answers and units
    ("en", r"\b{your}\s+(?:local\s+|home\s+)?time\s*zone\b|\b(?:what|which)\s+time\s*zone\b|^\W*(?:[\w-]+\W+){0,3}time\s*zone\W*$", ("My timezone is {a}", "I'm on {a} time")),
    ("en", r"\bhow\s+(?:long|detailed|short|brief|in[\s-]depth|much\s+detail)\b.{0,30}\b(?:answers?|replies|responses|explanations?)\b", ("Keep your answers {a}", "I prefer {a} answers")),
    ("en", r"\b(?:what|which)\s+(?:format|layout)\b|\bhow\s+(?:should|do|would)\s+(?:i|{you}\s+(?:like|want)\s+me\s+to)\s+(?:format|lay\s+out|structure)\b", ("I prefer {a}",)),
    ("en", r"\b(?:what|which)\s+(?:tone|style|register)\b|\bhow\s+formal\b", ("I prefer a {a} tone", "I prefer {a}")),
    ("en", r"\b(?:what|which)\s+currency\b|\bcurrency\s+(?:should|do|would)\b|\bpreferred\s+currency\b|^\W*currency\W*$", ("Show prices in {a}",)),
    ("en", r"\bhow\s+(?:do|would)\s+{you}\s+(?:usually\s+|normally\s+|typically\s+|like\s+to\s+|prefer\s+to\s+)?pay\b|\bpayment\s+(?:method|option)s?\b|\bpreferred\s+(?:way\s+to\s+pay|payment)\b", ("I usually pay with {a}", "I pay by {a}")),
    # interests and what not to recommend
    ("en", r"\bwhat\s+do\s+{you}\s+(?:do|like\s+to\s+do|like\s+doing|enjoy\s+doing|get\s+up\s+to|love\s+doing|love\s+to\s+do)\s+(?:for\s+fun|in\s+{your}\s+(?:free|spare|down)\s+time|on\s+(?:the\s+)?weekends|outside\s+(?:of\s+)?work)\b|\bhobb(?:y|ies)\b|\bwhat\s+(?:(?:kind|sort)\s+of\s+(?:things|stuff)\s+)?are\s+{you}\s+into\b|\b{your}\s+interests\b|\bpastimes?\b|\bfor\s+fun\b|\bwhat\s+are\s+{you}\s+(?:passionate\s+about|interested\s+in)\b|\bwhat\s+(?:(?:kind|sort|type)s?\s+of\s+)?(?:things|stuff|activities)\s+do\s+{you}\s+(?:enjoy|like|love)\b", ("I enjoy {a}", "I love {a}")),
    ("en", r"\b(?:anything|topics?|things?|products?|what)\b.{0,30}\b(?:don't|do\s+not|never)\s+(?:want|like)\s+(?:me\s+to\s+)?(?:recommend|suggest|mention)\b|\b(?:avoid|not)\s+(?:recommending|suggesting)\b|\bnever\s+(?:to\s+)?(?:recommend|suggest)\b|\bkeep\s+off\b|\bsteer\s+clear\s+of\b|\bleave\s+out\s+of\s+(?:my\s+|{your}\s+)?(?:suggestions|recommendations)\b|\b(?:suggestions?|recommendations?)\s+list\b", ("Never recommend {a}",)),
    ("en", r"\baccessibility\b", ("I need {a}", "I use {a_}")),
    # Chinese: where the user lives, moves to, moved from
    ("zh", r"搬(?:到|去)(?:哪|什么地方)|去哪(?:个城市)?(?:定居|发展)", ("我打算搬到{a}",)),
    ("zh", r"(?:之前|以前|原来)(?:住|在)(?:在)?哪|从哪(?:里|儿|个城市)?搬", ("我从{a}搬到这边", "我从{a}搬过来的")),
    ("zh", r"你.{0,6}(?:住|定居|生活|待|呆|常驻|base)(?:在)?(?:哪|什么地方|什么城市)(?!.{0,3}(?:酒店|宾馆|民宿|品牌))|你(?:是)?在哪(?:个|座)城市|哪(?:个|座)城市.{0,4}(?:住|生活|工作|定居)|你.{0,3}(?:所在|常住)(?:的)?城市|你家在哪|你住哪|你(?:现在|目前|平时|人)?(?:现在|目前)?(?:是)?在哪(?:个|座)城市|你(?:现在|目前)?人在哪|你.{0,4}在哪(?:里|儿)?(?:生活|定居|常住|住)|^\W*(?:所在|居住|常住)?城市\W*$", ("我住在{a}",)),
    ("zh", r"(?:住|生活|定居|在)(?:在)?哪(?:个|一个)?国家|哪(?:个)?国家.{0,4}(?:住|生活|定居)", ("我住在{a}",)),
    # names: the partner's first
    ("zh", r"(?P<w>老婆|老公|爱人|妻子|丈夫|对象)(?:的名字|叫什么|怎么称呼|姓什么)", ("我{w}叫{a}",)),
    ("zh", r"(?P<w>孩子|儿子|女儿|小孩)(?:的名字|叫什么)", ("我{w}叫{a}",)),
    ("zh", r"(?P<w>狗|猫|宠物|猫咪|狗狗)(?:的)?(?:名字|叫什么)", ("我的{w}叫{a}",)),
    ("zh", r"怎么称呼|我(?:该|应该)?(?:怎么|咋)(?:叫|称呼)你|叫你什么|你(?:想|希望)(?:我)?(?:叫|称呼)你什么|^\W*称呼\W*$", ("叫我{a}", "我叫{a}")),
    ("zh", r"你叫什么|你的名字|你贵姓|尊姓大名|你的大名|你的姓名|名字是什么|^\W*(?:姓名|名字|全名)\W*$", ("我叫{a}",)),
    # age, birthday, budget
    ("zh", r"你(?:今年)?多大|你(?:今年)?几岁|你的年龄|你(?:今年)?多少岁|高寿|贵庚|多大岁数|多大年纪|年纪多大|年龄", ("我今年{a}岁", "我今年{a}")),
    ("zh", r"生日|出生(?:日期|年月)|哪天出生|什么时候出生|几月几(?:号|日)(?:出)?生", ("我的生日是{a}",)),
    ("zh", r"预算|(?:打算|准备|想|能|愿意)花多少|多少钱(?:以内|左右)|价位", ("我的预算是{a}",)),
    # health and food
    ("zh", r"过敏", ("我对{a}过敏",)),
    ("zh", r"不耐受", ("我{a}不耐受", "我对{a}不耐受")),
    ("zh", r"不(?:爱|喜欢|想)吃|讨厌吃|吃不惯|受不了.{0,2}吃", ("我不爱吃{a}",)),
    ("zh", r"忌口|(?:有)?什么(?:东西)?不(?:能)?吃|不吃什么|不能吃什么|饮食(?:上)?(?:有)?(?:什么)?(?:禁忌|限制|要求|讲究|习惯)|(?:有没有|有什么|有啥)不(?:能)?吃的", ("我不吃{a}", "我{a}")),
    ("zh", r"最喜欢(?:的)?(?P<w>水果|菜|食物|饮料|零食|甜点|小吃)", ("我最喜欢的{w}是{a}", "我喜欢吃{a}")),
    ("zh", r"喜欢吃什么|爱吃什么|最喜欢(?:的)?吃的|口味", ("我喜欢吃{a}", "我喜欢{a}")),
    ("zh", r"(?:吃|服用)(?:什么|哪些)药|(?:长期|平时|常|经常|一直)(?:吃|服用).{0,2}药", ("我在吃{a}",)),
    ("zh", r"慢性病|病史|身体.{0,3}(?:问题|状况|毛病)|基础病", ("我有{a}",)),
    # work
    ("zh", r"做什么工作|做什么的|干什么的|干哪行|做哪行|职业|工作是什么|什么工作", ("我是{a}", "我是做{a}的", "我在{a}工作")),
    ("zh", r"在哪(?:家|个|里|儿)?(?:公司)?(?:上班|工作)|哪(?:家|个)公司|什么公司|哪个单位", ("我在{a}工作", "我在{a}上班")),
    ("zh", r"(?:什么|哪个|哪一)行业|哪一行|什么领域|哪个行业的", ("我在{a}行业工作", "我做{a}")),
    # language and contact
    ("zh", r"会(?:说|讲)(?:什么|哪些|哪几种)语言|(?:说|讲)(?:什么|哪些)语言", ("我会说{a}",)),
    ("zh", r"(?:用|说)(?:什么|哪种|哪个)语言|语言.{0,4}(?:回复|回答|交流)", ("请用{a}回复我",)),
    ("zh", r"(?:几点|什么时候|什么时间|哪些时间|哪个时间段).{0,6}(?:别|不要|不能|不想被|不方便)(?:打扰|联系|打电话|发消息)|免打扰", ("{a}别打扰我", "{a}不要联系我")),
    ("zh", r"怎么联系你|(?:用|通过)(?:什么|哪种)(?:方式)?联系|联系方式|怎么通知你", ("请用{a}联系我",)),
    # interests and what not to recommend
    ("zh", r"喜欢(?P<w>看|听|玩|读)(?:什么|哪)", ("我喜欢{a}", "我喜欢{w}{a}")),
    ("zh", r"爱好|兴趣|平时(?:喜欢)?(?:做|干)(?:什么|啥|嘛)|业余(?:时间)?(?:喜欢)?(?:做|干)|空闲时间|闲暇|(?:周末|平时|下班|休息|空闲|闲下来)(?:的时候)?(?:一般|通常|都|会|喜欢|爱){0,3}(?:干嘛|(?:做|干|玩)(?:些|点)?(?:什么|啥)|怎么过)", ("我喜欢{a}",)),
    ("zh", r"不想(?:看到|收到|被推荐)|不(?:想|希望)(?:让)?我(?:给你)?推荐|不要(?:给你)?推荐|别(?:给你)?推荐|不感兴趣的(?:内容|东西|话题)", ("不要给我推荐{a}",)),
    # pets and family
    ("zh", r"(?:养|有)(?:了)?(?:什么|哪些|几只)宠物|宠物是什么", ("我养了{a}",)),
    ("zh", r"几个(?:孩子|小孩|小朋友|娃|宝宝)|(?:孩子|小孩|小朋友|娃)几个", ("我有{a}个孩子", "我有{a}")),
    # travel, time, money
    ("zh", r"时区", ("我的时区是{a}",)),
    ("zh", r"(?:什么|哪种|哪个)座位|座位.{0,3}(?:偏好|喜欢|要求)|(?:喜欢|习惯|爱)坐(?:哪|什么位置)", ("我喜欢{a}的座位", "我喜欢{a}")),
    ("zh", r"不(?:想|愿意)?坐的?(?:航司|航空公司)|(?:航司|航空公司).{0,4}(?:不坐|避开|不想坐)|不坐(?:哪|什么)", ("我不坐{a}",)),
    ("zh", r"(?:航空公司|航司|酒店|常旅客|里程|积分).{0,3}会员|会员.{0,3}(?:吗|呢)|常旅客|里程计划", ("我是{a}会员",)),
    ("zh", r"航空公司|航司", ("我喜欢坐{a}的航班",)),
    ("zh", r"(?:什么|哪家|哪个)(?:连锁)?酒店|酒店.{0,3}(?:偏好|喜欢)|连锁酒店|常住的", ("我喜欢住{a}", "我一般住{a}")),
    ("zh", r"(?:怎么|用什么|如何)(?:付款|支付|付钱)|(?:用)?(?:什么|哪种)(?:方式)?(?:付款|支付|付钱|买单|结账)|支付方式|付款方式", ("我一般用{a}付款",)),
    ("zh", r"(?:什么|哪种)(?:货币|币种)|货币|币种", ("请用{a}显示价格",)),
)

# -- question wrappers ------------------------------------------------------------------------
#: What an assistant puts around its question (an opener, a reason, a form's numbering): the
#: rows read the question without it ("Quick question: which city are you in?", "Just so I
#: can tailor things, what's your name?", 方便问一下你住哪, "1. Name:"). The whole question
#: still decides whether it is framed at all (a one-off wrapper: "For this booking only —").
WRAPPER_LEAD = english(
    r"^(?:\W|\d{1,2}[.)、]\s*)*(?:"
    r"(?:(?:a\s+|one\s+|just\s+a\s+)?(?:quick|small|last|final|another|short|one\s+more|follow[\s-]up)\s+question)\b[^?]{0,20}?[:,;—–-]"
    r"|(?:just\s+)?(?:so\s+(?:that\s+)?(?:i|we)|to\s+make\s+sure|in\s+order\s+to|to\s+help|to\s+tailor|to\s+personali[sz]e|to\s+get\s+(?:started|this\s+right)|before\s+we\s+(?:start|begin|get\s+started|go\s+on|continue)|for\s+(?:my|our)\s+records|if\s+{you}\s+(?:don'?t|do\s+not|wouldn'?t)\s+mind|if\s+(?:it'?s|that'?s)\s+(?:ok|okay|alright|fine)|while\s+we'?re\s+at\s+it|out\s+of\s+curiosity)\b[^?:;,—–]{0,70}?[:,;—–]"
    r"|(?:by\s+the\s+way|btw|oh|ok(?:ay)?|great|thanks|thank\s+you|got\s+it|perfect|sure|cool|nice|lovely|welcome|hi|hello|hey)(?:\s+(?:so\s+much|there|again|a\s+lot))?\s*[:,;—–!.]"
    r")?\s*"
    r"|^(?:请问|方便问一下|方便问下|方便的话|想了解一下|想了解下|想问一下|想问下|问一下|冒昧问一下|顺便问一下|另外|还有|最后|好的|好嘞|明白了|了解了|谢谢|对了|那么)[，,、：:\s]*"
)
#: A polite tail: ", if you don't mind me asking?", "(optional)", 方便说一下吗.
WRAPPER_TAIL = english(
    r"\s*(?:\([^)]{0,30}\)|[,—–-]\s*(?:just\s+)?(?:so\s+(?:that\s+)?(?:i|we)|to\s+(?:help|make\s+sure))\b[^?,]{0,60}|[,—–-]?\s*(?:if\s+{you}\s+don'?t\s+mind(?:\s+(?:me\s+)?asking)?|if\s+(?:that'?s|it'?s)\s+(?:ok(?:ay)?|alright)|out\s+of\s+interest|by\s+the\s+way|btw|please|roughly|by\s+any\s+chance|if\s+any)"
    r"|（[^）]{0,20}）|[，,]?\s*(?:方便(?:说|透露)(?:一下)?|可以说一下|能说一下)(?:吗|嘛)?)\s*(?=[?？:：]*\s*$)"
)

# -- topic frames -----------------------------------------------------------------------------
#: A question no wh row reads is still about a key when it names the key's topic for the
#: user: "What's your go-to cuisine?", "Occupation:", "Preferred payment method?", 付款方式偏好？.
#: The topic words are the taxonomy's own (:mod:`shared_core.taxonomy`: each key's label and
#: query words in English and Chinese, less :data:`TOPIC_GENERIC`; Chinese words of two
#: characters or more) and the extra question nouns of the row: ``(key, extra English
#: words, extra Chinese words, English statements, Chinese statements)``. ``{A}`` is the
#: answer as a proper name ("york" -> "York").
TOPIC_FRAMES: tuple[tuple[str, tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]], ...] = (
    ("contact.email", ("email address", "e-mail address", "email"), ("邮箱", "电子邮件"), ("My email is {a}",), ("我的邮箱是{a}",)),
    ("contact.channel", ("contact method", "contact preference", "way to reach", "way to contact", "channel"), ("联系方式",), ("Contact me by {a}", "Contact me on {a}"), ("请用{a}联系我",)),
    ("name.preferred", ("nickname", "preferred name", "nick name"), ("昵称", "称呼"), ("Call me {A}",), ("叫我{a}", "我叫{a}")),
    ("name", ("full name", "first name", "given name", "name"), ("名字", "姓名", "全名"), ("My name is {A}",), ("我叫{a}",)),
    ("pronouns", (), (), ("My pronouns are {a}",), ()),
    ("birthday", ("date of birth", "birth date", "dob"), ("出生日期",), ("My birthday is {a}", "I was born on {a}"), ("我的生日是{a}",)),
    ("age", ("age",), ("年龄", "年纪", "岁数"), ("I am {a} years old", "I am {a}"), ("我今年{a}岁", "我今年{a}")),
    ("language", ("reply language", "preferred language"), ("回复语言", "语言"), ("Please reply in {a}",), ("请用{a}回复我",)),
    ("diet", ("diet", "dietary requirements", "dietary needs", "dietary preferences"), ("饮食习惯",), ("I'm {a}", "I eat {a}"), ("我{a}",)),
    ("intolerance", ("intolerances", "food intolerance"), (), ("I'm intolerant to {a}", "I'm {a} intolerant"), ("我对{a}不耐受",)),
    ("allergy", ("allergies", "allergy", "allergic"), (), ("I'm allergic to {a}",), ("我对{a}过敏",)),
    ("health.condition", ("condition", "conditions", "illness", "illnesses", "diagnosis", "chronic illness", "disease"), ("慢性病", "疾病", "病史"), ("I have {a}",), ("我有{a}",)),
    ("medication", ("meds", "medication", "medications", "medicine", "medicines", "prescriptions", "pills"), ("药物", "用药"), ("I take {a}",), ("我在吃{a}",)),
    ("food.", ("cuisine", "cuisines", "dish", "dishes", "dessert", "snack", "comfort food", "favourite food", "favorite food"), ("菜系", "口味"), ("I love {a}",), ("我喜欢吃{a}",)),
    ("currency", ("currency",), ("货币", "币种"), ("Show prices in {a}",), ("请用{a}显示价格",)),
    ("payment.method", ("payment method", "payment option", "way to pay", "way of paying", "pay", "paying"), ("支付方式", "付款方式", "付款", "支付", "结账", "买单"), ("I usually pay with {a}", "I pay by {a}"), ("我一般用{a}付款",)),
    ("location.country", ("country", "country of residence"), ("国家",), ("I live in {A}",), ("我住在{a}",)),
    ("location.city", ("city", "town", "hometown", "home town", "location", "city of residence"), ("城市", "所在地", "居住地"), ("I live in {A}",), ("我住在{a}",)),
    ("job.employer", ("employer", "company"), ("公司", "单位", "雇主"), ("I work at {A}", "I work for {A}"), ("我在{a}工作", "我在{a}上班")),
    ("industry", ("industry", "sector", "field"), ("行业", "领域"), ("I work in {a}",), ("我在{a}行业工作", "我做{a}")),
    ("job.title", ("occupation", "job", "job title", "profession", "role", "line of work"), ("职业", "工作"), ("I'm {a}", "I work as {a_}", "I'm {a_}"), ("我是{a}", "我是做{a}的")),
    ("relationship.status", ("relationship status", "marital status"), ("婚姻状况", "感情状况"), ("I'm {a}",), ("我{a}",)),
    ("pet.species", ("pets", "pet"), ("宠物",), ("I have {a}",), ("我养了{a}",)),
    ("travel.class", ("cabin class", "cabin", "travel class"), ("舱位",), ("I fly {a}", "I prefer {a}"), ("我坐{a}",)),
    ("travel.airline", ("airline", "airlines", "carrier"), ("航空公司", "航司"), ("I prefer flying with {A}",), ("我喜欢坐{a}的航班",)),
    ("travel.loyalty", ("loyalty", "loyalty program", "loyalty programme", "frequent flyer", "frequent flier", "membership"), ("会员", "常旅客"), ("I'm a member of {a}",), ("我是{a}会员",)),
    ("hotel.chain", ("hotel chain", "hotel brand", "hotel"), ("酒店",), ("I prefer {A} hotels", "I usually stay at {A}"), ("我喜欢住{a}", "我一般住{a}")),
    ("hotel.room", ("room", "room type"), ("房间", "房型"), ("I prefer {a_} room", "I need {a_} room"), ("我要{a}",)),
    ("response.length", ("answer length", "length", "level of detail", "detail"), ("回答长度", "篇幅"), ("Keep your answers {a}", "I prefer {a} answers"), ("回答{a}一点",)),
    ("response.format", ("format", "layout"), ("格式",), ("I prefer {a}",), ("我喜欢用{a}",)),
    ("response.tone", ("tone",), ("语气", "风格", "口吻"), ("I prefer a {a} tone", "I prefer {a}"), ("我喜欢{a}一点的语气",)),
    ("timezone", ("time zone", "timezone"), ("时区",), ("My timezone is {a}", "I'm on {a} time"), ("我的时区是{a}",)),
    ("interest.", ("hobby", "hobbies", "interests", "pastime", "pastimes", "spare time", "free time", "downtime"), ("爱好", "兴趣", "业余"), ("I enjoy {a}", "I love {a}"), ("我喜欢{a}",)),
    ("accessibility", ("accessibility", "accessibility needs"), ("无障碍",), ("I need {a}", "I use {a_}"), ("我需要{a}",)),
    ("recommend.", ("suggestions", "recommendations", "topics"), ("内容", "话题"), (), ()),
)
#: What a question about a topic asks when it asks what the user does not want ("Any payment
#: method you'd rather not use?", 有没有不想坐的航空公司): the statements for it, by key; a
#: key without them frames nothing for such a question.
TOPIC_NEGATED: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "payment.method": (("I don't use {a}", "I never pay with {a}"), ("我不用{a}付款", "我不用{a}")),
    "travel.airline": (("I never fly {A}",), ("我不坐{a}",)),
    "food.": (("I don't like {a}",), ("我不爱吃{a}",)),
    "diet": (("I don't eat {a}",), ("我不吃{a}",)),
    "interest.": (("Never recommend {a}",), ("不要给我推荐{a}",)),
    "recommend.": (("Never recommend {a}",), ("不要给我推荐{a}",)),
}
#: A question that asks what the user avoids, refuses or dislikes.
TOPIC_NEGATION = english(
    r"\b{you}(?:'d|'ll|\s+would|\s+do|\s+will|\s+can|\s+should)?(?:n't|\s+not|\s+never|\s+rather\s+(?:not|avoid|skip)|\s+don'?t|\s+won'?t|\s+can'?t|\s+avoid|\s+refuse|\s+hate|\s+dislike)\b"
    r"|\b(?:don'?t|do\s+not|never)\s+(?:want|like|use|fly|eat|enjoy)\b|\b(?:don'?t|won'?t|wouldn'?t|never)\s+{you}\b"
    r"|你.{0,4}不(?:想|要|愿意?|喜欢|爱|用|坐|吃|感兴趣|希望)|不(?:想|愿意?)(?:用|坐|吃|看|收到|要)|不感兴趣|避免|避开|讨厌|排斥"
)
#: A question about a trip or a visit: its place, hotel or airline is this trip's, not the
#: user's ("Which city are you flying to?", 你要去哪个城市玩): no topic frame reads it.
TOPIC_TRIP = english(
    r"\b(?:going\s+to|go\s+to|fly(?:ing)?\s+to|flying|travel(?:l?ing)?\s+to|visit(?:ing)?|head(?:ing|ed)\s+to|trip|holiday|vacation|touring|stopping\s+(?:in|at|over))\b"
    r"|去|出差|旅游|旅行|出游|飞往|飞去|路过"
)
#: Taxonomy query words too general to name a key in a question ("live", "work", "eat"); a
#: query phrasing in the first or second person ("my name", "how should you contact") is
#: no topic word either.
TOPIC_GENERIC = frozenset(
    ["where", "live", "local", "nearby", "weather", "outage", "outages", "address", "ship", "deliver", "delivery", "work", "business", "fly", "flight", "eat", "food", "drink", "meal", "meals", "like", "likes", "favourite", "favorite", "recommend", "recommendation", "recommendations", "suggest", "offer", "old", "born", "formal", "casual", "bullets", "bullet", "points", "vegetarian", "pollen", "dust", "latex", "lactose", "taking", "health", "prescribe", "pharmacist", "pharmacy", "drug", "drugs", "antibiotic", "antibiotics", "member", "miles", "checkout", "interest", "interested", "music", "family", "kids", "children", "son", "daughter", "wife", "husband", "explain", "technical", "clock", "class", "style", "units", "metric", "imperial", "temperature", "font", "captions", "emoji", "speak", "languages", "moving", "married", "single", "dog", "cat", "reply", "sick", "吃", "喝", "住", "哪里", "附近", "本地", "天气", "停电", "工作", "公司", "钱", "贵", "便宜", "价格", "多少钱", "健康", "病", "药", "花粉", "尘螨", "乳糖", "推荐", "喜欢", "兴趣", "吃饭", "餐食", "饮食", "忌口", "素食", "回复", "搬", "婚", "单身", "孩子", "家人", "会说", "母语", "叫我", "宠物", "狗", "猫", "航空", "航班", "提醒我", "打扰", "紧急", "电话", "打电话", "来电", "短信", "发短信", "通知", "联系", "邮件", "微信", "什么方式", "哪种方式", "怎么联系", "怎么通知", "解释", "例子", "表情", "字体", "字幕", "单位", "温度", "小时制", "支付", "付款", "付钱", "里程", "房间", "酒店", "上次", "规则", "设备"]
)

#: Rows read by concepts rather than one wording: every pattern of the row must be found in
#: the question, in any order ("When should I hold off on messaging you?": a time, a "not",
#: a way of contacting). ``(lang, patterns, templates)``; read like a wh row.
CONCEPT_ROWS: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("en", (
        r"\b(?:best|preferred|easiest|quickest|simplest|fastest|good|right|which|what|how)\b.{0,16}\b(?:way|method|channel|means|app|platform|medium)\b|^\W*how\s+(?:do|would|should|can)\b",
        r"\b(?:contact|reach|get\s+hold\s+of|get\s+in\s+touch|hear\s+from|notify|update|message|ping|keep\s+in\s+touch|follow\s+up)\w*",
        r"\b(?:{you}|{your})\b",
    ), ("Contact me by {a}", "Contact me on {a}")),
    ("en", (
        r"\b(?:when|what\s+times?|which\s+times?|what\s+hours?|which\s+hours?|times?|hours?|window|period)\b",
        r"\b(?:not|never|hold\s+off|off[\s-]limits|avoid|quiet|silent|mute[ds]?|do[\s-]not[\s-]disturb|dnd|no[\s-]go|leave\s+{you}\s+alone)\b|n't\b",
        r"\b(?:contact\w*|messag\w*|notif\w*|call\w*|text\w*|disturb\w*|ping\w*|reach\w*|bother\w*|e-?mail\w*|alerts?|updates?|hear\s+from)\b",
        r"\b(?:{you}|{your})\b|^\W*(?:quiet|do[\s-]not[\s-]disturb|dnd)\b",
    ), ("Don't contact me {a}", "My quiet hours are {a}")),
    ("zh", (
        r"时间|时段|几点|什么时候",
        r"不|别|免|勿",
        r"打扰|联系|消息|通知|电话|提醒",
    ), ("{a}别打扰我", "{a}不要联系我")),
    ("en", (
        r"\b(?:how\s+much|how\s+high|what\s+(?:price|amount|figure)|price\s+(?:range|limit|point|bracket)|ceiling|cap|max(?:imum)?|limit)\b",
        r"\b(?:spend|spending|pay|paying|budget|afford|invest|price|cost|go\s+up\s+to|stretch\s+to|stay\s+(?:under|below|within))\b",
        r"\b(?:{you}|{your})\b|^\W*(?:price\s+range|max(?:imum)?\s+(?:price|spend|budget)|spending\s+limit|price\s+limit)\W*$",
    ), ("My budget is {a}",)),
    ("zh", (
        r"多少|价位|上限|范围|几",
        r"花|预算|价|钱|成本",
    ), ("我的预算是{a}",)),
)
#: A question asking what the user would spend: "want to" here is no one-off offer
#: ("How much do you want to spend?" is a budget; "... on dinner tonight?" still is not).
SPEND_ASK = english(r"\b(?:do|would|did)\s+{you}\s+(?:want|like|wish|hope|plan|intend|expect)\s+to\s+(?=(?:spend|pay|invest|put\s+in|keep\s+it\s+(?:under|below))\b)")

# -- yes/no rows: (lang, question pattern, statement for yes, statement for no) -------------
YESNO_ROWS: tuple[tuple[str, str, str | None, str | None], ...] = (
    ("en", r"\b(?:is\s+it\s+(?:ok|okay|alright|fine)|(?:can|may)\s+(?:i|we)|would\s+it\s+be\s+(?:ok|okay|alright))\s+(?:to\s+)?(?:call|phone|ring)\s+{you}\b", "You can call me", "Don't call me"),
    ("en", r"\bdo\s+{you}\s+mind\s+(?:if\s+(?:i|we)\s+)?(?:a\s+)?(?:phone\s+)?(?:call|ring|phone)(?:s|ing)?\b", "Don't call me", "You can call me"),
    ("en", r"\b(?:are|is)\s+(?:emojis?|emoticons?)\s+(?:ok|okay|fine|alright|welcome)\b|\bdo\s+{you}\s+(?:like|want|mind)\s+emojis?\b", "Emojis are fine", "No emojis"),
    ("en", r"\bdo\s+{you}\s+have\s+(?:any\s+)?(?P<x>kids|children|pets|a\s+dog|a\s+cat|dogs|cats)\b", "I have {r}|I have {x}, {r}", None),
    ("en", r"\bare\s+{you}\s+(?:on|taking)\s+any\s+(?:medications?|meds|medicines?)\b", "I take {r}", None),
    ("en", r"\b(?:should|shall)\s+i\s+keep\s+(?:my\s+)?(?:answers|replies|responses)\s+(?P<x>short|brief|concise|detailed)\b", "Keep your answers {x}", None),
    ("en", r"\b(?:planning|going|about|set)\s+to\s+(?:move|relocate)\b|\b(?:moving|relocating)\s+(?:anywhere|somewhere|soon|away)\b", "I'm moving {r}", None),
    ("zh", r"对(?P<x>(?:(?!什么|哪|啥)[^？?，,。吗]){1,12})过敏(?:吗|么|嘛|吧|呢)", "我对{x}过敏", None),
    ("zh", r"吃(?P<x>(?:(?!什么|哪|啥)[^？?，,。吗了会]){1,8})(?:了)?(?:会|有没有|会不会)?过敏(?:吗|么|嘛|吧|呢)", "我对{x}过敏", None),
    ("zh", r"(?:有|对|你)(?P<x>(?:(?!什么|哪|啥)[^？?，,。吗有对]){1,8})不耐受(?:吗|么|嘛|吧|呢)", "我对{x}不耐受", None),
    ("zh", r"是不是不(?P<x>吃|喝)(?P<o>[^？?，,。吗]{1,8})(?:吗|么|嘛|吧|呢)?\W*$", "我不{x}{o}", None),
    ("zh", r"表情(?:符号|包)?", "可以用表情符号", "不要用表情符号"),
    ("zh", r"(?:能|可以)(?:给你)?打(?:你)?电话|电话(?:联系|沟通|回访|打给)你|介意.{0,3}(?:打电话|来电)|接电话方便|方便接电话", "可以给我打电话", "不要给我打电话"),
)

#: English verbs whose "no" states a fact as naturally as a "yes" ("Do you eat meat?" + "no").
NEG_VERBS_EN = frozenset({"eat", "drink", "like", "enjoy", "smoke", "drive", "fly"})
#: The same for Chinese (你吃辣吗 + 不吃 -> 我不吃辣).
NEG_VERBS_ZH = ("吃", "喝", "喜欢", "抽烟", "吸烟", "开车")

# -- choice rows: (lang, options, templates "a|b", what the question must also say) ----------
CHOICE_ROWS: tuple[tuple[str, str, str, str], ...] = (
    ("en", r"\b(?:window|aisle|middle|exit[\s-]rows?)\b", "I prefer {c} seats", ""),
    ("en", r"\b(?:premium\s+economy|economy|business|first)\b", "I fly {c}", r"\b(?:class|fly|flights?|cabin)\b"),
    ("en", r"\b(?:metric|imperial)\b", "I use {c}", ""),
    ("en", r"\b(?:celsius|fahrenheit)\b", "I use {c}", ""),
    ("en", r"\b(?:12|24)[\s-]?h(?:ou)?r?\b|\b(?:am/pm|military)\b", "I prefer the {c} clock", ""),
    ("en", r"\b(?:short(?:er)?|long(?:er)?|medium|brief(?:er)?|detailed|concise|in[\s-]depth)\b", "I prefer {c} answers|Keep your answers {c} length", r"\b(?:answers?|replies|responses|explanations?)\b"),
    ("en", r"\b(?:formal|casual|informal|friendly|direct|professional|relaxed|chatty|laid[\s-]back|warm|polite)\b", "I prefer a {c} tone", r"\b(?:tone|style|talk|write|speak|answers?|replies|formal|casual)\b"),
    ("en", r"\b(?:bullet\s+points|bullets?|prose|paragraphs|tables?|numbered\s+steps|lists?)\b", "I prefer {c}|Answer in {c}|Please use {c} format", ""),
    ("en", r"\b(?:king|queen|twins?|double|single)(?:\s+beds?)?\b", "I prefer a {c} bed|I prefer {c} rooms", r"\b(?:beds?|rooms?|king|twins?)\b"),
    ("en", r"\b(?:usd|eur|gbp|dollars?|euros?|pounds?|yen|yuan|rmb|rupees?|francs?)\b", "Show prices in {c}", ""),
    ("en", r"\b(?:english|spanish|french|german|chinese|mandarin|japanese|italian|portuguese|korean|arabic|hindi|russian|dutch)\b", "Please reply in {c}", ""),
    ("en", r"\b(?:email|e-mail|text|sms|phone|whatsapp|telegram|signal|wechat)\b", "Contact me by {c}", ""),
    ("en", r"\b(?:card|cash|paypal|apple\s+pay|google\s+pay|credit|debit)\b", "I usually pay with {c}", ""),
    ("zh", r"靠窗|过道|靠走廊|紧急出口|安全出口", "我喜欢{c}的座位", ""),
    ("zh", r"大床|双床", "我要{c}房", ""),
    ("zh", r"列表|段落|表格|要点|分点", "我喜欢用{c}", ""),
    ("zh", r"(?:12|24|十二|二十四)小时", "我习惯用{c}制", ""),
    ("zh", r"经济舱|商务舱|头等舱", "我坐{c}", ""),
    ("zh", r"中文|英文|英语|汉语|日语|粤语", "请用{c}回复我", ""),
    ("zh", r"短信|邮件|电话|微信", "请用{c}联系我", ""),
    ("zh", r"简短|简洁|详细|长一点|短一点|[长短](?=的|回答|回复|点|些)", "回答{c}一点", r"回答|回复"),
    ("zh", r"摄氏|华氏|公制|英制", "我用{c}", ""),
    ("zh", r"正式|随意|轻松|随和|礼貌|直接", "我喜欢{c}一点的语气", r"语气|口吻|风格"),
    ("zh", r"支付宝|微信支付|信用卡|现金|借记卡", "我一般用{c}付款", ""),
)
# fmt: on
