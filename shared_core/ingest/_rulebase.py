"""Shared pieces of the rule extractor: marker phrases, sentence/clause splitting, the
clause context and small text helpers. The sentence-level and open-vocabulary handlers
are in :mod:`shared_core.ingest._rules_open`. Private to :mod:`shared_core.ingest`."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from ..entities import Candidate, Intent, Kind, Scope
from ..scripts import HAN_BASIC
from . import lexicon as L
from .lexicon import canonical_value, slugify

_I = re.IGNORECASE

#: (start, end, candidate): what a handler found and the span it claims.
Hit = tuple[int, int, Candidate]


@dataclass(slots=True)
class Sentence:
    """One sentence of a turn and the flags that apply to every candidate in it."""

    text: str
    question: bool
    hypothetical: bool
    correction: bool
    implicit_cue: bool
    scope: Scope
    valid_until: datetime | None
    transient: bool = False  # "right now", "this morning", "今天": a passing state
    task: bool = False  # "book me a window seat to Rome", "帮我订个座位": a one-off task


@dataclass(slots=True)
class Clause:
    """One clause (comma-separated part) of a sentence: what handlers look at."""

    text: str
    start: int  # offset in the sentence
    sentence: Sentence
    permanent: bool
    third_party: bool
    at: datetime


def cand(
    kind: Kind,
    key: str,
    value: str,
    *,
    normalized: str | None = None,
    explicit: bool = True,
    hard: bool = False,
    permanent: bool = False,
    intent: Intent = Intent.ASSERT,
    signals: tuple[str, ...] = (),
) -> Candidate:
    """A candidate with ``normalized`` defaulting to :func:`canonical_value`."""
    value = value.strip()
    return Candidate(
        kind=kind,
        key=key,
        value=value,
        normalized=canonical_value(key, value) if normalized is None else normalized,
        explicit=explicit,
        hard=hard,
        permanent=permanent,
        intent=intent,
        signals=frozenset(signals),
    )


# --------------------------------------------------------------------------------------
# Marker phrases (compiled word lists) read by the extractor at turn/sentence level.
# --------------------------------------------------------------------------------------

#: "remember" / "from now on" / "always" ... -> the statement is explicit.
EXPLICIT_MARKER_RE = re.compile(
    r"(?<!don't )(?<!do not )(?<!dont )\bremember\b|\bplease\s+note\b|\bnote\s+that\b"
    r"|\bkeep\s+in\s+mind\b|\bfrom\s+now\s+on\b|\bgoing\s+forward\b|\bfor\s+future\s+reference\b"
    r"|\bdon't\s+ask\s+(?:me\s+)?again\b|\balways\b|\bnever\b(?!\s*mind)|\bfor\s+the\s+record\b"
    r"|(?<!别)(?<!不要)(?<!不用)记住|请记下|记下来|帮我记|从现在开始|从今以后|(?<![天周月年个])以后"
    r"|今后|别再|永远|每次都|一律",
    _I,
)
#: "never/always/永远/绝对/千万" wording -> permanent.
PERMANENT_RE = re.compile(
    r"\bnever\b(?!\s*mind)|\balways\b|\b(?:don't|do\s+not|dont)\s+ever\b|\bever\s+again\b"
    r"|\bunder\s+no\s+circumstances\b|\bat\s+all\s+times\b|永远|绝对|千万|从不|再也不|任何时候都",
    _I,
)
#: Jokes: "just kidding", "jk", "lol, not really", "开玩笑的", "逗你的", "哈哈骗你的".
JOKE_RE = re.compile(
    r"(?<!not\s)(?<!n't\s)(?<!no\s)\b(?:just\s+|only\s+)?(?:kidding|joking)\b|\bjk\b|\bj/k\b"
    r"|\b(?:lol|haha+|lmao|hehe)\b[\s,!.]*(?:not\s+really|nah|no)\b"
    # figures of speech in a language's frame: "I speak fluent sarcasm", "fluent in emoji"
    r"|\b(?:speak\s+fluent|fluent\s+in)\s+(?:sarcasm|emoji|memes?|gibberish|nonsense|cat|dog|baby\s+talk"
    r"|corporate|toddler|teen|gen\s+z|sass)\b"
    r"|(?<!不是)(?<!没)(?<!没有)(?<!没在)开玩笑的?|逗你的?|逗你玩|骗你的?|闹着玩的?|说着玩的?|才怪"
    # "我不吃香菜是假的": the statement called untrue in its own sentence
    r"|(?<=[\u4e00-\u9fff])是假的(?:啦|哈|啊)?\W*$",
    _I,
)
#: A turn that ends in a laugh ("I'm allergic to Mondays lol", "我住在地球上啊哈哈") or
#: carries a wink is not a statement of fact; unlike "just kidding" it retracts nothing.
LAUGH_RE = re.compile(
    # 呵呵 is a sneer, not a laugh: at either end it covers the whole turn ("我爱工作，呵呵")
    r"[🙃😜🤪🙄]|[😂🤣](?!\W*$)|^\W*呵呵|呵呵+\W*$|\s/s\W*$"
    # sarcasm markers: "Oh sure, I just LOVE waiting", "Yeah, because I'm totally a
    # millionaire", "对对对，我最爱排队了": not a statement about the user either
    r"|^\W*(?:oh\s+)?(?:sure|yeah\s+right|yeah|right)\s*,\s*(?:because\s+)?i(?:\s+just|'m\s+totally)?\b"
    # "oh absolutely, I adore ...", "yeah and I'm the queen of England"
    r"|^\W*oh\s+(?:absolutely|totally|definitely|of\s+course|great|wonderful)\s*,\s*i\b"
    r"|^\W*(?:yeah|sure|right)\s+and\s+i(?:'m|\s+am)\b"
    r"|\bi(?:'m|\s+am)\s+(?:the\s+)?(?:queen|king|pope|president|emperor)\s+of\b"
    r"|\bfluent\s+in\s+(?:sarcasm|emojis?|memes?|gibberish|nonsense)\b"
    r"|\bi'm\s+totally\s+a\b|^\W*(?:对对对|是是是|好好好|行行行|行行行行)"
    # a grudging closer: "…，行了吧", "…，满意了吧"
    r"|(?:行了吧|满意了吧|满意了没|这下满意了|可以了吧)\W*$"
    # a statement taken back by a trailing "... not" ("i'm a morning person... not")
    r"|(?:\.{2,}|…)\s*not\W*$"
    # "... I just love 5am alarms. not." / "NOT!": the trailing word alone as its own sentence
    r"|[.!]\s+not[.!]+\s*$"
    # "... such a fun party trick, said nobody ever"
    r"|\bsaid\s+no\s*(?:one|body)(?:\s+ever)?\W*$"
    # role-play and meme personas: "我是秦始皇，打钱", "朕乃...", "我是你爸爸", "v我50"
    # an everyday activity given as one's job: "我的职业是睡觉", "本人职业：干饭"
    r"|(?:职业|工作|专业|本职|主业|副业|爱好|特长|运动)(?:是|就是|：|:)\s*(?:睡觉|吃饭|干饭|摸鱼|躺平|躺着|发呆|呼吸|吃|睡|玩|打游戏"
    r"|刷手机|混日子|做梦|划水|熬夜|(?:躺着)?数钱|(?:在|躺)?(?:床上|沙发上)(?:翻身|躺着|打滚))(?:大师|专家|达人|选手|专业户|冠军|王者|高手|爱好者)?(?=$|[，。,.!！\s]|和|加)"
    r"|打钱|[vV]我(?:50|五十)|^\W*(?:朕|本宫|本王|寡人|哀家)(?:乃|是|就是)?"
    r"|我(?:就)?是(?:你爸爸?|你爹|你爷爷|秦始皇|孙悟空|玉皇大帝|如来佛祖|奥特曼|超人|蜘蛛侠|钢铁侠|外星人|宇宙最强"
    r"|天王老子|亿万富翁|首富|机器人|(?:一颗|一个|个)?(?:柠檬精|人间清醒|显眼包|小趴菜|大冤种|冤种|铁憨憨|卷王之王))"
    # an animal or a thing for oneself: "我是一只小小鸟", "我就是一条咸鱼"
    r"|我(?:就|只)?是一(?:只|条|头|匹|棵|朵|块)"
    r"(?![\u4e00-\u9fff]{1,4}的(?:主人|铲屎官|妈妈?|爸爸?|家长|饲养员))"
    # a superlative of oneself: "我是地球上最帅的人", "我是世界上最有耐心的人"
    r"|我(?:就|可)?是(?:这个)?(?:地球上|世界上|全世界|全宇宙|宇宙|全球|史上|天底下|全村)(?:最|第一|无敌)"
    r"|我(?:就|可)?是全(?:村|家|公司|班)的希望"
    # "我是全公司最帅的人，没有之一", "全班第一帅"
    r"|我(?:就|可)?是(?:我们)?全(?:公司|班|校|家|网|场|小区|楼|部门|组|城|市|国)(?:最|第一)|没有之一"
    # a turn that opens with a laugh ("lol I'm allergic to Mondays") is not a statement
    r"|^\W*(?:lol|lmao|rofl|haha+|hehe+)\b|^\W*(?:哈哈+|呵呵+|嘿嘿+)"
    # a mock-cheerful opener: "oh yes, please call me at 3am", "oh joy, ..."
    r"|^\W*oh\s+(?:great|joy|wonderful|fantastic|brilliant|lovely|goody|perfect|yes|yeah|absolutely"
    r"|sure)\s*[,!.]"
    r"|^\W*(?:太好了|真好|真棒|好棒|棒极了|太棒了|好极了|妙极了|完美|好开心|真开心|真不错)\W*[^，,。.!！]{0,6}?又"
    # a laughing opener: "笑死，我对周一早上的闹钟过敏", "笑哭，我是…"
    r"|^\W*(?:笑死|笑哭|笑不活|乐死)"
    # a body part working like a gadget tuned to one thing: "我的眼睛只对红包有识别功能",
    # "我的耳朵只对开饭有反应", "我的胃自带火锅雷达"
    r"|(?:眼睛|眼|耳朵|鼻子|脑子|大脑|胃|肚子|嘴巴?|手指?|腿|身体|钱包)(?:只|就只|仅)对[^，,。]{1,10}?"
    r"(?:有|才有)[^，,。]{0,10}?(?:功能|反应|感应|雷达|信号)"
    r"|(?:眼睛|耳朵|鼻子|脑子|大脑|胃|肚子|嘴巴?)(?:自带|装了|内置)[^，,。]{1,8}?(?:功能|雷达|系统|芯片)"
    # forever eighteen: "已经连续过了二十年十八岁生日", "永远十八岁"
    r"|(?:连续|年年|每年都?)[^，,。]{0,4}过了?[^，,。]{0,6}(?:十八|18)岁(?:的)?生日|永远(?:的)?(?:十八|18)岁"
    # a hobby that is something suffered: "我的爱好是被老板骂", "特长是挨骂"
    r"|(?:爱好|特长|兴趣)(?:是|就是)\s*(?:被|挨)"
    # loving what everyone hates is sarcasm ("I just adore it when my flight gets cancelled",
    # "我超级喜欢排队两小时"): affection toward a stock annoyance
    r"|\b(?:love|loves|adore|adores|enjoy|enjoys|fan\s+of|in\s+love\s+with|thrilled|excited"
    r"|can't\s+wait)\b[^.!?]{0,30}?"
    r"\b(?:waiting|on\s+hold|traffic(?:\s+jams?)?|queues?|taxes|bank\s+fees|paperwork|delays?"
    r"|(?:hidden|late|booking|service|overdraft)\s+(?:fees|charges)"
    r"|cancell?ed|(?:\d{1,2}\s*am|early)\s+meetings?|mondays|hangovers?|spam(?:\s+(?:calls|emails?|texts?|mail))?|robocalls|junk\s+mail)\b"
    r"|(?:最|超|超级|真|太|可|好|特别|非常|就)(?:喜欢|爱)[^，,。.!！?？]{0,8}被(?![夸表叫称喊])"
    # "我好爱周一啊", "爱到想哭": affection for the start of the week, or love that hurts
    r"|(?:爱|喜欢)(?:周一|星期一)(?:啊|呀|了|哦|呢)?(?=$|[，,。.!！\s])|爱[到得](?:想哭|哭)"
    r"|(?:喜欢|爱|爱死了?)[^，,。.!！?？]{0,8}(?:排队|排[^，,。队]{1,8}队|堵车|塞车|加班|交税|延误|骚扰电话|写报告|催婚|挤地铁"
    r"|挤公交|扣工资|被骂|开会了|推销电话|被推销|改(?:PPT|ppt|简历|论文|bug|BUG)|写周报|做报表|打卡"
    r"|改需求|改方案|改稿|团建|调休|内卷|还房贷|还贷款|湿鞋|淋雨|背锅|值夜班|被裁"
    r"|(?:周一|星期一).{0,6}开会)",
    _I,
)
#: A laugh that ends a turn ("I'm allergic to Mondays lol", "我住在地球上啊哈哈") is about
#: the clause it follows, not the whole turn: "celsius please, I'm not american lol" still
#: asks for Celsius (see :func:`laughed_from`).
TRAILING_LAUGH_RE = re.compile(
    r"\b(?:lol|lmao|haha+|hehe+)\W*$|(?:哈哈+|呵呵+|[😂🤣]+)\W*$|(?<![a-z])h{3,}\W*$", _I
)
_LAUGH_WORDS = re.compile(
    r"\b(?:lol|lmao|haha+|hehe+)\b|哈哈+|呵呵+|(?<![a-z])h{3,}(?![a-z])|啊|[\W_]", _I
)


def laughed_from(sentence_texts: list[str]) -> tuple[int, int] | None:
    """(sentence index, clause offset) from which a turn's trailing laugh applies: the last
    clause with words besides the laugh ("I live in London, lol" -> "I live in London")."""
    if not sentence_texts or TRAILING_LAUGH_RE.search(sentence_texts[-1]) is None:
        return None
    for i in range(len(sentence_texts) - 1, -1, -1):
        cls = clauses(sentence_texts[i])
        for text, off in reversed(cls):
            if _LAUGH_WORDS.sub("", text):
                colon = max(
                    sentence_texts[i].rfind(":", 0, off), sentence_texts[i].rfind("：", 0, off)
                )
                after = [t for t, o in cls if o > colon]
                if colon >= 0 and not any(first_person(t) for t in after):
                    # what follows a colon spells out the clause before it, and the laugh
                    # covers both: "I'm bilingual: english and emoji 😂" (not "note: I'm
                    # vegan, and I love it lol")
                    off = max((o for _t, o in cls if o <= colon), default=off)
                return i, off
    return None


#: "I used to be allergic to peanuts", "我以前对花生过敏", "小时候是素食者": a state that was,
#: said without "now" / "still" (with them it is current: "I still ...", "以前就…").
#: Something done once or twice ("我用微信支付过一次", "坐过两回国航") is an experience,
#: not a habit.
_PAST = re.compile(
    # ("I'm used to imperial", "I got used to it": accustomed, not a past habit)
    r"(?<!\bbe\s)(?<!\bam\s)(?<!'m\s)(?<!\bim\s)(?<!\bget\s)(?<!\bgot\s)(?<!\bare\s)(?<!'re\s)"
    r"(?<!\bmore\s)(?<!\bso\s)(?<!\bquite\s)(?<!\bpretty\s)(?<!\bvery\s)(?<!\bgetting\s)"
    r"\bused\s+to\b|(?:(?<![点\d半分])以前|曾经|小时候|过去|当年)(?!就|一直|也|开始|起)"
    r"|(?<=[\u4e00-\u9fffA-Za-z])过(?:一|两|几|三)(?:次|回)",
    _I,
)
#: ("后来" too: "以前在武汉住，后来搬来南京了" reads the later state in the same clause, and
#: "再也不": "坐过一次亚航再也不坐了" refuses from now on)
_STILL = re.compile(
    r"\b(?:now|still|anymore|again|these\s+days)\b|现在|目前|至今|还是|仍|依然|一直|后来|再也不", _I
)
#: A bounded stretch of the past ("上学那会儿我天天吃泡面", "大学那几年我一直吃素", "那时候我在
#: 外企做销售"): what held then, "一直" included, held only then unless "now" follows.
_PAST_SPAN = re.compile(
    r"(?<![到等])那(?:时候?|会儿?|几年|阵子?|段(?:时间|日子))(?![候起])"
    r"|(?:上学|读书|念书|上大学|大学|高中|初中|刚毕业|年轻)(?:的)?时(?:候)?(?![间光])"
)
_NOW = re.compile(
    r"\b(?:still|these\s+days)\b|\bnow\b(?!\s+(?:i'?m\s+)?(?:not|no|over|fine))"
    # "现在也不吃" goes on; "现在好了", "现在不过敏了", "现在啥都吃", "现在改吃肉了" end it
    # ("现在改住杭州了" is where the user lives now)
    r"|(?:现在|目前|如今)(?!(?:已经|早就?)?(?:好了|不|没|啥都|什么都|改(?!住|在|到)|换(?!住|在|到)))|至今|仍|依然|到现在",
    _I,
)
#: A state that began in that stretch and goes on: "高中时我就不吃香菜了", "上大学的时候开始过敏".
_ONSET = re.compile(r"开始|(?<![一对])起(?!来)|就|以来|从那")
#: A time gone by and then 就 / 一直 / 起 ("以前我就住在成都", "小时候我就对花生过敏"), or "至今",
#: "到现在": the state held since then and still does.
_SINCE_THEN = re.compile(
    r"(?:以前|之前|小时候|过去|当年)[^，,。.!！?？；;]{0,6}?(?:就|一直|起)|至今|到现在"
)
#: ...unless the sentence says it ended: "后来搬走了", "长大就好了", "现在不吃了".
_ENDED = re.compile(
    r"后来|(?:搬走|搬出|离开|戒|放弃)了|长大(?:以后|后|了)?(?:就)?好|(?:现在|如今|目前)(?:已经|早就?)?(?:好了|不|没)"
    r"|早就?不|已经不|不再|\b(?:anymore|any\s+more|no\s+longer|until|till)\b",
    _I,
)


#: A finding told as the turn of a story, the reason something then stopped: "后来体检查出
#: 贫血就放弃了", "查出尿酸高以后就戒了".
_FOUND_THEN_STOPPED = re.compile(
    r"(?:查出来?|检查出|诊断出|确诊)[^，,。]{1,8}?(?:就|便|于是|所以|之后|以后)[^，,。]{0,6}?"
    r"(?:放弃|戒|停|不[\u4e00-\u9fff]|没再|改)"
)


#: A condition said to be over: "现在已经好了", "早就治好了", "已经痊愈了" ("好了很多" is better,
#: not over).
_CURED_ZH = re.compile(
    r"(?:已经|早就?|都)(?:完全)?(?:好了|治好了?|痊愈|康复)(?!很多|不少|一些|一点|点|些|大半)"
    r"|(?:治好了|痊愈了|康复了)(?!很多|不少|一些|一点|点|些|大半)"
)


#: A pet gone: "后来送人了", "前年走了", "养了两个月就死了".
_PET_GONE_ZH = re.compile(r"(?:死|走|送人|送走|丢|跑丢|去世|过世)了")


def past_state(clause: str, key: str, sentence: str = "") -> bool:
    """Whether a memory of ``key`` read from ``clause`` is a state that was and is no more
    (the extractor marks it ``past``); a ``.previous`` key, an event or a note of one's
    history is meant as past and keeps."""
    if key.endswith(".previous") or key.startswith(("event.", "note.")):
        return False
    if (
        key.startswith("health.condition")
        and _FOUND_THEN_STOPPED.search(clause) is not None
        and (_PAST.search(sentence or clause) or _PAST_SPAN.search(sentence or clause))
        and re.search(r"现在还|一直|至今|仍|依然|还在", sentence or clause) is None
    ):
        # a finding in a story told of the past ("以前吃过两年素，后来体检查出贫血就放弃了"):
        # the story's turn, not a condition said to hold now
        return True
    if key.startswith("pet.species") and _PET_GONE_ZH.search(sentence or clause) is not None:
        return True  # "兔子养了三年，后来送人了": a pet the user no longer has
    if key.startswith("health.condition") and _CURED_ZH.search(sentence or clause) is not None:
        return True  # "去年查出脂肪肝，不过现在已经好了": a condition that is over
    ended = _ENDED.search(sentence or clause) is not None
    if (
        _PAST_SPAN.search(clause) is not None
        and (_ONSET.search(clause) is None or ended)
        and _NOW.search(sentence or clause) is None
    ):
        return True
    return (
        _PAST.search(clause) is not None
        and _STILL.search(clause) is None
        and (_SINCE_THEN.search(sentence or clause) is None or ended)
    )


#: A question about what the assistant can do ("你能不能说英文", "你会说日语吗"), not a
#: request about how to answer the user ("能不能用英文回复我" is one).
_ABILITY_Q_ZH = re.compile(
    r"^\W*你(?:能不能|能|会不会|会|可不可以|可以)(?:说|讲|听懂|看懂)(?:[^，,。]{0,8})(?:吗|么|呢)?\W*$"
)
#: A sentence that reports someone else's words ("歌词里唱“我住长江头”", "she said "I
#: live here""): the quoted first person is not the user.
QUOTED_RE = re.compile(
    r"(?:唱|说|写|写着|写道|读|歌词|台词|\bsays?|\bsaid|\bsings?|\bsang|\blyrics?|\bquote[sd]?"
    r"|\bwrote|\bline|\bgoes|\bwent|\bsaying|\bread"
    # "the email started 'Dear customer, I live in ...'", "the letter ends: \"I'm ...\""
    r"|\bstart(?:s|ed)|\bbegins?|\bbegan|\bends|\bended|\bopens|\bopened)\W{0,4}[\"“「『']"
    # someone's words after a colon: "书里写着：我叫孔乙己", "他说：我不吃辣"
    r"|(?:写着|写道|说道|唱道|念道|(?<!我)说|唱)\s*[:：]"
    # "他发了条朋友圈：我对芒果过敏", "看到一句话：我不吃香菜", "有本书叫《我在北京当保安》"
    r"|(?:朋友圈|微博|动态|签名|标题|文案|弹幕|评论|帖子|一句话|这句话|那句话|原话|台词"
    # "有个段子：我今年八十岁…", "微博热搜：我35岁…", "广告语：…", "课本第一课：My name is …"
    r"|段子|热搜|笑话|梗|口号|广告(?:语|词)?|宣传语|标语|新闻|歌词|对白|旁白|课文|第[一二三四五六七八九十\d]{1,3}(?:课|章|集|页|段|句))"
    r"\s*(?:是这样的?|如下|是|为|写着|说|(?:是)?(?:这么|这样)(?:写|说|讲)的?)?\s*[:：]"
    # "帮我看看这句话通不通顺：…", "这段话是我在网上看到的：…", "下面这段：…"
    r"|(?:这|那|一|下面这?|以下这?)(?:段|句|条)(?:话|文字|文案|内容)?[^，,。:：]{0,14}[:：]|看到的?\s*[:：]"
    # a post or a lyric said without quotes: "刚看到一条微博说有人…", "歌词里有句我住在江南",
    # "以下内容由AI生成：…"
    r"|(?:微博|朋友圈|小红书|抖音|帖子|新闻|文章|视频|群里)(?:上|里)?[^，,。]{0,6}(?:说|写|讲)(?![我俺过了])"
    r"|(?:歌词|台词|书|诗|歌|剧)(?:里|中)(?:有)?(?:一)?句|(?:AI|机器|自动)生成"
    # "有人写：我叫王大锤", "转发一条：本人已婚", "算命的说我三十岁会发财"
    r"|(?<!我)写\s*[:：]|转发|"
    # a text to write or edit, after the request: "帮我写个开场白：我是…", "这份简历帮我改改：本人…"
    r"(?:帮|给|替)我[^，,。:：]{0,12}?(?:写|拟|起草|编|改|润色|校对|修改|优化|检查|整理)[^，,。:：]{0,8}[:：]|(?:算命的|算命先生|网友|星座|塔罗|面相|手相|测试|大师)"
    r"(?:都|也|总|老|一直|就)?(?:说|讲|认为|觉得)(?:我|俺)"
    # "网上说我们…", "听我妈说我小时候…": hearsay about the user
    r"|(?:网上|网传|新闻|报道|研究|专家)(?:都|也)?(?:说|讲|称)|听[\u4e00-\u9fff]{1,4}说(?:我|俺)"
    # a paper read out: "体检报告上说我有点贫血", "化验单上讲我…" (a diagnosis, 查出, stays)
    r"|(?:报告|体检单|化验单|检查单|诊断书)(?:上|里)(?:说|讲)(?:我|俺)"
    # hearsay from anyone, whatever it is about: "听人说泰国说英语就行", "听同事讲杭州…"
    r"|^\W*(?:我)?(?:也)?听(?:人|别人|人家|有人|朋友|同事|网友|[^\W你我]{1,4}?)(?:说|讲)(?![完话过])"
    # figures and surveys: "据统计…", "调查显示…", "研究表明…"
    r"|据统计|(?:调查|数据|统计|研究)(?:显示|表明)"
    # someone else's judgement of the user: "老师说我英语说得还行", "朋友都夸我像个厨师"
    r"|(?<![我俺你])(?:说|夸|认为)(?:我|俺)[^，,。]{0,12}?(?:还行|还可以|不错|挺好|很好|一般般?|像个?|适合|应该|该)"
    # someone named by role says something not about the user: "导游说当地人都用现金",
    # "医生说很多人…", "小李跟我讲…" ("医生说我乳糖不耐受" is about the user and stays)
    r"|^\W*[^\W我俺]{0,3}?(?:医生|大夫|导游|老师|专家|店员|服务员|客服|教练|师傅|房东|中介|领导|经理"
    r"|老板|同事|朋友|客户|网友|人家|别人|小[\u4e00-\u9fff]|老(?!实)[\u4e00-\u9fff])(?:跟我|和我|对我)?"
    r"(?:说|讲|告诉我|表示|称)(?:过)?(?![我俺过话])"
    # a text the user writes or is given, after a colon: "造句：…", "小说开头：…", "原文是：…"
    r"|(?:造句|例句|范文|作文|开头|结尾|原文|原句|内容|正文|设定|人设|角色介绍|自我介绍|请假条|台词|广告词)"
    # "广告词是这么写的：…", "女主的设定是：…"
    r"\s*(?:是|为)?(?:这么|这样)?(?:写|说|讲)?的?\s*[:：]"
    r"|《[^》]{0,60}?我[^》]{0,60}?》"
    # a paper's or a rule book's own words after a colon: "题目要求：请用不超过100字回答",
    # "考试说明：答题请分点作答", "无障碍指南：…", "说明书：…" ("补充说明：我对花生过敏" and
    # "我的要求：…" are the user's own)
    r"|(?:题目|考试|作业|试卷|考题|答题|比赛|活动|使用|产品|安装|安全|无障碍|用药|服用|平台|官方|公司|学校)"
    r"(?:要求|说明|规定|须知|指南|规则|守则)\s*[:：]"
    r"|(?<!我的)(?:说明书|使用手册|操作手册|指南|须知|守则|条款|公告|告示|规章制度)\s*(?:上|里)?(?:写着|说)?\s*[:：]"
    # the same frames when chat drops the colon (a space, read as a comma): "书里写着 我叫孔乙己",
    # "歌词里唱 我住长江头", "他的签名是 我住北京", "抖音上那个梗 我是…", "我在背台词 我叫…",
    # "那首歌叫 我的名字叫…", "朋友圈有人发 我不喝酒", "题目是 请用我叫什么名字造句"
    r"|(?:写着|写道|唱道|念道|(?<![我你])唱|有人(?:发|写|转)了?(?:一?条)?)\s*[，,]\s*(?:[^，,。]{0,4}我|俺|本人)"
    r"|(?:签名|标题|文案|弹幕|评论|题目|考题|原话|梗|台词|歌词|段子|热搜|口号|slogan|(?:歌|书|电影|剧|节目)名?叫"
    r"|(?:一|这|那)句话|看到的?)"
    r"(?:是|为|写着|就是)?\s*[，,]\s*(?:[^，,。]{0,4}我|俺|本人)"
    # "帮我看看这句改得对不对，我对芒果过敏了很久", "微博热搜那句，我不吃香菜"
    # ("这段时间，…" is a time)
    r"|(?:这|那|下面这?|以下这?)(?:段|句)(?!时间|日子|时期|路)(?:话|文字|文案|内容|病句)?[^，,。:：]{0,14}[，,]\s*(?:[^，,。]{0,4}我|俺|本人)"
    r"|^\W*[\"'“‘「][^\"'”’」]{2,120}[\"'”’」]\W{0,3}(?:said|says|asked|wrote|is\s+(?:the|a)\s+(?:first\s+)?(?:line|quote)"
    r"|说|写道|问)"
    r"|\b(?:said|says|wrote|reads?)\s*:|\bas\s+the\s+(?:song|saying|line|quote)\s+goes\b"
    # "copying what the bot told me: ...", "the dietitian explained that keto isn't for everyone"
    r"|\btold\s+(?:me|us)\s*:|\b(?:the|my|our)\s+[a-z]+\s+(?:explained|mentioned|noted"
    r"|pointed\s+out)\s+that\b"
    r"|\b(?:doctor|dr|mom|mum|dad|friend|wife|husband|boss|teacher|brother|sister|he|she|they)"
    r"\s+(?:said|says|told\s+me|thinks?)\s+(?:that\s+)?i\b"
    # someone's advice or demand: "my trainer told me to go low carb", "the nurse wants me
    # to cut salt" (what the user does about it is theirs to say)
    r"|\b(?!i\b)[a-z]+\s+(?:told|tells|advised|advises|wants|wanted|asked|asks|recommended"
    r"|suggested|warned|keeps\s+telling)\s+me\s+(?:to|not\s+to)\b"
    # a translation asked for ("翻译一下…", "帮我把…翻译成英文"), not "我是做翻译的"
    r"|\btranslate\b|翻译(?=一下|成|为|下|这|那|\s*[:：])|(?:帮我|请|把|给我)[^，,。]{0,12}(?:翻译|翻成|译成)"
    # anyone but the user saying something about the user ("my horoscope says I love
    # adventure", "the quiz said I'm an introvert", "you said I like jazz")
    r"|\b(?!i\b)\w+\s+(?:says|said|claims?|claimed|reckons?|insists?|told\s+me)\s+(?:that\s+)?"
    r"(?:i|i'm|i've|i'd|my)\b|\baccording\s+to\b|听说|据说|\breads\W{0,4}[\"']"
    # a quoted first person is someone's words, not the user's ("the caption was "I'm vegan"",
    # "Batman: 'I'm Batman.'", "'I am the walrus', as the song goes")
    r"|\"[^\"\n]{0,120}?(?:\b(?:i|i'm|my|me)\b|我|本人|俺)[^\"\n]{0,120}?\""
    r"|(?:^|(?<=[\s:(]))'(?:i|i'm|my)\b(?:[^'\n]|(?<=\w)'(?=\w)){0,120}?'(?!\w)"
    r"|「[^」]{0,120}?我[^」]{0,120}?」",
    _I,
)
#: One bare word closing "don't call me ___" is what to be called ("don't call me jo,
#: that was a joke", "never call me sweetie"), unless it says when or how often.
CALLED_AS = (
    r"\s+(?!(?:again|ever|anymore|please|pls|plz|now|today|tonight|tomorrow|early|late|back"
    r"|first|directly|either|here|there|then|too|either|lol|thanks|thx|ok|okay)\b)[a-z]+\s*(?:[,.!;]|$)"
)
#: An assistant's reply pasted as the user's turn ("Thanks for letting me know you're
#: allergic to peanuts.", "Understood, I'll reply in German from now on.", "I've updated your
#: profile: ...", "As an AI, I ..."): what it says of "you" is not the user's own statement.
ASSISTANT_VOICE_RE = re.compile(
    r"\bas\s+(?:an?\s+)?(?:ai|a\.i\.|language\s+model|(?:virtual|ai|your)\s+assistant|chatbot)\b"
    r"|\bi(?:'ve|\s+have)\s+(?:now\s+|also\s+|just\s+)?(?:noted|saved|updated|recorded|added|stored"
    r"|changed|set)\s+(?:down\s+)?(?:that\s+you|your)\b"
    r"|\bi(?:'ll|\s+will)\s+(?:now\s+|also\s+|make\s+sure\s+to\s+)?(?:remember|keep\s+in\s+mind|note"
    r"|bear\s+in\s+mind)\s+(?:that\s+)?you(?:'re|\s+are|\s+have|'ve)?\b"
    r"|\bi(?:'ll|\s+will)\s+(?:now\s+|also\s+)?(?:reply|respond|answer|write)\s+(?:to\s+you\s+)?in\b"
    r"|\bi(?:'ll|\s+will)\s+(?:call|address)\s+you\b"
    # the assistant doing something for the listener: "Sure, I'll use metric units for you."
    r"|\bi(?:'ll|\s+will)\s+(?:now\s+|also\s+|only\s+)?(?:use|show|give|send|keep|recommend|suggest"
    r"|list|book|find|set|switch)\b[^.!?]{0,40}?\bfor\s+you\b"
    r"|\bthanks?\s+(?:you\s+)?for\s+(?:letting\s+me\s+know|telling\s+me|sharing)\s+(?:that\s+)?"
    r"you(?:'re|\s+are|\s+have|'ve)?\b"
    r"|\bhappy\s+to\s+help\b[^.!?]{0,3}[.!?]\s*(?:your|you(?:'re|\s+are))\b"
    # an answer built on what it knows of the listener: "Based on your preference for ..."
    r"|^\W*based\s+on\s+your\s+(?:stated\s+)?(?:preferences?|diet|budget|history|interests?"
    r"|profile|tastes?|allerg(?:y|ies))\b"
    # the same in Chinese: "我是AI助手，没有生日哦", "作为AI，我不吃东西", "建议您选择靠过道的座位",
    # "已为您预订…" ("作为AI工程师…" and "我是AI产品经理" are the user's own)
    r"|作为(?:一个|一名)?(?:AI|人工智能|语言模型|智能助手|AI助手)"
    r"(?![\u4e00-\u9fffA-Za-z]*(?:工程师|研究员|从业者|经理|专家|老师|学生))"
    r"|我是(?:一个|一名|您的|你的)?(?:AI|人工智能|语言模型)(?:助手|模型|机器人)?(?=$|[，,。.!！\s])"
    r"|我是(?:一个|一名|您的|你的)?(?:智能助手|AI助手|聊天机器人)|(?:建议|推荐)您"
    # a service desk's greeting: "我是您的智能客服小美，很高兴为您服务" ("我是客服" is a job)
    r"|(?:我|[，,]\s*)是(?:您|你)的(?:专属|智能|在线)?(?:客服|助理|助手|管家|顾问)|我是(?:智能|在线|人工)客服"
    r"|(?:很高兴|竭诚|随时|正在)为(?:您|你)服务"
    # a model telling when it was made: "我是去年才被开发出来的", "我是2023年上线的"
    r"|我是[^，,。]{0,8}?(?:被)?(?:开发|训练|研发|发布)出来的|我是[^，,。]{0,8}?上线的"
    r"|(?:已|已经)?(?:为|帮|给)(?:您|你)(?:记|预订|订|设置|保存|更新|推荐|安排|查)"
    # "根据你的描述，你可能…", "你之前提到你对花生过敏", "以后我会用中文回复你"
    r"|根据(?:你|您)的(?:描述|情况|需求|偏好|症状|信息)|(?:你|您)(?:之前|刚才|前面)?(?:提到|说过)(?:你|您)"
    r"|我(?:以后|之后|接下来|今后)?(?:会|将)(?:一直)?(?:用|以)[^，,。]{1,6}(?:回复|回答)(?:你|您)"
    # an assistant promising about its own answers: "我的回答会尽量简洁", "我会尽量简短地回答您"
    r"|我的(?:回答|回复|答复)(?:会|将)|我(?:会|将)(?:尽量|尽可能)[^，,。]{0,8}(?:回答|回复|答复)(?:您|你)"
    # "好的，我记住了，您喜欢靠窗的座位": the listener's facts, in an assistant's words
    r"|(?:记住|记下|了解|明白)了?\W{0,3}您|(?:^|[，,。.!！])\s*您(?:平时|一般)?(?:喜欢|偏好|更喜欢|不吃|不喝|住在|是一[名位个])",
    _I,
)
#: "don't remember that", "scratch that", "never mind", "别记这个", "算了", "当我没说".
RETRACT_RE = re.compile(
    r"\b(?:please\s+)?(?:don't|do\s+not|dont)\s+(?:remember|save|store|record|keep|note)\s+"
    r"(?:that|this|it)\b|\bscratch\s+that\b|\bnever\s*mind\b|\bnvm\b"
    r"|\bforget\s+(?:it|that|this|what\s+i\s+(?:just\s+)?said)\s*(?:[.!,]|$)"
    # "forget what i said about living in paris", "ignore the bullet point thing", "never
    # mind the budget thing": a retraction that names what it takes back
    r"|\b(?:forget|ignore|disregard)\s+what\s+i\s+(?:just\s+)?(?:said|told\s+you|wrote)\s+about\b"
    r"|\b(?:forget|ignore|disregard|never\s*mind|undo|scratch|drop)\s+(?:the|my|that|this)\s+(?:\w+\s+){0,3}?"
    r"(?:thing|bit|part|stuff)\b"
    # a clause that opens by taking one named item back: "ignore the age", "strike that email",
    # "scratch the budget" ("ignore the typos" takes nothing; "forget my X" is a forget request)
    r"|^\W*(?:(?:erm|um|uh|oh|ok|okay|wait|sorry|oops|actually|no|please|pls)\W+)*"
    r"(?:ignore|disregard|scratch|strike|undo)\s+(?:the|that|this|my)\s+"
    r"(?!(?:typos?|spelling|grammar|formatting|details?|rest|noise|small\s+print)\b)"
    r"[a-z]+(?:\s+[a-z]+)?\s*(?:[,.;!]|$)"
    # "forget I mentioned my meds", "take back what I said about ...", "not true about the
    # parrot", "I was testing you", "that was a joke", "I typed that wrong"
    r"|\b(?:forget|ignore|disregard)\s+(?:that\s+)?i\s+(?:ever\s+)?(?:said|mentioned|told\s+you|wrote)\b"
    r"|\btake\s+back\s+what\s+i\b|\bnot\s+true\s+about\b"
    r"|\bi\s+was\s+(?:just\s+)?(?:testing|messing\s+with|trolling)\s+(?:you|the\s+bot|this)\b"
    r"|\b(?:that|it)\s+was\s+(?:just\s+|only\s+)?a\s+joke\b"
    r"|\btyped\s+(?:that|it)\s+(?:wrong|incorrectly)\b"
    # "sorry, mixed that up, that's my brother's allergy, not mine"
    r"|\bmixed\s+(?:that|it|them|those|things)\s+up\b|,\s*not\s+mine\W*$"
    r"|\bignore\s+(?:that|what\s+i\s+(?:just\s+)?said)\b|\bi\s+take\s+(?:that|it)\s+back\b"
    r"|(?:别|不要|不用)(?:记|存|保存)(?:住|下来?)?(?:这个|这条|这些|了)?(?=$|[，,。.!！?？\s了])"
    # ("PayPal就算了" waves a thing away; "那就算了" takes the turn back)
    r"|(?:(?<!就)|(?<=那就)|(?<=这就))算了|当我没说"
    r"|收回(?:刚才|这句)|撤回刚才|(?:那个|这个|刚才的?|前面的?)不算|忘了吧|忘掉吧"
    # what was said before, called a joke: "我刚才说我住北京是开玩笑的", "前面说的养猫是瞎说的"
    r"|(?:刚才|刚刚|之前|前面|上面)(?:说|讲)的?[^，,。.!！?？]{0,12}?是?(?:开玩笑|逗你|骗你|瞎说|乱说|假的)"
    # "delete that, it's not true", "wrong person, that's my son, not me", "oops, I meant
    # to say that about my cousin, disregard", "I was typing for my friend"
    r"|\b(?:delete|remove|erase|strike|cancel)\s+(?:that|this|it)\s*(?:[.!,;]|$)|\bdisregard\b"
    r"|\b(?:that's|that\s+is|it's|it\s+is|that\s+was)\s+not\s+true\b|\bwrong\s+(?:person|chat|window)\b"
    r"|,\s*not\s+me\W*$|\bi\s+meant\s+(?:to\s+say\s+)?(?:that|it)\s+(?:about|for)\b"
    r"|\b(?:typing|writing|asking)\s+(?:that\s+)?(?:for|about)\s+(?:my|a|someone)\b"
    r"|\btyped\s+(?:that|it)\s+by\s+mistake\b|\b(?:that's|that\s+is|that\s+was)\s+(?:wrong|incorrect)\b"
    # "that was a joke", "I was only kidding": the previous statement taken back
    r"|\b(?:that|it)(?:'s|\s+was|\s+is)\s+(?:just\s+|only\s+)?a\s+joke\b"
    r"|\bi\s+was\s+(?:just\s+|only\s+)?(?:joking|kidding)\b"
    r"|\bignore\s+(?:it|this|all\s+that|my\s+last\s+(?:message|msg|one))\b"
    # "撤回", "刚那句删掉", "说的不算", "打错字了", "过敏的是我弟弟，不是我", "帮朋友打的"
    r"|^\W*撤回|(?:刚才?|前面|上面)的?(?:那|这)?(?:句|条)(?:话|消息)?(?:删|不算|作废)|不想让你记|别让你记|说的(?:都)?不算|打错(?:字)?了"
    r"|[，,]\s*不是我\W*$|帮(?:朋友|别人|同事|家人)(?:打|问|说)的|说错人了"
    # "这条是帮我爸问的，跟我没关系", "上一条是家族群转的，不是我说的", "我说的是我家猫以前的名字"
    r"|(?:这|那|上一?)(?:条|句|个)[^，,。]{0,4}?是(?:帮|替|给)[^，,。你]{1,4}?(?:问|打|发|写)的|跟我(?:没|无)(?:关系|关)\W*$"
    r"|(?:这|那|上一?)(?:条|句|个)[^，,。]{0,4}?是[^，,。]{0,6}?(?:转|转发|复制|抄)(?:的|来的|过来的)"
    r"|不是我(?:说|写|讲)的\W*$|(?:那|这|上一?)(?:句|条)(?:话|消息)?不是我(?:打|发|写|说)的|(?:我)?(?:说|讲)的是[^，,。]{0,10}?(?:以前|之前|小时候|当年)的"
    # "预算那个撤回", "收回前面那句", "不作数", "忽略上一条", "前面那句是我孙子拿我手机打的",
    # "说错了，不是我，是我妹对虾过敏": the previous turn taken back without its words
    r"|撤回(?=$|[，,。.!！\s了吧啊])|^\W*收回(?=$|[，,。.!！\s了吧啊])|收回(?:前面|上面|刚才|刚刚|之前)?的?(?:那|这)?句(?:话)?"
    r"|不作数|不算数|忽略(?:上一条|上条|前面|刚才|刚刚|那条|这条|上一句)"
    # "上一句是测试，忽略", "刚才那条是测试的": the words before were a test
    r"|(?:上一?|前面|刚才|刚刚|之前)的?(?:那)?(?:句|条|个)?(?:话|消息)?(?:只)?是(?:在)?(?:测试|试试|试一下|测一下|乱打|随便打)"
    r"|^\W*(?:我)?(?:只是|就是)?(?:在)?测试一下\W*$|[，,]\s*忽略(?:掉|它|吧)?\W*$"
    # the earlier words pointed at, then thrown out: "前面说的作废", "上一句忽略吧",
    # "刚才发的那条别存" ("刚才删了个文件" points at no words)
    r"|(?:刚才|刚刚|前面|上面|之前|上一)(?:(?:说|讲|发|打|写)的(?:话|那些|内容)?|的?(?:那|这)?(?:一)?(?:句|条)(?:话|消息)?)"
    r"\W{0,2}(?:都|就|请|你)?(?:忽略|无视|别管|作废|不算|删|别存|不用存|不要存|别记|不用记)"
    r"|(?:前面|上面|刚才|刚刚|之前|上一|上)的?(?:那|这)?(?:句|条)(?:话|消息)?是.{0,12}(?:打的|发的|写的)"
    # "不好意思，那是我同事的名字": what was said belongs to someone else
    r"|(?:^|[，,。!！]\s*)(?:那|这)(?:个|条|句)?(?:是|说的是)(?:我的?)?(?:朋友|同事|同学|室友|舍友|老公|老婆|妈妈?|爸爸?"
    r"|哥哥?|姐姐?|弟弟?|妹妹?|孩子|儿子|女儿|邻居|老板|客户|表[哥姐弟妹]|堂[哥姐弟妹]|闺蜜|家人)的"
    r"|不是我\s*[，,]\s*是我"
    # "哦不是，我说的是我妈": the words before were about someone else
    r"|(?:我)?(?:说|讲)的是(?:我的?)?(?:朋友|同事|同学|室友|舍友|老公|老婆|妈妈?|爸爸?|哥哥?|姐姐?|弟弟?|妹妹?"
    r"|孩子|儿子|女儿|邻居|老板|客户|闺蜜|家人)\W*$"
    # "发错人了", "别当真", "语音识别错了", "我说的不是那个意思": the previous turn taken back
    r"|发错(?:人|群|地方|了|窗口|对话|聊天框?|频道)|(?:别|不要|不用)当真|(?:语音|输入法)?识别错了|说的不是(?:那个|这个)意思"
    # "当我没提", "就当没看见", "手滑了", "我瞎说的", "那个邮箱不是我的", "靠窗那个不对",
    # "删掉吧", "请删除关于爬山的那条记录": the previous turn taken back in other words
    r"|当我没(?:提|讲|问|发)|就?当没(?:看见|看到|听见)|手滑|手快了|手抖(?:了|打错)|(?:瞎|乱|胡)(?:说|打|写|编)的"
    # "名字那条作废", "年龄那个删了", "预算这条不算": one earlier fact taken back by its topic
    r"|(?:那|这)(?:条|个|句)(?:信息|消息|话)?(?:作废|不算数?|删(?:了|掉)|别记|错了)"
    r"|(?:那个|这个|那条|这条)[\u4e00-\u9fff]{0,6}不是我的|那(?:个|句|条)不对"
    r"|(?:删掉|删了|删除)(?:吧|啊|哈|它)?\W*$|^\W*(?:那就|就|还是)?(?:删掉|删了|删除)(?:吧|啊|哈|它)?\s*[，,。]|删(?:除|掉)?[^，,。]{0,12}(?:那|这)(?:条|句)(?:记录|信息|话|消息)?"
    # "刚才那是我朋友的名字": the previous turn was about someone else
    r"|(?:刚才|刚刚|上面|前面)(?:那句?|说的|那个|那条)?[\u4e00-\u9fff]{0,4}?(?:是|说的是)(?:我的?)?(?:朋友|别人|同事|家人|室友|妈妈?|爸爸?"
    r"|哥哥?|姐姐?|弟弟?|妹妹?|老婆|老公|孩子)",
    _I,
)
#: Words that set a stored fact aside ("ignore", "disregard", "forget", "don't worry about",
#: "别管", "不用考虑", "忽略"): with a one-answer scope they take nothing back.
_SET_ASIDE = re.compile(
    r"\b(?:ignore|disregard|forget|never\s*mind|nvm|scratch|skip|drop|set\s+aside|put\s+aside"
    r"|leave\s+out|don'?t\s+(?:worry|bother)\s+about"
    r"|(?:don'?t|do\s+not|no\s+need\s+to)\s+(?:consider|factor\s+in|account\s+for|stick\s+to|apply"
    r"|mind|go\s+by|think\s+about))\b"
    r"|别管|不管|不用管|不要管|甭管|(?:别|不|不用|不必|不要|无需|无须)考虑|忽略|无视|忘了|忘掉|忘记"
    r"|不算|不作数|放一边|放一放|(?:别|不|不用)理|(?:别|不用)在意|(?:别|不用)顾及",
    _I,
)
#: One answer, not the record: "this time", "just once", "for now", "for this recipe", "这次",
#: "就这一次", "今天先", "暂时".
_ONE_ANSWER = re.compile(
    r"\b(?:this\s+(?:time|once|round|trip|search|order|query|question|request|recipe|meal"
    r"|booking|answer|reply|one\s+time)|(?:for|just|only)\s+this(?:\s+[a-z]+)?|(?:just|only)\s+once"
    r"|one\s+time\s+only|(?:just\s+|only\s+)?for\s+(?:now|the\s+moment|today|tonight|once)"
    r"|today|tonight|right\s+now|temporarily)\b"
    r"|就这一次|这一次|这次|这回|这一回|本次|就一次|仅此一次|今天|今晚|暂时|暂且|临时|这顿|这餐|这单"
    r"|这趟|这道菜|这个菜谱|先(?=别|不|忽略|放|无视)",
    _I,
)
#: A marker that dates the words taken back, not the answer: "what I said today", "今天说的".
_SAID_BEFORE = re.compile(
    r"\b(?:said|told\s+you|mentioned|wrote|gave|typed|sent)\s+(?:[a-z']+\s+){0,2}$", _I
)
_SAID_AFTER = re.compile(r"^(?:我)?(?:说|讲|提|告诉|发|打|写)")
#: A clause that is only a scope: "just this once,", "就这一次，", "this time though".
_SCOPE_FILLER = re.compile(
    r"(?:\b(?:just|only|but|and|ok|okay|though|please|pls|so)\b|就|只|仅|但|吧|啊|哈|而已|的话|先|[\W_])*",
    _I,
)
_SEGMENT = re.compile(r"[,，.。;；!！?？、…]+|\s+(?:and|but|then)\s+|但是?|然后|不过", _I)


def _one_answer_in(seg: str) -> bool:
    for m in _ONE_ANSWER.finditer(seg):
        if _SAID_BEFORE.search(seg[: m.start()]) or _SAID_AFTER.match(seg[m.end() :]):
            continue  # "forget what I said today": the words are dated, not the answer
        return True
    return False


def _bare_scope(seg: str) -> bool:
    rest = _ONE_ANSWER.sub("", seg, count=1)
    return rest != seg and _SCOPE_FILLER.fullmatch(rest) is not None


_ASIDE_WINDOW = 120


def one_answer_aside(text: str, start: int = 0, end: int | None = None) -> bool:
    """Whether words that set a fact aside in ``text[start:end]`` ("disregard my budget for
    now", "ignore my diet just this once", "就这一次，不用考虑我忌口") scope one answer: a verb
    of setting aside with "this time / for now / 这次 / 暂时" in its own segment or in a
    segment next to it that says nothing else. Such a turn takes back nothing, neither the
    turn before it nor the record it names; "scratch that, I'm in Leeds for now" still does.
    The one place both the retraction of the previous turn and a retraction by topic ask."""
    end = len(text) if end is None else end
    # only the words around the span count (and a long turn costs no more per call)
    w0, w1 = max(0, start - _ASIDE_WINDOW), min(len(text), end + _ASIDE_WINDOW)
    text, start, end = text[w0:w1], start - w0, end - w0
    bounds = [0]
    for m in _SEGMENT.finditer(text):
        bounds += [m.start(), m.end()]
    bounds.append(len(text))
    segs = [(bounds[i], bounds[i + 1]) for i in range(0, len(bounds), 2)]
    for i, (s, e) in enumerate(segs):
        if e <= start or s >= max(end, start + 1) or not _SET_ASIDE.search(text[s:e]):
            continue
        if _one_answer_in(text[s:e]):
            return True
        for j in (i - 1, i + 1):
            if 0 <= j < len(segs) and _bare_scope(text[segs[j][0] : segs[j][1]]):
                return True
    return False


#: A retraction that names what it takes back ("之前跟你说的我不吃辣那条删了吧", "刚才讲的
#: 住北京那个不算"): what it names is not said again, it is taken back.
NAMED_RETRACT_ZH = re.compile(
    r"(?:跟你|和你|给你)?(?:说|讲|提)(?:过)?的[^，,。]{1,16}?(?:那条|这条|那句|这句|那个|这个|那件事|的事)"
    r"(?:信息|消息|话)?[^，,。]{0,2}?(?:删|不算|作废|别记|不要记|撤回|忘了|忘掉|取消)"
    # the earlier words pointed at by when, then called a slip: "刚才说我住广州是打错了",
    # "前面说我养猫那句不算", "之前讲我对芒果过敏是开玩笑的"
    r"|(?:刚才|刚刚|前面|之前|上面|上一条)(?:跟你|和你|给你)?(?:说|讲|提|打|写)(?:过)?的?(?:我|俺)"
    r"[^，,。]{1,16}?(?:那条|这条|那句|这句|那个|这个)?(?:信息|消息|话)?[^，,。]{0,2}?"
    r"(?:删|不算|作废|别记|不要记|撤回|忘了|忘掉|取消|(?:是)?(?:打错|说错|写错|开玩笑|逗你|骗你"
    r"|瞎说|乱说|瞎编|假的|手滑))"
)
#: "actually", "I meant", "不对", "其实", "我说错了", ", not X".
CORRECTION_RE = re.compile(
    r"\bactually\b|\bcorrection\b|\bi\s+meant\b|\bi\s+mean\b|\bi\s+got\s+it\s+wrong\b"
    r"|\bi\s+was\s+wrong\b|\bmy\s+mistake\b|\bsorry,?\s+i\s+mis|\bto\s+correct\b|\brather\b"
    r"|[,;]\s*not\s+\w|不对|其实|我说错了|说错了|更正|纠正|应该是|[，,]\s*(?:而)?不是\S",
    _I,
)
#: "what if I moved", "suppose", "如果我", "假如".
HYPOTHETICAL_RE = re.compile(
    r"\bwhat\s+if\b|\bsuppose\b|\bsupposing\b|\bimagine\b|\bhypothetically\b"
    # "in a parallel universe where I own a horse", "in another life I'd be a chef"
    r"|\bin\s+(?:(?:a|an|some|my)\s+)?(?:parallel|alternate|alternative|another|next|dream)\s+"
    r"(?:universe|world|life|reality|timeline)\b"
    r"|\bif\s+i\s+(?:were|was|had|moved|lived|got|became|ever)\b|\bi\s+wish\b"
    # a subjunctive "were" of the user's things: "if my budget were 5k what would you pick"
    r"|\bif\s+(?:my|our)\s+[a-z]+(?:\s+[a-z]+)?\s+were\b"
    # "in theory", and a past-tense condition with "would" after it: "if I retired at 55
    # would I have enough"
    # "say I went keto for a month, what would happen": a supposition without "if"
    r"|^\W*(?:let'?s\s+)?say\s+(?:i|i'm|we|my)\b|\bwhat\s+would\s+happen\b"
    r"|\bin\s+theory\b|\btheoretically\b|\bif\s+i\s+[a-z]+ed\b[^.?!]{0,60}?\bwould\s+(?:i|it|that|we|there)\b"
    # "if I went vegetarian where would my protein come from": an irregular past too
    r"|\bif\s+i\s+(?:went|became|took|gave|quit|did|made|got|left|ate|drank)\b[^.?!]{0,60}?\bwould\b"
    r"|如果|假如|(?<!主)(?<!只)(?<!需)(?<!重)要是|假设|万一[^，,。]{0,4}?我|倘若|假使|假若|若是|如若|设想"
    # a concession about the user or a later day ("就算我吃素也…", "哪怕以后搬到国外…",
    # "即使有一天我不能吃辣") and the listener's place ("换做是我", "要是换成我"); a concession
    # of degree stays ("就算再贵我也只坐商务舱")
    r"|(?:就算|即使|即便|哪怕|纵使|纵然)(?:是)?(?:我|以后|将来|哪天|有一天|某天|搬|去了?|变成|成了|当了|到了)"
    r"|换(?:做|作|成)(?:是)?我|换我(?:的话|来说|来选)",
    _I,
)
#: An open possibility, not a plan or a fact: "I may or may not take the job", "或许我会搬去
#: 成都，看情况", "说不定以后我会去学日语".
MODAL_RE = re.compile(
    r"\bmay\s+or\s+may\s+not\b|\bwho\s+knows\b|\bnot\s+sure\s+yet\b|\bhaven't\s+decided\b"
    r"|\bundecided\b|\blook(?:ing)?\s+into\b|\b(?:half[\s-]+)?tempted\s+to\b|\bon\s+the\s+fence\b"
    r"|\bdebating\s+(?:whether|if)\b|\bsomeday\b|\bsome\s+day\b|\bat\s+some\s+point\b"
    r"|或许|也许|说不定|看情况|还没想好|(?<![不])可能(?:会|要)|估计(?:会|要)|(?:以后|将来|哪天)(?:有钱|发财|退休)了"
    r"|^\W*(?:以后|回头|改天|到时候|过阵子)再说|还不确定|不一定|没准|说不准|说不好|不好说|还没(?:决定|定|拿定主意)|没想好"
    r"|在考虑要不要|考虑一下要不要|在想要不要|想试试|想尝试|有机会(?:的话)?(?:再|就|想|会|去)?"
    # a wish: "好想当个自由职业者啊", "真想搬到海边住", "希望有一天能养只柯基"
    r"|(?:好|真|特别|超|多么?)想(?:要)?(?:当|做|成为|去|搬|住|养|学|有|换)|希望(?:有一天|将来|哪天|有朝一日)"
    # "等有钱了我想…", "等退休以后…": a wish hung on a later day; "打算过段时间试试生酮，
    # 还没开始": something to try, not yet a fact
    r"|^\W*等(?:到|我)?[^，,。]{1,10}?(?:了|以后|之后|的时候|我(?:想|要|就|再))"
    r"|(?:打算|准备|计划|想|要)[^，,。]{0,8}试(?:试|一试|一下)|还没(?:开始|开始呢)"
    # a hedged self-diagnosis: "I think I might be gluten intolerant", "maybe I'm lactose
    # intolerant, not sure", "我觉得我可能对花生过敏"
    r"|\bi\s+(?:might|may|could)\s+be\b|^\W*maybe\s+i(?:'m|\s+am|\s+have)\b|\bnot\s+sure\W*$"
    r"|我(?:觉得|怀疑|猜)?(?:我)?(?:可能|好像|大概|似乎)(?:对|有|是)"
    # fiction and role-play: "for my essay, I'm pretending to be a farmer", "the character I
    # play is a doctor", "我梦见我是飞行员", "我在游戏里扮演医生"
    r"|\bpretend(?:ing)?\s+to\s+be\b|\bthe\s+character\s+i\s+play\b|\bmy\s+character\s+is\b"
    r"|\brole-?playing\s+as\b|\bi\s+dreamt\b|\bi\s+dreamed\s+(?:that\s+)?i\b|假装(?:我)?是|扮演|梦见|梦到"
    # "就当我是个学生，给我讲讲…", "把我当成新手": a part the user takes for one answer
    r"|^\W*(?:你)?就?当我是|把我当(?:成|作)"
    # a character the user plays or writes: "游戏里我的角色是个法师", "我的人设是…", "剧本杀里我演…"
    r"|(?:游戏|剧本杀|剧本|小说|故事|戏|剧)(?:里|中)(?:面)?的?我的?(?:角色|人设|演|扮|是)|我的?(?:角色|人设)(?:设定)?是"
    r"|我的?(?:小说|故事|剧本|书|游戏|剧)(?:里|中)?的?(?:主角|主人公|女主|男主|反派|人物)",
    _I,
)
#: The present moment ("right now", "this morning", "as we speak", "今天", "这会儿"): a
#: state said with it is passing, not a durable fact about the user.
#: A course of treatment, taken for now: "I'm on antibiotics for a week", "... for this chest
#: infection" (what is taken is no standing medication).
COURSE = (
    r"\bi'?m\s+on\s+[a-z]+\s+for\s+(?:a|one|two|three|four|five|seven|ten|\d+)\s+(?:more\s+)?"
    r"(?:days?|weeks?)\b|\bfor\s+(?:this|my)\s+(?:\w+\s+)?(?:infection|cold|flu|cough|bug|sprain)\b"
)
COURSE_RE = re.compile(COURSE, re.IGNORECASE)
TRANSIENT_RE = re.compile(
    r"\b(?:right\s+now|at\s+the\s+moment|as\s+we\s+speak|this\s+(?:morning|afternoon|evening)"
    r"|today|tonight)\b|今天|今晚|这会儿|此刻|眼下"
    # a stay of days: "I'm at my parents' place for the weekend", "staying with a friend this week"
    r"|\bi'?m\s+(?:at|staying\s+(?:at|with)|visiting)\s+[^,.;!?]{2,40}?\s+(?:for|over|this)\s+(?:the\s+|a\s+)?"
    r"(?:weekend|week|holidays?|night|few\s+days|couple\s+of\s+days)\b"
    # a course of treatment: "I'm on antibiotics for a week", "... for this chest infection"
    r"|" + COURSE + r""
    # a bodily or passing state needs no time word: "I'm craving sushi", "I'm freezing",
    # "我好困", "饿死了"
    r"|\bi'?m\s+(?:so\s+|really\s+|kinda\s+|super\s+|literally\s+|just\s+)?(?:craving|starving"
    r"|freezing|hungry|thirsty|sleepy|exhausted|bored|sweating|knackered|hungover)\b"
    r"|我(?:好|很|有点|快|太)(?:饿|困|累|冷|热|渴|撑|无聊)|(?:饿|困|累|冷|热|渴)死了"
    # a meal or an errand earlier today: "我早上吃了个包子", "昨晚喝了两杯"
    r"|(?:早上|早晨|中午|下午|晚上|昨天|昨晚|刚才|刚刚|前天)[^，,。]{0,3}(?:吃|喝|买|去|看)了"
    # a passing illness: "我有点感冒", "我发烧了", "我牙疼"
    r"|我(?:有点|有些|又)?(?:感冒|发烧|咳嗽|头疼|头痛|嗓子疼|牙疼|胃疼|肚子疼|不舒服)了?(?=$|[，,。.!！])",
    _I,
)
#: A one-off task: an imperative for one thing ("book me a window seat to Rome", "find me
#: a vegan restaurant", "帮我订个靠窗的座位"), not a standing preference ("book me economy",
#: "给我订靠过道的座位").
TASK_RE = re.compile(
    r"^\W*(?:(?:can|could|would|will)\s+you\s+|please\s+)?(?:book|reserve|get|find|order|buy"
    r"|grab|pick)\s+(?:me|us)\s+(?:a|an|one|the|some|two|three)\b"
    # an amount converted: "convert 30 degrees celsius to fahrenheit", "convert this recipe
    # into grams" (the scale named is this answer's; "convert everything to PHP" stands)
    r"|^\W*(?:(?:can|could|would|will)\s+you\s+|please\s+)?convert\s+(?:\d|(?:this|that|these"
    r"|those)\b)[^.!?]{0,40}?\s+(?:to|into)\s+\w"
    # ("能不能给我开个字幕": one caption now; "以后给我开字幕" stands)
    r"|^\W*(?:请|麻烦)?(?:你)?(?:能不能|可不可以|能|可以)?(?:帮|给|替)我(?:订|预订|预定|买|点|找|查|约|搜|选|算|换算|推荐|挑|列|写|安排|起草|拟|编|做|画|开)"
    r"(?:一)?(?:个|张|份|间|下|封|篇|段|首|几个|几款|几家|几本|几部|几条|几句|一些|些)"
    # the same with the manner said first: "用正式一点的语气帮我写封辞职信", "用英文帮我回封邮件"
    r"|^\W*(?:请|麻烦)?(?:你)?(?:用|以)[^，,。]{1,14}?(?:帮|给|替)我(?:写|回复?|拟|起草|编|改|翻译?|做|画|列|整理|总结)"
    r"(?:一下)?(?:这|那)?(?:一)?(?:个|张|份|封|篇|段|首|条|句)"
    # one thing made to order: "讲个冷笑话，短一点", "写首诗，要押韵" ("说个事，…" opens a fact)
    r"|^\W*(?:请|麻烦)?(?:你)?(?:再)?(?:讲|说|写|编|来|画|举)(?:一)?(?:个|首|段|篇|份|张)(?!事)"
    # a doubled verb is a one-off too: "帮我查查这周末哪家酒店便宜", "给我挑挑"
    r"|^\W*(?:请|麻烦)?(?:你)?(?:帮|给|替)我(?:查查|找找|挑挑|搜搜|算算|选选|看看(?=[^，,。]{0,12}(?:哪|什么|有没有|附近)))"
    # a text pointed at first, then asked for: "这封邮件帮我用正式一点的语气写", "这段帮我改成英文"
    r"|^\W*(?:这|那)(?:一)?(?:个|封|段|篇|份|条|句|张|首|页|几句|几段|几条|些)[^，,。]{0,8}?(?:帮|给|替)我"
    # this question only: "这个问题回答短一点就行", "这道题用表格讲"
    r"|^\W*这(?:个|道)?(?:问题|题)"
    # "今天这个回答用英文写吧", "这次的回复短一点": this answer, not every answer
    r"|^\W*(?:今天|这次|这回|本次)?(?:的)?这(?:一)?(?:个|条|次|篇|回)?(?:的)?(?:回答|回复|答案)"
    # this answer only: "for this answer use bullet points", "reply in French for this one
    # only", "just for this reply" (not "for this chat / session": a scope, read elsewhere)
    r"|\bfor\s+this\s+(?:one|answer|reply|response|question|message|email|text|post|request|task"
    r"|draft|letter|summary)\b|\b(?:this|that)\s+(?:one|answer|reply|response)\s+only\b",
    _I,
)
#: "again" after a refusal ("I won't fly Spirit again", "never book that hotel again") is
#: a standing rule, not the behavioural cue of :data:`IMPLICIT_CUE_RE`.
REFUSED_AGAIN_RE = re.compile(
    r"\b(?:never|won't|wont|will\s+not|not)\s+(?:[\w'-]+\s+){0,6}?again\b", re.IGNORECASE
)
#: Behavioural, one-off cues: "again", "this time", "like last time", "这次", "还是"
#: (not "我还是个学生": "still am a ...", a declaration).
IMPLICIT_CUE_RE = re.compile(
    r"\bagain\b|\bthis\s+time\b|\blast\s+time\b|\bas\s+usual\b|\blike\s+before\b"
    r"|这次|(?:跟|和|像|同|照|按照?)上次|上次(?:那样|一样|那种|那个|那家|的那|订的|选的|坐的|住的)|(?<!我)(?<!的)(?<!有事)(?<!以后)(?<!平时)(?<!你们)还是(?!个|一个|一名|一位|可以|能)|照旧|老样子|跟之前一样"
    # "我还是喜欢表格" chooses again; "我还是学生" / "我还是单身" is a declaration ("still");
    # "有事还是发短信给我吧" states the standing way, "急事还是可以打的" what is still allowed
    r"|我还是(?=喜欢|用|要|选|想|习惯|坐|订|偏好|倾向|觉得)"
    # asking this answer again, or for this text: "再详细点", "用英文再说一遍", "这段用表格整理一下"
    r"|^\W*再(?=详细|简单|简短|具体|短|长|说|讲|解释|写|来)|再(?:说|讲|写|来|解释)一(?:遍|次|下)"
    r"|^\W*(?:这段|这篇|这些|这几条|上面的?|刚才的?)[^，,。]{0,10}(?:一下|成)"
    # this order or this text only: "这单先用支付宝结账", "先用现金付", "把这些数据整理一下",
    # "这封邮件用正式一点的语气改一下" (three such requests make the preference)
    r"|^\W*(?:这单|这笔(?:单|账|钱)?)|先用[^，,。]{1,8}(?:付|结|支付|买单)"
    # this payment, these items: "帮我用支付宝付一下", "用表格给我列一下这几款手机"
    r"|用[^，,。]{1,8}(?:付|结|支付|买单)一下|(?:列|整理|总结|对比|比较|讲|说|写|解释|排)一下(?:这|那)"
    r"|(?:把|将)(?:这|那)(?:些|个|段|篇|份|封|条|句|张)[^，,。]{0,14}(?:一下|成)"
    # a text made in a manner for one occasion: "明天的会议帮我用英文准备一下发言稿"
    r"|(?:帮|给|替)我用[^，,。]{1,8}(?:写|准备|回|翻译?|做|改|整理|列|画|起草)(?:一下|一份|一封|一篇|个|份|封|篇)"
    # a thing pointed at and worked on once: "这封邮件用英文回一下", "把上面的内容整理成表格",
    # "给这个视频加一下字幕" (not a stretch of time: "这些年我养成了…")
    # (a bare "这个…" opening the turn is the thing asked about again: "这个也用表格列一下")
    r"|(?:(?:把|将|给|帮我把?)(?:这|那|上面的?|下面的?|刚才的?)(?:一)?(?:封|个|段|篇|份|条|句|张|首|部|幅|页|些)?"
    r"|^\W*(?:这|那)(?:一)?(?:封|段|篇|份|条|句|张|首|部|幅|页)|^\W*(?:上面|下面|刚才)的?)"
    r"(?!年|天|些年|几年|阵子|段时间|时候)[^，,。]{0,14}?(?:改|写|翻|译|整理|总结|回|回复|转|换|做|列|排|加|弄"
    r"|变|缩|扩|画|润色|修改|调|发|配)(?:一下|成(?=[\u4e00-\u9fffA-Za-z]))"
    r"|^\W*(?:这|那)(?:些|段|篇|份|封|条|句|张)[^，,。]{0,16}(?:一下|成[\u4e00-\u9fff]{1,4})\W*$"
    # one purchase and how it was paid: "今天用支付宝买了杯咖啡" is a signal, not a standing way
    r"|(?:今天|昨天|刚才|刚刚|早上|中午|晚上|上午|下午)[^，,。]{0,6}用[^，,。]{1,8}(?:买|付|支付|结|交)了",
    _I,
)
_QUESTION_START_RE = re.compile(
    # a yes/no question after a filler: "so is oat milk ok for ...", "ok can a nurse ..."
    r"^\W*(?:(?:so|and|but|also|ok|okay|well|oh|btw|wait|hmm|um|quick\s+question)\W+)+"
    r"(?:is|are|was|were|does|can|could|should|would|will|did)\s+(?!(?:i|we)\W*$)\w"
    r"|^\s*(?:am(?!\s*/\s*pm)|do(?!\s+not\b|\s+never\b|n't\b)|did|does|is|are|was|were|have|has|what|what's"
    r"|whats|where|which|who|when|how|why|(?:should|shall)(?=\s+(?:i|we)\b))\b",
    _I,
)
_REQUEST_RE = re.compile(
    r"^\s*(?:please\s+)?(?:can|could|would|will)\s+you\b|^\s*(?:can|could)\s+i\b|\bplease\b"
    r"|[,，]\s*(?:can|could|would|will)\s+you\b|[,，]\s*(?:ok|okay|alright|yeah|k|pls|please)\s*\?+\s*$"
    r"|能不能|可不可以|(?<!我)可以.{0,12}吗|能.{0,6}(?:点|一点|一下)吗|帮我|麻烦|请(?!问)",
    _I,
)
#: A Chinese question: a final particle, an A-not-A form, or a question word near the end
#: ("对花生过敏的人能吃什么零食", "去哪里玩比较好"); "什么都吃" / "哪儿都行" are statements.
_ZH_QUESTION_RE = re.compile(
    r"吗\s*$|么\s*$|(?<!着)(?<!睡觉)(?<!上班)(?<!在忙)呢\s*$|是不是|有没有|是否|对吗|(?<!不)对不对(?!不对)"
    # more A-not-A verbs: "我这种情况算不算乳糖不耐受", "我这样属不属于过敏"
    r"|算不算|属不属于|能不能算|会不会是|可不可能"
    # "我没什么文化" / "没啥爱好" have none; they ask nothing
    r"|(?<!没)(?<!没有)(?:什么|哪些|哪个|哪里|哪儿|多少|为什么|怎么办|怎么样|如何|啥|咋|谁|哪(?!怕))(?![都也的])"
    r"[\u4e00-\u9fff]{0,4}\W*$"
    # "请问…", and rhetorical "谁说我不吃辣了" / "难道我不是…"
    r"|^\W*(?:请问|谁说|难道)"
    # "怎么用支付宝交电费呀", "为啥我老是失眠": a how/why question that opens the sentence
    r"|^\W*(?:怎么|怎样|如何|为什么|为啥|咋)(?![都也样的说])|(?<![不没])怎么(?![都也办样])[\u4e00-\u9fff]{1,3}[呀啊呢]?\W*$"
    # A-not-A cut short at the end ("头孢能用不", "这体质适合吃素不"; "我也不" / "都不" deny)
    r"|(?<=[\u4e00-\u9fff])(?<![也都并从绝决还再可别来])不[呀啊]?\W*$"
    # rhetorical: "我是有多闲才会看这个"
    r"|有多[\u4e00-\u9fff]{1,3}才"
    # A-not-A with an advice verb, asked without 吗: "要不要改成用微信支付", "我该不该搬去深圳",
    # "你说我适不适合当老师" (a request, "能不能用英文回复我", is read before this)
    r"|(?:要不要|该不该|能不能|会不会|用不用|去不去|换不换|搬不搬|买不买|适不适合|需不需要|值不值得)"
    # any A-not-A asked of the user's own doing, as an adjective or a verb:
    # "我住朝阳区去机场远不远", "我吃素的话蛋白质够不够", "这样划算不划算" ("我吃不吃都行" says
    # it does not matter; a tag on a request, "以后用英文回复我好不好", is read by the next row)
    r"|(?P<ab>[\u4e00-\u9fff]{2})不(?P=ab)|(?P<a>[^\W\d_好行对])不(?P=a)(?![^，,。]{0,4}(?:都|也|无所谓|随便|没关系))"
    r"|^\W*我[^，,。]{0,16}?(?:好不好|行不行)\W*$"
    # rhetorical "who still…": "这年头谁还用现金啊", "现在谁还坐绿皮车"
    r"|谁还(?=[\u4e00-\u9fff])"
    # rhetorical "how could I…": "我怎么可能对猫过敏", "我哪会说日语" (it denies, states nothing)
    r"|(?:^|[，,])\W*我?(?:怎么|哪里?|哪儿)(?:可能|会)(?=[\u4e00-\u9fff])"
    # "华氏度怎么换算成摄氏度啊", "这个表格怎么改成英文的呀": 怎么 mid-sentence, closed by a
    # particle ("我怎么吃都不胖啊" and "不知道怎么…" are read elsewhere)
    r"|(?<![不没])(?<!知道)怎么(?![样办])[^，,。都也]{2,14}?(?:啊|呀|呢|哇)\W*$"
)
#: 到底 presses a question: "生酮饮食到底能不能吃水果", "这药到底饭前吃还是饭后吃" ("坚持到底",
#: "我到底还是选了…" ask nothing).
_PRESSED_Q_ZH = re.compile(
    r"到底(?:能不能|可不可以|要不要|是不是|会不会|有没有|该不该|行不行|算不算|怎么|为什么|为啥"
    r"|是什么|什么|哪|多少|啥|咋|是[^，,。]{1,10}还是)"
)
_ZH_SELF_RE = re.compile(r"^\s*我")
SCOPE_DEVICE_RE = re.compile(
    r"\bon\s+this\s+(?:device|phone|computer|laptop|tablet|machine|ipad|mac)\b"
    r"|这台(?:设备|手机|电脑|机器)|这个(?:手机|设备)上|本机上",
    _I,
)
#: "这次" / "这回" ("this time") are behavioural cues (``IMPLICIT_CUE_RE``), not a scope, as
#: in English: three "这次给我发短信吧" in three sessions are the consensus of an implicit
#: preference, which a session scope per signal would never reach.
SCOPE_SESSION_RE = re.compile(
    r"\bfor\s+(?:this|the\s+current)\s+(?:session|conversation|chat)\b|\bjust\s+for\s+(?:today|now)\b"
    r"|\bfor\s+now\b|\bthis\s+session\b|\bjust\s+this\s+once\b|今天先|本次|就这一次|只这一次",
    _I,
)
THIRD_PARTY_RE = re.compile(
    r"^\W*(?:(?:and|but|also|oh|well|so)\s+)*(?:(?:my|our)\s+(?:best\s+)?(?!(?:friends|mates|pals|buddies|lads|family)\s+(?:all\s+)?(?:have\s+|'ve\s+)?(?:always\s+|usually\s+|just\s+)?(?:call|called)\s+me\b)(?:friends?|colleagues?|co-?workers?"
    r"|boss|neighbou?rs?|roommates?|classmates?|wife|husband|partner|sons?|daughters?|kids?|child"
    r"|children|mom|mum|mother|dad|father|brothers?|sisters?|girlfriend|boyfriend|cousins?|aunt"
    r"|uncle|grandma|grandpa|grandmother|grandfather|parents?|clients?|customers?|team|nan|nana|gran"
    r"|granny|grandad|flatmates?|housemates?|fianc[eé]e?|in-laws|step-?(?:mum|mom|dad|son|daughter|kids?)"
    r"|gf|bf|hubby|bestie|bff|sis|bro|ex|spouse|mates?|pals?|buddy|buddies|workmates?|lads"
    r"|nieces?|nephews?|grand(?:son|daughter|kids?|children)s?|teen(?:ager)?s?|toddlers?|twins"
    r"|therapists?|dentists?|vets?|trainers?|coach|tutors?|teachers?|landlords?|landlady|manager"
    r"|supervisor|accountant|lawyer|hairdresser|barber|mechanic|nanny|babysitter|students?"
    r"|employees?|staff|tenants?|guests?)"
    # "my mother tongue", "my family name", "my parents' language": the user's own
    r"(?!\s+(?:tongue|language|name|doctor|gp)\b)"
    r"|he(?!\s*/)|she(?!\s*/)|they(?!\s*/)|his|her|their|someone|somebody"
    r"|the\s+(?:kids|people|family|couple|guy|girl|woman|man|lady|neighbou?rs?)\s+(?:next\s+door|upstairs"
    r"|downstairs|across\s+the\s+(?:street|hall|road)|down\s+the\s+(?:street|road))|the\s+neighbou?rs?"
    r"|(?:people|everyone|everybody|friends)(?!\s+calls?\s+me\b))\b"
    # (after 是 too, as a correction names who it is: "是我儿子过敏，不是我")
    r"|^\W*(?:(?:就|其实|原来)?是)?(?:我的?|我们的?|咱们的?)?(?:那个|这个|那位|这位)?(?:好)?(?:朋友|同事|老板|经理|主管|上司|总监|邻居|室友|同学|老婆|妻子|太太|老公|丈夫|先生(?![日病])|儿子|女儿|孩子"
    r"|妈妈?|爸爸?|母亲|父亲|哥哥?|姐姐?|弟弟?|妹妹?|男朋友|女朋友|客户|表[哥姐弟妹]|堂[哥姐弟妹]"
    # more kin and friends: "我闺蜜，在杭州做护士", "我婆婆那边…", "我发小他…"
    r"|闺蜜|发小|哥们儿?|姐们儿?|婆婆|公公|岳母|岳父|丈母娘|老丈人|舅舅|舅妈|姑姑|姑妈|姨妈|小姨|叔叔"
    r"|伯伯|侄子|侄女|外甥女?|爷爷|奶奶|外公|外婆|姥姥|姥爷|前任|前男友|前女友|媳妇儿?"
    # peers at school and work: "我同桌花粉过敏", "我舍友…", "我师兄…", "我队友…"
    r"|同桌|舍友|学长|学姐|学弟|学妹|师兄|师姐|师弟|师妹|队友|搭档|徒弟|师父|租客"
    # a partner in chat slang: "我男票是四川人", "我女友…"
    r"|男票|女票|男友|女友)"
    r"(?!们?(?:都|一般|平时)?(?:叫|喊|称呼|管)我)"
    # the one it is about, named in a correction: "是同事要双床", "其实是我妹喜欢猫"
    r"|^\W*(?:(?:等下|等等|哦|啊)?\W*(?:不对|我?说错了|我?说反了|搞反了)\W*)?(?:其实)?(?:是|就是)(?:我的?)?(?:朋友|同事|老板|邻居|室友|同学|舍友|同桌|老婆|老公|儿子|女儿|孩子"
    r"|妈妈?|爸爸?|哥哥?|姐姐?|弟弟?|妹妹?|男朋友|女朋友|客户|闺蜜)(?:们)?(?:也|都)?(?:要|想|喜欢|爱|对|不吃|不喝"
    r"|不能|有|在|住|是|用|说|嫌|讨厌|怕)"
    # the same in English words in a Chinese sentence: "我 boss 是 pescatarian", "我 bf 对虾过敏"
    r"|^\W*(?:我的?|我们)\s*(?:boss|bf|gf|bff|bestie|roommate|flatmate|colleague|manager|mom|mum|dad"
    r"|husband|wife|partner|hubby|sis|bro|ex|crush|cousin|client|teacher|coach|tutor)\b"
    # a peer named by where they are from: "美国同事总是用华氏度", "日本客户…", "北京的朋友…"
    r"|^\W*(?:"
    + "|".join((*L.ZH_PEOPLE_PLACES, *L.ZH_CITY_NAMES))
    + r"|外国|国外|老外)的?(?:同事|朋友|客户|同学|网友|室友|舍友|邻居|老板|领导|亲戚|老师)"
    r"(?!圈|们?(?:都|一般|平时)?(?:叫|喊|称呼|管)我)"
    # ("大家都管我叫阿杰", "他们老喊我小雨": the name the user goes by)
    r"|^\W*(?:他们|她们|别人|大家(?![好早]))(?!(?:都|也|总|老|一直|经常|总是|老是)?(?:叫|喊|称呼|管)我)"
    r"|^\W*(?:他(?![汀们])|她(?!们)|有人)(?!都?(?:叫|喊|称呼)我)"
    # a person named by role, in formal or Taiwanese usage, or a character in a text:
    # "患者自述对青霉素过敏", "阿嬷对海鲜过敏", "本文作者对花生过敏", "小说主人公叫李寻欢"
    r"|^\W*(?:该|此|这位|那位)?(?:患者|病人|客户|顾客|用户|作者|本文作者|主人公|主角|对方|此人|某人|阿嬷|阿嬤|阿公"
    r"|阿婆|阿伯|嫲嫲|婆婆|公公)(?!都?(?:叫|喊|称呼)我)"
    r"|^\W*(?:本文|文章|小说|电影|书里|剧里|故事里|歌里)"
    # a neighbour named by where they live: "隔壁王阿姨养了两只猫", "楼上那家…", "对门大爷…"
    r"|^\W*(?:隔壁|楼上|楼下|对门|对面|邻居家?)(?!的?我)"
    # kin and partners named without "我": "老妈最近迷上了广场舞", "闺蜜是空姐", "前任是四川人"
    r"|^\W*(?:老妈|老爸|咱妈|咱爸|老公|老婆|媳妇儿?|对象|闺蜜|发小|小姨|舅妈|姨妈|姑妈|婶婶|岳母|岳父|公婆"
    r"|前任|男票|女票|男友|女友)(?!们?(?:都|一般|平时)?(?:叫|喊|称呼|管)我)"
    # a person described before the noun: "公司新来的实习生对芒果过敏", "隔壁的阿姨…"
    r"|^\W*[^\W我俺]{0,8}?的(?:实习生|同事|同学|孩子|小孩|员工|领导|邻居|朋友|客户|阿姨|大爷|大妈|老人"
    r"|女生|男生|姑娘|小伙子?|家伙|人|"
    + "|".join(L.ZH_JOB_SUFFIXES)
    + r")(?!们?(?:都|一般|平时)?(?:叫|喊|称呼|管)我)"
    # someone else's contact or date given by the user: "这是我朋友的邮箱：…", "我同事的生日是…"
    r"|我(?:的)?(?:好)?(?:朋友|同事|老板|邻居|室友|同学|老婆|妻子|太太|老公|丈夫|儿子|女儿|孩子|妈妈?|爸爸?"
    r"|母亲|父亲|哥哥?|姐姐?|弟弟?|妹妹?|男朋友|女朋友|客户|领导|闺女|孙子|孙女)的(?:邮箱|电话|手机|生日|名字|地址"
    r"|微信|电子邮件)"
    # "我家老头子对青霉素过敏", "俺老伴不吃辣", "是我妹对虾过敏", "我们家闺女…"
    r"|^\W*(?:是|就是)?(?:我|我们)(?:家|家里|家的)?的?(?:老头子|老头儿|老伴儿?|老太婆|老婆子|老爷子|老太太|孙子|孙女"
    r"|外孙女?|闺女|媳妇儿?|儿媳妇?|女婿|对象|爱人|阿爸|阿妈|老豆|老妈|老爸|家姐|细佬|老细|领导|上司|公公|婆婆"
    r"|岳父|岳母|丈母娘|姥姥|姥爷|奶奶|爷爷|外婆|外公|舅舅|姑姑|叔叔|阿姨|伯伯|爸妈|父母|亲戚"
    r"|表[哥姐弟妹]|堂[哥姐弟妹]|侄子|侄女|外甥女?|妹|姐|哥|弟|娃|小孩|宝宝"
    r"|老师|班主任|师傅|教练|房东)"
    r"(?!们?(?:都|一般|平时)?(?:叫|喊|称呼|管)我)(?!走了|去世|过世|不在了)"
    # someone introduced as one the user has: "我有个客户只用PayPal", "我身边有个同事对猫过敏"
    r"|^\W*(?:我|俺)(?:这边|身边|公司)?(?:有|认识)(?:个|一个|位|一位|些|几个|好几个|两个)(?:好)?(?:朋友|同事|客户|同学|邻居"
    r"|亲戚|表[哥姐弟妹]|堂[哥姐弟妹]|学生|病人|患者|网友|老乡|室友|舍友|哥们儿?|姐们儿?|闺蜜|发小|熟人|员工|下属"
    r"|领导|老师|顾客|租客|房东)"
    # someone says that he or she…: "小红说她对花生过敏"
    r"|说(?:他|她)(?:们)?(?:也|都|还)?(?:对|不|是|有|叫|住|在|喜欢|爱|讨厌|每天|一直)"
    r"|^\W*(?:请)?(?:帮|给|替)我的?(?:好)?(?:朋友|同事|老板|邻居|室友|同学|老婆|妻子|太太|老公|丈夫"
    r"|儿子|女儿|孩子|妈妈?|爸爸?|母亲|父亲|哥哥?|姐姐?|弟弟?|妹妹?|男朋友|女朋友|客户)"
    # someone else's household: "我闺蜜家的猫叫年糕", "我姐家狗子…", "我同事家孩子…"
    r"|^\W*(?:我的?)?(?:好)?(?:朋友|同事|老板|邻居|室友|同学|闺蜜|发小|哥们儿?|姐们儿?|表[哥姐弟妹]|堂[哥姐弟妹]"
    r"|哥哥?|姐姐?|弟弟?|妹妹?|舅舅|姑姑|姨妈?|叔叔|阿姨|领导|老师)(?:家|家里)的?"
    # a rule of one's workplace or school: "我们公司规定周末不能打电话", "学校要求…"
    r"|^\W*(?:我们|咱们|我)?(?:的)?(?:公司|单位|学校|部门|小区|医院|物业|领导|老板)(?:里|的)?"
    r"(?:规定|要求|不让|不允许|禁止|明文规定)"
    # one of "our" group or unit: "我们组的新人…", "我们公司有个同事…", "咱们部门那个大姐…"
    r"|^\W*(?:我们|咱们|我)(?:组|部门|公司|单位|班|宿舍|团队|科室|小区|楼|办公室|群|项目组)(?:里|上)?"
    r"(?:的|有个|有位|那个|那位|新来的)(?:新人|新来的|同事|领导|老板|经理|主管|实习生|小伙子?|姑娘|姐们儿?"
    r"|哥们儿?|大姐|大哥|阿姨|大爷|人|那个|那位|一个|一位|个|(?:小|老|阿)[\u4e00-\u9fff])"
    # someone pointed at: "隔壁工位那姐们儿乳糖不耐受", "楼下那大爷…", "这哥们…"
    r"|^\W*[^\W我俺]{0,6}?(?:那|这)(?:个|位)?(?:姐们儿?|哥们儿?|大姐|大哥|老哥|老姐|小哥|小姐姐|小哥哥|大爷|大妈"
    r"|大叔|大婶|小伙子?|姑娘|家伙|老头儿?|老太太)",
    _I,
)
# clause-only markers that belong to the next clause ("remember, ...", "记住，...")
MARKER_ONLY_RE = re.compile(
    r"^\W*(?:please\s+)?(?:remember|note|please\s+note|from\s+now\s+on|going\s+forward"
    r"|in\s+(?:the\s+)?future|actually|sorry|correction|by\s+the\s+way|btw|also|oh|well|ok|okay"
    r"|i\s+got\s+it\s+wrong|i\s+was\s+wrong|my\s+mistake|no|yes|so|and|hi|hello|hey"
    r"|记住|请记住|请记下|以后|从现在开始|今后|其实|不对|对了|另外|还有|哦|嗯|好的|我说错了|抱歉|不好意思)"
    r"\W*$",
    _I,
)
# "11 p.m. and 6 a.m." / "St. Mary's" / "e.g. sushi": an abbreviation's dot ends no sentence
_SENT_END_RE = re.compile(
    r"[。！？!?；;\n]++|(?<![aApP]\.[mM])(?<!\b[eE]\.[gG])(?<!\b[iI]\.[eE])"
    r"(?<!\b(?:St|Dr|Mr|Ms|vs|Rs))(?<!\bMrs)(?<!\.[A-Za-z])\.++(?=\s|$)"
)
#: The verb of a pastime said after another taste or pastime ("... and do pottery", "... and
#: play the guitar", "... and go climbing").
PASTIME_VERB = r"(?:do|play|practi[cs]e|watch|go(?=\s+[a-z]+ing\b))"  # not "and go" (the game)
# a comma or colon between two digits ("15,000", "9:30") is part of a number, not a clause break
# "and I ..." / "but my ..." starts a new clause: "My name is Ada and I live in Berlin"
# states two things, each matched on its own
# nor is the comma of a date ("July 4th, 1988")
_CLAUSE_SEP_RE = re.compile(
    r"(?!(?:(?<=\d)|(?<=\d(?:st|nd|rd|th)))[,，]\s*(?:19|20)\d\d\b)"
    r"(?:(?<!\d)[,，:：]++|[,，:：]+(?!\d))|(?<!\s)(?<!\d)\s++-{1,2}\s++|(?<=\d)\s++-{1,2}\s++(?!\d)|——"
    r"|(?i:(?<!\s)\s++(?:and|but)\s++(?=(?:i|i'm|i've|i'd|i'll|my|we've|we're|we\s+have)\b))"
    # "I have asthma and take montelukast", "vegan and allergic to soy": a second predicate
    # whose subject is the first one's (not "I live and work in ...": no verb before "and")
    r"|(?i:(?<!\s)(?<!\blive)(?<!\bwork)(?<!\bspeak)(?<!\bread)(?<!\bwrite)(?<!\bbuy)"
    r"\s++and\s++(?=(?:also\s+|i\s+)?(?:take|live|work|speak|pay|use|fly|prefer|keep"
    r"|have\s+(?:a|an|one|two|three|four|\d)|allergic|intolerant)\b))"
    # "I'm 34 and a dad of two": after a number, "and a ..." says something new
    r"|(?i:(?<=\d)\s++and\s++(?=an?\s))"
    # "I love hiking and do a lot of bouldering": a second pastime with its own verb; the
    # "and" stays with it (the extractor gives it the subject only after a taste)
    r"|(?i:(?<!\s)\s++(?=and\s++(?:also\s+|even\s+|still\s+)?" + PASTIME_VERB + r"\s))"
)


def has_explicit_marker(text: str) -> bool:
    """Whether ``text`` contains an explicit memory marker ("remember", "以后", "never" ...)."""
    return EXPLICIT_MARKER_RE.search(text) is not None


#: A question about what a business or service offers, asked of "你们" without 吗: "你们能不能
#: 用支付宝付款啊", "你们这边支不支持微信支付" (a request to the user's benefit, "你们能不能
#: 别给我打电话", is not).
_SERVICE_Q_ZH = re.compile(
    r"^\W*(?:请问|问一下|想问下?)?\W*你们(?:这边|那边|这里|那里|店里?|家|公司|平台|酒店|医院|银行)?"
    r"(?:能不能|可不可以|支不支持|收不收|接不接受|有没有|能否)"
    r"(?![^，,。]*(?:给我|帮我|替我|我的|回复我|告诉我|叫我|提醒我|通知我|发我|联系我|打给我|别|不要))"
    r"[^，,。]*\W*$"
)


#: The user asking what they may or should do: "我能不能用支付宝付美元啊", "我可不可以吃芒果",
#: "那我要不要换个医生" (not a request about answers: "我能不能让你以后用英文回复我").
_SELF_CAN_Q_ZH = re.compile(
    r"^\W*(?:那|请问|想问下?|问一下|所以)?\W*我(?:们)?(?:还|到底|现在)?(?:能不能|可不可以|可以不可以|能否|要不要|该不该"
    r"|需不需要|用不用|适不适合)(?![^，,。]*(?:回复我|回答我|告诉我|提醒我|通知我|联系我|跟我说|你))"
)


#: A 呢 that marks something under way ("在攒钱买相机呢", "正在学呢"), not a question.
_PROGRESSIVE_NE = re.compile(
    r"(?<=[，,\s])(?:我)?(?:正|还)?在(?!哪|那儿|这儿)[^，,。?？吗哪啥谁怎几多]{1,12}?(?=呢\W*$)呢(?=\W*$)"
)


def is_self_question(sentence: str) -> bool:
    """Whether a sentence is a question (about the user), not a request ("can you ...").

    "am I allergic to penicillin?" and "我对青霉素过敏吗" are questions; "can you text me
    the code this time?" is a request and is not.
    """
    s = sentence.strip()
    if _ABILITY_Q_ZH.match(s) and not re.search("回复|回答|跟我|和我|对我|给我", s):
        return True
    if _ABILITY_RE.search(s) and not has_explicit_marker(s):
        return True  # "你能不能说英文" asks what the assistant can do; it sets nothing
    if _TAG_QUESTION_RE.search(s):
        return True  # "I'm allergic to cats, right?" asks to confirm; it states nothing
    if _INDIRECT_Q_RE.search(s):
        return True  # "I wonder if I'm allergic to kiwi", "not sure whether to go keto"
    if _SELF_YES_NO_RE.match(s):
        return True  # "could i be anemic", "would i still count as vegetarian if ..."
    if _PRESSED_Q_ZH.search(s):
        return True  # "生酮饮食到底能不能吃水果啊": 到底 asks, whatever request word follows
    if _SERVICE_Q_ZH.match(s):
        return True  # "你们能不能用支付宝付款啊": what the service takes, not a request to the user
    if _SELF_CAN_Q_ZH.match(s):
        return True  # "我能不能用支付宝付美元啊": the user asks what they may do
    if _REQUEST_RE.search(s):
        return False
    if _ASKS_YOU_LAST.search(s):
        return False  # "…我住的是大连，你那边怎么样": the closing question is about "you"
    if s.endswith(("?", "？")) or _ZH_QUESTION_RE.search(_PROGRESSIVE_NE.sub("", s)):
        return True
    if _WHAT_I_RE.match(s):
        return False  # "What I really love is dark chocolate." is a statement
    if _WH_CLAUSE_RE.match(s):
        return False  # "when I fly I get an aisle seat", "which is why I'm vegan": no asking
    return _QUESTION_START_RE.match(s) is not None and not _ZH_SELF_RE.match(s)


#: A yes/no question about the user typed without its question mark, which the request
#: reading ("could I get the bill") would otherwise take: "could i be anemic", "would i
#: still count as vegetarian if ...", "can i really be lactose intolerant at 40".
_SELF_YES_NO_RE = re.compile(
    r"^\W*(?:(?:so|and|but|ok|okay|well|hmm|wait)\W+)*(?:would|might|must|will|shall)\s+i\b"
    r"|^\W*(?:(?:so|and|but|ok|okay|well|hmm|wait)\W+)*(?:can|could)\s+i\s+(?:still\s+|really\s+"
    r"|actually\s+|possibly\s+|even\s+)?(?:be|count|qualify|have\s+to|need\s+to)\b",
    re.I,
)


#: A statement followed by a question about the assistant in its own last clause: "我住的是
#: 大连，你那边怎么样", "我是护士，你呢". The question asks about "you", not the user.
_ASKS_YOU_LAST = re.compile(
    r"(?<=\w)[，,]\s*(?:那)?(?:你|您)(?:那边|那里|呢|怎么样|觉得呢)[^我，,?？]{0,6}[?？]?\W*$"
)


#: A sentence that opens with a subordinate wh-clause or a relative "which" and has no
#: question mark: "when I travel I ...", "where I live it ...", "which is a pain because".
_WH_CLAUSE_RE = re.compile(
    r"^\W*(?:when(?:ever)?|where|while|how)\s+(?:i|i'm|we|we're|my)\b(?![^?]*\?)"
    r"|^\W*which\s+(?:is|was|means|meant|makes|explains)\b(?![^?]*\?)",
    re.I,
)


def declared_aside(clause: str, sentence: str) -> bool:
    """Whether ``clause`` states a first-person fact beside the question its sentence asks.

    "since I'm vegan, what should I cook?", "I live in Leeds, any good pubs?": the question
    is the other clause; this one is a statement and keeps its memory. A tag question ("I'm
    vegan, right?") asks to confirm the statement itself, and a clause that asks, wonders
    or supposes ("I wonder ...", "if I ...", "let's say I'm ...") is no aside.
    """
    c = clause.strip()
    if not c or c == sentence.strip() or "?" in c or "？" in c:
        return False
    if _TAG_QUESTION_RE.search(sentence) or _QUESTION_START_RE.match(c):
        return False
    return _ASIDE_RE.match(c) is not None


_ASIDE_RE = re.compile(
    r"^\W*(?:(?:so|well|ok|okay|hey|hi|btw|fyi|also|and|but|anyway|oh)\W+)*"
    r"(?:(?:since|as|because|cause|cos|cuz|given\s+that|seeing\s+as)\s+)?"
    r"(?:i(?:'m|\s+am|'ve|\s+have)\s+(?!(?:thinking|wondering|curious|considering|planning"
    r"|hoping|trying|going\s+to|gonna|not\s+sure|unsure|asking)\b)"
    r"|i\s+(?!(?:think|wonder|guess|was|were|mean|bet|doubt|suppose|imagine|would|could|should"
    r"|might|may|will|want|need|wanna|heard|saw|read|asked|told)\b)[a-z]+\b"
    r"|my\s+[a-z]+(?:\s+[a-z]+)?\s+(?:is|are)\b"
    # "here in Lagos the traffic is crazy, any tips?": where the user is, beside the question
    r"|(?:(?:out|over|down|up)\s+)?here\s+in\s+(?-i:[A-Z])"
    # "tomorrow is my birthday, any cake ideas?", "it's my bday, where should I eat?"
    r"|(?:today|tomorrow|yesterday)(?:'s|\s+is|\s+was)\s+my\s+(?:birthday|b-?day)\b"
    r"|it(?:'s|s|\s+is)\s+my\s+(?:birthday|b-?day)\b)",
    re.I,
)


#: A question asked indirectly: "I wonder if I'm allergic to kiwi", "not sure whether I
#: should go vegan", "curious if ...", "any idea whether ...", "I don't know if I ...".
_INDIRECT_Q_RE = re.compile(
    r"\bi(?:'m|\s+am|\s+was)?\s+(?:just\s+)?wonder(?:ing)?\s+(?:if|whether|why|how|what|which)\b"
    r"|^\W*(?:just\s+|was\s+)?wondering\s+(?:if|whether|why|how|what|which)\b"
    r"|\bnot\s+(?:really\s+)?sure\s+(?:if|whether)\b|\b(?:i'm\s+|i\s+am\s+)?curious\s+(?:if|whether)\b"
    r"|\bany\s+idea\s+(?:if|whether)\b|\bi\s+(?:don't|do\s+not|dont)\s+know\s+(?:if|whether)\b"
    r"|\b(?:idk|dunno|no\s+idea|unsure|can't\s+decide|cannot\s+decide|can't\s+tell)\s+(?:if|whether)\b",
    re.I,
)


#: A tag question asking to confirm: "I live in Denver, right?", "我对花生过敏，对吧？".
_TAG_QUESTION_RE = re.compile(
    r"[,，]\s*(?:right|correct|isn't\s+it|aren't\s+i|don't\s+i|didn't\s+i|am\s+i|do\s+i)\s*\?+\W*$"
    # typed without the question mark: "I'm pescatarian, aren't I"
    r"|[,，]\s*(?:(?:aren't|don't|didn't|haven't|wasn't|weren't|won't|can't|isn't)\s+(?:i|it)|correct)\W*$"
    r"|[,，]\s*(?:对吧|是吧|对不对|是不是|没错吧)\W*$",
    re.I,
)


#: A question about the assistant's abilities, not a request: "can you speak Japanese?",
#: "你能不能说英文", "你可以用英文回答吗", "你会说日语吗".
_ABILITY_RE = re.compile(
    r"^\W*(?:can|could|do)\s+you\s+(?:even\s+)?(?:speak|understand)\b[^,;]*\?\W*$"
    r"|^\W*你(?:能不能|可不可以|会不会|能|可以|会)(?:说|讲|懂|听懂|看懂|用)[^，,。;；我]{0,4}(?:文|语|话)"
    r"[^，,。;；我]{0,6}(?:吗|么|呢)?\W*$",
    re.I,
)


#: "What I love is X" / "what works for me is X": a fronted statement, not a question.
_WHAT_I_RE = re.compile(
    r"^\s*what\s+(?:i\s|works\s+(?:best\s+)?for\s+me\b)[^?]*?\b(?:is|are)\b", re.I
)


def scope_of(sentence: str) -> Scope:
    """The scope a sentence's wording sets ("on this device", "just for today", "这次")."""
    if SCOPE_DEVICE_RE.search(sentence):
        return Scope.DEVICE
    if SCOPE_SESSION_RE.search(sentence):
        return Scope.SESSION
    return Scope.GLOBAL


#: The longest span a handler ever looks at. A longer sentence is cut into windows of at
#: most this many characters (at a comma or a space when there is one), so each pattern's
#: work per window is bounded and a turn's work is linear in its length.
MAX_SENTENCE_CHARS = 400
_BREAK_RE = re.compile(r"[,，:：、\s]")


def sentences(text: str) -> list[str]:
    """Split text into sentences, keeping the end punctuation (linear time).

    A sentence longer than :data:`MAX_SENTENCE_CHARS` is returned as several windows.
    """
    out: list[str] = []
    start = 0
    for m in _SENT_END_RE.finditer(text):
        _add_windows(out, text[start : m.end()])
        start = m.end()
    _add_windows(out, text[start:])
    return out


def _add_windows(out: list[str], chunk: str) -> None:
    chunk = chunk.strip()
    while len(chunk) > MAX_SENTENCE_CHARS:
        cut = MAX_SENTENCE_CHARS
        for m in _BREAK_RE.finditer(chunk, MAX_SENTENCE_CHARS // 2, MAX_SENTENCE_CHARS):
            cut = m.end()  # the last break in the second half of the window
        out.append(chunk[:cut].strip())
        chunk = chunk[cut:].strip()
    if chunk:
        out.append(chunk)


def clauses(sentence: str) -> list[tuple[str, int]]:
    """Split a sentence into ``(clause, offset)`` pairs on commas and colons.

    A clause that is only a marker ("remember", "记住", "actually") is joined to the next.
    """
    parts: list[tuple[str, int]] = []
    start = 0
    for m in _CLAUSE_SEP_RE.finditer(sentence):
        parts.append((sentence[start : m.start()], start))
        start = m.end()
    parts.append((sentence[start:], start))
    out: list[tuple[str, int]] = []
    pending: tuple[str, int] | None = None
    for text, off in parts:
        if pending is not None:
            text, off = sentence[pending[1] : off + len(text)], pending[1]
            pending = None
        if MARKER_ONLY_RE.match(text):
            pending = (text, off)
            continue
        if text.strip():
            out.append((text, off))
    if pending is not None and pending[0].strip():
        out.append(pending)
    return out


def normalize_text(text: str) -> str:
    """Same-length normalization: curly quotes to ASCII, NUL and control chars to spaces."""
    return text.translate(_TRANSLATE)


_TRANSLATE = {ord("’"): "'", ord("‘"): "'", ord("“"): '"', ord("”"): '"', 0: " "} | {
    c: " " for c in range(1, 32) if c not in (10,)
}


# --------------------------------------------------------------------------------------
# Text helpers shared by the handlers.
# --------------------------------------------------------------------------------------
CJK = HAN_BASIC
ZH_END = r"[，,。.!?！？；;]"


def alt(words: Iterable[str]) -> str:
    """A regex alternation of ``words``, longest first."""
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


_FIRST_PERSON_RE = re.compile(
    r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine)\b|我(?!的?(?:好)?(?:朋友|同事|老板|邻居|室友|同学|老婆|妻子"
    r"|太太|老公|丈夫|儿子|女儿|孩子|妈|爸|母亲|父亲|哥|姐|弟|妹|男朋友|女朋友|客户))",
    _I,
)


def first_person(text: str) -> bool:
    """Whether a clause has its own first-person subject ("I", "me", "我")."""
    return _FIRST_PERSON_RE.search(text) is not None


#: A clause whose subject is a named person ("apparently Tom is allergic to cats", "Sarah
#: works as a nurse") and that says nothing about the user (no I/me/my) is about them.
_NAMED_SUBJECT_RE = re.compile(
    r"^\W*(?:(?:apparently|so|well|and|but|also|btw|fyi|oh|turns\s+out|i\s+heard)\W+)+"
    r"(?-i:[A-Z][a-z]+)(?:\s+(?-i:[A-Z][a-z]+))?\s+(?:is|was|has|had|'s|takes|lives|works|eats"
    r"|can't|cannot|doesn't|does\s+not|isn't|got|just\s+got|became)\b",
    _I,
)


#: "my doctor said my cousin might be lactose intolerant", "I think my sister is vegan": a
#: relative is the subject of the statement, wherever it starts.
_RELATIVE_SUBJECT_RE = re.compile(
    r"\bmy\s+(?:best\s+|older\s+|younger\s+|little\s+|big\s+)?(?:friends?|colleagues?|co-?workers?"
    r"|boss|neighbou?rs?|roommates?|flatmates?|classmates?|sons?|daughters?|kids?|children|mom|mum"
    r"|mother|dad|father|brothers?|sisters?|cousins?|aunt|uncle|grandma|grandpa|parents?|nan|gran"
    r"|partner|wife|husband|girlfriend|boyfriend|therapist|dentist|vet|trainer|coach|tutor|teacher"
    r"|landlord|landlady|manager|accountant|lawyer|niece|nephew|teenager|toddler)\s+(?!(?:tongue|language|name)\b)(?:\w+\s+)?(?:is|are|was|were|has|had|might|may"
    r"|could|takes|lives|works|eats|can't|cannot|doesn't|isn't)\b",
    _I,
)


#: People in general as the subject, at the start of the clause: "很多人对花生过敏",
#: "据统计百分之十的人乳糖不耐受", "当地人都用现金" (not "坐标广州，本地人一枚").
_PEOPLE_ZH_RE = re.compile(
    r"^\W*[^\W我俺]{0,8}?(?:很多|好多|不少|许多|有些|有的|一些|大部分|大多数|多数|部分|少数|一般|百分之[\u4e00-\u9fff\d]{1,4}的?"
    r"|\d+\s*[%％]的?|当地|本地|外地|年轻|老年|南方|北方|城里|现代|"
    + "|".join(c for c in L.ZH_PEOPLE_PLACES)
    + r")人(?:都|也|一般|普遍|通常|大多)?"
    r"(?=[\u4e00-\u9fff])(?!家|们?叫我|一枚|一个)"
)


#: People in general or a stranger as the subject: "a lot of people are lactose intolerant",
#: "most airlines charge for bags", "a guy at work is allergic to ...", "oat milk for someone
#: who's lactose intolerant", "this woman said she's vegan".
_PEOPLE_EN_RE = re.compile(
    r"^\W*(?:a\s+lot\s+of|lots\s+of|loads\s+of|tons\s+of|plenty\s+of|most|many|some|a\s+few|few"
    r"|half\s+(?:of\s+)?(?:the\s+)?|all|(?:\d+|ten|twenty|thirty)\s*(?:%|percent)\s+of)\s+(?:[a-z]+\s+)?"
    r"(?:people|folks|adults|kids|children|men|women|guys|users|americans|brits|patients|nurses"
    r"|doctors|vegans|vegetarians|students|airlines|hotels|restaurants|shops|companies)\b"
    r"|^\W*(?:(?:and|but|so|oh|well|also)\s+)?(?:a|some|this|that|one|the)\s+(?:guy|girl|woman|man|dude"
    r"|lady|bloke|person|kid)\b"
    r"|\b(?:someone|somebody|anyone|anybody|people|those|a\s+person|folks)\s+who(?:'s|'re|\s+is"
    r"|\s+are|\s+has|\s+have)\b"
    r"|\b(?:says|said|claims?|thinks?|told\s+me)\s+(?:that\s+)?(?:he|she|they)(?:'s|'re)?\b"
    # the listener as the subject: "You prefer aisle seats.", "got it, you're based in Austin"
    # (an assistant's words; "you're right" / "you can call me Sam" say nothing of "you")
    r"|^\W*(?:(?:noted|got\s+it|understood|okay|ok|sure|great|perfect|alright|so)\W+)*you(?:'re|\s+are"
    r"|'ve|\s+have|\s+prefer|\s+like|\s+love|\s+live|\s+use|\s+work|\s+speak|\s+eat)\b"
    r"(?!\s+(?:right|correct|welcome|the\s+best|amazing|awesome|great|wrong|kidding|joking)\b)",
    _I,
)


#: A remark about a thing, not the user: a clause whose subject is a noun phrase with a
#: determiner ("the hotel's king bed rooms were sold out", "this vegan place closed") or a
#: trend ("keto is everywhere on tiktok", "paleo is a fad"). Slot and household nouns stay
#: the user's ("the budget is 2k", "the dog is called Max").
_GENERIC_SUBJECT_RE = re.compile(
    r"^\W*(?:(?:the|this|that|these|those|a|an|every|no)\s+(?!(?:budget|name|age|birthday|email|phone"
    r"|number|diet|pronouns|job|timezone|time\s+zone|address|language|currency|allerg\w*|seat|plan"
    r"|dogs?|cats?|pets?|puppy|kitten|kids?|baby|wife|husband|partner|family|salary|rent)\b)"
    r"(?:[a-z][a-z'-]*\s+){0,4}?(?:is|are|was|were|has\s+been|have\s+been|got|gets|seems?|looks?)\b"
    r"|^\W*[a-z][a-z-]*\s+(?:is|are)\s+(?:(?:so|totally|kind\s+of|kinda|just)\s+)?(?:everywhere"
    r"|trending|over-?rated|under-?rated|(?:a\s+)?(?:fad|trend|scam|hype)|all\s+the\s+rage"
    r"|having\s+a\s+moment|so\s+popular)\b)",
    _I,
)


def generic_remark(clause: str, sentence: str) -> bool:
    """Whether ``clause`` remarks on a thing or a trend rather than the user: a determiner
    or trend subject (:data:`_GENERIC_SUBJECT_RE`) in a sentence with no first person."""
    if _INTRODUCED_RE.match(clause):
        return False  # "this is Kwame, quick question": the user says who is writing
    return _GENERIC_SUBJECT_RE.search(clause) is not None and not first_person(sentence)


_INTRODUCED_RE = re.compile(r"^\W*(?:(?:hi|hey|hello)\W+)?this\s+is\s+(?-i:[A-Z])[a-z'-]+\b", re.I)


#: An animal or a kind of person as the subject of a general remark: "猫其实是乳糖不耐受的",
#: "小孩一般都对花生过敏", "狗不能吃巧克力" (not the user's own: "我家猫叫年糕" has 我).
_CREATURE_ZH_RE = re.compile(
    r"^\W*(?:猫|狗|猫咪|狗狗|小猫|小狗|兔子|鸟|鹦鹉|仓鼠|动物|宠物|小孩|孩子|婴儿|老人|女生|男生|女人|男人"
    r"|亚洲人|中国人|外国人)(?:其实|一般|大多|通常|基本上?|都|也|天生|本来|普遍|不能|不可以)"
)


#: Someone the user knows or a pet as the subject, or "we here" for people in general:
#: "我认识一个人对花生过敏", "我家狗狗对鸡肉过敏", "我们这边都用微信支付".
_OTHERS_ZH_RE = re.compile(
    r"我认识(?:的)?(?:一个|一位|个|好多|很多|几个|不少)?(?:人|朋友|同事|同学|女生|男生)"
    r"|我家(?:的)?(?:狗狗?|猫咪?|宠物|兔子|鹦鹉|仓鼠|小狗|小猫|主子)(?:也|都)?(?:对|有|得了|在吃|不吃|不能吃|吃了)"
    r"|^\W*(?:我们|咱们)(?:这边|这里|这儿|那边|当地|本地|老家)(?:的人)?(?:都|一般|大多|基本上?|普遍)"
)


#: The listener as the subject of a fact, in an assistant's words: "你可能是乳糖不耐受",
#: "明白了，您住在广州" ("你可以叫我小王", "你是不是觉得我…" are not read this way).
_LISTENER_ZH_RE = re.compile(
    r"^\W*(?:(?:好的|明白了?|了解|收到|嗯|所以|那么|看来)\W*)?(?:你|您)(?:可能|应该|好像|也许|大概|一定|确实"
    r"|平时|一般)?(?:是(?!不是)|对[^我你，,。]{1,8}过敏|有[^，,。]{1,6}(?:病|症)|住在|在[^，,。]{1,6}(?:工作|上班)"
    r"|喜欢|不吃|不喝|不能吃|乳糖|是个)"
)


#: Someone's advice or demand, in its own clause: "医生建议我每天吃维生素", "营养师让我戒糖"
#: (what the user does about it is theirs to say, in a clause of its own: "医生让我少吃盐，
#: 所以我现在吃低盐饮食"; "我妈叫我小宝" is a nickname).
_ADVICE_ZH_RE = re.compile(
    r"^\W*(?:我的?)?[^\W我俺]{0,3}?(?:医生|大夫|营养师|教练|老师|专家|药师|护士|中医|健身教练|领导|老板"
    r"|爸妈|父母|妈妈?|爸爸?|老婆|老公|朋友|同事|家人)(?:都|也|一直|总是?|老是?|还)?"
    r"(?:建议|让|劝|嘱咐|叮嘱|要求|要)我(?![^，,。]*[，,])"
)


#: Pronouns named as words, for the user: "he or they both work for me", "she and they are
#: both fine for me" (not "he and they are at the party").
_PRONOUN_CHOICE_RE = re.compile(
    r"^\W*(?:he|she|they)\s+(?:and|or|&|/)\s+(?:he|she|they)\s+(?:are\s+)?(?:both\s+|either\s+)?"
    r"(?:work|works|are\s+fine|fine|is\s+fine|are\s+ok|are\s+okay)\b[^.!?]{0,12}?\b(?:for\s+me|with\s+me)\b",
    re.IGNORECASE,
)


def third_party(text: str) -> bool:
    """Whether a clause is about someone else ("my friend ...", "他 ...", "我朋友 ...",
    "apparently Tom is ...", "I think my sister is vegan", "很多人 ...")."""
    if _PRONOUN_CHOICE_RE.match(text) is not None:
        return False  # "he or they both work for me": pronouns named for the user
    if THIRD_PARTY_RE.search(text) is not None or _RELATIVE_SUBJECT_RE.search(text):
        return True
    if _PEOPLE_ZH_RE.search(text) is not None and not first_person(text):
        return True
    if _OTHERS_ZH_RE.search(text) is not None:
        return True
    if _LISTENER_ZH_RE.search(text) is not None and not first_person(text):
        return True
    if _ADVICE_ZH_RE.search(text) is not None:
        return True
    if _CREATURE_ZH_RE.search(text) is not None and not first_person(text):
        return True
    if _PEOPLE_EN_RE.search(text) is not None and not first_person(text):
        return True
    return _NAMED_SUBJECT_RE.search(text) is not None and not first_person(text)


CUT_EN = re.compile(
    r"\s+(?:and\s+(?:i|my|we|you|it|then)|i|i'm|i've|i'd|i'll|fyi|btw|tbh|but|because|since|so|though|although|when|while|if"
    r"|which|who|whenever|unless|until|to\s+me|for\s+me|please|anymore|any\s+more|again|lately"
    r"|recently|these\s+days|nowadays|now|too|as\s+well|a\s+lot|very\s+much|so\s+much|at\s+all"
    r"|right\s+now|instead|either|thanks|thank\s+you|ok|okay|haha\w*|hehe\w*|lol|lmao|jk"
    r"|just\s+kidding|kidding|just\s+joking|on\s+this|for\s+this|for\s+the\s+next|till|for\s+now"
    r"|just\s+for|from\s+now\s+on|going\s+forward|in\s+the\s+future|to\s+be\s+honest|honestly|tbf|ngl"
    r"|to\s+be\s+fair|with\s+a\s+passion|more\s+than\s+anything|to\s+bits|like\s+crazy|big\s+time"
    r"|on\s+me|at\s+me|a\s+couple\s+of|a\s+few\s+(?:years|months|weeks)|back\s+in|in\s+(?:19|20)\d\d"
    r"|(?:one|two|three|four|five|six|\d+|several|many|some|a)\s+(?:years?|months?|weeks?)\s+ago"
    r"|last\s+(?:year|month|week|summer|spring|autumn|fall|winter)|as\s+a\s+(?:kid|child|teen|teenager)"
    # how often, said after a drug or a habit: "sertraline daily", "metformin twice a day"
    r"|(?:daily|nightly)(?=\s*(?:[,.;!?)]|$|and\b|but\b|for\b|since\b|at\b|with\b))|(?:once|twice|three\s+times)\s+(?:a|per)\s+day|every\s+(?:day|morning|night|evening)"
    r"|each\s+(?:day|morning|night|evening))\b.*$",
    _I,
)
#: Where a Chinese name said after 叫 stops: the next word of the sentence ("我叫小林然后…",
#: "我女儿叫朵朵今年五岁", "我叫张伟，在杭州") is no part of it.
NAME_CUT_ZH = re.compile(
    r"(?:我|是|在|今|住|了|呢|啊|吧|的|来|从|和|，|然后|还有|现在|目前|平时|已经|每天|去年).*$"
)


def zh_name_at(text: str, start: int, longest: int) -> str:
    """The Chinese name said from ``start``: up to ``longest`` characters, stopping at the
    next word of the sentence (:data:`NAME_CUT_ZH`) or at anything not a Han character."""
    window = text[start : start + longest + 2]
    head = window[:1] + NAME_CUT_ZH.sub("", window[1:])
    return re.sub(r"[^\u4e00-\u9fff].*$", "", head)[:longest]


CUT_ZH = re.compile(
    # 哈 ends a phrase as a laugh, not inside a name ("哈尔滨", "哈密瓜", "哈佛")
    r"(?:了|啊|呢|吧|呀|哦|啦|嘛|咯(?![血吱])|喽|哟|哈(?![尔密佛萨])|但是|但|因为|所以|而且|还有|以及|之类|什么的|给我).*$"
)
#: ("New" before a capitalised word is part of a name: "New York", "New Delhi")
_LEAD_EN = re.compile(r"^(?:the|a|an|some|any|my|your|more|new(?!\s+(?-i:[A-Z]))|all|of)\s+", _I)


_SYMBOLS = re.compile(r"[\u2600-\u27bf\U0001f000-\U0001faff]+")


def phrase(text: str, max_words: int = 4) -> str:
    """Trim a captured item: cut at conjunctions/fillers, drop articles, keep <= max_words."""
    t = CUT_EN.sub("", _SYMBOLS.sub(" ", text).strip())
    t = CUT_ZH.sub("", t).strip(" \t'\"()[]{}*~-")
    while True:
        new = _LEAD_EN.sub("", t)
        if new == t:
            break
        t = new
    words = t.split()
    return " ".join(words[:max_words])


NOT_END = r"[^,.;!?，。；！？]"


def split_items(text: str) -> list[str]:
    """Split a list ("peanuts and shellfish", "花生、海鲜") into trimmed items."""
    parts = re.split(
        r"\s*(?:,|，|、|/|&|\s\+\s|\band\b|\bor\b|和|跟|以及|还有|或者?|及|(?:也|还)不(?:吃|喝))\s*",
        text,
    )
    # "gluten and lactose both", "cats and dogs both": "both" closes the list, no item's part
    parts[-1] = _LIST_BOTH.sub("", parts[-1])
    return [item for p in (phrase(x, 4) for x in parts) if p for item in run_items(p)]


_LIST_BOTH = re.compile(r"(?<=\w)\s+both\W*$", re.IGNORECASE)


#: The closing words of a Chinese list said without separators: "日料寿司拉面啥的", "课程培训班
#: 之类的", "榴莲臭豆腐这种", "股票基金什么的".
_LIST_TAIL_ZH = re.compile(r"(?:啥的?|什么的?|之类的?|这种|这些|这类|那种|那些|等等?)$")
_HAN_RUN = re.compile("[" + HAN_BASIC + "]+")


def _vocab_zh() -> frozenset[str]:
    words = set(L.ZH_LIST_WORDS)
    for table in (L.FOODS, L.OTHER_ALLERGENS, L.MEDICATIONS, L.CONDITIONS, L.LANGUAGES):
        words.update(w for w in table if _HAN_RUN.fullmatch(w) and len(w) >= 2)
    return frozenset(words)


_LIST_VOCAB_ZH = _vocab_zh()
#: A pastime named by how it is done and what it is ("徒步旅行", "自驾游", "户外运动",
#: "水下摄影", "野外露营"): one compound, not two items, though both halves are words.
_MANNER_COMPOUND_ZH = re.compile(
    r"(?:徒步|自驾|骑行|骑车|背包|穷游|自助|跟团|户外|野外|极限|水上|水下|室内|长途|短途|越野|登山|潜水|海岛|环球"
    r"|街头|风光|人像|夜景|野生动物|城市)"
    r"(?:旅行|旅游|游|运动|摄影|露营|探险|骑行|徒步|跑)"
)
_LIST_VOCAB_LONGEST = max(len(w) for w in _LIST_VOCAB_ZH)


def run_items(item: str) -> list[str]:
    """A Chinese item run together from known words ("川菜湘菜", "虾蟹") as its words.

    The run's closing words (啥的 / 之类的 / 这种) go; it is split only when every part of it
    is a known list word and the whole is not one, with the fewest parts (so 鸡蛋 stays
    whole and 牛奶 is never 牛 + 奶). Anything else comes back as it was.
    """
    if not _HAN_RUN.fullmatch(item):
        return [item]
    trimmed = _LIST_TAIL_ZH.sub("", re.sub("的$", "", item))
    if len(trimmed) >= 3 and trimmed.endswith("类") and not trimmed.endswith("药类"):
        trimmed = trimmed[:-1]  # "内脏类": the kind, not the word 类 (贝类 stays)
    trimmed = trimmed or item
    if trimmed in _LIST_VOCAB_ZH or len(trimmed) < 2 or _MANNER_COMPOUND_ZH.fullmatch(trimmed):
        return [trimmed]
    n = len(trimmed)
    best: list[list[str] | None] = [None] * (n + 1)
    best[0] = []
    for i in range(n):  # linear in the run: each position tries a bounded word length
        if best[i] is None:
            continue
        for j in range(i + 1, min(n, i + _LIST_VOCAB_LONGEST) + 1):
            word = trimmed[i:j]
            if word in _LIST_VOCAB_ZH:
                cand = [*best[i], word]  # type: ignore[misc]
                if best[j] is None or len(cand) < len(best[j]):  # type: ignore[arg-type]
                    best[j] = cand
    parts = best[n]
    return parts if parts is not None and len(parts) > 1 else [trimmed]


def ok_topic(topic: str) -> bool:
    """Whether a phrase can be a taste/interest/recommendation topic (not "it", "that", ...)."""
    slug = slugify(topic)
    return (
        bool(slug)
        and slug not in L.TOPIC_STOP
        and slug.split("_")[0] not in L.TOPIC_STOP
        and not L.is_request_word(topic)
        and L.PERSON_ZH.match(topic) is None
    )


def neg_before(text: str, pos: int) -> bool:
    """Whether a negation ("don't", "never", "别", "不要") directly precedes ``pos``."""
    return _NEG_BEFORE.search(text[max(0, pos - 24) : pos]) is not None


_NEG_BEFORE = re.compile(
    r"(?:\b(?:don't|do\s+not|dont|never|stop|no)\s+(?:ever\s+)?(?:\w+\s+)?|(?:不要|别|不准|不许|不用|勿|不方便|没法|无法|从不|从来不|从来都不|绝不|坚决不|不(?:太)?喜欢|不爱|讨厌)再?(?:给我)?(?:用)?)$",
    _I,
)


def classify(term: str) -> tuple[str, Kind, str] | None:
    """(key, kind, canonical) of a vocabulary term, for corrections ("not X, Y")."""
    low = term.strip().lower()
    for vocab, key, kind in (
        (L.MEDICATIONS, "allergy.medication", Kind.FACT),
        (L.FOODS, "allergy.food", Kind.FACT),
        (L.INDUSTRIES, "industry", Kind.FACT),
        (L.DIETS, "diet", Kind.PREFERENCE),
        (L.LANGUAGES, "language", Kind.PREFERENCE),
        (L.CHANNELS, "contact.channel", Kind.PREFERENCE),
        (L.COUNTRIES, "location.country", Kind.FACT),
        (L.CITIES, "location.city", Kind.FACT),
        (L.CONDITIONS, "health.condition", Kind.FACT),
    ):
        if low in vocab:
            return key, kind, vocab[low]
    return None


#: "anymore" / "no longer" / "不再": a declaration that takes a fact back.
#: ("戒不掉了", "离不开了": cannot quit, cannot do without, a "不…了" that goes on)
ANYMORE = re.compile(
    r"\b(?:anymore|any\s+more|no\s+longer)\b|不再|已经不|(?<![戒离])不(?!了$).{0,8}了$", _I
)


def negate(c: Candidate) -> Candidate:
    """A negated declaration ("not allergic anymore") -> forget that slot/value."""
    return dataclasses.replace(
        c, intent=Intent.FORGET, explicit=True, signals=c.signals | {"negated"}
    )
