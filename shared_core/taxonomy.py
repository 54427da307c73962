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
    "KeySpec",
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
contact.channel | preference | enum | - | Preferred contact channel | 首选联系方式 | sms email phone whatsapp wechat telegram signal line messenger imessage push mail | the channel the user wants to be contacted on | how to reach, how should you contact | 什么方式, 哪种方式, 怎么联系, 怎么通知
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
diet | preference | enum | h | Diet | 饮食 | vegetarian vegan pescatarian halal kosher gluten-free keto paleo lactose-free | the user's diet | food, eat, meal, meals, dietary, diet, vegetarian | 吃, 餐食, 吃饭, 忌口, 饮食, 素食
budget. | preference | amount | - | Budget | 预算 | - | spending limits | budget, cost, expensive, cheap, pay, afford, spend, price, prices, money | 钱, 能花, 花多少, 花钱, 可以花, 预算, 价格, 多少钱, 贵, 便宜
budget.max | preference | amount | - | Maximum budget | 预算上限 | - | the most the user will spend, a plain number | - | -
budget.min | preference | amount | - | Minimum budget | 预算下限 | - | the least the user will spend, a plain number | - | -
location. | fact | text | - | Location | 位置 | - | where the user lives | weather, outage, outages, nearby, local, live, where, address | 停电, 天气, 附近, 本地, 住, 哪里
location.city | fact | city | - | City | 城市 | - | the city the user lives in now | city | 城市
location.city.previous | fact | city | - | Previous city | 之前的城市 | - | the city the user lived in before (from 'moved to X from Y') | - | -
location.country | fact | text | - | Country | 国家 | - | the country the user lives in | country | -
location.address | fact | text | - | Address | 地址 | - | the user's postal address | address, ship, deliver, delivery | 地址, 住址, 送货, 快递
name | fact | name | - | Name | 姓名 | - | the user's name | name, called, call you, call me by, address you, who am i | 名字, 叫, 叫什么, 我是谁, 称呼, 姓名
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
response.tone | preference | enum | - | Answer tone | 回答语气 | casual formal friendly direct professional | answer tone | tone, formal, casual | 语气, 正式
response.format | preference | enum | - | Answer format | 回答格式 | bullets prose table numbered_steps plain_text | answer layout | format, bullets, bullet points | 格式
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
