"""The key taxonomy: every memory key the library knows, as data.

One row per key (or key family) gives its kind, value type, hard/soft default, whether
it is sensitive (kept in its own ``system_context`` by callers that route health data),
its display labels in English and Chinese, and the English and Chinese words a query
uses for it. This table is the single source for

* the query rewriter's structured key lookup (:func:`query_synonyms`),
* the labels ``context()`` shows next to a key (:func:`label`: "Preferred contact
  channel" rather than ``contact.channel``),
* the LLM extraction schema and prompt (:func:`llm_schema`, :mod:`shared_core.llm`),
* the rule extractor's default kind per key (:func:`kind_of`).

Adding a key is adding a row to :data:`_TABLE`; every consumer picks it up.

A row whose key ends in ``.`` is a *family*: ``taste.`` covers ``taste.jazz``,
``recommend.`` covers ``recommend.credit_cards``; its label is followed by the slug
("Likes and dislikes: jazz"). A key without its own row is labelled by its longest
described prefix ("allergy.medication.ibuprofen" -> "Medication allergy: ibuprofen").

Example:
    >>> from shared_core.taxonomy import label, spec
    >>> label("contact.channel")
    'Preferred contact channel'
    >>> label("contact.channel", "zh")
    '首选联系方式'
    >>> label("taste.jazz")
    'Likes and dislikes: jazz'
    >>> spec("allergy.medication.ibuprofen").key
    'allergy.medication'
"""

# ruff: noqa: E501  (the key table below is data: one row a line reads best)
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from .entities import Kind

__all__ = [
    "KEYS",
    "KEY_ALIASES",
    "KeySpec",
    "canonical",
    "kind_of",
    "label",
    "llm_schema",
    "query_synonyms",
    "spec",
]


@dataclass(frozen=True, slots=True)
class KeySpec:
    """One key (or key family, ``key`` ending in ``.``) of the taxonomy.

    Attributes:
        key: the dotted key ("contact.channel") or family prefix ("taste.").
        kind: the default kind of a memory under it.
        value_type: ``text``, ``enum``, ``amount``, ``time_range``, ``language``, ``city``,
            ``name``, ``date``, ``int``, ``list``, ``instruction``, ``note`` ...
        hard: a hard constraint by default (must be obeyed, not weighed).
        sensitive: health-like data an application may keep in its own system_context.
        label_en / label_zh: what ``context()`` shows for the key.
        values: the allowed values of an ``enum``.
        describe: one line for the LLM schema ("how the user wants to be contacted").
        words_en / words_zh: query words that mean the key (for the key lookup at recall).
        group: extra query words shared with other rows are listed on each row.
    """

    key: str
    kind: Kind
    value_type: str
    hard: bool
    sensitive: bool
    label_en: str
    label_zh: str
    values: tuple[str, ...]
    describe: str
    words_en: tuple[str, ...]
    words_zh: tuple[str, ...]

    @property
    def family(self) -> bool:
        """Whether the row covers ``<key><slug>`` keys rather than one key."""
        return self.key.endswith(".")


_KINDS = {k.value: k for k in Kind}

# key | kind | type | flags (h = hard, s = sensitive) | label EN | label ZH | values (enum,
# space-separated) | description | query words EN (comma-separated) | query words ZH
_TABLE = """
contact. | preference | text | - | Contact | 联系方式 | - | how and when the user may be contacted | call, calls, calling, phone, ring, text, texts, sms, message, email, e-mail, mail, notify, notification, notifications, contact, reach, whatsapp, wechat, telegram, alert, alerts, which channel, what channel, preferred channel, how to reach, how should you contact, emergency | 紧急, 电话, 打电话, 来电, 短信, 发短信, 通知, 联系, 邮件, 微信, 提醒我, 什么方式, 哪种方式, 怎么联系, 怎么通知
contact.channel | preference | enum | - | Preferred contact channel | 首选联系方式 | sms email phone whatsapp wechat telegram signal line messenger imessage push mail post | the channel the user wants to be contacted on | how to reach, how should you contact | 什么方式, 哪种方式, 怎么联系, 怎么通知
contact.call | constraint | enum | h | Phone calls | 电话联系 | never allowed | whether phone calls are acceptable at all | - | -
contact.call.emergency | constraint | enum | - | Phone calls in an emergency | 紧急情况下的电话 | allowed | an exception to contact.call for emergencies | emergency | 紧急
contact.quiet_hours | constraint | time_range | h | Quiet hours (do not contact) | 免打扰时间 | - | hours during which the user must not be contacted, e.g. 'after 21:00' | disturb, quiet | 打扰
allergy | fact | list | hs | Allergies | 过敏 | - | anything the user is allergic to | allergy, allergies, allergic, health | 过敏, 健康
allergy.medication | fact | list | hs | Medication allergy | 药物过敏 | - | drugs the user is allergic to or reacts badly to | medication, medications, medicine, medicines, prescribe, prescription, prescriptions, pharmacist, pharmacy, drug, drugs, antibiotic, antibiotics | 药, 药物, 开药, 药房, 抗生素
allergy.food | fact | list | hs | Food allergy | 食物过敏 | - | foods the user is allergic to | food, eat, meal, meals, dietary | 吃, 餐食, 吃饭, 忌口, 饮食
health. | fact | text | s | Health | 健康 | - | the user's health | health, medication, medications, medicine, medicines, prescribe, prescription, prescriptions, pharmacist, pharmacy, condition, conditions, illness, illnesses, sick, disease | 健康, 药, 药物, 开药, 药房, 病, 疾病, 病史
health.condition | fact | list | s | Health condition | 健康状况 | - | chronic or long-term conditions (diabetes, asthma) | - | -
intolerance | constraint | list | hs | Food intolerance | 食物不耐受 | - | food intolerances (not allergies): the substance, e.g. lactose | intolerance, intolerant, lactose | 不耐受, 乳糖
pet.species | fact | list | - | Pets | 宠物 | - | kinds of pets the user has (dog, cat ...) | pet, pets, dog, cat | 宠物, 狗, 猫
diet | preference | enum | h | Diet | 饮食 | vegetarian vegan pescatarian halal kosher keto low_carb low_sodium low_sugar paleo gluten-free lactose-free | the user's diet | food, eat, meal, meals, dietary, diet, vegetarian | 吃, 餐食, 吃饭, 忌口, 饮食, 素食
budget. | preference | amount | - | Budget | 预算 | - | spending limits | budget, cost, expensive, cheap, pay, afford, spend, price, prices, money | 钱, 能花, 花多少, 花钱, 可以花, 预算, 价格, 多少钱, 贵, 便宜
budget.max | preference | amount | - | Maximum budget | 预算上限 | - | the most the user will spend, a plain number | - | -
budget.min | preference | amount | - | Minimum budget | 预算下限 | - | the least the user will spend, a plain number | - | -
location. | fact | text | - | Location | 位置 | - | where the user lives | weather, outage, outages, nearby, local, live, where, address | 停电, 天气, 附近, 本地, 住, 哪里
location.city | fact | city | - | City | 城市 | - | the city the user lives in now | city | 城市
location.city.previous | fact | city | - | Previous city | 之前的城市 | - | the city the user lived in before (from 'moved to X from Y') | - | -
location.country | fact | text | - | Country | 国家 | - | the country the user lives in | country | -
location.address | fact | text | - | Address | 地址 | - | the user's postal address | address, ship, deliver, delivery | 地址, 住址, 送货, 快递
name | fact | name | - | Name | 姓名 | - | the user's name | my name, my full name, my first name, my last name, my surname, you call me, to call me, call you, call me by, address you, address me, who am i, what am i called | 我的名字, 我名字, 我叫什么, 我叫啥, 我是谁, 称呼我, 怎么称呼, 我的姓名, 我姓什么, 叫我
name.preferred | preference | name | - | Preferred name | 称呼 | - | what the user wants to be called | - | -
language | preference | language | - | Reply language | 回复语言 | - | the language the user wants replies in | language, reply | 语言, 回复
industry | fact | text | - | Industry | 行业 | - | the sector the user works in | industry, business, company, work | 行业, 公司, 工作
job. | fact | text | - | Work | 工作 | - | the user's occupation | job, occupation, profession, work | 职业, 工作
job.title | fact | text | - | Occupation | 职业 | - | occupation as a role noun ('nurse') | - | -
family. | relationship | name | - | Family | 家人 | - | family members by relation (family.wife = the name) | family | 家人
family.wife | relationship | name | - | Wife | 妻子 | - | - | wife | 老婆, 妻子
family.husband | relationship | name | - | Husband | 丈夫 | - | - | husband | 老公
family.son | relationship | name | - | Son | 儿子 | - | - | son, kids, children | 儿子, 孩子
family.daughter | relationship | name | - | Daughter | 女儿 | - | - | daughter, kids, children | 女儿, 孩子
device. | relationship | text | - | Device | 设备 | - | devices the user owns (device.<id> = owner) | device | 设备
seat | preference | enum | - | Seat preference | 座位偏好 | window aisle middle exit-row | seat preference on flights and trains | seat | 座位
timezone | fact | text | - | Time zone | 时区 | - | the user's time zone | timezone | 时区
taste. | preference | enum | - | Likes and dislikes | 喜好 | like dislike | taste.<item> = like or dislike | like, likes, favorite, favourite, music, interest, food, eat, meal, meals, recommend, recommendation, recommendations, suggest | 喜欢, 爱好, 兴趣, 推荐, 吃, 餐食, 吃饭
interest. | preference | text | - | Interested in | 感兴趣 | interested | interest.<topic> = interested (always implicit) | interest, interested, recommend, recommendation, recommendations, suggest, offer | 兴趣, 爱好, 推荐
recommend. | constraint | enum | h | Do not recommend | 不要推荐 | never | recommend.<topic> = never: topics the user does not want suggested | recommend, recommendation, recommendations, suggest, offer | 推荐, 推销
rule. | constraint | instruction | h | Standing instruction | 长期指令 | - | rule.<slug> = an always/never instruction in the user's words | rule | 规则
event. | event | text | - | Event | 事件 | - | event.<slug> = what happened and its date ('surgery on 2026-04-10') | happened, last time | 上次
response. | preference | text | - | Answer style | 回答风格 | - | how the user wants answers | - | -
response.length | preference | enum | - | Answer length | 回答长度 | short medium long | answer length | answer length, length | 简短, 长度
response.tone | preference | enum | - | Answer tone | 回答语气 | casual formal friendly direct professional encouraging | answer tone | tone, formal, casual | 语气, 正式
response.format | preference | enum | - | Answer format | 回答格式 | bullets prose table numbered_steps plain_text code_only summary_first | answer layout | format, bullets, bullet points | 格式
allergy.other | fact | list | hs | Other allergy | 其他过敏 | - | non-food, non-drug allergens: pollen, dust, animals, latex, insect stings | pollen, dust, latex | 花粉, 尘螨
medication | fact | list | s | Medication | 用药 | - | drugs the user takes regularly (name only, no dose) | medication, medications, medicine, pills, taking | 药, 用药, 吃药
diet.avoid | constraint | list | h | Does not eat | 不吃 | - | foods or drinks the user does not consume for non-medical reasons (religion, ethics, choice) | eat, food, drink | 不吃, 忌口
food. | preference | list | - | Food | 饮食喜好 | - | food.like.<item> / food.dislike.<item>: foods the user likes or dislikes (the rules store these as taste.<item>) | food, eat, cuisine, dish | 吃, 菜
pronouns | preference | enum | - | Pronouns | 人称代词 | he/him she/her they/them he/they she/they | the user's pronouns | pronoun, pronouns | 代词, 称呼
age | fact | int | - | Age | 年龄 | - | age in years when said | age, old | 年龄, 岁
birthday | fact | date | - | Birthday | 生日 | - | MM-DD, or YYYY-MM-DD when the year is stated | birthday, born | 生日, 出生
language.spoken | fact | list | - | Languages spoken | 会说的语言 | - | ISO 639-1 codes of the languages the user speaks | speak, languages | 会说, 母语
currency | preference | text | - | Currency | 货币 | - | currency prices are shown in (ISO 4217) | currency | 货币, 币种
units.system | preference | enum | - | Units | 单位制 | metric imperial | measurement system | units, metric, imperial | 单位
units.temperature | preference | enum | - | Temperature scale | 温度单位 | celsius fahrenheit | temperature scale | temperature | 温度
units.time_format | preference | enum | - | Clock format | 时间格式 | 12h 24h | 12- or 24-hour clock | clock | 小时制
payment.method | preference | list | - | Payment method | 支付方式 | credit_card debit_card paypal apple_pay google_pay alipay wechat_pay cash bank_transfer venmo zelle klarna revolut unionpay invoice | payment methods or apps the user uses | pay, payment, checkout | 支付, 付款, 付钱
payment.avoid | constraint | list | - | Payment methods refused | 不用的支付方式 | credit_card debit_card paypal apple_pay google_pay alipay wechat_pay cash bank_transfer venmo zelle klarna revolut unionpay invoice | payment methods the user refuses | - | -
location.moving_to | fact | city | - | Moving to | 即将搬往 | - | the city the user has a definite plan to move to | moving | 搬
job.employer | fact | name | - | Employer | 雇主 | - | the employer's name | employer, company, work | 公司, 单位
job.status | fact | enum | - | Employment status | 就业状态 | employed self_employed unemployed student retired | employment status | job, work | 工作
relationship.status | fact | enum | - | Relationship status | 婚恋状况 | single married partnered engaged divorced widowed | the user's relationship status | married, single | 婚, 单身
family.children | relationship | int | - | Number of children | 孩子数量 | - | number of children, only when stated | kids, children | 孩子
pet.names | fact | list | - | Pet names | 宠物名字 | - | names of the user's pets | pet | 宠物
travel.class | preference | enum | - | Cabin class | 舱位 | economy premium_economy business first | cabin class on flights | flight, fly, class | 舱
travel.airline | preference | name | - | Preferred airline | 首选航空公司 | - | the airline the user prefers | airline, fly, flight | 航空, 航班
travel.airline.avoid | constraint | list | h | Airlines to avoid | 不坐的航空公司 | - | airlines the user refuses to fly | airline | 航空
travel.loyalty | fact | list | - | Loyalty programme | 会员计划 | - | loyalty / frequent-flyer / hotel programmes, by name | loyalty, miles, member | 会员, 里程
hotel.chain | preference | name | - | Preferred hotel chain | 首选酒店 | - | the hotel chain the user prefers | hotel | 酒店
hotel.room | preference | list | - | Hotel room | 酒店房间 | non_smoking high_floor low_floor quiet king_bed twin_beds accessible away_from_elevator | hotel room requirements | room, hotel | 房间, 酒店
accessibility | constraint | list | h | Accessibility | 无障碍需求 | screen_reader large_text high_contrast captions colorblind_safe dyslexia_friendly plain_language keyboard_only reduced_motion no_audio | accessibility needs | accessibility, font, captions | 字体, 字幕
response.style | preference | enum | - | Explanation level | 讲解方式 | simple technical with_examples | level of explanation | explain, technical | 解释, 例子
response.emoji | preference | bool | - | Emojis in answers | 表情符号 | true false | whether emojis are welcome | emoji | 表情
contact.email | fact | text | s | E-mail address | 邮箱地址 | - | the user's own e-mail address | email address | 邮箱
note. | fact | note | - | Note (the user's words) | 备注（用户原话） | - | a durable first-person statement that fits no other key, in the user's words | - | -
"""


def _split(cell: str) -> tuple[str, ...]:
    cell = cell.strip()
    return () if cell in ("", "-") else tuple(w.strip() for w in cell.split(",") if w.strip())


def _parse(table: str) -> Mapping[str, KeySpec]:
    out: dict[str, KeySpec] = {}
    for line in table.strip().splitlines():
        cells = [c.strip() for c in line.split("|")]
        key, kind, vtype, flags, en, zh, values, describe, words_en, words_zh = cells
        out[key] = KeySpec(
            key=key,
            kind=_KINDS[kind],
            value_type=vtype,
            hard="h" in flags,
            sensitive="s" in flags,
            label_en=en,
            label_zh=zh,
            values=() if values == "-" else tuple(values.split()),
            describe="" if describe == "-" else describe,
            words_en=_split(words_en),
            words_zh=_split(words_zh),
        )
    return MappingProxyType(out)


#: Every key and family, by key.
KEYS: Mapping[str, KeySpec] = _parse(_TABLE)


def spec(key: str) -> KeySpec | None:
    """The row that describes ``key``: its own, else its longest described prefix."""
    if key in KEYS:
        return KEYS[key]
    parts = key.split(".")
    for n in range(len(parts) - 1, 0, -1):
        head = ".".join(parts[:n])
        for candidate in (head, head + "."):
            if candidate in KEYS:
                return KEYS[candidate]
    return None


def kind_of(key: str, default: Kind = Kind.FACT) -> Kind:
    """The default kind of a memory under ``key``."""
    row = spec(key)
    return row.kind if row is not None else default


def label(key: str, lang: str = "en") -> str:
    """The display label of ``key`` in ``lang`` ("en" or "zh"; others fall back to "en").

    A key under a family or a described prefix gets the prefix's label and the rest of
    the key ("Likes and dislikes: jazz"); a key the taxonomy does not know is returned
    as it is.
    """
    row = spec(key)
    if row is None:
        return key
    text = row.label_zh if lang.lower().startswith("zh") else row.label_en
    base = row.key.rstrip(".")
    rest = key[len(base) :].lstrip(".") if key != row.key else ""
    return f"{text}: {rest.replace('_', ' ').replace('.', ' ')}" if rest else text


def query_synonyms() -> dict[str, tuple[str, ...]]:
    """Query word -> the key prefixes it is about (family rows as ``prefix.``)."""
    out: dict[str, tuple[str, ...]] = {}
    for row in KEYS.values():
        for word in (*row.words_en, *row.words_zh):
            w = word.lower()
            if row.key not in out.get(w, ()):
                out[w] = (*out.get(w, ()), row.key)
    return out


def llm_schema() -> dict[str, Any]:
    """A JSON schema for one extraction answer, generated from the taxonomy.

    ``{"memories": [{"key", "value", "kind", "evidence", ...}]}``: ``key`` is one of the
    taxonomy's keys or ``<family>.<slug>``; enum keys list their values.
    """
    keys = [
        {
            "key": (row.key + "<slug>") if row.family else row.key,
            "kind": row.kind.value,
            "type": row.value_type,
            "hard": row.hard,
            **({"values": list(row.values)} if row.values else {}),
            **({"meaning": row.describe} if row.describe else {}),
        }
        for row in KEYS.values()
        if row.describe
    ]
    return {
        "type": "object",
        "properties": {
            "memories": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "key": {"type": "string", "description": "a key from x-keys"},
                        "value": {"type": "string"},
                        "kind": {"type": "string", "enum": [k.value for k in Kind]},
                        "evidence": {"type": "string"},
                        "explicit": {"type": "boolean"},
                        "hard": {"type": "boolean"},
                        "permanent": {"type": "boolean"},
                        "intent": {"type": "string", "enum": ["assert", "forget", "retract"]},
                        "confidence": {"type": "number", "minimum": 0, "maximum": 1},
                        "valid_until": {"type": ["string", "null"]},
                        "flags": {
                            "type": "array",
                            "items": {
                                "type": "string",
                                "enum": [
                                    "joke",
                                    "hypothetical",
                                    "question",
                                    "third_party",
                                    "negated",
                                ],
                            },
                        },
                    },
                    "required": ["key", "value", "evidence"],
                },
            }
        },
        "required": ["memories"],
        "x-keys": keys,
    }


# --------------------------------------------------------------------------------------
# The canonical (schema) form of a stored memory
# --------------------------------------------------------------------------------------
#: Established library keys and the canonical key they stand for. The library keeps
#: storing the left-hand key (the evaluation set, the tests and applications read it);
#: :func:`canonical` reads a record as the right-hand one. One table, documented in the
#: README, instead of renaming the key everywhere.
KEY_ALIASES: Mapping[str, str] = MappingProxyType(
    {
        "seat": "travel.seat",
        "family.wife": "family.partner.name",
        "family.husband": "family.partner.name",
        "family.partner": "family.partner.name",
        "family.spouse": "family.partner.name",
        "family.boyfriend": "family.partner.name",
        "family.girlfriend": "family.partner.name",
        "family.son": "family.child.names",
        "family.daughter": "family.child.names",
    }
)

#: Families whose slug is the item: ``recommend.<topic> = never`` is the canonical list
#: ``recommend.never = [topic]``; ``interest.<topic>`` is ``interest = [topic]``;
#: ``taste.<item>`` is ``food.like`` / ``food.dislike`` for a food, ``interest`` otherwise.
_SLUG_FAMILIES = ("recommend.", "interest.", "taste.")

#: ISO 639-1 codes by language name (English and Chinese names, lowercase).
#: (ISO 639-1 code, English name) of further languages people say they speak.
_MORE_LANGUAGES: tuple[tuple[str, str], ...] = (
    ("cy", "welsh"), ("ga", "irish"), ("da", "danish"), ("no", "norwegian"), ("fi", "finnish"),
    ("cs", "czech"), ("hu", "hungarian"), ("ro", "romanian"), ("uk", "ukrainian"),
    ("he", "hebrew"), ("tl", "tagalog"), ("sw", "swahili"), ("ca", "catalan"), ("ms", "malay"),
    ("bn", "bengali"), ("ur", "urdu"), ("pa", "punjabi"), ("ta", "tamil"), ("fa", "persian"),
    ("hr", "croatian"), ("sr", "serbian"), ("bg", "bulgarian"), ("sk", "slovak"),
    # the other major languages of India, Pakistan and Africa (many English speakers name them)
    ("mr", "marathi"), ("te", "telugu"), ("gu", "gujarati"), ("kn", "kannada"),
    ("ml", "malayalam"), ("ne", "nepali"), ("si", "sinhala"), ("am", "amharic"),
    ("yo", "yoruba"), ("ha", "hausa"), ("ig", "igbo"), ("zu", "zulu"), ("af", "afrikaans"),
    ("gd", "gaelic"), ("gd", "scottish gaelic"),
    # other names of the same languages: a variety, an older name, the language's own name
    ("fa", "farsi"), ("pt", "brazilian portuguese"), ("pt", "european portuguese"),
    ("pt", "português"), ("pt", "portugues"), ("es", "español"), ("es", "espanol"),
    ("es", "castilian"), ("es", "mexican spanish"), ("es", "latin american spanish"),
    ("fr", "français"), ("fr", "francais"), ("fr", "canadian french"), ("de", "deutsch"),
    ("de", "swiss german"), ("it", "italiano"), ("nl", "flemish"), ("tl", "filipino"),
    ("zh", "mandarin chinese"), ("zh", "simplified chinese"), ("zh", "traditional chinese"),
)  # fmt: skip
LANGUAGE_CODES: Mapping[str, str] = MappingProxyType(
    {
        **dict.fromkeys(("english", "英文", "英语"), "en"),
        **dict.fromkeys(
            (
                "chinese",
                "mandarin",
                "中文",
                "汉语",
                "普通话",
                "国语",
                "简体中文",
                "繁体中文",
                "简体",
                "繁体",
                "cantonese",
                "粤语",
                # Chinese varieties named by their region: spoken Chinese, code zh
                "广东话",
                "白话",
                "闽南话",
                "闽南语",
                "台语",
                "客家话",
                "客家语",
                "潮汕话",
                "潮州话",
                "上海话",
                "吴语",
                "四川话",
                "东北话",
                "福州话",
                "温州话",
                "宁波话",
                "苏州话",
                "长沙话",
                "湖南话",
                "武汉话",
                "天津话",
                "山东话",
                "河南话",
                "海南话",
            ),
            "zh",
        ),
        **dict.fromkeys(("japanese", "日语", "日文"), "ja"),
        **dict.fromkeys(("korean", "韩语", "韩文"), "ko"),
        **dict.fromkeys(("french", "法语", "法文"), "fr"),
        **dict.fromkeys(("german", "德语", "德文"), "de"),
        **dict.fromkeys(("spanish", "西班牙语", "西班牙文", "西语"), "es"),
        **dict.fromkeys(("italian", "意大利语", "意大利文"), "it"),
        **dict.fromkeys(("portuguese", "葡萄牙语", "葡萄牙文"), "pt"),
        **dict.fromkeys(("russian", "俄语", "俄文"), "ru"),
        **dict.fromkeys(("arabic", "阿拉伯语", "阿拉伯文"), "ar"),
        **dict.fromkeys(("hindi",), "hi"),
        **dict.fromkeys(("dutch", "荷兰语"), "nl"),
        **dict.fromkeys(("vietnamese", "越南语", "越南文"), "vi"),
        **dict.fromkeys(("thai", "泰语", "泰文"), "th"),
        **dict.fromkeys(("turkish",), "tr"),
        **dict.fromkeys(("polish",), "pl"),
        **dict.fromkeys(("swedish",), "sv"),
        **dict.fromkeys(("greek",), "el"),
        **dict.fromkeys(("indonesian",), "id"),
        **{name: code for code, name in _MORE_LANGUAGES},
    }
)

#: ISO 3166-1 alpha-2 codes by the country's canonical (lexicon) name.
COUNTRY_CODES: Mapping[str, str] = MappingProxyType(
    {
        "china": "CN", "united states": "US", "united kingdom": "GB", "germany": "DE",
        "france": "FR", "japan": "JP", "south korea": "KR", "canada": "CA",
        "australia": "AU", "india": "IN", "singapore": "SG", "spain": "ES", "italy": "IT",
        "brazil": "BR", "mexico": "MX", "netherlands": "NL", "switzerland": "CH",
        "sweden": "SE", "taiwan": "TW", "ireland": "IE", "new zealand": "NZ", "portugal": "PT",
        "belgium": "BE", "austria": "AT", "norway": "NO", "denmark": "DK", "finland": "FI",
        "poland": "PL", "greece": "GR", "turkey": "TR", "israel": "IL", "south africa": "ZA",
        "argentina": "AR", "chile": "CL", "colombia": "CO", "thailand": "TH", "vietnam": "VN",
        "philippines": "PH", "indonesia": "ID", "malaysia": "MY", "russia": "RU",
        "nigeria": "NG", "ghana": "GH", "kenya": "KE", "pakistan": "PK", "bangladesh": "BD",
        "egypt": "EG", "united arab emirates": "AE", "saudi arabia": "SA", "sri lanka": "LK",
        "nepal": "NP", "peru": "PE", "morocco": "MA", "ukraine": "UA", "czech republic": "CZ",
        "hungary": "HU", "romania": "RO",
    }
)  # fmt: skip

#: ISO 4217 codes by the words and signs that name a currency.
_CURRENCY_WORDS: tuple[tuple[str, str], ...] = (
    # a named dollar first: "Canadian dollars" is CAD, not the $ of "dollars"
    (r"\bcad\b|\bcanadian\s+dollars?\b|\bc\$|加元|加币", "CAD"),
    (r"\baud\b|\b(?:australian|aussie)\s+dollars?\b|\ba\$|澳元|澳币", "AUD"),
    (r"\bnzd\b|\b(?:new\s+zealand|nz)\s+dollars?\b", "NZD"),
    (r"\bhkd\b|\bhong\s+kong\s+dollars?\b|港币|港元", "HKD"),
    (r"\bsgd\b|\bsingapore(?:an)?\s+dollars?\b|新币", "SGD"),
    (r"\btwd\b|\bnt\$|\bnew\s+taiwan\s+dollars?\b|新台币|台币", "TWD"),
    (r"\bchf\b|\bswiss\s+francs?\b|瑞士法郎", "CHF"),
    (r"\binr\b|\b(?:indian\s+)?rupees?\b|₹|\brs\.?(?=\s?\d)", "INR"),
    (r"\bkrw\b|\bkorean\s+won\b|韩元", "KRW"),
    (r"\bphp\b|₱|\b(?:philippine|filipino)\s+pesos?\b|\bpesos?\s+lang\b", "PHP"),
    (r"\bngn\b|₦|\bnaira\b", "NGN"),
    (r"\bzar\b|\b(?:south\s+african\s+)?rand\b", "ZAR"),
    (r"\bkes\b|\b(?:kenyan\s+)?shillings?\b|\bksh\b", "KES"),
    (r"\bghs\b|\bcedis?\b", "GHS"),
    (r"\baed\b|\bdirhams?\b", "AED"),
    (r"\bmxn\b|\b(?:mexican\s+)?pesos?\b", "MXN"),
    (r"\bsek\b|\b(?:swedish\s+)?(?:kronor|krona)\b", "SEK"),
    (r"\bpln\b|\bzloty\b", "PLN"),
    (r"\$|\busd\b|\bdollars?\b|\bbucks?\b|美元|美金", "USD"),
    # "两千欧", "500欧": the short form after an amount
    (r"€|\beur\b|\beuros?\b|欧元|(?<=[\d零一二两三四五六七八九十百千万])欧(?![洲美])", "EUR"),
    (r"£|\bgbp\b|\bpounds?\b|\bquid\b|\bsterling\b|英镑", "GBP"),
    # (yen before yuan: the 元 of 日元 is no CNY)
    (r"\bjpy\b|\byen\b|日元|日币", "JPY"),
    (r"[¥￥]|\bcny\b|\brmb\b|\byuan\b|人民币|块|元", "CNY"),
)

#: Words that make a liked or disliked item a food ("spicy food", "甜食", "火锅").
_FOOD_WORDS = (
    r"\b(?:food|foods|cuisine|dish|dishes|meal|snack|snacks|dessert|desserts|spicy|sweets"
    r"|coffee|tea|beer|wine|sushi|pizza|pasta|burger|burgers|chocolate|curry|noodles|rice"
    r"|bread|cheese|meat|fish|seafood|vegetables?|fruit|salad|soup|steak|chicken|pork|beef"
    r"|tofu|olives?|mushrooms?|cilantro|coriander|garlic|onions?|tomato(?:es)?|eggs?|candy"
    r"|cake|ice\s+cream|bbq|barbecue|ramen|dumplings?|tacos?|thai|vietnamese|mexican|indian"
    r"|italian|korean|sichuan|cantonese\s+food|espresso|latte|cappuccino|juice|soda|smoothies?"
    r"|yogh?urt|croissants?|pastr(?:y|ies)|sandwich(?:es)?|bagels?|nuts|oats|porridge|kimchi|pho"
    r"|dim\s+sum|falafel|hummus|lasagne|lasagna|risotto|paella|biscuits|cookies|crisps|doughnuts?"
    r"|donuts?|waffles|pancakes|cereal|marmite|liquorice|licorice|anchovies|sardines|tuna|salmon"
    r"|lobster|crab|beetroot|brussels\s+sprouts|broccoli|spinach|kale|aubergine|eggplant"
    r"|courgette|zucchini|chillies|chilli|chili|jalapenos?|cucumber|lettuce|raisins|coconut"
    r"|watermelon|melon|pineapple|peaches|cherries|blueberries|lemons?"
    # cheeses by name, which people like or hate on their own ("i love feta")
    r"|feta|halloumi|brie|camembert|cheddar|mozzarella|parmesan|gorgonzola|stilton|gouda|ricotta"
    r"|mascarpone|paneer|goat'?s\s+cheese|blue\s+cheese)\b"
    r"|吃|食|菜|饭|面|锅|辣|甜|茶|咖啡|酒|肉|(?<!钓)鱼|虾|蟹|果|粥|汤|饺|包子|香菜|豆腐|烧烤|零食"
    r"|榴莲|芒果|苹果|香蕉|西瓜|草莓|葡萄|橙子|荔枝|榴梿|蒜|葱|姜|辣椒|鸡蛋|牛奶|奶酪|蛋糕|巧克力"
    # vegetables, dishes, snacks and drinks by their telling characters ("苦瓜", "茄子", "米饭")
    r"|瓜|茄|椒|薯|豆|笋|菇|蘑|藕|韭|芹|萝卜|白菜|菠菜|生菜|米饭|米线|米粉|糯米|螺蛳粉|酸辣粉|凉皮"
    r"|鸭|鹅|鸡翅|鸡腿|炸鸡|鸡肉|羊排|牛排|牛腩|排骨|腊肠|香肠|火腿|内脏|下水|海鲜|贝|蚝|生蚝|鱿|螺"
    r"|饼|糕|糖|甜品|甜点|点心|小吃|冰淇淋|雪糕|布丁|薯条|汉堡|披萨|寿司|刺身|拉面|馄饨|包子|馒头|粽子"
    r"|奶茶|酸奶|奶油|奶昔|可乐|汽水|饮料|果汁|啤酒|白酒|红酒|咖喱|麻辣|酸菜|泡菜|臭豆腐|卤|腊|醋|酱"
    r"|天妇罗|寿喜烧|烤鸭|烤肉|串串|炸|麻婆|沙拉|三明治|牛角包|煎饼|烧麦|烧卖|肠粉|叉烧|炒"
    # cuisines by their short names ("日料", "韩料", "西餐", "粤菜" has 菜 already)
    r"|日料|韩料|泰料|料理|西餐|中餐|快餐|日餐|韩餐"
    r"|\b(?:durian|mango|apples?|bananas?|grapes?|strawberr(?:y|ies)|peppers?|avocados?|lamb"
    r"|shrimp|prawns?|bacon|ham|sausages?|fries|chips|popcorn|peanut\s+butter|oysters?"
    # everyday staples and produce people name when they talk about cooking
    r"|lentils|beans|chickpeas|potato(?:es)?|quinoa|couscous|carrots?|peas|oatmeal|granola"
    r"|porridge|cauliflower|asparagus|pumpkin|squash|sweet\s+potato(?:es)?|okra|tempeh|seitan"
    r"|noodle\s+soup|stew|casserole|burritos?|nachos|quesadillas?|enchiladas|shawarma|kebabs?"
    r"|gyros?|bagels|muffins?|brownies|pie|pies|tart|custard|pudding|jam|honey|peanuts"
    r"|milk|decaf)\b"
)


#: More foods and drinks by name (round 24, EN): herbs and spices, condiments, produce, offal
#: and seafood, sweets, dishes and drinks that a taste or a "hard pass" names on its own
#: ("capers are a no for me", "I can't stand fennel"). Words that are as often something
#: else (turkey, dates, spam, rocket, sage, port) are left out.
_FOOD_WORDS_EN24 = (
    r"\b(?:fennel|dill|parsley|basil|mint|rosemary|thyme|oregano|tarragon|cumin|turmeric|ginger"
    r"|cinnamon|nutmeg|cardamom|cloves|saffron|paprika|anise|aniseed|star\s+anise|wasabi|horseradish"
    r"|capers?|mayo|mayonnaise|ketchup|mustard|vinegar|pickles?|gherkins?|relish|sauerkraut|salsa"
    r"|guacamole|tahini|miso|soy\s+sauce|fish\s+sauce|hot\s+sauce|sriracha|gravy|pesto|aioli"
    r"|artichokes?|radish(?:es)?|turnips?|parsnips?|leeks?|shallots?|scallions?|spring\s+onions"
    r"|cabbage|sprouts|watercress|endive|chicory|rhubarb|beets?|celeriac|bok\s+choy|pak\s+choi"
    r"|edamame|sweetcorn|bitter\s+(?:melon|gourd)|yams?|cassava|plantains?|figs?|prunes?"
    r"|apricots?|plums?|pears?|papayas?|guavas?|lychees?|passion\s+fruit|grapefruit|oranges"
    r"|limes|tangerines?|clementines?|cranberr(?:y|ies)|raspberr(?:y|ies)|blackberr(?:y|ies)"
    r"|gooseberr(?:y|ies)|currants|sultanas|pomegranates?|persimmons?|jackfruit|dragon\s+fruit"
    r"|nectarines?|quince|offal|tripe|haggis|black\s+pudding|blood\s+sausage|p[aâ]t[eé]|foie\s+gras"
    r"|escargots?|snails|frogs?'?\s+legs|veal|venison|duck|mutton|chorizo|salami|pepperoni"
    r"|prosciutto|jerky|meatballs?|hot\s+dogs?|mince|sweetbreads|bone\s+marrow|liver|mussels"
    r"|clams|scallops|octopus|eel|caviar|roe|herring|mackerel|cod|haddock|trout|tilapia|catfish"
    r"|sea\s+urchin|kippers|seaweed|nori|butter|ghee|cream|sour\s+cream|cottage\s+cheese"
    r"|buttermilk|kefir|marzipan|nougat|fudge|toffee|caramel|jelly|jello|gelatin|sprinkles|frosting"
    r"|icing|meringues?|cheesecake|tiramisu|fruitcake|gummy\s+bears|gummies|sweeteners?|stevia"
    r"|sashimi|tempura|natto|polenta|grits|tapioca|boba|spaghetti|poutine|borscht|gumbo"
    r"|jambalaya|biryani|dal|daal|dhal|samosas?|naan|roti|chapatis?|tortillas?|pitas?|crumpets"
    r"|scones?|quiche|omelett?es?|hash\s+browns|cornbread|coleslaw|kombucha|cola|lemonade"
    r"|whisky|whiskey|vodka|gin|rum|tequila|sake|cider|mead|champagne|prosecco|bourbon|brandy"
    r"|absinthe|ouzo|matcha|chai|cocoa|mocha|milkshakes?|pistachios?|hazelnuts?|pecans?"
    r"|macadamias?|chia\s+seeds|sunflower\s+seeds|truffles?|sugar|caffeine|carbs|salt|ipas?|lagers?|stouts?|ales)\b"
)


def _regex(pattern: str) -> Any:
    import re

    return re.compile(pattern, re.IGNORECASE)


_CURRENCY_RES = tuple((_regex(rx), code) for rx, code in _CURRENCY_WORDS)
_FOOD_RE = _regex(_FOOD_WORDS + "|" + _FOOD_WORDS_EN24)


def currency_of(text: str) -> str:
    """The ISO 4217 code a text's words name ("50 bucks" -> USD, "五百块" -> CNY), or ""."""
    for rx, code in _CURRENCY_RES:
        if rx.search(text):
            return code
    return ""


def language_code(name: str) -> str:
    """ISO 639-1 code of a language name ("english", "中文" -> "en", "zh"); else as given."""
    low = " ".join(name.strip().lower().split())
    if len(low) == 2 and low.isalpha() and low.isascii():
        return low
    return LANGUAGE_CODES.get(low, low)


def is_food(item: str) -> bool:
    """Whether a liked/disliked item reads as a food or drink ("Thai food", "甜食")."""
    from .ingest.lexicon import FOODS  # the allergen vocabulary is foods too

    return item.strip().lower() in FOODS or _FOOD_RE.search(item) is not None


def canonical(key: str, value: str, normalized: str = "") -> tuple[str, str]:
    """The canonical ``(key, value)`` of a stored memory, in the schema's formats.

    The library stores some keys in an established form (:data:`KEY_ALIASES`, the
    ``recommend.<topic>`` / ``interest.<topic>`` / ``taste.<item>`` families) and some
    values as said (a budget keeps its currency in the words, a language its name). This
    reads them in one format per key: ``recommend.credit_cards = never`` ->
    ``("recommend.never.credit_cards", "credit cards")``, ``language = english`` ->
    ``("language", "en")``, ``budget.max = "up to $800"`` -> ``("budget.max", "800 USD")``.

    Example:
        >>> canonical("seat", "aisle", "aisle")
        ('travel.seat', 'aisle')
        >>> canonical("taste.spicy_food", "like", "like")
        ('food.like.spicy_food', 'spicy food')
        >>> canonical("budget.max", "别超过五百块", "500")
        ('budget.max', '500 CNY')
    """
    norm = normalized or value
    key = KEY_ALIASES.get(key, key)
    for family in _SLUG_FAMILIES:
        if key.startswith(family) and len(key) > len(family):
            slug = key[len(family) :]
            item = slug.replace("_", " ")
            if family == "recommend.":
                return f"recommend.never.{slug}", item
            if family == "interest.":
                return f"interest.{slug}", item
            polarity = norm.strip().lower()
            if is_food(item):
                return f"food.{'dislike' if polarity == 'dislike' else 'like'}.{slug}", item
            return (f"interest.{slug}", item) if polarity != "dislike" else (key, norm)
    if key == "language" or key.startswith("language.spoken"):
        parts = [p for p in norm.replace("，", ",").split(",") if p.strip()]
        return key, ",".join(language_code(p) for p in parts) or language_code(norm)
    if key == "location.country":
        return key, COUNTRY_CODES.get(norm.strip().lower(), norm)
    if key == "contact.channel" and norm == "mail":
        return key, "post"  # letters by post: the schema's code for the same channel
    if key.startswith("budget."):
        cur = currency_of(value)
        number = norm.split()[0] if norm.split() else norm
        return key, f"{number} {cur}" if cur and number.replace(".", "").isdigit() else norm
    return key, norm
