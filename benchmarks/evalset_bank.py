"""Phrase banks of the evaluation set (``evalset.py``): slots, templates, probes, routine talk.

Templates use ``{v}`` (the value as said), ``{V}`` (capitalised), ``{old}`` (the value
being corrected) and ``{k}`` (an amount in thousands). A template pool is a mapping
``value -> [templates]``; ``"*"`` serves every value. Template kinds: ``declare`` (plain
statement), ``change`` (a deliberate change: "actually ...", "from now on ..."), ``flip``
(a contradicting plain statement, no correction marker), ``correct`` (fixes the turn
before), ``implicit`` (a one-off behavioural cue), ``joke``, ``distract`` (hypothetical,
someone else, a question), ``negate`` (takes it back), ``add`` (one more value).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["BANKS", "NAMES", "ROUTINE", "Bank", "Slot"]

Pool = Mapping[str, list[str]]


@dataclass(frozen=True)
class Slot:
    """One memory slot of the story: key, context, canonical values and how they are said."""

    key: str
    context: str
    values: list[str]
    surfaces: Mapping[str, list[str]]
    templates: Mapping[str, Pool]
    probes: list[str]

    def surface(self, value: str, rng: random.Random) -> str:
        forms = self.surfaces.get(value)
        return rng.choice(forms) if forms else value


@dataclass(frozen=True)
class Bank:
    """Everything one language needs."""

    slots: Mapping[str, Slot]
    retract: list[str]
    ack: str
    canary_text: Mapping[str, str] = field(default_factory=dict)


def _all(*templates: str) -> Pool:
    return {"*": list(templates)}


_EN_AMOUNTS = ["3000", "5000", "8000", "10000", "15000", "20000", "30000"]
_ZH_AMOUNTS = {
    "3000": ["三千", "3000"],
    "5000": ["五千", "5000"],
    "8000": ["八千", "8000"],
    "10000": ["一万", "10000"],
    "15000": ["一万五", "15000"],
    "20000": ["两万", "20000"],
    "30000": ["三万", "30000"],
}

EN = Bank(
    ack="Noted, thank you.",
    retract=["Never mind.", "Never mind, forget I said that.", "Scratch that."],
    canary_text={"support": "My order number is {c}.", "health": "My pharmacy reference is {c}."},
    slots={
        s.key: s
        for s in [
            Slot(
                "name",
                "support",
                [],
                {},
                {
                    "declare": _all("My name is {V}.", "Hi, I'm {V}."),
                },
                [
                    "What should I call you?",
                    "Do you remember my name?",
                    "Who am I talking to again?",
                ],
            ),
            Slot(
                "contact.channel",
                "support",
                ["sms", "email", "whatsapp"],
                {"sms": ["SMS", "text"], "email": ["email"], "whatsapp": ["WhatsApp"]},
                {
                    "declare": {
                        "sms": [
                            "I only accept SMS notifications.",
                            "SMS only, please.",
                            "Please contact me by text from now on.",
                        ],
                        "*": [
                            "I only accept {v} notifications.",
                            "Please contact me by {v} from now on.",
                            "Reach me on {v} only.",
                        ],
                    },
                    "flip": _all("{V} is best for me.", "I prefer {v}."),
                    "change": _all(
                        "Actually, I prefer {v} now.",
                        "Actually, please contact me by {v} from now on.",
                    ),
                    "correct": _all(
                        "Sorry, I meant {v}, not {old}.", "Sorry, I got it wrong: I prefer {v}."
                    ),
                    "implicit": {
                        "sms": [
                            "Can you text me the code this time?",
                            "Just text me the tracking link again.",
                        ],
                        "email": [
                            "Can you email me the invoice this time?",
                            "Email me the receipt again.",
                        ],
                        "whatsapp": [
                            "WhatsApp me the receipt this time.",
                            "Just WhatsApp me the link again.",
                        ],
                    },
                    "joke": _all("Reach me by {v} only, just kidding."),
                    "distract": _all(
                        "Do I get {v} notifications?",
                        "What if I only wanted {v} alerts?",
                        "My wife only accepts {v} notifications.",
                    ),
                    "negate": _all("Please forget my notification preferences."),
                },
                [
                    "How should we notify you about the outage?",
                    "What's the best way to reach you with updates?",
                    "like last time, don't ring me, just message me",
                    "Which channel should I use for your alerts?",
                ],
            ),
            Slot(
                "contact.call",
                "support",
                ["never", "allowed"],
                {},
                {
                    "declare": {
                        "never": [
                            "Never call me.",
                            "Please don't ever call me.",
                            "I don't take phone calls.",
                        ],
                        "allowed": ["You can call me, that's fine.", "Feel free to call me."],
                    },
                    "change": {
                        "never": [
                            "Actually, please don't call me anymore.",
                            "From now on, never call me.",
                        ],
                        "allowed": [
                            "Actually, you can call me now.",
                            "Actually, from now on you can call me.",
                        ],
                    },
                    "flip": {
                        "never": ["Don't call me.", "No phone calls."],
                        "allowed": ["Calling me is fine.", "You may call me."],
                    },
                    "distract": {
                        "never": ["My husband never wants phone calls."],
                        "allowed": ["What if you called me?"],
                    },
                },
                [
                    "Is it ok to phone you about the installation?",
                    "Can the technician ring you before the visit?",
                    "Should we give you a call when the engineer is on the way?",
                ],
            ),
            Slot(
                "budget.max",
                "support",
                _EN_AMOUNTS,
                {a: [a, f"{int(a):,}"] for a in _EN_AMOUNTS},
                {
                    "declare": _all(
                        "My budget is {v}.",
                        "I can spend up to {v} dollars on this.",
                        "My budget is around {k}k.",
                    ),
                    "change": _all(
                        "Actually, my budget is at most {v} now.",
                        "Actually, I can spend up to {v} now.",
                    ),
                    "flip": _all("My budget is {v}.", "I can spend {v}."),
                    "correct": _all(
                        "Sorry, I meant {v}, not {old}.", "Sorry, my mistake: my budget is {v}."
                    ),
                    "joke": _all("My budget is {v}, haha just kidding."),
                    "distract": _all("What if my budget was {v}?", "My brother's budget is {v}."),
                    "negate": _all(
                        "Forget my budget.", "Please forget my budget, I have none now."
                    ),
                },
                [
                    "Which plan fits what I can afford?",
                    "How much am I willing to pay for the upgrade?",
                    "Recommend a plan within my price range.",
                ],
            ),
            Slot(
                "language",
                "support",
                ["english", "spanish", "french", "german"],
                {v: [v.capitalize()] for v in ["english", "spanish", "french", "german"]},
                {
                    "declare": _all(
                        "Please reply in {V}.",
                        "I only read {V}.",
                        "Can you answer in {V} from now on?",
                    ),
                    "change": _all("Actually, please reply in {V} from now on."),
                    "flip": _all("Reply in {V}.", "I prefer {V}."),
                    "distract": _all("My colleague prefers replies in {V}.", "Do you speak {V}?"),
                },
                [
                    "Which language should my replies be in?",
                    "Write the summary in the language I asked for.",
                    "What language do I want you to use?",
                ],
            ),
            Slot(
                "location.city",
                "support",
                ["berlin", "lisbon", "toronto", "madrid", "dublin", "chicago"],
                {
                    v: [v.capitalize()]
                    for v in ["berlin", "lisbon", "toronto", "madrid", "dublin", "chicago"]
                },
                {
                    "declare": _all("I live in {V}.", "I'm based in {V}."),
                    "change": _all("I just moved to {V}.", "I've relocated to {V}."),
                    "flip": _all("I live in {V}.", "I'm in {V}."),
                    "distract": _all("What if I moved to {V}?", "My sister lives in {V}."),
                    "joke": _all("I live in {V}, just kidding."),
                },
                [
                    "Is there an outage in my city?",
                    "Which city am I in?",
                    "Where do I live these days?",
                ],
            ),
            Slot(
                "recommend.credit_cards",
                "support",
                ["never"],
                {},
                {
                    "declare": _all(
                        "Please don't ever recommend credit cards to me.",
                        "Never suggest credit cards to me.",
                    ),
                    "change": _all("Please don't ever recommend credit cards to me."),
                    "distract": _all("I've been looking at credit cards lately."),
                },
                [
                    "Any credit card offers you'd suggest for me?",
                    "Should I pitch our new card to this customer?",
                ],
            ),
            Slot(
                "allergy.medication",
                "health",
                ["penicillin", "amoxicillin", "aspirin", "ibuprofen", "codeine"],
                {},
                {
                    "declare": _all(
                        "I'm allergic to {v}.", "For the pharmacy: I'm allergic to {v}."
                    ),
                    "change": _all("Sorry, I got it wrong: I'm allergic to {v}, not {old}."),
                    "correct": _all(
                        "Sorry, I got it wrong: I'm allergic to {v}, not {old}.",
                        "Correction: it's {v}, not {old}.",
                    ),
                    "add": _all("I'm also allergic to {v}."),
                    "distract": _all("My wife is allergic to {v}.", "Am I allergic to {v}?"),
                    "negate": _all("I'm not allergic to {v} anymore."),
                },
                [
                    "Which medicines should the pharmacist avoid giving me?",
                    "Anything I react badly to if you prescribe antibiotics?",
                    "Do I have any drug allergies?",
                ],
            ),
            Slot(
                "diet",
                "health",
                ["vegetarian", "vegan", "halal", "pescatarian"],
                {},
                {
                    "declare": {
                        "vegetarian": ["I'm vegetarian.", "I don't eat meat."],
                        "vegan": ["I'm vegan.", "I follow a vegan diet."],
                        "halal": ["I only eat halal food.", "I keep halal."],
                        "pescatarian": ["I'm pescatarian."],
                    },
                    "change": _all("Actually, I'm {v} now."),
                    "joke": _all("I'm {v}, just kidding."),
                    "distract": _all("My daughter is {v}.", "What if I went {v}?"),
                    "negate": {
                        "vegetarian": ["I'm no longer vegetarian."],
                        "vegan": ["I'm no longer vegan."],
                        "pescatarian": ["I'm not pescatarian anymore."],
                        "halal": ["I don't keep halal anymore."],
                    },
                },
                [
                    "What meals can you plan for me?",
                    "Any food restrictions I have?",
                    "What should I eat on the meal plan?",
                ],
            ),
            Slot(
                "health.condition",
                "health",
                ["diabetes", "asthma", "hypertension", "migraine"],
                {
                    "diabetes": ["diabetes"],
                    "asthma": ["asthma"],
                    "hypertension": ["high blood pressure"],
                    "migraine": ["migraines"],
                },
                {
                    "declare": _all("I have {v}.", "I was diagnosed with {v}."),
                    "change": _all("Actually, it's {v}, I was diagnosed with {v}."),
                    "distract": _all("My father has {v}.", "Do I have {v}?"),
                    "negate": _all("I no longer have {v}."),
                },
                [
                    "What conditions should the doctor know about?",
                    "Do I have any chronic illness?",
                    "Anything about my health to keep in mind?",
                ],
            ),
        ]
    },
)

ZH = Bank(
    ack="好的，已记录。",
    retract=["算了，当我没说。", "算了。", "收回刚才那句。"],
    canary_text={"support": "我的订单号是{c}。", "health": "我的处方编号是{c}。"},
    slots={
        s.key: s
        for s in [
            Slot(
                "name",
                "support",
                [],
                {},
                {"declare": _all("我叫{v}。", "我的名字叫{v}。")},
                ["我叫什么名字？", "你还记得我的名字吗？", "怎么称呼我？"],
            ),
            Slot(
                "contact.channel",
                "support",
                ["sms", "email", "wechat"],
                {"sms": ["短信"], "email": ["邮件"], "wechat": ["微信"]},
                {
                    "declare": _all("我只接受{v}通知。", "以后请用{v}联系我。"),
                    "flip": _all("{v}最好。", "我喜欢用{v}。"),
                    "change": _all("其实我更喜欢用{v}联系。", "不对，以后请用{v}联系我。"),
                    "correct": _all("我说错了，是{v}，不是{old}。"),
                    "implicit": _all("这次给我发{v}吧。", "还是给我发{v}吧。"),
                    "joke": _all("以后只用{v}联系我，开玩笑的。"),
                    "distract": _all(
                        "我老婆只接受{v}通知。", "如果只用{v}通知我呢？", "我是不是只收{v}？"
                    ),
                    "negate": _all("删除我的联系方式。"),
                },
                [
                    "停电的消息怎么通知你？",
                    "我们该怎么联系你？",
                    "还是像上次那样联系我",
                    "有更新时用什么方式告诉你？",
                ],
            ),
            Slot(
                "contact.call",
                "support",
                ["never", "allowed"],
                {},
                {
                    "declare": {
                        "never": ["不要给我打电话。", "别打电话给我。", "永远不要给我打电话。"],
                        "allowed": ["你可以给我打电话。", "打电话也可以。"],
                    },
                    "change": {
                        "never": ["其实以后不要再给我打电话了。"],
                        "allowed": ["其实以后可以给我打电话。"],
                    },
                    "flip": {"never": ["别给我打电话。"], "allowed": ["打电话没问题。"]},
                    "distract": {"never": ["我老公不接电话。"], "allowed": ["如果给我打电话呢？"]},
                },
                [
                    "装宽带的时候可以打电话给你吗？",
                    "师傅上门前能给你来电吗？",
                    "我们可以电话联系你吗？",
                ],
            ),
            Slot(
                "budget.max",
                "support",
                list(_ZH_AMOUNTS),
                _ZH_AMOUNTS,
                {
                    "declare": _all("我的预算是{v}。", "预算不超过{v}元。", "我最多花{v}块。"),
                    "change": _all("其实我的预算最多{v}。", "不对，预算改成{v}。"),
                    "flip": _all("我的预算是{v}。"),
                    "correct": _all("我说错了，预算是{v}，不是{old}。"),
                    "joke": _all("我的预算是{v}，开玩笑的。"),
                    "distract": _all("如果我的预算是{v}呢？", "我哥哥的预算是{v}。"),
                    "negate": _all("删除我的预算。"),
                },
                [
                    "我能接受的价格是多少？",
                    "按我能花的钱推荐一个套餐。",
                    "升级的话我最多能出多少钱？",
                ],
            ),
            Slot(
                "language",
                "support",
                ["chinese", "english", "japanese"],
                {"chinese": ["中文"], "english": ["英文"], "japanese": ["日语"]},
                {
                    "declare": _all("请用{v}回复我。", "以后用{v}回复我。"),
                    "change": _all("其实以后请用{v}回复我。"),
                    "flip": _all("用{v}回复。"),
                    "distract": _all("我同事喜欢用{v}。", "你会说{v}吗？"),
                },
                ["回复我要用哪种语言？", "我希望你用什么语言？", "总结用我要求的语言写。"],
            ),
            Slot(
                "location.city",
                "support",
                ["shanghai", "hangzhou", "chengdu", "beijing", "shenzhen"],
                {
                    "shanghai": ["上海"],
                    "hangzhou": ["杭州"],
                    "chengdu": ["成都"],
                    "beijing": ["北京"],
                    "shenzhen": ["深圳"],
                },
                {
                    "declare": _all("我住在{v}。", "我在{v}住。"),
                    "change": _all("我搬到{v}了。", "我最近搬到{v}了。"),
                    "flip": _all("我住在{v}。"),
                    "distract": _all("如果我搬到{v}呢？", "我妹妹住在{v}。"),
                    "joke": _all("我住在{v}，开玩笑的。"),
                },
                ["我这边有停电吗？", "我住在哪个城市？", "我现在住哪里？"],
            ),
            Slot(
                "recommend.信用卡",
                "support",
                ["never"],
                {},
                {
                    "declare": _all("永远不要给我推荐信用卡。", "别再给我推荐信用卡了。"),
                    "change": _all("永远不要给我推荐信用卡。"),
                    "distract": _all("我最近在看信用卡。"),
                },
                ["有什么信用卡可以推荐给我吗？", "要不要给这位客户推销新的信用卡？"],
            ),
            Slot(
                "allergy.medication",
                "health",
                ["penicillin", "amoxicillin", "aspirin", "ibuprofen"],
                {
                    "penicillin": ["青霉素"],
                    "amoxicillin": ["阿莫西林"],
                    "aspirin": ["阿司匹林"],
                    "ibuprofen": ["布洛芬"],
                },
                {
                    "declare": _all("我对{v}过敏。", "我有{v}过敏。"),
                    "change": _all("不对，我是对{v}过敏，不是{old}。"),
                    "correct": _all(
                        "不对，我是对{v}过敏，不是{old}。", "我说错了，是{v}，不是{old}。"
                    ),
                    "add": _all("我对{v}也过敏。"),
                    "distract": _all("我老婆对{v}过敏。", "我对{v}过敏吗？"),
                    "negate": _all("我不再对{v}过敏了。"),
                },
                ["给我开药要注意什么？", "我对什么药过敏？", "药剂师给我拿药时要避开哪些？"],
            ),
            Slot(
                "diet",
                "health",
                ["vegetarian", "halal", "vegan"],
                {"vegetarian": ["吃素", "素食"], "halal": ["清真"], "vegan": ["纯素"]},
                {
                    "declare": {
                        "vegetarian": ["我吃素。", "我是素食主义者。"],
                        "halal": ["我只吃清真。"],
                        "vegan": ["我吃纯素。"],
                    },
                    "change": {
                        "vegetarian": ["其实我现在吃素。"],
                        "halal": ["其实我现在只吃清真。"],
                        "vegan": ["其实我现在吃纯素。"],
                    },
                    "joke": {"*": ["我是素食主义者，开玩笑的。"]},
                    "distract": {"*": ["我女儿吃素。", "如果我吃素呢？"]},
                    "negate": {"vegetarian": ["我不再吃素了。"], "*": ["我已经不吃{v}了。"]},
                },
                ["帮我安排一下餐食。", "我的饮食有什么要求？", "我有什么忌口？"],
            ),
            Slot(
                "health.condition",
                "health",
                ["diabetes", "asthma", "hypertension"],
                {"diabetes": ["糖尿病"], "asthma": ["哮喘"], "hypertension": ["高血压"]},
                {
                    "declare": _all("我有{v}。", "我患有{v}。"),
                    "distract": _all("我爸爸有{v}。", "我有{v}吗？"),
                    "negate": _all("我没有{v}了。"),
                },
                ["医生需要知道我有什么病吗？", "我有什么慢性病？", "我的健康状况要注意什么？"],
            ),
        ]
    },
)

BANKS: Mapping[str, Bank] = {"en": EN, "zh": ZH}

NAMES: Mapping[str, list[str]] = {
    "en": [
        f"{a} {b}"
        for a, b in zip(
            [
                "Marisol",
                "Tobias",
                "Ingrid",
                "Desmond",
                "Priya",
                "Oskar",
                "Leonie",
                "Rafael",
                "Ayumi",
                "Cormac",
                "Beatrix",
                "Dmitri",
                "Saoirse",
                "Emeka",
                "Henrike",
                "Jovan",
                "Katalin",
                "Lucian",
                "Mireille",
                "Nikolai",
            ]
            * 3,
            [
                "Okafor",
                "Lindqvist",
                "Abernathy",
                "Castellanos",
                "Vukovic",
                "Halloran",
                "Szabo",
                "Moreau",
                "Takahashi",
                "Oyelaran",
                "Kowalczyk",
                "Ferreira",
                "Brannigan",
                "Achterberg",
                "Quispe",
                "Rasmussen",
                "Delacroix",
                "Yilmaz",
                "Petrenko",
                "Galloway",
                "Zimmerman",
                "Nakashima",
                "Obradovic",
                "Thorvaldsen",
                "Esposito",
                "Mbeki",
                "Lindgren",
                "Carvalho",
                "Haddad",
                "Novak",
                "Ostrowski",
                "Fairbanks",
                "Ventura",
                "Kalinin",
                "Sorensen",
                "Montague",
                "Iwasaki",
                "Drummond",
                "Ilunga",
                "Whitcombe",
                "Arkwright",
                "Bellamy",
                "Cardenas",
                "Dunleavy",
                "Eriksen",
                "Fontaine",
                "Grimaldi",
                "Hargreaves",
                "Ivanova",
                "Jablonski",
                "Kirkpatrick",
                "Lachance",
                "Mandelbaum",
                "Nordstrom",
                "Ortega",
                "Pemberton",
                "Quinlan",
                "Rutherford",
                "Salazar",
                "Tennyson",
            ],
            strict=False,
        )
    ],
    "zh": [
        "王芳华",
        "李建国",
        "张晓梅",
        "刘德明",
        "陈思远",
        "杨丽娟",
        "赵志强",
        "黄雅琴",
        "周文博",
        "吴秀英",
        "徐海涛",
        "孙佳怡",
        "马俊杰",
        "朱慧敏",
        "胡国栋",
        "郭静怡",
        "何振华",
        "林晓燕",
        "罗宏伟",
        "高雪梅",
        "梁家豪",
        "宋雨桐",
        "郑凯文",
        "谢婉清",
        "韩立新",
        "唐诗雨",
        "冯子健",
        "于美玲",
        "董浩然",
        "萧若兰",
    ],
}

ROUTINE: Mapping[str, Mapping[str, list[tuple[str, str]]]] = {
    "en": {
        "support": [
            (
                "My router keeps dropping the connection every evening.",
                "Let's reset it: hold the button 10 s.",
            ),
            ("Can I get a copy of last month's invoice?", "Sent to your account inbox."),
            ("My parcel has not arrived yet.", "It is delayed at the depot, 2 more days."),
            ("How do I reset my password?", "Use 'forgot password' on the login page."),
            ("The app crashes when I open settings.", "Please update to version 4.2."),
            ("Is there an outage in the area right now?", "No outage reported right now."),
            ("I want to change my billing date.", "Done: billing moves to the 5th."),
            ("What does the premium plan include?", "Faster support and 2 TB of storage."),
            ("My speed test shows 20 Mbps instead of 100.", "I've refreshed your line profile."),
            ("Can you explain this extra fee?", "It is the one-off activation fee."),
            ("The TV box shows error 304.", "A restart of the box clears that error."),
            ("How long is the contract minimum term?", "Twelve months from activation."),
            ("Wi-Fi is slow in the bedroom.", "A mesh extender would help there."),
            ("Where can I download the user manual?", "It is under Help > Documents."),
        ],
        "health": [
            ("I need to refill my prescription.", "The refill is ready for pickup tomorrow."),
            ("Can I book a check-up next week?", "Tuesday at 10:00 is available."),
            ("My blood test results came in, can you explain them?", "Everything is within range."),
            ("How often should I take the vitamin D?", "Once a day with a meal."),
            (
                "I have a mild headache since yesterday.",
                "Rest, fluids, and tell us if it persists.",
            ),
            ("Is the clinic open on Saturday?", "Yes, from 9 to 13."),
            ("Can I get my vaccination record?", "It is in your patient portal."),
            ("I twisted my ankle jogging.", "Ice it and keep it raised for a day."),
        ],
    },
    "zh": {
        "support": [
            ("我的路由器每天晚上都掉线。", "请按住重置键十秒。"),
            ("能给我上个月的账单吗？", "已发到您的账户消息里。"),
            ("我的快递还没到。", "在中转站延误了，还要两天。"),
            ("怎么重置密码？", "在登录页点击忘记密码。"),
            ("打开设置时应用闪退。", "请更新到4.2版本。"),
            ("现在这一片有停电吗？", "目前没有停电报告。"),
            ("我想改一下扣费日期。", "已改到每月5号。"),
            ("高级套餐包含什么？", "更快的客服和2TB存储。"),
            ("测速只有20兆，不是100兆。", "已为您刷新线路配置。"),
            ("这笔额外费用是什么？", "是一次性的开通费。"),
            ("机顶盒显示错误304。", "重启机顶盒就可以。"),
            ("合同最短期限是多久？", "开通后十二个月。"),
        ],
        "health": [
            ("我要续开处方药。", "明天可以来取。"),
            ("下周能预约体检吗？", "周二上午十点有空。"),
            ("验血结果出来了，能解释一下吗？", "各项指标都正常。"),
            ("维生素D多久吃一次？", "每天一次，饭后吃。"),
            ("我从昨天开始有点头疼。", "多休息多喝水，持续的话告诉我们。"),
            ("诊所周六开门吗？", "开，九点到一点。"),
            ("我跑步扭到脚踝了。", "先冰敷，抬高休息一天。"),
        ],
    },
}
