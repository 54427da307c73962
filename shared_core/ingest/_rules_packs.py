"""Per-language rule packs: data rows, one category a block (issue 12, item 2).

Two kinds of row, each ``(key, codes, pattern)``:

* **value rows** (:data:`VALUE_ROWS`): ``codes`` is a string, the canonical value a match
  stores ("keep answers short" -> ``response.length = short``);
* **item rows** (:data:`ITEM_ROWS`): the pattern's named group(s) ``v``/``v2``... hold the
  item; ``codes`` maps the item's words to a canonical code (``"微信支付" ->
  "wechat_pay"``), or is ``None`` to keep the item as said, trimmed. A list key
  (taxonomy type ``list``) stores one ``<key>.<slug>`` sibling per item after the first.

The kind, hard/soft default and value type come from :mod:`shared_core.taxonomy`.
Adding a category, or a language, is adding rows here (the README shows how). A row's
match claims only the item's span, so a later, more general handler (tastes, notes) does
not store the same words again. Private to :mod:`shared_core.ingest`.
"""

# ruff: noqa: E501  (the rows below are data: one pattern a line reads best)
from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Iterator, Mapping

from .. import taxonomy
from ..entities import Candidate, Kind
from . import lexicon as L
from ._rulebase import ANYMORE as _ANYMORE
from ._rulebase import (
    CALLED_AS,
    Clause,
    Hit,
    cand,
    neg_before,
    ok_topic,
    phrase,
    split_items,
)
from ._rulebase import negate as _negate
from ._rules_open import STUFF_RE, food_before, with_item
from .dates import resolve_dates
from .lexicon import parse_number, slugify

__all__ = [
    "ITEM_ROWS",
    "NOT_ITEM_START",
    "VALUE_ROWS",
    "allergy_key",
    "complains",
    "h_allergy_reaction",
    "h_birthday",
    "h_children_count",
    "h_food_said",
    "h_hard_no",
    "h_here_in",
    "h_move",
    "h_only_channel",
    "h_paid_this_way",
    "h_role_fragment",
    "h_rows",
    "h_sentence_rows",
    "h_turning_age",
    "not_a_name",
]

_I = re.IGNORECASE


def _codes(spec: str) -> Mapping[str, str]:
    """``code: surface | surface`` lines -> ``{surface: code}`` (the code maps to itself)."""
    out: dict[str, str] = {}
    for line in spec.strip().splitlines():
        code, _, surfaces = line.partition(":")
        out[code.strip().lower()] = code.strip()
        for s in surfaces.split("|"):
            if s.strip():
                out[s.strip().lower()] = code.strip()
    return out


def _alt(codes: Mapping[str, str], *, ascii_only: bool | None = None) -> str:
    # "ascii" is the Latin script, accented words included ("español"), against CJK
    words = [
        w for w in codes if ascii_only is None or all(ord(c) < 0x2000 for c in w) == ascii_only
    ]
    return "|".join(
        re.escape(w).replace(r"\ ", r"[\s-]?") for w in sorted(words, key=len, reverse=True)
    )


#: A place adverb between a role and its employer ("engineer over at Spotify"): no part of
#: the role.
_PLACE_ADVERB = r"(?:\s+(?:over|down|up|out|right|based))?"
_MEANS_NOTHING = (
    r"(?!\s+(?:(?:thing|stuff|system|scale|clock|format|time|one)\s+)?(?:means\s+nothing|doesn't\s+mean\s+anything|does\s+not\s+mean\s+anything|confuses"
    r"|is\s+confusing|makes\s+no\s+sense)\b)"
)
#: The same said before the scale: "I've no feel for fahrenheit", "no idea about celsius".
_NO_FEEL_FOR = r"(?<!feel\sfor\s)(?<!idea\sabout\s)(?<!clue\sabout\s)(?<!idea\swith\s)"
CHANNELS = _codes(
    """
sms: text | texts | text message | text messages | sms | 短信
email: email | e-mail | mail | inbox | 邮件 | 邮箱 | 电子邮件
phone: phone | 电话
whatsapp: whatsapp
wechat: wechat | 微信
telegram: telegram | 电报
signal: signal
line: line
messenger: messenger | facebook messenger
imessage: imessage
"""
)
PAYMENTS = _codes(
    """
credit_card: credit card | credit cards | credit | card | cards | visa | mastercard | amex | 信用卡
debit_card: debit card | debit cards | debit | 借记卡 | 储蓄卡
paypal: paypal
apple_pay: apple pay
google_pay: google pay
alipay: alipay | 支付宝 | 花呗
wechat_pay: wechat pay | 微信支付 | 微信付款 | 微信付
cash: cash | 现金
bank_transfer: bank transfer | bank transfers | wire transfer | transfer | 银行转账 | 转账
venmo: venmo
zelle: zelle
klarna: klarna
revolut: revolut
unionpay: unionpay | union pay | 银联 | 云闪付
invoice: invoice | 发票
"""
)
LANGS = {k: v for k, v in taxonomy.LANGUAGE_CODES.items()}
TIMEZONES = _codes(
    """
Europe/London: london | uk | gmt | bst | british | 伦敦 | 英国
Europe/Berlin: berlin | cet | cest | central european | german | 柏林 | 德国 | 中欧
Europe/Paris: paris | 巴黎 | 法国
Asia/Tokyo: tokyo | jst | japan | japanese | 东京 | 日本
Asia/Shanghai: beijing | shanghai | china | chinese | 北京 | 上海 | 东八区 | 中国
Asia/Hong_Kong: hong kong | hkt | 香港
Asia/Taipei: taipei | taiwan | 台北 | 台湾
Asia/Seoul: seoul | 首尔 | 韩国
Asia/Singapore: singapore | sgt | 新加坡
Asia/Kolkata: india | ist | 印度
Australia/Sydney: sydney | aest | aedt | 悉尼 | 澳洲东部
America/New_York: new york | eastern | east coast | est | edt | et | nyc | 纽约 | 美东 | 美国东部
America/Chicago: chicago | central | cdt | 芝加哥 | 美中 | 美国中部
America/Denver: denver | mountain | mst | mdt
America/Los_Angeles: los angeles | la | pacific | west coast | pst | pdt | pt | san francisco | seattle | 洛杉矶 | 旧金山 | 美西 | 美国西部 | 太平洋
Africa/Lagos: lagos | abuja | nigeria | nigerian | west africa | west african | 拉各斯 | 尼日利亚
Africa/Nairobi: nairobi | kenya | kenyan | east africa | east african | 内罗毕
Africa/Johannesburg: johannesburg | cape town | south africa | south african | sast | 约翰内斯堡
Africa/Cairo: cairo | egypt | egyptian | 开罗
Asia/Manila: manila | cebu | philippines | philippine | pht | 马尼拉 | 菲律宾
Asia/Dubai: dubai | abu dhabi | uae | gulf | 迪拜
Asia/Karachi: karachi | lahore | pakistan | pakistani | pkt
Asia/Dhaka: dhaka | bangladesh
Asia/Jakarta: jakarta | indonesia | wib | 雅加达
Asia/Bangkok: bangkok | thailand | thai | 曼谷 | 泰国
Asia/Kuala_Lumpur: kuala lumpur | malaysia | 吉隆坡 | 马来西亚
Asia/Ho_Chi_Minh: ho chi minh city | saigon | hanoi | vietnam | 越南
Australia/Melbourne: melbourne | 墨尔本
Australia/Perth: perth | awst
Pacific/Auckland: auckland | wellington | new zealand | nzst | nzdt | 奥克兰 | 新西兰
Europe/Dublin: dublin | ireland | irish | 都柏林 | 爱尔兰
Europe/Madrid: madrid | barcelona | spain | spanish | 马德里 | 西班牙
Europe/Rome: rome | milan | italy | italian | 罗马 | 意大利
Europe/Amsterdam: amsterdam | netherlands | dutch | 阿姆斯特丹 | 荷兰
Europe/Lisbon: lisbon | portugal | portuguese | 里斯本 | 葡萄牙
Europe/Istanbul: istanbul | turkey | turkish | 伊斯坦布尔 | 土耳其
Europe/Moscow: moscow | msk | 莫斯科
America/Toronto: toronto | ottawa | montreal | 多伦多
America/Vancouver: vancouver | 温哥华
America/Mexico_City: mexico city | 墨西哥城
America/Sao_Paulo: sao paulo | são paulo | brasilia | brazil | brazilian | brt | 圣保罗 | 巴西
"""
)
#: Skills said as a verb after "learning to", by their activity noun.
SKILL_VERBS = _codes(
    """
drawing: draw
painting: paint
sketching: sketch
knitting: knit
crochet: crochet
sewing: sew
embroidery: embroider
coding: code
programming: program
baking: bake
cooking: cook
dancing: dance
singing: sing
surfing: surf
skiing: ski
snowboarding: snowboard
skateboarding: skateboard
skating: skate
swimming: swim
climbing: climb
sailing: sail
juggling: juggle
gardening: garden
meditation: meditate
boxing: box
fencing: fence
rowing: row
"""
)
PETS = _codes(
    """
dog: dog | dogs | puppy | puppies | pup | doggo | corgi | labrador | lab | golden retriever | retriever | poodle | beagle | husky | terrier | bulldog | dachshund | greyhound | whippet | lurcher | spaniel | cocker spaniel | springer spaniel | collie | border collie | sheepdog | german shepherd | pug | chihuahua | rottweiler | schnauzer | staffie | staffy | jack russell | labradoodle | cockapoo | cavapoo | shih tzu | dalmatian | great dane | pomeranian | samoyed | shiba inu | mutt | 狗 | 小狗 | 狗狗 | 柯基 | 金毛 | 泰迪 | 哈士奇 | 柴犬 | 拉布拉多 | 边牧 | 比熊 | 博美 | 狗子 | 汪星人 | 萨摩耶 | 德牧 | 阿拉斯加 | 雪纳瑞 | 法斗
cat: cat | cats | kitten | kittens | kitty | tabby | siamese | moggy | maine coon | ragdoll | bengal cat | sphynx | british shorthair | 猫 | 小猫 | 猫咪 | 布偶 | 英短 | 美短 | 橘猫 | 猫主子 | 喵星人 | 狸花猫 | 暹罗猫 | 加菲猫 | 蓝猫
rabbit: rabbit | rabbits | bunny | bunnies | house rabbit | 兔子 | 兔兔 | 小兔子
hamster: hamster | hamsters | 仓鼠
guinea_pig: guinea pig | guinea pigs | cavy | cavies | 豚鼠
parrot: parrot | parrots | macaw | african grey | cockatoo | 鹦鹉
bird: bird | birds | budgie | budgies | cockatiel | canary | lovebirds | 鸟
fish: fish | goldfish | tropical fish | koi | betta | betta fish | guppies | 鱼 | 金鱼 | 锦鲤 | 热带鱼 | 孔雀鱼
turtle: turtle | turtles | tortoise | tortoises | terrapin | 乌龟
lizard: lizard | lizards | gecko | leopard gecko | bearded dragon | iguana | 蜥蜴
snake: snake | snakes | corn snake | ball python | 蛇
horse: horse | horses | pony | ponies | 马
"""
)
HOTEL_ROOM = _codes(
    """
non_smoking: non-smoking | non smoking | nonsmoking | 无烟
high_floor: high floor | higher floor | 高楼层 | 高层
low_floor: low floor | lower floor | ground floor | 低楼层 | 低层
quiet: quiet | 安静
king_bed: king bed | king-size bed | king size bed | 大床
twin_beds: twin beds | two beds | 双床
accessible: accessible | wheelchair accessible | 无障碍
away_from_elevator: away from the elevator | away from the lift | 远离电梯 | 离电梯远 | 不要靠近电梯
"""
)
CITY_ZH = r"[\u4e00-\u9fff]{2,4}?"
JOB_ZH_EARLY = "|".join(sorted(L.ZH_JOB_SUFFIXES, key=len, reverse=True))
#: A proper name: capitalized words, case-sensitive even inside the IGNORECASE rows.
NAME_EN = r"(?-i:[A-Z])[\w'&.-]*(?:\s+(?:&\s+)?(?-i:[A-Z])[\w'&.-]*){0,3}"
ITEM_EN = r"[^,.;!?]{2,40}?"
_END = r"(?=\s*(?:[,.;!?，。；！？]|$|\b(?:and|but|so|because|please|pls|thanks|on\s+weekends|for|when|if)\b))"

#: (key, value, pattern): a match stores ``key = value``.
#: What follows two pronouns said as the user's: "both are fine", "either works for me".
_PRONOUNS_FINE = (
    r"(?=,?\s+(?:(?:both|either)\s+(?:are|is|work|works)|are\s+(?:both\s+)?(?:fine|ok|okay|good)|both\s+fine"
    r"|(?:both\s+)?work\s+for\s+me|(?:are|is)\s+(?:both\s+)?fine\s+for\s+me)\b)"
)
VALUE_ROWS: tuple[tuple[str, str, str], ...] = (
    # ---- calls
    (
        "contact.call",
        "never",
        r"\b(?:never|don't|do\s+not|dont)\s+(?:ever\s+)?(?:call|phone|ring)\s+(?:me\b(?!\s+(?:(?-i:[A-Z])[a-z]|that\b|this\b|by\b|names?\b|an?\s)|"
        + CALLED_AS
        + r")|my\s+(?:phone|cell|mobile|number))",
    ),
    (
        "contact.call",
        "allowed",
        r"(?:可以|尽管|随时)(?:直接)?(?:打电话给我|给我打电话|打我(?:的)?(?:电话|手机))|\bfeel\s+free\s+to\s+(?:give\s+me\s+a\s+)?call"
        # "ring me whenever", "call me any time": calls are welcome
        r"|^\W*(?:(?:just|you\s+can|feel\s+free\s+to)\s+)?(?:call|ring|phone)\s+me\s+(?:whenever|anytime|any\s+time)\b",
    ),
    # the phone fronted as topic: "电话我基本不接", "电话一律不接的", "陌生电话我都不接" is not
    (
        "contact.call",
        "never",
        r"(?:^\W*|[，,]\s*)电话(?:我)?(?:基本(?:上)?|一般|从来|从|都|一律|一概|向来|压根)*(?:不接|不听|不打)"
        # calls disliked: "我不喜欢接电话", "我讨厌打电话" (a standing dislike of the medium)
        r"|我(?:平时|一般|向来|一向|从来)?(?:很|特别|真的|最)?(?:不喜欢|不爱|讨厌|受不了|不习惯|怕)(?:接|打)电话",
    ),
    # ---- pronouns
    (
        "pronouns",
        "he/him",
        # ("用"他"来指代我朋友" is the friend's)
        r"\bhe\s*/\s*him\b|(?<!别)(?<!不要)(?:请)?用[\"“「]?他[\"”」]?(?:来)?(?:称呼|指代)我(?!的|们|朋友|同事|老|家|妈|爸|哥|姐|弟|妹|表|堂|儿子|女儿|孩子|客户|室友|舍友|邻居|男|女|闺蜜|对象|领导|上司)"
        r"|(?:称呼|指代|提到|说到|称)我(?:的时候)?(?:请|就|都)?用[\"“「]?他[\"”」]?(?!们)"
        # named as the pronoun, or a man saying so, as 我是女的 is she/her below
        r"|(?:人称)?代词(?:是|用)[\"“「]?他[\"”」]?(?!们)|我是男(?:生|的|性|孩)",
    ),
    (
        "pronouns",
        "she/her",
        r"\bshe\s*/\s*her\b|(?:请)?用[\"“「]?她[\"”」]?(?:来)?(?:称呼|指代)我(?!的|们|朋友|同事|老|家|妈|爸|哥|姐|弟|妹|表|堂|儿子|女儿|孩子|客户|室友|舍友|邻居|男|女|闺蜜|对象|领导|上司)"
        r"|我是女(?:生|的|性|孩)"
        r"|(?:称呼|指代|提到|说到|称)我(?:的时候)?(?:请|就|都)?用[\"“「]?她[\"”」]?(?!们)"
        r"|(?:人称)?代词(?:是|用)[\"“「]?她[\"”」]?(?!们)",
    ),
    ("pronouns", "they/them", r"\bthey\s*/\s*them\b"),
    ("pronouns", "he/they", r"\bhe\s*/\s*they\b"),
    ("pronouns", "she/they", r"\bshe\s*/\s*they\b"),
    # two pronouns said as fine (round 11): "i use she and they, both are fine", "he or
    # they both work for me"; a pair said as the user's: "it's he and him"
    (
        "pronouns",
        "she/they",
        r"(?:^\W*|\bi\s+use\s+|\bit's\s+|\bits\s+)(?:she\s+(?:and|or|&)\s+they|they\s+(?:and|or|&)\s+she)\b"
        + _PRONOUNS_FINE
        + r"|\bi\s+use\s+(?:she\s+(?:and|or|&)\s+they|they\s+(?:and|or|&)\s+she)\W*$",
    ),
    (
        "pronouns",
        "he/they",
        r"(?:^\W*|\bi\s+use\s+|\bit's\s+|\bits\s+)(?:he\s+(?:and|or|&)\s+they|they\s+(?:and|or|&)\s+he)\b"
        + _PRONOUNS_FINE
        + r"|\bi\s+use\s+(?:he\s+(?:and|or|&)\s+they|they\s+(?:and|or|&)\s+he)\W*$",
    ),
    (
        "pronouns",
        "he/him",
        r"\b(?:it's|its|it\s+is|i\s+use)\s+he\s+(?:and|&)\s+him\b",
    ),
    (
        "pronouns",
        "she/her",
        r"\b(?:it's|its|it\s+is|i\s+use)\s+she\s+(?:and|&)\s+her\b",
    ),
    # ---- diet
    (
        "diet",
        "pescatarian",
        r"\bpesc[ae]tarian\b|\beat\s+fish\s+but\s+(?:no|not)\s+(?:other\s+)?meat\b|只吃鱼不吃(?:其他)?肉",
    ),
    ("diet", "halal", r"只吃清真|\b(?:i\s+)?(?:eat|keep)\s+(?:only\s+)?halal\b|我是穆斯林"),
    ("diet", "kosher", r"\b(?:i\s+)?(?:keep|eat)\s+(?:only\s+)?kosher\b"),
    ("diet", "low_sugar", r"低糖|控糖|\blow[\s-]sugar\b"),
    ("diet", "low_carb", r"低碳水|\blow[\s-]carbs?\b"),
    ("diet", "low_sodium", r"低盐|少盐|低钠|\blow[\s-](?:sodium|salt)\b"),
    ("diet", "keto", r"生酮|\bketo(?:genic)?\b"),
    ("diet", "vegetarian", r"我是(?:个)?vegetarian|\bi(?:'m|\s+am)\s+(?:a\s+)?vegetarian\b"),
    ("diet", "vegan", r"我是(?:个)?vegan|\bi(?:'m|\s+am)\s+(?:a\s+)?vegan\b"),
    # ---- employment status
    (
        "job.status",
        "retired",
        r"\bi(?:'m|\s+am)\s+(?:now\s+|recently\s+)?(?:a\s+)?retired\b|^\W*retired\s+[a-z]+(?:\s+[a-z]+)?\s+here\b|我(?:已经)?退休了?",
    ),
    (
        "job.status",
        "student",
        r"\bi(?:'m|\s+am)\s+(?:a\s+)?(?:grad(?:uate)?\s+|college\s+|university\s+|phd\s+|full-time\s+)?student\b|在读(?:研究生|大学|博士|本科)?(?![一这那几两本篇部首]|[^，。,.]{0,6}(?:书|小说|文章|杂志|新闻|诗))|我(?:还)?是(?:个)?(?:学生|大学生|研究生|博士生)"
        # "我还在上大学", "我现在读研二" (not "我在上大学的时候…", a past time)
        r"|我(?:还|现在|目前)?在?(?:上|读)(?:大学|大[一二三四]|研究生|研[一二三]|博士|本科|高中)(?!的时候|那会|时)",
    ),
    (
        "job.status",
        "self_employed",
        r"\bi(?:'m|\s+am)\s+(?:a\s+)?(?:self[\s-]employed|freelancer|freelancing)\b|\bi\s+(?:freelance|run\s+my\s+own\s+business)\b|自由职业|自己创业|个体户|个体经营|自己(?:开(?:了)?(?:个|一个|一家)?(?:小)?(?:店|公司|工作室|餐馆|饭店|网店)|当老板|做(?:点)?(?:小)?生意)"
        # a business of some kind opened: "我自己开了个奶茶店", "我开了一家花店"
        r"|(?:我|自己)(?:自己)?(?:在)?开了?(?:个|一个|一家|家)(?:小)?[\u4e00-\u9fff]{1,4}?(?:店|公司|工作室|餐馆|餐厅|饭店|网店|酒吧|民宿|诊所|工厂|书店|花店)(?=$|[，,。.!！]|了|，)",
    ),
    (
        "job.status",
        "unemployed",
        r"\bi(?:'m|\s+am)\s+(?:currently\s+)?(?:unemployed|between\s+jobs|out\s+of\s+work)\b|我(?:现在)?(?:失业|待业)",
    ),
    # ---- relationship status
    (
        "relationship.status",
        "married",
        r"\bi(?:'m|\s+am)\s+(?:happily\s+|recently\s+|newly\s+)?married\b|\bi\s+(?:just\s+)?got\s+married\b|我(?:已经)?(?:已婚|结婚了)",
    ),
    (
        "relationship.status",
        "divorced",
        r"\bi(?:'m|\s+am)\s+(?:recently\s+)?divorced\b|^\W*(?:recently\s+|just\s+)?divorced\b|\bi\s+(?:just\s+)?got\s+divorced\b|我(?:已经)?离婚了?|我离异",
    ),
    (
        "relationship.status",
        "single",
        r"\bi(?:'m|\s+am)\s+(?:currently\s+|still\s+)?single\b|我(?:现在|目前|还是)?单身",
    ),
    (
        "relationship.status",
        "engaged",
        r"\bi(?:'m|\s+am)\s+(?:recently\s+|just\s+)?engaged\b|我订婚了",
    ),
    (
        "relationship.status",
        "widowed",
        r"\bi(?:'m|\s+am)\s+(?:a\s+)?widow(?:ed|er)?\b|我丧偶|我是(?:寡妇|鳏夫)"
        r"|我(?:的)?(?:老伴|老伴儿|丈夫|老公|妻子|老婆|爱人|先生|太太|媳妇儿?|老头子|老太婆)[\u4e00-\u9fff]{0,3}(?:走了|去世了?|过世了?|不在了)"
        # without a subject, opening the message: "老伴前年走了", "老伴儿过世了" (an old
        # couple's word, the speaker's own partner; "我朋友的老伴走了" has someone before it)
        r"|^\W*(?:老伴|老伴儿)[\u4e00-\u9fff]{0,3}(?:走了|去世了?|过世了?|不在了)",
    ),
    # ---- travel
    (
        "travel.class",
        "business",
        r"\b(?:fly|flying|book(?:\s+me)?|prefer|always|usually)\s+(?:in\s+)?business(?:\s+class)?\b|商务舱",
    ),
    (
        "travel.class",
        "economy",
        r"\b(?:fly|flying|book(?:\s+me)?|prefer|always|usually|only)\s+(?:in\s+)?economy(?:\s+class)?\b|经济舱"
        # "eco class is fine for me" (German and Dutch English)
        r"|\beco(?:nomy)?\s+class\s+(?:is|works)\s+(?:fine|ok|okay|good|enough)(?:\s+for\s+me)?\b",
    ),
    (
        "travel.class",
        "first",
        r"\b(?:fly|flying|book(?:\s+me)?|prefer|always|usually)\s+(?:in\s+)?first\s+class\b|头等舱",
    ),
    (
        "travel.class",
        "premium_economy",
        r"\bpremium\s+economy\b|超级经济舱|豪华经济舱|高端经济舱|优选经济舱|明珠经济舱",
    ),
    (
        "seat",
        "aisle",
        r"\baisle\s+seats?\s+(?:please|pls|for\s+me|if\s+possible)\b|\b(?:book|get|give|reserve)\s+me\s+(?:an?\s+)?aisle\b|"
        # "i always need an aisle", "put me on the aisle whenever you can", "aisle seat on
        # trains too" (round 11)
        r"\bi\s+(?:always\s+|usually\s+|really\s+|just\s+)*(?:need|want|prefer|like|get|take|go\s+for|pick|choose)\s+(?:an?\s+|the\s+)?aisle(?:\s+seats?)?\b(?!\s+(?:on|for)\s+(?:this|the|my|tomorrow|tonight)\b)|"
        r"\bput\s+me\s+(?:on|in|by)\s+(?:an?\s+|the\s+)?aisle(?:\s+seats?)?\s+(?:whenever|every\s+time|always|when(?:ever)?\s+(?:you\s+can|possible))\b|"
        r"^\W*aisle\s+seats?\s+(?:on|for)\s+(?:trains|flights|planes|buses|coaches|long\s+(?:flights|trips))\b|(?:订|选|要|坐|喜欢|习惯|偏好|都要|挑|留|安排)(?:个)?靠(?:过道|走廊)",
    ),
    (
        "seat",
        "window",
        r"\bwindow\s+seats?\s+(?:please|pls|for\s+me|if\s+possible)\b|\b(?:book|get|give|reserve)\s+me\s+(?:an?\s+)?window\b|"
        # "i always need a window", "put me on the window whenever you can", "window seat on
        # trains too" (round 11)
        r"\bi\s+(?:always\s+|usually\s+|really\s+|just\s+)*(?:need|want|prefer|like|get|take|go\s+for|pick|choose)\s+(?:an?\s+|the\s+)?window(?:\s+seats?)?\b(?!\s+(?:on|for)\s+(?:this|the|my|tomorrow|tonight)\b)|"
        r"\bput\s+me\s+(?:on|in|by)\s+(?:an?\s+|the\s+)?window(?:\s+seats?)?\s+(?:whenever|every\s+time|always|when(?:ever)?\s+(?:you\s+can|possible))\b|"
        r"^\W*window\s+seats?\s+(?:on|for)\s+(?:trains|flights|planes|buses|coaches|long\s+(?:flights|trips))\b|(?:订|选|要|坐|喜欢|习惯|偏好|都要|挑|留|安排)(?:个)?靠窗",
    ),
    # ---- answer style
    (
        "response.length",
        "long",
        r"越详细越好|详细的(?:解释|回答|说明)|\b(?:detailed|in-depth|thorough|long|elaborate|lengthy|comprehensive)\s+(?:answers|explanations|responses|replies)\b|\bthe\s+more\s+detail\s+the\s+better\b",
    ),
    (
        "response.length",
        "short",
        r"\b(?:short|brief|concise|shorter|briefer)\s+(?:answers|replies|responses)\b|\bkeep\s+it\s+(?:short|brief)\b|\bshorter\s+please\b|\bstill\s+too\s+long\b|(?<!not\s)\btoo\s+long\b|\btl;?dr\b",
    ),
    (
        "response.format",
        "table",
        r"\b(?:prefer|like|use|want|love)\s+tables?\b|\bin\s+(?:a\s+)?table\b|\bas\s+(?:a\s+)?table\b|用表格|表格形式",
    ),
    (
        "response.format",
        "numbered_steps",
        r"\bstep[\s-]by[\s-]step\b|\bnumbered\s+(?:steps|instructions|list)\b|\b(?:steps|instructions)\s+numbered\b|分步骤|一步一步",
    ),
    (
        "response.format",
        "plain_text",
        # "a plain text message to my number" is an SMS, not a layout
        r"\bplain\s+text\b(?!\s+(?:messages?|msgs?|sms)\b)|\bno\s+markdown\b|纯文本|不要用\s*markdown|别用\s*markdown",
    ),
    (
        "response.format",
        "summary_first",
        r"先(?:给|说)(?:我)?结论|结论先行|\b(?:bottom\s+line|conclusion|summary|answer|tl;?dr)\s+first\b|\b(?:lead|start|begin|open)\s+with\s+(?:the\s+|a\s+)?(?:answer|conclusion|summary|tl;?dr|bottom\s+line)\b(?!\s+(?:of|for)\b)",
    ),
    (
        "response.format",
        "code_only",
        r"\bjust\s+(?:the\s+)?code\b|\bcode\s+only\b|只要代码|只给代码",
    ),
    (
        "response.format",
        "bullets",
        r"(?<!no\s)(?<!without\s)(?<!not\s)(?<!hate\s)(?<!hating\s)(?<!dislike\s)(?<!stand\s)(?<!loathe\s)(?<!of\s)(?<!n't\slike\s)\bbullet(?:ed)?\s+(?:points?|lists?)\b|\bbullet\s+(?:that|it|this|them)\b|\bin\s+bullets\b|^\W*bullets\s+(?:again|please|pls)\b|分点|列点",
    ),
    (
        "response.tone",
        "direct",
        r"\bblunt\b|\bno\s+sugar[\s-]?coating\b|\bbe\s+(?:direct|straight)\b|\bstraight\s+to\s+the\s+point\b|直接(?:一点|点)|别绕弯子",
    ),
    (
        "response.tone",
        "casual",
        r"\b(?:be|keep\s+it|sound)\s+(?:more\s+)?(?:casual|informal|relaxed|chill)\b|语气轻松|轻松(?:一)?点|随意(?:一)?点|口语化",
    ),
    (
        "response.tone",
        "professional",
        r"\b(?:be|keep\s+it|stay|sound)\s+(?:more\s+)?professional\b",
    ),
    (
        "response.tone",
        "formal",
        r"\b(?:be|keep\s+it|stay|sound)\s+(?:more\s+)?formal\b|正式(?:一)?点|语气正式|(?:用|使用)正式[、，,和与]?[\u4e00-\u9fff]{0,4}的(?:语气|口吻)",
    ),
    (
        "response.tone",
        "friendly",
        r"\b(?:be|sound)\s+(?:more\s+)?(?:friendly|warm)\b|亲切(?:一)?点",
    ),
    (
        "response.tone",
        "encouraging",
        r"\b(?:be|sound)\s+(?:more\s+)?(?:encouraging|supportive)\b|多鼓励我"
        # "i like it when ur encouraging", "encouragement goes a long way with me" (round 11)
        r"|\bi\s+(?:like|love|prefer|need|appreciate)\s+(?:it\s+)?when\s+(?:you're|you\s+are|ur|u\s+are|youre)\s+(?:being\s+)?(?:encouraging|supportive|positive)\b"
        r"|\b(?:a\s+(?:bit|little)\s+of\s+|some\s+)?(?:encouragement|positivity)\s+goes\s+a\s+long\s+way\s+(?:with|for)\s+me\b"
        r"|\bi\s+(?:respond|do|work)\s+(?:best|better|well)\s+(?:to|with)\s+(?:encouragement|positive\s+feedback)\b",
    ),
    (
        "response.tone",
        "professional",
        r"\b(?:talk|speak|write|reply|respond|answer)\s+(?:to\s+me\s+)?(?:more\s+)?professionally\b",
    ),
    (
        "response.tone",
        "casual",
        r"\b(?:talk|speak|write|reply|respond|answer)\s+(?:to\s+me\s+)?(?:more\s+)?casually\b",
    ),
    (
        "response.tone",
        "formal",
        r"\b(?:talk|speak|write|reply|respond|answer)\s+(?:to\s+me\s+)?(?:more\s+)?formally\b",
    ),
    (
        "response.tone",
        "friendly",
        r"\bi\s+(?:like|love|prefer|need|appreciate)\s+(?:it\s+)?when\s+(?:you're|you\s+are|ur|u\s+are|youre)\s+(?:being\s+)?(?:friendly|warm)\b",
    ),
    (
        "response.emoji",
        "false",
        r"\bno\s+emojis?\b|\b(?:don't|do\s+not|never)\s+use\s+(?:any\s+)?emojis?\b|\bwithout\s+emojis?\b|(?:别|不要)(?:用|加|发)(?:表情符号|表情|emoji)"
        # "emojis make me cringe, leave them out": the user's own dislike of them
        r"|\bemojis?\s+(?:make\s+me\s+cringe|are\s+(?:cringe|annoying|unprofessional)|annoy\s+me"
        r"|drive\s+me\s+(?:mad|nuts|crazy|up\s+the\s+wall))\b|\bleave\s+(?:out\s+)?(?:the\s+)?emojis?\b"
        # "please drop the emojis", "ditch the emoji" (round 11)
        r"|\b(?:drop|ditch|lose|cut|skip|lay\s+off|go\s+easy\s+on)\s+(?:the\s+|all\s+the\s+|those\s+)?emojis?\b",
    ),
    (
        "response.emoji",
        "true",
        r"\bgo\s+(?:wild|nuts|crazy|mad)\s+with\s+(?:the\s+)?emojis?\b|\bi\s+(?:love|like|adore)\s+emojis?\b"
        r"|\bemojis?\s+(?:are|is)\s+(?:fine|welcome|ok|okay)\b|(?<!n't\s)(?<!not\s)(?<!never\s)\buse\s+(?:more\s+|lots\s+of\s+)?emojis?\b|多(?:用|加)(?:点)?(?:表情|emoji)"
        # "feel free to throw in emojis", "chuck in a few emojis" (round 11)
        r"|(?<!n't\s)(?<!not\s)(?<!never\s)\b(?:throw|chuck|pop|sprinkle|stick)\s+in\s+(?:some\s+|a\s+few\s+|the\s+odd\s+|more\s+)?emojis?\b",
    ),
    (
        "response.style",
        "technical",
        r"\bget\s+technical\b|\b(?:be|go)\s+(?:more\s+)?technical\b|\btechnical\s+(?:details|answers|explanations)\b|技术细节|讲得专业",
    ),
    (
        "response.style",
        "simple",
        r"\bexplain\s+(?:it\s+)?like\s+i'm\s+(?:five|5)\b|\bin\s+simple\s+terms\b|\bkeep\s+it\s+simple\b|通俗(?:易懂)?(?:一)?点|说得简单",
    ),
    (
        "response.style",
        "with_examples",
        r"\b(?:give|use|with|include)\s+(?:me\s+)?(?:lots\s+of\s+|more\s+|some\s+)?examples\b|多举(?:点)?例子|举例说明",
    ),
    # ---- units
    (
        "units.system",
        "metric",
        r"\bmetric(?:\s+units)?\b|\b(?:in|use)\s+(?:km|kilometers|kilometres|kg|kilograms|celsius)\b|公制",
    ),
    (
        "units.system",
        "imperial",
        r"\bimperial(?:\s+units)?\b|\b(?:in|use)\s+(?:miles|pounds|lbs|feet|inches)\b|英制"
        # two imperial units named together: "so miles and pounds, not kilos"
        r"|\b(?:miles|feet|inches|ounces)\s+(?:and|&)\s+(?:pounds|lbs|ounces|feet|inches|miles|gallons)\b",
    ),
    # a scale named as meaningless to the user is not the one wanted: "use celsius,
    # fahrenheit means nothing to me"
    # the degree sign names the scale too: "°C for weather pls", "℉"
    (
        "units.temperature",
        "celsius",
        _NO_FEEL_FOR
        + r"\b(?:in\s+)?celsius\b"
        + _MEANS_NOTHING
        + r"|摄氏|(?<![\d\s])\s?°\s?C\b|^\W*°\s?C\b|(?<!\d)℃",
    ),
    (
        "units.temperature",
        "fahrenheit",
        _NO_FEEL_FOR
        + r"\b(?:in\s+)?fahrenheit\b"
        + _MEANS_NOTHING
        + r"|华氏|(?<![\d\s])\s?°\s?F\b|^\W*°\s?F\b|(?<!\d)℉",
    ),
    (
        "units.time_format",
        "24h",
        r"\b24[\s-]?h(?:ou)?r?\b(?!\s+(?:thing|stuff|system|clock|format|time)\s+(?:confuses|is\s+confusing|means\s+nothing))"
        r"|24小时制|二十四小时制"
        # the clock named by its kind, in a request about showing time: "时间用24小时那种"
        r"|(?:时间|钟点|时刻)[^，,。]{0,8}?用(?:24|二十四)(?:个)?小时(?:那种|的|格式|显示|的那种)",
    ),
    (
        "units.time_format",
        "12h",
        r"\b12[\s-]hour\s+(?:clock|time|format)\b|\bam\s*/\s*pm\b|12小时制|十二小时制",
    ),
    # ---- accessibility
    (
        "accessibility",
        "colorblind_safe",
        r"\bcolou?r[\s-]?blind\b|\bred\s*/\s*green\b|色盲|色弱|红绿配色",
    ),
    (
        "accessibility",
        "captions",
        r"\bcaptions?\b|\bsubtitles?\b|\bhard\s+of\s+hearing\b|\bi(?:'m|\s+am)\s+deaf\b|字幕|听力不好",
    ),
    ("accessibility", "dyslexia_friendly", r"\bdyslexi[ac]\b|阅读障碍"),
    (
        "accessibility",
        "large_text",
        r"\b(?:large|larger|big|bigger)\s+(?:text|font|fonts|print)\b|字(?:体)?大一?点|大字|眼睛不好|视力不好"
        # "字给我弄大点", "字号调大一些", "老花眼"
        r"|字(?:体|号)?(?:给我|帮我)?(?:弄|调|放|搞|整|改|设置?)(?:得)?大(?:一)?(?:点|些)|老花眼",
    ),
    ("accessibility", "screen_reader", r"\bscreen[\s-]reader\b|读屏|盲人"),
    (
        "accessibility",
        "high_contrast",
        r"\bhigh[\s-]contrast\b|\b(?:strong|stronger|higher|more|bold|bolder|sharp|sharper)\s+(?:colou?r\s+)?contrast\b|高对比度",
    ),
    ("accessibility", "keyboard_only", r"\bkeyboard[\s-]only\b|只能用键盘"),
    (
        "accessibility",
        "reduced_motion",
        r"\breduced\s+motion\b|\b(?:no|turn\s+off|disable|without)\s+(?:the\s+)?animations?\b|不要动画|关掉动画"
        # motion that makes the user sick: "那些动来动去的动画我看了想吐", "动效看着头晕"
        r"|(?:动画(?!片)|动效|动图|闪烁|晃动)[^，,。]{0,6}?(?:看了|看着|一看)?(?:就)?(?:想吐|恶心|头晕|晕|难受)",
    ),
    # ---- more phrasings (round 2)
    (
        "seat",
        "aisle",
        r"\b(?:take|get|sit\s+(?:in|by|on|at)|want|prefer)\s+(?:the\s+|an?\s+)?aisle\b",
    ),
    (
        "seat",
        "window",
        r"\b(?:take|get|sit\s+(?:in|by|on|at)|want|prefer)\s+(?:the\s+|an?\s+)?window\b(?!\s+(?:open|closed|shut))",
    ),
    ("response.format", "numbered_steps", r"\bnumbered\s+lists?\b|\bnumber\s+the\s+steps\b"),
    ("response.tone", "friendly", r"\b(?:talk|speak|chat|write)\s+to\s+me\s+like\s+a\s+friend\b"),
)

#: (key, codes or None, pattern): named groups ``v``, ``v2`` ... hold the item(s).
#: Allergens the lexicons know by an English name (foods, drugs, stings, pollen, animals).
_ALLERGENS_EN = "|".join(
    sorted(
        {
            re.escape(k)
            for table in (L.FOODS, L.OTHER_ALLERGENS, L.MEDICATIONS)
            for k in table
            if k.isascii() and len(k) > 2
        },
        key=len,
        reverse=True,
    )
)
ITEM_ROWS: tuple[tuple[str, Mapping[str, str] | None, str], ...] = (
    # ---- contact
    # an address after "to"/"cc"/"from" is someone else's ("email the report to sarah@...")
    (
        "contact.email",
        None,
        # ASCII only: "我的邮箱是abc@163.com" has no word boundary before the address
        r"(?<![A-Za-z0-9_.+-])(?<!\bto\s)(?<!\bcc\s)(?<!\bbcc\s)(?<!\bfrom\s)(?<!\bforward\s)(?P<v>[A-Za-z0-9_.+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)",
    ),
    (
        "contact.channel",
        CHANNELS,
        r"\b(?:text|message|msg|ping|reach|contact|dm|hit)\s+me\s+(?:up\s+)?(?:only\s+)?(?:on|via|through|over|by|using|with)\s+(?P<v>"
        + _alt(CHANNELS, ascii_only=True)
        + r")\b",
    ),
    (
        "contact.channel",
        CHANNELS,
        r"\bi\s+(?:much\s+|really\s+)?prefer\s+(?P<v>whatsapp|signal|telegram|wechat|imessage|messenger|sms|texts?|e-?mail)\b",
    ),
    # "if u need to reach me use telegram", "use signal to contact me", "to reach me, email"
    (
        "contact.channel",
        CHANNELS,
        r"\b(?:reach|contact|get\s+hold\s+of|get\s+in\s+touch\s+with)\s+me\s*,?\s+(?:just\s+|please\s+|pls\s+)?(?:use|try)\s+(?P<v>whatsapp|signal|telegram|wechat|imessage|messenger|sms|e-?mail)\b"
        r"|\b(?:use|try)\s+(?P<v2>whatsapp|signal|telegram|wechat|imessage|messenger|sms|e-?mail)\s+to\s+(?:reach|contact|get\s+hold\s+of)\s+me\b",
    ),
    ("contact.channel", CHANNELS, r"\bsend\s+(?:\w+\s+){0,3}to\s+my\s+(?P<v>email|e-mail|inbox)\b"),
    (
        "contact.channel",
        CHANNELS,
        r"(?P<v>"
        + _alt(CHANNELS)
        + r")(?!支付)(?:上)?(?:联系|找|通知|告诉|发给|发)我(?:就行|就好|吧|最好|$)",
    ),
    (
        "contact.channel",
        CHANNELS,
        r"(?:联系|通知|找|提醒)我(?:的话)?(?:最好|请|就|都|直接)*(?:用|发|走|通过|打)(?P<v>"
        + _alt(CHANNELS)
        + r")(?!支付)"
        # "我平时只用WhatsApp", "我一般就用微信": the one messaging app the user uses
        + r"|我(?:平时|一般|通常|基本上?|现在)?(?:只|都|就|一般|主要)用(?P<v2>whatsapp|telegram|signal|line|messenger"
        + r"|imessage|微信|电报)(?!支付|付|转账|扫)(?:联系|聊天|沟通|发消息)?(?=$|[，,。.!！])",
    ),
    (
        "contact.channel",
        CHANNELS,
        r"(?:通知|消息)(?:我)?(?:请|都)?(?:发|用)(?P<v>" + _alt(CHANNELS) + r")(?!支付)",
    ),
    # ---- name
    (
        "name.preferred",
        None,
        r"\b(?:everyone|everybody|people|friends|most\s+people)\s+calls?\s+me\s+(?P<v>(?-i:[A-Z])[\w'-]+)",
    ),
    (
        "name",
        None,
        r"^\W*(?:the\s+)?name(?:'s|\s+is)\s+(?P<v>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+){0,2})",
    ),
    # ---- age
    (
        "age",
        None,
        r"\bi(?:'m|\s+am)\s+(?P<v>\d{1,2})(?![.,]\d)(?:\s+years?\s+(?:old|young)|\s+y/?o)?(?:\s+(?:lol|lmao|haha|btw|fwiw|tbh|fyi|already|actually|now))*\s*(?=$|[.,!;]|\s+(?:and\s+(?:still|just|only|already|have|i|i'm|my|trying|looking|want|need|live|living|work|working|struggling|thinking|getting|planning|not|no|very|pretty|quite|new|retired|learning|hopeless|rubbish|terrible)|so|but|because|bc|cos)\b)|\bi\s+(?:just\s+)?turned\s+(?P<v2>\d{1,2})\b"
        # "as a 62 year old I ...", "as a 35yo": the user's own age, said as a frame
        r"|\bas\s+an?\s+(?P<v3>\d{2})[\s-]?(?:years?|yrs?)[\s-]?old\b(?!\s+(?:son|daughter|kid|child|dog|cat|car|house)\b)"
        # "as a 58 yr old woman i find ...": the user, when the first person follows
        r"(?!\s+(?:man|woman|guy|lady|bloke)\b(?!\s+(?:i|i'm|im|myself|here|like\s+me)\b))|\bas\s+an?\s+(?P<v4>\d{2})\s?y/?o\b",
    ),
    (
        "age",
        None,
        r"(?:我|本人)(?:今年|已经)?(?P<v>\d{1,2}|[一二两三四五六七八九十]{1,3})(?:周)?岁"
        r"|(?:我|本人)今年(?:已经)?(?P<v2>\d{1,2}|[一二两三四五六七八九十]{1,3})(?:了|啦)(?=$|[，。,.!！])",
    ),
    # ---- languages spoken
    (
        "language.spoken",
        LANGS,
        r"\bi(?:\s+can)?(?:\s+speak|\s+am\s+fluent\s+in|'m\s+fluent\s+in)\s+(?P<v>(?:"
        + _alt(LANGS, ascii_only=True)
        # "Polish and English, and a little German": a later item may carry its level
        + r")(?:\s*(?:,\s*and|,|and|&)\s*(?:(?:a\s+(?:little|bit)(?:\s+of)?|some|basic|a\s+few\s+words\s+of)\s+)?(?:"
        + _alt(LANGS, ascii_only=True)
        + r"))*)\b",
    ),
    (
        "language.spoken",
        LANGS,
        r"\bmy\s+(?:native\s+language|mother\s+tongue|first\s+language|native\s+tongue|mother\s+language|home\s+language)\s+(?:is|'s)\s+(?P<v>"
        + _alt(LANGS, ascii_only=True)
        + r")",
    ),
    (
        "language.spoken",
        LANGS,
        r"母语是(?P<v>"
        + _alt(LANGS, ascii_only=False)
        + r")|(?P<v2>"
        + _alt(LANGS, ascii_only=False)
        + r")也会(?:说|讲)|我会(?:说|讲)(?:一点点|一点|一些|点)?儿?(?P<v3>(?:"
        + _alt(LANGS, ascii_only=False)
        + r")(?:(?:和|、|跟|以及|还有|外加)(?:一点点|一点|一些|点)?儿?(?:"
        + _alt(LANGS, ascii_only=False)
        + r"))*)"
        # a later clause without its subject: "我会说中文，还会一点日语", "另外会讲德语"
        + r"|^\W*(?:还|也|另外还|另外|而且还|而且|同时)(?:会|能)(?:说|讲)?(?:一点|一些|点|些)?儿?(?P<v4>"
        + _alt(LANGS, ascii_only=False)
        + r")",
    ),
    (
        "language",
        LANGS,
        r"(?:请|回复|回答)?(?:请)?用(?P<v>简体中文|繁体中文|简体|English|english)(?:回复|回答|写|跟我说|就行|就好|吧)?",
    ),
    (
        "language",
        LANGS,
        r"^\W*(?P<v>english|chinese|spanish|french|german|japanese)\s+(?:please|pls|only)\b",
    ),
    # "so spanish replies would be great", "German answers are best for me"
    (
        "language",
        LANGS,
        r"\b(?P<v>"
        + _alt(LANGS, ascii_only=True)
        + r")\s+(?:replies|answers|responses)\s+(?:would\s+be\s+(?:great|best|ideal|nice|better|perfect|appreciated)|are\s+(?:best|better|easier|preferred)|please|pls)\b",
    ),
    # ---- diet: foods avoided for non-medical reasons
    (
        "diet.avoid",
        None,
        r"\bi\s+(?:don't|do\s+not|never|can't|cannot|won't)\s+eat\s+(?!meat\b|any\s+meat\b|animal)(?P<v>"
        + ITEM_EN
        + r")"
        + _END,
    ),
    (
        "diet.avoid",
        None,
        # "我不喝酒也不吃猪肉": a second refusal joined by 也/还 is one more item
        r"我(?:从来|从)?不(?:吃|喝)(?!肉|荤|辣|素)(?P<v>(?:猪肉|牛肉|羊肉|鸡肉|海鲜|[白啤红黄米]?酒|咖啡|内脏|[\u4e00-\u9fff]{1,3}肉)"
        r"(?:(?:也|还)不(?:吃|喝)(?:猪肉|牛肉|羊肉|鸡肉|海鲜|[白啤红黄米]?酒|咖啡|内脏|[\u4e00-\u9fff]{1,3}肉))?)",
    ),
    (
        "diet.avoid",
        None,
        r"\bi\s+(?:avoid|stay\s+away\s+from|abstain\s+from)\s+(?:eating\s+|drinking\s+)?(?P<v>pork|beef|red\s+meat|alcohol|sugar|caffeine|shellfish|seafood|lamb|chicken|processed\s+food)\b",
    ),
    # ---- intolerance
    (
        "intolerance",
        None,
        r"\bi\s+(?:can't|cannot|don't)\s+(?:handle|tolerate|digest)\s+(?P<v>lactose|gluten|fructose|histamine|dairy|caffeine|fodmaps?)\b|\b(?P<v2>(?:lactose|gluten|fructose|histamine|caffeine)(?:\s*(?:,|and|&|\+|or)\s*(?:lactose|gluten|fructose|histamine|caffeine|sorbitol))*)[\s-]intoleran(?:t|ce)\b",
    ),
    (
        "intolerance",
        None,
        # ("我组胺不耐受": more substances said without 对)
        r"对(?P<v>[\u4e00-\u9fff]{1,6}?)不耐受|(?P<v2>乳糖|麸质|果糖|酒精|组胺|组织胺|咖啡因|谷蛋白|麦麸|山梨醇|酪蛋白)不耐受?"
        # the substance in English inside a Chinese sentence: "我对gluten不耐受"
        r"|对\s*(?P<v3>lactose|gluten|fructose|histamine|caffeine)\s*不耐受?",
    ),
    # ---- food tastes, stored as the established taste.<item> (taxonomy.canonical reads them as food.like / food.dislike)
    (
        "taste.dislike",
        None,
        r"^\W*(?P<v>[a-z][a-z ]{1,30}?)\s+(?:are|is)\s+(?:so\s+|really\s+|absolutely\s+|just\s+)?(?:disgusting|gross|revolting|nasty|inedible|vile|the\s+worst|awful|horrible|terrible|foul|rank)\b",
    ),
    (
        "taste.like",
        None,
        r"(?P<v>[\u4e00-\u9fffA-Za-z]{1,8})(?:是|就是|简直是)我的?(?:最爱|最喜欢的|命|本命|心头好|真爱)"
        # internet praise after a fronted item: "寿司yyds", "火锅永远的神", "奶茶绝绝子"
        r"|^\W*(?P<v2>[\u4e00-\u9fff]{1,6}?)\s*(?:yyds|永远的神|绝绝子|天下第一|百吃不厌|吃不腻)",
    ),
    # ---- allergies by reaction
    (
        "allergy",
        None,
        r"\b(?:get|have|had|got)\s+(?:an?\s+)?(?:anaphylaxis|anaphylactic\s+shock|hives|a\s+rash|rashes|swelling|(?:bad|severe|serious|allergic)\s+reactions?)\s+(?:from|to|after\s+(?:eating|taking))\s+(?P<v>[\w-]+(?:\s+[\w-]+)?)"
        + _END,
    ),
    (
        "allergy",
        None,
        r"^\W*(?P<v>[A-Za-z][\w-]+)\s+(?:gives|give)\s+me\s+(?:hives|a\s+rash|rashes|swelling|a\s+(?:bad\s+)?reaction|an\s+allergic\s+reaction|anaphylaxis)|^\W*(?P<v2>[A-Za-z][\w-]+)\s+makes?\s+(?:my\s+\w+\s+swell|me\s+(?:break\s+out|swell|itch))",
    ),
    ("allergy", None, r"^\W*(?P<v>[\u4e00-\u9fff]{2,8}?)我(?:不能|不可以)(?:吃|用)(?=.*过敏)"),
    # "i break out in hives from strawberries", "i carry an epipen for shellfish", "bee
    # stings = epipen for me": the reaction or the rescue pen names the allergen
    (
        "allergy",
        None,
        r"\bi\s+(?:always\s+)?(?:break|come)\s+out\s+in\s+(?:hives|a\s+rash|rashes|welts)\s+"
        r"(?:from|with|after\s+(?:eating|taking|having))\s+(?P<v>[\w-]+(?:\s+[\w-]+)?)"
        + _END
        + r"|\bi\s+(?:always\s+)?carry\s+(?:an?\s+|my\s+)?epi-?pen\s+(?:for|because\s+of)\s+"
        r"(?P<v2>(?:"
        + _ALLERGENS_EN
        + r")(?:s|es)?)"
        + _END
        + r"|^\W*(?P<v3>(?:"
        + _ALLERGENS_EN
        + r")(?:s|es)?)\s*=\s*(?:an?\s+)?epi-?pen\b",
    ),
    # ---- health
    (
        "health.condition",
        None,
        r"\bi(?:'ve|\s+have)\s+(?:had|been\s+living\s+with)\s+(?P<v>type\s+[12]\s+diabetes|psoriasis|crohn's|"
        + _alt({k: k for k in L.CONDITIONS if k.isascii()})
        + r")\b|\bi\s+live\s+with\s+(?P<v2>(?:chronic\s+)?[a-z][a-z' ]{2,30}?)"
        + _END,
    ),
    (
        "health.condition",
        None,
        r"我(?:患有|有|得了|确诊了?)(?P<v>[\u4e00-\u9fff]{2,10}?(?:病|症|炎|减退|亢进|哮喘|高血压|糖尿病|癫痫))",
    ),
    (
        "medication",
        None,
        r"\bi(?:(?:'m|\s+am)\s+(?:(?:currently|still|also|now|usually|regularly|always)\s+)?(?:taking|on)|\s+(?:(?:currently|still|also|now|usually|regularly|always)\s+)?(?:take|use|taking))\s+(?:an?\s+|my\s+)?(?:\d+(?:\.\d+)?\s*(?:mg|mcg|µg|g|ml|units?|iu)\s+(?:of\s+)?)?(?P<v>[a-z]+(?:lukast|triptan|tinib|in|ol|ine|ide|pril|sartan|statin|formin|azole|pam|lam|cillin|mycin|one|afil|xetine|oxacin|prazole|tidine|dipine|mab)(?:\s+inhaler)?)\b(?!\s+(?:time|standard\s+time)\b)",
    ),
    (
        "medication",
        None,
        r"(?:我|在)(?:每天|长期|一直|平时|正在)?(?:在)?(?:服用|吃|服)(?P<v>[\u4e00-\u9fff]{2,8}?(?:胍|平|汀|林|酮|唑|片|胶囊|沙坦|普利|洛尔|西泮|素|宁|芬|酸|药))(?=$|[，,。；;]|\b)",
    ),
    # ---- payment
    (
        "payment.avoid",
        PAYMENTS,
        r"\bi\s+(?:don't|do\s+not|never|won't|refuse\s+to)\s+(?:use|pay\s+(?:with|by))\s+(?P<v>"
        + _alt(PAYMENTS, ascii_only=True)
        # "don't make me use paypal", "never ask me to pay by klarna" (round 11)
        + r")\b|\b(?:don't|do\s+not|dont|never|please\s+don't)\s+(?:make|ask|force|get)\s+me\s+(?:to\s+)?(?:use|pay\s+(?:with|by|through|via))\s+(?P<v3>"
        + _alt(PAYMENTS, ascii_only=True)
        + r")\b|(?:不|别(?:让我)?|不要(?:让我)?)(?:用|喜欢用|想用|接受|收|支持|刷)(?P<v2>"
        + _alt(PAYMENTS)
        + r")(?![A-Za-z])",
    ),
    (
        "payment.method",
        PAYMENTS,
        r"\bi\s+(?:usually\s+|mostly\s+|always\s+|only\s+|normally\s+)?(?:pay|paying)\s+(?:with|by|via|using|through|in)\s+(?:my\s+|a\s+)?(?P<v>(?:"
        + _alt(PAYMENTS, ascii_only=True)
        + r")(?:\s*(?:,|or|and|/)\s*(?:"
        + _alt(PAYMENTS, ascii_only=True)
        + r"))*)\b",
    ),
    # "we split bills with Venmo usually", "I send rent over Zelle"
    (
        "payment.method",
        PAYMENTS,
        r"\b(?:i|we)\s+(?:usually\s+|mostly\s+|always\s+|normally\s+|just\s+)?(?:split|settle|send|transfer|pay\s+back)\s+(?:the\s+|our\s+|my\s+)?(?:bills?|money|rent|costs?|payments?|expenses|tabs?)\s+(?:with|via|through|on|over|using|by)\s+(?P<v>"
        + _alt(PAYMENTS, ascii_only=True)
        + r")\b",
    ),
    (
        "payment.method",
        PAYMENTS,
        r"^\W*(?P<v>"
        + _alt(PAYMENTS, ascii_only=True)
        + r")\s+is\s+(?:what|how)\s+i\s+(?:use|pay)|\bi\s+(?:prefer|use|like)\s+(?:paying\s+(?:with|by)\s+)?(?:(?:my|a)\s+(?=(?:credit|debit|visa|amex|mastercard|paypal|revolut|apple|google)\b))?(?P<v2>"
        + _alt(PAYMENTS, ascii_only=True)
        + r")\b",
    ),
    (
        "payment.method",
        PAYMENTS,
        r"(?<!不)(?<!不想)(?<!不喜欢)(?<!不爱)(?<!别)(?<!让我)(?:(?:只|都|一般|通常|习惯|就)?用"
        r"|(?<!不)(?:比较|更|最)?(?:喜欢|偏好|偏爱)(?:用|付|刷)?)(?P<v>"
        + _alt(PAYMENTS, ascii_only=False)
        + r"|apple\s?pay|paypal)(?:付|支付|付款|结账)?",
    ),
    # ---- location
    (
        "location.country",
        None,
        r"\b(?:based|living|live|located)\s+in\s+[A-Z][\w .'-]+?,\s+(?P<v>[A-Z][\w .'-]+?)\s*$",
    ),
    (
        "location.city",
        None,
        r"\b(?:currently\s+|now\s+)?(?:living|based|located)\s+in\s+(?P<v>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)(?=\s*(?:,|$|\.))",
    ),
    (
        "location.city",
        None,
        r"^(?:我)?(?:现在|目前)?住在(?P<v>[\u4e00-\u9fff]{2,5}?)(?:市)?[。.!！]?$|我在(?P<v2>[\u4e00-\u9fff]{2,4}?)(?:工作和生活|生活和工作|生活|定居)"
        # "home (for me) is Melbourne"
        r"|^\W*home\s+(?:for\s+me\s+|for\s+us\s+)?is\s+(?P<v3>" + NAME_EN + r")" + _END,
    ),
    # ---- occupation
    (
        "job.title",
        None,
        r"\bi\s+work\s+as\s+an?\s+(?P<v>[a-z][a-z -]{2,40}?)"
        + _PLACE_ADVERB
        + r"\s+(?:at|for|in|with)\b",
    ),
    (
        "job.employer",
        None,
        r"\b(?:work|working)\s+(?:as\s+an?\s+[\w -]+?\s+)?(?:at|for)\s+(?:the\s+)?(?P<v>"
        + NAME_EN
        + r")",
    ),
    # "accountant by profession, working with Deloitte": a role named as one's profession,
    # and (Indian English) the firm one works "with" after it
    (
        "job.title",
        None,
        r"^\W*(?:i(?:'m|\s+am)\s+)?(?:an?\s+)?(?P<v>(?:[a-z]+\s+)?(?:"
        + "|".join(sorted(L.JOB_HEADS, key=len, reverse=True))
        + r"))\s+by\s+(?:profession|trade|training|occupation)\b",
    ),
    (
        "job.employer",
        None,
        r"我在(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?)(?:做|当|担任|上班|工作)|^\W*在(?P<v2>[\u4e00-\u9fffA-Za-z]{2,8}?)(?:做|当|担任)(?=[\u4e00-\u9fff]{0,4}(?:"
        + JOB_ZH_EARLY
        + r"))",
    ),
    (
        "job.title",
        None,
        r"我在[\u4e00-\u9fffA-Za-z]{2,8}?(?:做|当|担任)(?P<v>[\u4e00-\u9fff]{2,8})|^\W*在[\u4e00-\u9fffA-Za-z]{2,8}?(?:做|当|担任)(?P<v2>[\u4e00-\u9fff]{0,4}(?:"
        + JOB_ZH_EARLY
        + r"))",
    ),
    # ---- family
    (
        "family.children",
        None,
        r"\bi\s+(?:have|'ve\s+got|have\s+got)\s+(?P<v>\d|one|two|three|four|five|six)\s+(?:kids|children|child|kid|sons|daughters)\b|\bi(?:'ve)?\s+got\s+(?P<v2>\d|two|three|four)\s+(?:kids|children)\b",
    ),
    (
        "family.children",
        None,
        r"(?:我|我们|我俩|我们俩)(?:(?:就|只|一共|总共)有?|有)(?P<v>[一两二三四五六\d])个(?:孩子|小孩|娃|儿子|女儿)(?![和、，,]?(?:还有)?(?:一|两)?个(?:儿子|女儿))",
    ),
    # ---- pets
    (
        "pet.species",
        PETS,
        r"\bi(?:\s+have|'ve\s+got|\s+have\s+got|\s+own|'ve)\s+(?:a|an|one|two|three|\d)\s+(?:\w+\s+)?(?P<v>"
        + _alt(PETS, ascii_only=True)
        + r")\b"
        + L.NOT_A_PET_AFTER,
    ),
    (
        "pet.species",
        PETS,
        r"我(?:家)?(?:养了?|有)(?:一|两|三|\d)?[只条个匹缸对窝群头]?(?P<v>"
        + _alt(PETS, ascii_only=False)
        + r")"
        # the pet named: "我的狗叫旺财", "我家猫咪名字叫团子" (the user's own, so one is kept)
        + r"|^\W*我(?:家)?的?(?P<v2>"
        + _alt(PETS, ascii_only=False)
        + r")(?:的名字|名字)?(?:叫|名叫)",
    ),
    (
        "pet.names",
        None,
        r"\b(?:"
        + _alt(PETS, ascii_only=True)
        + r")\s+(?:named|called)\s+(?P<v>[A-Z][\w'-]+)|\bmy\s+(?:"
        + _alt(PETS, ascii_only=True)
        + r")(?:'s\s+name\s+is|\s+is\s+called|\s+is\s+named)\s+(?P<v2>[A-Z][\w'-]+)"
        # several of them named at once: "our two cats are called Miso and Tofu"
        + r"|\b(?:my|our)\s+(?:(?:\d|two|three|four|five)\s+)?(?:"
        + _alt(PETS, ascii_only=True)
        + r")s?\s+(?:are|'re)\s+(?:called|named)\s+(?P<v3>(?-i:[A-Z])[\w'-]+(?:\s*(?:,|and|&)\s*(?-i:[A-Z])[\w'-]+){0,5})",
    ),
    (
        "pet.names",
        None,
        r"(?:"
        + _alt(PETS, ascii_only=False)
        + r")(?:的名字)?(?:叫|名叫|名字叫)(?P<v>[\u4e00-\u9fffA-Za-z]{1,4})",
    ),
    # ---- travel
    (
        "travel.airline.avoid",
        None,
        r"\b(?:never|don't|do\s+not)\s+(?:ever\s+)?(?:book|put)\s+me\s+on\s+(?P<v>"
        + NAME_EN
        + r")|\bavoid\s+(?P<v2>"
        + NAME_EN
        + r")|\bi\s+(?:won't|will\s+not|refuse\s+to|(?:will\s+|'ll\s+)?never)\s+(?:again\s+)?fly\s+(?:with\s+)?(?P<v3>"
        + NAME_EN
        + r")",
    ),
    (
        "travel.airline.avoid",
        None,
        r"(?:不坐|别订|不要订|不想坐|别给我订)(?P<v>[\u4e00-\u9fff]{0,6}航空|国航|东航|南航|海航|川航|厦航|深航|国泰|新航|全日空|日航|大韩|韩亚|阿联酋|卡塔尔|汉莎|英航|法航|达美|美联航|春秋|吉祥|亚航|酷航|山航|昆航|长荣|华航|中华航空|星宇|港龙|虎航|春秋|吉祥)",
    ),
    (
        "travel.airline",
        None,
        r"\bi\s+(?:prefer|like|love|always\s+fly|usually\s+fly)\s+(?:flying\s+)?(?:with\s+)?(?P<v>[A-Z][\w]*(?:\s+[A-Z]\w*)?\s+(?:Airlines?|Airways|Air))\b",
    ),
    (
        "travel.airline",
        None,
        r"(?:喜欢|偏好|习惯|一般|都|比较喜欢)(?:坐|乘坐|飞|选)?(?P<v>[\u4e00-\u9fff]{0,6}航空|国航|东航|南航|海航|川航|厦航|深航|国泰|新航|全日空|日航|大韩|韩亚|阿联酋|卡塔尔|汉莎|英航|法航|达美|美联航|春秋|吉祥|亚航|酷航|山航|昆航|长荣|华航|中华航空|星宇|港龙|虎航)",
    ),
    (
        "travel.loyalty",
        None,
        r"\b(?:i(?:'m|\s+am)\s+(?:an?\s+|in\s+|on\s+)?|i\s+(?:have|collect|earn|use|got)\s+|member\s+of\s+|my\s+|and\s+|plus\s+|&\s+)(?:[\w-]+\s+){0,4}?"
        r"(?P<v>miles\s*(?:&|and)\s*more|hilton\s+honors|marriott\s+bonvoy|skymiles|aadvantage|mileageplus|avios|executive\s+club|krisflyer|flying\s+blue|ihg\s+one\s+rewards|world\s+of\s+hyatt|asia\s+miles)\b",
    ),
    (
        "travel.loyalty",
        None,
        r"(?:我是|我有|我办了)(?!(?:一[名个位])?(?:金卡|银卡|白金|钻石|铂金|黑金|普卡))(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?)(?:的)?(?:金卡|银卡|白金卡?|钻石卡?|普卡|高级)?(?:会员|常旅客)"
        # a programme's card: "我有国航凤凰知音的卡", "我办了希尔顿荣誉客会的卡" (a programme
        # word ends the name, so "我有招商银行的卡" is no programme)
        r"|(?:我是|我有|我办了?)(?P<v2>[\u4e00-\u9fffA-Za-z]{0,6}?(?:知音|旅享家|荣誉客会|万里行|明珠|俱乐部|优悦会|礼赏|天地|里程))(?:的)?(?:金卡|银卡|白金卡?|钻石卡?|普卡)?(?:会员)?卡",
    ),
    (
        "hotel.chain",
        None,
        # an airline named alone ("Emirates is my go-to") is the airline row's
        r"^\W*(?!(?:"
        + L.AIRLINES_EN
        + r")\s+is\s+my\s+go-to\b(?!\s+hotel))(?P<v>"
        + NAME_EN
        + r")\s+is\s+my\s+go-to(?!\s+(?:airline|carrier))(?:\s+hotel)?|\bi\s+(?:prefer|usually\s+stay\s+(?:at|with)|always\s+stay\s+(?:at|with))\s+(?P<v2>Marriott|Hilton|Hyatt|IHG|Accor|Sheraton|Westin|Four\s+Seasons|Holiday\s+Inn|Novotel|Ibis|Radisson|Wyndham)s?\b",
    ),
    (
        "hotel.chain",
        None,
        r"(?:住酒店|酒店)(?:我)?(?:一般|都|通常|习惯)?(?:是)?(?:选|住|订)(?P<v>希尔顿|万豪|凯悦|洲际|喜来登|威斯汀|亚朵|全季|汉庭|如家|香格里拉|丽思卡尔顿|假日)|喜欢住(?P<v2>希尔顿|万豪|凯悦|洲际|喜来登|威斯汀|亚朵|全季|汉庭|如家|香格里拉)",
    ),
    (
        "hotel.room",
        HOTEL_ROOM,
        r"\b(?P<v>"
        + _alt(HOTEL_ROOM, ascii_only=True)
        + r")\s+(?:room|rooms)\b|\b(?P<v2>high\s+floor|higher\s+floor|low\s+floor|king\s+bed|twin\s+beds|away\s+from\s+the\s+(?:elevator|lift))\b",
    ),
    (
        "hotel.room",
        HOTEL_ROOM,
        r"(?:要|需要|想要|喜欢|订|给我|住|选)[^，。,]{0,6}?(?P<v>安静|无烟|高楼层|低楼层|大床|双床|远离电梯)(?:的)?(?:房间|房)?",
    ),
    # ---- time zone
    (
        "timezone",
        TIMEZONES,
        r"\b(?P<v>"
        + _alt(TIMEZONES, ascii_only=True)
        + r")\s+time\b(?!\s+(?:limit|off))|\bkeep\s+(?P<v2>[A-Z]{2,5})\s+in\s+mind|\bmy\s+(?:time\s*zone|tz)(?:'s|\s+is)\s+(?P<v3>[A-Z]{2,5})\b",
    ),
    (
        "timezone",
        TIMEZONES,
        r"(?:用|按|按照|以|是|都是)(?P<v>"
        + _alt(TIMEZONES, ascii_only=False)
        + r")(?:时间|时区)(?!.*(?:几点|多少))",
    ),
    # ---- currency
    (
        "currency",
        None,
        r"\b(?:prices?|amounts?|costs?)\s+in\s+(?P<v>euros?|dollars?|usd|eur|gbp|pounds?|yen|yuan|rmb)\b|(?:用|以)(?P<v2>人民币|美元|美金|欧元|英镑|日元|港币|港元|澳元|加元|韩元|新台币|台币|新币)(?:显示|标价|计价|报价)"
        r"|(?:换算成|换成|折算成|折合成|转换成|都按)(?P<v3>人民币|美元|美金|欧元|英镑|日元|港币|港元|澳元|加元|韩元|新台币|台币|新币)"
        # the prices named first: "给我报价的时候用美元", "价格都用欧元"
        r"|(?:报价|标价|价格|价钱|金额)[^，,。]{0,5}?(?:用|以|按)(?P<v4>人民币|美元|美金|欧元|英镑|日元|港币|港元|澳元|加元|韩元|新台币|台币|新币)",
    ),
    # ---- interests (stored as the established taste.<item> = like)
    (
        "taste.like",
        None,
        r"\bi(?:'m|\s+am)\s+(?:really\s+|very\s+|so\s+|super\s+|totally\s+)?into\s+(?P<v>"
        + ITEM_EN
        + r")"
        + _END,
    ),
    (
        "taste.like",
        None,
        r"\bi\s+(?:play|practice|practise)\s+(?P<v>[a-z][a-z ]{1,20}?(?:\s+and\s+[a-z]+)?)"
        + r"(?=\s+(?:in|with|at|on|every|most|twice|once|since|a\s+lot)\b|"
        + _END[3:],
    ),
    ("taste.like", None, r"(?:我的)?(?:爱好|兴趣爱好|兴趣)是(?P<v>[^，。,；;！!]{1,20})"),
    # ---- do not recommend
    (
        "recommend",
        None,
        r"\bi(?:'m|\s+am)\s+not\s+(?:really\s+|at\s+all\s+)?interested\s+in\s+(?P<v>"
        + ITEM_EN
        + r")"
        + _END
        + r"|\bno\s+more\s+(?P<v2>[\w ]{2,30}?)\s+(?:recommendations|suggestions)\b",
    ),
    (
        "recommend",
        None,
        r"我对(?P<v>[^，。,；;]{1,10}?)(?:不感兴趣|没(?:有)?兴趣|不感冒)"
        # the topic fronted: "股票我不感兴趣", "理财产品我真没兴趣"
        r"|^\W*(?P<v2>[\u4e00-\u9fff]{1,6}?)我(?:真的?|是|一点)?(?:都|也)?(?:不感兴趣|没(?:什么|啥|有)?兴趣|不感冒)",
    ),
    # ---- more phrasings (round 2)
    (
        "contact.channel",
        CHANNELS,
        r"(?:发|寄)(?:到)?我(?:的)?(?P<v>邮箱|微信|短信)(?:就行|就好|吧)?$",
    ),
    (
        "location.city",
        None,
        r"^\W*(?:我)?(?:现在|目前)(?:在|住在)(?P<v>[\u4e00-\u9fff]{2,4}?)(?:工作|生活|定居|住)",
    ),
    # a reading said to be high: "我血压高", "我尿酸高好几年了" (stored as the
    # condition's name, 高血压 / 高血糖 / 高尿酸, by :data:`_HIGH_READING_ZH`)
    (
        "health.condition",
        None,
        r"我(?:有点)?(?P<v>血压高|血糖高|血脂高|尿酸高)"
        # the reading with adverbs between it and 高, lasting: "我血糖一直偏高", "我胆固醇常年
        # 偏高", or with its treatment or years after it ("我血压有点高，在吃药控制"); a reading
        # "有点高" alone may be today's ("这两天我血压有点高"), which names no condition
        r"|我(?:的)?(?P<v2>血压|血糖|血脂|尿酸|胆固醇)(?:一直|一向|长期|常年|老是|总是|向来|一贯)"
        r"(?:都|也)?(?:有点|有些|稍微|稍|比较|略|偏)?(?:偏)?高(?![峰铁兴])"
        r"|我(?:的)?(?P<v3>血压|血糖|血脂|尿酸|胆固醇)(?:有点|有些|稍微|稍|比较|略|偏)(?:偏)?高"
        r"(?=[，,]?\s*(?:现在|目前|一直|平时|每天|天天)?(?:在|要|得)?(?:吃药|控制|打胰岛素)"
        r"|(?:好|很)?(?:多|几)年|[一二两三四五六七八九十几\d]+年了)",
    ),
    (
        "job.title",
        None,
        r"\bi(?:'m|\s+am)\s+an?\s+(?P<v>[a-z][a-z -]{2,40}?)"
        + _PLACE_ADVERB
        + r"\s+(?:at|for|with)\s+"
        + NAME_EN,
    ),
    (
        "contact.channel",
        CHANNELS,
        r"\b(?:best|easiest|preferred|quickest)\s+(?:way\s+)?to\s+(?:reach|contact|get\s+(?:hold\s+of|in\s+touch\s+with))\s+me\s+is\s+(?:via\s+|by\s+|on\s+|through\s+|over\s+)?(?P<v>"
        + _alt(CHANNELS, ascii_only=True)
        + r")\b",
    ),
    (
        "contact.channel",
        CHANNELS,
        r"\b(?:shoot|drop|send)\s+me\s+(?:an?\s+)?(?P<v>email|e-mail|text|message)\s+(?:instead|rather)\b",
    ),
    (
        "name.preferred",
        None,
        r"\bi\s+go\s+by\s+(?P<v>"
        + NAME_EN
        + r")|\b(?:please\s+)?call\s+me\s+(?P<v2>(?-i:[A-Z])[\w'-]+)\s+(?:instead|please|for\s+short)\b"
        # "friends have called me Bear since school"
        r"|\b(?:friends|everyone|everybody|people|folks|my\s+(?:friends|family|mates))\s+(?:have\s+)?"
        r"(?:always\s+)?called\s+me\s+(?P<v3>(?-i:[A-Z])[\w'-]+)",
    ),
    (
        "intolerance",
        None,
        r"^\W*(?P<v>dairy|lactose|gluten|wheat|milk|fructose|caffeine|beans|onions|garlic|spicy\s+food)\s+(?:doesn't|does\s+not|don't|do\s+not)\s+agree\s+with\s+me\b",
    ),
    (
        "medication",
        None,
        r"\bi(?:'m|\s+am)\s+on\s+(?P<v>blood\s+thinners|statins|antidepressants|birth\s+control|the\s+pill|beta\s+blockers|ssris|antibiotics|insulin|chemo(?:therapy)?|hrt)\b|\bi\s+take\s+(?P<v2>blood\s+thinners|statins|antidepressants|birth\s+control|the\s+pill|beta\s+blockers|vitamin\s+d|iron\s+supplements)\b",
    ),
    (
        "payment.method",
        PAYMENTS,
        r"\bi\s+(?:only|mostly|usually|always|just)\s+(?:use|pay\s+(?:with|by))\s+(?P<v>"
        + _alt(PAYMENTS, ascii_only=True)
        + r")\b|^\W*(?P<v2>"
        + _alt(PAYMENTS, ascii_only=True)
        + r")\s+only\b",
    ),
    (
        "location.city",
        None,
        r"\b(?:but|and)\s+(?:now\s+)?(?:i\s+)?(?:live|am\s+living|'m\s+living)\s+in\s+(?P<v>"
        + NAME_EN
        + r")",
    ),
    (
        "job.employer",
        None,
        r"\bi(?:'m|\s+am)\s+an?\s+[\w -]{0,40}?(?:er|ist|yst|or|ian|ant|ent|eer|nurse|chef|cook|intern|lead|vet|clerk|coach|head)\s+(?:at|for|with)\s+(?P<v>"
        + NAME_EN
        + r")",
    ),
    (
        "family.daughter",
        None,
        r"\bi\s+have\s+an?\s+(?:\d+[\s-]year[\s-]old\s+|little\s+|baby\s+)?daughter\s+(?:named|called)\s+(?P<v>"
        + NAME_EN
        + r")",
    ),
    (
        "family.son",
        None,
        r"\bi\s+have\s+an?\s+(?:\d+[\s-]year[\s-]old\s+|little\s+|baby\s+)?son\s+(?:named|called)\s+(?P<v>"
        + NAME_EN
        + r")",
    ),
    (
        "pet.species",
        PETS,
        r"\bwe(?:\s+have|'ve\s+got|\s+own)\s+(?:a|an|one|two|three|\d)\s+(?:\w+\s+)?(?P<v>"
        + _alt(PETS, ascii_only=True)
        + r")\b"
        + L.NOT_A_PET_AFTER,
    ),
    (
        "travel.airline",
        None,
        r"\bi(?:\s+(?:prefer|like|love|always|usually|only|mostly|would\s+rather|would\s+prefer\s+to)|'d\s+rather|'d\s+prefer\s+to)\s+(?:flying|fly)\s+(?:with\s+)?(?P<v>AIRLINES)\b".replace(
            "AIRLINES",
            r"Delta|United|American(?:\s+Airlines)?|Southwest|JetBlue|Alaska|Lufthansa|Emirates|Qatar(?:\s+Airways)?|KLM|Air\s+France|British\s+Airways|Singapore\s+Airlines|Cathay(?:\s+Pacific)?|ANA|JAL|Ryanair|easyJet|Spirit|Frontier|Qantas|Air\s+Canada|Turkish(?:\s+Airlines)?|Virgin(?:\s+Atlantic)?|Etihad|Iberia|Swiss|SAS|Finnair|Aer\s+Lingus|Wizz(?:\s+Air)?",
        ),
    ),
    (
        "hotel.chain",
        None,
        r"\bi\s+(?:really\s+)?(?:like|love|prefer)\s+(?:staying\s+(?:at|with|in)\s+|to\s+stay\s+(?:at|with|in)\s+)?(?P<v>HOTELS)s?\b".replace(
            "HOTELS",
            r"Marriott|Hilton|Hyatt|IHG|Accor|Sheraton|Westin|Four\s+Seasons|Holiday\s+Inn|Novotel|Ibis|Radisson|Wyndham|Best\s+Western|Ritz[\s-]Carlton|Intercontinental|Shangri-La|Mandarin\s+Oriental|Kempinski|Premier\s+Inn",
        ),
    ),
    (
        "taste.like",
        None,
        r"\bi\s+collect\s+(?P<v>"
        + ITEM_EN
        + r")"
        + _END
        + r"|\bmy\s+hobb(?:y|ies)\s+(?:is|are|include)\s+(?P<v2>"
        + ITEM_EN
        + r")"
        + _END,
    ),
)


# ---- round 3: general forms (issue 12: phrasings the dev half never had) --------------
# written against the schema's categories, not single sentences: subject-less clauses
# ("been vegan for years", "on levothyroxine"), synonyms per category, either word order
DIET_CODES = _codes(
    """
vegetarian: vegetarian | vegitarian | vegeterian | vegetarain | veggie | veg
vegan: vegan | plant-based | plant based
pescatarian: pescatarian | pescetarian
keto: keto | ketogenic
paleo: paleo
"""
)
TONE_CODES = _codes(
    """
formal: formal | professional-sounding
casual: casual | informal | relaxed | chill | laid-back | laid back
friendly: friendly | warm
professional: professional
direct: direct | blunt | no-nonsense
"""
)
PETS_EN = _alt(PETS, ascii_only=True)
PETS_ZH = _alt(PETS, ascii_only=False)
PAY_EN = _alt(PAYMENTS, ascii_only=True)
PAY_ZH = _alt(PAYMENTS, ascii_only=False)
CHAN_EN = _alt(CHANNELS, ascii_only=True)
CHAN_ALL = _alt(CHANNELS)
JOB_HEAD = "|".join(sorted(L.JOB_HEADS, key=len, reverse=True))
JOB_ZH = "|".join(sorted(L.ZH_JOB_SUFFIXES, key=len, reverse=True))
ZH_NAME = r"[\u4e00-\u9fff]{2,3}"
MED_WORD = r"[a-z]+(?:lukast|triptan|tinib|in|ol|ine|ide|pril|sartan|statin|formin|azole|pam|lam|cillin|mycin|one|afil|xetine|oxacin|prazole|tidine|dipine|mab|xine|xin)(?![a-z])(?!\s+(?:time|standard\s+time)\b)"
#: a free item said before a cut: ", ", "since ...", "for ... years", "last year"
ITEM_CUT = r"(?=\s*(?:[,.;!?，。；！？]|$)|\s+(?:since|for|last|this|when|as|at|every|a\s+few|years?|now|lol|btw|tbh)\b)"
#: A channel the user misses things on: "短信通知我老是收不到", "邮件联系我我也看不到".
_MISSED_ZH = r"[^，,。]{0,6}?(?:收不到|看不到|没收到|接不到|不看|看不见|漏掉|错过)"

VALUE_ROWS_3: tuple[tuple[str, str, str], ...] = (
    # calls: "No calls please", "phone calls are a no-go", "don't call" (clause alone)
    (
        "contact.call",
        "never",
        r"\bno\s+(?:phone\s+)?calls\b(?!\s+(?:after|before|between|from|during|on|at|past|until|till|in)\b)"
        r"|\b(?:phone\s+)?calls\s+are\s+(?:a\s+)?(?:no[\s-]go|no[\s-]no|out|off[\s-]limits|not\s+(?:ok|okay|welcome))"
        r"|^\W*(?:pls\s+|please\s+|just\s+)?(?:don't|do\s+not|dont|never)\s+(?:ever\s+)?(?:call|ring|phone)(?:\s+me)?(?=\s*(?:[,.;!—–-]|$|and\b|but\b|though\b))",
    ),
    (
        "contact.call",
        "allowed",
        r"\b(?:calling\s+me|phone\s+calls|a\s+(?:phone\s+)?call)\s+(?:is|are)\s+(?:totally\s+|perfectly\s+)?(?:fine|ok|okay|welcome|alright)"
        r"|打(?:个)?电话(?:给我)?(?:也)?(?:没问题|没关系|可以的?|也行|都行)",
    ),
    (
        "contact.call.emergency",
        "allowed",
        r"\bunless\s+(?:it's\s+|its\s+|it\s+is\s+)?(?:an?\s+|really\s+|truly\s+)?(?:emergency|urgent)"
        r"|\b(?:emergenc(?:y|ies)|urgent\s+(?:stuff|things|matters))\s+(?:only|are\s+(?:fine|ok|okay|the\s+exception))"
        r"|(?:急事|紧急(?:情况|的事|事情)?)(?:的话)?(?:可以|才|再|就)(?:打|给我打)"
        # the exception said after the rule: "别打电话给我，紧急情况除外"
        r"|(?:急事|紧急(?:情况|的事|事情)?)除外",
    ),
    # pronouns next to Chinese ("我的代词是she/her": no \b between 是 and s)
    ("pronouns", "he/him", r"(?<![a-z])he\s*/\s*him(?![a-z])"),
    ("pronouns", "she/her", r"(?<![a-z])she\s*/\s*her(?![a-z])"),
    ("pronouns", "they/them", r"(?<![a-z])they\s*/\s*them(?![a-z])"),
    # diet
    (
        "diet",
        "pescatarian",
        r"^\W*no\s+meat(?:\s+for\s+me)?\s*[,;]?\s*(?:but\s+)?fish\s+(?:is\s+|are\s+)?(?:ok|okay|fine|allowed)\b|\bfish\s+but\s+no\s+(?:other\s+)?meat\b|除了鱼(?:以外|之外)?(?:都)?不吃肉|吃鱼(?:但|但是)?不吃(?:别的|其他)?肉",
    ),
    (
        "diet",
        "vegan",
        r"纯素|全素|严格素食|蛋奶都不(?:碰|吃)|\bplant[\s-]based\b(?!\s+(?:milk|burger|options?|restaurants?))",
    ),
    # status
    (
        "relationship.status",
        "married",
        r"^\W*(?:happily\s+)?married\b(?!\s+(?:people|couples?|life)\b)|\bi(?:'ve|\s+have)\s+been\s+married\b",
    ),
    (
        "relationship.status",
        "single",
        r"^\W*(?:still\s+|currently\s+)?single(?=\s*(?:[,.;!]|$|and\b))|我(?:现在|目前|还是|还|仍然|依然|一直)(?:是)?单身",
    ),
    # travel
    (
        "seat",
        "window",
        r"(?=.*\b(?:prefer|like|love|always|usually|flights?|planes?|fly|flying|trains?)\b)\b(?:sit|sitting|seat|seats)\s+(?:by|at|near|next\s+to)\s+the\s+window\b|^\W*(?:a\s+)?window\s+seats?\b(?=\s*(?:[,.;!]|$|always|please|pls|if|for|every|whenever))",
    ),
    (
        "seat",
        "aisle",
        r"\b(?:sit|sitting)\s+(?:on|by|at|in)\s+the\s+aisle\b|^\W*(?:an?\s+)?aisle\s+seats?\b(?=\s*(?:[,.;!]|$|always|please|pls|if|for|every|whenever))|靠走廊|过道(?:的)?(?:座位|位子|位置)|(?:坐|选|要|订)过道",
    ),
    ("job.title", "teacher", r"\bi\s+teach\b(?!\s+(?:myself|my\s+(?:kids?|son|daughter|dog)))"),
    (
        "family.children",
        "2",
        r"我有(?:一个|个)(?:儿子|女儿)(?:和|、|，|,)?(?:还有)?(?:一个|个)(?:儿子|女儿)",
    ),
    ("hotel.room", "twin_beds", r"\b(?:two|2|twin)\s+(?:separate\s+)?beds\b|双床"),
    (
        "hotel.room",
        "low_floor",
        r"\b(?:ground|low|lower)\s+floor\b(?=.*\b(?:please|pls|prefer|room|always|only)\b)",
    ),
    ("hotel.room", "high_floor", r"(?:安排|要|住|订)高(?:楼)?层|高层(?:的)?房"),
    (
        "response.format",
        "code_only",
        r"\b(?:just|only)\s+(?:give\s+me\s+|show\s+me\s+|send\s+(?:me\s+)?)?(?:the\s+)?code\b",
    ),
    ("response.tone", "encouraging", r"\bmore\s+(?:encouraging|supportive|positive)\b"),
    (
        "response.tone",
        "casual",
        r"\bno\s+need\s+to\s+be\s+(?:so\s+)?formal\b|\b(?:don't|do\s+not)\s+be\s+so\s+formal\b",
    ),
    ("response.tone", "professional", r"专业(?:一)?点|(?:更|要)专业"),
    (
        "seat",
        "exit_row",
        r"\bexit[\s-]rows?\b(?!\s+(?:is|are|was)\b)|(?:安全|紧急)出口(?:那排|那一排|的座位|的位子|旁边)",
    ),
    (
        "travel.class",
        "business",
        r"\bbusiness\s+class\b(?=.{0,20}\b(?:only|always|please|pls)\b)|^\W*(?:i\s+)?only\s+(?:fly|book)\s+business\b",
    ),
    # answers
    (
        "response.length",
        "short",
        r"\b(?:answer|reply|respond|write)\s+(?:more\s+)?(?:briefly|concisely|succinctly)\b|\bbe\s+(?:a\s+(?:bit|little|lot)\s+)?(?:more\s+)?(?:brief|succinct|concise)\b"
        r"|\b(?:keep|make)\s+(?:it|them|things|answers|replies|responses|your\s+answers)\s+(?:short|brief|concise|snappy|tight)\b"
        r"|\b(?:don't|do\s+not|no)\s+(?:write\s+)?(?:essays|novels|walls?\s+of\s+text|rambling)\b|\bjust\s+the\s+(?:answer|gist|short\s+version)\b|\btldr\b"
        r"|别啰嗦|不要啰嗦|少啰嗦|太啰嗦|别废话|说重点|讲重点|长话短说|简短(?:一)?点|简洁(?:一)?点|短(?:一)?点"
        # a short answer liked: "我喜欢简洁的回答", "偏好简短的回复"
        r"|(?:喜欢|偏好|习惯|倾向于?)(?:看)?(?:简洁|简短|简明|精简|短)(?:一?点)?的(?:回答|回复|答案|解释|说明)"
        r"|(?:控制在|不超过|别超过|不要超过)\s*(?:\d+|[一二两三四五])\s*(?:句|行|段)(?:话)?(?:以内|之内)?|太长了"
        # a count of characters up to three hundred: "回复控制在一百字以内", "别超过200字"
        r"|(?:控制在|不超过|别超过|不要超过|最多)\s*(?:[1-9]\d|[12]\d\d|300|[一两二三]百(?:[一二三四五六七八九]十)?|[二三四五六七八九]?十)"
        r"\s*(?:个)?字(?:以内|之内|左右)?",
    ),
    (
        "response.length",
        "long",
        r"(?<!you\s)\b(?:give\s+me|i\s+(?:like|prefer|want))\s+(?:the\s+)?(?:long|detailed|thorough|in-depth|comprehensive|full\s+details?|all\s+the\s+details?)\b|写详细|详细一?点|长一?点的回答|喜欢长的",
    ),
    (
        "response.format",
        "table",
        r"(?:做成|整理成|列成|弄成|画成|用)(?:一个|个|一张)?表格|\btables?\s+(?:please|pls|for\s+comparisons)\b",
    ),
    (
        "response.format",
        "bullets",
        r"^\W*(?:again\W+)?bullet(?:s|\s+points?)\b|(?<!no\s)(?<!without\s)(?<!not\s)(?<!hate\s)(?<!hating\s)(?<!dislike\s)(?<!stand\s)(?<!loathe\s)(?<!of\s)(?<!n't\slike\s)\bbullet[\s-]?points?\b|用列表|列表的形式|分条",
    ),
    (
        "response.format",
        "summary_first",
        r"\bsummary\s+first\b|\bsummar(?:y|ize)\s+(?:at\s+the\s+)?(?:top|start)\b|先(?:给|说|讲)(?:出)?(?:结论|总结|要点)",
    ),
    (
        "response.tone",
        "casual",
        r"\bless\s+formal\b|\btalk\s+(?:normally|like\s+a\s+(?:normal\s+)?(?:person|human))\b|\bsound\s+like\s+a\s+robot\b|^\W*(?:chill|relax)\W*$|别这么(?:官方|正式|客气)|不用(?:那么)?客气|太正式了|说人话",
    ),
    ("response.tone", "formal", r"\bless\s+casual\b|\bmore\s+formal\b"),
    (
        "response.style",
        "simple",
        r"\blike\s+i'm\s+(?:five|5|a\s+(?:kid|child|beginner|five[\s-]year[\s-]old))\b|\beli5\b|\bno\s+jargon\b|\b(?:go\s+easy\s+on|cut|skip|ditch|drop|less\s+of)\s+(?:the\s+)?(?:tech(?:nical)?\s+)?jargon\b|\bwithout\s+(?:the\s+|any\s+)?jargon\b|\bin\s+plain\s+(?:english|terms|language)\b|\bdumb\s+it\s+down\b|大白话|别用术语|不要术语|简单的话|简单点说|说简单点|说得简单点",
    ),
    (
        "response.emoji",
        "false",
        r"\bemojis?\s+(?:are\s+)?(?:annoying|not\s+(?:needed|welcome))|\bhate\s+emojis?\b|(?:不要|别|不用)(?:加|放|用)?(?:任何)?表情",
    ),
    # units (either order: "celsius please", "prices in euros")
    (
        "units.system",
        "metric",
        r"\b(?:kg|km|cm|kilos|kilometers|kilometres|meters|metres)\s+(?:please|pls|not)\b|公斤|千米|公里",
    ),
    ("units.system", "imperial", r"\b(?:lbs|miles|feet|inches|pounds)\s+(?:please|pls)\b"),
    # accessibility
    (
        "accessibility",
        "large_text",
        r"\b(?:my\s+)?(?:eyesight|vision)\s+is\s+(?:bad|poor|not\s+great)\b|\blow\s+vision\b|字(?:体)?(?:再)?大(?:一)?点|放大字体",
    ),
    (
        "accessibility",
        "screen_reader",
        r"\b(?:i'm|i\s+am)\s+(?:blind|visually\s+impaired)\b|读屏|屏幕阅读",
    ),
)

#: (key, codes or None, pattern), as ITEM_ROWS.
ITEM_ROWS_3: tuple[tuple[str, Mapping[str, str] | None, str], ...] = (
    # ---- contact: "whatsapp me", "text me", "send updates by text message", "X联系我"
    (
        "contact.channel",
        CHANNELS,
        r"(?:^|\b(?:just|only|pls|please|always|best\s+to)\s+)\W*(?P<v>whatsapp|telegram|signal|text|sms|email|e-mail|wechat|imessage|dm)\s+me\b(?!\s+(?:the|a|an|this|that|it|my|your|at|when|if|back|later|tomorrow|tonight)\b)",
    ),
    (
        "contact.channel",
        CHANNELS,
        r"\b(?:send|give|get|keep)\s+(?:me\s+)?(?:\w+\s+){0,2}?(?:by|via|over|through|on|as)\s+(?:an?\s+)?(?P<v>text\s+messages?|texts?|sms|e-?mail|whatsapp|telegram|signal|wechat|imessage)\b(?!\s+(?:to|about)\s+(?!me)\w)",
    ),
    (
        "contact.channel",
        CHANNELS,
        r"^\W*(?P<v>"
        + CHAN_EN
        + r")\s+(?:is|'s)\s+(?:the\s+)?(?:only|best|easiest|one|app|way)\b|\b(?:contact|reach|message|ping)\s+me\s+(?:on|via|through|over)\s+(?P<v2>"
        + CHAN_EN
        + r")\b",
    ),
    (
        "contact.channel",
        CHANNELS,
        r"(?:发|用)\s*(?P<v>短信|邮件|微信|"
        + CHAN_EN
        + r")\s*(?:给我|联系我|找我|通知我)(?!"
        + _MISSED_ZH
        + r")|^\W*(?:用\s*)?(?P<v2>"
        + CHAN_ALL
        + r")\s*(?:上)?(?:联系|联络|找我|通知我)(?!"
        + _MISSED_ZH
        + r")",
    ),
    # ---- name / age / birthday
    (
        "name",
        None,
        r"^\W*(?:hey|hi|hello|yo)?\W*(?:it's|its|this\s+is)\s+(?P<v>(?-i:[A-Z])[\w'-]+)\s+(?:here|speaking)\b",
    ),
    # "hey, Dev here, ...": a greeting and the name signed in with "here" (not a place:
    # "London here", not a role: "Mum here")
    (
        "name",
        None,
        r"^\W*(?:hey|hi|hello|hiya|yo|morning|evening)\W+(?!(?:"
        + _alt({k: k for k in L.CITIES if k.isascii()})
        + r"|mum|mom|dad|me|im|its|everyone|everybody|nobody|someone|admin|support)\b)"
        r"(?P<v>(?-i:[A-Z][a-z]{1,15}))\s+here\b(?=\s*(?:[,.;!:-]|$))",
    ),
    (
        "name",
        None,
        # ("我叫外卖了", "我叫了车" call for something)
        r"(?:本人|^\W*我)(?:的名字)?(?:名字)?叫(?!我|了|外卖|车|滴滴|快递|代驾|救护车|出租车|网约车|跑腿|闪送)"
        r"(?P<v>" + ZH_NAME + r")(?=$|[，。,.!！])",
    ),
    (
        "name.preferred",
        None,
        r"\b(?:friends|everyone|people|they)\s+call\s+me\s+(?P<v>(?-i:[A-Z])[\w'-]+)|^\W*call\s+me\s+(?P<v2>(?-i:[A-Z])[\w'-]+)\W*$|(?:大家|朋友们?|别人)(?:都)?叫我(?P<v3>"
        + ZH_NAME
        + r")",
    ),
    (
        "age",
        None,
        r"\bi(?:'m|\s+am|m)\s+(?P<v>(?:twenty|thirty|forty|fifty|sixty|seventy|eighty)(?:[\s-](?:one|two|three|four|five|six|seven|eight|nine))?|eighteen|nineteen)(?:\s+years?\s+(?:old|young))?(?=\s*(?:[,.;!]|$|and\b|now\b|so\b|but\b))"
        r"|^\W*(?:i'm\s+|i\s+am\s+)?(?P<v2>\d{2})\s+(?:years?\s+(?:old|young)|yrs?\s+old|y/?o)\b|\bi\s+(?:just\s+)?turned\s+(?P<v3>\d{2}|(?:twenty|thirty|forty|fifty|sixty|seventy)(?:[\s-]\w+)?)\b",
    ),
    (
        "age",
        None,
        r"^\W*我(?:今年)?(?P<v>\d{2}|[二三四五六七八九]十[一二三四五六七八九]?)(?:岁)?了\W*$",
    ),
    # ---- languages
    (
        "language.spoken",
        LANGS,
        r"(?:\bi(?:\s+can)?\s+speak|\b(?:i(?:'m|\s+am)\s+)?fluent\s+in|^\W*(?:i\s+)?speak"
        # "i can get by in italian and arabic": a language spoken, if not well
        r"|\bi\s+(?:can\s+)?(?:just\s+about\s+)?get\s+by\s+in)\s+(?:fluent\s+|good\s+|decent\s+|basic\s+|conversational\s+|native\s+|broken\s+)?(?P<v>(?:"
        + _alt(LANGS, ascii_only=True)
        + r")(?:\s*(?:,|and|&|plus)\s*(?:a\s+(?:bit|little)\s+(?:of\s+)?|some\s+|basic\s+)?(?:"
        + _alt(LANGS, ascii_only=True)
        + r"))*)\b",
    ),
    # "English is my second language", "Tamil's my mother tongue"
    (
        "language.spoken",
        LANGS,
        r"\b(?P<v>"
        + _alt(LANGS, ascii_only=True)
        + r")(?:\s+is|'s)\s+(?:my|our)\s+(?:first|second|third|native|home|main|mother)\s+(?:language|tongue)\b",
    ),
    (
        "language.spoken",
        LANGS,
        r"^\W*(?P<v>"
        + _alt(LANGS, ascii_only=False)
        + r")也(?:还行|可以|会|会一点|不错|凑合|还可以|能说)",
    ),
    (
        "language.spoken",
        LANGS,
        r"我(?:的)?(?P<v>"
        + _alt(LANGS, ascii_only=False)
        # ("我德语讲得还不错": a degree word before the rating)
        + r")(?:说得|讲得|水平|口语)?(?:也|都|算|还算)?(?:还可以|还行|还不错|不错|很好|挺好|很流利|流利|还凑合|交流没问题"
        r"|一般般?(?=$|[，。,.!！；;]|吧|啦)|马马虎虎|凑合|(?:能)?听得懂)",
    ),
    # a language being learned ("我在学日语", "平时在自学韩语", "我正在学习西班牙语")
    (
        "language.spoken",
        LANGS,
        r"我(?:最近|现在|一直|业余|平时|周末|下班后|自己|也|还){0,2}(?:在|正在)(?:自学|学习|学|进修)"
        r"(?:一点|一些|点)?(?P<v>" + _alt(LANGS, ascii_only=False) + r")",
    ),
    (
        "family.child.names",
        None,
        r"(?:^\W*|我)(?:就|只)?有?(?:一)?个(?:女儿|儿子)[，,]?\s*(?:名字)?叫(?P<v>[\u4e00-\u9fff]{1,3})(?=$|[，。,.!！])",
    ),
    (
        "language",
        LANGS,
        r"(?:请|回复|回答)?(?:请)?用(?P<v>繁体中文|繁体字|繁体|中文|英文|日文|日语|韩语|法语|德语|西班牙语)(?:回复|回答|写|跟我说|就行|就好|吧|说)",
    ),
    # ---- diet
    (
        "diet",
        DIET_CODES,
        r"(?:\bi(?:'ve|\s+have)\s+been\s+|\bi(?:'m|\s+am)\s+|^\W*(?:been\s+)?|\bi(?:'ve)?\s+(?:went|gone|turned|became|become|switched\s+to\s+being)\s+)(?:an?\s+)?(?:strict(?:ly)?\s+|full[\s-]time\s+|fully\s+|totally\s+|mostly\s+|proudly\s+)?(?P<v>vegan|vegetarian|vegitarian|vegeterian|vegetarain|veggie|pesc[ae]tarian|paleo|plant[\s-]based)\b(?!\s+(?:food|restaurants?|options?|recipes?|meals?|dishes|places?|friends?|burgers?|milk|cheese)\b)",
    ),
    (
        "diet.avoid",
        None,
        r"\bi\s+(?:don't|do\s+not|dont|never|can't|cannot|won't)\s+(?:ever\s+)?(?:drink|touch|consume)\s+(?P<v>"
        + ITEM_EN
        + r")"
        + _END,
    ),
    # ---- tastes: "obsessed with X", "what I love is X", "X is my favourite", "not a fan of X"
    (
        "taste.like",
        None,
        r"\bi(?:'m|\s+am)?\s*(?:so\s+|totally\s+|kinda\s+|a\s+bit\s+|completely\s+)?(?:obsessed\s+with|addicted\s+to|crazy\s+about|mad\s+about|hooked\s+on|passionate\s+about|a\s+sucker\s+for|can't\s+get\s+enough\s+of)\s+(?P<v>"
        + ITEM_EN
        + r")"
        + _END
        + r"|^\W*what\s+i\s+(?:really\s+|absolutely\s+|truly\s+)?(?:love|like|enjoy|adore)\s+(?:most\s+)?is\s+(?P<v2>"
        + ITEM_EN
        + r")"
        + _END
        + r"|^\W*(?:(?:ok(?:ay)?|so|oh|and|well|also|btw|fyi|yeah|anyway)\W+)*(?P<v3>[a-z][a-z ]{1,30}?)\s+(?:is|are)\s+my\s+(?:absolute\s+|all[\s-]time\s+|total\s+|number\s+one\s+|biggest\s+|two\s+|three\s+|one\s+)?(?:favou?rites?|faves?|favs?|weakness(?:es)?|guilty\s+pleasures?)(?:\s+(?:food|dish|snack|drink|meal|cuisine|thing))?(?:\s+(?:in\s+the\s+(?:world|universe)|on\s+earth|ever|of\s+all\s+time|by\s+far))?(?=\s*(?:[,.;!]|$))"
        + r"|^\W*(?:a\s+)?(?:big|huge|massive)\s+fan\s+of\s+(?P<v4>"
        + ITEM_EN
        + r")"
        + _END,
    ),
    (
        "taste.dislike",
        None,
        r"^\W*(?:i'm\s+|i\s+am\s+)?not\s+(?:a\s+|really\s+a\s+|much\s+of\s+a\s+|the\s+biggest\s+)?(?:big\s+|huge\s+)?fan\s+of\s+(?P<v>"
        + ITEM_EN
        + r")"
        + _END
        + r"|^\W*(?P<v2>[a-z][a-z ]{1,25}?)\s+tastes?\s+(?:like\s+soap|awful|terrible|horrible|disgusting|gross|bad|weird)\b"
        # "blue cheese makes me gag": a taste, not a reaction (no allergy is said)
        + r"|^\W*(?P<v9>[a-z][a-z ]{1,25}?)\s+makes?\s+me\s+(?:gag|retch|heave|want\s+to\s+(?:gag|heave|throw\s+up|puke))\b"
        + r"|^\W*what\s+i\s+(?:really\s+)?(?:hate|can't\s+stand|dislike)\s+(?:most\s+)?is\s+(?P<v3>"
        + ITEM_EN
        + r")"
        + _END,
    ),
    (
        "taste.like",
        None,
        r"无(?P<v>辣)不欢|(?:我|本人)(?:是个?|是一个)?(?P<v2>[\u4e00-\u9fff]{1,4}?)控(?=$|[，。,.!！])",
    ),
    (
        "taste.dislike",
        None,
        r"^\W*(?P<v>[\u4e00-\u9fff]{1,4}?)(?:我|本人)(?:是)?(?:真的|实在|完全|特别|最|一点都|一直)?(?:受不了|讨厌|不喜欢|接受不了|吃不了|吃不惯|不爱吃)",
    ),
    (
        "taste.like",
        None,
        r"^\W*(?P<v>[\u4e00-\u9fff]{1,4}?)(?:我|本人)(?:是)?(?:真的|超|最|特别|超级)(?:爱吃|喜欢|爱)",
    ),
    # ---- interests
    (
        "taste.like",
        None,
        r"(?:业余时间|空闲时间|闲暇时|平时|平常|周末|有空的时候|有空)(?:我)?(?:最)?(?:喜欢|爱|会去|常)(?P<v>[^，。,；;！!？?]{1,20})"
        r"|我是(?:个|一个|一名|一位)?+(?:资深|铁杆|忠实|骨灰级|狂热|超级|死忠|老)?+(?P<v2>[\u4e00-\u9fff]{2,5}?)(?:爱好者|发烧友|迷)(?=$|[，。,.!！])"
        r"|(?:最近|近来|这几年)?(?:迷上了?|爱上了|喜欢上了?)(?P<v3>[\u4e00-\u9fff]{1,8})",
    ),
    (
        "taste.like",
        None,
        r"\bmy\s+hobb(?:y|ies)\s+(?:is|are|include)\s+(?P<v>[^.;!?]{2,80}?)(?=\s*(?:[.;!?]|$))",
    ),
    # ---- allergies said without "allergic": reactions, "X allergy here", "X过敏"
    (
        "allergy",
        None,
        r"\bi\s+(?:react|reacted)\s+(?:badly\s+|poorly\s+|terribly\s+|horribly\s+|really\s+badly\s+)?to\s+(?P<v>"
        + ITEM_EN
        + r")"
        + _END
        + r"|^\W*(?P<v2>[a-z][\w-]+(?:\s+[a-z][\w-]+)?)\s+makes?\s+(?:me|my\s+(?:eyes|nose|throat|skin|face|lips|mouth|tongue|chest))\s+(?:sneeze|itch|wheeze|break\s+out|swell|puff\s+up|come\s+out\s+in)"
        + r"|^\W*(?:severe\s+|bad\s+|serious\s+|mild\s+|deadly\s+)?(?P<v3>[a-z]+(?:\s+[a-z]+)?)\s+allerg(?:y|ies)\s+(?:here|over\s+here|fyi)\b"
        + r"|^\W*(?P<v4>[a-z][\w-]+(?:\s+[a-z][\w-]+)?)\s+(?:are|is)\s+(?:dangerous|deadly|life[\s-]threatening)\s+(?:for|to)\s+me\b",
    ),
    (
        "allergy",
        None,
        r"^\W*(?:我)?(?:是)?(?P<v>(?:(?!对|我|不|也|还|有点|严重|会|就|都|很|容易|一吃|一用|特别|有|是|可惜|只是|不过|但)[\u4e00-\u9fffA-Za-z]){1,8}?)(?:我)?(?:也)?(?:有点|严重|特别)?过敏(?:体质)?(?=$|[，。,.!！]|了)"
        r"|(?:吃了?|用了?|打了?|碰了?)(?P<v2>(?!会|就|都|也|后|(?:药|东西|这个|那个)(?:就|会|后|我))[\u4e00-\u9fff]{1,6}?)(?:我|人)?(?:身上|脸上|皮肤|全身|浑身)?(?:就|会|后)?(?:会)?(?:起|长|出)?(?:疹子|红疹|荨麻疹|风团|红点|呼吸困难|休克|浑身痒|浑身起|喉咙肿|嘴巴肿|嘴肿|过敏)"
        # the user stung or bitten: "我被蜜蜂蜇了会过敏", "被马蜂蛰了我会休克" (the insect is
        # the allergen; a subjectless "被蜜蜂蛰了会过敏" is left to the clause that names it)
        r"|我被(?P<v4>[\u4e00-\u9fff]{1,3}?)(?:蜇|蛰|叮|咬)(?:了|到)?(?:一下)?(?:就|会|后)?(?:会)?(?:过敏|起疹子|肿|休克|呼吸困难)"
        r"|被(?P<v5>[\u4e00-\u9fff]{1,3}?)(?:蜇|蛰|叮|咬)(?:了|到)?(?:一下)?我(?:就|会|后)?(?:会)?(?:过敏|起疹子|肿|休克|呼吸困难)"
        r"|^\W*(?P<v3>[\u4e00-\u9fffA-Za-z]{2,8}?)对我(?:有|会有)?(?:不良反应|副作用|过敏反应)",
    ),
    # ---- health / medication
    (
        "health.condition",
        None,
        r"^\W*(?:been\s+)?(?:living\s+with|lived\s+with|had|struggling\s+with|dealing\s+with)\s+(?P<v>(?:chronic\s+)?[a-z][\w' -]{1,30}?)"
        + ITEM_CUT
        + r"|^\W*(?:i\s+)?(?:got\s+|was\s+|been\s+)?diagnosed\s+with\s+(?:an?\s+)?(?P<v2>[a-z][\w' -]{1,30}?)"
        + ITEM_CUT,
    ),
    (
        "health.condition",
        None,
        r"我是(?:一[名个位])?(?P<v>[\u4e00-\u9fff]{2,6}?)(?:患者|病人)|(?:查出来?|查出了|检查出|诊断出|被诊断为|确诊(?:为|了)?)(?:有|了|是)?(?P<v2>[\u4e00-\u9fff]{2,6}?)(?=$|[，。,.!！]|了|就|便|然后|所以|于是|之后|以后)",
    ),
    (
        "medication",
        None,
        r"^\W*(?:currently\s+|still\s+)?on\s+(?P<v>"
        + MED_WORD
        + r")\b|\bmy\s+(?:daily\s+|regular\s+|current\s+|usual\s+)?(?:meds|medications?|medicines?|pills|prescriptions?)\s+(?:are|is|include)\s+(?P<v2>[a-z][a-z ,]{2,60}?)(?=\s*(?:[.!;]|$))",
    ),
    # ---- budget phrasing is read by h_budget; payment
    (
        "payment.avoid",
        PAYMENTS,
        r"^\W*(?P<v>"
        + PAY_EN
        + r")\s*[,?!.]*\s*(?:never|no\s+way|not\s+for\s+me|nope|no\s+thanks)\b",
    ),
    (
        "payment.method",
        PAYMENTS,
        r"^\W*(?P<v>"
        + PAY_ZH
        + r")(?:最方便|最好用|就行|就好|比较方便|方便)|(?<!别)(?<!让我)(?<!不要)(?<!不)(?:刷|用)(?P<v2>"
        + PAY_ZH
        + r")(?:卡)?(?:就行|就好|付|支付|结账)?",
    ),
    (
        "payment.method",
        PAYMENTS,
        r"^\W*(?P<v>"
        + PAY_EN
        + r")\s+(?:works\s+best|is\s+best|is\s+easiest|please|pls|for\s+me)\b",
    ),
    # ---- location
    (
        "location.city",
        None,
        r"^\W*(?:my\s+)?home\s+(?:is|=|base\s+is)\s+(?:in\s+)?(?P<v>" + NAME_EN + r")",
    ),
    (
        "location.city",
        None,
        r"坐标(?:是|在)?(?P<v>[\u4e00-\u9fff]{2,4}?)(?:市)?(?=$|[，。,.!！])|(?:^\W*|我)(?:现在|目前|一直)?住(?:在)?(?P<v2>[\u4e00-\u9fff]{2,3}?)(?:市)?(?=$|[，。,.!！])",
    ),
    (
        "location.city",
        None,
        r"(?:^\W*|\bi\s+|\bi'm\s+|\bi\s+am\s+)(?:currently\s+|now\s+)?(?:live|living|based|located)\s+in\s+(?P<v>"
        + _alt({k: k for k in L.CITIES if k.isascii()})
        + r")\b",
    ),
    (
        "job.title",
        None,
        r"\bi(?:'m|\s+am)\s+an?\s+(?P<v>(?:[a-z][a-z -]{0,30}?\s)?(?:"
        + JOB_HEAD
        + r"))\s+(?:in|based\s+in)\s+"
        + NAME_EN,
    ),
    (
        "location.city",
        None,
        r"(?:\bi(?:'m|\s+am)|\bi\s+work\s+as|^\W*work\s+as)\s+an?\s+[a-z][a-z ]{1,30}?\s+(?:in|based\s+in|from)\s+(?P<v>"
        + NAME_EN
        + r")(?=\s*(?:[,.;!]|$))",
    ),
    # ---- occupation
    (
        "job.title",
        None,
        r"^\W*(?:an?\s+)?(?!(?:i|i'm|we|my)\s)(?!(?:proud\s+|happy\s+|new\s+)?(?:"
        + PETS_EN
        + r"|pet)s?\s+(?:owner|keeper|parent)\b)(?P<v>(?:[a-z][a-z -]{0,30}?\s)?(?:"
        + JOB_HEAD
        + r"))\s+(?:at|@|here|by\s+trade)\b",
    ),
    (
        "job.employer",
        None,
        r"^\W*(?:an?\s+)?(?:[a-z][a-z -]{0,30}?\s)?(?:"
        + JOB_HEAD
        + r")\s+(?:at|@)\s+(?P<v>"
        + NAME_EN
        + r")",
    ),
    (
        "job.title",
        None,
        r"我是(?:一[名个位])?\s*(?P<v>(?:[a-z][a-z ]{0,30}?\s)?(?:"
        + JOB_HEAD
        + r"))\s*$|^\W*(?:我)?(?:是|当)(?:个|一个|一名|一位)(?P<v2>[\u4e00-\u9fff]{0,4}?(?:"
        + JOB_ZH
        + r"))(?=$|[，。,.!！])"
        # a later clause without its subject: "我在腾讯上班，做产品经理", "现在当老师"
        + r"|^\W*(?:我)?(?:现在|目前|主要|在那|在那边|在这)?(?:做|当|干)(?:的是)?(?P<v3>[\u4e00-\u9fff]{0,4}?(?:"
        + JOB_ZH
        + r"))(?:的)?(?=$|[，。,.!！])",
    ),
    # ---- family
    (
        "family.partner.name",
        None,
        r"\b(?:married|engaged)\s+to\s+(?P<v>"
        + NAME_EN
        + r")|^\W*(?:老婆|老公|妻子|丈夫|媳妇|爱人|太太|先生|对象)(?:的名字)?(?:叫|是)(?P<v2>"
        + ZH_NAME
        + r")(?=$|[，。,.!！])",
    ),
    (
        "family.children",
        None,
        r"\bmarried\s+with\s+(?P<v>\d|one|two|three|four|five|six)\s+(?:kids|children)\b|\b(?:mom|mum|dad|mother|father|parent)\s+of\s+(?P<v2>\d|one|two|three|four|five|six)\b|(?:^|我)(?:家)?有(?P<v3>[一两二三四五六\d])个(?:孩子|小孩|娃)"
        r"|(?:^\W*|我)家(?:里)?(?:有)?(?P<v4>俩|仨|[一两二三四五六\d](?=个))个?(?:孩子|小孩|娃|宝宝|娃娃)",
    ),
    (
        "family.child.names",
        None,
        r"\b(?:my|our)\s+(?:(?:\d|two|three|four|five|six)\s+)?(?:kids|children|daughters|sons|boys|girls|twins)(?:'\s+names|\s+names)?\s*(?:(?:are|'re)\s+(?:called\s+|named\s+)?|called\s+|named\s+|:\s*)(?P<v>(?-i:[A-Z])\w+(?:\s*(?:,|and|&)\s*(?-i:[A-Z])\w+){1,5})",
    ),
    # ---- pets
    (
        "pet.species",
        PETS,
        r"\b(?:my|our)\s+(?:(?:\d|two|three|four|five)\s+)?(?:little\s+|old\s+|sweet\s+|new\s+)?(?P<v>"
        + PETS_EN
        + r")\b(?!\s+(?:food|allergy|hair))|\b(?P<v2>"
        + PETS_EN
        + r")\s+at\s+home\b|\b(?:a|an|one|two|three|\d)\s+(?:\w+\s+)?(?P<v3>"
        + PETS_EN
        + r")\s+(?:named|called)\b",
    ),
    (
        "pet.species",
        PETS,
        r"(?:我)?家(?:里)?(?:有|养了?)(?:一|两|三|几|\d)?[只条个匹缸对窝群头]?(?P<v>"
        + PETS_ZH
        + r")|我家(?:的)?(?P<v2>"
        + PETS_ZH
        + r")",
    ),
    # "my dog Max", "our old labrador Max": a pet adjective may stand before the pet word
    (
        "pet.names",
        None,
        r"\b(?:my|our)\s+(?:(?:little|old|sweet|new|rescue|senior|baby)\s+)?(?:"
        + PETS_EN
        + r")\s+(?P<v>(?-i:[A-Z])[a-z]+)\b",
    ),
    # ---- travel
    (
        "travel.airline.avoid",
        None,
        r"\bnever\s+(?:booking|flying|fly(?:ing)?\s+with|taking|using)\s+(?P<v>"
        + NAME_EN
        + r")|(?:再也不坐|再也不|不坐|别订|不要订|不想坐|别给我订|拒绝坐)(?P<v2>[\u4e00-\u9fff]{0,6}航空|国航|东航|南航|海航|川航|厦航|深航|国泰|新航|全日空|日航|大韩|韩亚|阿联酋|卡塔尔|汉莎|英航|法航|达美|美联航|春秋|吉祥|亚航|酷航|山航|昆航|长荣|华航|中华航空|星宇|港龙|虎航)",
    ),
    (
        "travel.airline",
        None,
        r"^\W*(?P<v>" + L.AIRLINES_EN + r")\s+is\s+my\s+go-to\b(?!\s+hotel)",
    ),
    (
        "travel.airline",
        None,
        r"^\W*(?P<v>"
        + NAME_EN
        + r")\s+is\s+my\s+(?:go-to|favou?rite|preferred|usual|default)\s+(?:airline|carrier)|(?:常坐|经常坐|首选|只坐|总是坐|一般坐|常飞|爱坐|(?:比较|最|更)?喜欢(?:坐|搭|乘坐)|常搭|爱搭|只搭|都搭|优先(?:选|订|坐)?)(?P<v2>[\u4e00-\u9fff]{0,6}航空|国航|东航|南航|海航|川航|厦航|深航|国泰|新航|全日空|日航|大韩|韩亚|阿联酋|卡塔尔|汉莎|英航|法航|达美|美联航|春秋|吉祥|亚航|酷航|山航|昆航|长荣|华航|中华航空|星宇|港龙|虎航)",
    ),
    (
        "hotel.chain",
        None,
        r"^\W*(?P<v>"
        + NAME_EN
        + r")\s+is\s+my\s+(?:go-to|favou?rite|preferred|usual|default)\s+hotels?(?:\s+chain)?|(?:住酒店|酒店)(?:我)?(?:一般|都|通常|习惯|首选)?(?:是)?(?:选|住|订)(?P<v2>[\u4e00-\u9fff]{2,5}?)(?=$|[，。,.!！]|酒店)",
    ),
    (
        "travel.loyalty",
        None,
        r"\bfrequent\s+flyer\s+(?:(?:account|number|program(?:me)?|status)\s+)?(?:is\s+)?(?:with|on|in|member\s+of)\s+(?P<v>"
        + NAME_EN
        + r")",
    ),
    ("hotel.room", HOTEL_ROOM, r"(?P<v>离电梯远|远离电梯|不要靠近电梯)"),
    (
        "response.tone",
        TONE_CODES,
        r"\b(?:keep|use|with|in|prefer|like|want|appreciate|need)\s+(?:a\s+|an\s+|the\s+|your\s+)?(?:more\s+|very\s+)?(?P<v>formal|casual|informal|friendly|professional|relaxed|warm|direct)\s+(?:tone|style|voice|register)\b",
    ),
    (
        "diet.avoid",
        None,
        r"^\W*(?P<v>[\u4e00-\u9fff]{1,4}?)(?:我|本人)(?:是)?(?:从来|一直|从|向来)?(?:都)?不(?:吃|喝|碰)(?:的)?\W*$"
        # given up, or no longer taken, said of a food or drink: "我戒了咖啡", "奶茶也不喝了"
        r"|我(?:已经)?戒(?:了|掉了?)(?P<v2>[\u4e00-\u9fff]{1,4}?)(?:了)?(?=$|[，,。.!！])"
        r"|^\W*(?P<v3>[\u4e00-\u9fff]{1,4}?)(?:我)?(?:也|都)(?:已经)?不(?:吃|喝|碰)了\W*$",
    ),
    (
        "pet.species",
        PETS,
        r"^\W*(?:还)?养了?(?:一|两|三|几|\d)?[只条个匹缸对窝群头]?(?P<v>" + PETS_ZH + r")",
    ),
    # "我没有养猫": the match starts after 没有, so the row is read as negated (forget)
    (
        "pet.species",
        PETS,
        r"(?<=没有)养(?:过)?(?:一|两|三|几|\d)?[只条个匹缸对窝群头]?(?P<v>" + PETS_ZH + r")",
    ),
    (
        "intolerance",
        None,
        r"^\W*(?P<v>dairy|lactose|gluten|milk|wheat|beans|onions|garlic|caffeine|fructose|soy)\s+(?:really\s+)?(?:upsets?|messes?\s+(?:up|with)|wrecks?|kills?|hurts?)\s+my\s+(?:stomach|gut|tummy|belly)"
        r"|\b(?P<v2>dairy|lactose|gluten|milk|wheat|caffeine|fructose)\s+(?:gives?|give)\s+me\s+(?:a\s+|bad\s+)?(?:stomach\s*aches?|bloating|cramps|the\s+runs|diarrh?o?ea)",
    ),
    (
        "diet.avoid",
        None,
        r"\bno\s+(?P<v>pork|beef|alcohol|booze|red\s+meat|shellfish|seafood|lamb|chicken|dairy|sugar|caffeine)\s+for\s+me\b",
    ),
    ("location.city", None, r"\bbased\s+out\s+of\s+(?P<v>" + NAME_EN + r")"),
    (
        "intolerance",
        None,
        r"^\W*(?P<v>dairy|lactose|gluten|milk|wheat|fructose|caffeine|beans|onions|garlic|soy)\s+(?:messes|screws)\s+(?:me|my\s+\w+)\s+up|\b(?:get|feel)\s+(?:so\s+|really\s+)?(?:bloated|sick|gassy|crampy|ill)\s+(?:from|after)\s+(?:eating\s+|drinking\s+|any\s+)?(?P<v2>dairy|lactose|gluten|milk|wheat|fructose|caffeine|beans|onions|garlic|soy)\b"
        r"|^\W*(?P<v3>dairy|lactose|gluten|milk|wheat|fructose|caffeine|beans|onions|garlic|soy)\s+(?:really\s+)?(?:doesn't|does\s+not|don't|do\s+not)\s+(?:really\s+)?(?:sit\s+well|agree|get\s+along)\s+with\s+me|^\W*(?P<v5>dairy|lactose|gluten|milk|wheat|fructose|caffeine|beans|onions|garlic|soy)\s+and\s+i\s+(?:don't|do\s+not)\s+get\s+along|我(?:不能|没法|不可以)(?:吃|喝|碰)(?P<v4>麸质|乳糖|乳制品|果糖)",
    ),
    (
        "recommend",
        None,
        r"\b(?:don't|do\s+not)\s+want\s+(?:any\s+)?(?:more\s+)?(?P<v>[a-z][a-z ]{1,25}?)\s+(?:recommendations|suggestions|ads|offers|tips)\b",
    ),
    (
        "health.condition",
        None,
        r"我(?:有点|有些|有一点)(?P<v>"
        + _alt({k: k for k in L.CONDITIONS if not k.isascii()})
        + r")",
    ),
    # a condition said as the whole clause, with how long it has lasted: "我腰间盘突出好多年了",
    # "(我胃不好，)慢性胃炎", "我痛风十几年了"
    (
        "health.condition",
        None,
        r"^\W*我(?:的)?(?P<v>(?:慢性)?(?:"
        + _alt({k: k for k in L.CONDITIONS if not k.isascii()})
        + r"))(?:好多年|很多年|多年|好几年|有些年头|[一二两三四五六七八九十几\d]+(?:多)?年)?(?:了)?(?=$|[，。,.!！])",
    ),
    (
        "medication",
        None,
        r"我(?:每天|长期|一直|平时|天天|按时|定期|每天早上|每天晚上)(?:都|在)?(?:要)?(?:服用|吃|服|打)(?P<v>[\u4e00-\u9fff]{2,8}?(?:药|素|片|胶囊|胍|平|汀|林|宁|芬))(?=$|[，。,.!！])"
        # a drug by its name's ending, taken now: "我在吃缬沙坦", "我正在服别嘌醇"
        r"|我(?:现在|目前)?(?:正在|在)(?:服用|吃|服)(?P<v2>(?!生酮)[\u4e00-\u9fff]{1,6}?(?:地平|沙坦|普利|洛尔|他汀|双胍|胰岛素|沙星"
        r"|西林|霉素|洛芬|嘌醇|列[\u4e00-\u9fff]脲|[坦胍嗪唑]))(?:片|胶囊)?(?=$|[，。,.!！])",
    ),
    (
        "recommend",
        None,
        r"(?:不喜欢|讨厌|反感|烦)(?:被|别人|你们)?(?:推销|推荐|推)(?P<v>[\u4e00-\u9fff]{1,8})",
    ),
    (
        "diet.avoid",
        None,
        r"^\W*(?:而且|并且|但是?|还|也|从来|从|一直)*不(?:吃|喝|碰)(?P<v>猪肉|牛肉|羊肉|鸡肉|狗肉|海鲜|酒|内脏|[\u4e00-\u9fff]{1,2}肉)",
    ),
    (
        "location.city",
        None,
        r"\b(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+)?(?:moved|relocated)\s+(?:over\s+|back\s+)?(?:down\s+|up\s+|out\s+|across\s+)?to\s+(?P<v>"
        + NAME_EN
        + r")(?!\s+from\b)",
    ),
    (
        "location.city.previous",
        None,
        r"\b(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+|recently\s+)?moved\s+(?:here\s+|over\s+)?from\s+(?P<v>"
        + NAME_EN
        + r")(?!\s+to\b)",
    ),
    (
        "location.city",
        None,
        r"(?<!要)(?<!想)(?<!打算)(?<!准备)(?:刚|刚刚|已经|最近|去年|上个月|上周|前阵子|前几天)搬(?:家)?(?:到|去|来)了?(?P<v>[\u4e00-\u9fff]{2,4}?)(?:了|来了)?(?=$|[，。,.!！])"
        r"|(?<!要)(?<!想)(?<!打算)(?<!准备)搬(?:家)?(?:到|来)了(?P<v2>[\u4e00-\u9fff]{2,4}?)(?=$|[，。,.!！])",
    ),
    (
        "language",
        LANGS,
        r"\bswitch\s+(?:over\s+)?to\s+(?P<v>" + _alt(LANGS, ascii_only=True) + r")\b",
    ),
    (
        "taste.like",
        None,
        r"\bi(?:'m|\s+am)\s+(?:really\s+|very\s+|so\s+|super\s+|totally\s+|big\s+)?into\s+(?P<v>[a-z][a-z ]{1,20}?\s+and\s+[a-z][a-z ]{1,20}?)(?=\s*(?:[,.;!?]|$))",
    ),
    (
        "contact.channel",
        CHANNELS,
        r"^\W*(?:还是|就)?(?:用|发|走)?\s*(?P<v>短信|邮件|微信|"
        + CHAN_EN
        + r")\s*(?:吧|就行|就好)\W*$"
        r"|^\W*(?:用|发|走)\s*(?P<v2>短信|邮件|微信|" + CHAN_EN + r")\s*\W*$",
    ),
    # ---- time zone
    (
        "timezone",
        None,
        r"(?P<v>(?:Africa|America|Asia|Atlantic|Australia|Europe|Pacific|Indian)/[A-Za-z_]+(?:/[A-Za-z_]+)?)",
    ),
    ("timezone", TIMEZONES, r"(?:在|是|用|按|属于)?(?P<v>东八区)"),
    # ---- do not recommend
    (
        "recommend",
        None,
        r"^\W*not\s+(?:really\s+|at\s+all\s+)?interested\s+in\s+(?P<v>"
        + ITEM_EN
        + r")"
        + _END
        + r"|\b(?:stop|quit)\s+(?:suggesting|recommending|pushing|showing\s+me|sending\s+me)\s+(?P<v2>"
        + ITEM_EN
        + r")"
        + _END,
    ),
    (
        "recommend",
        None,
        r"^\W*(?:我)?对(?P<v>[^，。,；;]{1,10}?)(?:不感兴趣|没(?:有)?兴趣|不感冒)|^\W*(?P<v2>(?!我|你|他|她)[\u4e00-\u9fff]{1,6}?)(?:就|也|都)?(?:不要|别|不用)(?:再)?(?:推|推荐|推送|介绍)(?:了|给我)?",
    ),
)
# ---- round 4 (EN): families of phrasings from a set written before reading the rules ------
# (dev4): subject-less clauses, other word orders and synonyms per category, never one
# sentence. Foods a diet cuts out, instruments and sports one plays, currencies by name.
FOOD_AVOID_EN = r"(?:red\s+meat|white\s+meat|processed\s+meat|meat|pork|bacon|ham|beef|lamb|veal|chicken|poultry|fish|seafood|shellfish|dairy|milk|cheese|eggs?|gluten|wheat|bread|carbs|sugar|refined\s+sugar|sweets|chocolate|coffee|caffeine|tea|alcohol|booze|beer|wine|spirits|soda|fizzy\s+drinks|energy\s+drinks|junk\s+food|fast\s+food|processed\s+food|fried\s+food)"
FOOD_AVOID_LIST = FOOD_AVOID_EN + r"(?:\s*(?:,|and|&|or)\s*" + FOOD_AVOID_EN + r")*"
INTOLERANT_OF = r"(?:lactose|gluten|fructose|histamine|caffeine|dairy|fodmaps?|sorbitol|sulph?ites|msg|wheat|soy|eggs?|garlic|onions?|alcohol|spicy\s+food|beans|legumes)"
PLAYED = r"(?:piano|keyboard|guitar|electric\s+guitar|bass|violin|viola|cello|double\s+bass|drums|saxophone|sax|flute|clarinet|trumpet|trombone|ukulele|harp|banjo|mandolin|harmonica|oboe|accordion|organ|tennis|table\s+tennis|ping\s+pong|golf|football|soccer|basketball|baseball|volleyball|cricket|rugby|hockey|ice\s+hockey|badminton|squash|padel|pickleball|netball|chess|poker|bridge|video\s+games|board\s+games|darts|pool|snooker|bowls|frisbee|ultimate\s+frisbee|water\s+polo|softball|lacrosse)"
CURRENCY_EN = r"(?:(?:canadian|australian|aussie|new\s+zealand|nz|hong\s+kong|singapore|singaporean|us|u\.s\.|american)\s+dollars?|swiss\s+francs?|japanese\s+yen|indian\s+rupees?|british\s+pounds?|pounds?\s+sterling|sterling|philippine\s+pesos?|euros?|dollars?|usd|eur|gbp|cad|aud|nzd|chf|jpy|inr|cny|rmb|yuan|yen|rupees?|pesos?|won|kronor|krona|zloty|francs?|php|mxn|ngn|naira|zar|rand|kes|shillings?|aed|dirhams?|cedis?|ghs)"
CHAN_APPS = r"(?:whatsapp|signal|telegram|wechat|imessage|sms|e-?mail)"
MEDS_EN = (
    _alt({k: k for k in L.MEDICATIONS if k.isascii()})
    + r"|painkillers|antibiotics|anti-inflammator(?:y|ies)|blood\s+thinners"
)
_TZ_ABBR = r"(?:jst|cet|cest|est|edt|pst|pdt|gmt|bst|aest|aedt|sgt|hkt|cst|cdt|mst|mdt|utc)"
#: The same abbreviations as written in capitals (a bare "IST" or "AEST" is a zone; "est" is a word).
_TZ_ABBR_UP = r"(?-i:IST|" + _TZ_ABBR[3:].upper()
#: Cities and regions the time-zone table knows by an English name of four letters or more.
_TZ_CITIES = "|".join(
    sorted(
        (re.escape(k) for k in TIMEZONES if k.isascii() and len(k) > 3 and not k.isupper()),
        key=len,
        reverse=True,
    )
)
_NOT_CALL_NAME = r"(?!(?:later|back|tomorrow|tonight|now|maybe|anytime|sometime|whenever|asap|soon|again|instead|please|pls|if|when|after|before|at|on|in|about|first|once|today|sometimes)\b)"
_PRONOUN_ROWS = tuple(
    (
        "pronouns",
        code,
        r"\b(?:refer\s+to\s+me|address\s+me|describe\s+me|talk\s+about\s+me|speak\s+of\s+me)\s+(?:as|with|using)\s+[\"']?"
        + word
        + r"\b(?!\s*/)|\buse\s+[\"']?"
        + word
        + r"[\"']?\s+(?:for|with|when\s+(?:talking|referring|writing)\s+(?:about|to))\s+me\b|\bi(?:'m|\s+am)\s+an?\s+[\"']?"
        + word
        + r"\b(?!\s*/)|\b(?:i|and)\s+(?:use|go\s+by)\s+[\"']?"
        + word
        # the object form after it without a slash: "I use they them"
        + r"(?:\s+"
        + obj
        + r")?[\"']?(?:\s+pronouns)?(?=\s*(?:[,.;!]|$|please|pls|not\b))",
    )
    for code, word, obj in (
        ("they/them", "they", "them"),
        ("he/him", "he", "him"),
        ("she/her", "she", "her"),
    )
)

#: Hobbies said by their own verb ("I garden a lot"), as the activity's name.
_HOBBY_VERBS: Mapping[str, str] = {
    "garden": "gardening", "knit": "knitting", "crochet": "crochet", "sew": "sewing",
    "surf": "surfing", "climb": "climbing", "hike": "hiking", "ski": "skiing",
    "sail": "sailing", "kayak": "kayaking", "boulder": "bouldering",
}  # fmt: skip
ACTIVITY_EN = r"(?:yoga|pilates|crossfit|karate|judo|taekwondo|jiu[\s-]?jitsu|tai\s+chi|kickboxing|boxing|ballet|salsa|zumba|spinning|meditation|parkour|archery|fencing|rowing|triathlons?|marathons?|park\s?run|martial\s+arts|weightlifting|weights|bouldering|calisthenics|pottery|ceramics|knitting|crochet|sewing|embroidery|woodwork(?:ing)?|calligraphy|photography|painting|sketching|baking|cooking|gardening|journaling|birding|quilting|drawing|woodturning|carpentry|brewing|home\s+brewing)"
GOING_EN = r"(?:running|swimming|climbing|bouldering|hiking|cycling|surfing|skiing|snowboarding|fishing|sailing|kayaking|canoeing|camping|dancing|skating|ice\s+skating|jogging|birdwatching|bird\s*watching|diving|scuba\s+diving|horse\s+riding|riding|walking|rambling|golfing|bowling|paddleboarding|windsurfing|mountain\s+biking)"
#: "I'm an avid reader" -> reading: the activity a keen <doer> does.
DOERS = _codes(
    """
running: runner | jogger
cycling: cyclist | biker
swimming: swimmer
climbing: climber | boulderer
hiking: hiker | walker | rambler
reading: reader | bookworm
gardening: gardener
photography: photographer
baking: baker
cooking: cook
gaming: gamer
golf: golfer
skiing: skier
surfing: surfer
knitting: knitter
painting: painter
sailing: sailor
birdwatching: birder | birdwatcher
fishing: angler | fisherman
travel: traveller | traveler
dancing: dancer
guitar: guitarist
piano: pianist
singing: singer
writing: writer
"""
)
_DOER_CODES = {k: v for k, v in DOERS.items() if k != v}

DEMONYMS = _codes(
    """
London: londoner
New York: new yorker
Paris: parisian
Berlin: berliner
Glasgow: glaswegian
Manchester: mancunian
Liverpool: liverpudlian | scouser
Birmingham: brummie
Newcastle: geordie
Dublin: dubliner
Boston: bostonian
Chicago: chicagoan
Los Angeles: angeleno
Sydney: sydneysider
Melbourne: melburnian
Toronto: torontonian
Vancouver: vancouverite
Seattle: seattleite
Montreal: montrealer
Edinburgh: edinburgher
Madrid: madrileño | madrileno
Rome: roman
Vienna: viennese
Hamburg: hamburger
"""
)
_DEMONYM_ALT = _alt({k: v for k, v in DEMONYMS.items() if k != v.lower()})

VALUE_ROWS_4: tuple[tuple[str, str, str], ...] = (
    *_PRONOUN_ROWS,
    # "married to my husband", "I'm gay and married", "I'm seeing someone"
    (
        "relationship.status",
        "married",
        r"\bmarried\s+to\s+(?:my\s+)?(?:husband|wife|partner|spouse)\b|\bi(?:'m|\s+am)\s+[\w ]{1,20}?\s+and\s+(?:happily\s+)?married\b",
    ),
    (
        "relationship.status",
        "partnered",
        r"\bi(?:'m|\s+am)\s+(?:seeing\s+someone|in\s+a\s+(?:long[\s-]term\s+|long[\s-]distance\s+|happy\s+|committed\s+)?relationship|taken|dating\s+someone|with\s+someone)\b",
    ),
    # diet said with only: "halal only", "only kosher"
    ("diet", "halal", r"\bhalal\s+only\b|\bonly\s+(?:eat\s+)?halal\b"),
    ("diet", "kosher", r"\bkosher\s+only\b|\bonly\s+(?:eat\s+)?kosher\b"),
    # jobs and study in passing
    (
        "job.title",
        "teacher",
        r"\bi(?:'ve|\s+have)\s+been\s+teaching\b(?!\s+(?:myself|my\s+(?:kids?|son|daughter|dog)))",
    ),
    (
        "job.status",
        "student",
        r"\bwhile\s+i(?:'m|\s+am)?\s+(?:study|studying|at\s+uni|at\s+university|at\s+college|finish(?:ing)?\s+my\s+(?:degree|studies))\b",
    ),
    # seats and formats said another way
    (
        "seat",
        "exit_row",
        r"\bexit[\s-]rows?\s+(?:are|is)\s+(?:a\s+must|essential|non-negotiable|the\s+best|my\s+(?:thing|go-to))\b",
    ),
    *(
        (
            "seat",
            seat,
            r"\b(?:give|get|book)\s+me\s+the\s+" + seat + r"\b(?!\s+(?:open|closed|shut))",
        )
        for seat in ("aisle", "window")
    ),
    ("response.format", "bullets", r"\bbullet(?:ed)?\s+(?:form|format)\b"),
    (
        "response.format",
        "summary_first",
        r"\b(?:tl;?dr|summary|conclusion|bottom\s+line|short\s+answer)\s+(?:at\s+the\s+(?:start|top|beginning)|up\s+front)\b",
    ),
    (
        "response.style",
        "with_examples",
        r"\b(?:give|show)\s+me\s+(?:\w+\s+(?:and\s+)?)?examples\b|\bvisual\s+learner\b",
    ),
    # accessibility: "partially sighted"
    (
        "accessibility",
        "large_text",
        r"\bpartially\s+sighted\b|\b(?:poor|low|bad|weak)\s+(?:eyesight|vision)\b",
    ),
    # employment, relationship and seats said in a few words
    (
        "job.status",
        "unemployed",
        r"\bjob[\s-]?hunting\b|\b(?:between\s+jobs|out\s+of\s+work)\b|\b(?:got\s+|was\s+|been\s+)?laid\s+off\b|\b(?:lost\s+my\s+job|made\s+redundant)\b",
    ),
    (
        "relationship.status",
        "single",
        r"^\W*single\s+(?:mum|mom|dad|parent|father|mother)\b|\bi(?:'m|\s+am)\s+a\s+single\s+(?:mum|mom|dad|parent|father|mother)\b",
    ),
    # calls said at the end of a clause ("so please never call"), or allowed ("ringing me is fine")
    (
        "contact.call",
        "never",
        r"\b(?:never|don't|do\s+not|dont)\s+(?:ever\s+)?(?:call|ring|phone)(?=\s*(?:[,.;!]|$|please|pls|me\s*(?:[,.;!]|$)))",
    ),
    (
        "contact.call",
        "allowed",
        r"\b(?:ringing|phoning|calling)\s+me\s+(?:is|'s)\s+(?:totally\s+|perfectly\s+|absolutely\s+|always\s+)?(?:fine|ok|okay|alright|welcome)\b",
    ),
    # units by preference ("I prefer kilometres to miles")
    (
        "units.system",
        "metric",
        r"\bprefer\s+(?:kilometres|kilometers|km|kg|kilos|kilograms|metres|meters|centimetres|centimeters|the\s+metric)\b",
    ),
    (
        "units.system",
        "imperial",
        r"\bprefer\s+(?:miles|lbs|feet|inches|ounces|the\s+imperial)\b",
    ),
    # seats said bare: "Aisle please, always", "window if you can"
    *(
        (
            "seat",
            seat,
            r"^\W*(?:an?\s+)?"
            + seat
            + r"(?:\s+seats?)?\s*,?\s*(?:please|pls|always|every\s+time|for\s+me|if\s+(?:you\s+)?can|if\s+possible)\b",
        )
        for seat in ("aisle", "window")
    ),
    (
        "response.format",
        "table",
        r"\b(?:give|show|make)\s+(?:me|it)\s+(?:as\s+)?a\s+table\b|\b(?:put|lay)\s+(?:it|this|that|them|everything)\s+(?:out\s+)?in\s+a\s+table\b",
    ),
    # diet: "I don't eat meat but fish is ok", "vegetarian but I eat fish", "the only meat I eat is fish"
    (
        "diet",
        "pescatarian",
        r"\b(?:don't|do\s+not|dont|never)\s+eat\s+(?:any\s+)?(?:meat|red\s+meat)\b[^.;!?]{0,25}?\b(?:fish|seafood)\s+(?:is|are|'s)\s+(?:ok|okay|fine|allowed|alright)"
        r"|\b(?:don't|do\s+not|dont|never)\s+eat\s+(?:any\s+)?meat\s*,?\s+(?:but|except|apart\s+from|other\s+than)\s+(?:i\s+(?:do\s+)?(?:still\s+)?eat\s+)?(?:fish|seafood)\b"
        r"|\bvegetarian\s+(?:but|except|who|that)\s+(?:i\s+)?(?:still\s+|also\s+)?eats?\s+(?:fish|seafood)\b|\bthe\s+only\s+meat\s+i\s+eat\s+is\s+(?:fish|seafood)\b",
    ),
    (
        "diet.avoid",
        "alcohol",
        r"\btee-?total(?:l?er)?\b|\bi\s+(?:don't|do\s+not|dont|never)\s+drink(?=\s*(?:[,.;!]|$|\s+(?:at\s+all|alcohol|anymore|any\s+more|so|but|and|because|since)\b))"
        r"|\bi(?:'ve|\s+have)\s+been\s+sober\b|\bsober\s+(?:for|since)\b|\bi(?:'m|\s+am)\s+(?:sober|alcohol[\s-]free)\b(?!\s+(?:now|today|tonight|right))",
    ),
    # employment
    (
        "job.status",
        "retired",
        r"^\W*(?:now\s+|fully\s+|happily\s+|recently\s+|just\s+|finally\s+|semi[\s-])?retired\b(?!\s+(?:people|folks|couples?|\w+\s+who))|\bi\s+(?:just\s+|recently\s+|finally\s+|already\s+)?retired\b"
        r"|\bi(?:'m|\s+am)\s+(?:now\s+)?(?:a\s+)?retiree\b|\bsince\s+i\s+retired\b",
    ),
    (
        "job.status",
        "self_employed",
        r"\bfreelancing\b|\b(?:work|working)\s+(?:as\s+a\s+)?freelance\b|\b(?:work|working)\s+for\s+myself\b|\bmy\s+own\s+boss\b|\bself[\s-]employed\b"
        r"|\b(?:run|own|started|set\s+up)\s+my\s+own\s+(?:\w+\s+){0,2}?(?:business|company|shop|bakery|studio|firm|practice|agency|restaurant|cafe|café|store|salon|consultancy|clinic|gym)\b",
    ),
    (
        "job.status",
        "student",
        r"\b(?:doing|studying\s+for|working\s+on|halfway\s+through|finishing)\s+(?:my|a)\s+(?:master'?s|masters|phd|ph\.d\.?|doctorate|degree|bachelor'?s|undergrad(?:uate)?(?:\s+degree)?|mba|dissertation|thesis)\b"
        r"|\bi(?:'m|\s+am)\s+(?:still\s+)?(?:in|at)\s+(?:college|uni|university|grad\s+school|law\s+school|med(?:ical)?\s+school|high\s+school)\b"
        r"|\b(?:first|second|third|final|fourth|1st|2nd|3rd|4th)[\s-]year\s+(?:student|undergrad|at\s+uni|at\s+university|medic|law\s+student)\b"
        r"|\bi(?:'m|\s+am)\s+(?:an?\s+)?(?:undergrad|grad\s+student|phd\s+candidate|phd\s+student|postgrad|fresher|freshman|sophomore)\b",
    ),
    # relationship status said through an event or a person
    (
        "relationship.status",
        "engaged",
        r"(?:^\W*|\b(?:i|we)\s+)(?:just\s+|recently\s+|finally\s+)?got\s+engaged\b|(?=^\W*(?:and\s+|so\s+)?my\s+fianc[eé]e?\b)",
    ),
    (
        "relationship.status",
        "married",
        # the person as the subject ("my husband's name is David", "my wife and I ..."): a
        # zero-width match, so the name is still read by the family rows
        r"(?:^\W*|\bwe\s+)(?:just\s+|recently\s+|finally\s+)?got\s+married\b|(?=^\W*(?:and\s+|so\s+)?my\s+(?:husband|wife|hubby|spouse)(?:'s|\b)(?!\s+(?:died|passed)))",
    ),
    (
        "relationship.status",
        "widowed",
        r"\bi\s+lost\s+my\s+(?:husband|wife|spouse)\b|\bmy\s+late\s+(?:husband|wife|spouse)\b|\bi(?:'m|\s+am)\s+a\s+widow(?:er)?\b",
    ),
    (
        "relationship.status",
        "partnered",
        r"(?=^\W*(?:and\s+|so\s+)?my\s+(?:partner|boyfriend|girlfriend|other\s+half)\b(?!\s+(?:company|firm|at\s+work)))",
    ),
    # travel class: "economy is fine for me"
    *(
        (
            "travel.class",
            code,
            r"^\W*(?:just\s+|plain\s+|regular\s+)?(?:"
            + words
            + r")(?:\s+class)?\s+(?:is|'s)\s+(?:(?:totally|perfectly|absolutely|always|just|more\s+than)\s+)?(?:fine|ok|okay|good\s+enough|enough|all\s+i\s+need|my\s+(?:thing|choice|preference|sweet\s+spot|go-to|default))\b",
        )
        for code, words in (
            ("economy", r"economy|coach"),
            ("premium_economy", r"premium\s+economy"),
            ("business", r"business"),
            ("first", r"first\s+class"),
        )
    ),
    # answers
    (
        "response.length",
        "medium",
        r"\bmedium[\s-]?(?:length|sized?|long)\b|\bnot\s+too\s+(?:long|short)\s*(?:,|and|or|but|nor)?\s*(?:but\s+)?(?:also\s+)?not\s+too\s+(?:short|long)\b"
        r"|\b(?:moderate|middling|reasonable)\s+(?:length|detail)\b|\bsomewhere\s+in\s+(?:the\s+)?(?:between|middle)\b"
        # "something in between is fine for length", "not an essay but more than a line"
        r"|\b(?:something|anything)\s+in\s+between\b(?=[^.!?]{0,30}\blength\b)"
        r"|\bnot\s+an\s+essay\b[^.!?]{0,20}\b(?:but|and)\s+(?:more\s+than|not\s+just)\s+(?:a|one)\s+(?:line|sentence)\b",
    ),
    (
        "response.length",
        "short",
        r"\b(?:give\s+me|i\s+(?:want|need)|i'd\s+like|just)\s+(?:the\s+)?(?:short|brief|quick|condensed|abridged|cliff\s*notes)\s+version\b",
    ),
    # a short answer said as a count: "keep answers to 2-3 sentences", "one paragraph max",
    # "no more than three lines", "a couple of sentences tops"
    (
        "response.length",
        "short",
        r"\b(?:keep|limit|cap|restrict)\s+(?:your\s+|the\s+|my\s+)?(?:answers?|replies|responses|it|them|things)\s+"
        r"(?:to|under|below|at|within)\s+(?:about\s+|around\s+|max\s+)?(?:one|two|three|a\s+couple(?:\s+of)?|a\s+few|[1-5](?:\s*(?:-|to|or)\s*[2-5])?|one\s+or\s+two|two\s+or\s+three)"
        r"\s+(?:short\s+)?(?:sentences?|lines?|paragraphs?)\b"
        r"|\b(?:one|a\s+single|1)\s+(?:short\s+)?paragraph\s+(?:max(?:imum)?|tops|at\s+most|or\s+less)\b"
        r"|\b(?:one|two|three|a\s+couple\s+of|a\s+few|[1-5](?:\s*-\s*[2-5])?)\s+(?:short\s+)?(?:sentences|lines)\s+(?:max(?:imum)?|tops|at\s+most|or\s+(?:less|fewer))\b"
        r"|\b(?:no\s+more\s+than|not\s+more\s+than|at\s+most|max(?:imum)?\s+of)\s+(?:one|two|three|a\s+few|[1-5])\s+(?:sentences?|lines?|paragraphs?)\b",
    ),
    (
        "response.format",
        "prose",
        r"\b(?:in|as|use|using|write\s+in|prefer|like)\s+(?:normal\s+|full\s+|plain\s+|regular\s+|proper\s+|flowing\s+|whole\s+)?(?:paragraphs|prose|full\s+sentences)\b"
        r"|\bno\s+(?:bullet(?:\s+points)?|bullets|lists)\b|\b(?:don't|do\s+not|dont)\s+use\s+(?:bullet(?:\s+points)?|bullets|lists)\b"
        # a format refused as a taste: "I hate bullet points", "not a fan of bullets"
        r"|\b(?:i\s+)?(?:hate|dislike|loathe|can't\s+stand|cannot\s+stand|don't\s+like|not\s+a\s+fan\s+of)"
        r"\s+(?:bullet(?:ed)?(?:\s+points|\s+lists)?|bullets)\b",
    ),
    (
        "response.style",
        "simple",
        r"\bexplain\s+(?:\w+\s+){0,2}?(?:simply|plainly|in\s+(?:simple|plain|layman'?s?|everyday)\s+(?:terms|english|language|words))\b"
        r"|\bi(?:'m|\s+am)\s+not\s+(?:very\s+|that\s+|super\s+|really\s+|at\s+all\s+)?(?:technical|techy|tech[\s-]savvy|a\s+techie|a\s+tech\s+person|good\s+with\s+(?:tech|technology|computers))\b"
        r"|\bin\s+layman'?s?\s+terms\b|\b(?:simple|plain|easy)\s+(?:language|words|explanations|terms)\s+(?:please|pls)\b|\bkeep\s+(?:it|things|explanations)\s+simple\b",
    ),
    (
        "response.style",
        "technical",
        r"\b(?:go|get|be)\s+(?:full(?:y)?\s+|very\s+|super\s+|really\s+|as\s+)technical\b|\b(?:don't|do\s+not)\s+(?:dumb|water)\s+(?:it|things|anything)\s+down\b|\bfull\s+technical\s+detail",
    ),
    (
        "response.style",
        "with_examples",
        r"\bexamples?\s+(?:with|in|for)\s+(?:every|each|all|your)\b|\b(?:like|want|need|love|prefer)\s+(?:lots\s+of\s+|concrete\s+|real\s+|practical\s+|real[\s-]world\s+)?examples\b"
        r"|\bshow\s+me\s+examples\b|\b(?:explain|illustrate)\s+(?:\w+\s+){0,2}?with\s+examples\b|\blearn\s+best\s+(?:from|with|through)\s+examples\b"
        r"|^\W*(?:concrete\s+|real\s+|practical\s+)?examples\s+(?:really\s+)?(?:help|work\s+(?:best|well))\s+(?:me\b|for\s+me\b)",
    ),
    (
        "response.emoji",
        "true",
        r"\b(?:love|like|enjoy|adore)\s+(?:your\s+|the\s+|using\s+)?emojis?\b|\bmore\s+emojis?\b|\bfeel\s+free\s+to\s+use\s+emojis?\b|\bemojis?\s+(?:are|is)\s+(?:great|fun|good|cool|nice)\b",
    ),
    # units
    (
        "units.time_format",
        "24h",
        r"\b(?:24|twenty[\s-]four)[\s-]hour\b(?!\s+(?:thing|stuff|system|clock|format|time)\s+(?:confuses|is\s+confusing|means\s+nothing))"
        r"|\bmilitary\s+time\b",
    ),
    (
        "units.time_format",
        "12h",
        r"\b(?:use|prefer|with|in|show)\s+am\s*/\s*pm\b|\bam\s*/\s*pm\s+(?:please|pls|format|time|clock)\b",
    ),
    # accessibility
    (
        "accessibility",
        "reduced_motion",
        r"\breduce(?:d)?\s+(?:the\s+)?(?:motion|animations?)\b|\b(?:animations?|motion|moving\s+(?:things|images|graphics)|parallax)\s+(?:makes?|make|gives?)\s+me\s+(?:dizzy|sick|nauseous|queasy|motion\s+sick|a\s+headache)\b|\bmotion[\s-]sensitiv",
    ),
)

ITEM_ROWS_4: tuple[tuple[str, Mapping[str, str] | None, str], ...] = (
    # ---- "I work nights as a security guard"
    (
        "job.title",
        None,
        r"\bwork(?:ed|ing)?\s+(?:nights|days|weekends|part[\s-]time|full[\s-]time|shifts|remotely|freelance)\s+as\s+an?\s+(?P<v>[a-z][a-z -]{2,40}?)(?=\s+(?:for|since|at|in|with|on)\b|\s*[,.;!]|$)",
    ),
    # ---- "my job is in marketing"
    (
        "industry",
        None,
        r"\bmy\s+(?:job|work|career|background)\s+is\s+in\s+(?:the\s+)?(?P<v>"
        + _alt({k: k for k in L.INDUSTRIES if k.isascii()})
        + r")\b",
    ),
    # ---- "... and two cats" after a pet
    (
        "pet.species",
        PETS,
        r"\b(?:"
        + PETS_EN
        + r")\b[^.;!?]{0,30}?\band\s+(?:a|an|one|two|three|\d)\s+(?:\w+\s+)?(?P<v>"
        + PETS_EN
        + r")\b",
    ),
    # ---- "I'm GMT+1"
    (
        "timezone",
        None,
        r"\bi(?:'m|\s+am)\s+(?:on\s+|in\s+)?(?P<v>(?:UTC|GMT)\s*[+-]\s*\d{1,2}(?::\d\d)?)",
    ),
    # ---- "I'm learning to play the piano", "taking up climbing": a skill taken up is an
    # interest (as 我在学弹钢琴 is), not a taste for it
    (
        "interest.learning",
        None,
        r"\bi(?:'m|\s+am|(?:'ve|\s+have)\s+been)\s+(?:learning|taking\s+up|getting\s+into|teaching\s+myself)\s+(?:to\s+play\s+|how\s+to\s+play\s+)?(?:the\s+)?(?P<v>"
        + PLAYED
        + r"|"
        + ACTIVITY_EN
        + r"|"
        + GOING_EN
        + r")\b",
    ),
    # ---- "I'm learning to draw", "teaching myself to code": a skill taken up is an interest,
    # named by its activity (as 学画画 is)
    (
        "interest.learning",
        SKILL_VERBS,
        r"\bi(?:'m|\s+am|(?:'ve|\s+have)\s+been)\s+(?:(?:slowly|finally|also|currently|trying)\s+)*(?:learning|teaching\s+myself)\s+(?:how\s+)?to\s+(?P<v>"
        + _alt(SKILL_VERBS)
        + r")\b(?!\s+(?:a|an|the|my|your|it|this|that)\b)",
    ),
    # ---- "codeine doesn't agree with me" (a drug)
    (
        "allergy",
        None,
        r"^\W*(?P<v>"
        + MEDS_EN
        + r")\s+(?:doesn't|does\s+not|don't|do\s+not)\s+agree\s+with\s+me\b",
    ),
    # ---- "budget: anything over 1k is too much"
    # ---- "I'm a tea drinker", "I'm not a coffee person"
    (
        "taste.like",
        None,
        r"\bi(?:'m|\s+am)\s+(?:a\s+|an\s+)(?:big\s+|huge\s+|real\s+|total\s+)?(?P<v>"
        + taxonomy._FOOD_WORDS
        + r")\s+(?:person|drinker|eater|lover|fiend|fan)\b",
    ),
    (
        "taste.dislike",
        None,
        r"\bi(?:'m|\s+am)\s+not\s+(?:really\s+|much\s+of\s+)?(?:a\s+|an\s+)(?:big\s+)?(?P<v>"
        + taxonomy._FOOD_WORDS
        + r")\s+(?:person|drinker|eater|lover|fan)\b",
    ),
    # ---- "Londoner here", "I'm a born and bred Glaswegian"
    (
        "location.city",
        DEMONYMS,
        r"(?:\bi(?:'m|\s+am)\s+(?:a\s+)?(?:born\s+and\s+(?:bred|raised)\s+|proud\s+|true\s+|proper\s+)?|^\W*(?:proud\s+|born\s+and\s+(?:bred|raised)\s+)?)(?P<v>"
        + _DEMONYM_ALT
        + r")\b",
    ),
    # ---- "I'm on telegram", "Sam here"
    (
        "contact.channel",
        CHANNELS,
        r"\bi(?:'m|\s+am)\s+(?:only\s+|mostly\s+|always\s+|usually\s+)?on\s+(?P<v>whatsapp|telegram|signal|wechat|imessage)\b",
    ),
    ("name", None, r"^\W*(?P<v>(?-i:[A-Z])[a-z'-]+)\s+here\W*$"),
    # ---- "hey it's marcus here", "This is Dana here": a self-introduction in chat (a
    # lowercase word only after a greeting; never a state: "it's freezing here")
    (
        "name",
        None,
        r"^\W*(?:hi|hey|hello|hiya|yo)\W+(?:it's|its|it\s+is|this\s+is)\s+(?!(?:me|us|him|her|them|it|that|this|what|who|nobody|someone|everyone|hot|cold|late|early|nice|fine|ok|okay|quiet|busy|dark|loud|fun|boring|weird|lovely|sunny|rainy|windy|snowy|cloudy|chilly|stuffy|muggy|noisy|crazy|early|empty)\b|\w+(?:ing|ed)\b)(?P<v>[a-z][a-z'-]+)\s+here\b"
        r"|^\W*(?:it's|its|it\s+is|this\s+is)\s+(?!\w+(?:ing|ed)\b)(?P<v2>(?-i:[A-Z])[a-z'-]+)\s+here\b",
    ),
    # ---- "I don't do dairy", "I don't do PayPal"
    (
        "diet.avoid",
        None,
        r"\bi\s+(?:don't|do\s+not|dont|never)\s+do\s+(?P<v>" + FOOD_AVOID_LIST + r")\b",
    ),
    (
        "payment.avoid",
        PAYMENTS,
        r"\bi\s+(?:don't|do\s+not|dont|never)\s+do\s+(?P<v>" + PAY_EN + r")\b",
    ),
    # ---- "weekends are for surfing and yoga", "my evenings are all about chess"
    (
        "taste.like",
        None,
        r"^\W*(?:my\s+)?(?:weekends|evenings|free\s+time|spare\s+time|days\s+off|sundays|saturdays)"
        r"\s+(?:are|is)\s+(?:all\s+)?(?:for|about|spent)\s+(?P<v>" + ITEM_EN + r")" + _END,
    ),
    # ---- "chocolate is life", "big into hiking", "gamer here", "2 cats"
    (
        "taste.like",
        None,
        r"^\W*(?P<v>[a-z][a-z -]{1,25}?)\s+(?:is|are)\s+(?:literally\s+|basically\s+)?life\W*$|^\W*(?:really\s+|big\s+|huge\s+|super\s+|totally\s+|very\s+|so\s+)into\s+(?P<v2>"
        + ITEM_EN
        + r")"
        + _END,
    ),
    (
        "taste.like",
        DOERS,
        r"^\W*(?:an?\s+)?(?:keen\s+|avid\s+|passionate\s+|big\s+|huge\s+|lifelong\s+|proud\s+)?(?P<v>"
        + _alt(_DOER_CODES)
        + r")\s+here\b",
    ),
    ("pet.species", PETS, r"^\W*(?:\d|one|two|three|four|a|an)\s+(?P<v>" + PETS_EN + r")\W*$"),
    # ---- "KLM or nothing", "always Hilton"
    (
        "travel.airline",
        None,
        r"^\W*(?P<v>"
        + L.AIRLINES_EN
        + r")\s+or\s+(?:nothing|bust|nobody|no\s+one)\b|^\W*(?:always|only|usually)\s+(?:fly\s+)?(?P<v2>"
        + L.AIRLINES_EN
        + r")\W*$",
    ),
    (
        "hotel.chain",
        None,
        r"^\W*(?:always|only|usually)\s+(?:stay\s+(?:at|with)\s+)?(?P<v>Marriott|Hilton|Hyatt|IHG|Accor|Sheraton|Westin|Four\s+Seasons|Holiday\s+Inn|Novotel|Ibis|Radisson|Wyndham|Best\s+Western|Premier\s+Inn|Travelodge)s?\W*$",
    ),
    # ---- "casual tone pls"
    (
        "response.tone",
        TONE_CODES,
        r"^\W*(?P<v>formal|casual|informal|friendly|professional|relaxed|warm|direct)\s+(?:tone|style|voice|register)\b",
    ),
    # ---- "I'm in PST"
    ("timezone", TIMEZONES, r"\bi(?:'m|\s+am)\s+(?:in|on)\s+(?P<v>" + _TZ_ABBR + r")\b"),
    # ---- "im in IST so ...", "CET for scheduling pls", "new york time zone for me": a zone
    # written in capitals after "in/on" or opening the message, a zone's city before "time zone"
    (
        "timezone",
        TIMEZONES,
        r"\bi(?:'m|\s+am)\s+(?:in|on)\s+(?P<v>" + _TZ_ABBR_UP + r")\b"
        r"|^\W*(?P<v2>"
        + _TZ_ABBR_UP
        + r")\s+(?:time\s+)?(?:for\s+(?:me|scheduling|meetings|everything)"
        r"|please|pls|here|only)\b"
        r"|\b(?P<v3>" + _TZ_CITIES + r")\s+time\s*zone\s+(?:for\s+me|please|pls|only)\b",
    ),
    # ---- "no crypto stuff pls"
    (
        "recommend",
        None,
        r"^\W*(?:please\s+|pls\s+)?no\s+(?:more\s+)?(?P<v>[a-z][a-z ]{1,25}?)\s+(?:stuff|content|ads|offers|spam|promos?|deals|recommendations|suggestions)\b",
    ),
    # ---- contact: "I'd rather get a whatsapp than a call"
    (
        "contact.channel",
        CHANNELS,
        r"\b(?:rather|prefer\s+to)\s+(?:get|have|receive|use|do)\s+(?:an?\s+)?(?P<v>text|sms|e-?mail|whatsapp|telegram|signal|wechat|imessage)(?:\s+message)?\s+(?:than|over|instead\s+of)\b",
    ),
    # ---- languages: "X is my mother tongue", "answer me in X"
    (
        "language.spoken",
        LANGS,
        r"^\W*(?P<v>"
        + _alt(LANGS, ascii_only=True)
        + r")\s+is\s+my\s+(?:native\s+language|mother\s+tongue|first\s+language|native\s+tongue)\b",
    ),
    (
        "language",
        LANGS,
        r"\b(?:answer|reply\s+to|respond\s+to|write\s+to|talk\s+to)\s+me\s+in\s+(?P<v>"
        + _alt(LANGS, ascii_only=True)
        + r")\b",
    ),
    # ---- age said with "now": "I'm 59 now"
    ("age", None, r"\bi(?:'m|\s+am)\s+(?P<v>\d{2})\s+now\b"),
    # ---- diet: "I'm avoiding sugar these days", "I'm off booze"
    (
        "diet.avoid",
        None,
        r"\bi(?:'m|\s+am)\s+(?:currently\s+|now\s+)?(?:avoiding|cutting\s+out|staying\s+away\s+from|off|not\s+eating|not\s+drinking|laying\s+off|done\s+with)\s+(?P<v>"
        + FOOD_AVOID_LIST
        + r")\b",
    ),
    # ---- "being hindu i skip beef", "I always pass on pork", "no pork and no alcohol in
    # any recipe" (round 11)
    (
        "diet.avoid",
        None,
        r"\bi\s+(?:always\s+|just\s+|obviously\s+|strictly\s+)?(?:skip|pass\s+on|swerve|forgo)\s+(?P<v>"
        + FOOD_AVOID_LIST
        + r")\b(?!\s+(?:today|tonight|this|for\s+(?:now|lent|today|a\s+while)))"
        r"|\bno\s+(?P<v2>"
        + FOOD_AVOID_EN
        + r"(?:\s*(?:,|and|or)\s*(?:no\s+)?"
        + FOOD_AVOID_EN
        + r")?)\s+(?:in|for)\s+(?:any|my|the|our)\s+(?:of\s+the\s+|of\s+my\s+)?(?:recipes?|food|meals?|dishes|cooking|meal\s+plans?)\b",
    ),
    # ---- refusal idioms: "beef is off the table for me", "pork and alcohol are out",
    # "dairy's a hard no" (the food leads its clause; "out of" is a place, not a refusal)
    (
        "diet.avoid",
        None,
        r"(?:^\W*|\bso\s+)(?:(?:so|and|but|also|plus|then)\s+)?(?:all\s+|any\s+)?(?P<v>"
        + FOOD_AVOID_LIST
        + r")(?:\s+(?:is|are)|'s|'re)\s+(?:totally\s+|completely\s+|strictly\s+|absolutely\s+|all\s+|just\s+|always\s+)?"
        r"(?:off\s+the\s+table|out|off[\s-]limits|a\s+no[\s-]go|not\s+an\s+option|a\s+(?:hard|firm|big|definite)\s+no)\b(?!\s+(?:of|there|now)\b)",
    ),
    (
        "travel.airline.avoid",
        None,
        r"^\W*(?:(?:so|and|but|also|plus)\s+)?(?P<v>"
        + L.AIRLINES_EN
        + r")(?:\s+is|'s)\s+(?:totally\s+|completely\s+|absolutely\s+|just\s+)?"
        r"(?:off\s+the\s+table|out|off[\s-]limits|a\s+no[\s-]go|not\s+an\s+option|a\s+(?:hard|firm|big|definite)\s+no)\b(?!\s+(?:of|there|now)\b)",
    ),
    # ---- tastes: "I could eat ramen every day"
    (
        "taste.like",
        None,
        r"\bi\s+could\s+(?:eat|drink|live\s+on|live\s+off)\s+(?P<v>[a-z][a-z -]{1,25}?)\s+(?:every\s+(?:single\s+)?(?:day|night|meal)|forever|all\s+day|for\s+(?:every|each)\s+meal)\b",
    ),
    # ---- hay fever
    (
        "allergy",
        None,
        r"\bi\s+(?:get|have|suffer\s+from|'ve\s+got|have\s+got)\s+(?:bad\s+|terrible\s+|awful\s+|really\s+bad\s+|seasonal\s+)?(?P<v>hay\s*fever)\b",
    ),
    # ---- where: "a small town outside Leeds", moving "I'll be moving to Berlin"
    (
        "location.city",
        None,
        r"\b(?:live|living|based)\s+(?:in\s+)?(?:a\s+(?:small\s+|little\s+|tiny\s+)?(?:town|village|suburb|place)\s+)?(?:just\s+)?(?:outside|near|close\s+to|on\s+the\s+outskirts\s+of)\s+(?P<v>"
        + NAME_EN
        + r")",
    ),
    (
        "location.moving_to",
        None,
        r"\b(?:i(?:'ll|\s+will)|we(?:'ll|\s+will))\s+be\s+(?:moving|relocating)\s+to\s+(?P<v>"
        + NAME_EN
        + r")",
    ),
    # ---- children named in a list: "a son called Max and a daughter called Lily"
    (
        "family.daughter",
        None,
        r"\b(?:and|plus|also)\s+an?\s+(?:\d+[\s-]year[\s-]old\s+|little\s+|baby\s+)?daughter\s+(?:named|called)\s+(?P<v>"
        + NAME_EN
        + r")",
    ),
    (
        "family.son",
        None,
        r"\b(?:and|plus|also)\s+an?\s+(?:\d+[\s-]year[\s-]old\s+|little\s+|baby\s+)?son\s+(?:named|called)\s+(?P<v>"
        + NAME_EN
        + r")",
    ),
    # ---- airlines hated are avoided
    (
        "travel.airline.avoid",
        None,
        r"\bi\s+(?:really\s+)?(?:hate|can't\s+stand|despise|loathe|refuse\s+to\s+(?:fly|use))\s+(?:flying\s+(?:with\s+)?)?(?P<v>"
        + L.AIRLINES_EN
        + r")\b",
    ),
    # ---- activities one does or goes to, doers one is
    (
        "taste.like",
        None,
        r"\bi\s+(?:\w+\s+)?(?:do|practi[cs]e|go\s+to)\s+(?P<v>"
        + ACTIVITY_EN
        + r")\b|\bi\s+(?:\w+\s+)?go\s+(?P<v2>"
        + GOING_EN
        + r")\b",
    ),
    (
        "taste.like",
        DOERS,
        r"\bi(?:'m|\s+am)\s+(?:an?\s+)?(?:keen|avid|passionate|enthusiastic|big|huge|serious|amateur|hobby|weekend|casual|lifelong|obsessive|dedicated)\s+(?P<v>"
        + _alt(_DOER_CODES)
        + r")\b",
    ),
    # ---- contact: "prefer email over anything else", "signal only", "text rather than email"
    (
        "contact.channel",
        CHANNELS,
        r"(?:^\W*|\bi\s+)(?:\w+\s+)?prefer\s+(?:to\s+be\s+contacted\s+(?:by|via|on|through)\s+|being\s+contacted\s+(?:by|via|on)\s+)?(?P<v>"
        + CHAN_APPS
        + r")\b|^\W*(?P<v2>"
        + CHAN_APPS
        + r")\s+only\b|\b(?P<v3>text|texts|sms|email|e-mail|whatsapp|telegram|signal|wechat|imessage)\s+(?:rather\s+than|instead\s+of|over|not|before)\s+(?:an?\s+)?(?:email|e-mail|call|calls|calling|phone|phoning|text|texting|whatsapp|sms|ringing)\b",
    ),
    # ---- names: "pls call me jay not jason", "this is Margaret, ...", "X for short"
    (
        "name.preferred",
        None,
        r"\bcall\s+me\s+"
        + _NOT_CALL_NAME
        + r"(?P<v>[a-z][\w'-]{1,15})\s+(?:not|instead\s+of|rather\s+than)\s+[a-z][\w'-]+|^\W*(?:pls\s+|please\s+|just\s+|you\s+can\s+(?:just\s+)?)call\s+me\s+"
        + _NOT_CALL_NAME
        + r"(?P<v2>[a-z][\w'-]{1,15})\W*$"
        # the request said bare, the politeness after it: "call me sam pls", "call me jo thx"
        + r"|^\W*call\s+me\s+"
        + _NOT_CALL_NAME
        + r"(?!(?:crazy|old[\s-]fashioned|paranoid|lazy|picky|weird|silly|stupid|naive|biased|cynical|a|an|the|me|you|him|her|them|it|what(?:ever)?|anything|back)\b)"
        + r"(?P<v4>[a-z][\w'-]{1,15})\s+(?:pls|plz|please|thx|thanks|thank\s+you|ty)\W*$|^\W*(?:but\s+)?(?:just\s+)?(?P<v3>(?-i:[A-Z])[\w'-]+)\s+for\s+short\b",
    ),
    (
        "name",
        None,
        r"^\W*(?:(?:hi|hey|hello)\W+)?(?:this\s+is|it's|its)\s+(?P<v>(?-i:[A-Z])[a-z'-]+)(?=\s*(?:[,.!—–-]|$)|\s+but\s+(?:please\s+|pls\s+)?(?:just\s+)?call\s+me\b)",
    ),
    # ---- languages being learnt count as spoken
    (
        "language.spoken",
        LANGS,
        r"\bi(?:'m|\s+am)\s+(?:also\s+|currently\s+|slowly\s+|trying\s+to\s+)?(?:learning|studying|taking)\s+(?:some\s+|a\s+bit\s+of\s+)?(?P<v>"
        + _alt(LANGS, ascii_only=True)
        + r")\b|\bnative\s+(?P<v2>"
        + _alt(LANGS, ascii_only=True)
        + r")\s+speaker\b|\bi\s+grew\s+up\s+speaking\s+(?P<v3>"
        + _alt(LANGS, ascii_only=True)
        + r")\b",
    ),
    # ---- diet: foods given up
    (
        "diet.avoid",
        None,
        r"\bi(?:'ve|\s+have)?\s+(?:\w+\s+)?(?:gave\s+up|given\s+up|cut\s+out|quit|stopped\s+(?:eating|drinking)|swore\s+off|sworn\s+off|steer\s+clear\s+of|keep\s+away\s+from)\s+(?:eating\s+|drinking\s+)?(?P<v>"
        + FOOD_AVOID_LIST
        + r")\b",
    ),
    # ---- intolerance: "X and Y give me a bad stomach", "I'm sensitive to X"
    (
        "intolerance",
        None,
        r"^\W*(?P<v>[a-z][a-z ]{1,25}?(?:\s+and\s+[a-z][a-z ]{1,20}?)?)\s+(?:both\s+|all\s+|always\s+|really\s+|just\s+)?(?:gives?|give)\s+me\s+(?:a\s+|an\s+)?(?:bad\s+|upset\s+|sore\s+|dodgy\s+|terrible\s+)?(?:stomach(?:\s*aches?)?|tummy(?:\s*aches?)?|bloating|cramps|gas|the\s+runs|diarrh?o?ea|indigestion|heartburn|reflux)\b"
        r"|\bi(?:'m|\s+am)\s+(?:very\s+|quite\s+|a\s+bit\s+|really\s+|super\s+)?sensitive\s+to\s+(?P<v2>"
        + INTOLERANT_OF
        + r"(?:\s*(?:,|and|&|or)\s*"
        + INTOLERANT_OF
        + r")*)\b"
        # "my body doesn't handle lactose", "my gut can't tolerate fructose" (round 11)
        r"|\bmy\s+(?:body|stomach|gut|tummy|system|digestion)\s+(?:just\s+|really\s+|simply\s+)?(?:doesn't|does\s+not|can't|cannot|won't|has\s+never)\s+"
        r"(?:handle|handled|tolerate|tolerated|digest|process|cope\s+with|deal\s+with|agree\s+with)\s+(?P<v3>"
        + INTOLERANT_OF
        + r"(?:\s*(?:,|and|&|or)\s*"
        + INTOLERANT_OF
        + r")*)\b",
    ),
    # ---- tastes: subject-less clauses and favourites
    (
        "taste.dislike",
        None,
        r"^\W*(?:(?:honestly|really|just|totally|absolutely|seriously|personally)\s+)?(?:can't|cannot|can\s+not)\s+(?:stand|bear|stomach)\s+(?!it\b|that\b|this\b|when\b|how\b|you\b|people\b)(?P<v>"
        + ITEM_EN
        + r")"
        + _END
        + r"|^\W*(?:(?:honestly|really|just|totally|absolutely|seriously|personally)\s+)?(?:hate|dislike|loathe|despise|detest)\s+(?!to\b|it\b|that\b|when\b|how\b|this\b|you\b|people\b|being\b)(?P<v2>"
        + ITEM_EN
        + r")"
        + _END
        + r"|^\W*(?:i'm\s+|i\s+am\s+)?(?:just\s+|honestly\s+)?not\s+(?:really\s+|too\s+|that\s+|very\s+|super\s+|a\s+)?(?:big\s+on|keen\s+on|fond\s+of|crazy\s+about|a\s+fan\s+of|fan\s+of)\s+(?P<v3>"
        + ITEM_EN
        + r")"
        + _END,
    ),
    (
        "taste.like",
        None,
        r"^\W*(?:(?:honestly|really|just|totally|absolutely|seriously)\s+)?(?:love|adore|really\s+like|enjoy)\s+(?!to\b|it\b|that\b|this\b|you\b|when\b|how\b|the\s+idea|your\b|emojis?\b|being\b)(?P<v>"
        + ITEM_EN
        + r")"
        + _END
        + r"|\bmy\s+(?:absolute\s+|all[\s-]time\s+|total\s+|personal\s+)?(?:favou?rite|fave|fav|go-to)\s+(?:(?:comfort|junk|party|hangover|late[\s-]night|midnight|breakfast|pub)\s+)?(?:food|dish|snack|drink|meal|cuisine|dessert|treat|breakfast|lunch|dinner|hobby|sport|pastime|activity|thing\s+to\s+(?:do|eat)|game|genre)s?\s+(?:is|are|has\s+(?:got\s+)?to\s+be|would\s+(?:have\s+to\s+)?be)\s+(?P<v2>"
        + ITEM_EN
        + r")"
        + _END
        + r"|^\W*(?P<v3>[a-z][a-z -]{1,25}?)\s+(?:is|are)\s+(?:basically\s+|literally\s+|honestly\s+|kind\s+of\s+)?my\s+(?:life|passion|thing|jam|obsession|religion|happy\s+place|whole\s+personality|world)\b"
        r"|\bi(?:'m|\s+am)\s+(?:a\s+|an\s+)?(?:big\s+|huge\s+|massive\s+|total\s+|complete\s+|bit\s+of\s+a\s+|real\s+|proper\s+|giant\s+|serious\s+)?(?!(?:big|huge|massive|total|complete|real|proper|giant|serious)\s)(?P<v4>[a-z][a-z -]{1,20}?)\s+(?:nerd|geek|buff|fanatic|junkie|addict|enthusiast|freak|lover|head|aficionado|fiend|snob|fan|supporter)\b(?!\s+of\b)"
        r"|\bi(?:'ve|\s+have)\s+(?:been|become|gotten|got)\s+(?:so\s+|totally\s+|kinda\s+|a\s+bit\s+|completely\s+|really\s+)?(?:obsessed\s+with|addicted\s+to|hooked\s+on|into)\s+(?P<v5>"
        + ITEM_EN
        + r")"
        + _END,
    ),
    (
        "taste.like",
        None,
        r"\b(?:in\s+my\s+(?:spare|free|down)\s*time|on\s+(?:the\s+)?weekends|at\s+weekends|for\s+fun|as\s+a\s+hobby|outside\s+(?:of\s+)?work|when\s+i(?:'m|\s+am)\s+not\s+working)\s*,?\s*i\s+(?:like\s+to\s+|love\s+to\s+|enjoy\s+|usually\s+|often\s+|mostly\s+|tend\s+to\s+)?(?P<v>[a-z][a-z -]{2,30}?)(?=\s*(?:[,.;!]|$))"
        r"|\bi\s+(?:\w+\s+)?(?:play|practi[cs]e)\s+(?:the\s+)?(?P<v2>" + PLAYED + r")\b",
    ),
    # ---- allergies: "X allergy, ...", "my X allergy", "X sets off my allergies", "can't take X"
    (
        "allergy",
        None,
        r"^\W*(?:severe\s+|bad\s+|serious\s+|mild\s+|deadly\s+|massive\s+)?(?!(?:my|the|food|drug|medication|seasonal|skin|any|no|not|never|an?)\s)(?P<v>[a-z]+(?:\s+[a-z]+)?)\s+allerg(?:y|ies)(?=\s*(?:[,.;!—–-]|$)|\s+(?:so|and|but|btw|fyi|here)\b)"
        r"|\b(?:my|the\s+one\s+with\s+(?:the|a|an)|with\s+(?:a|an|my))\s+(?:severe\s+|bad\s+|serious\s+|mild\s+|deadly\s+)?(?!(?:food|drug|medication|seasonal|skin)\s)(?P<v2>[a-z]+(?:\s+[a-z]+)?)\s+allerg(?:y|ies)\b"
        r"|^\W*(?P<v3>[a-z][a-z ]{1,25}?)\s+(?:sets?\s+off|triggers?|sets?\s+\w+\s+off|flares?\s+up)\s+my\s+(?:allergies|allergy|hay\s*fever|sinuses)\b|\bmy\s+allergies\s+(?:are\s+)?(?:triggered|set\s+off)\s+by\s+(?P<v4>"
        + ITEM_EN
        + r")"
        + _END
        + r"|\bi\s+(?:can't|cannot|can\s+not|mustn't|shouldn't)\s+(?:take|have|be\s+given|tolerate)\s+(?:any\s+)?(?P<v5>"
        + MEDS_EN
        + r")\b",
    ),
    # ---- medication
    (
        "medication",
        None,
        r"\bi(?:'ve|\s+have)\s+been\s+(?:on|taking)\s+(?P<v>"
        + MED_WORD
        + r")\b|^\W*been\s+(?:on|taking)\s+(?P<v2>"
        + MED_WORD
        + r")\b",
    ),
    # ---- payment
    (
        "payment.method",
        PAYMENTS,
        r"\bi\s+(?:always\s+|usually\s+|only\s+|mostly\s+|just\s+|normally\s+)?pay\s+(?:in\s+)?(?P<v>cash)\b"
        r"|\bi(?:'d|\s+would)\s+(?:rather|prefer\s+to|sooner)\s+pay\s+(?:(?:with|by|via|using|in|through)\s+)?(?P<v2>"
        + PAY_EN
        + r")\b|\bi\s+(?:\w+\s+)?(?:pay|send\s+money|split\s+(?:bills|things|everything|costs))\s+(?:\w+\s+){0,4}?(?:on|with|by|via|through|using|over)\s+(?P<v3>"
        + PAY_EN
        + r")\b",
    ),
    (
        "payment.avoid",
        PAYMENTS,
        r"\b(?:don't|do\s+not|dont|never)\s+(?:use|charge|bill)\s+my\s+(?P<v>" + PAY_EN + r")\b",
    ),
    # ---- currency named in any order: "quote everything in Canadian dollars"
    (
        "currency",
        None,
        r"\b(?:quote|show|display|give|list|convert|put|keep)\s+(?:\w+\s+){0,3}?(?:in|(?<=convert\s)(?:everything|prices|amounts|it|them|all)\s+(?:in)?to|into)\s+(?P<v>"
        + CURRENCY_EN
        + r")\b|\b(?:prices?|amounts?|costs?|everything|numbers|figures|totals?)\s+(?:(?:priced|quoted|shown|listed|displayed)\s+)?in\s+(?P<v2>"
        + CURRENCY_EN
        + r")\b|\bi\s+(?:think|count|budget)\s+in\s+(?P<v3>"
        + CURRENCY_EN
        + r")\b"
        # "show me CAD, not US dollars", "give me prices in yen": the currency said bare
        + r"|\b(?:show|give|quote)\s+me\s+(?:(?:the\s+)?(?:prices|amounts|costs|everything)\s+(?:in\s+)?)?(?P<v4>"
        + CURRENCY_EN
        + r")\b(?!\s*\d)",
    ),
    # ---- location: "been living in X for years", "my flat's in X", "in vancouver to be exact"
    (
        "location.city",
        None,
        r"\b(?:been\s+)?(?:living|based|located)\s+in\s+(?P<v>"
        + NAME_EN
        + r")(?=\s+(?:for|since|now|these|the\s+past|all\s+my|my\s+whole)\b)|\bmy\s+(?:flat|apartment|house|place|home|condo|flatshare|studio)(?:'s|\s+is)\s+in\s+(?P<v2>"
        + NAME_EN
        + r")|^\W*(?:(?:more\s+)?specifically\s+)?in\s+(?P<v3>"
        + _alt({k: k for k in L.CITIES if k.isascii()})
        + r")\s+(?:to\s+be\s+(?:exact|precise|specific)|specifically|exactly)\b|^\W*(?P<v4>"
        + NAME_EN
        + r")\s+is\s+where\s+i\s+(?:live|am\s+based|'m\s+based|reside|call\s+home)\b",
    ),
    # ---- occupation: "freelancing as a graphic designer", "work for X as a Y", "been a paramedic for"
    (
        "job.title",
        None,
        r"\b(?:freelanc\w*|working|work(?:ed)?)\s+as\s+an?\s+(?P<v>[a-z][a-z -]{2,40}?)(?=\s+(?:for|since|at|in|with|on)\b|\s*[,.;!]|$)"
        r"|\bwork(?:ing)?\s+(?:at|for)\s+"
        + NAME_EN
        + r"\s+as\s+an?\s+(?P<v2>[a-z][a-z -]{2,40}?)(?=\s+(?:for|since|at|in|with|on)\b|\s*[,.;!]|$)"
        r"|\bi(?:'ve|\s+have)\s+been\s+an?\s+(?P<v3>[a-z][a-z -]{2,40}?)\s+(?:for|since)\b",
    ),
    # ---- family
    (
        "family.child.names",
        None,
        r"\bmy\s+(?:youngest|eldest|oldest|middle\s+(?:one|child|kid)|little\s+one|firstborn)\s*[,(—–-]?\s*(?P<v>(?-i:[A-Z])[a-z'-]+)\b",
    ),
    (
        "family.children",
        None,
        r"\bmarried\s+with\s+(?P<v>\d|one|two|three|four|five|six|a)\s+(?:kids?|child(?:ren)?|boys?|girls?|sons?|daughters?)\b"
        r"|\b(?:with\s+|and\s+)?(?:our|my)\s+(?P<v2>\d|two|three|four|five|six)\s+(?:kids|children|boys|girls|sons|daughters)\b",
    ),
    # ---- pets
    (
        "pet.species",
        PETS,
        r"\bi\s+(?:keep|own|raise|breed|look\s+after)\s+(?:\w+\s+)?(?P<v>" + PETS_EN + r")\b",
    ),
    # ---- travel: lists of airlines avoided, known airlines preferred, loyalty status
    (
        "travel.airline.avoid",
        None,
        r"\bi\s+(?:won't|will\s+not|refuse\s+to|(?:will\s+|'ll\s+)?never)\s+(?:again\s+)?fly\s+(?:with\s+)?(?P<v>"
        + NAME_EN
        + r"(?:\s*(?:,|or|and|nor)\s*"
        + NAME_EN
        + r")+)",
    ),
    (
        "travel.airline",
        None,
        r"\bi\s+(?:really\s+|much\s+|generally\s+|usually\s+)?(?:prefer|like|love|rate|trust|stick\s+with|go\s+with)\s+(?P<v>"
        + L.AIRLINES_EN
        + r")\b",
    ),
    (
        "travel.loyalty",
        None,
        r"\b(?:gold|silver|platinum|diamond|elite|titanium|ambassador|executive\s+platinum|globalist|explorist)\s+(?:status\s+|member\s+|tier\s+)?(?:on|with|in|at)\s+(?P<v>"
        + NAME_EN
        + r")|\b(?:gold|silver|platinum|diamond|elite|titanium|ambassador|globalist|explorist)\s+"
        # the same with a known airline or hotel typed in lower case: "im platinum on united"
        r"(?:status\s+|member\s+|tier\s+)?(?:on|with|in|at)\s+(?P<v4>"
        + L.AIRLINES_EN
        + r"|Marriott|Hilton|Hyatt|IHG|Accor|Sheraton|Westin|Radisson|Wyndham|Intercontinental)\b"
        r"|\b(?:i(?:'m|\s+am)\s+(?:in|on|enrolled\s+in|signed\s+up\s+(?:to|for))|member\s+of)\s+(?:the\s+)?(?P<v2>"
        + NAME_EN
        + r"\s+(?:Club|Rewards|Miles|Honors|Honours|Bonvoy|SkyMiles|Plus|Programme|Program))\b"
        r"|\bfrequent\s+flyer\s+(?:account|number|program(?:me)?|status|scheme)\s+is\s+(?P<v3>"
        + NAME_EN
        + r")",
    ),
    # ---- time zone said as an abbreviation at a clause end: "I'm in Tokyo so JST"
    (
        "timezone",
        TIMEZONES,
        r"(?:\bso\s+|\bi(?:'m|\s+am)\s+on\s+|\bwhich\s+is\s+|\bthat's\s+)(?P<v>"
        + _TZ_ABBR
        + r")\b(?=\s*(?:[,.;!)]|$))"
        # "AEST here", "so everything in IST please": the zone said bare, in capitals
        + r"|^\W*(?P<v2>"
        + _TZ_ABBR_UP
        + r")\s+(?:here|for\s+me)\b(?=\s*(?:[,.;!)]|$))|\b(?:everything|times|all\s+times)\s+in\s+(?P<v3>"
        + _TZ_ABBR_UP
        + r")\b(?!\s*\d)",
    ),
    # ---- do not recommend
    (
        "recommend",
        None,
        r"\b(?:i\s+have\s+|i've\s+got\s+|)(?:zero|no|absolutely\s+no|little)\s+interest\s+in\s+(?P<v>"
        + ITEM_EN
        + r")"
        + _END
        + r"|\bi\s+(?:couldn't|could\s+not)\s+care\s+less\s+about\s+(?P<v2>"
        + ITEM_EN
        + r")"
        + _END,
    ),
)


# ---- round 4 (zh): families of Chinese phrasings dev4 exposed (issue 12) ----------------
#: Payment words when the verb is paying: "微信" alone is WeChat Pay there.
_PAYING = {**PAYMENTS, "微信": "wechat_pay"}
# each row covers a way of saying it, not one sentence: answer style asked for by what it
# should be like (适中, 举几个例子, 我是小白), medications after their class word, interests by
# habit or by years of practice, list items joined by 或者 in a payment, children by order
VALUE_ROWS_4ZH: tuple[tuple[str, str, str], ...] = (
    (
        "response.length",
        "medium",
        r"适中|不长不短|长度适中|中等长度|(?:别|不要)太长(?:也|又)?(?:别|不要)太短",
    ),
    (
        "response.length",
        "long",
        r"多详细就(?:写|说|讲)多详细|(?:喜欢|爱)看长的|写长一?点|(?:说|写|讲)得?详细(?:一)?(?:点|些)",
    ),
    (
        "response.length",
        "short",
        r"(?:又|还是|怎么)?(?:这么|那么)长|又长了|看不完|看不下去|只(?:想)?(?:看|要)结论|(?<!别)(?<!不要)(?<!不)太长",
    ),
    (
        "response.format",
        "prose",
        r"(?:用|写成|分)段落|成段(?:写|的)|整段|连贯的(?:文字|段落)|(?:别|不要|不用)(?:用)?(?:分点|列点|列表|分条)|写成一(?:整)?段(?:话|文字)?",
    ),
    (
        "response.tone",
        "formal",
        r"(?<!别那么)(?<!不用那么)(?<!不要那么)(?<!太)正式(?:的|一点的?|点的?|些)?(?:语气|口吻|措辞|风格)|(?:语气|口吻|措辞)(?:要|请)?正式",
    ),
    (
        "response.tone",
        "direct",
        r"直接说(?:就行|就好|吧|重点)?|有话直说|(?:不用|别|不要)(?:客套|拐弯抹角|绕弯)",
    ),
    (
        "response.style",
        "simple",
        r"(?:解释|说|讲|写)(?:得)?(?:简单|通俗|浅显|易懂)(?:一)?点|我是(?:个)?(?:小白|新手|外行|门外汉)",
    ),
    (
        "response.style",
        "with_examples",
        r"(?:多)?举(?:几个|一些|些|点|个)例子|(?:配|带|加)(?:上)?(?:几个)?例子",
    ),
    (
        "response.tone",
        "encouraging",
        r"(?:多)?鼓励(?:鼓励|一下)?我|给我(?:点|些)?鼓励|(?:多)?给我(?:点)?正能量",
    ),
    ("units.system", "metric", r"千克|厘米|(?:用|按)米(?:和|跟)"),
    # imperial units the user is used to: "习惯用磅和英里", "我还是习惯英尺"
    (
        "units.system",
        "imperial",
        r"(?:习惯|喜欢|偏好|一般|都|还是|看得懂)(?:用|按|看)?(?:磅|英里|英尺|英寸|盎司|加仑)"
        r"|(?:磅|英里|英尺|英寸)(?:和|跟|、)(?:磅|英里|英尺|英寸|盎司|加仑)",
    ),
    # a terse seat choice, a behavioural signal when it repeats ("还是靠窗", "靠过道吧")
    (
        "seat",
        "window",
        r"^\W*(?:还是|就|都|要)?靠窗(?:的|边)?(?:座位?|位置|位子)?(?:吧|就行|就好)?\W*$",
    ),
    (
        "seat",
        "aisle",
        r"^\W*(?:还是|就|都|要)?靠(?:过道|走廊)(?:的)?(?:座位?|位置|位子)?(?:吧|就行|就好)?\W*$",
    ),
    (
        "response.length",
        "short",
        r"简明扼要|言简意赅|简洁明了|精简(?:一)?点",
    ),
    # "不用太详细", "简单说两句就好": short answers asked for by what they need not be
    (
        "response.length",
        "short",
        r"不(?:用|需要|必)(?:太|那么|很|特别)?(?:详细|细致|啰嗦|长篇大论)|简单(?:说|讲|聊)(?:两句|几句|一下|下)(?:就好|就行|就可以)?",
    ),
    ("response.format", "bullets", r"(?:用|按|分)要点|逐条(?:列|写|说)"),
    (
        "relationship.status",
        "married",
        r"我(?:已经)?结婚(?:[一二两三四五六七八九十几\d]+|好几|好多|很多)年了?|我(?:已经)?结婚(?:好)?多年",
    ),
    ("relationship.status", "single", r"我(?:还)?(?:没|没有)(?:结婚|对象|男朋友|女朋友)|我未婚"),
    (
        "relationship.status",
        "partnered",
        r"我有(?:个|一个)?(?:女朋友|男朋友|对象|伴侣)了?(?=$|[，。,.!！])",
    ),
    ("family.children", "2", r"我(?:家)?(?:有)?一对(?:双胞胎|龙凤胎)"),
    ("job.status", "unemployed", r"我(?:目前|现在)?(?:在家)?(?:待业|失业)(?:在家|中)?"),
    (
        "response.format",
        "numbered_steps",
        r"一步步|分步(?:骤)?(?:教|说|讲|写)|按步骤|(?:步骤|每一?步)[^，。,]{0,8}编号|编上号",
    ),
    ("response.emoji", "true", r"(?:可以|能|多)(?:用|加|发)(?:点|些)?(?:表情|emoji)"),
    ("accessibility", "large_text", r"看不清(?:小字|字)|字(?:太|很)小"),
)
#: A leisure verb said twice ("打打球", "看看书"): a pastime, dropped before the item.
_REDUP_VERB = r"(?:打打|看看|玩玩|逛逛|听听|跑跑|练练|弹弹|下下|钓钓|爬爬|踢踢|拍拍|唱唱|跳跳|游游)"
ITEM_ROWS_4ZH: tuple[tuple[str, Mapping[str, str] | None, str], ...] = (
    # the usual way to pay, said with a habit word and no paying verb: "平时都是微信支付"
    (
        "payment.method",
        PAYMENTS,
        r"(?:都是|一般是|一般都是|基本都是|基本上都是|通常是|通常都是|习惯用|都用|一般用|基本用|主要用|只用|常用)"
        r"(?P<v>" + PAY_ZH + r")(?!联系|沟通|联络|找我|聊)",
    ),
    # interests by habit, by years of practice, as the biggest hobby, or being learned
    (
        "taste.like",
        None,
        r"(?:业余时间|空闲时间|闲暇时|平时|平常|周末|有空的时候|有空|下班后|没事儿?|闲下来)(?:我)?(?:下班)?(?:后)?(?:没事|没事儿|有空|闲下来)?(?:的时候)?"
        r"(?:一般|通常|经常|常常|基本上?|都|总|就)+(?:会)?(?:爱|喜欢)?(?:去)?(?P<v>(?![是在用都])[^，。,；;！!？?]{2,12})"
        r"|(?:偶尔|有时候?|经常|常常|没事就|有空就|闲了就)(?P<v5>"
        + _REDUP_VERB
        + r"[\u4e00-\u9fff]{2,6})(?=$|[，。,.!！])"
        r"|^\W*(?P<v2>(?!已经|已|都|也|又|还|才|就)[\u4e00-\u9fff]{2,4}?)(?:我)?(?:已经)?(?:看|玩|踢|打|练|学|弹|画|跑|下|追|拉)了(?:快|差不多|将近)?(?:[一二两三四五六七八九十几\d]+|好几)(?:多)?(?:年|个月)"
        r"|(?P<v3>[\u4e00-\u9fffA-Za-z]{2,8}?)(?:是|就是)我(?:最大|唯一|主要)?的(?:爱好|兴趣|乐趣)",
    ),
    # a skill being learned is an interest, not a taste for its object ("我在学做蛋糕" is no
    # liking for cake); a language being learned is a language spoken (its own row)
    (
        "interest.learning",
        None,
        r"我(?:最近|现在|一直|业余|平时|周末|下班后|自己){0,2}(?:在|正在)(?:自)?学(?:习)?"
        r"(?P<v>(?!开车|车|[\u4e00-\u9fff]{1,3}[语文](?:$|[，。,.!！]|呢|了))[\u4e00-\u9fff]{2,5}?)"
        r"(?=$|[，。,.!！]|呢|了)",
    ),
    # airlines by the short "X航" name: "再也不坐亚航了", "南航是我的首选"
    (
        "travel.airline.avoid",
        None,
        r"(?:再也不|再也不会|不会再|绝不|坚决不|拒绝)(?:坐|乘坐|飞|订|选)(?P<v>[\u4e00-\u9fff]{1,4}?航(?:空)?)(?=$|[了，。,.!！的])",
    ),
    (
        "travel.airline",
        None,
        r"^\W*(?P<v>[\u4e00-\u9fff]{1,4}?航(?:空)?)(?:是|就是)我(?:的)?(?:首选|最爱|最常坐的|常坐的|最喜欢的)",
    ),
    # "我平时都是微信联系", "一般用短信沟通": the channel before the contacting verb
    (
        "contact.channel",
        CHANNELS,
        r"(?:都是|都用|一般用|一般都是|基本都是|平时用|主要用|只用)(?P<v>微信|短信|邮件|电话|邮箱|Telegram|WhatsApp)"
        r"(?:联系|沟通|联络|找我|聊)(?=$|[，。,.!！])",
    ),
    # pets named one by one: "养了两只猫，一只叫大黄一只叫小白"
    (
        "pet.names",
        None,
        r"(?:一只|另一只|一条|另一条)(?:叫|名叫)(?P<v>[\u4e00-\u9fff]{1,3}?)(?=$|[，。,.!！、]|一只|一条|另)",
    ),
    # "不需要理财推荐", "别给我保险的推荐"
    (
        "recommend",
        None,
        r"(?:不需要|不要|不想要|别给我)(?P<v>[\u4e00-\u9fff]{2,6}?)(?:的|方面的|类的)?推荐",
    ),
    # currency: "金额用人民币", "价格都按美元算"
    (
        "currency",
        None,
        r"(?:金额|价格|价钱|费用|钱)(?:都)?(?:请)?(?:用|以|按|显示(?:成|为)?|换算成|标成|写成)(?P<v>人民币|美元|美金|欧元|英镑|日元|港币|澳元|加元|韩元|新台币|台币)",
    ),
    # a second pet in the same clause: "我养了一条狗和两只猫"
    (
        "pet.species",
        PETS,
        r"养了?[^，。,]{0,8}?(?:和|还有|跟|、)(?:一|两|三|几|\d)?[只条个匹缸对窝群头]?(?P<v>"
        + PETS_ZH
        + r")",
    ),
    # conditions said without a disease suffix: "我有轻度抑郁", "我有焦虑"
    (
        "health.condition",
        None,
        r"我(?:患有|有|得了|确诊了?)(?:轻度|中度|重度|轻微的?|严重的?)?(?P<v>(?:抑郁|焦虑|贫血|失眠|甲亢|甲减|痛风|偏头痛|过敏性鼻炎|腰间盘突出)症?)(?=$|[，。,.!！])",
    ),
    # an intolerance said by its symptom: "我喝牛奶会拉肚子"
    (
        "intolerance",
        None,
        r"(?:喝|吃)(?:了)?(?P<v>[\u4e00-\u9fff]{1,4}?)(?:我)?(?:就|会|容易)+(?:会)?(?:拉肚子|腹泻|胀气|肚子疼|肚子痛|胃疼|胃痛|消化不良|肠胃不舒服)",
    ),
    # a nickname: "我网名叫小鱼儿", "我小名是豆豆"
    (
        "name.preferred",
        None,
        r"我的?(?:网名|昵称|外号|小名|绰号)(?:叫|是)(?P<v>[\u4e00-\u9fffA-Za-z]{1,6})(?=$|[，。,.!！])",
    ),
    # an age in a later clause: "我属龙的，今年36"
    (
        "age",
        None,
        r"(?:^\W*|我)今年(?:已经|都|都已经|也)?(?P<v>\d{2}|[二三四五六七八九]十[一二三四五六七八九]?)(?:岁|周岁)?(?=$|[，。,.!！]|了|啦)",
    ),
    # "我是国航金卡", "我有希尔顿钻石卡": a member by card level
    (
        "travel.loyalty",
        None,
        r"(?:我是|我有|我办了)(?!一[名个位])(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?)(?:的)?(?:金卡|银卡|白金卡|钻石卡|普卡)(?:会员)?(?=$|[，。,.!！])",
    ),
    # "我今年刚满三十": an age said with 满
    (
        "age",
        None,
        r"(?:我|^\W*(?=今年))(?:今年)?(?:刚|才|已经)?满(?P<v>\d{1,2}|[一二三四五六七八九十]{1,3})(?:周)?岁?了?(?=$|[，。,.!！])",
    ),
    # two payment apps joined by 或者/和 before the paying verb: "用支付宝或者微信付钱"
    (
        "payment.method",
        _PAYING,
        r"用(?P<v>(?:"
        + _alt(_PAYING, ascii_only=False)
        + r")(?:(?:或者|或|和|跟|、|还有)(?:"
        + _alt(_PAYING, ascii_only=False)
        + r"))+)(?:付|支付|付款|付钱|结账|买单)",
    ),
    # a known medication by name, after the taking verb: "我一直在吃优甲乐"
    (
        "medication",
        None,
        r"我(?:每天|每日|长期|一直|平时|天天|按时|定期|现在|目前)?(?:早上|晚上|早晚|睡前|饭后|饭前)?"
        r"(?:都|在)?(?:要|得)?(?:服用|吃|服|打|注射)(?:[一两半二三1-9](?:片|粒|颗|支|包|袋))?(?P<v>"
        + _alt({k: v for k, v in L.MEDICATIONS.items() if not k.isascii()})
        + r")",
    ),
    # medications taken every day, said without a subject: "每天吃氨氯地平"
    (
        "medication",
        None,
        r"^\W*(?:每天|长期|一直|平时|天天|按时|定期|每天早上|每天晚上)(?:都|在)?(?:要)?(?:空腹|饭后|饭前|睡前)?(?:服用|吃|服|打|注射)(?:[一两半\d]+[片粒颗支])?(?P<v>[\u4e00-\u9fff]{2,8}?(?:药|素|片|胶囊|胍|平|汀|林|宁|芬|乐|酮|唑|沙坦|普利|洛尔))(?=$|[，。,.!！])",
    ),
    # children by order: "老大叫浩浩，老二叫萌萌", "大的叫X小的叫Y"
    (
        "family.child.names",
        None,
        r"(?:老大|大的|大宝|大儿子|大女儿)(?:叫|名叫)(?P<v>[\u4e00-\u9fff]{1,3}?)(?=$|[，。,.!！、和]|小的|老二|二宝|小宝)"
        r"|(?:老二|老三|小的|二宝|小儿子|小女儿)(?:叫|名叫)(?P<v2>[\u4e00-\u9fff]{1,3}?)(?=$|[，。,.!！、和])",
    ),
)
# ---- chat fragments (dev8): a noun phrase that says the fact without a verb, each for a
# whole family of words, not one wording
_FRAG_LEAD = (
    r"^\W*(?:(?:fyi|btw|also|oh\s+and|and|plus|i\s+have|i've\s+got|got|have)\W+(?:an?\s+)?)*"
)
_SEVERITY = r"(?:(?:severe|bad|serious|mild|deadly|major|slight|proper|real|massive|life[\s-]threatening)\s+)?"
_NOT_FRAG_ITEM = r"(?!(?:just|not|so|very|really|also|mildly|slightly|bit|a|an|the|any|no|my|your|his|her|their|our|this|that|food|an?)\b)"
_FRAG_END = r"(?:\s+(?:here|over\s+here|fyi|btw|lol|tbh))?(?:\s*\([^)]*\))?\W*$"
_CITY_EN = _alt({c: c for c in L.CITIES if c.isascii()})
_CITY_OR_NAME = r"(?:" + _CITY_EN + r"|(?-i:[A-Z])[a-z]+(?:\s+(?-i:[A-Z])[a-z]+)?)"
ITEM_ROWS_8: tuple[tuple[str, Mapping[str, str] | None, str], ...] = (
    # "fyi severe fish allergy", "latex allergy btw", "i've got a bad sesame allergy"
    (
        "allergy",
        None,
        _FRAG_LEAD
        + _SEVERITY
        + _NOT_FRAG_ITEM
        + r"(?P<v>[a-z]+(?:\s+[a-z]+)?)\s+allerg(?:y|ies)"
        + _FRAG_END,
    ),
    # "dairy intolerance here (not an allergy)", "fructose intolerant btw"
    (
        "intolerance",
        None,
        _FRAG_LEAD
        + _SEVERITY
        + _NOT_FRAG_ITEM
        + r"(?P<v>[a-z]+(?:\s+[a-z]+)?)\s+intoleran(?:ce|t)"
        + _FRAG_END,
    ),
    # "big chess nerd", "i'm a total history buff", "pizza lover here"
    (
        "taste.like",
        None,
        r"^\W*(?:i'm\s+|i\s+am\s+)?(?:(?:a|an)\s+)?(?:(?:big|huge|total|massive|complete|absolute|proper|such\s+a|bit\s+of\s+a)\s+)?"
        r"(?P<v>[a-z][a-z0-9]+(?:\s+[a-z0-9]+)?)\s+(?:nerd|geek|buff|fanatic|junkie|enthusiast|addict|lover|fiend)s?"
        + _FRAG_END,
    ),
    # "dog mom to a golden retriever", "proud cat dad", "rabbit owner"
    (
        "pet.species",
        PETS,
        r"\b(?P<v>" + PETS_EN + r")\s+(?:mom|mum|mama|mommy|dad|papa|daddy|parent|owner)\b",
    ),
    # "proud owner of a rescue greyhound", "mum to two rescue cats", "walking the dog is my
    # morning routine", "crazy cat lady here" (round 11)
    (
        "pet.species",
        PETS,
        r"^\W*(?:i'm\s+|i\s+am\s+)?(?:a\s+)?(?:proud\s+|happy\s+|new\s+)?(?:owner|mum|mom|dad|parent|servant|slave)\s+(?:of|to)\s+"
        r"(?:an?\s+|one\s+|two\s+|three\s+|\d\s+)?(?:(?:rescue|rescued|old|little|young|senior|adopted|big|tiny|crazy|lovely)\s+)*(?P<v>"
        + PETS_EN
        + r")\b"
        r"|^\W*(?:(?:taking|walking)\s+(?:the|my|our)|(?:i|we)\s+(?:walk|take\s+out)\s+(?:the|my|our))\s+(?P<v2>dogs?)\s+"
        r"(?:(?:out|for\s+a\s+walk)\s+)?(?:is|are|every|each|twice|first|before|after)\b"
        r"|^\W*(?:(?:a|such\s+a|total|proper|complete)\s+)?crazy\s+(?P<v3>cat|dog|rabbit|bird)\s+(?:lady|man|person|guy|woman)\b",
    ),
    # "home is lyon these days", "our flat is in glasgow", "toronto based", "born and raised
    # in chicago and still here"
    (
        "location.city",
        None,
        r"^\W*(?:my\s+|our\s+)?(?:home|home\s+base)\s+is\s+(?:in\s+)?(?P<v>"
        + _CITY_OR_NAME
        + r")\b"
        r"|^\W*(?:my|our)\s+(?:flat|apartment|apt|place|house|home|condo)\s+is\s+in\s+(?P<v2>"
        + _CITY_OR_NAME
        + r")\b"
        r"|^\W*(?P<v3>" + _CITY_OR_NAME + r")[\s-]based\b"
        r"|\bborn\s+and\s+raised\s+in\s+(?P<v4>"
        + _CITY_OR_NAME
        + r")\s*,?\s+and\s+still\s+(?:here|there|live\s+there|living\s+there)\b",
    ),
    # "daily sertraline, 50mg", "gotta take my insulin before every meal"
    (
        "medication",
        None,
        r"^\W*(?:(?:daily|nightly|morning|evening|every\s+day)\s+)?(?P<v>"
        + MED_WORD
        + r")\s*,?\s*\d+(?:\.\d+)?\s*(?:mg|mcg|µg|ml|iu|units?)\b"
        r"|\b(?:gotta|have\s+to|need\s+to|got\s+to|must)\s+take\s+(?:my\s+)?(?P<v2>"
        + MED_WORD
        + r")\b"
        r"|^\W*(?:daily|nightly|twice[\s-]daily)\s+(?P<v3>"
        + _alt({m: m for m in L.MEDICATIONS if m.isascii()})
        + r")\W*$",
    ),
)
_HINTS_8 = {
    "intolerance": "intoleran",
    "taste.like": "nerd|geek|buff|fanatic|junkie|enthusiast|addict|lover|fiend",
    "pet.species": "mom|mum|mama|dad|papa|parent|owner|servant|slave|walk|taking|crazy",
    "location.city": "home|flat|apartment|apt|place|house|condo|based|raised",
    "medication": "mg|mcg|µg|ml|iu|unit|take|daily|nightly",
}
# ---- round 5 (zh): families of WeChat-style phrasings dev9 exposed (issue 12) ------------
# subject-less and fronted clauses ("离婚了", "高血压好多年了", "東航我不坐了"), internet
# words for a status (单身狗, 学生党), ways of asking for short answers by what is too long
VALUE_ROWS_5ZH: tuple[tuple[str, str, str], ...] = (
    (
        "relationship.status",
        "single",
        r"^\W*(?:我)?(?:目前|现在|还是|一直)?(?:是)?(?:个|一个|一枚)?(?:单身狗|单身汪|单身人士|母胎solo|万年单身|单身)(?:一枚|一只|一个)?(?:中)?(?=$|[，。,.!！]|呢|啦|了)",
    ),
    (
        "relationship.status",
        "partnered",
        r"我(?:和|跟)(?:我的?)?(?:女朋友|男朋友|女友|男友|对象|伴侣)(?:已经)?(?:在一起|同居|交往|谈了)",
    ),
    (
        "relationship.status",
        "divorced",
        r"^\W*(?:我)?(?:已经|早就|前几年|去年)?(?:离婚|离异|离了婚)(?:了)?(?=$|[，。,.!！]|了)",
    ),
    (
        "job.status",
        "student",
        r"^\W*(?:我)?(?:目前|现在)?(?:还)?是(?:个|一名|一个)?(?:学生|学生党|在校生|大学生|研究生|博士生|留学生|[大研博高初][一二三四五六](?:的)?学生)(?=$|[，。,.!！]|呢|啦|哈)",
    ),
    ("job.status", "unemployed", r"^\W*(?:目前|现在)?(?:在家)?(?:待业|失业|无业)(?:在家|中|了)?"),
    (
        "response.length",
        "short",
        r"太长(?:了)?(?:的)?(?:我)?(?:就)?(?:不看|看不下去|不想看|懒得看)|尽量(?:精简|简短|简洁|短)|tl;?dr",
    ),
    (
        "response.length",
        "medium",
        r"(?:不用|不必|不要|别)(?:太)?长(?:也|又)?(?:不用|不必|不要|别)(?:太)?短",
    ),
    # "回复的时候别太长": a standing limit, unless the short end is bounded too
    (
        "response.length",
        "short",
        r"(?:回复|回答|回|写|说)(?:的时候|时)?(?:都)?(?:别|不要)(?:写得?|说得?)?太长(?!(?:也|又)?(?:别|不要|不用)?(?:太)?短)",
    ),
    (
        "relationship.status",
        "married",
        r"我(?:跟|和)(?:我的?)?(?:老公|老婆|丈夫|妻子|太太|爱人)(?:已经)?结婚",
    ),
    (
        "accessibility",
        "reduced_motion",
        # (not a cartoon watched once: "我看动画片看晕了")
        r"(?:动画(?!片)|动效|闪烁|晃动|转场)[^，。,]{0,6}(?:敏感|头晕|晕(?!了)|少就少|越少越好|关掉|减少|别太多|不要太多)",
    ),
)
#: Hotel chains by their Chinese names (a name, kept as said).
_HOTEL_CHAINS_ZH = (
    r"希尔顿欢朋|希尔顿|万豪|凯悦|君悦|柏悦|洲际|皇冠假日|智选假日|假日|喜来登|威斯汀|亚朵|全季|汉庭|如家"
    r"|香格里拉|丽思卡尔顿|锦江之星|锦江|维也纳|桔子|华住|格林豪泰|丽枫|宜必思|诺富特|凯宾斯基|文华东方"
)
#: A food said with how little the user can stand it ("香菜是真的接受不了", "榴莲我是真不行").
_CANT_STAND = r"(?:接受不了|受不了|无法接受|吃不来|吃不惯|不行|不感冒|欣赏不来|(?:一口)?(?:都|也)不碰|碰都不碰|一口都不吃)"
ITEM_ROWS_5ZH: tuple[tuple[str, Mapping[str, str] | None, str], ...] = (
    (
        "taste.dislike",
        None,
        # ("…，行不行" asks; 行 is no food)
        r"^\W*(?P<v>(?!一点|根本|真|实在|完全|怎么|这个|那个|这|那|[多少差]一|行不|好不|对不)[\u4e00-\u9fff]{1,4}?)(?<![都也])(?:我)?(?:是)?(?:真的?|实在|完全|根本|一点都|怎么都)?"
        + _CANT_STAND
        + r"(?=$|[，。,.!！]|的)",
    ),
    # a fronted condition: "高血压好多年了", "偏头痛是我的老毛病了"
    (
        "health.condition",
        None,
        r"^\W*(?:我)?(?:的)?(?:患有|得了|有)?(?P<v>(?!患|得|有)[\u4e00-\u9fff]{0,5}?(?:病|症|炎|痛|高血压|高血脂|哮喘|痛风|失眠|贫血|甲亢|甲减))"
        r"(?:是我的?|我的?)?(?:老毛病|好多年了|好几年了|很多年了|多年了|[一二两三四五六七八九十几\d]+年了|是老毛病)",
    ),
    # the usual way to pay, said by what is easiest: "付款的话微信支付最方便"
    (
        "payment.method",
        _PAYING,
        r"(?P<v>"
        + _alt(_PAYING, ascii_only=False)
        + r")(?:最方便|最好用|最顺手|用得最多|比较方便)",
    ),
    # a card swiped: "出国我都刷visa信用卡", "只刷借记卡"
    (
        "payment.method",
        PAYMENTS,
        r"(?<!不)刷(?:visa|master|万事达|银联|招行|工行)?(?P<v>信用卡|借记卡|储蓄卡)",
    ),
    # a fronted method the user refuses: "PayPal我不用的", "信用卡我从来不用"
    (
        "payment.avoid",
        PAYMENTS,
        r"^\W*(?P<v>"
        + PAY_ZH
        + r"|"
        + PAY_EN
        + r")(?:我)?(?:是)?(?:从来|一般|基本|坚决|绝对|从)?(?:都)?不(?:用|碰|办)(?:的)?(?=$|[，。,.!！]|的)"
        # waved away: "PayPal就算了，手续费太坑", "信用卡就免了"
        + r"|^\W*(?P<v2>"
        + PAY_ZH
        + r"|"
        + PAY_EN
        + r")(?:的话)?(?:就|还是)(?:算了|免了|不用了|别用了)(?:吧|啊|哈)?(?=$|[，。,.!！])",
    ),
    # a fronted airline the user won't fly: "東航我不坐了"
    (
        "travel.airline.avoid",
        None,
        r"^\W*(?P<v>[\u4e00-\u9fff]{1,4}?航(?:空)?)(?:我)?(?:再也|以后|坚决|一律|绝对|是)?(?:都)?不(?:坐|飞|乘坐|考虑)了?(?=$|[，。,.!！]|的)",
    ),
    # "在腾讯上班" without a subject
    (
        "job.employer",
        None,
        r"^\W*(?:目前|现在)?在(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?)(?:上班|工作|打工|实习)",
    ),
    # "我有仨娃", "家里两个孩子"
    (
        "family.children",
        None,
        r"(?:我|我家|家里)(?:有)?(?P<v>[一二两三四五六七八九]|\d|俩|仨)(?:个)?(?:娃|孩子|小孩|宝宝|崽|娃儿)",
    ),
    # one child named by sex, or the count said as a parent: "我就一个闺女", "家里就一个儿子",
    # "我是两个孩子的妈" (not "一个儿子和一个女儿", counted whole by the rows above)
    (
        "family.children",
        None,
        r"(?:我|我家|家里)(?:就|只|只有|就有|一共|总共)(?P<v>[一两二三四]|\d|俩|仨)(?:个)?(?:闺女|女儿|儿子)"
        r"(?![和、，,]?(?:还有)?(?:一|两)?个(?:儿子|女儿|闺女))"
        r"|我是(?P<v2>[一两二三四五]|\d|俩|仨)(?:个)?(?:孩子|娃)的(?:妈妈?|爸爸?|母亲|父亲|家长)",
    ),
    # the airline fronted before the refusal: "东航我是不会再坐了", "亚航的话再也不坐了"
    (
        "travel.airline.avoid",
        None,
        r"^\W*(?P<v>[\u4e00-\u9fff]{0,6}航空|国航|东航|南航|海航|川航|厦航|深航|国泰|亚航|酷航|春秋|吉祥"
        r"|长荣|华航|星宇|港龙|虎航)(?:的话)?(?:我)?(?:这辈子|以后|今后)?(?:我)?(?:是)?(?:再也|绝对|打死也|坚决)?"
        r"(?:不会|不想|不|不要)(?:再)?(?:坐|飞|订|选)了?",
    ),
    # the favourite said with 最喜欢的…是: "我最喜欢的食物是火锅", "我自己最爱的还是红烧肉"
    (
        "taste.like",
        None,
        # ("我的最爱肯定是奶茶嘛": the favourite said as sure, with a particle)
        r"我(?:自己)?(?:最(?:喜欢|爱)(?:吃|喝)?的(?:食物|菜|东西|美食|饮料|水果|零食|菜系)?|的最爱)"
        r"(?:还是|就是|是|(?:那)?(?:当然|肯定|绝对|必须|一定)(?:是|得是)|莫过于)(?P<v>[\u4e00-\u9fff]{1,8}?)"
        r"(?=$|[，,。.！!~～]|了|啦|吧|啊|嘛|呀|咯|哦|呢|喽)",
    ),
    # a drink or food given up: "我戒酒好几年了", "我已经戒糖了"
    (
        "diet.avoid",
        None,
        r"我(?:已经|早就|早)?戒(?:了)?(?P<v>酒|糖|咖啡|奶茶|可乐|饮料|碳水|甜食|零食|肉|辣)(?:了|好几年|很久|多年|几年)?",
    ),
    # "网贷之类的千万别推给我", "股票基金啥的别推荐"
    (
        "recommend",
        None,
        # ("美妆类的东西不用给我安利了": 安利 is to push a product)
        r"^\W*(?P<v>(?!我|你|他|她)[\u4e00-\u9fffA-Za-z]{2,6}?)(?:之类的?|什么的|啥的|这类的?|这种|这些|类的东西|类的|的东西|类(?!产品))?"
        r"(?:就|也|都|千万|可)?(?:别|不要|不用)(?:再)?(?:给我)?(?:推(?:荐|销)?|安利)(?:给我)?了?(?=$|[，。,.!！]|了|啊|哈)",
    ),
    # where the user is, said without a living verb: "人在杭州", "我在美国，住洛杉矶", a city
    # alone in a later clause: "我住德国，慕尼黑这边" (known places only)
    (
        "location.place",
        None,
        r"(?:^\W*|我)(?:家)?(?:现在|目前|一直)?(?:人)?在(?P<v>[\u4e00-\u9fff]{2,5}?)(?=$|[，。,.!！]|这边|那边|生活|定居|工作|上班)"
        r"|^\W*(?P<v2>[\u4e00-\u9fff]{2,4}?)(?:这边|这儿|这里|那边)(?=$|[，。,.!！])",
    ),
    # a pet named with its kind in front: "我家那只橘猫叫胖虎"
    (
        "pet.species",
        PETS,
        r"(?:我家|我养的)(?:的)?(?:那|这)?(?:只|条|个|两只|俩)?(?P<v>"
        + PETS_ZH
        + r")(?:叫|名叫|的名字(?:是|叫))",
    ),
    # a hotel chain named with a habit word: "出差住宿我只住亚朵", "我一般都是全季"
    (
        "hotel.chain",
        None,
        r"(?:只|一般|都|通常|习惯|基本|常|首选|最爱)(?:都)?(?:是)?(?:住|选|订)?(?P<v>"
        + _HOTEL_CHAINS_ZH
        + r")"
        r"(?=$|[，。,.!！]|的|酒店|了|吧)",
    ),
    # the time zone by a place: "时间按德国的算", "时间以东京为准"
    (
        "timezone",
        TIMEZONES,
        r"(?:时间|时区)(?:都)?(?:按|按照|用|以|照)(?P<v>"
        + _alt(TIMEZONES, ascii_only=False)
        + r")(?:的|那边的)?(?:时区|时间)?(?:算|为准|来)",  # "时间都按美东时区来"
    ),
    # "我在华为做硬件工程师": the role after the employer
    (
        "job.title",
        None,
        r"(?:^\W*|我)(?:目前|现在)?在[\u4e00-\u9fffA-Za-z]{2,8}?(?:做|当|干)(?P<v>[\u4e00-\u9fff]{2,6}(?:工程师|经理|设计师|老师|医生|护士|会计|律师|销售|运营|程序员|主管|总监))(?=$|[，。,.!！])",
    ),
)
_HINTS_5ZH: Mapping[str, str] = {
    "job.status": "学生|在校|研究生|博士生|待业|失业|无业",
    "response.length": "太长|尽量|tl;dr|tldr|长",
    "relationship.status": "单身|solo|女朋友|男朋友|女友|男友|对象|伴侣|离婚|离异|结婚",
    "accessibility": "动画|动效|闪烁|晃动|转场",
    "taste.dislike": "接受不了|受不了|无法接受|吃不来|吃不惯|不行|不感冒|欣赏不来",
    "health.condition": "老毛病|年了",
    "payment.method": "方便|好用|顺手|最多|刷",
    "payment.avoid": "不用|不碰|不办|算了|免了",
    "travel.airline.avoid": "不坐|不飞|不乘坐|不考虑",
    "job.employer": "上班|工作|打工|实习",
    "family.children": "娃|孩子|小孩|宝宝|崽|闺女|女儿|儿子",
    "recommend": "推|安利",
    "job.title": "做|当|干",
    "location.place": "在|这边|这儿|这里|那边",
    "language.spoken": "另外会|而且会|同时会|会一点|会点|还有|以及|外加",
    "hotel.chain": _HOTEL_CHAINS_ZH,
    "pet.species": "叫|名字",
    "timezone": "时间|时区",
}
# ---- round 6 (EN): value forms a set of chat/e-mail/form wordings exposed (dev10) --------
#: Time-zone abbreviations read on their own ("IST timezone", "London, so GMT/BST").
_TZ_ABBR10 = r"(?:ist|" + _TZ_ABBR[3:]
#: Programme names that end in a telling word ("Hilton Honors", "Delta SkyMiles").
_PROGRAMME = r"(?:(?:(?!(?:i'm|i|a|an|the|my|am|is|was|also|and|member|of|in|ve|got|have|has|with)\b)(?<!')[a-z][\w'-]*\s+){0,3}(?:honou?rs|rewards|bonvoy|skymiles|mileageplus|a?advantage|avios|flying\s+blue|executive\s+club|krisflyer|asia\s+miles|miles\s*\+\s*more|marco\s+polo\s+club|miles|points))"
VALUE_ROWS_10: tuple[tuple[str, str, str], ...] = (
    # asked for once more and again ("can you make a table of that", "a table would be
    # nicer", "too much detail", "trim it"): behaviour, three of them make the preference
    (
        "response.format",
        "table",
        r"\b(?:make|put|turn|do|show|give)\s+(?:me\s+)?(?:(?:it|this|that|them)\s+)?(?:in(?:to)?\s+|as\s+)?an?\s+table\b|\ban?\s+table\s+would\s+be\s+(?:nicer|better|easier|clearer|great|good)\b|^\W*(?:a\s+)?table\s+(?:again|pls|please)\b|\btable\s+(?:format\s+)?again\b",
    ),
    (
        "response.length",
        "short",
        r"\btoo\s+(?:much\s+detail|wordy|verbose|long[\s-]winded)\b|^\W*(?:that's|thats|that\s+is|it's)\s+a\s+lot\b|\b(?:trim|cut)\s+(?:it|that|this)(?:\s+down)?\b",
    ),
    # "single, no kids", "I have no children yet": the count is stated, and it is zero
    (
        "family.children",
        "0",
        r"(?:^\W*|\bi\s+have\s+|\bi've\s+got\s+|\bwith\s+)(?:no|zero)\s+(?:kids|children)(?:\s+yet)?\b(?!\s+(?:allowed|menu|around|under|over|please|pls|in|at|on)\b)",
    ),
)
#: A condition named as the user's own ("because of my asthma", "my arthritis flares up"):
#: the noun forms only ("diabetic" is said of a person, not owned).
_MY_CONDITION = _alt(
    {
        k: v
        for k, v in L.CONDITIONS.items()
        if k.isascii() and not k.endswith("ic") and k not in ("pregnant", "a heart condition")
    }
)
ITEM_ROWS_10: tuple[tuple[str, Mapping[str, str] | None, str], ...] = (
    (
        "health.condition",
        None,
        r"\bmy\s+(?P<v>"
        + _MY_CONDITION
        + r")\b(?!\s+(?:is\s+|are\s+)?(?:gone|cured|over|in\s+remission)\b)",
    ),
    # "being diabetic", "as an asthmatic": the condition said of the person
    (
        "health.condition",
        L.CONDITIONS,
        r"\b(?:being|as\s+an?|i'm\s+an?)\s+(?P<v>diabetic|asthmatic|epileptic|coeliac|celiac|prediabetic|pre-diabetic)\b",
    ),
    # "I've lived in Auckland my whole life", "been living in Leeds since 2019": still there
    (
        "location.city",
        None,
        r"\bi(?:'ve|\s+have)\s+(?:been\s+)?(?:lived|living)\s+in\s+(?P<v>(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)?)\s+(?=(?:my\s+whole\s+life|all\s+my\s+life|since|for)\b)",
    ),
    # "I've been learning Japanese for two years"
    (
        "language.spoken",
        LANGS,
        r"\bi(?:'ve|\s+have)\s+been\s+(?:learning|studying)\s+(?P<v>"
        + _alt(LANGS, ascii_only=True)
        + r")\b",
    ),
    # "I work in healthcare as a pharmacist": the role after the sector or employer
    (
        "job.title",
        None,
        r"\bi\s+work\s+(?:in|for|at)\s+[^,.;!?]{2,40}?\s+as\s+an?\s+(?P<v>(?:[a-z]+\s+){0,2}(?:"
        + JOB_HEAD
        + r"|paramedic|nurse|pharmacist))\b",
    ),
    # "I take montelukast every morning": a word taken on a schedule is a medication
    (
        "medication",
        None,
        r"\bi\s+(?:have\s+to\s+|need\s+to\s+)?(?:take|use)\s+(?!(?:the|a|an|my|it|them|this|that|some|walks?|showers?|baths?|naps?|breaks?|photos|pictures|notes|classes|lessons|care|time|the\s+bus|the\s+train)\b)(?P<v>[a-z]{5,})\s+(?:daily|nightly|every\s+(?:day|morning|night|evening)|each\s+(?:day|morning|night)|once\s+a\s+day|twice\s+a\s+day|at\s+night|in\s+the\s+morning)\b",
    ),
    # "I fly Lufthansa whenever possible", "I book KLM when I can": a standing choice
    (
        "travel.airline",
        None,
        r"\bi\s+(?:fly|book|take|choose|pick|go\s+with)\s+(?:with\s+)?(?P<v>"
        + L.AIRLINES_EN
        + r")\s+(?:whenever|when(?:ever)?\s+i\s+can|if\s+i\s+can|if\s+possible|where\s+possible|when\s+possible)\b",
    ),
    # the topic after the noun: "I don't want recommendations for dating apps", "enough with
    # the crypto suggestions", "no more suggestions about cruises"
    (
        "recommend",
        None,
        r"\b(?:don't|do\s+not)\s+want\s+(?:any\s+)?(?:more\s+)?(?:recommendations|suggestions|ads|offers|tips)\s+(?:for|about|on|of)\s+(?P<v>[a-z][a-z ]{1,25}?)(?=\s*(?:[,.;!?]|$)|\s+(?:please|pls|thanks|anymore|again)\b)"
        r"|^\W*enough\s+(?:with\s+)?(?:the\s+|all\s+the\s+)?(?P<v2>[a-z][a-z ]{1,25}?)\s+(?:stuff|content|ads|offers|spam|promos?|deals|recommendations|suggestions|tips)\b"
        r"|^\W*(?:please\s+|pls\s+)?no\s+(?:more\s+)?(?:recommendations|suggestions|ads|offers)\s+(?:for|about|on)\s+(?P<v3>[a-z][a-z ]{1,25}?)(?=\s*(?:[,.;!?]|$)|\s+(?:please|pls|thanks)\b)",
    ),
    # "since moving to Oslo ...": the move is done, the city is the current one
    (
        "location.city",
        None,
        r"\b(?:since|after|ever\s+since)\s+(?:i\s+)?(?:moving|moved|relocating|relocated)\s+(?:here\s+)?to\s+(?P<v>(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z][a-z])[\w'-]*)?)\b",
    ),
    # "answers in spanish pls", "I'd appreciate replies in Dutch": the language of replies
    (
        "language",
        LANGS,
        r"\b(?:answers|replies|responses|reply|answer|response)\s+in\s+(?P<v>"
        + _alt(LANGS, ascii_only=True)
        + r")\b(?!\s+(?:is|are|was|were)\b)",
    ),
    # "my go-to payment method is apple pay"
    (
        "payment.method",
        PAYMENTS,
        r"\bmy\s+(?:[\w-]+\s+){0,2}payment\s+(?:method|app|option)\s*(?:is|=|:|'s)\s*(?P<v>"
        + PAY_EN
        + r")\b",
    ),
    # "I run marathons as a hobby", "I paint for fun": what is done for its own sake
    (
        "taste.like",
        None,
        r"\bi\s+(?:do|play|run|make|paint|write|collect|build|bake|knit|grow|sew|draw)\s+(?P<v>[a-z]+(?:\s+[a-z]+)?)\s+(?:as\s+a\s+hobby|for\s+fun|in\s+my\s+(?:spare|free)\s+time)\b",
    ),
    # "I work remote as a UX designer": the role after how or where the work is done
    (
        "job.title",
        None,
        r"\bi\s+work\s+(?:[a-z]+\s+){1,3}?as\s+an?\s+(?P<v>(?:[a-z]+\s+){0,2}(?:"
        + JOB_HEAD
        + r"))\b",
    ),
    # "the doctor has me on metformin", "they put me on sertraline": a regular medication
    (
        "medication",
        None,
        r"\b(?:has|have|had|put|started|keeps?)\s+me\s+on\s+(?P<v>" + MED_WORD + r")\b",
    ),
    # "I do a lot of hiking", "we go climbing loads": an activity done as a habit
    (
        "taste.like",
        None,
        r"\bi\s+(?:do|go)\s+(?:a\s+lot\s+of\s+|lots\s+of\s+|loads\s+of\s+|a\s+bit\s+of\s+|some\s+|plenty\s+of\s+)(?P<v>"
        + GOING_EN
        + "|"
        + ACTIVITY_EN
        + r")\b",
    ),
    # "I've been doing yoga for years", "been doing pilates most mornings": a habit kept up
    (
        "taste.like",
        None,
        r"(?:\bi(?:'ve|\s+have)\s+|^\W*)been\s+(?:doing|going|practi[cs]ing)\s+(?P<v>"
        + GOING_EN
        + "|"
        + ACTIVITY_EN
        + r")\b(?=\s+(?:for|since|most|every|on|at|a\s+lot|loads|regularly|weekly|daily)\b|\s*[,.;!]|$)",
    ),
    # "I garden a lot", "I knit most evenings": the activity by its own verb, as a habit
    (
        "taste.like",
        _HOBBY_VERBS,
        r"\bi\s+(?:also\s+)?(?P<v>garden|knit|crochet|sew|surf|climb|hike|ski|sail|kayak|boulder)"
        r"(?=\s+(?:a\s+lot|loads|most|every|whenever|on\s+(?:the\s+)?weekends?|in\s+my\s+(?:spare|free)"
        r"|for\s+fun|as\s+a\s+hobby)\b|\s*[,.;!]|$)",
    ),
    (
        "timezone",
        TIMEZONES,
        r"\b(?P<v>" + _TZ_ABBR10 + r")(?:\s*/\s*[a-z]{3,4})?\s+(?:time\s*zone|tz)\b"
        r"|\b(?:so|i\.?e\.?|meaning|aka)\s+(?P<v2>" + _TZ_ABBR10 + r")(?:\s*/\s*[a-z]{3,4})?\W*$",
    ),
    (
        "travel.loyalty",
        None,
        r"\b(?P<v>" + _PROGRAMME + r")\s+(?:(?:silver|gold|platinum|diamond|titanium|bronze|elite"
        r"|premier|ruby|sapphire|emerald)\s+)?(?:member|membership|card|elite|status|tier)\b",
    ),
    (
        "travel.airline.avoid",
        None,
        r"^\W*(?:please\s+)?(?:avoid|skip|no)\s+(?P<v>"
        + L.AIRLINES_EN
        + r")\b(?!\s+(?:is|are|was|has)\b)",
    ),
)
_HINTS_10: Mapping[str, str] = {
    "health.condition": "my |being|as a|i'm a",
    "location.city": "lived|living|moving|moved|relocat",
    "language.spoken": "learning|studying",
    "job.title": " as a",
    "recommend": "recommendations|suggestions|ads|offers|tips",
    "language": "answers|replies|responses|reply|answer|response",
    "payment.method": "payment",
    "medication": " me on |daily|nightly|every|each|once a|twice a|at night|in the morning",
    "travel.airline": "whenever|when i can|if i can|possible",
    "taste.like": "lot of|lots of|loads of|bit of|some |plenty of|hobby|for fun|spare time|free time",
    "response.format": "table",
    "response.length": "too|lot|trim|cut",
    "family.children": "kid|child",
    "timezone": "ist|gmt|bst|cet|jst|est|pst|aest|sgt|hkt|cst|mst|utc|edt|pdt|cdt|mdt|cest|aedt|zone's|tz's",
    "travel.loyalty": "member|card|elite|status",
    "travel.airline.avoid": "avoid|skip|no ",
}
#: English wordings the dev12 set exposed (voice, chat and Indian/British registers).
_SEAT_VERB = (
    r"\bi\s+(?:always\s+|usually\s+|normally\s+|generally\s+)?(?:book|choose|pick|take|grab|go\s+for"
    r"|ask\s+for)\s+(?:the\s+|a\s+|an\s+)?"
)
_KIDS_ADJ = r"(?:(?:teenage|grown(?:[\s-]up)?|little|young|adult|small)\s+)?"
VALUE_ROWS_EN12: tuple[tuple[str, str, str], ...] = (
    ("seat", "window", _SEAT_VERB + r"window(?:\s+seats?)?\b(?!\s+(?:cleaner|blinds?|table|box))"),
    ("seat", "aisle", _SEAT_VERB + r"aisle(?:\s+seats?)?\b"),
    (
        "job.status",
        "student",
        r"\bi(?:'m|\s+am)\s+(?:a\s+|an\s+)?(?:uni|undergrad|undergraduate|postgrad|postgraduate|masters?"
        r"|master's|med|medical|law|nursing|mature|part-time|high\s+school|college|art|exchange)\s+student\b",
    ),
    # pronouns said without the slash: "I use they them pronouns"
    ("pronouns", "they/them", r"\bthey[\s-]+them\s+pronouns\b"),
    ("pronouns", "he/him", r"\bhe[\s-]+him\s+pronouns\b"),
    ("pronouns", "she/her", r"\bshe[\s-]+her\s+pronouns\b"),
    ("pronouns", "he/they", r"\bhe[\s-]+they\s+pronouns\b"),
    ("pronouns", "she/they", r"\bshe[\s-]+they\s+pronouns\b"),
    # "pure veg" / "pure vegetarian": Indian English for a strict (egg-free) vegetarian
    ("diet", "vegetarian", r"\bpure\s+(?:veg|vegetarian)\b"),
)
#: A measure said to be high, as the condition's name.
_HIGH_MEASURES: Mapping[str, str] = {
    "blood pressure": "high blood pressure",
    "cholesterol": "high cholesterol",
    "blood sugar": "high blood sugar",
}
ITEM_ROWS_EN12: tuple[tuple[str, Mapping[str, str] | None, str], ...] = (
    (
        "travel.airline",
        None,
        r"\b(?:i(?:'m|\s+am)|we(?:'re|\s+are))\s+(?:(?:very|pretty|fiercely|quite|always|both|all)\s+)*loyal"
        r"\s+to\s+(?P<v>" + L.AIRLINES_EN + r")\b",
    ),
    # "anything but Ryanair", "any airline but Spirit": the one excepted is refused
    (
        "travel.airline.avoid",
        None,
        r"^\W*(?:anything|any\s+(?:airline|carrier)|anyone)\s+(?:but|except)\s+(?P<v>"
        + L.AIRLINES_EN
        + r")\b",
    ),
    # "codeine makes me really sick": an adverse drug reaction is recorded with allergies
    (
        "allergy",
        None,
        r"^\W*(?P<v>"
        + MEDS_EN
        + r")\s+(?:makes?|made|gives?|gave)\s+me\s+(?:really\s+|very\s+|so\s+|super\s+)?(?:sick|ill"
        r"|vomit|throw\s+up|nauseous|hives|a\s+rash|break\s+out)\b",
    ),
    (
        "pet.species",
        PETS,
        r"\bi\s+(?:own|have|keep|'ve\s+got)\s+(?:a\s+couple\s+of|a\s+few|several|a\s+pair\s+of)\s+"
        r"(?:\w+\s+)?(?P<v>" + PETS_EN + r")\b",
    ),
    # "my blood pressure is high", "my cholesterol runs a bit high": the condition by its
    # measure
    (
        "health.condition",
        _HIGH_MEASURES,
        r"\bmy\s+(?P<v>blood\s+pressure|cholesterol|blood\s+sugar)\s+(?:is|'s|runs|has\s+(?:always\s+)?been"
        r"|tends\s+to\s+be|is\s+always)\s+(?:(?:a\s+bit|a\s+little|quite|pretty|really|very|always|too"
        r"|on\s+the)\s+)*high\b",
    ),
    # Indian English "take" for eating: "I don't take eggs"
    (
        "diet.avoid",
        None,
        r"\bi\s+(?:don't|do\s+not|dont|never)\s+take\s+(?P<v>" + FOOD_AVOID_LIST + r")\b",
    ),
    (
        "family.children",
        None,
        r"\bi\s+(?:have|'ve\s+got|have\s+got)\s+(?P<v>\d|one|two|three|four|five|six)\s+"
        + _KIDS_ADJ
        + r"(?:boys|girls|sons|daughters|kids|children)\b"
        r"|^\W*(?P<v2>\d|one|two|three|four|five|six)\s+"
        + _KIDS_ADJ
        + r"(?:boys|girls|sons|daughters)\W*$"
        # one child in a bare list: "45, divorced, one kid"
        r"|^\W*(?P<v3>one|1)\s+(?:kid|child|boy|girl|son|daughter)\W*$",
    ),
)
_HINTS_EN12: Mapping[str, str] = {
    "pronouns": "pronoun",
    "seat": "window|aisle",
    "job.status": "student",
    "diet": "pure",
    "travel.airline": "loyal",
    "travel.airline.avoid": "but|except",
    "health.condition": "high",
    "allergy": "makes|made|gives|gave",
    "pet.species": "couple|few|several|pair",
    "diet.avoid": "take",
    "family.children": "boys|girls|sons|daughters|kid|child|son|daughter",
}
# ---- round 7 (zh): families of everyday-chat wordings dev16zh exposed (issue 12) ----------
# the object fronted before 我 (二甲双胍我一天吃两次, 麸质我不耐受, 甜食我不太爱吃), a
# drug named after its class (降压药我一直在吃，氨氯地平), subjectless clauses after a comma
# (…，还有高血压 / …，做外贸 / …，有事发微信), short ways of saying a standing preference
#: Drug classes people name before the drug itself.
_DRUG_CLASS_ZH = r"降压药|降糖药|降脂药|他汀类?|止痛药|抗抑郁药|安眠药|抗过敏药|胃药|激素|药"
#: Chronic conditions said bare after 我 / 还有 ("我痛风", "还有高血压", "我是二型糖尿病"),
#: from a closed list (a slur or a habit called a 症 is no condition).
_CONDITION_ZH = (
    r"(?:[一二两三四\d]型|慢性|轻度|中度|重度|过敏性|季节性)?(?:糖尿病|高血压|高血脂|高血糖|高尿酸|哮喘|痛风|甲亢|甲减"
    r"|贫血|偏头痛|心脏病|胃炎|鼻炎|湿疹|抑郁症|焦虑症|失眠|颈椎病|腰椎间盘突出|脂肪肝|冠心病)"
)
VALUE_ROWS_16ZH: tuple[tuple[str, str, str], ...] = (
    # "吃的必须是清真的", "饮食只能清真"
    (
        "diet",
        "halal",
        r"(?:吃的?|饮食|食物)[^，,。]{0,4}(?:必须|只能|都得|一定要|都要|只)(?:是|吃)?清真",
    ),
    # "最近失业了", "刚失业", "前阵子被裁了"
    (
        "job.status",
        "unemployed",
        r"^\W*(?:我)?(?:最近|刚刚?|前阵子|前段时间|上个月|今年)(?:刚)?(?:失业|待业|被裁(?:员)?)(?:了|中|在家)?",
    ),
    # "我目前还是单身", "我现在也还单着"
    (
        "relationship.status",
        "single",
        r"^\W*(?:我)?(?:目前|现在|还是|一直|也|还|仍然|依然)+(?:是)?(?:单身|单着)(?:一枚|中)?(?=$|[，。,.!！]|呢|啦|了)",
    ),
    # "房间楼层高一点", "楼层越高越好"
    ("hotel.room", "high_floor", r"楼层(?:要|尽量)?(?:高一点|高一些|高点|越高越好|高些)"),
    # "太长了看不完", "太长的我看不完"
    ("response.length", "short", r"太长(?:了)?(?:的)?(?:我)?(?:都|就)?(?:看不完|读不完|没耐心看)"),
    # "直说就行", "不用委婉", "别绕弯子"
    (
        "response.tone",
        "direct",
        r"^\W*(?:有话)?直说(?:就行|就好|就可以|吧)|(?:不用|不必|别|不要)(?:太)?委婉|(?:别|不要|不用)绕弯子",
    ),
    # "对比强一点", "对比度调高点"
    ("accessibility", "high_contrast", r"对比(?:度)?(?:调)?(?:强|高|大|明显)(?:一)?(?:点|些)"),
    # "电话就算了", "打电话就免了吧"
    ("contact.call", "never", r"^\W*(?:打)?电话(?:就|还是)?(?:算了|免了|别了|不用了)"),
    # the seat for a kind of ticket or trip, without a subject: "订机票靠过道", "买高铁票都选
    # 靠窗", "坐飞机喜欢过道"
    (
        "seat",
        "aisle",
        r"(?:(?:订|买|选)(?:机票|飞机票|高铁票|火车票|票|座位)|坐(?:飞机|高铁|火车|动车))"
        r"(?:的话|时|的时候)?(?:我)?(?:都|一般)?(?:要|选|喜欢|习惯|爱)?(?:靠)?(?:过道|走廊)",
    ),
    (
        "seat",
        "window",
        r"(?:(?:订|买|选)(?:机票|飞机票|高铁票|火车票|票|座位)|坐(?:飞机|高铁|火车|动车))"
        r"(?:的话|时|的时候)?(?:我)?(?:都|一般)?(?:要|选|喜欢|习惯|爱)?靠窗",
    ),
    # the type made bigger: "字体调大", "字号放大一点"
    ("accessibility", "large_text", r"字(?:体|号)?(?:调|放|弄)大"),
    *(
        ("pronouns", code, r"^\W*我(?:用|是)\s*" + re.escape(code) + r"(?![a-z])")
        for code in ("she/they", "he/they", "she/her", "he/him", "they/them")
    ),
)
ITEM_ROWS_16ZH: tuple[tuple[str, Mapping[str, str] | None, str], ...] = (
    # the allergen fronted, said with 是 / 都 and no verb: "青霉素我是过敏的", "鸡蛋和牛奶我都过敏"
    (
        "allergy",
        None,
        r"^\W*(?P<v>[\u4e00-\u9fffA-Za-z]{1,10}?)(?:的话)?我(?:是|都|也|一直)+(?:有点|特别|严重)?过敏",
    ),
    # the allergen fronted, told by the reaction: "布洛芬我吃了会起疹子", "芒果我一碰就痒"
    (
        "allergy",
        None,
        r"^\W*(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?)(?:的话)?我(?:一|只要|每次)?(?:吃|用|服用|喝|碰|打|擦)(?:了|完|到)?"
        r"(?:就|会|都)?(?:会)?(?:起|长|出)(?:疹子|红疹|荨麻疹|风团|红点)",
    ),
    # the substance fronted: "麸质我不耐受", "乳糖我是不耐的"
    (
        "intolerance",
        None,
        r"^\W*(?P<v>[\u4e00-\u9fffA-Za-z]{1,6}?)(?:的话)?我(?:是|也|都|有点|有些)*不耐(?:受)?",
    ),
    # the food fronted before a mild dislike: "甜食我不太爱吃", "肥肉我不怎么喜欢吃"
    (
        "taste.dislike",
        None,
        r"^\W*(?P<v>(?!这|那|我)[\u4e00-\u9fff]{1,6}?)(?:的话)?我(?:是|也|都|一直|从来)?(?:不太|不怎么|不大|不)(?:爱|喜欢)(?:吃|喝)",
    ),
    # the food said with how hard it is to eat: "香菜真的吃不了", "肥肉是实在吃不下"
    (
        "taste.dislike",
        None,
        r"^\W*(?P<v>(?!这|那|我|今天|现在)[\u4e00-\u9fff]{1,4}?)(?:我)?(?:是)?(?:真的?|实在|完全|根本|怎么都)"
        r"(?:吃不了|吃不下|喝不了|碰不了)(?=$|[，。,.!！]|的)",
    ),
    # the drug fronted before a dose or a standing habit: "二甲双胍我一天吃两次",
    # "优甲乐我每天早上一片" ("苹果我一天吃两个" names no dose)
    (
        "medication",
        None,
        r"^\W*(?P<v>(?!"
        + _DRUG_CLASS_ZH
        + r")[\u4e00-\u9fffA-Za-z]{2,8}?)我(?:一天|每天|每日|每晚|每早|早上|晚上|早晚|天天)?"
        r"(?:都|要)?(?:吃|服|服用)?(?:[一两二三四半\d]+)(?:次|片|粒|颗)"
        r"|^\W*(?P<v2>(?!"
        + _DRUG_CLASS_ZH
        + r")[\u4e00-\u9fffA-Za-z]{2,8}?)我(?:一直|长期|常年|每天都|天天)(?:在)?(?:吃|服用)",
    ),
    # a bare condition after 我 or after 还有: "我痛风，…", "…，还有高血压", "我是二型糖尿病"
    (
        "health.condition",
        None,
        r"^\W*我(?:是)?(?P<v>" + _CONDITION_ZH + r")(?:患者|病人)?(?=$|[，。,.!！])"
        r"|^\W*(?:还|另外|而且|并且|同时)(?:有|患有)(?P<v2>" + _CONDITION_ZH + r")",
    ),
    # the languages fronted: "英语日语我都能说", "粤语我也会讲"
    (
        "language.spoken",
        LANGS,
        r"(?P<v>"
        + _alt(LANGS, ascii_only=False)
        + r")(?=(?:(?:和|跟|、|还有)?(?:"
        + _alt(LANGS, ascii_only=False)
        + r"))*(?:我)?(?:从小)?(?:都|也|就)?(?:能|会)(?:说|讲|(?=一点|一些|点|$|[，。,.!！])))"
        # a mother tongue, or one still being learned, fronted: "德语是母语", "中文还在学"
        + r"|(?P<v2>"
        + _alt(LANGS, ascii_only=False)
        + r")(?:是(?:我的)?母语|(?:我)?(?:还|也|正|现在|最近)?在学)",
    ),
    # a language rated with a degree word: "我法语说得挺流利的"
    (
        "language.spoken",
        LANGS,
        r"我(?:的)?(?P<v>"
        + _alt(LANGS, ascii_only=False)
        + r")(?:说得|讲得|口语)(?:挺|很|还挺|非常|特别|比较|相当|蛮)(?:流利|好|不错|溜|地道)",
    ),
    # the employer after a time word: "我目前在腾讯打工", "我现在在字节上班"
    (
        "job.employer",
        None,
        r"^\W*我(?:目前|现在|如今|眼下)在(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?)(?:上班|工作|打工|实习)",
    ),
    # a trade done, without a subject: "…，做外贸", "在做电商"
    (
        "industry",
        None,
        r"^\W*(?:在)?做(?P<v>外贸|电商|金融|互联网|教育|医疗|房地产|物流|餐饮|广告|保险|建筑|传媒|游戏|零售)"
        r"(?:的|这行|行业|这一行)?(?=$|[，。,.!！])",
    ),
    # a channel for when something comes up: "有事发微信", "有事给我发邮件"
    (
        "contact.channel",
        CHANNELS,
        r"^\W*有事(?:就|请)?(?:给我)?(?:发|打|找我用|用)(?P<v>"
        + _alt(CHANNELS, ascii_only=False)
        + r"|email|e-mail|sms)",
    ),
    # the app used by habit: "我习惯用Telegram", "给我发email就好"
    (
        "contact.channel",
        CHANNELS,
        r"我(?:习惯|一般|平时|常)用(?P<v>telegram|whatsapp|signal|messenger|imessage|电报)"
        r"|^\W*给我发(?P<v2>email|e-mail|邮件|短信|sms)(?:就好|就行|就可以)",
    ),
    # the programme fronted before the tier: "希尔顿荣誉客会我是钻石会员"
    (
        "travel.loyalty",
        None,
        r"^\W*(?P<v>[\u4e00-\u9fffA-Za-z]{2,10}?(?:荣誉客会|旅享家|知音|万里行|俱乐部|常旅客))我(?:是|有|办了)",
    ),
    # the classical "and" between tens and units: "本人二十有五", "我今年四十有二"
    (
        "age",
        None,
        r"(?:^\W*|我|本人)(?:今年|现年|年方)?(?P<v>[二三四五六七八九]十有[一二三四五六七八九])(?:岁)?(?=$|[，。,.!！了])",
    ),
    # the age right after 我 in a list of facts: "我28，单身，住杭州"
    ("age", None, r"^\W*我(?P<v>1[6-9]|[2-8]\d)(?:岁)?(?=[，,]|$)"),
    # the age opening the turn, subject dropped: "六十五岁，刚退休没多久"
    (
        "age",
        None,
        r"^\W*(?P<v>1[6-9]|[2-9]\d|[二三四五六七八九]十[一二三四五六七八九]?|十[六七八九])(?:周)?岁(?=[，,]|\W*$)",
    ),
    # a birthday just passed: "我今年刚过了三十六岁生日", "上个月刚过完四十岁生日"
    (
        "age",
        None,
        r"(?:^\W*|我)(?:今年|上个月|上周|前几天|前两天|昨天|刚刚)?(?:刚|才)?过(?:了|完)(?P<v>\d{2}|[二三四五六七八九]十[一二三四五六七八九]?)(?:周)?岁(?:的)?生日",
    ),
    # the full name given after the surname: "我姓陈，全名陈晓东"
    ("name", None, r"^\W*(?:我的?)?全名(?:是|叫)?(?P<v>[\u4e00-\u9fff]{2,4})(?=$|[，。,.!！])"),
    # an enthusiast by halves: "我算半个摄影爱好者", "我也算个羽毛球迷"
    (
        "taste.like",
        None,
        r"我(?:也)?算(?:是)?(?:半个|一个|个)?(?P<v>[\u4e00-\u9fff]{2,4}?)(?:爱好者|迷|发烧友)",
    ),
)
_HINTS_16ZH: Mapping[str, str] = {
    "diet": "清真",
    "job.status": "失业|待业|被裁",
    "relationship.status": "单",
    "hotel.room": "楼层",
    "response.length": "太长",
    "response.tone": "直说|委婉|绕弯",
    "accessibility": "对比",
    "contact.call": "电话",
    "pronouns": "/",
    "allergy": "过敏|疹",
    "intolerance": "不耐",
    "taste.dislike": "爱吃|喜欢吃|爱喝|喜欢喝|吃不|喝不|碰不",
    "medication": "吃|服|片|粒|颗|次",
    "health.condition": "我|有",
    "language.spoken": "能说|会说|能讲|会讲|说得|讲得|口语",
    "job.employer": "上班|工作|打工|实习",
    "industry": "做",
    "contact.channel": "有事|习惯|一般|平时|常用|给我发",
    "travel.loyalty": "荣誉客会|旅享家|知音|万里行|俱乐部|常旅客",
    "name": "全名",
    "age": "我",
    "taste.like": "爱好者|迷|发烧友",
}
#: Airlines said by their Chinese names, short or full.
_AIRLINE_ZH = (
    r"[\u4e00-\u9fff]{0,6}航空|国航|东航|南航|海航|川航|厦航|深航|国泰|新航|全日空|日航|大韩|韩亚"
    r"|阿联酋|卡塔尔|汉莎|英航|法航|达美|美联航|春秋|吉祥|亚航|酷航|山航|昆航|长荣|华航|星宇|虎航"
)
#: Round 9 (dev18zh): everyday chat with the object fronted, a habit adverb before the verb,
#: a measure of quantity instead of a verb, and requests worded as complaints.
VALUE_ROWS_18ZH: tuple[tuple[str, str, str], ...] = (
    # the emergency exception with a hedge: "家里有急事的话还是可以打的", "急事也可以打"
    (
        "contact.call.emergency",
        "allowed",
        r"(?:急事|紧急(?:情况)?|要紧事)(?:的话|时|的时候)?[，,]?(?:还是|也|就)?(?:可以|能)打",
    ),
    # how much to write, by a measure: "字少点", "最多三句话", "控制在两句以内"
    (
        "response.length",
        "short",
        r"字(?:数)?(?:少|短)(?:一)?(?:点|些)|最多(?:[一二两三四五\d])句(?:话)?|(?:[一二两三\d])句话(?:就|说完)",
    ),
    # the conclusion first: "结论放最前面", "先说结论"
    (
        "response.format",
        "summary_first",
        r"结论(?:放|写|摆)(?:在)?(?:最)?前(?:面|头)|先(?:说|讲|写)结论",
    ),
    # only the code: "直接贴代码", "光给代码就行"
    (
        "response.format",
        "code_only",
        r"(?:直接|光|只)(?:贴|给|发|上)(?:我)?代码(?![^，。]{0,4}(?:和|加|再))",
    ),
    # talk as a friend would: "说话随便点", "像朋友聊天那样"
    (
        "response.tone",
        "casual",
        r"(?:说话|聊天|语气|回复)(?:就)?随便(?:一)?点|像(?:朋友|哥们|闺蜜)(?:一样|那样)?聊天",
    ),
    # a room away from the lift: "房间别靠电梯", "离电梯远点"
    (
        "hotel.room",
        "away_from_elevator",
        r"(?:别|不要|不能)(?:靠|挨)(?:着|近)?电梯|离电梯远|远离电梯",
    ),
    # flashing animation avoided: "不能看闪烁的动画", "闪来闪去的特效我受不了"
    (
        "accessibility",
        "reduced_motion",
        r"(?:不能|受不了|看不了|不敢)(?:看)?(?:闪烁|闪动|闪来闪去)(?:的)?(?:动画|画面|特效|效果)",
    ),
    # a divorce said through the former spouse: "我跟前夫早离了"
    (
        "relationship.status",
        "divorced",
        r"我(?:跟|和|与)(?:前夫|前妻)(?:早就?|已经|早都)?离(?:了|婚)",
    ),
    # engaged, with a time before it: "我上个月刚订婚", "去年就订婚了"
    (
        "relationship.status",
        "engaged",
        r"^\W*我(?:上个月|上周|去年|前阵子|最近|今年)?(?:刚刚?|已经|就)?订(?:了)?婚",
    ),
    # pronouns said after the word for them: "代词的话she/they都可以", "代词用he/him"
    *(
        ("pronouns", code, r"代词(?:的话|是|用|请用)?\s*" + re.escape(code) + r"(?![a-z])")
        for code in ("she/they", "he/they", "she/her", "he/him", "they/them")
    ),
    # a student by the year of the course: "我研二", "我大三"
    ("job.status", "student", r"^\W*我(?:现在|目前)?(?:研|大|博)[一二三四五](?:了|啦|$|[，,。])"),
    # a card never taken: "信用卡我一张都没办"
    (
        "payment.avoid",
        "credit_card",
        r"^\W*信用卡我(?:一张)?(?:都|也|从来)?(?:没办|没有办|不办|没开)",
    ),
)
ITEM_ROWS_18ZH: tuple[tuple[str, Mapping[str, str] | None, str], ...] = (
    # a food fronted, liked: "麻辣烫和螺蛳粉我都爱吃", "烧烤我超爱吃"
    (
        "taste.like",
        None,
        r"^\W*(?P<v>(?!这|那|什么|啥)[\u4e00-\u9fff]{2,6}(?:(?:和|、|跟)[\u4e00-\u9fff]{2,6}){0,3}?)我"
        r"(?:都|也|一直|特别|超|最|很|挺|贼)*(?:爱吃|喜欢吃|爱喝|喜欢喝)(?=$|[，。,.!！]|了|的)",
    ),
    # a food fronted, disliked by what it does to the user: "榴莲我闻着就想吐"
    (
        "taste.dislike",
        None,
        r"^\W*(?P<v>(?!这|那|什么|啥)[\u4e00-\u9fff]{1,5}?)(?:我)?(?:一)?(?:闻|看|吃|尝)(?:着|到|了)?(?:就)?"
        r"(?:想吐|恶心|反胃|犯恶心|难受)",
    ),
    # what the user orders as a rule: "我一般都点川菜", "我每次都点酸菜鱼"
    (
        "taste.like",
        None,
        r"我(?:一般|平时|通常|每次|基本|经常)(?:都|也)?(?:会)?点(?P<v>(?!外卖|餐|单|菜|个|些)[\u4e00-\u9fff]{2,5}?)"
        r"(?=$|[，。,.!！]|吃|的)",
    ),
    # a topic fronted with no interest: "综艺节目我是真没兴趣", "股票我不感兴趣"
    (
        "recommend",
        None,
        r"^\W*(?P<v>(?!这|那|什么|啥)[\u4e00-\u9fff]{2,6}?)我(?:是)?(?:真的?|实在|完全|一点)?(?:都)?"
        r"(?:没(?:有)?兴趣|不感兴趣)",
    ),
    # an allergen after a word of regret: "可惜猫毛过敏"
    (
        "allergy",
        None,
        r"(?:可惜|只是|就是|但是?|不过)(?:我)?(?:对)?(?P<v>[\u4e00-\u9fff]{1,4}?)过敏(?![的原源史])",
    ),
    # a drug named after its class and 我吃的是: "降糖药我吃的是格列美脲"
    (
        "medication",
        None,
        r"(?:"
        + _DRUG_CLASS_ZH
        + r")我(?:现在|目前|一直)?(?:吃|用)的是(?P<v>[\u4e00-\u9fffA-Za-z]{2,8})",
    ),
    # a pill a day: "每天早上一粒氯沙坦", "每晚一片褪黑素"
    (
        "medication",
        None,
        r"(?:每天|每日|每晚|天天)(?:早上|晚上|睡前|早晚)?(?:各)?(?:打|吃|服|注射)?(?:[一二两\d])(?:粒|片|颗|针)"
        r"(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?)(?=$|[，。,.!！])",
    ),
    # a sleep aid relied on: "我平时靠褪黑素睡觉"
    (
        "medication",
        None,
        r"我(?:平时|每天|一直|现在)?(?:都)?靠(?P<v>[\u4e00-\u9fffA-Za-z]{2,6}?)(?:才能)?(?:睡觉|入睡|睡着)",
    ),
    # a known drug fronted and refused for the body's sake: "阿莫西林我不能用", "青霉素类的我用不了"
    (
        "allergy",
        None,
        r"^\W*(?:我)?(?:对)?(?P<v>"
        + _alt({k: k for k in L.MEDICATIONS if not k.isascii()}, ascii_only=False)
        + r")(?:类)?(?:的)?(?:药|药物)?(?:我)?(?:是)?(?:一直|从来|都|也)?(?:不能用|用不了|不能打|打不了|不能碰|碰不了)(?![吗么嘛呢?？])",
    ),
    # a language rated, fronted without 我: "德语一般般", "韩语马马虎虎", "粤语听得懂说不好"
    (
        "language.spoken",
        LANGS,
        r"(?:^\W*|[，,；;]\s*)(?P<v>(?!我)[\u4e00-\u9fff]{1,4}(?:语|话))(?:我)?(?:说得|讲得|水平|口语)?(?:也|还)?"
        r"(?:一般般?(?=$|[，。,.!！；;]|吧|啦)|马马虎虎|还凑合|(?:能)?凑合|(?:能)?听得懂|还行|还可以)(?![吗么嘛?？])",
    ),
    # languages rated: "法语和英语都挺流利的", "日语能聊几句"
    (
        "language.spoken",
        LANGS,
        r"(?P<v>(?!我)[\u4e00-\u9fff]{1,4}(?:语|文)(?:(?:和|、|跟)[\u4e00-\u9fff]{1,4}(?:语|文)){0,4})(?:我)?(?:都|也|还)?"
        r"(?:说得|讲得)?(?:挺|很|比较|还算|非常|特别)?流利",
    ),
    (
        "language.spoken",
        LANGS,
        r"(?P<v>(?!我)[\u4e00-\u9fff]{1,4}(?:语|文))(?:也|还)?(?:能|会)(?:聊|说|讲)(?:上)?(?:几句|一点|一些|一点点)",
    ),
    # the mother tongue, and a language learned later: "中文是后来学的"
    (
        "language.spoken",
        LANGS,
        r"(?P<v>(?!我)[\u4e00-\u9fff]{1,4}(?:语|文))是(?:后来|之后|长大后|大学时)学的",
    ),
    # the time zone of a city: "时区按洛杉矶的算", "时间以伦敦为准"
    (
        "timezone",
        TIMEZONES,
        r"(?:时区|时间)(?:按|按照|用|以)(?P<v>[\u4e00-\u9fffA-Za-z]{2,12}?)(?:的)?(?:时间|时区)?(?:算|来|为准)",
    ),
    # an airline chosen whenever it can be: "能选南航就选南航"
    (
        "travel.airline",
        None,
        r"能(?:选|坐|订)(?P<v>" + _AIRLINE_ZH + r")就(?:选|坐|订)",
    ),
    # a pet kept, counted: "养了两只小仓鼠", "养了一缸金鱼"
    (
        "pet.species",
        PETS,
        r"养了?(?:[一二两三四五六七八九十几\d]+)(?:只|条|缸|对|笼)(?:小)?(?P<v>"
        + _alt(PETS, ascii_only=False)
        + r")",
    ),
    # a country lived in for a while: "来德国快三年了"
    (
        "location.country",
        None,
        r"(?:来|到|在)(?P<v>德国|法国|英国|美国|日本|韩国|加拿大|澳大利亚|澳洲|新西兰|意大利|西班牙|荷兰|瑞士|瑞典|新加坡|马来西亚|泰国)"
        r"(?:已经|快|都|有)?(?:[一二两三四五六七八九十几\d]+|半)(?:年|个月)(?:了|多)",
    ),
    # a channel for the usual contact, without a subject: "平时微信联系", "有事走邮件"
    (
        "contact.channel",
        CHANNELS,
        r"^\W*(?:平时|一般|有事|以后|日常)(?:都|就)?(?:用|走)?(?P<v>微信|短信|邮件|邮箱|电话|telegram|whatsapp)"
        r"(?:联系|找我|沟通)(?:我)?(?:就行|就好|吧)?(?=$|[，。,.!！])",
    ),
    # an airline named as the favourite: "長榮是我最愛的航空公司", "国泰就是我的首选"
    (
        "travel.airline",
        None,
        r"^\W*(?P<v>"
        + _AIRLINE_ZH
        + r")(?:航空)?(?:一直|永远)?(?:是|就是)我(?:的)?(?:首选|最爱|最常坐|常坐|最喜欢|心头好)(?:的)?(?:航空公司)?",
    ),
    # an airline fronted and not to be booked: "春秋那种别给我订", "亚航就不要订了"
    (
        "travel.airline.avoid",
        None,
        r"^\W*(?P<v>"
        + _AIRLINE_ZH
        + r")(?:那种|这种|那样的|这样的|的)?(?:就|也)?(?:别|不要|不用)(?:给我)?(?:订|选|买)",
    ),
    # the age with an adverb of how young or old: "因为我才19", "我都五十了"
    (
        "age",
        None,
        r"我(?:今年)?(?:才|刚|都|已经)(?:满)?(?P<v>1[0-9]|[2-9]\d)(?:岁)?(?=$|[，,。!！]|了|呢|啊|啦)",
    ),
    # the usual way to pay, said with 走: "网购我一般都走支付宝"
    (
        "payment.method",
        _PAYING,
        r"(?:一般|平时|都|习惯|基本)走(?P<v>" + _alt(_PAYING, ascii_only=False) + r")",
    ),
)
_HINTS_18ZH: Mapping[str, str] = {
    "contact.call.emergency": "急",
    "response.length": "字|句",
    "response.format": "结论|代码",
    "response.tone": "随便|聊天",
    "hotel.room": "电梯",
    "accessibility": "闪",
    "relationship.status": "离|订婚|订了婚",
    "job.status": "研|大|博",
    "pronouns": "代词",
    "travel.airline.avoid": "别|不要|不用",
    "payment.avoid": "信用卡",
    "taste.like": "爱吃|喜欢吃|爱喝|喜欢喝|点",
    "taste.dislike": "想吐|恶心|反胃|难受",
    "recommend": "兴趣",
    "allergy": "过敏|不能用|用不了|不能打|打不了|不能碰|碰不了",
    "medication": "吃的是|用的是|粒|片|颗|针|靠",
    "language.spoken": "流利|能聊|会聊|能说|会说|能讲|会讲|学的",
    "timezone": "时区|时间",
    "travel.airline": "选|坐|飞",
    "pet.species": "养",
    "location.country": "年|个月",
    "contact.channel": "联系|找我|沟通",
    "payment.method": "走",
    "age": "才|刚|都|已经",
}
_HOTELS_EN_17 = (
    r"Marriott|Hilton|Hyatt|IHG|Accor|Sheraton|Westin|Four\s+Seasons|Holiday\s+Inn|Novotel"
    r"|Ibis|Radisson|Wyndham|Best\s+Western|Ritz[\s-]Carlton|Intercontinental|Shangri-La"
    r"|Mandarin\s+Oriental|Kempinski|Premier\s+Inn|Travelodge|Hampton\s+Inn|Motel\s+6"
)
#: Round 8 (dev17): ordinary users' chat (older users, parents, small-business owners,
#: students): switches ("I've switched to X now"), household and business "we", a value
#: given as the answer to a question, exceptions said in the next sentence.
_SWITCHED = r"\b(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+|now\s+|finally\s+)?(?:switched|moved|changed|gone\s+over)\s+(?:over\s+)?to\s+"
_KEPT = {**PETS, "chickens": "chicken", "hens": "chicken", "budgies": "bird", "horses": "horse"}
_HOBBY_17 = (
    r"(?:crosswords?|sudoku|jigsaws?|jigsaw\s+puzzles|puzzles|word\s+games|quizzes|"
    + ACTIVITY_EN[3:-1]
    + r"|"
    + GOING_EN[3:-1]
    + r"|"
    + PLAYED[3:-1]
    + r"|f1|formula\s+one|motor\s+racing|horse\s+racing|athletics)"
)
_HOUSEHOLD = (
    r"\b(?:i|we)\s+(?:all\s+|both\s+)?(?:usually\s+|always\s+|mostly\s+|normally\s+|just\s+)?"
)
VALUE_ROWS_EN17: tuple[tuple[str, str, str], ...] = (
    # the exception in a sentence of its own: "If it's a real emergency then ok, you can
    # call", "the only exception is an emergency"
    (
        "contact.call.emergency",
        "allowed",
        r"\b(?:if\s+it(?:'s|\s+is)|in)\s+(?:an?\s+)?(?:real\s+|genuine\s+|true\s+|actual\s+|proper\s+)?"
        r"emergency\b[^.!?]{0,30}?\b(?:ok|okay|fine|you\s+(?:can|may)\s+(?:call|ring|phone))\b"
        r"|\b(?:only|one)\s+exception\s+is\s+(?:an?\s+)?(?:real\s+|genuine\s+)?emergenc",
    ),
    # "please refer to me as she or they", "he or they is fine"
    (
        "pronouns",
        "she/they",
        r"\b(?:as|use|go\s+by|pronouns\s+are)\s+(?:either\s+)?she\s+or\s+they\b",
    ),
    (
        "pronouns",
        "he/they",
        r"\b(?:as|use|go\s+by|pronouns\s+are)\s+(?:either\s+)?he\s+or\s+they\b",
    ),
    # "shorter answers please", "keep your replies shorter"
    (
        "response.length",
        "short",
        r"(?<=shorter\s)(?:answers|replies|responses|messages)\s+(?:please|pls|from\s+now\s+on)\b"
        r"|\bkeep\s+(?:your\s+|the\s+)?(?:answers|replies|responses)\s+shorter\b",
    ),
    # a cabin chosen for a kind of flight: "business class for long flights"
    *(
        (
            "travel.class",
            code,
            r"^\W*(?:(?:always|only|usually)\s+)?"
            + said
            + r"\s+(?:on|for)\s+(?:all\s+|any\s+)?(?:(?:long|long[\s-]haul"
            r"|longer|international|overseas|short|short[\s-]haul|domestic)\s+(?:flights|trips|ones|hauls?)\b"
            r"|(?:long|short)[\s-]haul\b)",
        )
        for code, said in (
            ("premium_economy", r"premium\s+economy"),
            ("business", r"business(?:\s+class)?"),
            ("first", r"first\s+class"),
            ("economy", r"(?<!premium\s)economy(?:\s+class)?"),
        )
    ),
    # "plain texts are best for me": texts as messages ("plain text" alone is a format)
    (
        "contact.channel",
        "sms",
        r"\b(?:plain|normal|regular|ordinary)\s+texts\s+(?:are|is)\s+(?:best|better|fine|easiest|preferred)\b",
    ),
    # a switch of channel: "I've switched to Telegram now"
    ("contact.channel", "telegram", _SWITCHED + r"telegram\b"),
    ("contact.channel", "whatsapp", _SWITCHED + r"whats\s?app\b"),
    ("contact.channel", "signal", _SWITCHED + r"signal\b"),
    # "I keep chickens", "we keep rabbits": keeping animals is having them
)
ITEM_ROWS_EN17: tuple[tuple[str, Mapping[str, str] | None, str], ...] = (
    # an airline refused by the booking it must not get: "don't put me on Spirit", "I refuse
    # to fly Ryanair"
    (
        "travel.airline.avoid",
        None,
        r"\b(?:don't|do\s+not|never)\s+(?:ever\s+)?(?:put|book)\s+me\s+on\s+(?:an?\s+)?(?P<v>"
        + L.AIRLINES_EN
        + r")\b|\bi\s+refuse\s+to\s+fly\s+(?:with\s+)?(?P<v2>"
        + L.AIRLINES_EN
        + r")\b",
    ),
    # a payment switched to or made for a household or business: "I've switched to Apple
    # Pay now", "we pay suppliers by bank transfer", "Venmo, that's what I use"
    ("payment.method", PAYMENTS, _SWITCHED + r"(?P<v>" + PAY_EN + r")\b"),
    (
        "payment.method",
        PAYMENTS,
        _HOUSEHOLD
        + r"pay\s+(?:(?:my|our|the|all)\s+)?(?:[a-z]+\s+){0,2}?(?:with|by|via|using|through)\s+(?P<v>"
        + PAY_EN
        + r")\b",
    ),
    (
        "payment.method",
        PAYMENTS,
        r"^\W*(?:(?:yes|yeah|yep|ok|okay|sure)\W+)?(?P<v>"
        + PAY_EN
        + r")(?:\s+is\s+(?:fine|good|great|ok|okay))?\s*[,.;]?\s*(?:that's|that\s+is|it's)\s+what\s+(?:i|we)\s+"
        r"(?:always\s+|usually\s+|mostly\s+|normally\s+)?(?:use|pay\s+with)\b",
    ),
    # "cash or debit only", "card or apple pay only"
    (
        "payment.method",
        PAYMENTS,
        r"^\W*(?P<v>(?:" + PAY_EN + r")(?:\s*(?:,|or|and|/)\s*(?:" + PAY_EN + r"))+)\s+only\W*$",
    ),
    # a drug a doctor moved the user onto: "my doctor switched me to sertraline", "the GP put
    # me on metformin", "they started me on ramipril"
    (
        "medication",
        None,
        r"\b(?:doctors?|doc|gp|consultant|specialist|cardiologist|psychiatrist|they|nurse)\s+(?:has\s+|have\s+|just\s+)?"
        r"(?:switched|put|started|moved|changed)\s+me\s+(?:over\s+)?(?:on|onto|to)\s+(?P<v>"
        + MED_WORD
        + r")\b",
    ),
    # hobbies by their activity word: "big football fan", "I've taken up pottery classes",
    # "in my free time I do crosswords and knitting"
    (
        "taste.like",
        None,
        r"^\W*(?:a\s+)?(?:big|huge|massive|die[\s-]?hard|lifelong|keen)\s+(?P<v>"
        + _HOBBY_17
        + r")\s+fan\b"
        r"|\bi(?:'ve|\s+have)?\s+(?:recently\s+|just\s+|finally\s+|also\s+)?(?:taken|took)\s+up\s+(?P<v2>"
        + _HOBBY_17
        + r")(?:\s+(?:classes|lessons|again))?\b"
        r"|\b(?:in\s+my\s+(?:free|spare|down)\s+time|for\s+fun|to\s+relax|on\s+weekends)\s*,?\s+i\s+"
        r"(?:mostly\s+|usually\s+|mainly\s+)?(?:do|play|enjoy|love)\s+(?P<v3>(?:"
        + _HOBBY_17
        + r")(?:\s*(?:,|and|&)\s*(?:"
        + _HOBBY_17
        + r"))*)\b",
    ),
    # the household's language and one the user is at ease in: "we speak Tagalog at home",
    # "I'm fine with English too"
    (
        "language.spoken",
        LANGS,
        r"\bwe\s+(?:all\s+|mostly\s+|usually\s+|only\s+)?speak\s+(?P<v>(?:"
        + _alt(LANGS, ascii_only=True)
        + r")(?:\s*(?:,|and|&)\s*(?:"
        + _alt(LANGS, ascii_only=True)
        + r"))*)\s+at\s+home\b|\bi(?:'m|\s+am)\s+(?:also\s+)?(?:fine|ok|okay|comfortable|happy)\s+(?:with|in)\s+(?P<v2>"
        + _alt(LANGS, ascii_only=True)
        + r")(?:\s+too|\s+as\s+well)?\W*$",
    ),
    # a drink or staple switched to: "I've switched to oat milk now"
    (
        "taste.like",
        None,
        _SWITCHED
        + r"(?P<v>(?:oat|almond|soy|soya|rice|coconut|skimmed|skim|whole|semi-skimmed|lactose-free)\s+milk"
        r"|decaf(?:\s+coffee)?|green\s+tea|herbal\s+tea|brown\s+rice|wholemeal\s+bread|sourdough)\b",
    ),
    (
        "pet.species",
        _KEPT,
        r"\b(?:i|we)\s+(?:also\s+)?keep\s+(?:a\s+few\s+|some\s+|two\s+|three\s+)?(?P<v>chickens|hens|rabbits|horses|budgies|goldfish|guinea\s+pigs)\b",
    ),
    # the household or the business as the subject: "we always go with British Airways",
    # "we're both on Delta SkyMiles"
    (
        "travel.airline",
        None,
        _HOUSEHOLD + r"(?:go|fly)\s+(?:with\s+)?(?P<v>" + L.AIRLINES_EN + r")\b",
    ),
    (
        "travel.loyalty",
        None,
        r"\bwe(?:'re|\s+are)\s+(?:both\s+|all\s+)?(?:on|in|members\s+of)\s+(?:the\s+)?(?P<v>(?:[\w-]+\s+){0,2}?"
        r"(?:skymiles|aadvantage|mileageplus|avios|executive\s+club|krisflyer|flying\s+blue|hilton\s+honors|marriott\s+bonvoy))\b",
    ),
    (
        "hotel.chain",
        None,
        _HOUSEHOLD + r"stay\s+(?:at|with|in)\s+(?:a\s+|the\s+)?(?P<v>" + _HOTELS_EN_17 + r")s?\b",
    ),
    # "I book Hyatt whenever there's one", "we stick with Premier Inn" (round 11)
    (
        "hotel.chain",
        None,
        _HOUSEHOLD
        + r"(?:book|stick\s+(?:with|to)|go\s+for|pick|choose)\s+(?:a\s+|the\s+)?(?P<v>"
        + _HOTELS_EN_17
        + r")s?\b(?!\s+(?:for|in|on)\s+(?:this|next|the|my|our|tonight|tomorrow)\b)",
    ),
)
_HINTS_EN17: Mapping[str, str] = {
    "pronouns": "she or they|he or they",
    "contact.channel": "switched|moved|changed|gone over",
    "payment.method": "switched|moved|changed|gone over|what i use|what we use| only",
    "pet.species": "keep",
    "taste.like": "switched|moved|changed|gone over|fan|taken up|took up|free time|spare time|down time|for fun|to relax|on weekends",
    "medication": "switched|put me|started me|moved me|changed me",
    "language.spoken": "at home|fine with|ok with|okay with|comfortable|happy with",
    "travel.airline": "go with|go ",
    "travel.airline.avoid": "put me|refuse",
    "travel.class": "long|haul|international|overseas|short|domestic",
    "travel.loyalty": "we're|we are",
    "hotel.chain": "stay|book|stick|go for|pick|choose",
}
# ---- round 24 (EN): families dev24 showed, each tested on other wordings in
# tests/unit/ingest/test_en24_families.py
VALUE_ROWS_EN24: tuple[tuple[str, str, str], ...] = (
    ("response.length", "short", r"\bshort\s+and\s+(?:sweet|to\s+the\s+point|simple)\b"),
    # "I'm used to imperial": the system the user reads without converting
    (
        "units.system",
        "imperial",
        r"\bi(?:'m|\s+am|m)\s+(?:more\s+|so\s+|just\s+|only\s+)?used\s+to\s+(?:imperial|feet\s+and\s+inches"
        r"|pounds\s+and\s+ounces|cups\s+and\s+ounces|ounces|inches|miles|fahrenheit\s+and\s+miles)\b",
    ),
    (
        "units.system",
        "metric",
        r"\bi(?:'m|\s+am|m)\s+(?:more\s+|so\s+|just\s+|only\s+)?used\s+to\s+(?:metric|kilos|kilograms|grams"
        r"|kilometres|kilometers|centimetres|centimeters|litres|liters|kg\s+and\s+cm)\b",
    ),
    # "the hotel room has to be accessible", "rooms must be wheelchair accessible"
    (
        "hotel.room",
        "accessible",
        r"\b(?:hotel\s+)?rooms?\s+(?:has|have|needs?|must|should|got)\s*(?:to\s+be|be)?\s+(?:fully\s+)?"
        r"(?:wheelchair[\s-])?accessible\b|\baccessible\s+(?:hotel\s+)?rooms?\s+(?:please|only|always)\b",
    ),
    # "PhD student in chemistry", "final year nursing student": a student by the kind said
    (
        "job.status",
        "student",
        r"^\W*(?:i'm\s+|i\s+am\s+|im\s+)?(?:an?\s+)?(?:phd|ph\.d\.?|masters?|master's|msc|postgrad|undergrad"
        r"|undergraduate|grad|graduate|uni|university|college|med|law|nursing|doctoral|final[\s-]year"
        r"|first[\s-]year|second[\s-]year|third[\s-]year)\s+student\b",
    ),
)
#: Pastimes said by their verb, two or more with when they are done ("I knit and bake in
#: my spare time", "I paint and garden on weekends").
_HOBBY_VERB = (
    r"(?:knit|bake|paint|garden|sew|cook|draw|swim|run|cycle|climb|hike|fish|surf|ski|crochet|dance"
    r"|sing|write|read|skate|row|box|sketch|quilt|journal|kayak|sail)"
)
#: A taste word that makes a food "too much" for the user ("way too sweet for me").
_TOO_MUCH = (
    r"(?:sweet|salty|spicy|bitter|rich|sour|greasy|oily|bland|sugary|fatty|cheesy|garlicky|stodgy"
    r"|sickly|creamy|heavy)"
)
#: One word of a food's name: no conjunction, pronoun or determiner.
_FOOD_WORD = (
    r"(?!(?:but|and|though|while|i|i'm|im|my|we|you|it|this|that|these|those|everything|anything)\b)"
    r"[a-z][a-z'-]*"
)
ITEM_ROWS_EN24: tuple[tuple[str, Mapping[str, str] | None, str], ...] = (
    (
        "taste.like",
        None,
        r"\bi\s+(?:also\s+|mostly\s+|usually\s+|like\s+to\s+|love\s+to\s+)?(?P<v>"
        + _HOBBY_VERB
        + r"(?:\s*(?:,|and|&)\s*"
        + _HOBBY_VERB
        + r"){1,3})\s+(?:in\s+my\s+(?:spare|free|down)\s+time|for\s+fun|on\s+(?:the\s+)?weekends|at\s+weekends"
        r"|as\s+hobbies|to\s+relax|to\s+unwind|when\s+i\s+(?:can|get\s+the\s+chance))\b",
    ),
    # "milk chocolate is way too sweet for me", "..., but IPAs are too bitter for me"
    (
        "taste.dislike",
        None,
        r"(?:^\W*|\bbut\s+|\bthough\s+|\bwhile\s+|\bwhereas\s+)(?:the\s+)?(?P<v>"
        + _FOOD_WORD
        + r"(?:\s+"
        + _FOOD_WORD
        + r"){0,3}?)\s+(?:is|are|'s|tastes?|taste|gets?)"
        r"\s+(?:(?:way|far|much|just|a\s+bit|a\s+little|kinda|always|usually|generally)\s+)?too\s+"
        + _TOO_MUCH
        + r"\s+for\s+me\b",
    ),
    # "I'm a barista at a little cafe called Bean There", "work at a small bakery called Crumbs"
    (
        "job.employer",
        None,
        r"\b(?:i\s+work|i'm\s+working|i\s+am\s+working|^\W*work(?:ing)?|i(?:'m|\s+am)\s+an?\s+[a-z]+(?:\s+[a-z]+)?)"
        r"\s+(?:at|for|in)\s+(?:a|an|this)\s+(?:(?:little|small|tiny|local|big|family[\s-]run|independent|lovely)\s+)*"
        r"(?:cafe|café|coffee\s+shop|shop|bakery|restaurant|bar|pub|bookshop|bookstore|store|boutique|salon|studio"
        r"|agency|firm|company|startup|start-up|clinic|practice|gym|hotel|school|nursery|garage|charity"
        r"|brewery|deli|bistro|diner)\s+(?:called|named)\s+(?P<v>(?-i:[A-Z])[\w'&-]*(?:\s+(?-i:[A-Z])[\w'&-]*){0,3})",
    ),
    # puzzles done as a pastime: "I knit and do crosswords", "I do the sudoku every day"
    (
        "taste.like",
        None,
        r"\b(?:i|and)\s+(?:also\s+|mostly\s+|usually\s+|regularly\s+)?(?:do|play)\s+(?:the\s+|a\s+lot\s+of\s+"
        r"|lots\s+of\s+|some\s+)?(?P<v>crosswords?|cryptic\s+crosswords|sudoku|jigsaws?|jigsaw\s+puzzles|word\s+games"
        r"|quizzes|pub\s+quizzes)\b",
    ),
    # the country after a place near a city: "home is a small village outside Lyon in France"
    (
        "location.country",
        None,
        r"^\W*(?:(?:my\s+)?home(?:'s|\s+is)|i\s+(?:live|am\s+based)|i'm\s+based)\s+(?:in\s+)?(?:an?\s+)?"
        r"(?:(?:small|little|tiny|sleepy|quiet|remote)\s+)?(?:town|village|suburb|city|place|hamlet|spot)\s+"
        r"(?:just\s+)?(?:outside|near|close\s+to|north\s+of|south\s+of|east\s+of|west\s+of|by)\s+"
        r"(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)?,?\s+in\s+(?P<v>"
        + _alt({k: k for k in L.COUNTRIES if k.isascii()})
        + r")\b",
    ),
    # a hay fever season said as a fragment: "hay fever every spring"
    (
        "allergy",
        None,
        r"^\W*(?:(?:bad|terrible|awful|seasonal|severe)\s+)?(?P<v>hay\s*fever)\s+(?:every|each|all|in\s+(?:the\s+)?)\s*"
        r"(?:spring|summer|year|season|may|june)\b",
    ),
)
_HINTS_EN24: Mapping[str, str] = {
    "response.length": "sweet|to the point|short and simple",
    "units.system": "used to",
    "hotel.room": "accessible",
    "job.status": "student",
    "taste.like": "spare|free time|down time|for fun|weekends|hobbies|relax|unwind|chance|crossword|sudoku|jigsaw|quiz|word game",
    "taste.dislike": "too ",
    "job.employer": "called|named",
    "allergy": "hay",
    "location.country": "home|live|based",
}
VALUE_ROWS = (
    VALUE_ROWS
    + VALUE_ROWS_EN24
    + VALUE_ROWS_3
    + VALUE_ROWS_4
    + VALUE_ROWS_4ZH
    + VALUE_ROWS_5ZH
    + VALUE_ROWS_10
    + VALUE_ROWS_EN12
    + VALUE_ROWS_16ZH
    + VALUE_ROWS_EN17
    + VALUE_ROWS_18ZH
)
#: A list of known words fronted, joined by 和 / 、 / 跟 or by nothing ("虾蟹", "川菜湘菜",
#: "股票基金啥的"), before 都: the subject may be dropped, as the words name the items.
_LIST_RUN_ZH = (
    r"(?P<v>(?:"
    + "|".join(sorted(L.ZH_LIST_WORDS, key=len, reverse=True))
    + r"){1,5}(?:(?:和|、|跟)(?:"
    + "|".join(sorted(L.ZH_LIST_WORDS, key=len, reverse=True))
    + r"){1,3}){0,3})(?:啥的|什么的|之类的?|这种|这些|这类|那些|等)?(?:的)?(?:我)?(?:也|全|统统|基本)?都"
)
#: Pastimes by their usual words, with the verb they are played with: "打羽毛球", "游泳", "弹吉他".
_PASTIME_ZH = (
    r"(?:(?:打)?(?:羽毛球|乒乓球|网球|篮球|排球|高尔夫|台球|桌球|麻将|游戏)|(?:踢)?足球|(?:下)?(?:象棋|围棋|棋)"
    r"|(?:弹)?(?:吉他|钢琴|琴)|钓鱼|爬山|徒步|跑步|游泳|健身|瑜伽|骑行|骑车|露营|滑雪|攀岩|冲浪|潜水|跳绳|拳击"
    r"|摄影|拍照|画画|书法|练字|唱歌|跳舞|追剧|看书|阅读|旅游|做饭|烘焙|养花|种菜|编程|逛街|散步|遛狗|喝茶|插花"
    r"|看电影|听音乐|听歌|打游戏|玩游戏)"
)
#: A district after its city: "浦东", "海淀区", "高新区" (not "出差", "读书").
_DISTRICT_ZH = re.compile(
    r"[\u4e00-\u9fff]{1,3}(?:区|县|新区)|浦东|浦西|徐汇|静安|黄浦|长宁|闵行|海淀|朝阳|东城|西城|丰台|昌平|通州"
    r"|大兴|顺义|天河|越秀|海珠|番禺|白云|南山|福田|罗湖|宝安|龙岗|西湖|滨江|余杭|萧山|拱墅|武侯|锦江|青羊"
    r"|成华|高新|江北|渝中|鼓楼|玄武|秦淮|江宁|洪山|武昌|汉口|汉阳|望京|中关村|陆家嘴|张江"
)
#: The Chinese names of known drugs: "沙丁胺醇", "胰岛素".
_DRUGS_ZH = "|".join(sorted((k for k in L.MEDICATIONS if not k.isascii()), key=len, reverse=True))
ITEM_ROWS_21ZH: tuple[tuple[str, Mapping[str, str] | None, str], ...] = (
    # "虾蟹都过敏", "猫毛狗毛我都过敏"
    ("allergy", None, r"^\W*" + _LIST_RUN_ZH + r"(?:有点|会)?过敏(?![吗么嘛?？])"),
    # "川菜湘菜都爱吃", "咖啡奶茶我都爱喝"
    (
        "taste.like",
        None,
        r"^\W*"
        + _LIST_RUN_ZH
        + r"(?:特别|超|很|挺|贼)?(?:爱吃|喜欢吃|爱喝|喜欢喝|喜欢|爱)(?![吗么嘛?？])",
    ),
    # "榴莲臭豆腐这种我都不行", "香菜芹菜都受不了"
    (
        "taste.dislike",
        None,
        r"^\W*"
        + _LIST_RUN_ZH
        + r"(?:不行|受不了|接受不了|不爱吃|不喜欢|吃不惯|吃不来)(?![吗么嘛?？])",
    ),
    # "股票基金啥的我都有研究", "钓鱼爬山都喜欢玩"
    (
        "taste.like",
        None,
        r"^\W*"
        + _LIST_RUN_ZH
        + r"(?:有|挺有|很有)?(?:研究|兴趣|感兴趣|爱玩|喜欢玩|玩|在玩)(?![吗么嘛?？])",
    ),
    # a channel for a standing habit, with its app or way before the verb: "有事微信上说就行",
    # "有事传Line给我", "打电话给我最方便" (a bare "打电话给我" may be a one-off request)
    (
        "contact.channel",
        CHANNELS,
        r"^\W*(?:有事|平时|一般|以后|有啥事)(?:的话)?(?:就|请|都)?(?:直接)?(?:在|用)?(?P<v>"
        + _alt(CHANNELS, ascii_only=False)
        + r"|line|telegram|whatsapp|email|e-mail|sms)\s*(?:上)?(?:说|聊|讲|留言|私信我|私聊)(?:就行|就好|吧|比较快|最快|最方便)?"
        + r"(?=$|[，。,.!！])"
        + r"|^\W*(?:有事|平时|一般|以后|有啥事)?(?:的话)?(?:就|请|都)?(?:直接)?(?:发|传|打|用)\s*(?P<v2>"
        + _alt(CHANNELS, ascii_only=False)
        + r"|line|telegram|whatsapp|email|e-mail|sms)\s*(?:给我|联系我|找我)(?:就行|就好|比较快|最快|最方便|比较方便)"
        + r"(?=$|[，。,.!！])"
        + r"|^\W*(?:有事|有啥事)(?:的话)?(?:就|请)?(?:直接)?(?:发|传)\s*(?P<v3>"
        + _alt(CHANNELS, ascii_only=False)
        + r"|line|telegram|whatsapp|email|e-mail|sms)\s*给我(?=$|[，。,.!！])",
    ),
    # an airline flown once and never again: "坐过一次东航之后再也不坐了"
    (
        "travel.airline.avoid",
        None,
        r"(?:坐|飞)过(?:一次|一回|两次|几次)?(?P<v>[\u4e00-\u9fff]{0,6}航空|国航|东航|南航|海航|川航|厦航|深航|国泰|亚航"
        r"|酷航|春秋|吉祥|长荣|华航|星宇|港龙|虎航)(?:之后|以后|后)?[，,]?\s*(?:我)?(?:就)?(?:再也|打死也|绝对)"
        r"(?:不会|不想|不)(?:再)?(?:坐|飞)了?",
    ),
    # no interest at all: "我对相亲节目一点兴趣都没有", "对保健品毫无兴趣"
    (
        "recommend",
        None,
        r"^\W*(?:我)?对(?P<v>[^，。,；;]{1,10}?)(?:(?:一点|半点|丝毫)兴趣(?:都|也)没有|毫无兴趣|一点(?:都|也)不感兴趣)",
    ),
    # fewer of them, please: "少给我推那些网红店", "以后少推点理财课"
    (
        "recommend",
        None,
        r"^\W*(?:以后|今后)?(?:请)?少(?:给我)?(?:推|推荐|推送)(?:点|些)?(?:那些|这些|那种|这种)?"
        r"(?P<v>(?!点|些|给)[\u4e00-\u9fffA-Za-z]{2,8}?)(?:了|吧)?(?=$|[，。,.!！])",
    ),
    # two ways to pay, either is fine: "付款的话支付宝微信都行", "银联和现金都可以"
    (
        "payment.method",
        _PAYING,
        r"^\W*(?:付款|付钱|支付|买单|结账)?(?:的话)?(?P<v>(?:支付宝|微信|现金|银联|信用卡|借记卡)"
        r"(?:(?:和|、|跟|或者?)?(?:支付宝|微信|现金|银联|信用卡|借记卡)){1,3})(?:我)?都(?:行|可以|能用|ok)",
    ),
    # cash as the habit: "我都是付现金", "我一般给现金"
    (
        "payment.method",
        _PAYING,
        r"我(?:一般|平时|通常|基本上?|向来|一直)?(?:都|也)?(?:是)?(?:付|给|用)(?P<v>现金)(?:付款|支付|结账)?(?=$|[，。,.!！]|的)",
    ),
    # a child named in brackets, with the age: "我闺女（小米，6岁）…", "我儿子(乐乐, 3岁)"
    (
        "family.child.names",
        None,
        r"我(?:的|家)?(?:闺女|女儿|儿子|孩子|小孩|娃|大儿子|小儿子|大女儿|小女儿|宝宝)\s*[（(]\s*"
        r"(?P<v>(?![一二三四五六七八九十两\d]|初[一二三]|高[一二三]|小学|中学|大学|幼儿园)[\u4e00-\u9fff]{1,4}|[A-Z][a-z]{1,10})"
        r"\s*(?=$|[，,、）)]|\s+\d)",
    ),
    # a drug fronted, taken for a stretch of time: "舍曲林我吃了大半年了"
    (
        "medication",
        None,
        r"^\W*(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?)我(?:已经)?(?:吃|服用|用)了(?:大|小)?(?:半年|[一二两三四五六七八九十几\d]+(?:个)?(?:年|月|多年|多月))",
    ),
    # a known food or pastime fronted that the user cannot do without: "奶茶我离不开",
    # "可乐我是戒不掉了" (a known word only: "手机我离不开" or a person is no taste)
    (
        "taste.like",
        None,
        r"^\W*(?P<v>"
        + "|".join(sorted(L.ZH_LIST_WORDS, key=len, reverse=True))
        + r")(?:的话)?我(?:是|真|真的|实在|每天|天天)?(?:离不开|戒不掉)(?:了)?(?![吗么嘛?？])",
    ),
    # an airline fronted and liked: "国航我比较喜欢", "南航的话我一直挺喜欢的"
    (
        "travel.airline",
        None,
        r"^\W*(?P<v>[\u4e00-\u9fff]{0,6}航空|国航|东航|南航|海航|川航|厦航|深航|国泰|亚航|酷航|春秋|吉祥"
        r"|长荣|华航|星宇|港龙|虎航)(?:的话)?我(?:还是|一直|都)?(?:比较|挺|很|最|特别|蛮)?(?:喜欢|偏爱|爱坐)"
        r"(?:坐)?(?:的)?(?![吗么嘛?？])(?=$|[，。,.!！])",
    ),
    # a pet fronted, kept for years: "乌龟养了十几年了", "金毛我养了五年多"
    (
        "pet.species",
        PETS,
        r"^\W*(?:家里?的?)?(?P<v>"
        + _alt({k: k for k in PETS if not k.isascii()})
        + r")(?:我|我们家?)?(?:已经)?养(?:了)?(?:有)?(?:[一二两三四五六七八九十几\d]+|好几|很多|好多)(?:多)?(?:个)?(?:年|月)"
        # (not one that died or was given away: "鱼养了两个月就死了")
        r"(?![^，,。]*(?:死|没了|走了|送人|送走|丢了|跑了|去世))",
    ),
    # "家里猫狗都有", "猫狗我都养着"
    (
        "pet.species",
        PETS,
        r"^\W*(?:我)?(?:家里?|家里面)?" + _LIST_RUN_ZH + r"(?:有|养|养着|养了)(?![吗么嘛过?？])",
    ),
    # pastimes done in the user's free time, without a liking verb: "我业余时间打羽毛球和游泳",
    # "周末一般去爬山、钓鱼" (a closed list of pastimes: "周末要加班" names none)
    (
        "taste.like",
        None,
        r"(?:业余时间|空闲时间|闲暇时间?|有空的时候|有空|周末|平时|下班后|下班以后)(?:我)?(?:一般|经常|常常|都|会|就|也|偶尔)*(?:去)?"
        r"(?P<v>"
        + _PASTIME_ZH
        + r"(?:(?:和|、|跟|或者|,|，)(?:去)?"
        + _PASTIME_ZH
        + r"){0,3})(?=$|[，,。.!！；;]|什么的|之类)",
    ),
    # the sector the user is of, said as 'of the trade': "我是互联网行业的", "(我是PM，)金融圈的"
    (
        "industry",
        None,
        r"(?:^\W*|我是|我也是)(?:做|干|搞|从事)?(?P<v>(?![做干搞])[\u4e00-\u9fff]{2,4}?)(?:行业|圈|领域|这行)的\W*$",
    ),
    # a known drug used, sprayed or inhaled: "我哮喘要用沙丁胺醇喷雾", "一直在用胰岛素"
    (
        "medication",
        None,
        r"(?:要|得|需要|一直|每天|常年|长期|随身|平时)(?:在)?(?:用|喷|吸|打)(?P<v>"
        + _DRUGS_ZH
        + r")",
    ),
    # a condition as the subject of what it needs: "我哮喘要用…", "我高血压，所以每天吃药"
    (
        "health.condition",
        None,
        r"^\W*我(?:有)?(?P<v>"
        + _alt({k: k for k in L.CONDITIONS if not k.isascii()})
        + r")(?=[，,]?\s*(?:要|得|需要|一直|每天|常年|长期|随身|所以|经常|平时)(?!是))",
    ),
)
ITEM_ROWS = (
    ITEM_ROWS
    + ITEM_ROWS_EN24
    + ITEM_ROWS_21ZH
    + ITEM_ROWS_3
    + ITEM_ROWS_4
    + ITEM_ROWS_4ZH
    + ITEM_ROWS_8
    + ITEM_ROWS_5ZH
    + ITEM_ROWS_10
    + ITEM_ROWS_EN12
    + ITEM_ROWS_16ZH
    + ITEM_ROWS_EN17
    + ITEM_ROWS_18ZH
)


#: Cheap pre-filter per key: a row runs only on a clause (lowercased) that contains one of
#: its key's hint substrings, so a turn pays for the few rows it could match.
_HINTS: Mapping[str, tuple[str, ...]] = {
    key: tuple(words.split("|"))
    for key, words in {
        "contact.call": "call|phone|ring|电话",
        "pronouns": "/|他|她|女|男",
        "diet": "pesc|fish|鱼|halal|清真|穆斯林|kosher|低|控糖|sugar|carb|sodium|salt|盐|keto|生酮|vegetarian|vegan",
        "job.status": "retired|退休|student|学生|在读|研究生|博士|大学|读研|研二|研一|研三|高中|本科|self|freelanc|自由职业|创业|employ|between jobs|out of work|失业|待业|个体|开了|当老板|做生意|小生意",
        "relationship.status": "married|婚|divorced|离|single|单身|engaged|widow|丧偶|寡妇|鳏夫|走了|去世|过世|不在了",
        "seat": "seat|aisle|window|靠",
        "travel.class": "business|economy|eco class|first|舱",
        "response.length": "detail|详细|long|short|brief|concise|tl|elaborate|lengthy|comprehensive|thorough",
        "response.format": "table|表格|step|numbered|步|plain|markdown|纯文本|first|结论|code|代码|bullet|分点|列点",
        "response.tone": "friend|blunt|sugar|direct|straight|直接|绕|casual|informal|relaxed|chill|轻松|随意|口语|formal|professional|正式|friendly|warm|亲切|encourag|supportive|鼓励|positiv",
        "response.emoji": "emoji|表情",
        "response.style": "technical|技术|专业|explain|simple|通俗|简单|example|例",
        "units.system": "metric|km|kilomet|kg|kilogram|celsius|公制|imperial|mile|pound|lbs|feet|inch|英制",
        "units.temperature": "celsius|fahrenheit|摄氏|华氏|°|℃|℉",
        "units.time_format": "24|12|am/pm|小时制",
        "accessibility": "colo|blind|red|色|caption|subtitle|hearing|deaf|字幕|听力|dyslex|阅读|large|big|font|print|字|眼睛|视力|screen|读屏|盲|contrast|对比|keyboard|键盘|motion|animation|动画",
        "contact.email": "@",
        "contact.channel": "reach|contact|text|sms|mail|inbox|phone|whatsapp|wechat|telegram|signal|line|messenger|imessage|短信|邮|电话|微信|电报",
        "name.preferred": "call|go by",
        "name": "name",
        "age": "i'm|i am|turned|岁|as a|as an|十有",
        "language.spoken": "speak|fluent|native|mother tongue|first language|language|get by|母语|会说|会讲",
        "language": "用|english|chinese|spanish|french|german|japanese",
        "diet.avoid": "eat|不吃|不喝|avoid|stay away|abstain",
        "intolerance": "intoleran|不耐|handle|tolerate|digest|agree",
        "taste.dislike": "disgusting|gross|revolting|nasty|inedible|vile",
        "taste.like": "最爱|最喜欢|into|play|practi|爱好|兴趣|collect|hobb|命|心头好|真爱|yyds|永远的神|绝绝子|天下第一|百吃不厌|吃不腻",
        "allergy": "anaphylax|hives|rash|welts|swell|reaction|itch|break out|epipen|epi-pen|过敏",
        "health.condition": "had|living with|live with|患|有|得了|确诊|血",
        "medication": "take|use|taking|on |吃|服",
        "payment.method": "pay|card|cash|transfer|venmo|zelle|klarna|revolut|union|invoice|debit|credit|付|支付|卡|现金|转账|银联|云闪付|发票|花呗",
        "payment.avoid": "pay|card|cash|transfer|venmo|zelle|klarna|revolut|union|invoice|debit|credit|付|支付|卡|现金|转账|银联|云闪付|发票|花呗",
        "location.country": "based|liv|located",
        "location.city": "liv|based|located|住|我在|现在|目前",
        "job.employer": "work| at | for | with |我在",
        "job.title": "work as|i'm|i am|我在|by profession|by trade|by training|by occupation",
        "family.children": "kid|child|son|daughter|孩子|小孩|娃|儿子|女儿",
        "pet.species": "have|got|own|养|有|叫",
        "family.daughter": "daughter",
        "family.son": "son",
        "pet.names": "named|called|name|叫",
        "travel.airline.avoid": "book|avoid|fly|坐|订",
        "travel.airline": "air|fly|航",
        "travel.loyalty": "member|miles|honors|bonvoy|skymiles|aadvantage|mileage|avios|club|krisflyer|flying blue|rewards|hyatt|会员|常旅客",
        "hotel.chain": "go-to|stay|prefer|like|love|酒店|住",
        "hotel.room": "room|floor|bed|elevator|lift|smoking|quiet|accessible|房|楼层|床|电梯|无烟|安静",
        "timezone": "time|mind|zone|时间|时区",
        "currency": "price|amount|cost|显示|标价|计价|报价|换算|换成|折算|折合|转换|都按",
        "recommend": "want|interested|recommendation|suggestion|兴趣|不感冒",
    }.items()
}

#: Hint words of the round-3 rows, merged into :data:`_HINTS`.
_HINTS_3: Mapping[str, str] = {
    "contact.call": "calls|打",
    "contact.call.emergency": "unless|emergenc|urgent|急",
    "diet": "meat|fish|纯素|全素|严格素食|蛋奶|plant|veg|paleo|pesc",
    "relationship.status": "married|single|wife|husband|spouse|单身",
    "seat": "sit|exit|过道|走廊|出口",
    "response.length": "briefly|concisely|succinctly|brief|succinct|keep|make|essay|novel|wall|rambl|just the|tldr|啰嗦|废话|重点|短|控制|超过|太长|give me|i like|i prefer|i want|详细|长",
    "response.format": "code|表格|table|bullet|列表|列出|分条|summar|总结|要点",
    "response.tone": "专业|encourag|supportive|positive|formal|tone|style|voice|register|less formal|less casual|more formal|talk|robot|chill|relax|官方|正式|客气|说人话",
    "response.style": "简单|like i'm|eli5|jargon|plain|dumb|大白话|术语",
    "units.system": "kg|km|cm|kilo|meter|metre|公斤|千米|公里|磅|英里|英尺|英寸|盎司|加仑",
    "accessibility": "eyesight|vision|放大|blind|impaired|屏幕",
    "contact.channel": "me|发|用|联系|联络",
    "name": "it's|its|this is|叫",
    "name.preferred": "call me|叫我",
    "age": "im|years|y/o|了|yrs|yo ",
    "language.spoken": "也|说得|讲得|水平|还会|还能|学|还可以|还行|不错|很好|挺好|流利|凑合|没问题|一般|马马虎虎|听得懂",
    "language": "switch",
    "diet.avoid": "for me|drink|touch|consume|不吃|不喝|不碰|戒",
    "taste.like": "obsessed|addicted|crazy|mad about|hooked|passionate|sucker|what i|favo|fave|fav|weakness|guilty|fan of|无辣|控|喜欢|爱|迷|业余|空闲|闲暇|平时|平常|周末|有空|偶尔|有时|经常|常常|没事|闲了|发烧友|hobb|超|最|特别",
    "taste.dislike": "fan of|taste|what i|makes me|make me|受不了|讨厌|不喜欢|接受不了|吃不了|吃不惯|不爱吃",
    "allergy": "react|make|dangerous|deadly|threatening|allerg|疹|呼吸困难|休克|痒|不良反应|副作用|风团|红点|肿",
    "health.condition": "living with|lived with|struggling|dealing|diagnos|患者|病人|查出|检查出|诊断",
    "medication": "meds|medication|medicine|pills|prescription",
    "payment.method": "works|best|easiest|please|pls|for me|刷",
    "location.city": "home|坐标|i'm|i am|based|搬|moved|relocated",
    "location.city.previous": "moved",
    "job.title": "teach|在| at |@| here|by trade|我是|是个|是一|当个|当一|是一|当|做|干",
    "job.employer": "@|在",
    "family.partner.name": "engaged to|married to|老婆|老公|妻子|丈夫|媳妇|爱人|太太|先生|对象",
    "family.children": "married with|mom of|mum of|dad of|mother of|father of|parent of|有",
    "family.child.names": "女儿|儿子|kids|children|daughters|sons|boys|girls|twins",
    "pet.species": "my |at home|named|called|家|养",
    "pet.names": "my ",
    "travel.airline.avoid": "never|再也不|不坐|hard no|firm no|off the table|no-go|off-limits| out|not an option",
    "travel.airline": "airline|carrier|首选",
    "hotel.chain": "hotel|酒店",
    "travel.loyalty": "frequent flyer|我是|我有|我办",
    "hotel.room": "电梯|beds|floor|双床|高层|高楼层",
    "timezone": "/|东八区|tz",
    "intolerance": "messes|screws|bloated|sick|gassy|crampy|sit well|agree|get along|不能|没法|不可以|upset|mess|wreck|kill|hurt|gives me|give me",
    "recommend": "want|interested|stop|quit|兴趣|不感冒|推|介绍",
}
#: Hint words of the round-4 (EN) rows, merged into :data:`_HINTS`.
_HINTS_4: Mapping[str, str] = {
    "interest.learning": "learning|taking up|getting into|teaching myself",
    "pronouns": "they|refer|address|describe|talk about|speak of|use he|use she|a he|a she|go by|he and him|she and her",
    "diet.avoid": "don't do|dont do|do not do|never do|avoiding|off |not eating|not drinking|laying off|done with|teetotal|tee-total|drink|sober|alcohol|gave up|given up|cut out|quit|stopped|swore|sworn|steer clear|keep away| out|hard no|firm no|no-go|no go|not an option|off-limits|skip|pass on|swerve|forgo|no ",
    "job.status": "while i|hunting|laid off|lost my job|redundant|out of work|between jobs|retire|freelanc|for myself|own boss|my own|master|phd|ph.d|degree|bachelor|undergrad|mba|dissertation|thesis|college|uni|school|year|postgrad|fresher|freshman|sophomore|doctorate",
    "relationship.status": "seeing|relationship|taken|dating|someone|engaged|fianc|married|husband|wife|hubby|spouse|widow|lost my|late|partner|boyfriend|girlfriend|other half",
    "travel.class": "coach|premium|business|economy|first",
    "response.length": "medium|not too|moderate|middling|reasonable|somewhere|version|in between|an essay|sentence|paragraph|lines",
    "response.format": "tldr|start|top|up front|form|format|paragraph|prose|sentences|no bullet|bullets|lists|table",
    "response.style": "give me|show me|visual|simpl|plain|layman|technical|techy|tech|computers|dumb|water|example",
    "units.time_format": "twenty|military|am/pm|am /",
    "accessibility": "sighted|eyesight|vision|poor|low|weak|reduce|motion|animation|parallax|moving",
    "name.preferred": "for short",
    "language.spoken": "learning|studying|taking|native|grew up",
    "intolerance": "stomach|tummy|bloating|cramps|gas|runs|diarrh|indigestion|heartburn|reflux|sensitive",
    "taste.dislike": "person|drinker|eater|worst|awful|horrible|terrible|foul|rank|stand|bear|hate|dislike|loathe|despise|detest|big on|keen on|fond of|crazy about|fan of",
    "taste.like": "garden|knit|crochet|sew|surf|climb|hike|ski|sail|kayak|boulder|drinker|person|eater|can't get enough|learning|taking up|getting into|teaching myself|love|adore|like|enjoy|favourite|favorite|fave|fav|go-to|my life|my passion|my thing|my jam|obsess|religion|happy place|personality|my world|nerd|geek|buff|fanatic|junkie|addict|enthusiast|freak|lover|head|aficionado|fiend|snob|been|become|spare|free time|down time|downtime|weekend|for fun|hobby|outside|not working|play|practi|could|i do |go to|i go |keen|avid|passionate|enthusiastic|big|huge|serious|amateur|casual|lifelong|obsessive|dedicated|life|into|here|fan|supporter|evenings|days off|sundays|saturdays",
    "allergy": "agree|allerg|set off|sets off|trigger|flare|can't|cannot|can not|mustn't|shouldn't|hay",
    "medication": "been on|been taking",
    "payment.method": "pay|send money|split",
    "payment.avoid": "credit|debit",
    "currency": "dollar|euro|pound|sterling|franc|yen|yuan|rmb|rupee|peso|won|krona|kronor|zloty|usd|eur|gbp|cad|aud|nzd|chf|jpy|inr|cny|php|mxn|ngn|naira|zar|rand|kes|shilling|aed|dirham|cedi|ghs",
    "location.city": "flat|apartment|house|place|home|condo|studio|specifically|exact|exactly|where i|outside|near|close to|outskirts|"
    + "|".join(DEMONYMS),
    "job.title": "nights|days|weekends|part-time|part time|full-time|full time|shifts|remotely|freelance|teaching|freelanc|working as|worked as|work as|as a|as an|been a|been an",
    "family.child.names": "youngest|eldest|oldest|middle|little one|firstborn",
    "pet.species": "keep|own|raise|breed|look after|our |"
    + "|".join(k for k in PETS if k.isascii()),
    "travel.airline": "prefer|like|love|rate|trust|stick with|go with|or nothing|or bust|or nobody|or no one|always|only|usually",
    "travel.loyalty": "gold|silver|platinum|diamond|elite|titanium|ambassador|globalist|explorist|club|rewards|miles|honors|honours|plus|programme|program|frequent flyer|status",
    "timezone": "gmt|utc|jst|cet|est|edt|pst|pdt|gmt|bst|aest|aedt|sgt|hkt|cst|cdt|mst|mdt|utc|ist|zone",
    "recommend": "interest|care less|stuff|content|ads|offers|spam|promo|deals",
    "industry": "my job|my work|my career|my background",
    "name": "here",
    "hotel.chain": "always|only|usually",
    "contact.call": "call|ring|phon",
    "travel.airline.avoid": "hate|can't stand|despise|loathe|refuse",
    "units.system": "prefer",
    "seat": "give me the|get me the|book me the|exit|aisle|window",
    "language": "answer|reply|respond|write|talk",
    "age": "now",
    "location.moving_to": "moving|relocating",
    "family.daughter": "daughter",
    "family.son": "son",
    "pet.names": "our ",
}
#: Hint words of the round-4 (zh) rows, merged into :data:`_HINTS`.
_HINTS_4ZH: Mapping[str, str] = {
    "response.length": "适中|不长不短|中等|太长|太短|多详细|看长|长一|长点|详细|这么长|那么长|又长|看不完|看不下去|结论|简明|言简|简洁|精简",
    "response.format": "段落|成段|整段|连贯|分点|列点|列表|分条|要点|逐条|一步步|分步|步骤",
    "response.tone": "正式|直接|直说|客套|拐弯|绕弯|鼓励|正能量",
    "response.style": "简单|通俗|浅显|易懂|小白|新手|外行|门外汉|例子",
    "units.system": "千克|厘米|米",
    "taste.like": "一般|通常|经常|常常|基本|总|了|爱好|兴趣|乐趣|学",
    "interest.learning": "学",
    "travel.airline.avoid": "再也|不会再|绝不|坚决不|拒绝",
    "travel.airline": "首选|最爱|常坐|最喜欢|喜欢坐|喜欢搭|喜欢乘坐|搭|优先",
    "medication": "吃|服|打|注射",
    "family.child.names": "叫",
    "contact.channel": "联系|沟通|联络|聊",
    "pet.names": "一只|一条",
    "recommend": "推荐",
    "age": "满|今年",
    "relationship.status": "结婚|对象|朋友|未婚|伴侣",
    "family.children": "双胞胎|龙凤胎",
    "job.status": "待业|失业",
    "response.emoji": "表情|emoji",
    "accessibility": "看不清|字",
    "currency": "金额|价格|价钱|费用|钱",
    "pet.species": "养",
    "health.condition": "抑郁|焦虑|贫血|失眠|甲亢|甲减|痛风|偏头痛|鼻炎|腰间盘",
    "intolerance": "拉肚子|腹泻|胀气|肚子|胃|消化",
    "name.preferred": "网名|昵称|外号|小名|绰号",
    "travel.loyalty": "金卡|银卡|白金卡|钻石卡|普卡",
    "seat": "靠",
}
#: Hint words for the round-10 Chinese rows (dev21zh): languages fronted before 都会 /
#: 就会 / 是母语 / 在学.
_HINTS_21ZH: Mapping[str, str] = {
    "language.spoken": "都会|就会|母语|在学",
    "allergy": "都",
    "taste.dislike": "都",
    "travel.airline": "喜欢|偏爱|爱坐",
    "interest": "都",
    "pet.species": "都",
    "contact.channel": "上说|上聊|给我|留言",
    "recommend": "兴趣|少给我推|少推",
    "payment.method": "都行|都可以",
    "family.child.names": "（|(",
    "medication": "吃了|" + _DRUGS_ZH,
    "industry": "行业的|圈的|领域的|这行的",
    "taste.like": "都|离不开|戒不掉|业余|空闲|闲暇|有空|周末|平时|下班",
}
_HINTS = {
    # a key missing from one table gets no empty hint word (it would match any text)
    key: tuple(
        w
        for w in dict.fromkeys(
            (
                *_HINTS.get(key, ()),
                *_HINTS_3.get(key, "").split("|"),
                *_HINTS_4.get(key, "").split("|"),
                *_HINTS_4ZH.get(key, "").split("|"),
                *_HINTS_8.get(key, "").split("|"),
                *_HINTS_5ZH.get(key, "").split("|"),
                *_HINTS_10.get(key, "").split("|"),
                *_HINTS_EN12.get(key, "").split("|"),
                *_HINTS_16ZH.get(key, "").split("|"),
                *_HINTS_EN17.get(key, "").split("|"),
                *_HINTS_18ZH.get(key, "").split("|"),
                *_HINTS_21ZH.get(key, "").split("|"),
                *_HINTS_EN24.get(key, "").split("|"),
            )
        )
        if w
    )
    for key in {
        *_HINTS,
        *_HINTS_3,
        *_HINTS_4,
        *_HINTS_4ZH,
        *_HINTS_8,
        *_HINTS_5ZH,
        *_HINTS_10,
        *_HINTS_EN12,
        *_HINTS_16ZH,
        *_HINTS_EN17,
        *_HINTS_18ZH,
        *_HINTS_21ZH,
        *_HINTS_EN24,
    }
}


#: Every hint word, found in one pass ("(?=(...))" matches at every position); a word
#: stands for the keys of every hint word it starts with ("living" -> "liv" as well).
_HINT_WORDS = sorted({w for words in _HINTS.values() for w in words}, key=len, reverse=True)
_HINT_RX = re.compile("(?=(" + "|".join(re.escape(w) for w in _HINT_WORDS) + "))")
_WORD_KEYS: Mapping[str, frozenset[str]] = {
    w: frozenset(k for k, words in _HINTS.items() for h in words if w.startswith(h))
    for w in _HINT_WORDS
}


def _active_keys(low: str) -> set[str]:
    """The keys whose hints occur in a lowercased clause."""
    out: set[str] = set()
    for m in _HINT_RX.finditer(low):
        out |= _WORD_KEYS[m.group(1)]
    return out


_VALUE_RX = tuple(
    (key, value, re.compile(rx, _I), _HINTS.get(key)) for key, value, rx in VALUE_ROWS
)
_ITEM_RX = tuple((key, codes, re.compile(rx, _I), _HINTS.get(key)) for key, codes, rx in ITEM_ROWS)
_TRIM_ZH = re.compile(
    r"^" + _REDUP_VERB + r"(?=[\u4e00-\u9fff]{2})"
    r"|^(?:去|玩|做|的|吃|喝)(?=[\u4e00-\u9fff]{2})|^看(?=[\u4e00-\u9fff]{2})|(?:的)$"
)
#: Qualifiers around a list item: "a bit of Italian", "头孢类的药", "some Spanish".
_ITEM_QUALIFIER = re.compile(
    r"^(?:(?:a\s+)?(?:bit|little)\s+(?:of\s+)?|some\s+|basic\s+|fluent\s+|conversational\s+)"
    r"|^(?:一点点|一点|一些|点)儿?(?=[\u4e00-\u9fff]{2})|(?<=[\u4e00-\u9fff])(?:类的|的|类)(?:药物?|药品)$",
    _I,
)


def _kind(key: str) -> Kind:
    return taxonomy.kind_of(key, Kind.PREFERENCE)


def _is_list(key: str) -> bool:
    row = taxonomy.spec(key)
    return row is not None and row.value_type == "list"


def _hard(key: str) -> bool:
    row = taxonomy.spec(key)
    return row is not None and row.hard


def allergy_key(item: str) -> str:
    """The allergy key an allergen's words call for (``allergy`` when unknown)."""
    low = " ".join(item.lower().split())
    # the item as said, then its head noun ("birch pollen" -> pollen, "tree nut" -> nuts)
    head = low.rsplit(" ", 1)[-1]
    for word in dict.fromkeys((low, low + "s", head, head + "s", head.removesuffix("s"))):
        if word in L.MEDICATIONS:
            return "allergy.medication"
        if word in L.FOODS:
            return "allergy.food"
        if word in L.OTHER_ALLERGENS:
            return "allergy.other"
        if PETS.get(word) or PETS.get(word.removesuffix("s")) or PETS.get(word.removesuffix("es")):
            return "allergy.other"  # an animal ("horses", "rabbits") is an other allergen
    return "allergy"


#: Keys whose matched words are a list to split ("chess and go", "钓鱼和下围棋"); names
#: ("Miles & More", "Procter & Gamble") are kept whole.
_SPLIT = frozenset(
    [
        "taste.like",
        "taste.dislike",
        "diet.avoid",
        "medication",
        "recommend",
        "intolerance",
        "allergy",
        "health.condition",
        "language.spoken",
        "payment.method",
        "payment.avoid",
        "hotel.room",
        "pet.names",
        "travel.airline.avoid",
    ]
)
#: List keys whose first item takes the bare key (the established allergy convention);
#: every other list key stores each item as ``<key>.<slug>``, so items said in separate
#: clauses or turns add up instead of replacing each other.
_PLAIN_FIRST = frozenset(
    [
        "intolerance",
        "pet.species",
        "allergy",
        "allergy.food",
        "allergy.medication",
        "allergy.other",
        "health.condition",
    ]
)


def _slot(key: str, norm: str, n: int) -> str:
    if not _is_list(key) or (key in _PLAIN_FIRST and n == 0):
        return key
    return f"{key}.{slugify(norm)}"


#: Known Chinese city names, longest first.
_CITY_ZH_RX = re.compile(
    "|".join(sorted((k for k in L.CITIES if not k.isascii()), key=len, reverse=True))
)


def _district_after_city(sentence: str, said: str) -> bool:
    """A place after 坐标 that is no known city, with a known city named before it."""
    at = sentence.find("坐标" + said)
    if at < 0 or said in L.CITIES:
        return False
    return _CITY_ZH_RX.search(sentence, 0, at) is not None


#: A reading said to be high names its condition: 血压高 is 高血压 ("我血压一直偏高").
_HIGH_READING_ZH: Mapping[str, str] = {
    "血压": "高血压",
    "血压高": "高血压",
    "血糖": "高血糖",
    "血糖高": "高血糖",
    "血脂": "高血脂",
    "血脂高": "高血脂",
    "尿酸": "高尿酸",
    "尿酸高": "高尿酸",
    "胆固醇": "高胆固醇",
}
_CONDITION_AROUND_ZH = re.compile(
    r"^(?:确诊|查出|患有|得了)(?=[\u4e00-\u9fff]{2})"
    r"|(?<=[\u4e00-\u9fff]{2})(?:好|很)?(?:[一二两三四五六七八九十几\d]+|多|几)(?:多)?(?:个)?(?:年|月)(?:了)?$"
)
_WHERE_FELT = re.compile(r"\s+in\s+(?:my|both|one\s+of\s+my)\b.*$", _I)


#: The verb before a pastime in a list ("... and play chess", "... and do crosswords").
_PASTIME_VERB = re.compile(r"^(?:play|do|go|practi[cs]e)\s+(?=[a-z])", _I)


def _items(key: str, codes: Mapping[str, str] | None, raw: str) -> list[tuple[str, str]]:
    """(as said, normalized) items of one match."""
    raw = raw.strip()
    parts = split_items(raw) if key in _SPLIT or codes is not None else [phrase(raw, 5)]
    out: list[tuple[str, str]] = []
    for part in parts:
        part = part.strip().rstrip(".,;:!?。，；！？")
        if not part.isascii() and key != "interest.learning":
            part = _TRIM_ZH.sub("", part)  # "学做蛋糕" keeps its verb: the skill, not the food
        part = _ITEM_QUALIFIER.sub("", part).strip()
        part = re.sub(
            r"(?:\s+(?:online|on\s+weekends|at\s+weekends|every\s+\w+|most\s+(?:evenings|nights|days|weekends|mornings)"
            r"|sometimes|regularly|(?:on|to|at)\s+me))+$",
            "",
            part,
            flags=_I,
        )
        if key == "diet.avoid":
            part = re.sub(r"^no\s+", "", part, flags=_I)  # "no pork and no alcohol"
        if key.startswith("health.condition"):
            # "arthritis in my hands": the condition, not where it is felt
            part = _WHERE_FELT.sub("", part)
            # "确诊糖尿病三年": the condition, not the word of its finding nor how long ago
            part = _CONDITION_AROUND_ZH.sub("", part) or part
            part = _HIGH_READING_ZH.get(part, part)
        if key.startswith("medication"):
            part = re.sub(r"^是(?=[\u4e00-\u9fff]{2})", "", part)  # "(吃的)是厄贝沙坦"
        if key.startswith("medication") and " " in part:
            # "a salbutamol inhaler", "metformin tablets": the drug, not its form
            part = _DRUG_FORM.sub("", part)
        if key.startswith("taste") and " " in part:
            # "love a good jollof rice": the praise is no part of the dish
            part = re.sub(r"^(?:an?\s+)?(?:good|nice|proper|decent)\s+", "", part, flags=_I)
            # "I do bouldering and play chess": the verb of a later pastime is no part of it
            part = _PASTIME_VERB.sub("", part) if out else part
        if not part:
            continue
        if codes is not None:
            code = codes.get(part.lower()) or codes.get(re.sub(r"[\s-]+", " ", part.lower()))
            if code is None:
                continue
            out.append((part, code))
        else:
            norm = L.canonical_value(key, part) if key.count(".") else part.lower()
            if key == "intolerance":
                norm = _SAME_INTOLERANCE.get(norm, norm)  # "dairy doesn't agree with me"
            out.append((part, norm))
    return out


#: The form a drug comes in, after its name ("salbutamol inhaler", "insulin pens").
_DRUG_FORM = re.compile(
    r"(?<=\w)\s+(?:inhalers?|tablets?|pills?|capsules?|injections?|jabs?|pens?|sprays?|patch(?:es)?"
    r"|creams?|drops|gel|shots?|tabs)$",
    _I,
)
#: Intolerances said by the food that carries the substance.
_SAME_INTOLERANCE = {"dairy": "lactose", "dairy products": "lactose"}


#: A possibility or a plan, not a fact: "I might try keto", "maybe I'll get a dog", "可能明年".
MAYBE = re.compile(
    r"\b(?:might|maybe|perhaps|someday|some\s+day|one\s+day)\b(?:\s+\S+){0,3}?\s+(?:try|get|move"
    r"|go|start|switch|become|buy|adopt|take\s+up|learn|do)\b|\bthinking\s+(?:about|of)\s+(?:maybe\s+)?"
    r"\w+ing\b|\bconsidering\s+\w+ing\b|\bnot\s+sure\s+yet\b"
    r"|也许|说不定|可能(?:会|要)?(?:明年|以后|将来)?(?:考虑|试试|开始|养|搬)|考虑(?:一下)?(?:要)?(?:搬|养|买|开始)|还没定",
    _I,
)
#: One booking, not a standing preference: "a window seat on the 9am flight", "这趟".
ONE_TRIP = re.compile(
    r"\b(?:the|this|my|tomorrow's|tonight's|next|that|\w+'s)\s+(?:\d{1,2}(?::\d\d)?\s*(?:am|pm)\s+|\w+\s+)?(?:flight|train)\b(?!s)"
    r"|这趟|这次|明天的|今晚的|(?:明天|今晚|后天|下周|这周|周末).{0,6}订"
    # one ticket for one trip: "帮我订一张去上海的机票，要靠窗的" (not "订票时都选靠窗")
    r"|(?:订|买|抢)(?:一|两|\d)张(?![^。]*(?:都|每次|总是|一律|以后))|去[\u4e00-\u9fff]{2,4}的(?:机票|车票|航班|高铁)",
    _I,
)
_TRIP_KEYS = ("seat", "travel.", "hotel.")
#: A Chinese negative imperative right before a match: "别给我订头等舱" is not a preference for it.
_ZH_DONT = re.compile(r"(?:别|不要|不用|勿)(?:再)?(?:给我)?(?:订|选|用|坐|要|安排)?$")
#: Keys whose rows already say "no": their Chinese "不…了" is the statement, not a retraction.
_NEGATIVE_KEYS = frozenset(
    [
        "contact.call",
        "recommend",
        "travel.airline.avoid",
        "payment.avoid",
        "diet.avoid",
        "taste.dislike",
        "response.emoji",
    ]
)


def _skip(key: str, text: str, start: int) -> bool:
    """Whether a row's match is a possibility, a one-off booking or a negative imperative."""
    if MAYBE.search(text):
        return True
    if key.startswith("response.") and _ZH_DONT.search(text[max(0, start - 8) : start]):
        return True  # "不要列点", "别用表格": not a preference for it
    return key.startswith(_TRIP_KEYS) and bool(
        ONE_TRIP.search(text) or _ZH_DONT.search(text[max(0, start - 8) : start])
    )


#: A language the user writes in, said as a concession: not the language wanted back.
_CONCESSIVE_LANG = re.compile(
    r"\b(?:even\s+(?:if|when|though)|although|though|when|if|whenever)\s+i\s+(?:write|type|message"
    r"|text|ask|speak|reply)\s+(?:to\s+you\s+)?(?:in\s+)?$",
    _I,
)


#: A format named and then found hard: "the 24 hour clock confuses me", "metric is confusing",
#: "am and pm confuse me", "Celsius numbers just don't register", "feet mean nothing to me".
CONFUSES = re.compile(
    r"(?:\s+(?:clock|time|format|system|thing|stuff|numbers?|units?))?\s+(?:(?:just\s+|really\s+"
    r"|always\s+|totally\s+|honestly\s+)?(?:(?:confuses?|baffles?|loses?|annoys?)\s+me"
    r"|drives?\s+me\s+(?:nuts|crazy|mad|bananas|up\s+the\s+wall)|means?\s+nothing\s+to\s+me"
    r"|(?:don't|doesn't|do\s+not|does\s+not)\s+(?:register|mean\s+anything))"
    r"|(?:is|are)\s+(?:so\s+|too\s+|really\s+)?(?:confusing|hard\s+to\s+(?:read|follow)|annoying))\b",
    _I,
)


#: Scales that come in twos: turning one down asks for the other.
_OTHER_UNIT: Mapping[str, str] = {
    "12h": "24h",
    "24h": "12h",
    "celsius": "fahrenheit",
    "fahrenheit": "celsius",
    "metric": "imperial",
    "imperial": "metric",
}
#: A Chinese scale turned down before it is named: "别用24小时制", "不要给我用华氏度".
_UNIT_REFUSED_BEFORE_ZH = re.compile(
    r"(?:别|不要|不用|不想|千万别|请勿|勿)(?:再)?(?:给我)?(?:用|显示|换算成|写成?|按)?(?:那种)?$"
)
#: ... or after it: "华氏度我看不懂", "英制的我看着别扭".
_UNIT_REFUSED_AFTER_ZH = re.compile(
    r"(?:度|制|单位|的|那种|那套)*(?:我)?(?:真的?|实在|完全|根本)?(?:看不懂|搞不懂|看不惯|用不惯|看着别扭|别扭"
    r"|不习惯|没概念|换算不过来|不要|不用|就算了|免了)"
)


def _unit_refused(text: str, m: re.Match[str]) -> bool:
    before = text[max(0, m.start() - 12) : m.start()]
    return (
        _UNIT_REFUSED_BEFORE_ZH.search(before) is not None
        or _UNIT_REFUSED_AFTER_ZH.match(text, m.end()) is not None
    )


def h_rows(cl: Clause) -> Iterator[Hit]:
    """The rows of :data:`VALUE_ROWS` and :data:`ITEM_ROWS` on one clause."""
    text = cl.text
    active = _active_keys(text.lower())
    complaint = complains(cl.sentence.text)
    for key, value, rx, hint in _VALUE_RX:
        if hint is not None and key not in active:
            continue
        if complaint and key.startswith("response."):
            continue  # "I hate when you give me long answers" asks for no long answers
        m = rx.search(text)
        if m is None or _skip(key, cl.sentence.text, m.start()) or _skip(key, text, m.start()):
            continue
        if key.startswith("units.") and value in _OTHER_UNIT and _unit_refused(text, m):
            # "华氏度我看不懂", "时间别用24小时制": of two scales, the other one is wanted
            other = _OTHER_UNIT[value]
            yield (
                m.start(),
                m.end(),
                cand(_kind(key), key, other, normalized=other, hard=_hard(key)),
            )
            continue
        if _refused_after(text, m.end(), key):
            continue  # "大床房，双床不要": the value named is the one turned down
        if key.startswith(("units.", "response.")) and CONFUSES.match(text, m.end()):
            continue  # "12 hour time please, 24 hour confuses me": the one turned down
        exp = not (cl.sentence.implicit_cue and _kind(key) not in _FACT_KINDS) and not (
            key.startswith("response.")
            and not _STANDING.search(cl.sentence.text)
            and (_BEHAVIOUR.search(m.group(0)) or _BEHAVIOUR_ZH.search(cl.sentence.text))
        )
        slot = _slot(key, value, 0)
        # the value is the code ("halal", not "eat halal"); the words stay in the span
        c = cand(_kind(key), slot, value, normalized=value, explicit=exp, hard=_hard(key))
        yield m.start(), m.end(), _negate(c) if _negated(text, m.start(), key) else c
    # a list key counts its items across rows ("a golden retriever named Max and two cats":
    # the second row's first item is a sibling, not a replacement of the first row's)
    listed: dict[str, int] = {}
    seen: set[tuple[str, str]] = set()
    for key, codes, rx, hint in _ITEM_RX:
        if hint is not None and key not in active:
            continue
        n_found = listed.get(key, 0) if _is_list(key) else 0
        for m in rx.finditer(text):
            group = next((g for g, v in m.groupdict().items() if v), None)
            if group is None:
                continue
            start, end = m.span(group)
            if key == "payment.method" and (neg_before(text, m.start()) or neg_before(text, start)):
                continue  # "我不用信用卡": the method refused is no method used
            if key == "intolerance" and "不耐" in cl.sentence.text and "不耐" not in text:
                continue  # "我乳糖不耐，喝牛奶会拉肚子": the symptom clause names no new item
            if _skip(key, cl.sentence.text, m.start()) or _skip(key, text, m.start()):
                continue
            if key == "language" and _CONCESSIVE_LANG.search(text[:start]):
                continue  # "reply in French, even if I write in English"
            negated = _negated(text, m.start(), key)
            if key.startswith("taste.") and _DEICTIC.match(m.group(group)):
                continue
            if _refused_after(text, end, key):
                continue
            raw = m.group(group)
            if key.startswith("taste.") and STUFF_RE.match(raw.strip()):
                # "coriander ruins any dish, can't stand the stuff": the food named before
                raw = food_before(cl.sentence.text[: cl.start])
                if not raw:
                    continue
            if key == "location.city" and _district_after_city(cl.sentence.text, raw):
                continue  # "人在南京，坐标江宁": the city named first wins over its district
            more = more_items(text, end) if key in _SPLIT or _is_list(key) else ""
            if more and key.isascii():
                raw, end = f"{raw} and {more}", end + text[end:].find(more) + len(more)
            if codes is not None and _is_list(key) and not raw.isascii():
                tail = _more_codes_zh(text, end, codes)  # "现金和银联", "无烟、高楼层"
                raw, end = text[start:tail], tail
            for said, norm in _items(key, codes, raw):
                if codes is not None and key.startswith(("taste.", "interest.")):
                    said = norm  # "an avid reader" likes reading, "learning to draw": drawing
                if _is_list(key) and (key, norm) in seen:
                    continue  # the same item read by two rows
                seen.add((key, norm))
                for s_, e_, c in _row_hits(key, said, norm, start, end, n_found):
                    if cl.sentence.implicit_cue and c.kind not in _FACT_KINDS:
                        c = dataclasses.replace(c, explicit=False)
                    yield s_, e_, _negate(c) if negated else c
                n_found += 1
        if _is_list(key):
            listed[key] = n_found


#: A list said in one breath goes on past the word a row stops at: "thai food and ramen",
#: "lisinopril and atorvastatin", "revolut or google pay". The next item is short, ends
#: the clause (or another "and"), and is no new clause ("and I live in Leeds", "and need an
#: epipen", "and that's it").
#: Words that start a new clause, not a list item ("and I live in Leeds", "and carry an
#: epipen", "and that's it").
NOT_ITEM_START = (
    r"(?:i|i'm|im|i've|i'd|my|me|also|then|so|we|it|it's|that|that's"
    r"|this|they|he|she|you|please|pls|plz|thanks|not|no|never|don't|dont|can't|cant|need|have|has|got"
    r"|get|am|is|are|was|were|will|would|should|must|do|does|did|carry|carries|take|use|live|work|want"
    r"|love|like|hate|keep|make|go|stuff|things?|everything|anything|more|other|others|such|etc)\b"
)
_MORE_ITEMS = re.compile(
    r"\s*,?\s*(?:and|or|&|\+|plus)\s+(?!" + NOT_ITEM_START + r")"
    r"(?:(?:learning|studying)\s+)?(?P<v>[a-z][a-z'&-]*(?:\s+[a-z][a-z'&-]*){0,2}?)"
    r"(?=\s*(?:[,.;!?)]|$|\b(?:and|or)\b|\s(?:lol|btw|tbh|pls|please|too|as\s+well|both)\b))",
    _I,
)


def more_items(text: str, end: int) -> str:
    """The items that continue a matched list after ``end`` ("" when none)."""
    found: list[str] = []
    pos = end
    while len(found) < 4 and (m := _MORE_ITEMS.match(text, pos)):
        found.append(m.group("v"))
        pos = m.end()
    return " and ".join(found)


#: A Chinese list of known values goes on past the word a row stops at: "现金和银联",
#: "无烟、高楼层"; only words of the row's own vocabulary join it (a comma starts a clause).
_ZH_AND = r"(?:和|、|跟|以及|及|或者?|还有)"


#: The compiled tail per vocabulary (the row vocabularies are module constants).
_TAILS_ZH: dict[int, re.Pattern[str]] = {}


def _more_codes_zh(text: str, end: int, codes: Mapping[str, str]) -> int:
    """Where a Chinese list of ``codes`` words that continues at ``end`` stops."""
    rx = _TAILS_ZH.get(id(codes))
    if rx is None:
        words = _alt(codes, ascii_only=False)
        rx = re.compile(r"(?:" + _ZH_AND + r"(?:" + words + r"))*" if words else r"(?!)")
        _TAILS_ZH[id(codes)] = rx
    m = rx.match(text, end)
    return m.end() if m else end


#: "again" / "this time" make a request one behavioural signal; a fact stays a fact ("my
#: rabbit Clover chewed through my charger again").
_FACT_KINDS = frozenset([Kind.FACT, Kind.RELATIONSHIP])


#: A complaint about the assistant's answers names what the user does not want.
_COMPLAINT = re.compile(
    r"\b(?:hate|can't\s+stand|don't\s+like|dislike|tired\s+of|sick\s+of)\s+(?:it\s+)?(?:when|how)\s+you\b",
    _I,
)


@functools.lru_cache(maxsize=64)
def complains(sentence: str) -> bool:
    """Once per sentence, not once per clause (a sentence may have hundreds)."""
    return _COMPLAINT.search(sentence) is not None


_STANDING = re.compile(
    r"\b(?:always|never|from\s+now\s+on|in\s+general|prefer)\b|以后|总是|一直"
    r"|(?:回复|回答|回)(?:我)?(?:的时候|时)",  # "回答的时候别写太长": whenever answering
    _I,
)
_NOT_BEFORE = re.compile(
    r"\b(?:not|never|no\s+longer|don't|dont|do\s+not)\s+(?:\w+\s+)?$|(?:不再|已经不|并不|没有)$", _I
)


_ANYMORE_EN = re.compile(r"\b(?:anymore|no\s+longer)\b", _I)
#: A unit the user cannot work with is not the one wanted: "I can't think in Celsius".
_CANT_USE = re.compile(
    r"\b(?:can't|cant|cannot|can\s+not|couldn't)\s+(?:think|read|work|deal|cope)\s+(?:(?:in|with)\s+)?$",
    _I,
)
_SAYS_NO = re.compile(r"\b(?:don't|do\s+not|dont|never|stop|quit)\b", _I)


#: A Chinese value turned down after it is named: "双床不要", "现金就不用了", "靠窗不考虑",
#: or found hard to live with: "双床睡不惯", "华氏的我没概念" (as English "... confuses me").
_REFUSED_AFTER_ZH = re.compile(
    r"(?:房|的|位|座)?(?:就|也|都|我)?(?:不要|不用|不需要|不考虑|免了|别"
    r"|(?:真|实在|完全|根本)?(?:睡不惯|住不惯|用不惯|看不惯|不习惯|没概念|看不懂|搞不懂|换算不过来))"
    # a seat or class the body cannot take: "经济舱腰受不了", "经济舱我坐不惯", "红眼航班吃不消"
    r"|(?:我的?)?(?:腰|腿|脖子|颈椎|身体|老腰)?(?:真|实在|完全|根本|可)?(?:坐不惯|受不了|吃不消|伤不起|扛不住|坐不下)"
)


def _refused_after(text: str, end: int, key: str) -> bool:
    """Whether the value ending at ``end`` is turned down right after it ("双床不要"); a key
    whose rows already say no ("信用卡不用" is ``payment.avoid``) is left to its rows."""
    if key.split(".")[0] in _NEGATIVE_KEYS or key in _NEGATIVE_KEYS or key.endswith(".avoid"):
        return False
    return _REFUSED_AFTER_ZH.match(text, end) is not None


def _negated(text: str, start: int, key: str = "") -> bool:
    """ "I'm not lactose intolerant (anymore)", "I don't keep halal anymore": forget.

    A key whose rows already say "no" (``recommend``, ``*.avoid``, ``contact.call`` ...)
    reads a Chinese "不…了" ("再也不坐春秋航空了") as the statement itself."""
    if key.split(".")[0] in _NEGATIVE_KEYS or key in _NEGATIVE_KEYS:
        # "I don't want X suggestions anymore" says no again; "I no longer avoid pork" retracts
        return _ANYMORE_EN.search(text) is not None and not _SAYS_NO.search(text)
    return (
        _ANYMORE.search(text) is not None
        or _NOT_BEFORE.search(text[max(0, start - 24) : start]) is not None
        or (
            key.startswith("units.")
            and _CANT_USE.search(text[max(0, start - 30) : start]) is not None
        )
    )


#: Complaints that are behaviour, not a declaration: three of them make the preference.
_BEHAVIOUR_ZH = re.compile(
    r"(?<!别)(?<!不要)(?<!不用)(?<!不必)太长(?!的|了?(?:的)?我?就?(?:不看|懒得看|不想看|看不下去))|再短|再简|还是太|太啰嗦|这么长|那么长|又长|看不完|看不下去"
)
_BEHAVIOUR = re.compile(
    r"too\s+long|still|shorter|bullet\s+(?:that|it|this|them)|table\s+(?:of|again|would)"
    r"|\b(?:make|put|turn|do|show|give)\b.*\btable\b|\btoo\s+(?:much|wordy|verbose|long)"
    r"|\b(?:trim|cut)\s+(?:it|that|this)|\ba\s+lot\b",
    _I,
)


#: The last word of an English job title ("engineer", "nurse", "consultant").
_JOB_WORD = re.compile(
    r"(?:er|ist|yst|or|ian|ant|ent|eer|nurse|chef|cook|intern|lead|vet|clerk|coach|head)$", _I
)


_NOT_EMPLOYER = frozenset(
    ["家", "家里", "公司", "单位", "这里", "那里", "外面", "网上", "线上", "外地"]
)


#: A liked/disliked "item" that points at something in the conversation ("this weather",
#: "your work", "when you answer fast") is an opinion of the moment, not a taste.
_DEICTIC = re.compile(
    r"^\W*(?:this|that|these|those|your|his|her|their|its|our|when|how|what|whatever|it)\b", _I
)


_SEAT_WORDS = re.compile(r"靠窗|过道|走廊|座位|靠窗位|出口")


def _row_hits(key: str, said: str, norm: str, start: int, end: int, n: int) -> Iterator[Hit]:
    if key == "interest.learning":
        if said and slugify(said) not in L.TOPIC_STOP:
            slot = "interest." + slugify(said)
            yield start, end, cand(Kind.PREFERENCE, slot, said, normalized=said, explicit=True)
        return
    if key in ("taste.like", "taste.dislike"):
        if not said or slugify(said) in L.TOPIC_STOP or L.PERSON_ZH.match(said):
            return
        polarity = key.split(".")[1]
        if polarity == "dislike" and L.PHONE_CALLS_RE.match(said.strip()):
            yield start, end, cand(Kind.CONSTRAINT, "contact.call", "never", hard=True)
            return
        yield (
            start,
            end,
            cand(Kind.PREFERENCE, "taste." + slugify(said), polarity, normalized=polarity),
        )
        return
    if key.startswith("taste.") and _SEAT_WORDS.search(said):
        return  # "我喜欢过道位": a seat, read by the seat rules
    if key == "location.place":
        # a known city or country only: "我在上班" / "我在家这边" name no place; a known city
        # with its district after it is the city ("在上海浦东", "在北京海淀")
        if said.lower() not in L.CITIES and said.lower() not in L.COUNTRIES:
            city = next((said[:n] for n in (3, 2) if said[:n] in L.CITIES), None)
            if city is None or said.isascii() or not _DISTRICT_ZH.fullmatch(said[len(city) :]):
                return  # ("我在上海出差": a trip, no district)
            said = city
            norm = L.canonical_value("location.city", said)
        key = "location.city"
    if key == "recommend":
        if not ok_topic(said):
            return  # "请不要推荐…": the request word fronted is no topic
        c = cand(
            Kind.CONSTRAINT, "recommend." + slugify(said), "never", normalized="never", hard=True
        )
        yield start, end, c
        return
    if (
        key == "job.title"
        and said.isascii()
        and not _JOB_WORD.search(said)
        and said.split()[-1].lower().rstrip("s") not in L.JOB_HEADS
    ):
        return  # "I'm a regular at ..." is no job
    if key in ("name", "name.preferred") and not_a_name(said):
        return  # "this is London, ...", "call me later"
    if key == "job.employer" and re.search(r"(?:行业|领域|圈|业|界)$", said):
        # "我在金融行业工作" names the sector, not an employer
        key = "industry"
        said = re.sub(r"(?:行业|领域|圈|界)$", "", said)
        norm = L.canonical_value(key, said)
    if key == "job.employer" and said in _NOT_EMPLOYER:
        return  # "我在家里上班" names no employer
    if key == "job.employer" and said.lower() in L.CITIES:
        key, norm = "location.city", L.CITIES[said.lower()]  # "我在北京上班": a city, no employer
    if key == "diet.avoid" and not said.isascii() and not taxonomy.is_food(said):
        return  # "今天不吃了", "我戒了烟": no food or drink
    if key == "location.city" and L.NOT_HOME_ZH.search(said):
        return  # "我住在学校宿舍": where one stays, not a city
    if key == "location.city" and not said.isascii():
        # "我住在德国" names a country, "我住在加拿大温哥华" a country and a city
        places = L.place_keys(said)
        for extra_key, extra in places[:-1]:
            yield start, end, cand(_kind(extra_key), extra_key, extra)
        key, said = places[-1]
        norm = L.canonical_value(key, said)
    if key == "allergy":
        key = allergy_key(said)
        norm = L.canonical_value(key, said)
    if key == "medication" and not said.isascii():
        # "降压药氨氯地平": the drug, not its class in front of it
        said = re.sub(
            r"^(?:[一两二三半\d]+[片粒颗支袋])?(?:降压药|降糖药|降脂药|止痛药|抗抑郁药|安眠药|消炎药|胃药|激素)?"
            r"(?=[\u4e00-\u9fff]{2})",
            "",
            said,
        )
        norm = L.canonical_value(key, said)
    if key == "travel.loyalty" and not said.isascii():
        # "国航凤凰知音": normalized is the programme without the airline in front of it
        bare = re.sub(r"^[\u4e00-\u9fff]{1,2}航(?:空)?(?:的)?(?=[\u4e00-\u9fff]{2})", "", said)
        norm = L.canonical_value(key, bare)
    if key == "family.child.names":  # each child its own record
        slot = f"family.child.names.{slugify(said)}"
        yield start, end, cand(_kind(key), slot, said, normalized=said)
        return
    if key in ("age", "family.children"):
        number = parse_number({"俩": "2", "仨": "3"}.get(said, said).removesuffix("个"))
        if number is None or not 0 < number < 130:
            return
        norm = str(number)
    if key == "language.spoken" or (key == "language" and norm):
        norm = taxonomy.language_code(norm) if key == "language.spoken" else _lang_name(said)
    if key == "currency":
        norm = taxonomy.currency_of(said) or {"人民币": "CNY"}.get(said, "")
        if not norm:
            return
    if n > 0 and not _is_list(key):
        return
    slot = _slot(key, norm, n)
    c = cand(_kind(key), slot, said, normalized=norm, hard=_hard(key))
    yield start, end, c


_WEEKDAYS_MONTHS = frozenset(
    (
        *("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"),
        *("january", "february", "march", "april", "may", "june", "july", "august"),
        *("september", "october", "november", "december", "today", "tomorrow", "tonight"),
    )
)


def not_a_name(said: str) -> bool:
    """Whether a captured "name" is a place, a language, a weekday or a common word."""
    low = said.split()[0].lower() if said.split() else ""
    return (
        not low
        or low in L.NAME_STOP
        or low in _WEEKDAYS_MONTHS
        or said.lower() in L.CITIES
        or said.lower() in L.COUNTRIES
        or L.lookup(L.LANGUAGES, said) is not None
        or said[:1] in ("不", "没", "别", "错")  # "我叫不出来他的名字" names no one
    )


def _lang_name(said: str) -> str:
    """The established ``language`` value: the language's English name ("chinese")."""
    code = taxonomy.language_code(said)
    for name, c in taxonomy.LANGUAGE_CODES.items():
        if c == code and name.isascii():
            return name
    return said.lower()


# ---- irregular cases: moves (two cities, one sentence) and birthdays (dates) ------------
_PLACE_EN = r"[A-Z][\w'-]+(?:\s+(?!(?:and|now|in|to|from|next|this|last|with|for|but|so|then|a|an|one|two|three|four|five|six|seven|eight|nine|ten|few|couple|several|years?|months?|weeks?|ago|recently|back|already|earlier|lately|i|i'm|i've|i'd|i'll|we|we're)\b)[A-Z][\w'-]+)?"
_MOVE_EN: tuple[re.Pattern[str], ...] = (
    re.compile(
        r"(?:\b(?:i|we)(?:'ve|\s+have)?\s+|^\W*)(?:just\s+|recently\s+|finally\s+)?(?:moved|relocated)\s+(?:here\s+|back\s+)?(?:down\s+|up\s+|out\s+|across\s+)?to\s+(?P<cur>"
        + _PLACE_EN
        + r")\s+from\s+(?P<prev>"
        + _PLACE_EN
        + r")",
        _I,
    ),
    re.compile(
        r"(?:\b(?:i|we)(?:'ve|\s+have)?\s+|^\W*)(?:just\s+|recently\s+|finally\s+)?(?:moved|relocated)\s+from\s+(?P<prev>"
        + _PLACE_EN
        + r")\s+to\s+(?P<cur>"
        + _PLACE_EN
        + r")",
        _I,
    ),
    re.compile(
        r"(?:\b(?:i|we)\s+|^\W*(?:just\s+)?)left\s+(?P<prev>"
        + _PLACE_EN
        + r")\s+for\s+(?P<cur>"
        + _PLACE_EN
        + r")",
        _I,
    ),
    re.compile(
        r"\b(?:i|we)\s+(?:left|moved\s+away\s+from)\s+(?P<prev>"
        + _PLACE_EN
        + r")\s*,?\s+(?:and\s+)?(?:now\s+)?(?:live|are|am|moved)\s+(?:in|to)\s+(?P<cur>"
        + _PLACE_EN
        + r")",
        _I,
    ),
)
_MOVE_EN = (
    *_MOVE_EN,
    # "I just relocated from Manchester, now in Bristol", "moved from Lyon and now living in Nice"
    re.compile(
        r"(?:\b(?:i|we)(?:'ve|\s+have)?\s+|^\W*)(?:just\s+|recently\s+|finally\s+)?(?:moved|relocated)\s+(?:here\s+|over\s+)?from\s+(?P<prev>"
        + _PLACE_EN
        + r")\s*,?\s+(?:and\s+|so\s+)?(?:(?:i(?:'m|\s+am)|we(?:'re|\s+are))\s+)?now\s+(?:in|based\s+in|living\s+in|live\s+in|settled\s+in)\s+(?P<cur>"
        + _PLACE_EN
        + r")",
        _I,
    ),
    # "I used to live in Boston but now I'm in Chicago"
    re.compile(
        r"(?:\b(?:i|we)\s+|^\W*)used\s+to\s+live\s+in\s+(?P<prev>"
        + _PLACE_EN
        + r")\s*,?\s+(?:but\s+|and\s+)?(?:now\s+)?(?:(?:i(?:'m|\s+am)|we(?:'re|\s+are))\s+(?:now\s+)?(?:in|based\s+in|living\s+in)"
        r"|(?:i|we)\s+(?:now\s+)?live\s+in|(?:now\s+)?(?:live|living)\s+in)\s+(?P<cur>"
        + _PLACE_EN
        + r")",
        _I,
    ),
    # "after ten years in Paris I finally moved back to Lyon"
    re.compile(
        r"\bafter\s+(?:\w+\s+){0,3}?(?:in|living\s+in)\s+(?P<prev>"
        + _PLACE_EN
        + r")\s*,?\s+(?:i|we)\s+(?:finally\s+|just\s+|recently\s+|eventually\s+)?(?:moved|relocated)\s+(?:back\s+|over\s+)?(?:down\s+|up\s+|out\s+|across\s+)?to\s+(?P<cur>"
        + _PLACE_EN
        + r")",
        _I,
    ),
)
_MOVE_ZH = (
    re.compile(
        r"(?:从|由)(?P<prev>"
        + CITY_ZH
        # "从上海搬回老家宁波": back home counts as a move too
        + r")搬(?:家)?(?:到|去|来|回(?:到|了)?)了?(?:老家|家乡)?(?P<cur>"
        + CITY_ZH
        # how long ago may follow the city: "从武汉搬来长沙快两年了"
        + r")(?=了|$|[，,。.！!；;]|(?:快|已经|都|有|差不多)?[一二两三四五六七八九十几半\d]+(?:个)?(?:年|月|多年))"
    ),
    # "在沈阳住了五年，上个月搬到北京": how long the user lived there, then the move
    re.compile(
        r"在(?P<prev>"
        + CITY_ZH
        + r")(?:住|生活|待|呆|工作)了[^，,。]{0,6}\s*[，,]\s*(?:去年|前年|今年|上个月|上周|前几年|后来|最近|刚刚?)?(?:才|就)?"
        r"(?:搬到了?|搬来了?|搬去了?|搬回了?)(?P<cur>" + CITY_ZH + r")(?=$|[，,。.！!；;]|了)"
    ),
    re.compile(
        r"搬(?:家)?(?:到|去)了?(?P<cur>"
        + CITY_ZH
        + r")了?\s*[，,]\s*(?:之前|以前|原来)(?:住|在|住在)(?P<prev>"
        + CITY_ZH
        + r")(?=$|[，,。.！!；;])"
    ),
    # "我之前住在武汉，现在在长沙": where the user lived before, then where now
    re.compile(
        # (a stretch of years before, said with "我" too: "那几年我住在西安，现在改住杭州了")
        r"(?:之前|以前|原来|过去|本来|那几年|那些年|早些年|前些年|早年|那时候?|当年)(?:我|我们|我们家)?(?:一直)?"
        r"(?:住在|住|在)(?P<prev>"
        + CITY_ZH
        + r")(?:住|生活|工作)?\s*[，,]\s*(?:我|我们)?(?:现在|目前|如今|后来|现|去年|前年|今年|上个月|前几年|这两年)(?:已经)?"
        r"(?:搬到了?|搬来了?|搬去了?|搬回了?|(?:改|换)(?:住)?(?:到|在)?|住在|住|定居(?:在|于)?|落户(?:在)?|在)(?P<cur>"
        + CITY_ZH
        + r")(?=$|[，,。.！!；;]|了|住|生活|工作|定居)"
    ),
)
#: When a planned move happens: "下个月", "明年三月", "年底", "过完年".
_MOVE_WHEN_ZH = (
    r"(?:下个?月(?:底|初|中)?|下周|明年|今年|年底|年初|年中|月底|年后|过完年|过段时间|马上|准备|打算|计划|要|快要|即将|就要|会"
    r"|(?:\d{1,2}|[一二三四五六七八九十]{1,2})月(?:份|底|初)?)"
)
_MOVING_TO = re.compile(
    r"(?:\b(?:i(?:'m|\s+am)|we(?:'re|\s+are)|and\s+i\s+are|and\s+me\s+are)\s+|^\W*)(?:(?:finally|officially|definitely)\s+)?(?:moving|relocating|retiring|emigrating)\s+(?:down\s+|out\s+|over\s+)?to\s+(?P<cur>"
    + _PLACE_EN
    + r")(?=\s+(?:in|next|this|on|at|by|soon|later|for\s+(?:work|my\s+job|a\s+job|uni|university|school|good))\b|\s*[,.!;]|\s*$)|(?:^\W*|(?<=[，,])\s*|我(?:们)?(?:家|全家)?)"
    # a settled decision is a definite plan: "我们已经定了明年搬到新加坡"
    + r"(?:已经)?(?:定了|决定了?|确定了?)?"
    + _MOVE_WHEN_ZH
    + r"+(?:确定|决定|已经定了|定了)?(?:正式|就|会|将|得)?(?:要)?搬(?:家)?(?:到|去|回)(?:老家)?(?P<cur2>"
    + CITY_ZH
    + r")(?=$|[，,。.！!；;]|了|去|住|工作|定居)"
    # posted there for work: "年底要调去南京工作", "下个月被外派到新加坡常驻"
    + r"|(?:^\W*|(?<=[，,])\s*|我(?:们)?)(?:已经)?(?:定了|决定了?|确定了?)?"
    + _MOVE_WHEN_ZH
    + r"+(?:确定|决定|已经定了|定了)?(?:正式|就|会|将|得)?(?:要)?(?:被)?(?:调|调动|外派|派驻|派)(?:到|去|往)(?P<cur3>"
    + CITY_ZH
    + r")(?=工作|上班|任职|常驻|发展|总部|分公司)",
    _I,
)


#: A planned move called off: "we're not moving anymore", "I'm no longer relocating to Oslo".
_NOT_MOVING = re.compile(
    r"\b(?:i(?:'m|\s+am)|we(?:'re|\s+are))\s+(?:not|no\s+longer)\s+(?:moving|relocating)"
    r"(?:\s+to\s+(?P<cur>"
    + _PLACE_EN
    + r"))?(?=\s+(?:anymore|any\s+more|after\s+all)\b|\s+to\b|\s*[,.!;]|\s*$)"
    r"|\b(?:the\s+)?move\s+(?:to\s+(?P<cur2>" + _PLACE_EN + r")\s+)?is\s+(?:off|cancell?ed)\b",
    _I,
)
_CITY_COUNTRY = re.compile(
    r"(?:\b(?:based|live|living|located|reside|residing)\s+in|\bhome\s+(?:for\s+(?:me|us)\s+)?is(?:\s+in)?"
    r"|\b(?:i(?:'m|\s+am)|we(?:'re|\s+are))\s+(?:currently\s+|now\s+)?in(?=\s+\S+(?:\s+\S+)?\s*,\s*\S+(?:\s+\S+)?\s*(?:[.!]|$"
    # "I'm in Melbourne, Australia, so ...": the place then a clause of its own
    r"|,\s*(?:so|and|but|btw|if|which|bear|keep|fyi)\b))"
    # "I'm an expat in Munich, Germany", "british expat living in Lisbon, Portugal"
    r"|\bexpat\s+(?:living\s+|based\s+)?in"
    r"|\bmy\s+(?:flat|apartment|house|place|home)(?:'s|\s+is)\s+in)\s+(?P<city>"
    + _PLACE_EN
    + r")\s*,\s*(?P<country>"
    + "|".join(sorted((re.escape(k) for k in L.COUNTRIES if k.isascii()), key=len, reverse=True))
    + r")\b",
    _I,
)


#: A small business and its town, said by its owner: "I run a cleaning business in Cardiff",
#: "we're a small bakery in Cork, Ireland" (where the owner works and lives).
_BUSINESS_IN = re.compile(
    r"(?:\b(?:i|we)\s+(?:run|own|manage|have)|\b(?:i(?:'m|\s+am)|we(?:'re|\s+are))(?:\s+just|\s+only)?)"
    r"\s+(?:a|an|our|my)\s+(?:small\s+|little\s+|family(?:[\s-]run)?\s+|local\s+|tiny\s+)?(?:[a-z&-]+\s+){0,2}?"
    r"(?:business|shop|store|bakery|caf[eé]|restaurant|salon|company|firm|practice|pub|farm|garage|studio"
    r"|guest\s*house|b&b|nursery|takeaway)\s+(?:here\s+)?(?:in|based\s+in)\s+(?P<city>"
    + _PLACE_EN
    + r")(?:\s*,\s*(?P<country>"
    + "|".join(sorted((re.escape(k) for k in L.COUNTRIES if k.isascii()), key=len, reverse=True))
    + r")\b)?",
    _I,
)


def _city(key: str, place: str) -> Candidate:
    """A city under ``key``, normalized like ``location.city`` ("广州" -> "guangzhou")."""
    return cand(Kind.FACT, key, place, normalized=L.canonical_value("location.city", place))


def h_move(cl: Clause) -> Iterator[Hit]:
    """ "moved to X from Y" / "从Y搬到X" -> location.city = X, location.city.previous = Y;
    "I'm moving to X in March" -> location.moving_to = X."""
    if MAYBE.search(cl.text):
        return  # "thinking about maybe moving to Lisbon" is no move
    for rx in (*_MOVE_EN, *_MOVE_ZH):
        for m in rx.finditer(cl.text):
            cur, prev = m.group("cur").strip(), m.group("prev").strip()
            yield m.start(), m.end(), cand(Kind.FACT, "location.city", cur)
            yield m.start(), m.end(), _city("location.city.previous", prev)
    for m in _CITY_COUNTRY.finditer(cl.text):
        yield m.start(), m.end(), cand(Kind.FACT, "location.city", m.group("city"))
        yield m.start(), m.end(), cand(Kind.FACT, "location.country", m.group("country"))
    for m in _BUSINESS_IN.finditer(cl.text):
        city = m.group("city")
        if not city[0].isupper() or city.lower() in L.COUNTRIES:
            continue  # "a shop in town" names no place
        yield m.start(), m.end(), cand(Kind.FACT, "location.city", city)
        if m.group("country"):
            yield m.start(), m.end(), cand(Kind.FACT, "location.country", m.group("country"))
    for m in _MOVING_TO.finditer(cl.text):
        cur = (m.group("cur") or m.group("cur2") or m.group("cur3")).strip()
        yield m.start(), m.end(), _city("location.moving_to", cur)
    for m in _NOT_MOVING.finditer(cl.text):
        # "I'm not moving anymore, plans changed": the planned move is called off
        place = (m.group("cur") or m.group("cur2") or "").strip()
        yield m.start(), m.end(), _negate(cand(Kind.FACT, "location.moving_to", place))


_MONTHS = {
    m: n
    for n, names in enumerate(
        (
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ),
        start=1,
    )
    for m in names
}
_MON = "|".join(sorted(_MONTHS, key=len, reverse=True))
_BDAY_CUE = r"(?:\bborn\s+(?:on\s+)?|\bbirthday(?:'s|\s+is)?\s+(?:is\s+)?(?:(?:coming\s+up|falls)\s+)?(?:on\s+)?|\bb-?day(?:'s)?\s+(?:is\s+)?(?:on\s+)?)"
#: A day and a named month, with an optional year: "the 3rd of November", "July 22, 1985".
_DAY_MONTH = (
    r"(?:the\s+)?(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mon>"
    + _MON
    + r")\.?(?:\s*,?\s*(?P<y>(?:19|20)\d\d))?\b"
)
_MONTH_DAY = (
    r"(?P<mon>" + _MON + r")\.?\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?(?:\s*,?\s*(?P<y>(?:19|20)\d\d))?\b"
)
#: The year after a day and month: "1992", or "'88" with the century left out.
_BDAY_YEAR = r"(?:(?P<y>(?:19|20)\d\d)|['’‘](?P<yy>\d\d)(?![\d']))"
_BIRTHDAY_RX = (
    re.compile(
        _BDAY_CUE
        + r"(?:the\s+)?(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mon>"
        + _MON
        + r")\.?(?:\s*,?\s*"
        + _BDAY_YEAR
        + r")?\b",
        _I,
    ),
    re.compile(
        _BDAY_CUE
        + r"(?P<mon>"
        + _MON
        + r")\.?\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?(?:\s*,?\s*"
        + _BDAY_YEAR
        + r")?\b",
        _I,
    ),
    # "1988-11-02", "DOB: 1990.06.12", "born 1979/04/30": one separator throughout
    re.compile(
        _BDAY_CUE + r"(?P<y>(?:19|20)\d\d)(?P<sep>[-./])(?P<m>\d{1,2})(?P=sep)(?P<d>\d{1,2})\b",
        _I,
    ),
    re.compile(
        r"\bborn\s+in\s+(?P<y>(?:19|20)\d\d)\s*,?\s+on\s+(?P<mon>"
        + _MON
        + r")\.?\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?\b",
        _I,
    ),
    re.compile(
        # "我生日是阳历5月3号", "我农历生日是八月十五", "生日在十二月二十五", "生日是正月初八"
        r"生日(?:是|在|为)?\s*(?:阳历|农历|公历|阴历|新历|旧历)?的?\s*(?:(?P<y>(?:19|20)\d\d|[一二]九[〇零一二三四五六七八九]{2}|二〇[〇零一二三四五六七八九]{2})年)?"
        r"(?P<m>\d{1,2}|[一二三四五六七八九十]{1,2}|正|冬|腊)月(?:初)?(?P<d>\d{1,2}|[一二三四五六七八九十]{1,3})(?:[日号]|(?![\d一二三四五六七八九十]))"
    ),
    re.compile(
        r"(?P<y>(?:19|20)\d\d)年(?P<m>\d{1,2}|[一二三四五六七八九十]{1,2})月(?P<d>\d{1,2}|[一二三四五六七八九十]{1,3})[日号](?:出生|生)"
    ),
    # the year said in two digits: "我是95年11月20号生的", "我88年3月出生"
    re.compile(
        r"(?<!\d)(?P<yy>\d\d)年(?P<m>\d{1,2}|[一二三四五六七八九十]{1,2})月(?P<d>\d{1,2}|[一二三四五六七八九十]{1,3})[日号]"
        r"(?:出生|生)(?:的)?(?!了|过|下)"
    ),
    # the date, then 的生日: "我是九月十二号的生日"
    re.compile(
        r"我(?:是)?(?P<m>\d{1,2}|[一二三四五六七八九十]{1,2})月(?P<d>\d{1,2}|[一二三四五六七八九十]{1,3})[日号]的生日"
    ),
    # the year left out: "我是十月十二号生的", "我3月8日出生"
    re.compile(
        r"我(?:是)?(?P<m>\d{1,2}|[一二三四五六七八九十]{1,2})月(?P<d>\d{1,2}|[一二三四五六七八九十]{1,3})[日号]"
        r"(?:出生|生)(?:的)?(?!了|过|下)"
    ),
    # the date first, then whose birthday: "每年十一月二十八号我过生日", "阳历八月十五号是我的生日"
    re.compile(
        r"(?:阳历|公历|新历)?(?P<m>\d{1,2}|[一二三四五六七八九十]{1,2})月(?P<d>\d{1,2}|[一二三四五六七八九十]{1,3})[日号]"
        r"(?:是|就是)?我(?:的)?(?:过)?生日"
    ),
    # a dotted or dashed date with the year first: "出生日期：1979.12.01" (read as 我的生日是…)
    re.compile(
        r"生日(?:是|在|为)?\s*(?P<y>(?:19|20)\d\d)\s*[./-]\s*(?P<m>\d{1,2})\s*[./-]\s*(?P<d>\d{1,2})(?![\d.])"
    ),
    re.compile(
        r"(?:生于|出生于|出生在)\s*(?P<y>(?:19|20)\d\d|[一二]九[〇零一二三四五六七八九]{2}|二〇[〇零一二三四五六七八九]{2})年(?P<m>\d{1,2}|[一二三四五六七八九十]{1,2})月(?P<d>\d{1,2}|[一二三四五六七八九十]{1,3})[日号]?"
    ),
)


_ZH_DIGIT = {c: str(i) for i, c in enumerate("〇一二三四五六七八九")} | {"零": "0"}
#: Lunar month names that are no numeral: 正月, 冬月, 腊月.
_LUNAR_MONTHS = {"正": 1, "冬": 11, "腊": 12}


def _year(y: str) -> str:
    """ "1985" / "一九八五" -> "1985" (a year is read digit by digit)."""
    return "".join(_ZH_DIGIT.get(ch, ch) for ch in y)


#: "born on 03/09/1975": day and month are told apart by a value over 12, or by the month
#: named elsewhere in the sentence ("..., that's the 3rd of September"); otherwise unread.
_BIRTHDAY_NUMERIC = re.compile(
    _BDAY_CUE + r"(?P<a>\d{1,2})[/.](?P<b>\d{1,2})(?:[/.](?P<y>(?:19|20)\d\d))?\b(?![/.]\d)", _I
)
_HOLIDAYS = {
    "christmas day": "12-25",
    "christmas eve": "12-24",
    "christmas": "12-25",
    "new year's day": "01-01",
    "new years day": "01-01",
    "new year's eve": "12-31",
    "new years eve": "12-31",
    "valentine's day": "02-14",
    "valentines day": "02-14",
    "valentine's": "02-14",
    "halloween": "10-31",
    "st patrick's day": "03-17",
    "st. patrick's day": "03-17",
    "the 4th of july": "07-04",
    "the fourth of july": "07-04",
    "independence day": "07-04",
}
_BIRTHDAY_HOLIDAY = re.compile(
    _BDAY_CUE
    + r"(?:on\s+)?(?P<hol>"
    + "|".join(re.escape(h) for h in sorted(_HOLIDAYS, key=len, reverse=True))
    + r")\b(?:\s*,?\s*(?:in\s+)?(?P<y>(?:19|20)\d\d)\b)?",
    _I,
)
_MONTH_NAMED = re.compile(r"\b(?P<mon>" + _MON + r")\b", _I)
#: The same dates said without a birthday cue, for a reader that knows the topic already.
_DATES_SAID = (
    re.compile(r"\b" + _DAY_MONTH, _I),
    re.compile(r"\b" + _MONTH_DAY, _I),
    re.compile(
        r"\b(?P<hol>"
        + "|".join(re.escape(h) for h in sorted(_HOLIDAYS, key=len, reverse=True))
        + r")\b",
        _I,
    ),
)


def date_said(text: str) -> str | None:
    """The one day-and-month date ``text`` names ("I came into the world on 22 July 1985"
    -> "1985-07-22", "Halloween" -> "10-31"), or None when it names none or several; for
    the note classifier once it judged the sentence to be about a birthday."""
    found: set[str] = set()
    for rx in _DATES_SAID:
        for m in rx.finditer(text):
            g = m.groupdict()
            if g.get("hol"):
                found.add(_HOLIDAYS[re.sub(r"\s+", " ", g["hol"].lower())])
                continue
            month, day = _MONTHS[g["mon"].lower()], int(g["d"])
            if 1 <= day <= 31:
                found.add((f"{g['y']}-" if g.get("y") else "") + f"{month:02d}-{day:02d}")
    return found.pop() if len(found) == 1 else None


def _numeric_birthday(cl: Clause) -> Iterator[Hit]:
    for m in _BIRTHDAY_NUMERIC.finditer(cl.text):
        a, b = int(m.group("a")), int(m.group("b"))
        named = {_MONTHS[x.group("mon").lower()] for x in _MONTH_NAMED.finditer(cl.sentence.text)}
        if a > 12 >= b or (b in named and a not in named):
            day, month = a, b
        elif b > 12 >= a or (a in named and b not in named):
            day, month = b, a
        else:
            continue  # 03/04/1990 is April or March: not guessed
        if 1 <= day <= 31:
            norm = f"{month:02d}-{day:02d}"
            if m.group("y"):
                norm = f"{m.group('y')}-{norm}"
            yield (
                m.start(),
                m.end(),
                cand(Kind.FACT, "birthday", m.group(0).strip(), normalized=norm),
            )
    for m in _BIRTHDAY_HOLIDAY.finditer(cl.text):
        norm = _HOLIDAYS[re.sub(r"\s+", " ", m.group("hol").lower())]
        if m.group("y"):  # "born on Christmas Eve 1979": the year said with the day
            norm = f"{m.group('y')}-{norm}"
        yield m.start(), m.end(), cand(Kind.FACT, "birthday", m.group(0).strip(), normalized=norm)


#: A year the clause split left in the next clause: "born on the 14th of Feb, 1992".
_YEAR_AFTER = re.compile(r"\s*+,?\s*+" + _BDAY_YEAR + r"\b")


def _birth_year(g: Mapping[str, str | None], cl: Clause, end: int) -> str:
    """The birth year said with a day and month ("1992", "'88" -> "1988"), or ``""``."""
    if not g.get("y") and not g.get("yy"):
        m = _YEAR_AFTER.match(cl.sentence.text, cl.start + end)
        g = m.groupdict() if m else g
    if g.get("y"):
        return _year(g["y"] or "")
    if g.get("yy"):
        yy = int(g["yy"] or 0)
        return f"{2000 + yy if yy <= cl.at.year % 100 else 1900 + yy}"
    return ""


#: "my bday is this coming Tuesday", "it was my birthday yesterday": a birthday told by a day
#: relative to the turn, resolved against the turn's time (days and weeks only: a month
#: away names no day).
_BIRTHDAY_RELATIVE = re.compile(
    r"\b(?:my\s+(?:(?:\d{1,3}(?:st|nd|rd|th)|[a-z]+tieth)\s+)?(?:birthday|b-?day)(?:'s|\s+is|\s+was)?|it(?:'s|s|\s+is|\s+was)\s+my\s+(?:(?:\d{1,3}(?:st|nd|rd|th)|[a-z]+tieth)\s+)?(?:birthday|b-?day))"
    r"(?!\s+(?:party|present|gift|dinner|cake|card|plans?|trip|wish|list|drinks)\b)"
    r"\s+(?:(?:is|was|falls)\s+)?(?:on\s+)?(?P<when>"
    r"(?:the\s+)?day\s+(?:before\s+yesterday|after\s+tomorrow)|yesterday|today|tomorrow"
    r"|(?:this\s+)?(?:coming|next|last|this|past)\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day"
    r"|in\s+(?:\d{1,2}|a|one|two|three|four|five|six|ten)\s+(?:days?|weeks?)"
    r"|(?:\d{1,2}|a|one|two|three|four|five|six|ten)\s+(?:days?|weeks?)\s+ago)\b",
    _I,
)


#: The same with the day first ("today is my birthday", "tomorrow's my bday"), a birthday
#: said as the present day ("it's my birthday!", "happy birthday to me") and an age reached
#: today ("I turn 30 today", "today's my 40th"): the day is the turn's. Not after a condition
#: or a time clause ("when it's my birthday ..."), nor someone else's ("my son's birthday").
_BIRTHDAY_DAY_FIRST = re.compile(
    r"(?<![\w'])(?P<when>(?:the\s+)?day\s+(?:before\s+yesterday|after\s+tomorrow)|yesterday|today|tomorrow"
    r"|(?:this\s+)?(?:coming|next|last|this|past)\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day)"
    r"(?:'s|\s+is|\s+was|\s+will\s+be)\s+(?:actually\s+|also\s+|finally\s+)?my\s+"
    r"(?:(?:(?:\d{1,3}(?:st|nd|rd|th)|[a-z]+(?:tieth|teenth))\s*)?(?:birthday|b-?day)"
    r"(?=\s*(?:$|[!.,;:)]|\s(?!\s*(?:party|present|gift|dinner|cake|card|plans?|trip|wish|list|drinks|bash|do|weekend)\b)))"
    r"|(?:\d{2}(?:st|nd|rd|th)|[a-z]+tieth)(?=\s*(?:$|[!.,;:)]|\s+(?:lol|haha|yay|btw)\b)))",
    _I,
)
_BIRTHDAY_NOW = re.compile(
    r"(?:^\W*|[!.,;:]\s*|\b(?:and|so|guess\s+what|btw|yay)\s+)(?P<say>"
    r"it(?:'s|s|\s+is)\s+(?:actually\s+|finally\s+|officially\s+)?my\s+(?:birthday|b-?day)"
    r"|happy\s+(?:birthday|b-?day)\s+to\s+me"
    r"|(?:i\s+)?turn(?:ed)?\s+(?P<n>\d{2}|[a-z]+(?:ty|teen)(?:[\s-][a-z]+)?)\s+today"
    r"|i(?:'m|\s+am|m)\s+(?P<n2>\d{2})\s+today)"
    r"(?=\s*(?:$|[!.,;:)]|\s+(?:and|so|btw|lol|yay|woo+|haha|finally|today)\b))",
    _I,
)
#: A condition or time clause before "it's my birthday": no birthday said.
_BIRTHDAY_WHEN = re.compile(
    r"\b(?:when|whenever|if|until|till|before|after|once|unless|by\s+the\s+time|pretend|imagine)\b[^.!?,;]*$",
    _I,
)


def _birthday_today(cl: Clause) -> Iterator[Hit]:
    text = cl.text
    for m in _BIRTHDAY_DAY_FIRST.finditer(text):
        found = resolve_dates(m.group("when"), cl.at)
        if len(found) == 1 and found[0].end - found[0].start == len(m.group("when")):
            said = m.group(0).strip()
            yield (
                m.start(),
                m.end(),
                cand(Kind.FACT, "birthday", said, normalized=found[0].day.strftime("%m-%d")),
            )
    for m in _BIRTHDAY_NOW.finditer(text):
        if _BIRTHDAY_WHEN.search(text[: m.start("say")]):
            continue
        said = m.group("say")
        yield (
            m.start("say"),
            m.end("say"),
            cand(Kind.FACT, "birthday", said, normalized=cl.at.strftime("%m-%d")),
        )
        n = parse_number((m.group("n") or m.group("n2") or "").replace("-", " "))
        if n is not None and 13 <= n <= 110:
            yield m.start("say"), m.end("say"), cand(Kind.FACT, "age", said, normalized=str(n))


#: The same in Chinese, the day first: "下礼拜三就是我生日了", "后天是我的生日".
_BIRTHDAY_RELATIVE_ZH = re.compile(
    r"(?P<when>(?:下下|下|这|本|这个)(?:个)?(?:周|星期|礼拜)[一二三四五六日天]|明天|后天|大后天|今天|昨天|前天)"
    r"(?:就|正好|刚好)?(?:是)?我(?:的)?生日(?!派对|聚会|礼物|蛋糕|宴|会|趴)"
)


def _relative_birthday(cl: Clause) -> Iterator[Hit]:
    for m in (*_BIRTHDAY_RELATIVE.finditer(cl.text), *_BIRTHDAY_RELATIVE_ZH.finditer(cl.text)):
        when = re.sub(r"^this\s+(?=coming\b)", "", m.group("when"), flags=_I)
        found = resolve_dates(when, cl.at)
        if len(found) == 1 and found[0].end - found[0].start == len(when):
            day = found[0].day
            yield (
                m.start(),
                m.end(),
                cand(Kind.FACT, "birthday", m.group(0).strip(), normalized=day.strftime("%m-%d")),
            )


#: The date in a clause of its own after the birthday was named: "it's for my own birthday,
#: it's march 22nd", "my bday is coming up - it's on the 3rd of june".
_BDAY_NAMED_BEFORE = re.compile(r"\bmy\s+(?:own\s+)?(?:birthday|bday|b-day)\b", _I)
_BDAY_ITS = re.compile(
    r"^\W*(?:(?:and|so)\s+)?(?:it's|its|it\s+is|which\s+is)\s+(?:on\s+)?(?:"
    + _DAY_MONTH
    + "|"
    + _MONTH_DAY.replace("(?P<mon>", "(?P<mon2>")
    .replace("(?P<d>", "(?P<d2>")
    .replace("(?P<y>", "(?P<y2>")
    + r")\W*$",
    _I,
)


def _birthday_said_apart(cl: Clause) -> Iterator[Hit]:
    m = _BDAY_ITS.match(cl.text)
    if m is None or not _BDAY_NAMED_BEFORE.search(cl.sentence.text[: cl.start]):
        return
    month = _MONTHS.get((m.group("mon") or m.group("mon2") or "").lower())
    day = parse_number(m.group("d") or m.group("d2") or "")
    if not month or not day or not 1 <= day <= 31:
        return
    year = m.group("y") or m.group("y2")
    norm = f"{year}-{month:02d}-{day:02d}" if year else f"{month:02d}-{day:02d}"
    yield m.start(), m.end(), cand(Kind.FACT, "birthday", m.group(0).strip(), normalized=norm)


def h_birthday(cl: Clause) -> Iterator[Hit]:
    """birthday = MM-DD, or YYYY-MM-DD when the year is said."""
    yield from _birthday_said_apart(cl)
    yield from _numeric_birthday(cl)
    yield from _relative_birthday(cl)
    yield from _birthday_today(cl)
    for rx in _BIRTHDAY_RX:
        for m in rx.finditer(cl.text):
            g = m.groupdict()
            month = (
                _MONTHS.get((g.get("mon") or "").lower())
                or _LUNAR_MONTHS.get(g.get("m") or "")
                or parse_number(g.get("m") or "")
            )
            day = parse_number(g["d"])
            if not month or not day or not (1 <= month <= 12 and 1 <= day <= 31):
                continue
            norm = f"{month:02d}-{day:02d}"
            year = _birth_year(g, cl, m.end())
            if year:
                norm = f"{year}-{norm}"
            yield (
                m.start(),
                m.end(),
                cand(Kind.FACT, "birthday", m.group(0).strip(), normalized=norm),
            )


_AGE_WORDS = (
    r"\d{2}|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)"
    r"(?:[\s-](?:one|two|three|four|five|six|seven|eight|nine))?|eighteen|nineteen"
)
#: "I turn 40 next month", "turning 65 this Saturday", "I'll be 30 in June": an age reached
#: soon, so the age now is one less (within the coming year; "in ten years" is no birthday).
_TURNING_AGE = re.compile(
    r"(?:\bi\s+turn|\bi(?:'m|\s+am)\s+turning|^\W*(?:just\s+)?turning|\bi(?:'ll|\s+will)\s+be)\s+"
    r"(?P<n>"
    + _AGE_WORDS
    + r")(?!\s*(?:minutes?|mins?|hours?|%|percent|days?|weeks?|pounds|kg|lbs?)\b)"
    r"(?:\s+(?:years?\s+old|yo))?\s+(?:"
    r"(?:next|this|on|this\s+coming|coming)\s+(?:week(?:end)?|month|year|(?:mon|tues|wednes|thurs|fri|satur|sun)day)"
    r"|tomorrow|soon|in\s+(?:a|one|two|three|four|five|six|\d{1,2}|a\s+few|a\s+couple\s+of)\s+(?:days?|weeks?|months?)"
    r"|in\s+(?:" + _MON + r")\b|on\s+(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?\b)",
    _I,
)


def h_turning_age(cl: Clause) -> Iterator[Hit]:
    """age = N - 1 for "I turn N next month" (the birthday is still to come)."""
    for m in _TURNING_AGE.finditer(cl.text):
        n = parse_number(m.group("n").replace("-", " "))
        if n is not None and 18 <= n <= 110:
            yield (
                m.start(),
                m.end(),
                cand(Kind.FACT, "age", m.group(0).strip(), normalized=str(n - 1)),
            )


_KID_N = r"(?:\d|a|an|one|two|three|four|five|six)"
_KID_NOUN = r"(?:boys?|girls?|sons?|daughters?|kids?|children|child)"
#: Children counted by kind, summed: "two girls and a boy" (3), "one son" (1), "twins" (2),
#: after "I have" / "we have" / "mum to" / "father of"; the user's own, by the opener.
_CHILDREN_SUM = re.compile(
    r"(?:\b(?:i|we)\s+(?:have|'ve\s+got|have\s+got|got)|\b(?:i'm|i\s+am)\s+(?:a\s+)?(?:mum|mom|dad|mother|father|parent)\s+(?:of|to)"
    r"|^\W*(?:proud\s+|single\s+|working\s+|busy\s+)?(?:mum|mom|dad|mother|father|parent)\s+(?:of|to))\s+"
    r"(?:(?P<multi>twins|triplets|a\s+set\s+of\s+twins)"
    r"|(?P<list>"
    + _KID_N
    + r"\s+(?:(?:little|young|grown(?:[\s-]up)?|teenage|adult)\s+)?"
    + _KID_NOUN
    + r"(?:\s*(?:,|and|&|\+|plus)\s*"
    + _KID_N
    + r"\s+(?:(?:little|young|grown(?:[\s-]up)?|teenage|adult)\s+)?"
    + _KID_NOUN
    + r")*))\b",
    _I,
)
_KID_PART = re.compile(r"(?P<n>" + _KID_N + r")\s+(?:\w+\s+)?(?:" + _KID_NOUN + r")\b", _I)


def h_children_count(cl: Clause) -> Iterator[Hit]:
    """family.children = the sum of the children counted by kind ("a son and two daughters")."""
    for m in _CHILDREN_SUM.finditer(cl.text):
        if m.group("multi"):
            total = 3 if "triplets" in m.group("multi").lower() else 2
        else:
            said = [p.group("n").lower() for p in _KID_PART.finditer(m.group("list"))]
            if said in (["a"], ["an"]):
                continue  # "I have a daughter" counts no children: there may be more
            parts = [parse_number(n) for n in said]
            if not parts or any(p is None for p in parts):
                continue
            total = sum(p for p in parts if p is not None)
        if 1 <= total <= 20:
            yield (
                m.start(),
                m.end(),
                cand(
                    Kind.RELATIONSHIP, "family.children", m.group(0).strip(), normalized=str(total)
                ),
            )


# ---- whole-sentence rows: an object fronted before the comma ("Pork, I don't eat.") ------
#: (key, value, pattern) rows matched on the whole sentence, as :data:`VALUE_ROWS`.
SENTENCE_VALUE_ROWS: tuple[tuple[str, str, str], ...] = (
    # asked once, then made the rule: "精简一下，以后都这样", "写短点，以后就按这个来"
    (
        "response.length",
        "short",
        r"(?:精简|简短|缩短|简化|写短|短)(?:一下|一点|点)[^。]{0,6}?[，,]\s*(?:以后|今后|往后|每次)(?:都|也|就)?"
        r"(?:这样|这么|按这个|照这个)",
    ),
    # fish first, then every other meat refused: "我吃鱼，但别的肉都不吃", "鱼我吃，其他肉一概不碰"
    (
        "diet",
        "pescatarian",
        r"(?:^\W*|我)(?:只)?(?:吃鱼|鱼(?:我)?(?:还)?吃|吃海鲜|海鲜(?:我)?(?:还)?吃)[^。]{0,4}?[，,]\s*(?:但是?|不过|可是)?"
        r"(?:别的|其他|其它|其余)(?:的)?肉(?:类)?(?:我)?(?:都|一概|一律|全)?(?:不吃|不碰)",
    ),
    (
        "diet",
        "pescatarian",
        r"(?:^\W*|我)(?:肉|荤)(?:的|菜)?(?:我)?(?:是|都)?(?:不吃|不碰)[^。]{0,4}?[，,]\s*(?:但是?|不过|可是)?(?:鱼|海鲜)(?:和|跟|、)?"
        r"(?:鱼|海鲜)?(?:我)?(?:可以|能吃|吃|还吃|没问题|照吃)",
    ),
    (
        "diet",
        "pescatarian",
        r"^\W*no\s+meat(?:\s+for\s+me)?\s*[,;]?\s*(?:but\s+)?fish\s+(?:is\s+|are\s+)?(?:ok|okay|fine|allowed)\b",
    ),
    # "Vegetarian, but I eat fish occasionally"
    (
        "diet",
        "pescatarian",
        r"\bvegetarian\s*[,;—–-]?\s*(?:but|except|although|though)\s+(?:i\s+)?(?:still\s+|also\s+|do\s+)?eats?\s+(?:fish|seafood)\b",
    ),
)
#: (key, codes or None, pattern) rows matched on the whole sentence, as :data:`ITEM_ROWS`.
SENTENCE_ITEM_ROWS: tuple[tuple[str, Mapping[str, str] | None, str], ...] = (
    # a food fronted that the user cannot digest, called an intolerance later in the sentence:
    # "小麦我消化不了，吃了就难受，不是过敏是不耐受"
    (
        "intolerance",
        None,
        r"^\W*(?P<v>(?!我)[\u4e00-\u9fff]{1,4}?)(?:的话)?我(?:是|也|都|有点|有些|一直|从来)*"
        r"(?:消化不了|消化不好|不好消化|吃不了|受不了)[^。]{0,24}?(?<!不是)不耐受?",
    ),
    # where the user is, said with the time difference it makes: "约会议记得我在纽约，有时差"
    (
        "timezone",
        TIMEZONES,
        r"我(?:现在|目前|人)?(?:在|住在?)(?P<v>"
        + _alt({k: v for k, v in TIMEZONES.items() if not k.isascii()}, ascii_only=False)
        + r")(?:这边|那边)?[^。]{0,8}?(?:有|注意|考虑|记得|算上|别忘了)?时差",
    ),
    # the country lived in, then the city alone in a clause of its own: "我在加拿大生活，温哥华"
    # (known cities only)
    (
        "location.place",
        None,
        r"^\W*我(?:现在|目前|一直)?(?:在|住在?)[\u4e00-\u9fff]{2,5}?(?:生活|定居|工作|上班)?[，,]\s*"
        r"(?P<v>[\u4e00-\u9fff]{2,4}?)(?:这边|那边|这儿|那儿|市)?\W*$",
    ),
    # the favourite fronted as a topic, then given as sure: "要说最爱吃的，那当然是饺子啦",
    # "说到最喜欢喝的嘛，肯定是奶茶"
    (
        "taste.like",
        None,
        r"^\W*(?:要说|说到|说起|论|提到)?(?:我)?最(?:喜欢|爱)(?:吃|喝)的(?:东西|食物|菜|饮料)?(?:嘛|呢|啊|的话)?[，,]\s*"
        r"(?:那)?(?:当然|肯定|绝对|必须|一定)?(?:是|得是|还得是|还是|就是)(?P<v>[\u4e00-\u9fff]{1,8}?)"
        r"(?=$|[，,。.！!~～]|了|啦|吧|啊|嘛|呀|咯|哦|呢|喽)",
    ),
    # a weak spot named, then its condition: "我胃不好，慢性胃炎", "我腰一直不好，腰间盘突出"
    (
        "health.condition",
        None,
        r"^\W*我(?:的)?[\u4e00-\u9fff]{1,3}?(?:一直|从小|向来|也)?(?:不好|不太好|有毛病|有老毛病|不行)[，,]\s*"
        r"(?:是|有)?(?P<v>(?:慢性|急性)?(?:"
        + _alt({k: k for k in L.CONDITIONS if not k.isascii()})
        + r"))\W*$",
    ),
    # what was pushed, then refused by a pointer: "又给我推信用卡，我都说了不要推这个"
    (
        "recommend",
        None,
        r"(?:又|老是|总是|一直|还)(?:在)?(?:给我)?推(?:荐|送)?(?P<v>(?!给|了)[\u4e00-\u9fffA-Za-z]{2,6}?)[，,]"
        r"[^，,。]{0,8}?(?:不要|别|不用|甭)(?:再)?(?:给我)?推(?:荐|送)?(?:这个|这些|这种|这类)",
    ),
    # a thing fronted that the user has no use for, then "don't recommend": "游戏我不玩，
    # 别推荐", "理财我不碰，别推了", "保险我没兴趣，不用推"
    (
        "recommend",
        None,
        r"^\W*(?P<v>(?!这|那|你|他|她|它)[\u4e00-\u9fff]{2,6}?)(?:我|本人)(?:从来|根本|也|都|一般|压根)?"
        r"(?:不(?:玩|看|用|买|碰|喝|吃|听|需要|感兴趣|考虑|信)|没(?:兴趣|需求|需要))[^，,。]{0,3}[，,]\s*"
        r"(?:就|所以|你)?(?:别|不要|不用|甭|少)(?:再)?(?:给我)?(?:推荐|推送|推)(?:了|啦|哈|啊)?\W*$",
    ),
    # the place given with the hours to home: "我在纽约，跟国内差十二个小时", "人在伦敦，和北京有时差"
    (
        "timezone",
        TIMEZONES,
        r"(?:^\W*|我)(?:人)?(?:在|住在)(?P<v>"
        + _alt(TIMEZONES, ascii_only=False)
        + r")[，,]\s*(?:跟|和|与)(?:国内|北京|家里|你)(?:有)?(?:时差|差[^，,。]{1,6}(?:小时|钟头))",
    ),
    # the place given, then its time for the user's: "我在悉尼，时间按这边的算"
    (
        "timezone",
        TIMEZONES,
        r"(?:^\W*|我)(?:人)?(?:在|住在)(?P<v>"
        + _alt(TIMEZONES, ascii_only=False)
        + r")[，,]\s*(?:时间|时区)(?:就|都)?(?:按|用|以|跟)(?:着)?(?:这边|这里|当地|我这边|本地)(?:的)?(?:时间)?(?:算|来|为准)?\W*$",
    ),
    # the drug named after its class, in the next clause: "降压药我一直在吃，氨氯地平",
    # "他汀我每晚一粒，阿托伐他汀", "我每天吃降压药，吃的是氨氯地平"
    (
        "medication",
        None,
        r"(?:^\W*|我)(?:每天|一直|长期|每晚|天天)?(?:在)?(?:(?:吃|服用?)(?:" + _DRUG_CLASS_ZH + r")"
        r"|(?:"
        + _DRUG_CLASS_ZH
        + r")[^，,。]{0,10}?(?:吃|服用?|[一两二三半\d]+(?:片|粒|颗|次)))[^，,。]{0,3}"
        r"[，,]\s*(?:吃的是|用的是|是|叫)?(?P<v>(?!"
        + _DRUG_CLASS_ZH
        + r")[\u4e00-\u9fffA-Za-z]{1,8}"
        r"(?:地平|沙坦|普利|洛尔|他汀|双胍|胰岛素|胶囊|霉素|沙星|西林|洛芬|[素林松汀坦胍嗪酮醇唑芬平星乐宁定酸]))\W*$",
    ),
    # the partner named in a later clause: "我跟我老公结婚三年了，他叫陈浩"
    (
        "family.partner.name",
        None,
        r"我的?(?:跟|和|有(?:个|一个)?)?(?:我的?)?(?:老公|丈夫|先生|男朋友|男友)[^。.!！?？，,]{0,12}[，,]\s*他(?:的名字)?叫(?P<v>"
        + ZH_NAME
        + r")(?=$|[，。,.!！])",
    ),
    (
        "family.partner.name",
        None,
        r"我的?(?:跟|和|有(?:个|一个)?)?(?:我的?)?(?:老婆|妻子|太太|女朋友|女友)[^。.!！?？，,]{0,12}[，,]\s*她(?:的名字)?叫(?P<v>"
        + ZH_NAME
        + r")(?=$|[，。,.!！])",
    ),
    (
        "diet.avoid",
        None,
        r"^\W*(?P<v>[a-z][a-z ]{1,25}?)\s*[,:—–-]+\s*i\s+(?:don't|do\s+not|dont|never|won't|can't)"
        r"\s+(?:eat|drink|touch)(?:\s+(?:it|them|that|those))?\W*$",
    ),
    (
        "allergy",
        None,
        r"^\W*(?P<v>[a-z][\w-]+(?:\s+[a-z][\w-]+)?)\s*[,:—–-]+\s*i(?:'m|\s+am|m)\s+(?:very\s+|severely\s+"
        r"|really\s+|deathly\s+|super\s+)?allergic(?:\s+to\s+(?:it|them|that|those))?\W*$",
    ),
    (
        "payment.avoid",
        PAYMENTS,
        r"^\W*(?P<v>" + PAY_EN + r")\s*[,:—–-]+\s*(?:never|no\s+way|not\s+for\s+me|nope)\b",
    ),
    (
        "taste.dislike",
        None,
        r"^\W*(?:(?:hold|skip|lose|no|without|leave\s+out|go\s+easy\s+on)\s+(?:the\s+)?)?(?P<v>[a-z][a-z ]{1,25}?)\s*[,:—–-]+\s*(?:i\s+)?(?:hate|can't\s+stand|loathe|despise"
        r"|detest)\s+(?:it|them|that)\W*$",
    ),
    (
        "name",
        None,
        # "我姓李，叫李雷", or the full name right after the surname: "我姓王，王小明"
        r"(?:本人|我|免贵|敝人|敝)姓([\u4e00-\u9fff])[，,]\s*(?:(?:名|全名)?叫)?(?P<v>(?<=叫)"
        + ZH_NAME
        + r"|\1[\u4e00-\u9fff]{1,2})(?=$|[，。,.!！])",
    ),
    (
        "allergy",
        None,
        r"^\W*(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?)(?:类的药|的药|类药物|类)?(?:我|本人)(?:是)?(?:不能|不可以|不敢|没法)(?:吃|用|碰|打)"
        r"[^。.!！]{0,6}?过敏",
    ),
    (
        "recommend",
        None,
        r"^\W*(?:i'm\s+|i\s+am\s+)?not\s+(?:really\s+|at\s+all\s+)?(?:into|interested\s+in)\s+(?P<v>[a-z][a-z ]{1,25}?)\s*[,;—–-]+\s*(?:so\s+)?(?:don't|do\s+not|never|stop|no\s+need\s+to)\s+(?:recommend|suggest)",
    ),
    # "skip the self help books, they're not for me": what is left out as not one's thing
    (
        "recommend",
        None,
        r"^\W*(?:please\s+)?(?:skip|leave\s+out|drop)\s+(?:the\s+|any\s+|all\s+(?:the\s+)?)?(?P<v>[a-z][a-z -]{1,30}?)"
        r"\s*[,;—–-]+\s*(?:they're|they\s+are|it's|it\s+is|that's|those\s+are)\s+(?:just\s+|really\s+)?not"
        r"\s+(?:for\s+me|my\s+thing)\b",
    ),
    (
        "family.child.names",
        None,
        r"(?:有|生了|我(?:就|只))(?:一个|个|一)?(?:女儿|儿子|闺女|孩子|宝宝|小孩)[，,]\s*(?:名字|小名)?叫(?P<v>[\u4e00-\u9fff]{1,3})(?=$|[，。,.!！])",
    ),
    (
        "taste.dislike",
        None,
        r"^\W*(?P<v>[\u4e00-\u9fff]{1,4}?)(?:太|有点|特别|好|真|很|实在|的味道|味道)[\u4e00-\u9fff]{1,3}了?[，,]\s*我(?:是|真的|实在|一直|从来)?"
        r"(?:吃不惯|喝不惯|受不了|吃不了|接受不了|不爱吃|不喜欢|讨厌)(?=$|\W)",
    ),
    (
        "pet.names",
        None,
        r"(?:养了?|有)(?:一|两|\d)?[只条个匹缸对]?(?:"
        + PETS_ZH
        + r")(?:[，,]\s*[\u4e00-\u9fffA-Za-z]{1,6})?[，,]\s*(?:它|名字)?叫(?P<v>[\u4e00-\u9fff]{1,4})"
        r"(?=$|[，。,.!！])",
    ),
)
_NAMES_EN = r"(?-i:[A-Z])[a-z'-]+(?:\s*(?:,|and|&)\s*(?-i:[A-Z])[a-z'-]+){0,5}"
#: English rows read across commas; a match claims its whole span, so the clauses it
#: covers are not read again ("I'm on blood thinners, warfarin specifically" is warfarin).
SENTENCE_ITEM_ROWS_EN: tuple[tuple[str, Mapping[str, str] | None, str, bool], ...] = (
    # a pronoun pointing back at the thing the clause before named: "shellfish - I'm allergic
    # to them", "dust mites wreck my sinuses, I'm allergic to them", "metformin, I take it
    # every morning", "refill my lisinopril, been on it for years", "Revolut, that's how I pay"
    (
        "allergy",
        None,
        r"^\W*(?:(?:and|also|oh|btw)\W+)?(?P<v>"
        + _alt({k: k for k in (*L.FOODS, *L.OTHER_ALLERGENS, *L.MEDICATIONS) if k.isascii()})
        + r")\b[^.;!?]{0,60}?\s*[,;:—–-]+\s*(?:and\s+|so\s+|cause\s+|because\s+)?i(?:'m|\s+am|m)\s+(?:very\s+|severely\s+"
        r"|really\s+|deathly\s+|super\s+|badly\s+)?allergic\s+to\s+(?:it|them|those|that)\W*$",
        True,
    ),
    (
        "medication",
        None,
        r"(?:^\W*|\bmy\s+)(?P<v>"
        + MEDS_EN
        + r")\b[^.;!?]{0,60}?\s*[,;:—–-]+\s*(?:and\s+)?(?:i\s+(?:take|use)\s+(?:it|them|those)"
        r"|(?:i(?:'ve|\s+have)\s+)?been\s+(?:on|taking)\s+(?:it|them|those)|i(?:'m|\s+am)\s+on\s+(?:it|them))\b",
        True,
    ),
    (
        "payment.method",
        PAYMENTS,
        r"^\W*(?P<v>"
        + PAY_EN
        + r")\b[^.;!?]{0,40}?\s*[,;:—–-]+\s*(?:that's|that\s+is|thats|it's|it\s+is)\s+(?:how|what)\s+i\s+"
        r"(?:always\s+|usually\s+|normally\s+|mostly\s+|basically\s+)?(?:pay|use\s+(?:to\s+pay|for\s+pay))",
        True,
    ),
    # "the kids, Mia and Leo, are 6 and 9", "two boys, Sam and Theo", "my youngest, Ruby, ..."
    (
        "family.child.names",
        None,
        r"\b(?:the|my|our)\s+(?:kids|children|boys|girls|twins|sons|daughters)\s*[,(—–:-]+\s*(?P<v>"
        + _NAMES_EN
        + r")\s*(?=[,)—–-]|\s+(?:are|is|have|were|both|turn|just)\b)"
        r"|(?:^\W*|[,;]\s*|\bi\s+have\s+|\bi've\s+got\s+|\bwe\s+have\s+|\bwith\s+)(?:and\s+)?(?:(?:\d|one|two|three|four|five|six)\s+(?:kids|children|boys|girls|sons|daughters)|(?:one|1|an?)\s+(?:kid|child|boy|girl|son|daughter))\s*[,:(—–-]\s*(?:named\s+|called\s+)?(?P<v2>"
        + _NAMES_EN
        + r")\b"
        r"|\bmy\s+(?:youngest|eldest|oldest|middle\s+(?:one|child|kid)|little\s+one|firstborn)\s*[,(—–-]\s*(?P<v3>(?-i:[A-Z])[a-z'-]+)\b",
        False,
    ),
    (
        "family.children",
        None,
        r"(?:^\W*|[,;]\s*|\bi've\s+got\s+|\bi\s+have\s+)(?:and\s+)?(?:(?P<v>\d|one|two|three|four|five|six)\s+(?:kids|children|boys|girls|sons|daughters)|(?P<v2>one|1)\s+(?:kid|child|boy|girl|son|daughter))\b(?=\s*[,:(—–-]\s*(?:named\s+|called\s+)?(?-i:[A-Z]))",
        True,
    ),
    # "we've got two cats, Miso and Tofu", "I own a horse, she's called Duchess"
    (
        "pet.names",
        None,
        r"\b(?:"
        + PETS_EN
        + r")\s*[,(—–-]\s*(?:(?:she|he|it|they)(?:'s|\s+is|\s+are|'re)\s+(?:called|named)\s+|(?:named|called)\s+|(?:her|his|its|their)\s+names?\s+(?:is|are)\s+)?(?P<v>"
        + _NAMES_EN
        + r")\b",
        False,
    ),
    # "I'm based in Sydney, use that time zone": the zone pointed back to is the place's
    # "IST for me", "CET here": a zone abbreviation answered as the user's own
    (
        "timezone",
        TIMEZONES,
        r"\b(?:in|based\s+in|live\s+in|living\s+in)\s+(?P<v>"
        + _alt(TIMEZONES, ascii_only=True)
        + r")\b[^.!?]{0,40}?\b(?:use|go\s+by|stick\s+to|work\s+in|on)\s+(?:that|this|the\s+same"
        r"|the\s+local|local|its|their)\s+time(?:\s*zone)?\b"
        r"|(?:^\W*|[,;]\s*)(?P<v2>" + _TZ_ABBR10 + r")\s+(?:for\s+(?:me|us)|here|over\s+here)\b",
        False,
    ),
    # "accountant by profession, working with Deloitte": (Indian English) the firm one works
    # "with", after the profession
    (
        "job.employer",
        None,
        r"\bby\s+(?:profession|trade|occupation)\s*,?\s+(?:and\s+)?(?:currently\s+)?working\s+(?:with|at|for|in)\s+(?P<v>"
        + NAME_EN
        + r")",
        False,
    ),
    # "as a nurse I ...", "being a vegetarian, I ...", "as someone who's lactose intolerant, I ..."
    (
        "job.title",
        None,
        r"^\W*(?:(?:so|well|honestly|ok|and|yeah)\s+)*(?:as|being)\s+an?\s+(?P<v>(?:[a-z]+\s)?(?:"
        + JOB_HEAD
        + r"))\s*,?\s+(?:i|i'm|i've|i'd)\b",
        False,
    ),
    (
        "diet",
        DIET_CODES,
        r"^\W*(?:(?:so|well|honestly|ok|and|yeah)\s+)*(?:as|being)\s+(?:an?\s+|someone\s+who(?:'s|\s+is)\s+(?:an?\s+)?)(?P<v>vegan|vegetarian|veggie|pesc[ae]tarian|paleo)\s*,?\s+(?:i|i'm|i've|i'd|my|me)\b",
        False,
    ),
    (
        "intolerance",
        None,
        r"^\W*(?:(?:so|well|honestly|ok|and|yeah)\s+)*(?:as|being)\s+(?:someone\s+who(?:'s|\s+is)\s+)?(?P<v>lactose|gluten|fructose|histamine|caffeine)[\s-]intolerant\s*,?\s+(?:i|i'm|i've|i'd|my|me)\b",
        False,
    ),
    # "I can't eat nuts, I'm allergic"
    (
        "allergy",
        None,
        r"\bi\s+(?:can't|cannot|can\s+not)\s+(?:eat|have|touch)\s+(?P<v>[a-z][a-z ]{1,25}?)\s*[,;—–-]+\s*(?:because\s+|since\s+|as\s+)?i(?:'m|\s+am)\s+(?:very\s+|severely\s+|deathly\s+|really\s+)?allergic\b",
        True,
    ),
    # "my hobbies are photography, cycling and woodworking"
    (
        "taste.like",
        None,
        r"\bmy\s+(?:main\s+|favou?rite\s+)?(?:hobb(?:y|ies)|interests|passions|pastimes)\s+(?:is|are|include|:)\s+(?P<v>[^.;!?]{2,100}?)(?=\s*(?:[.;!?]|$))",
        True,
    ),
    # "tree nuts and sesame are a no-go, I carry an epipen"
    (
        "allergy",
        None,
        r"^\W*(?P<v>[a-z][a-z ]{1,25}?(?:\s+and\s+[a-z]+(?:\s+[a-z]+)?)?)\s+(?:are|is)\s+(?:a\s+)?(?:no[\s-]go|off[\s-]limits|out|banned|deadly|dangerous)\b(?=.*\bepi-?pens?\b)",
        True,
    ),
    # "my full name is Oluwaseun Adeyemi, Seun is fine though"
    (
        "name.preferred",
        None,
        r"\bname\s+is\s+[^,;.]{2,40}[,;]\s*(?:but\s+)?(?:just\s+)?(?P<v>(?-i:[A-Z])[\w'-]+)\s+(?:is\s+(?:fine|ok|okay|good|great)|works|for\s+short)\b",
        False,
    ),
    # "I'm on blood thinners, warfarin specifically"
    (
        "medication",
        None,
        r"\bi(?:'m|\s+am)\s+on\s+(?:blood\s+thinners|statins|antidepressants|beta\s+blockers|ssris|painkillers|meds|medication|an?\s+\w+)\s*[,:(—–-]+\s*(?:specifically\s+|namely\s+|i\.?e\.?\s+|like\s+)?(?P<v>"
        + MED_WORD
        + r")\b",
        True,
    ),
    # "we ended up renting a place in Brighton, which is where I live now"
    (
        "location.city",
        None,
        r"\bin\s+(?P<v>"
        + NAME_EN
        + r")\s*,?\s*(?:which\s+is\s+)?where\s+(?:i|we)\s+(?:now\s+)?(?:live|'m\s+based|am\s+based|reside|call\s+home)\b",
        True,
    ),
)
#: A language contrasted with the user's first one, across a comma (round 24, EN): "english
#: isn't my first language, polish is" speaks both (the one that is not the first is a
#: second); a language spoken in one place and another elsewhere: "I speak Spanish at home,
#: English at work", "we speak Urdu with family and English with friends".
_LANG_EN = "(?:" + _alt(LANGS, ascii_only=True) + ")"
_NOT_FIRST = (
    r"\s+(?:isn't|isnt|is\s+not|'s\s+not|ain't)\s+(?:really\s+)?(?:my|our)\s+(?:first|native|mother|main"
    r"|home)\s+(?:language|tongue)\W+(?:but\s+|though\s+)?(?:(?:it's|its|it\s+is|mine\s+is|my\s+first\s+is"
    r"|that's|that\s+would\s+be)\s+)?"
)
_SPOKEN_WHERE = r"(?:at|with|to|in|for|around)\b[^,.;!?]{0,30}?"
_LANG_LIST_EN = _LANG_EN + r"(?:\s*(?:,|and|&)\s*" + _LANG_EN + r")*"
#: ... where the first languages are spoken, then the others and where: "at home, English at
#: work", "with my parents and English with my kids".
_ELSEWHERE = (
    r"\s+"
    + _SPOKEN_WHERE
    + r"(?:\s*,\s*(?:and\s+|but\s+|while\s+)?|\s+(?:and|but|while|whereas)\s+)(?:(?:mostly|mainly|only|just|then)\s+)?"
    + r"(?:"
    + _SPOKEN_WHERE
    + r"\s+(?:it's\s+|its\s+|it\s+is\s+|i\s+speak\s+|we\s+speak\s+)?)?"
)
_NOT_LANG_USE = r"(?!\s+(?:food|cuisine|people|friends?|guy|girl|accent|dishes))"
SENTENCE_ITEM_ROWS_EN = (
    *SENTENCE_ITEM_ROWS_EN,
    (
        "language.spoken",
        LANGS,
        r"\b" + _LANG_EN + _NOT_FIRST + r"(?P<v>" + _LANG_EN + r")\b",
        False,
    ),
    (
        "language.spoken",
        LANGS,
        r"\b(?P<v>" + _LANG_EN + r")(?=" + _NOT_FIRST + _LANG_EN + r"\b)",
        False,
    ),
    (
        "language.spoken",
        LANGS,
        r"\b(?:i|we)\s+(?:\w+\s+)?speak\s+(?P<v>"
        + _LANG_LIST_EN
        + r")(?="
        + _ELSEWHERE
        + _LANG_EN
        + r"\b"
        + _NOT_LANG_USE
        + r")",
        False,
    ),
    (
        "language.spoken",
        LANGS,
        r"\b(?:i|we)\s+(?:\w+\s+)?speak\s+"
        + _LANG_LIST_EN
        + _ELSEWHERE
        + r"(?P<v>"
        + _LANG_LIST_EN
        + r")\b"
        + _NOT_LANG_USE,
        False,
    ),
    # a pet named in the clause after it: "goldfish owner here, his name is Bubbles"
    (
        "pet.names",
        None,
        r"\b(?:"
        + PETS_EN
        + r")s?\b[^.!?]{0,40}?[,;:—–-]+\s*(?:and\s+)?(?:his|her|its)\s+name(?:'s|\s+is)\s+"
        r"(?P<v>(?-i:[A-Z])[a-z'-]+)\b",
        False,
    ),
    # "I'm bilingual, Korean and English", "I grew up speaking Tagalog and English"
    (
        "language.spoken",
        LANGS,
        r"\bi(?:'m|\s+am)\s+(?:fully\s+)?(?:bilingual|trilingual|multilingual)\b(?:\s*[,:—–-]+\s*|\s+in\s+)"
        r"(?:in\s+)?(?P<v>" + _LANG_LIST_EN + r")\b"
        r"|\bi\s+grew\s+up\s+(?:speaking|with)\s+(?P<v2>" + _LANG_LIST_EN + r")\b",
        True,
    ),
    # fronted: "at home we speak Urdu but at work it's English"
    (
        "language.spoken",
        LANGS,
        r"\b(?:at\s+home|with\s+(?:my\s+)?(?:family|parents|folks|kids|husband|wife|partner|friends))\s*,?\s*"
        r"(?:we|i)\s+(?:mostly\s+|mainly\s+|usually\s+|only\s+|always\s+)?speak\s+(?P<v>"
        + _LANG_LIST_EN
        + r")\b",
        False,
    ),
    (
        "language.spoken",
        LANGS,
        r"\bspeak\b[^.!?]{0,60}?\b(?:at|in)\s+(?:work|the\s+office|school|uni|college|my\s+job)\s*,?\s+"
        r"(?:it's|its|it\s+is|i\s+speak|we\s+speak|i\s+use|we\s+use)\s+(?:mostly\s+|mainly\s+|all\s+|only\s+)?(?P<v>"
        + _LANG_LIST_EN
        + r")\b"
        + _NOT_LANG_USE,
        False,
    ),
)
_SENT_VALUE_RX = tuple((k, v, re.compile(rx, _I)) for k, v, rx in SENTENCE_VALUE_ROWS)
_SENT_ITEM_RX = tuple((k, c, re.compile(rx, _I)) for k, c, rx in SENTENCE_ITEM_ROWS)
_SENT_ITEM_EN_RX = tuple((k, c, re.compile(rx, _I), w) for k, c, rx, w in SENTENCE_ITEM_ROWS_EN)
#: Hint substrings for :func:`h_sentence_rows` (a comma and one of these words).
SENTENCE_HINTS: tuple[str, ...] = (
    "不耐",
    "时差",
    "都这样",
    "就这样",
    "按这个",
    "照这个",
    "我在",
    "我现在在",
    "我住",
    "最爱",
    "最喜欢",
    "他叫",
    "她叫",
    "鱼",
    "海鲜",
    "fish",
    "eat",
    "drink",
    "touch",
    "allergic",
    "never",
    "no way",
    "not for me",
    "not my thing",
    "nope",
    "hate",
    "recommend",
    "suggest",
    "stand",
    "loathe",
    "despise",
    "detest",
    "姓",
    "叫",
    "过敏",
    "吃不惯",
    "喝不惯",
    "受不了",
    "吃不了",
    "接受不了",
    "不爱吃",
    "不喜欢",
    "讨厌",
    "推",
    "不好",
    "不太好",
    "毛病",
    "时间",
    "时区",
    *("kid", "child", "boy", "girl", "twins", "son", "daughter", "youngest", "eldest"),
    *("oldest", "firstborn", "little one", "cat", "dog", "rabbit", "bunny", "horse", "bird"),
    *("budgie", "hamster", "parrot", "fish", "pupp", "kitten", "turtle", "tortoise", "lizard"),
    *("snake", "guinea pig", "hobb", "interests", "passions", "pastimes", "epipen", "epi-pen"),
    *("name", "thinners", "statins", "antidepressants", "blockers", "ssris", "painkillers"),
    *("meds", "medication", "where i", "where we", "as a", "as an", "being", "as someone"),
    *("vegetarian", "can't eat", "cannot eat", "by profession", "by trade", "by occupation"),
    *("药", "他汀", "时差", "小时", "time", "for me", "for us", "here"),
    *(
        "take it",
        "take them",
        "been on",
        "been taking",
        "on it",
        "how i pay",
        "what i pay",
        "what i use",
    ),
)

SENTENCE_HINTS = (
    *SENTENCE_HINTS,
    "language",
    "tongue",
    "speak",
    "lingual",
    "grew up",
    "his name",
    "her name",
    "its name",
)


def h_sentence_rows(cl: Clause) -> Iterator[Hit]:
    """:data:`SENTENCE_VALUE_ROWS` and :data:`SENTENCE_ITEM_ROWS` on a whole sentence."""
    text = cl.text
    yield from _sentence_rows_en(text)
    if "," not in text and "，" not in text and ":" not in text and "—" not in text:
        return
    for key, value, rx in _SENT_VALUE_RX:
        m = rx.search(text)
        if m is None or _skip(key, text, m.start()):
            continue
        c = cand(_kind(key), key, value, normalized=value, hard=_hard(key))
        yield m.start(), m.end(), _negate(c) if _negated(text, m.start(), key) else c
    for key, codes, rx in _SENT_ITEM_RX:
        for m in rx.finditer(text):
            start, end = m.span("v")
            if key == "timezone":
                start = end = m.end()  # the place the zone is read from stays a city too
            if _skip(key, text, m.start()):
                continue
            for n, (said, norm) in enumerate(_items(key, codes, m.group("v"))):
                yield from _row_hits(key, said, norm, start, end, n)


def _sentence_rows_en(text: str) -> Iterator[Hit]:
    """:data:`SENTENCE_ITEM_ROWS_EN` on a whole sentence (with or without a comma)."""
    for key, codes, rx, whole in _SENT_ITEM_EN_RX:
        for m in rx.finditer(text):
            group = next((g for g, v in m.groupdict().items() if v), None)
            if group is None or _skip(key, text, m.start()):
                continue
            start, end = m.span() if whole else m.span(group)
            if key == "timezone":
                start = end = m.end()  # the place the zone is read from stays a city too
            for n, (said, norm) in enumerate(_items(key, codes, m.group(group))):
                yield from _row_hits(key, said, norm, start, end, n)


# --------------------------------------------------------------------------------------
# a value said on its own with a preference word ("paypal is my go to", "strictly halal
# for me", "always telegram", "delta is my airline of choice", "never klarna"): the
# fallback for a clause no other rule read, before it becomes a rule or a note
# --------------------------------------------------------------------------------------

_HOTELS_EN = (
    r"Marriott|Hilton|Hyatt|IHG|Accor|Sheraton|Westin|Four\s+Seasons|Holiday\s+Inn|Novotel"
    r"|Ibis|Radisson|Wyndham|Best\s+Western|Ritz[\s-]Carlton|Intercontinental|Shangri-La"
    r"|Mandarin\s+Oriental|Kempinski|Premier\s+Inn"
)
#: Vocabularies a bare value is looked up in: (key, key when refused, surface -> code).
_BARE_VOCAB: tuple[tuple[str, str, Mapping[str, str] | None, str], ...] = (
    (
        "contact.channel",
        "",
        CHANNELS,
        _alt(
            {k: v for k, v in CHANNELS.items() if k not in ("line", "mail", "phone")},
            ascii_only=True,
        ),
    ),
    (
        "payment.method",
        "payment.avoid",
        PAYMENTS,
        _alt(
            {
                k: v
                for k, v in PAYMENTS.items()
                if k not in ("credit", "card", "cards", "transfer", "invoice", "debit")
            },
            ascii_only=True,
        ),
    ),
    (
        "diet",
        "",
        {**DIET_CODES, "halal": "halal", "kosher": "kosher"},
        _alt({**DIET_CODES, "halal": "", "kosher": ""}, ascii_only=True),
    ),
    ("travel.airline", "travel.airline.avoid", None, L.AIRLINES_EN),
    ("hotel.chain", "", None, _HOTELS_EN),
    # "always aisle for me", "window pls": a seat said alone with a preference word
    ("seat", "", {"window": "window", "aisle": "aisle"}, r"window|aisle"),
)
_BARE_PRE = r"(?:(?:strictly|always|only|mostly|just|usually|definitely|preferably|ideally|otherwise|100%)\s+)*"
_BARE_NEG = (
    r"(?P<neg>never(?:\s+again)?|no|not|no\s+more|don't|do\s+not|dont)\s+(?:(?:booking|book|flying|fly|using|use"
    r"|paying\s+(?:with|by)|pay\s+(?:with|by))\s+(?:with\s+)?)?"
)
_BARE_POST = (
    r"(?:'s|\s+is|\s+are)\s+(?:my|the|our)\s+(?:(?:go[\s-]?to|default|usual|preferred|favou?rite|fave|fav"
    r"|choice|thing|jam|best\s+bet|preference|pick|top\s+pick|airline|carrier|hotel|chain|app)\b(?:\s+\w+)?"
    r"|\w+(?:\s+\w+)?\s+of\s+choice)"
    r"|\s*[,.!]?\s*(?:for\s+me|pls|please|plz|only|all\s+the\s+way|ftw|always|every\s+time|or\s+nothing"
    r"|works\s+best|is\s+(?:best|easiest|preferred)|instead|ideally|if\s+possible"
    # "hilton if u can", "hyatt where possible", "ibis whenever there's one"
    r"|if\s+(?:u|you)\s+can|(?:where|when)(?:ever)?\s+possible|whenever\s+(?:there's|there\s+is)\s+one)\b"
    # "never booking ryanair again after last summer": the reason after the refusal
    r"|\s+(?:after|since)\s+(?:last|that|what|the|my)\b"
    # "whatsapp works way better for me", "venmo or zelle works for me"
    r"|\s+works?\s+(?:(?:way|much|a\s+lot|so\s+much)\s+)?(?:(?:best|better|well|great|fine)\b"
    r"(?:\s+for\s+me\b)?|for\s+me\b)"
)


@functools.lru_cache(maxsize=1)
def _bare_rx() -> tuple[tuple[str, str, Mapping[str, str] | None, re.Pattern[str]], ...]:
    out = []
    for key, refused, codes, alt in _BARE_VOCAB:
        rx = re.compile(
            r"^\W*(?:(?:yes|yeah|yep|yup|ok|okay|sure|oh)\W+)?(?:"
            + _BARE_NEG
            + r")?"
            + _BARE_PRE
            + r"(?P<v>"
            + alt
            + r")"
            # a second value said with the first: "venmo or zelle works for me"
            r"(?:\s*(?:,|/|\bor\b|\band\b)\s*(?P<v2>" + alt + r"))?"
            # the kind named after the brand: "Marriott hotels are my preference"
            r"(?:\s+(?:hotels?|airlines?|airways))?"
            # "never klarna or any buy now pay later stuff": the kind it belongs to after it
            r"(?:\s+(?:or|and)\s+(?:any\s+|other\s+)*[a-z][a-z -]{0,30}?\s+(?:stuff|apps?|things?|services?|schemes?|options?))?"
            r"(?:\s+(?:again|ever))?(?:(?P<post>" + _BARE_POST + r")|(?=\W*$))",
            _I,
        )
        out.append((key, refused, codes, rx))
    return tuple(out)


def h_bare_value(cl: Clause) -> Iterator[Hit]:
    """A known value with a preference word and nothing else that says what it is for."""
    if cl.third_party or not cl.text.isascii():
        return
    for key, refused, codes, rx in _bare_rx():
        m = rx.match(cl.text)
        if m is None:
            continue
        bare = m.group("post") is None
        pre = m.group(0)[: m.start("v")].strip(" \t.,!").lower()
        if bare and not pre:
            continue  # "telegram" alone (an answer, a topic) says no preference
        if m.group("neg"):
            if not refused:
                continue
            key = refused
        values = ["v", "v2"] if m.group("v2") and _is_list(key) else ["v"]
        for n, group in enumerate(values):
            said = m.group(group)
            norm = codes.get(re.sub(r"[\s-]+", " ", said.lower()), said.lower()) if codes else said
            slot = _slot(key, norm, n + 1) if _is_list(key) else key
            yield (
                m.start(group),
                m.end(group),
                cand(_kind(key), slot, said, normalized=norm, hard=_hard(key)),
            )
        return


# ---- "X is a no for me" (round 11, EN): a refusal idiom after the thing refused ------------
#: "pork is a no for me", "cilantro's a hard no", "credit cards are a no-go", "crypto is an
#: absolute no, stop suggesting it": the thing leads its clause (after a conjunction), the
#: refusal closes it (only "for me" / "from me" may follow: "a no-go for my wife" is hers).
_HARD_NO = re.compile(
    r"^\W*(?:(?:so|and|but|also|plus|oh|ok|okay|yeah|honestly|tbh|fyi|btw|sorry|um|uh)\W+)*"
    r"(?:all\s+|any\s+)?(?P<v>[a-z][a-z'&, -]{1,40}?)(?:\s+in\s+(?:it|them))?"
    r"(?:\s+(?:is|are)|'s|'re)\s+(?:(?:totally|completely|strictly|absolutely|always|just|basically|pretty\s+much|still|also|a\s+big)\s+)?"
    # "... is a hard pass", "... is a big nope": the same refusal in chat words
    r"(?:an?\s+(?:(?:hard|firm|big|definite|strict|total|flat|solid|massive|huge|straight|absolute|automatic|instant|clear)\s+)?(?:no(?:[\s-](?:go|no))?|pass|nope)"
    r"|off[\s-]limits|off\s+the\s+table|not\s+an\s+option|never\s+an\s+option)"
    r"(?:\s+(?:for|from|with)\s+me)?"
    r"(?=\s*(?:$|[!.,;:)]|\s+(?:btw|tbh|lol|thanks|thx|pls|please|sorry|sadly|unfortunately|honestly)\b))",
    _I,
)
#: Things refused that are no food, drink, payment or airline: a topic not to suggest when
#: the turn speaks of suggestions.
_SUGGESTING = re.compile(
    r"\b(?:suggest\w*|recommend\w*|recs|ads|adverts?|offers?|show\s+me|pitch\w*|push\w*)\b", _I
)
_NOT_REFUSED = re.compile(
    r"^(?:that|this|it|which|what|who|the\s+answer|answer|mine|yours?|his|hers|theirs|ours|everything"
    r"|anything|something|nothing|he|she|they|we|you|there|here|today|tomorrow|tonight)$",
    _I,
)


def h_hard_no(cl: Clause) -> Iterator[Hit]:
    """A thing refused with "is a no (for me)": a diet's food or drink, a food disliked, a
    payment method or an airline avoided, or a topic not to suggest, by what the thing is."""
    m = _HARD_NO.match(cl.text)
    if m is None:
        return
    raw = with_item(m.group("v").strip())  # "anything with cilantro is a hard pass"
    if _NOT_REFUSED.match(raw) or cl.third_party:
        return
    start, end = m.span("v")
    items = split_items(raw)
    if not items:
        return
    whole = re.fullmatch(FOOD_AVOID_LIST, raw, _I)
    # one list, one kind: "olives and capers are a hard no" are both foods
    foods = any(taxonomy.is_food(i) and len(i.split()) <= 3 for i in items)
    for n, item in enumerate(items):
        low = item.lower()
        if L.PHONE_CALLS_RE.match(low):
            yield start, end, cand(Kind.CONSTRAINT, "contact.call", "never", hard=True)
        elif whole and re.fullmatch(FOOD_AVOID_EN, low, _I):
            yield from _row_hits(
                "diet.avoid", item, L.canonical_value("diet.avoid", item), start, end, n
            )
        elif (code := PAYMENTS.get(re.sub(r"[\s-]+", " ", low))) is not None:
            yield from _row_hits("payment.avoid", item, code, start, end, n)
        elif re.fullmatch(L.AIRLINES_EN, item, _I):
            norm = L.canonical_value("travel.airline.avoid", item)
            yield from _row_hits("travel.airline.avoid", item, norm, start, end, n)
        elif foods and len(item.split()) <= 3:
            yield from _row_hits("taste.dislike", item, "dislike", start, end, n)
        elif _SUGGESTING.search(cl.sentence.text) and len(item.split()) <= 4:
            yield from _row_hits("recommend", item, "never", start, end, n)


# ---- a food refused in words that refuse anything (round 24, EN) --------------------------
#: "I avoid fennel", "I don't do capers", "can't do coriander", "I'm not into olives": the
#: words would refuse anything ("I avoid crowds", "I don't do mornings"), so only an item
#: that reads as a food is kept (what is avoided goes to the diet, the rest is a dislike).
_FOOD_ITEM_EN = (
    r"(?P<v>[a-z][a-z' -]{1,30}?)(?=\s*(?:$|[,.;!?)]|\s+(?:and\s+(?:i|my)|but|though|because|cos|since|at\s+all"
    r"|anymore|any\s+more|either|please|pls|lol|tbh|honestly|ever|if\s+i\s+can|whenever|when|in\s+my|on\s+my)\b))"
)
_FOOD_FRAMES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "diet.avoid",
        re.compile(
            r"\bi\s+(?:(?:really|just|generally|usually|always|mostly|try\s+to|tend\s+to|do)\s+)*avoid\s+"
            r"(?:eating\s+|having\s+|drinking\s+|anything\s+with\s+|food\s+with\s+)?"
            + _FOOD_ITEM_EN,
            _I,
        ),
    ),
    (
        "taste.dislike",
        re.compile(
            r"\bi\s+(?:(?:just|really|honestly)\s+)?(?:don't|do\s+not|dont|can't|cannot|can\s+not)\s+(?:really\s+)?do\s+"
            + _FOOD_ITEM_EN
            + r"|\bi(?:'m|\s+am|m)\s+not\s+(?:really\s+|that\s+|too\s+|very\s+|much\s+|so\s+)?(?:into|keen\s+on"
            r"|fussed\s+on|a\s+(?:big\s+|huge\s+)?fan\s+of)\s+"
            + _FOOD_ITEM_EN.replace("(?P<v>", "(?P<v2>"),
            _I,
        ),
    ),
)


#: A body that does not take a food: "can't do gluten, it's an intolerance" is no taste.
_MEDICAL_EN = re.compile(
    r"\b(?:intoleran\w*|allerg\w*|coeliac|celiac|ibs|stomach|gut|sick|doctor|reaction|digest\w*"
    r"|bloat\w*|upsets?|hives|rash)\b",
    _I,
)


def h_food_said(cl: Clause) -> Iterator[Hit]:
    """A food avoided or disliked in words that would refuse anything, kept when the item
    reads as a food or drink ("I avoid fennel", "can't do coriander")."""
    if cl.third_party or _MEDICAL_EN.search(cl.sentence.text):
        return
    for key, rx in _FOOD_FRAMES:
        for m in rx.finditer(cl.text):
            group = "v" if m.group("v") else "v2"
            raw = with_item(m.group(group).strip())
            items = [
                i
                for i in split_items(raw)
                if taxonomy.is_food(i)
                and len(i.split()) <= 3
                and not re.fullmatch(INTOLERANT_OF, i, _I)  # "can't do lactose" is the body's
            ]
            if not items or len(items) < len(split_items(raw)):
                continue  # "I avoid crowds and coffee": one list, one kind
            start, end = m.span(group)
            for n, item in enumerate(items):
                norm = L.canonical_value(key, item) if key == "diet.avoid" else "dislike"
                yield from _row_hits(key, item, norm, start, end, n)


# ---- a role said as a fragment (round 11, EN) ---------------------------------------------
_ROLE_QUALIFIER = r"(?:(?P<free>freelance|self[\s-]employed|independent)\s+|(?:part[\s-]time|full[\s-]time|locum|agency|contract)\s+)?"
#: "physio for the NHS", "nurse with Kaiser", "nurse on a cardiac ward", "i'm a dev on the
#: payments team", "teaching assistant, year 3", "freelance graphic designer, ...": a role
#: noun leads its clause, with an employer named after at / for / with, a ward or team
#: after "on", or nothing (the first clause of its sentence); "ex-", "former", "retired",
#: "aspiring" roles are not held now.
_ROLE_FRAGMENT = re.compile(
    r"^\W*(?:(?:also|and|but|so|btw|fyi|currently|now)\s+)?(?:i(?:'m|\s+am|m)\s+)?(?:an?\s+)?"
    + _ROLE_QUALIFIER
    + r"(?!(?:ex|former|retired|aspiring|wannabe|would[\s-]be|future|trainee|student|my|your|his|her|their|our|the|this|that)\b)"
    r"(?P<v>(?:[a-z]+\s+){0,2}?(?:" + JOB_HEAD + r"))s?"
    r"(?:\s+(?:(?P<prep>for|with)\s+(?:the\s+)?(?P<e>" + NAME_EN + r")"
    r"|on\s+(?:a|an|the)\s+(?:[a-z]+\s+){0,2}(?:ward|unit|team|shift|site|rig|line|desk|floor|project|squad)s?)"
    r"|(?P<bare>))"
    r"(?:\s+(?:here|btw|fyi|lol|tbh|by\s+day))?\W*$",
    _I,
)
#: "nurse, NHS", "analyst, HSBC": a role, then an employer said as an acronym or with the
#: word that makes it an organisation.
_ROLE_COMMA_ORG = re.compile(
    r"^\W*(?:i(?:'m|\s+am|m)\s+)?(?:an?\s+)?"
    + _ROLE_QUALIFIER
    + r"(?P<v>(?:[a-z]+\s+){0,2}?(?:"
    + JOB_HEAD
    + r"))\s*,\s*(?:at\s+|for\s+)?(?:the\s+)?"
    r"(?P<e>(?-i:[A-Z]{2,6})|"
    + NAME_EN
    + r"\s+(?-i:Hospital|Bank|Council|University|Ltd|Inc|Group|Trust|Clinic|Labs|Health|Capital|Partners|Airlines|Airways))"
    r"(?=\s*(?:$|[.,;!]))",
    _I,
)
_PET_KEEPER = re.compile(
    r"\b(?:" + PETS_EN + r"|pet)s?\s+(?:owner|keeper|parent|mum|mom|dad|lady|guy)$", _I
)
_NOT_ROLE_WORDS = frozenset(
    """good bad great terrible awful best worst old new nice lazy busy tired proud happy sad poor
    typical average amateur backseat sunday weekend hobby home bored exhausted stressed overworked
    underpaid struggling crap rubbish shit decent okay ok fine real fake own other another same
    it that this what which who at the to in on with for from by of a an my your his her their
    our see seeing saw call called calling ring visit visiting booked need want like""".split()  # noqa: SIM905
)
_NOT_ROLE_EMPLOYER = frozenset({"i", "me", "us", "them", "him", "her", "years", "months", "ages"})


def _role_title(v: str) -> str:
    return " ".join(v.lower().split())


def h_role_fragment(cl: Clause) -> Iterator[Hit]:
    """job.title (and job.employer, job.status) from a role said without "I work as"."""
    if cl.third_party:
        return
    m = _ROLE_COMMA_ORG.match(cl.sentence.text) if cl.start == 0 else None
    if m is not None and m.end("v") <= len(cl.text):
        title = _role_title(m.group("v"))
        yield m.start("v"), m.end("v"), cand(Kind.FACT, "job.title", title, normalized=title)
        emp = m.group("e")
        yield m.start("v"), m.end("v"), cand(Kind.FACT, "job.employer", emp, normalized=emp.lower())
        return
    m = _ROLE_FRAGMENT.match(cl.text)
    if m is None:
        return
    if m.group("bare") is not None and (
        cl.start != 0 or not re.match(r"^\W*(?:an?\s+)?[a-z]", cl.text, _I)
    ):
        return  # a bare role only opens its sentence ("..., nurse" is a list's item)
    if any(w in _NOT_ROLE_WORDS for w in m.group("v").lower().split()[:-1]):
        return  # "terrible driver", "home cook": a manner, not a job
    if _PET_KEEPER.search(m.group("v")):
        return  # "goldfish owner here", "cat mum": a pet of the user's, read by the pet rows
    title = _role_title(m.group("v"))
    yield m.start("v"), m.end("v"), cand(Kind.FACT, "job.title", title, normalized=title)
    emp = m.group("e")
    if emp and emp.lower() not in _NOT_ROLE_EMPLOYER and emp.lower() not in L.CITIES:
        yield m.start("v"), m.end("v"), cand(Kind.FACT, "job.employer", emp, normalized=emp.lower())
    if m.group("free"):
        yield (
            m.start("v"),
            m.end("v"),
            cand(Kind.FACT, "job.status", "self_employed", normalized="self_employed"),
        )


# ---- a home said inside a remark (round 11, EN) --------------------------------------------
#: "the weather here in toronto is brutal", "rent out here in Leeds is insane", "as someone
#: living in melbourne ...", "as a Berliner born and bred": "here in X" says the user is in
#: X, whatever the remark is about; "the rain in Glasgow" (no "here") says nothing of the
#: user, nor does a stay ("the hotel here in Rome", "on holiday here in Nice").
_HERE_IN = re.compile(
    r"^\W*(?:(?:so|and|but|also|honestly|tbh|ugh|man|god|omg|wow)\W+)*"
    r"(?:(?:the|this|our|all\s+the|everything|everyone|everybody|life|people|prices|rent|traffic|weather)\s+)?"
    r"(?:[a-z]+\s+){0,3}?(?:(?:out|over|down|up|right)\s+)?here\s+in\s+(?P<p>[a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,2})"
    r"|\bas\s+(?:someone|somebody|a\s+person|an?\s+[a-z]+)\s+(?:who\s+(?:lives|has\s+lived)|living|based|who's\s+(?:lived|based))\s+in\s+"
    r"(?P<p2>[a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,2})",
    _I,
)
_STAY = re.compile(
    r"\b(?:hotel|hostel|airbnb|resort|holiday|vacation|trip|visit|visiting|conference|layover|honeymoon"
    r"|for\s+(?:a|the|two|three|\d+)\s+(?:days?|nights?|weeks?))\b",
    _I,
)
#: A few days somewhere: "I'm here in Rome this week" is a stay (not said of "living in").
_STAY_HERE = re.compile(
    r"\b(?:this|next|for\s+the)\s+(?:week(?:end)?|month)\b|\buntil\b|\btill\b", _I
)


def _leading_place(words: list[str]) -> str:
    """The longest run of leading words that is a known city or country, else the leading
    capitalised words when they read as a place name."""
    for n in range(len(words), 0, -1):
        said = " ".join(words[:n])
        if said.lower() in L.CITIES or said.lower() in L.COUNTRIES:
            return said
    caps: list[str] = []
    for w in words:
        if not w[:1].isupper():
            break
        caps.append(w)
    said = " ".join(caps)
    if caps and said.lower() not in L.LANGUAGES and caps[0].lower() not in L.NOT_PLACE:
        return said
    return ""


def h_here_in(cl: Clause) -> Iterator[Hit]:
    """location.city / location.country named by "here in X" or "as someone living in X"."""
    if cl.third_party or _STAY.search(cl.sentence.text) or MAYBE.search(cl.sentence.text):
        return
    for m in _HERE_IN.finditer(cl.text):
        group = "p" if m.group("p") else "p2"
        if group == "p" and _STAY_HERE.search(cl.sentence.text):
            continue
        place = _leading_place(m.group(group).split())
        if not place:
            continue
        key = "location.country" if place.lower() in L.COUNTRIES else "location.city"
        end = m.start(group) + len(place)
        yield m.start(group), end, cand(Kind.FACT, key, place)


# ---- allergens named by the reaction they cause (round 11, EN) -----------------------------
_ALLERGEN_ITEM = (
    r"(?!(?:it|that|this|they|them|these|those|he|she|everything|something|stress|work|people|the|my|your"
    r"|our|his|her|their|a|an|some|news|life|exercise|heat|cold|sun|anxiety|nerves)\b)[a-z][\w-]*"
    r"(?:\s+(?!(?:both|all|always|just|literally|really|and|or|give|gives|make|makes|made|set|sets|bring|brings)\b)[a-z][\w-]*)?"
)
_ALLERGEN_LIST = _ALLERGEN_ITEM + r"(?:\s*(?:,|and|&|or)\s*" + _ALLERGEN_ITEM + r")*"
_REACTION = (
    r"(?:give|gives|gave)\s+me\s+(?:a\s+(?:bad\s+|nasty\s+|real\s+)?reaction|hives|a\s+rash|rashes|welts|anaphylaxis"
    r"|(?:a|the)\s+(?:worst|worse|scariest|biggest|most\s+awful|allergic)\s+reaction)"
    r"|(?:make|makes|made)\s+(?:me\s+(?:wheeze|itch|sneeze|swell(?:\s+up)?|break\s+out|come\s+out\s+in\s+\w+)"
    r"(?:\s+and\s+(?:wheeze|itch|sneeze|swell(?:\s+up)?|break\s+out))?"
    r"|my\s+(?:mouth|throat|lips|tongue|face|eyes|skin|hands|airways)\s+(?:swell|itch|tingle|burn|close|tighten|blister)(?:\s+up)?)"
    r"|(?:set|sets)\s+off\s+my\s+(?:asthma|eczema|hay\s*fever|allergies)"
    r"|(?:bring|brings|brought)\s+me\s+out\s+in\s+(?:hives|a\s+rash|rashes|welts|spots)"
)
#: "kiwi and strawberries make my mouth swell up, I'm allergic", "dogs and horses both make
#: me wheeze", "tree nuts give me a reaction": the things named first cause it. A reaction
#: that names no allergy on its own (wheeze, itch, sneeze) needs "allergic" in the sentence.
_REACTION_FIRST = re.compile(
    r"^\W*(?:(?:so|and|but|also|plus|btw|fyi)\W+)*(?:any\s+|all\s+)?(?P<v>" + _ALLERGEN_LIST + r")"
    r"(?:\s+(?:both|all|always|just|literally|really))*\s+(?P<r>" + _REACTION + r")\b",
    _I,
)
#: "my throat swells up with any kind of fish", "my lips swell if I eat kiwi", "can't have
#: kiwi, my throat swells up": the swelling says allergy; the food is named beside it.
_SWELLS_WITH = re.compile(
    r"\bmy\s+(?:throat|mouth|lips|tongue|face)\s+(?:swells?|closes?|tightens?|puffs?)(?:\s+up)?\s+"
    r"(?:with|from|after|around|if\s+i\s+(?:eat|have|touch|even\s+touch))\s+(?:any\s+(?:kind\s+of\s+|sort\s+of\s+)?|even\s+a\s+bit\s+of\s+)?"
    r"(?P<v>" + _ALLERGEN_ITEM + r")",
    _I,
)
_CANT_HAVE_SWELLS = re.compile(
    r"^\W*(?:i\s+)?(?:can't|cannot|cant|can\s+not)\s+(?:have|eat|touch|go\s+near)\s+(?:any\s+)?(?P<v>"
    + _ALLERGEN_ITEM
    + r")"
    r"\s*[,;-]+\s*(?:cos\s+|because\s+|as\s+|since\s+)?my\s+(?:throat|mouth|lips|tongue|face)\s+(?:swells?|closes?|tightens?|puffs?)",
    _I,
)
_NEEDS_ALLERGIC = re.compile(
    r"\b(?:wheeze|itch|sneeze|asthma|eczema|hay\s*fever|burn|tingle)\b", _I
)
_SAYS_ALLERGIC = re.compile(r"\ballerg(?:ic|y|ies)\b|\banaphyla|\bepi-?pen", _I)


def h_allergy_reaction(cl: Clause) -> Iterator[Hit]:
    """allergy.* for the things a reaction is put down to."""
    if cl.third_party:
        return
    sentence = cl.sentence.text
    found: list[tuple[int, int, str]] = []
    m = _REACTION_FIRST.match(cl.text)
    if m is not None and (
        not _NEEDS_ALLERGIC.search(m.group("r")) or _SAYS_ALLERGIC.search(sentence)
    ):
        found.append((m.start("v"), m.end("v"), m.group("v")))
    for m in _SWELLS_WITH.finditer(cl.text):
        found.append((m.start("v"), m.end("v"), m.group("v")))
    if cl.start == 0 and (m := _CANT_HAVE_SWELLS.match(sentence)) and m.end("v") <= len(cl.text):
        found.append((m.start("v"), m.end("v"), m.group("v")))
    for start, end, raw in found:
        n = 0
        for said, _norm in _items("allergy", None, raw):
            # "latex gloves": the allergen, not the thing it comes in
            said = re.sub(r"\s+(?:gloves|products?|stuff|things|items)$", "", said, flags=_I)
            if said.lower() in L.TOPIC_STOP or allergy_key(said) == "allergy":
                continue  # a thing of no known kind is left to the other readers
            yield from _row_hits(
                "allergy", said, L.canonical_value(allergy_key(said), said), start, end, n
            )
            n += 1


# ---- payment methods said by what the user does with them (round 11, EN) -------------------
_PAY_WORD = r"(?:" + _alt(PAYMENTS, ascii_only=True) + r")"
#: "google pay is what I use", "zelle or venmo, those are the two i use", "shops that take
#: klarna, that's how I usually pay", "it all goes through apple pay these days": the
#: methods named in the sentence are the user's.
_PAID_THIS_WAY = re.compile(
    r"\b(?:that's|thats|that\s+is|this\s+is|it's|its)\s+how\s+i\s+(?:usually\s+|normally\s+|always\s+|mostly\s+|generally\s+)?pay\b"
    r"|\b(?:those|these|they)\s+are\s+the\s+(?:two|three|ones|only\s+ones)\s+i\s+(?:use|pay\s+with)\b"
    r"|\b(?:is|are)\s+what\s+i\s+(?:use|pay\s+with)\b(?!\s+(?:for\s+)?(?:work|them|him|her)\b)"
    r"|\b(?:it|everything|the\s+lot)\s+(?:all\s+)?goes\s+(?:through|on|via)\s+(?="
    + _PAY_WORD
    + r")",
    _I,
)
_PAY_FOUND = re.compile(r"\b(?P<v>" + _PAY_WORD + r")\b", _I)


def h_paid_this_way(cl: Clause) -> Iterator[Hit]:
    """payment.method for the methods a sentence says the user pays with."""
    sentence = cl.sentence.text
    if cl.start != 0 or cl.third_party or (said := _PAID_THIS_WAY.search(sentence)) is None:
        return
    n = 0
    for m in _PAY_FOUND.finditer(sentence):
        if m.start() > said.end() + 40 or neg_before(sentence, m.start()):
            continue
        code = PAYMENTS.get(re.sub(r"[\s-]+", " ", m.group("v").lower()))
        if code is None or (code in ("credit_card",) and m.group("v").lower() in ("card", "cards")):
            continue
        start, end = (m.start(), m.end()) if m.end() <= len(cl.text) else (0, 0)
        yield from _row_hits("payment.method", m.group("v"), code, start, end, n)
        n += 1


# ---- the only channel the user actually reads (round 11, EN) -------------------------------
_ONLY_CHANNELS = {
    **CHANNELS,
    "push": "push",
    "push notifications": "push",
    "push notification": "push",
}
_ONLY_ONE_I_READ = re.compile(
    r"\b(?:is|are|it's|its|it\s+is|that's|thats|that\s+is)\s+(?:the\s+)?only\s+(?:thing|one|app|channel|place)s?\s+i\s+"
    r"(?:actually\s+|really\s+|ever\s+|reliably\s+|properly\s+)?(?:see|read|check|look\s+at|notice|answer|keep\s+notifications\s+on)\b"
    r"|\b(?:is|are|it's|its|that's|thats)\s+the\s+(?:one|app)\s+i\s+(?:actually|really|reliably)\s+(?:read|check|see|use)\b",
    _I,
)
_CHANNEL_FOUND = re.compile(
    r"\b(?P<v>push\s+notifications?|" + _alt(CHANNELS, ascii_only=True) + r")\b(?!\s+me\b)", _I
)


def h_only_channel(cl: Clause) -> Iterator[Hit]:
    """contact.channel for the one channel the user says is the only one they read."""
    sentence = cl.sentence.text
    if cl.start != 0 or cl.third_party or (said := _ONLY_ONE_I_READ.search(sentence)) is None:
        return
    found = [
        m
        for m in _CHANNEL_FOUND.finditer(sentence[: said.start()])
        if _ONLY_CHANNELS.get(re.sub(r"[\s-]+", " ", m.group("v").lower())) not in (None, "phone")
        and not neg_before(sentence, m.start())
    ]
    if len(found) != 1:
        return  # none, or several: which one is meant is not said
    m = found[0]
    code = _ONLY_CHANNELS[re.sub(r"[\s-]+", " ", m.group("v").lower())]
    start, end = (m.start(), m.end()) if m.end() <= len(cl.text) else (0, 0)
    yield start, end, cand(Kind.PREFERENCE, "contact.channel", m.group("v"), normalized=code)
