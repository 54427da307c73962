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
from . import lexicon as L

__all__ = ["UNLIKELY_STATEMENT", "GateDecision", "Verdict", "gate"]


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
    ("generic", "a remark about a thing or a trend, not about the user"),
    ("transient", "a passing state, not a durable fact"),
    ("task", "a one-off task, not a standing preference"),
    ("past", "a past state, not true now"),
    ("invalid_value", "invalid value (out of range or malformed): candidate skipped"),
)

_WRITE_ROLES = frozenset({"user", "tool"})

#: set by :func:`shared_core.ingest.statement_gate.mark` on a turn the learned gate scored low
UNLIKELY_STATEMENT = "unlikely_statement"
_UNLIKELY_WHY = "the turn reads as chat, not as a statement about the user (statement gate)"

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
        # a title for oneself, not a name: "叫我富婆就行", "以后叫我女王大人"
        "富婆",
        "富豪",
        "首富",
        "大佬",
        "大神",
        "女王",
        "女王大人",
        "女神",
        "男神",
        "主人",
        "殿下",
        "陛下",
        "祖宗",
        "爷",
        "大王",
        "霸总",
        "仙女",
        "小仙女",
        "公主",
        "老佛爷",
        "爸爸",
        "爹",
        "亲爹",
        "爷爷",
        "本大爷",
        "雷锋",
        "活雷锋",
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
    r"|spreadsheets?|excel|e-?mails?|paperwork|deadlines?|alarms?|alarm\s+clocks?|cardio|(?:the\s+)?gym"
    r"|chores|housework|cleaning|laundry|commitment|small\s+talk|phone\s+calls|bills|taxes|wi-?fi"
    r"|traffic|exams?|studying|my\s+boss|bosses|adults|grown-?ups"
    r"|上班|工作|学习|早起|周一|星期一|开会|加班|考试|数学|人类|运动|作业|钱|你|你们|他|她|老板|上司|领导"
    r"|穷|工作日|返工|早八|班主任|世界|这个世界|生活|社会|这个社会|人生"
    # a time is no allergen: "我今天过敏了" (the day of a reaction)
    r"|今天|昨天|前天|最近|这几天|这两天|刚才|刚刚|早上|晚上|现在|上周|这周|今年|去年"
    # the office and its paperwork: "我对KPI过敏", "对PPT过敏", "对甲方过敏"
    r"|kpis?|okrs?|ppts?|powerpoint|ddl|绩效|考核|汇报|打卡|通勤|内卷|甲方|乙方|相亲|催婚|房贷|账单"
    # people are no allergen: "我对帅哥过敏", "对熊孩子过敏", "对秀恩爱的过敏"
    r"|帅哥|美女|男人|女人|男生|女生|异性|情侣|秀恩爱的?|熊孩子|小孩|小孩子|傻子|笨蛋|蠢人|穷人|有钱人|人"
    r"|同事|领导们?|客户|渣男|渣女|前任|前男友|前女友|单身|结婚|恋爱|谈恋爱|爱情|周末加班|早起上班)$"
    # the same said of a part of the day or week: "周一早上的闹钟", "早上的例会", "月底的报表"
    r"|^[\u4e00-\u9fff]{0,8}?(?:闹钟|上班|加班|开会|例会|早起|早八|考试|作业|报表|周报|老板|领导|周一|星期一|工作日"
    # a kind of place or occasion: "我对人多的地方过敏", "对这种场合过敏"
    r"|地方|场合|场面)$",
    re.IGNORECASE,
)
#: "被窝里", "床上", "家里": a place inside or on something is no city.
_LOCATIVE_ZH = re.compile(r"^[\u4e00-\u9fff]{1,4}(?:里|上|中|下|内|外|边|旁)$")
#: Not a food, whatever the wording: "我最喜欢的食物是空气", "我天天喝西北风".
_NOT_FOODS = re.compile(
    r"^(?:空气|西北风|土|寂寞|空气和水|泡面和空气|air|thin\s+air|nothing)$"
    # the boss's empty promises: "我最喜欢的食物是老板画的饼"
    r"|.*画的?大?饼$"
    # idioms with 吃: "我不吃亏", "我不吃这一套", "从不吃闭门羹"
    r"|^(?:亏|这一?套|那一?套|软饭|闭门羹|老本|苦头?)$"
    # a medicine is no taste: "我这人最爱吃药了" (山药 is a yam)
    r"|^(?:[\u4e00-\u9fff]{0,3}(?<!山)药|药片|药丸|胶囊|中药|西药|安眠药|感冒药)$",
    re.I,
)
#: What nobody likes, named as a favourite: "我最爱的肯定是周一嘛", "最喜欢的当然是加班啦"
#: (sarcasm: no taste or interest).
_NOT_LIKED = re.compile(
    r"^(?:周一|星期一|周一早上|礼拜一|加班|堵车|塞车|排队|开会|开例会|上班|早八|上早八|早起|挤地铁|挤公交"
    r"|交税|还房贷|还贷款|写周报|写报告|改需求|改方案|改ppt|被骂|挨骂|背锅|内卷|值夜班|考试|写作业|作业"
    r"|调休|被裁|裁员|扣工资|延误|航班延误|催婚|相亲|打卡|团建|mondays?|traffic|queues?|taxes|overtime)$",
    re.IGNORECASE,
)
#: A quirk given a disease's name, not a condition: "我有严重的拖延症", "懒癌晚期", "选择困难症".
_NOT_CONDITIONS = re.compile(
    r"(?:拖延|懒|尴尬|直男|选择困难|起床困难|手机依赖|周一|节后|假期|上班|社交牛逼|购物|剁手|中二|公主|王子"
    r"|穷|丑|懒惰)(?:症|癌|病|综合症|综合征)(?:晚期|患者)?$"
)
#: Slang for working or idling, not a job title: "我是个打工人", "社畜一枚".
_NOT_JOBS = re.compile(
    r"^(?:打工人|打工仔|社畜|咸鱼|一条咸鱼|牛马|搬砖的|搬砖|韭菜|干饭人|废物|穷光蛋)$"
    # idling made a trade: "资深熬夜工程师", "职业摸鱼选手", "天选打工人"
    r"|熬夜|摸鱼|躺平|干饭|划水|发呆|睡觉|打工人|社畜|牛马"
)
#: Idling made a trade, in English: "I'm a professional napper", "certified overthinker",
#: "full-time procrastinator" (a real trade keeps: "a professional photographer").
_IDLE_TRADE_EN = re.compile(
    r"\b(?:professional|certified|expert|full[\s-]time|world[\s-]class|champion|olympic(?:[\s-]level)?"
    r"|pro)\s+(?:napp|sleep|procrastinat|overthink|snack|binge|worri|complain|couch|scroll|daydream"
    r"|nap\b|eat|lazy|loung|chill|gossip)\w*",
    re.IGNORECASE,
)
#: What "my job is X" says of the job rather than naming it: "killing me", "stressing me
#: out", "stable", "so boring" (a role keeps: "my job is nursing", "a part-time barista").
_JOB_SAID_OF = re.compile(
    r"^(?:\w+ing\s+(?:me|us)\b.*"
    r"|(?:(?:so|very|pretty|really|quite|super|kinda|kind\s+of|too)\s+)?(?:stable|boring|fine"
    r"|ok|okay|alright|great|good|bad|hard|tough|stressful|exhausting|tiring|fun|demanding|busy"
    r"|easy|secure|flexible|intense|chill|awful|terrible|amazing|rewarding|draining|meh|dull"
    r"|underpaid|overpaid|well[\s-]paid|badly[\s-]paid|low[\s-]paid|remote|hybrid|safe"
    r"|insane|crazy|hectic|brutal|nice|cool|interesting|exciting|repetitive|lonely)"
    r"(?:\s+(?:but|and|as\s+hell)\b.*)?)$",
    re.IGNORECASE,
)
#: "我住的地方附近…": a city value that is the rest of a clause, not a place name; "这次出差
#: 我住希尔顿": a hotel one stays at is no city either.
_NOT_CITY_ZH = re.compile(
    r"^的|地方|附近|有啥|有什么|哪里|哪儿|(?:酒店|宾馆|饭店|旅馆|民宿|客栈)$"
    # "我住在老板的画饼里": something's inside is no city
    r"|的[\u4e00-\u9fff]{1,6}(?:里|中|上)$"
    # "我住在公司", "住宿舍": a building one sleeps in is no city
    r"|^(?:公司|单位|宿舍|学校|学校里|家|家里|老家|医院|工地|店里|网吧|车里|办公室|工位|图书馆|实验室)$"
    # someone's home: "住我妈家", "住在朋友家里"
    r"|家(?:里)?$"
    r"|^(?:月球|火星|地球|天上|天堂|宇宙|外太空|银河系|梦里|心里|你心里|火星上|月亮上)$"
    # "我住哪都行", "住哪随便": anywhere is no city
    r"|^(?:哪|随便)|都(?:行|可以|好)$"
    r"|^(?:希尔顿|万豪|凯悦|洲际|喜来登|威斯汀|亚朵|全季|汉庭|如家|香格里拉|锦江|维也纳|桔子|格林豪泰|宜必思)"
)

#: What someone asks for is no topic of interest: "any tips on how to ...", "有什么好的建议".
_REQUEST_TOPIC = re.compile(
    r"^(?:(?:good|other|more|any|some|useful|practical)_)*(?:tips?|advice|suggestions?"
    r"|recommendations?|ideas?|strateg(?:y|ies)|ways?|help|benefits?|methods?)(?:_|$)"
    r"|^(?:好的|什么|一些|有用的|实用的|其他的?)?(?:建议|推荐|意见|办法|方法|技巧|窍门|好处|帮助|想法)$",
    re.IGNORECASE,
)
#: A note that only opens a request or says thanks ("I have a question", "我有一个烦恼",
#: "I'm grateful"), or a passing difficulty ("I don't quite understand X", "I can't find
#: any inspiration", "不知道该怎么办", "有点担心"): conversation, not a fact to keep.
_CHAT_NOTE = re.compile(
    r"^\W*(?:i\s+(?:also\s+)?(?:have|got|'ve\s+got)\s+(?:a|an|another|one\s+more|some)\s+"
    r"(?:(?:small|quick|little|big|new|serious)\s+)?(?:questions?|problems?|issues?|requests?"
    r"|favou?r|doubts?|concerns?|troubles?)\b"
    r"|i(?:'m|\s+am)\s+(?:(?:so|very|really|truly|deeply|most)\s+)*(?:grateful|thankful|glad"
    r"|happy\s+to\s+(?:hear|know)|sorry)\b"
    r"|i\s+(?:really\s+|just\s+|still\s+)*(?:don't|do\s+not|can't|cannot|can\s+not)\s+"
    r"(?:(?:quite|really|fully|totally|seem\s+to|even)\s+)*(?:understand|get|figure\s+out|find"
    r"|know\s+(?:what|how|whether|if|where|which|why))\b"
    r"|i(?:'m|\s+am)\s+(?:(?:still|really|a\s+bit|a\s+little|kind\s+of)\s+)*(?:having\s+"
    r"(?:some\s+)?trouble|confused|stuck|struggling)\b)"
    r"|^\W*我?(?:现在|最近|还)?(?:有|遇到了?)(?:一个|个|一些|些|点)(?:小)?(?:问题|烦恼|困惑|难题|请求|疑问)"
    r"|^\W*我?(?:有点|有些|很|非常|真的)?(?:担心|不知道|不太?懂|不明白|搞不懂|想不通|不确定)"
    r"|^\W*我?(?:很|非常|真的)?(?:感谢|谢谢|感激)",
    re.IGNORECASE,
)
#: A note whose object is only a pronoun ("I don't have one", "I never use it", "I like
#: that"): it points back into the conversation and says nothing on its own.
_PRONOUN_NOTE = re.compile(
    r"^\W*i\s+(?:(?:really|just|still|also|never|don't|do\s+not|dont|didn't|can't|won't"
    r"|no\s+longer)\s+)*[a-z]+\s+(?:one|it|that|this|them|those|these|any|some)\W*$",
    re.IGNORECASE,
)
#: Values that only point back into the conversation ("one" is a count: "one kid").
_PRONOUN_VALUES = frozenset({"it", "that", "this", "them", "those", "these", "stuff"})
#: A self-label said in fun ("我是吃货", "吃货一枚", "我是月光族的族长"): a joke about
#: oneself, not a fact to keep as a note.
_SELF_LABEL_ZH = re.compile(
    r"^\W*我(?:就|也|可|真)?是(?:个|一个|一名|一位)?(?:资深|重度|超级|骨灰级|终极)?"
    r"(?:吃货|吃瓜群众|干饭人|月光族|剁手党|拖延症晚期|学霸|学渣|猫奴|狗奴|全职儿女|全职女儿|全职儿子)"
    # "我是一个莫得感情的干饭机器", "我就是个工具人"
    r"|^\W*我(?:就|也|可|真)?是[^，,。]{0,12}(?:机器|工具人|没有感情的杀手|莫得感情的杀手)\W*$"
    # idling made a title, or riches claimed: "我是熬夜冠军", "我是摸鱼界的王者", "我是富婆"
    r"|^\W*我(?:就|也|可|真)?是(?:个|一个|一名)?[^，,。]{0,4}?(?:熬夜|摸鱼|躺平|干饭|划水|发呆|睡觉|拖延|迟到|吃瓜|追剧)"
    r"(?:界的?)?(?:冠军|王者|专业户|大师|达人|选手|第一名|一哥|一姐|天花板|扛把子)"
    r"|^\W*我(?:就|也|可|真)?是(?:个|一个)?(?:富婆|富豪|首富|大富翁|亿万富翁|土豪|隐形富豪)(?=$|\W)"
)
#: A taste whose "item" is a verb phrase or a degree word ("love is a two-way street",
#: "things I like and am good at", "enjoy it to the fullest") names nothing liked.
_NOT_AN_ITEM = re.compile(
    r"^(?:is|am|are|was|were|be|been|has|had|can|could|will|would|should|do|does|did)(?:_|$)"
    r"|^(?:fullest|most|best|much|very_much|so_much|a_lot|lot|more)$"
    # a bare Chinese verb names nothing liked: "甜食我不太爱吃" (吃), "周末常出去拍" (出去拍)
    r"|^(?:出去|去|来)?(?:吃|喝|玩|看|用|做|听|拍|逛|走|跑|买|弄)$"
    # how often, with its verb: "天天吃都吃不腻" (天天吃都), "每天喝" name nothing liked
    r"|^(?:天天|每天|顿顿|经常|老是|总是|一直)(?:都)?(?:吃|喝|玩|看|用|听)(?:都|也)?$",
    re.IGNORECASE,
)
#: What a refusal of recommendations points at without naming it: "这些", "那种", "能不能".
_POINTER_ITEM_ZH = re.compile(
    r"^(?:这|那)(?:个|些|种|类|样|款)?$|^(?:能不能|可不可以|能|可以|麻烦)$"
)
#: A membership tier is no programme: "希尔顿荣誉客会我是钻石会员" keeps the programme only;
#: nor is it a name or a job ("我是金卡", "我是白金会员").
_TIER_ZH = re.compile(r"^(?:钻石|白金|金|银|铂金|普通|黑金)(?:卡|级|会员|用户)?$")
#: "这种气质", "那种风格", "这些活动", "一件古老的丝绸": a thing pointed at in the
#: conversation or a single object seen once, not a taste that stands without it.
_DEMONSTRATIVE_ZH = re.compile(
    r"^(?:这|那)(?:种|些|个|样|类|款|部|本|首)|^一(?:件|个|部|本|首|次|道|张|幅)"
)
#: What a name slot cannot hold: an indefinite phrase ("一家公司", "一份无聊的工作"), a
#: verb phrase ("学习如何", "考虑要不要换", "了一道菜", "找") or a negation ("现在不住了").
_NOT_A_NAME_ZH = re.compile(
    r"^(?:一(?:家|份|个|道|种|些|点|下)|了|找|学|考虑|想|要|在|去|做|如何|怎么|不|没)|^[\u4e00-\u9fff]$"
)
#: A "rule" that is someone else's demand of the user ("总是要求我...", "每次都有人让我...",
#: "always asks me to ...") or the user's own promise ("以后我也会注意", "from now on I'll
#: be careful"): nothing the assistant is asked to do.
_NOT_AN_INSTRUCTION = re.compile(
    r"^\W*(?:always|never|from\s+now\s+on|going\s+forward|in\s+(?:the\s+)?future)?,?\s*"
    r"(?:(?:asks?|tells?|wants?|makes?|forces?|expects?|pushes?|begs?)\s+me\b"
    r"|i(?:'ll|\s+will|\s+shall|\s+am\s+going\s+to|'m\s+going\s+to)\b)"
    r"|^\W*(?:以后都|以后|从现在开始都?|今后都?|每次都|永远|总是|一律)?(?:请|要|都)?"
    r"(?:(?:有人|别人|人家|他们|她们|他|她|大家|老板|上司|领导|老师|同事|家人|朋友)"
    r"|(?:要)?求我|让我|逼我|催我|叫我(?:去|做|帮)|我(?:也|一定|都|还)?(?:会|将))",
    re.IGNORECASE,
)
#: "以后都这样", "今后就按这个来": the rule is the request said before it, read on its own.
_POINTER_RULE_ZH = re.compile(
    r"^\W*(?:以后|今后|往后|下次|每次)?(?:都|也|就)?(?:这样|这么(?:做|办|来|写)|按这个(?:来|写)?|照这个(?:来|写)?"
    r"|照这样|按这样)(?:吧|哈|啊|呀|就行|就好)?\W*$"
)
#: What follows "叫我" when it is advice, not a name: "我老婆叫我少喝点酒", "医生叫我别熬夜"
#: (a nickname keeps: "叫我多多", "叫我小心心" is rare and reads as advice either way).
_ADVICE_NOT_NAME_ZH = re.compile(
    r"^(?:少|多(?!多)|别|不要|不许|去|早点|早些|记得|快点?|赶紧|好好|按时|注意|小心|出去|回家|戒|减肥|锻炼"
    r"|吃|喝|睡|起床|休息)"
)
#: "什么都行", "啥都可以", "随便": whatever the user is called, no name.
_ANY_NAME_ZH = re.compile(r"^(?:什么|啥|随便|都行|怎么(?:叫)?都|哪个都)")
_NAME_SLOTS = (
    "job.employer",
    "job.title",
    "industry",
    "location.city",
    "location.country",
    # "酒店订在国贸": a place phrase (在…) is no hotel chain or airline
    "hotel.chain",
    "travel.airline",
)


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
    if cand.intent is Intent.ASSERT and (chat := _conversational(cand)):
        return GateDecision(cand, Verdict.REJECT, chat)
    # an interest is only ever a hint: an "always" elsewhere in the turn declares nothing
    marker = "explicit_marker" in cand.signals and not cand.key.startswith("interest.")
    if cand.explicit or marker or cand.correction:
        # a correction fixes the user's own earlier word; an allergy missed can hurt the
        # user, one stored wrongly only makes the assistant careful; an implicit signal
        # still waits for consensus
        unlikely = UNLIKELY_STATEMENT in cand.signals
        if unlikely and not cand.correction and cand.key.split(".")[0] != "allergy":
            return GateDecision(cand, Verdict.REJECT, _UNLIKELY_WHY)
        return GateDecision(cand, Verdict.ACCEPT, "explicit declaration")
    return GateDecision(cand, Verdict.PENDING, "implicit signal: needs consensus")


def _implausible(cand: Candidate) -> str | None:
    """Why a value cannot be meant literally (a played name, a hyperbolic allergen, a
    place that is no city), or ``None``."""
    value = (cand.value or "").strip().strip("\"'.!?。！？").casefold()
    key = cand.key
    if key in ("name", "name.preferred") and value in _PLAYED_NAMES:
        return "a played name, said as a joke"
    if key in ("name", "name.preferred") and value.startswith(("你", "您", "他", "她", "它")):
        return "a pronoun, not a name"  # "我叫你一声", "叫我他爹"
    if key in ("name", "name.preferred") and _ANY_NAME_ZH.match(value):
        return "any name will do: no name"  # "你叫我什么都行", "叫我啥都可以"
    if key == "name.preferred" and _ADVICE_NOT_NAME_ZH.match(value):
        return "advice (叫我少喝点酒), not a name"
    if key.startswith(("allergy", "intolerance")) and _NOT_ALLERGENS.match(value):
        return "hyperbole: not an allergen"
    if key.startswith("health.condition") and _NOT_CONDITIONS.search(value):
        return "a quirk called a disease, not a condition"
    if key.startswith("location.") and _LOCATIVE_ZH.match(value) and value not in L.CITIES:
        return "a spot, not a city"  # (台中 and 济南 name cities all the same)
    if key.startswith("location.") and _NOT_CITY_ZH.search(value):
        return "words around a place, not a city"
    if (key.startswith(("taste.", "food.")) and _NOT_FOODS.match(key.rsplit(".", 1)[-1])) or (
        key.startswith("food.") and _NOT_FOODS.match(value)
    ):
        return "hyperbole: not a food"
    if key.startswith(("taste.", "food.like", "interest.")) and (
        _NOT_LIKED.match(key.rsplit(".", 1)[-1]) or _NOT_LIKED.match(value)
    ):
        return "sarcasm: what nobody likes, named as a favourite"
    if key == "job.title" and _NOT_JOBS.search(value):
        return "self-mockery, not a job"  # "我是个打工人", "我是一条咸鱼"
    if (key == "job.title" or key.startswith("note")) and _IDLE_TRADE_EN.search(value):
        return "self-mockery, not a trade"  # "I'm a professional napper"
    if key == "job.title" and _JOB_SAID_OF.match(value):
        return "how the job feels, not what it is"  # "my job is killing me / is stable"
    if value.startswith("的") or key.rsplit(".", 1)[-1].startswith("的"):
        return "a clause fragment (starts with 的), not a value"  # "我最喜欢的食物是空气"
    return None


def _conversational(cand: Candidate) -> str | None:
    """Why a candidate is a piece of the conversation rather than something about the
    user worth keeping (a request read as an interest, thanks or a passing difficulty read
    as a note, a taste with no item, a verb phrase in a name slot), or ``None``."""
    key, value = cand.key, (cand.value or "").strip()
    if key.startswith("interest.") and _REQUEST_TOPIC.match(key.removeprefix("interest.")):
        return "a request for help, not a topic of interest"
    if key.startswith("note.") and _CHAT_NOTE.match(value):
        return "conversation (a request, thanks or a passing difficulty), not a fact"
    if value.casefold() in _PRONOUN_VALUES:
        return "a pronoun, not a value"  # "I never drink it" names nothing
    if key.startswith("note.") and _SELF_LABEL_ZH.match(value):
        return "a self-label said in fun, not a fact"
    if key.startswith("note") and _PRONOUN_NOTE.match(value):
        return "a pronoun for its object: points back into the conversation"
    if key.startswith("taste."):
        item = key.removeprefix("taste.")
        if _NOT_AN_ITEM.match(item) or _DEMONSTRATIVE_ZH.match(item):
            return "no item liked: a verb phrase, a degree word or a pointer"
    if key.startswith(("taste.", "interest.")) and "你" in key:
        return "about this conversation (你), not a taste"  # "我喜欢你这个回答"
    if key.startswith(("taste.", "interest.")) and key.split(".", 1)[1].startswith(("我", "俺")):
        return "someone or something of the user's, not a taste"  # "我最爱的当然是我老婆啦"
    if key.startswith("recommend.") and _POINTER_ITEM_ZH.match(key.rsplit(".", 1)[-1]):
        return "a pointer or a modal, not a topic"  # "别推这些", "能不能别推了"
    if key.startswith("travel.loyalty") and _TIER_ZH.match(value):
        # "我是银卡用户" names no programme (of an airline? a bank? a shop?): a tier alone is
        # no loyalty programme, and the free-form note keeps the user's words
        return "a membership tier, not a programme"
    if key in _NAME_SLOTS and _NOT_A_NAME_ZH.match(value):
        return "a phrase, not a name"
    if key in (*_NAME_SLOTS, "name", "name.preferred") and _TIER_ZH.match(value):
        return "a membership tier, not a name"
    if key.startswith("rule.") and _POINTER_RULE_ZH.match(value):
        return "a pointer back to the request before it, not an instruction of its own"
    if key.startswith("rule.") and _NOT_AN_INSTRUCTION.match(value):
        return "someone's demand of the user or the user's promise, not an instruction"
    return None
