"""Word lists and canonical values for the rule extractor (query words per key live in
:mod:`shared_core.taxonomy`).

All vocabulary lives here so that the extractor (``extract.py``), the date resolver
(``dates.py``) and the query rewriter agree on one spelling of every value.

Public helpers:

* :func:`canonical_value` - the canonical ``normalized`` form of a value for a key.
* :func:`parse_number` - Arabic / Chinese / "5k" style numbers -> ``int``.
* :func:`lookup` - the canonical term of a surface form in one vocabulary.
* :func:`slugify` - key-safe slugs that keep CJK characters.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from types import MappingProxyType

from ..errors import InvalidInputError

__all__ = [
    "CHANNELS",
    "CONDITIONS",
    "COUNTRIES",
    "DIETS",
    "FAMILY",
    "FOODS",
    "INDUSTRIES",
    "LANGUAGES",
    "MAX_AMOUNT_DIGITS",
    "MEDICATIONS",
    "canonical_value",
    "lookup",
    "parse_number",
    "slugify",
]


def _table(spec: str) -> Mapping[str, str]:
    """Parse ``canonical: surface | surface ...`` lines into ``{surface.lower(): canonical}``."""
    out: dict[str, str] = {}
    for line in spec.strip().splitlines():
        canonical, _, surfaces = line.partition(":")
        for surface in surfaces.split("|"):
            if surface.strip():
                out[surface.strip().lower()] = canonical.strip()
    return MappingProxyType(out)


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: Contact channels: surface form -> canonical channel.
CHANNELS: Mapping[str, str] = _table(
    """
sms: sms | text | texts | text message | text messages | texting | 短信 | 短消息
email: email | e-mail | emails | 邮件 | 电子邮件 | 邮箱
phone: phone | phone call | phone calls | calls | 电话
whatsapp: whatsapp
wechat: wechat | 微信
push: push | push notification | push notifications | app notifications | 推送 | 推播
mail: mail | post | letter | letters | postal mail | snail mail | 邮寄 | 信件
telegram: telegram | 电报
line: line
"""
)

#: Medications (allergy.medication): surface -> canonical English name.
MEDICATIONS: Mapping[str, str] = _table(
    """
penicillin: penicillin | penicillins | 青霉素 | 盘尼西林
amoxicillin: amoxicillin | 阿莫西林
cephalexin: cephalexin | cefalexin | 头孢氨苄
cephalosporin: cephalosporin | cephalosporins | 头孢 | 头孢类
aspirin: aspirin | 阿司匹林 | 阿斯匹林 | 阿斯匹灵
ibuprofen: ibuprofen | 布洛芬
sulfa: sulfa | sulfa drugs | sulfa drug | sulpha | sulpha drugs | sulfonamides | 磺胺 | 磺胺类
sulfa: 磺胺类药物 | 磺胺药
codeine: codeine | 可待因
morphine: morphine | 吗啡
insulin: insulin | 胰岛素
lidocaine: lidocaine | 利多卡因
procaine: procaine | novocaine | 普鲁卡因
naproxen: naproxen | 萘普生
paracetamol: paracetamol | acetaminophen | tylenol | 对乙酰氨基酚 | 扑热息痛 | 泰诺
tramadol: tramadol | 曲马多
opioids: opioids | opiates
nsaids: nsaids | nsaid
erythromycin: erythromycin | 红霉素
tetracycline: tetracycline | 四环素
levothyroxine: levothyroxine | 优甲乐 | 左甲状腺素 | 雷替斯
metformin: metformin | 二甲双胍 | 格华止
amlodipine: amlodipine | 氨氯地平 | 络活喜
atorvastatin: atorvastatin | 阿托伐他汀 | 立普妥
warfarin: warfarin | 华法林
clopidogrel: clopidogrel | 氯吡格雷 | 波立维
omeprazole: omeprazole | 奥美拉唑
sertraline: sertraline | 舍曲林 | 左洛复
melatonin: melatonin | 褪黑素
montelukast: montelukast | 孟鲁司特
lisinopril: lisinopril | 赖诺普利
salbutamol: salbutamol | albuterol | ventolin | 沙丁胺醇 | 万托林
losartan: losartan | 氯沙坦
prednisone: prednisone | prednisolone | 泼尼松 | 强的松
fluoxetine: fluoxetine | prozac | 氟西汀 | 百忧解
escitalopram: escitalopram | lexapro | 艾司西酞普兰
gabapentin: gabapentin | 加巴喷丁
"""
)

#: Foods (allergy.food): surface -> canonical English name.
FOODS: Mapping[str, str] = _table(
    """
peanuts: peanuts | peanut | 花生
shellfish: shellfish | 贝类 | 贝壳类 | 甲壳类
seafood: seafood | 海鲜
shrimp: shrimp | 虾
prawns: prawns | prawn | king prawns
squid: squid | calamari | 鱿鱼
nuts: nuts | tree nuts | 坚果
milk: milk | dairy | 牛奶 | 乳制品
lactose: lactose
eggs: eggs | egg | 鸡蛋 | 蛋
gluten: gluten | 麸质
wheat: wheat | 小麦
soy: soy | 大豆 | 黄豆
fish: fish | 鱼
sesame: sesame | 芝麻
strawberries: strawberries | strawberry | 草莓
mango: mango | mangoes | 芒果
kiwi: kiwi | kiwis | kiwi fruit | 猕猴桃 | 奇异果
crab: crab | 螃蟹 | 蟹
lobster: lobster | 龙虾
walnuts: walnuts | walnut | 核桃
almonds: almonds | almond | 杏仁
cashews: cashews | cashew | 腰果
pineapple: pineapple | 菠萝
peach: peach | peaches | 桃子 | 桃
celery: celery | 芹菜
mustard: mustard
corn: corn | 玉米
alcohol: alcohol | 酒精
"""
)

#: Allergens that are neither foods nor drugs (allergy.other): surface -> canonical.
OTHER_ALLERGENS: Mapping[str, str] = _table(
    """
pollen: pollen | hay fever | grass pollen | 花粉
dust: dust | house dust | 灰尘
dust mites: dust mites | dust mite | mites | 尘螨 | 螨虫
latex: latex | 乳胶
cats: cats | cat | cat hair | cat dander | 猫 | 猫毛
dogs: dogs | dog | dog hair | 狗 | 狗毛
bee stings: bee stings | bees | bee | wasps | insect stings | 蜜蜂 | 蜂蜇 | 蜂毒 | 蜂蛰 | 蜜蜂蛰
bee stings: wasp stings | wasp | hornets | 黄蜂 | 马蜂
mold: mold | mould | 霉菌
nickel: nickel | 镍
fragrance: fragrance | perfume | 香水
wool: wool | lanolin | 羊毛
feathers: feathers | feather | down feathers | 羽毛
horses: horses | horse | horse hair
grass: grass | 草
sunscreen: sunscreen | sun cream
catkins: catkins | willow catkins | poplar fluff | 柳絮 | 杨絮
"""
)

#: Health conditions (health.condition): surface -> canonical.
CONDITIONS: Mapping[str, str] = _table(
    """
diabetes: diabetes | diabetic | type 2 diabetes | type 1 diabetes | 糖尿病 | 血糖高
diabetes: type 2 diabetic | type 1 diabetic
diabetes: 2型糖尿病 | 二型糖尿病 | 1型糖尿病 | 一型糖尿病
hypertension: hypertension | high blood pressure | 高血压 | 血压高
asthma: asthma | asthmatic | 哮喘
pregnant: pregnant | 怀孕 | 怀孕了
epilepsy: epilepsy | epileptic | 癫痫
heart disease: heart disease | a heart condition | 心脏病 | 冠心病
celiac disease: celiac disease | celiac | coeliac disease | coeliac
rheumatoid arthritis: rheumatoid arthritis
atrial fibrillation: atrial fibrillation | afib | a-fib
autism: autism | autistic
prediabetes: prediabetes | pre-diabetes | pre-diabetic | prediabetic
bipolar disorder: bipolar disorder | bipolar
depression: depression | 抑郁症
anxiety: anxiety | 焦虑症
migraine: migraine | migraines | 偏头痛
arthritis: arthritis | 关节炎 | 老寒腿 | 风湿性关节炎 | 类风湿
cancer: cancer | 癌症
adhd: adhd
gastritis: gastritis | 胃病 | 胃炎
gout: gout | 痛风
hyperthyroidism: hyperthyroidism | 甲亢 | 甲状腺功能亢进
hypothyroidism: hypothyroidism | 甲减 | 甲状腺功能减退 | 甲低
high cholesterol: high cholesterol | 高血脂 | 血脂高
hyperuricemia: hyperuricemia | high uric acid | 高尿酸 | 尿酸高
eczema: eczema | 湿疹
insomnia: insomnia | 失眠
anemia: anemia | anaemia | anaemic | anemic | 贫血
ibs: ibs | irritable bowel syndrome | 肠易激
osteoporosis: osteoporosis | 骨质疏松
copd: copd | 慢阻肺 | 慢性阻塞性肺病
rhinitis: rhinitis | 鼻炎 | 过敏性鼻炎
fatty liver: fatty liver | 脂肪肝
parkinson's disease: parkinson's disease | parkinson's | 帕金森
alzheimer's disease: alzheimer's disease | alzheimer's | 老年痴呆 | 阿尔茨海默
herniated disc: herniated disc | slipped disc | 腰椎间盘突出 | 腰间盘突出 | 椎间盘突出 | 腰突
cervical spondylosis: cervical spondylosis | 颈椎病
hepatitis b: hepatitis b | 乙肝
kidney stones: kidney stones | 肾结石
scoliosis: scoliosis | 脊柱侧弯
pcos: pcos | polycystic ovary syndrome | 多囊卵巢综合征 | 多囊
endometriosis: endometriosis | 子宫内膜异位症
fibromyalgia: fibromyalgia
lupus: lupus | 红斑狼疮
crohn's disease: crohn's disease | crohn's | crohns
psoriasis: psoriasis | 银屑病 | 牛皮癣
sleep apnea: sleep apnea | sleep apnoea
multiple sclerosis: multiple sclerosis
ulcerative colitis: ulcerative colitis | colitis
"""
)

#: Diets: surface -> canonical.
DIETS: Mapping[str, str] = _table(
    """
vegetarian: vegetarian | veggie | 素食 | 素食者 | 素食主义者 | 吃素
vegan: vegan | 纯素 | 纯素食
pescatarian: pescatarian
halal: halal | 清真
kosher: kosher
gluten-free: gluten-free | gluten free | 无麸质
keto: keto | 生酮
paleo: paleo
lactose-free: lactose-free
"""
)

#: Reply languages: surface -> canonical English name.
LANGUAGES: Mapping[str, str] = _table(
    """
english: english | 英文 | 英语
chinese: chinese | mandarin | 中文 | 汉语 | 普通话 | 国语
cantonese: cantonese | 粤语
japanese: japanese | 日语 | 日文
korean: korean | 韩语 | 韩文
french: french | 法语
german: german | 德语
spanish: spanish | 西班牙语
italian: italian
portuguese: portuguese
russian: russian | 俄语
arabic: arabic
dutch: dutch
polish: polish
hindi: hindi
tamil: tamil
urdu: urdu
swedish: swedish
ukrainian: ukrainian
vietnamese: vietnamese
tagalog: tagalog
hebrew: hebrew
"""
)

#: Industries: surface -> canonical.
INDUSTRIES: Mapping[str, str] = _table(
    """
manufacturing: manufacturing | 制造业 | 制造
saas: saas
software: software | 软件
tech: tech | technology | it | 互联网 | 科技
finance: finance | 金融
fintech: fintech
banking: banking | 银行
healthcare: healthcare | health care | 医疗
retail: retail | 零售
education: education | 教育
e-commerce: e-commerce | ecommerce | 电商
logistics: logistics | 物流
real estate: real estate | 房地产
insurance: insurance | 保险
construction: construction | 建筑
consulting: consulting | 咨询
automotive: automotive | 汽车
energy: energy | 能源
media: media | 媒体
gaming: gaming | 游戏
agriculture: agriculture | 农业
hospitality: hospitality | 餐饮
marketing: marketing
advertising: advertising
pharma: pharma
biotech: biotech
trade: trade | 外贸
"""
)

#: Countries (location.country): surface -> canonical.
COUNTRIES: Mapping[str, str] = _table(
    """
china: china | 中国
united states: united states | usa | us | the us | the usa | america | the united states | 美国
united kingdom: united kingdom | uk | the uk | england | 英国
united kingdom: scotland | wales | britain | great britain
germany: germany | 德国
france: france | 法国
japan: japan | 日本
south korea: south korea | korea | 韩国
canada: canada | 加拿大
australia: australia | 澳大利亚 | 澳洲
india: india | 印度
singapore: singapore | 新加坡
spain: spain | 西班牙
italy: italy | 意大利
brazil: brazil | 巴西
mexico: mexico | 墨西哥
netherlands: netherlands | the netherlands | 荷兰
switzerland: switzerland | 瑞士
sweden: sweden | 瑞典
taiwan: taiwan | 台湾
new zealand: new zealand | nz | 新西兰
malaysia: malaysia | 马来西亚
thailand: thailand | 泰国
vietnam: vietnam | 越南
russia: russia | 俄罗斯
ireland: ireland | 爱尔兰
portugal: portugal
belgium: belgium
austria: austria
norway: norway
denmark: denmark
finland: finland
poland: poland
greece: greece
turkey: turkey
israel: israel
south africa: south africa
argentina: argentina
chile: chile
colombia: colombia
philippines: philippines | the philippines
indonesia: indonesia
nigeria: nigeria
ghana: ghana
kenya: kenya
pakistan: pakistan
bangladesh: bangladesh
egypt: egypt
united arab emirates: united arab emirates | uae | the uae
saudi arabia: saudi arabia | saudi
sri lanka: sri lanka
nepal: nepal
peru: peru
morocco: morocco
ukraine: ukraine
czech republic: czech republic | czechia
hungary: hungary
romania: romania
"""
)

#: City names (Chinese and English) -> canonical English (used for ``normalized``).
CITIES: Mapping[str, str] = _table(
    """
beijing: beijing | 北京
shanghai: shanghai | 上海
guangzhou: guangzhou | 广州
shenzhen: shenzhen | 深圳
hangzhou: hangzhou | 杭州
chengdu: chengdu | 成都
nanjing: nanjing | 南京
wuhan: wuhan | 武汉
xian: xian | 西安
chongqing: chongqing | 重庆
tianjin: tianjin | 天津
suzhou: suzhou | 苏州
hong kong: hong kong | 香港
taipei: taipei | 台北
xiamen: xiamen | 厦门
qingdao: qingdao | 青岛
dalian: dalian | 大连
kunming: kunming | 昆明
changsha: changsha | 长沙
zhengzhou: zhengzhou | 郑州
shenyang: shenyang | 沈阳
harbin: harbin | 哈尔滨
jinan: jinan | 济南
fuzhou: fuzhou | 福州
hefei: hefei | 合肥
ningbo: ningbo | 宁波
wuxi: wuxi | 无锡
foshan: foshan | 佛山
dongguan: dongguan | 东莞
zhuhai: zhuhai | 珠海
nanning: nanning | 南宁
guiyang: guiyang | 贵阳
nanchang: nanchang | 南昌
taiyuan: taiyuan | 太原
shijiazhuang: shijiazhuang | 石家庄
lanzhou: lanzhou | 兰州
urumqi: urumqi | 乌鲁木齐
lhasa: lhasa | 拉萨
hohhot: hohhot | 呼和浩特
haikou: haikou | 海口
sanya: sanya | 三亚
changchun: changchun | 长春
yantai: yantai | 烟台
wenzhou: wenzhou | 温州
shaoxing: shaoxing | 绍兴
changzhou: changzhou | 常州
nantong: nantong | 南通
xuzhou: xuzhou | 徐州
yangzhou: yangzhou | 扬州
quanzhou: quanzhou | 泉州
luoyang: luoyang | 洛阳
guilin: guilin | 桂林
huizhou: huizhou | 惠州
zhongshan: zhongshan | 中山
baoding: baoding | 保定
tangshan: tangshan | 唐山
weifang: weifang | 潍坊
macau: macau | macao | 澳门
kaohsiung: kaohsiung | 高雄
taichung: taichung | 台中
kuala lumpur: kuala lumpur | 吉隆坡
moscow: moscow | 莫斯科
busan: busan | 釜山
kyoto: kyoto | 京都
auckland: auckland | 奥克兰
frankfurt: frankfurt | 法兰克福
geneva: geneva | 日内瓦
washington: washington | 华盛顿
houston: houston | 休斯顿
montreal: montreal | 蒙特利尔
ottawa: ottawa | 渥太华
perth: perth | 珀斯
brisbane: brisbane | 布里斯班
singapore: singapore | 新加坡
seoul: seoul | 首尔
sydney: sydney | 悉尼
melbourne: melbourne | 墨尔本
toronto: toronto | 多伦多
vancouver: vancouver | 温哥华
los angeles: los angeles | 洛杉矶
san francisco: san francisco | 旧金山
chicago: chicago | 芝加哥
boston: boston | 波士顿
seattle: seattle | 西雅图
austin: austin
denver: denver
miami: miami
madrid: madrid | 马德里
barcelona: barcelona | 巴塞罗那
rome: rome | 罗马
milan: milan | 米兰
amsterdam: amsterdam | 阿姆斯特丹
vienna: vienna | 维也纳
munich: munich | 慕尼黑
hamburg: hamburg | 汉堡
zurich: zurich | 苏黎世
dublin: dublin | 都柏林
lisbon: lisbon | 里斯本
porto: porto
prague: prague | 布拉格
stockholm: stockholm | 斯德哥尔摩
copenhagen: copenhagen | 哥本哈根
oslo: oslo | 奥斯陆
manchester: manchester | 曼彻斯特
edinburgh: edinburgh | 爱丁堡
glasgow: glasgow | 格拉斯哥
leeds: leeds
bristol: bristol
dubai: dubai | 迪拜
mumbai: mumbai | 孟买
bangkok: bangkok | 曼谷
osaka: osaka | 大阪
paris: paris | 巴黎
london: london | 伦敦
new york: new york | 纽约
tokyo: tokyo | 东京
berlin: berlin | 柏林
"""
)

_ZH_CITIES = sorted((c for c in CITIES if not c.isascii()), key=len, reverse=True)
_ZH_COUNTRIES = sorted((c for c in COUNTRIES if not c.isascii()), key=len, reverse=True)
#: The Chinese city names of :data:`CITIES`, longest first (for alternations).
ZH_CITY_NAMES: tuple[str, ...] = tuple(_ZH_CITIES)
#: The Chinese country names of :data:`COUNTRIES`, longest first, and a few regions: a
#: people named by them ("英国人", "日本人", "欧洲人") is people in general, not the user.
ZH_PEOPLE_PLACES: tuple[str, ...] = (
    *_ZH_COUNTRIES,
    "欧洲",
    "亚洲",
    "非洲",
    "北欧",
    "南美",
    "东南亚",
    "西方",
    "东方",
)
#: Where one stays, not where one lives: "我住酒店都是住全季", "我住在学校宿舍".
NOT_HOME_ZH = re.compile(r"酒店|宾馆|旅馆|民宿|青旅|客栈|宿舍|医院|学校")


def split_country(place: str) -> tuple[str, str]:
    """A Chinese place said country first ("加拿大温哥华", "日本的大阪") -> (country, the rest);
    ``("", place)`` otherwise."""
    for country in _ZH_COUNTRIES:
        if place.startswith(country) and len(place) > len(country) + 1:
            # "加拿大的温哥华": the 的 between them is no part of the city
            rest = place[len(country) :]
            return country, (rest[1:] if rest.startswith("的") and len(rest) > 2 else rest)
    return "", place


def place_keys(place: str) -> list[tuple[str, str]]:
    """(key, place) pairs a place names: a country ("德国") is ``location.country``, a
    Chinese country-then-city ("加拿大温哥华") both; anything else ``location.city``."""
    if place.lower() in COUNTRIES:
        return [("location.country", place)]
    country, rest = split_country(place)
    if country:
        return [("location.country", country), ("location.city", rest)]
    return [("location.city", place)]


#: Family relations: surface -> key suffix (``family.<suffix>``).
FAMILY: Mapping[str, str] = _table(
    """
wife: wife | 老婆 | 妻子 | 太太 | 媳妇 | 媳妇儿 | 夫人 | 内人
husband: husband | 老公 | 丈夫 | 先生
partner: partner | 爱人 | 老伴 | 老伴儿 | 对象 | 另一半
son: son | 儿子
daughter: daughter | 女儿 | 闺女
mother: mother | mom | mum | 妈妈 | 母亲 | 妈
father: father | dad | 爸爸 | 父亲 | 爸
brother: brother | 哥哥 | 弟弟
sister: sister | 姐姐 | 妹妹
grandmother: grandmother | grandma | 奶奶 | 外婆
grandfather: grandfather | grandpa | 爷爷 | 外公
boyfriend: boyfriend | 男朋友
girlfriend: girlfriend | 女朋友
"""
)

_EN_NUMBERS: Mapping[str, int] = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "fifteen": 15,
    "twenty": 20,
    "thirty": 30,
    "a couple of": 2,
    "couple of": 2,
    "a few": 3,
    "few": 3,
    "several": 3,
}
_SUFFIX_MULT: Mapping[str, int] = {
    "k": 1000,
    "thousand": 1000,
    "grand": 1000,
    "m": 1_000_000,
    "mil": 1_000_000,
    "million": 1_000_000,
    # Indian English: "2 lakh" is 200,000, "1.5 crore" 15,000,000
    "lakh": 100_000,
    "lakhs": 100_000,
    "lac": 100_000,
    "lacs": 100_000,
    "crore": 10_000_000,
    "crores": 10_000_000,
    "千": 1000,
    "万": 10_000,
    "w": 10_000,
    "亿": 100_000_000,
}
_AND_A_HALF = re.compile(r"^([a-z]+|\d{1,3})\s+and\s+a\s+half\s+(k|thousand|grand|million|lakh)$")
#: The longest integer part an amount may have (a quadrillion); longer is out of range.
MAX_AMOUNT_DIGITS = 15
_MAX_AMOUNT = 10**MAX_AMOUNT_DIGITS
_ARABIC_RE = re.compile(
    r"^\s*+(\d[\d,]*+(?:\.\d++)?)\s*+([a-z\u4e00-\u9fff]*+)\s*+$", re.IGNORECASE
)
_SLUG_DROP_RE = re.compile(r"[^\w\s-]+", re.UNICODE)
_SLUG_SPACE_RE = re.compile(r"[\s-]+", re.UNICODE)


_CN_NUMERAL_RE = re.compile(
    r"^[0-9.零〇一二两三四五六七八九十百千万亿壹贰叁肆伍陆柒捌玖拾佰仟萬]+$"
)


def _parse_cn_integer(text: str) -> int | None:
    """Chinese numerals, alone or mixed with digits ("两万", "一万五", "一百零五", "1万5",
    "两千五") -> int, or ``None``; read by ``cn2an`` (imported on first use: it takes
    about half a second to load, which only a turn with a Chinese amount pays, once)."""
    if not _CN_NUMERAL_RE.match(text) or not re.search(r"[^0-9.]", text):
        return None
    import cn2an  # lazily: most turns have no Chinese numeral

    try:
        value = cn2an.cn2an(text, "smart")
    except (ValueError, KeyError, IndexError, TypeError):
        return None
    return round(value) if value >= 0 else None


def parse_number(text: str) -> int | None:
    """Parse an amount written in digits, Chinese numerals or with a multiplier suffix.

    Examples: ``"5000"``, ``"20,000"``, ``"5k"``, ``"1.5万"``, ``"两万"``,
    ``"一万五"`` (15000), ``"three"``, ``"$300"`` (currency symbols are ignored).
    Linear in ``len(text)``.

    Args:
        text: the number text.

    Returns:
        The integer value (fractions are rounded), or ``None`` when it is not a number.

    Raises:
        InvalidInputError: a number whose integer part has more than
            :data:`MAX_AMOUNT_DIGITS` digits, or whose value reaches ``10**15``.
    """
    t = text.strip().lower().lstrip("$€£¥￥").strip()
    for unit_word in (
        "dollars",
        "dollar",
        "bucks",
        "buck",
        "euro",
        "pounds",
        "pound",
        "quid",
        "gbp",
        "美元",
        "欧元",
        "英镑",
        "usd",
        "eur",
        "euros",
        "rmb",
        "yuan",
        "aud",
        "cad",
        "nzd",
        "chf",
        "sgd",
        "inr",
        "jpy",
        "元",
        "块钱",
        "块",
        "美金",
        "日元",
        "欧",
    ):
        if t.endswith(unit_word):
            t = t[: -len(unit_word)].strip()
            break
    if not t:
        return None
    if t in _EN_NUMBERS:
        return _EN_NUMBERS[t]
    half = _AND_A_HALF.match(t)
    if half:
        # "two and a half grand" = 2500, "one and a half k" = 1500
        units, scale = parse_number(half.group(1)), _SUFFIX_MULT[half.group(2)]
        return None if units is None else _in_range(units * scale + scale // 2)
    words = _parse_en_words(t)
    if words is not None:
        return _in_range(words)
    m = _ARABIC_RE.match(t)
    if m:
        whole, _, frac = m.group(1).replace(",", "").partition(".")
        if len(whole.lstrip("0")) > MAX_AMOUNT_DIGITS:
            raise InvalidInputError(
                f"amount out of range: {len(whole)} digits (at most {MAX_AMOUNT_DIGITS})"
            )
        number = float(f"{whole}.{frac[:6] or 0}")
        suffix = m.group(2)
        if suffix and suffix not in _SUFFIX_MULT:
            return None
        return _in_range(round(number * _SUFFIX_MULT.get(suffix, 1)))
    if len(t) > 4 * MAX_AMOUNT_DIGITS:
        return None  # no Chinese amount in range is written with this many characters
    # the classical "and" between tens and units: "二十有五" is 25
    value = _parse_cn_integer(re.sub(r"(?<=十)有(?=[一二三四五六七八九]$)", "", t))
    return None if value is None else _in_range(value)


_EN_UNITS: Mapping[str, int] = {
    w: n
    for n, w in enumerate(
        (
            *("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"),
            *("ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen"),
            *("seventeen", "eighteen", "nineteen"),
        )
    )
}
_EN_TENS: Mapping[str, int] = {
    w: 10 * n
    for n, w in enumerate(
        ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"), start=2
    )
}
_EN_SCALES: Mapping[str, int] = {"hundred": 100, "thousand": 1000, "grand": 1000, "million": 10**6}


def _parse_en_words(text: str) -> int | None:
    """ "twenty-nine" -> 29, "twelve hundred" -> 1200, "two thousand five hundred" -> 2500;
    ``None`` unless every word is a number word (at most 8 words)."""
    words = [w for w in re.split(r"[\s-]+", text) if w and w != "and"]
    if len(words) > 1 and words[0] == "a" and words[1] in _EN_SCALES:
        words[0] = "one"  # "a hundred", "a thousand"
    if not words or len(words) > 8 or words[0] in _EN_SCALES:
        return None
    total = current = 0
    for w in words:
        if w in _EN_UNITS:
            current += _EN_UNITS[w]
        elif w in _EN_TENS:
            current += _EN_TENS[w]
        elif w in _EN_SCALES:
            scale = _EN_SCALES[w]
            if scale == 100:
                current = max(current, 1) * 100
            else:
                total += max(current, 1) * scale
                current = 0
        else:
            return None
    return total + current


def _in_range(value: int) -> int:
    if value >= _MAX_AMOUNT:
        digits = len(str(value)) if value < 10**4000 else 4000
        raise InvalidInputError(
            f"amount out of range: {digits} digits (at most {MAX_AMOUNT_DIGITS})"
        )
    return value


def lookup(vocabulary: Mapping[str, str], surface: str) -> str | None:
    """The canonical term for ``surface`` in ``vocabulary`` (case-insensitive), or ``None``."""
    return vocabulary.get(surface.strip().lower())


def slugify(text: str, *, max_words: int = 4) -> str:
    """A key-safe slug: lowercase, punctuation stripped, spaces -> ``_``; CJK is kept.

    Args:
        text: a short phrase ("credit cards", "爵士乐").
        max_words: keep at most this many space-separated words.

    Returns:
        The slug ("credit_cards", "爵士乐"); ``""`` when nothing is left.
    """
    cleaned = _SLUG_DROP_RE.sub(" ", text.lower()).replace("_", " ")
    words = _SLUG_SPACE_RE.split(cleaned.strip())
    return "_".join(w for w in words[:max_words] if w)


_VOCAB_BY_KEY: tuple[tuple[str, Mapping[str, str]], ...] = (
    ("contact.channel", CHANNELS),
    ("allergy.medication", MEDICATIONS),
    ("allergy.food", FOODS),
    ("allergy.other", OTHER_ALLERGENS),
    ("allergy", {**MEDICATIONS, **FOODS, **OTHER_ALLERGENS}),
    ("health.condition", CONDITIONS),
    ("diet", DIETS),
    ("language", LANGUAGES),
    ("industry", INDUSTRIES),
    ("location.country", COUNTRIES),
    ("location.city", CITIES),
    ("family.", FAMILY),
)


_BUDGET_NUMBER = re.compile(
    # the amount ends where Latin letters do not go on ("5 months" is not 5m); a Chinese
    # unit may follow ("8000块", "2万元"), which \b would not allow. Possessive runs that
    # start only at the start of a run keep the search linear on a wall of digits.
    r"[$€£¥￥]?\s*+(?<![\d.,])\d[\d.,]*+\s*(?:k|w|万|千|thousand|grand|million|m)?(?![a-z])"
    r"|(?<![零〇一二两三四五六七八九十百千万亿])[零〇一二两三四五六七八九十百千万亿]++"
)


def canonical_value(key: str, value: str) -> str:
    """The canonical ``normalized`` form of ``value`` for ``key``.

    Known vocabularies map synonyms and Chinese terms to one English spelling
    (``canonical_value("contact.channel", "短信") == "sms"``,
    ``canonical_value("allergy.medication", "青霉素") == "penicillin"``); budgets become
    plain integers (``canonical_value("budget.max", "最多两万") == "20000"``); lists
    ("penicillin and aspirin") become sorted comma-joined terms; anything else is
    lowercased with whitespace collapsed.

    Args:
        key: the slot key.
        value: the value as stated.

    Returns:
        The normalized value.

    Raises:
        InvalidInputError: a budget amount out of range (see :func:`parse_number`).
    """
    v = " ".join(value.strip().split())
    low = v.lower()
    if key.startswith("budget."):
        m = _BUDGET_NUMBER.search(low)
        if m:
            n = parse_number(m.group(0))
            if n is not None:
                return str(n)
        return low
    for prefix, vocab in _VOCAB_BY_KEY:
        if key == prefix or (prefix.endswith(".") and key.startswith(prefix)):
            if low in vocab:
                return vocab[low]
            parts = [
                p.strip()
                for p in re.split(r",|，|、|\band\b|\bor\b|和|及|以及|或者?", low)
                if p.strip()
            ]
            if len(parts) > 1 and all(p in vocab for p in parts):
                return ",".join(sorted({vocab[p] for p in parts}))
    if key.startswith("location.") and low.endswith("市") and low[:-1] in CITIES:
        return CITIES[low[:-1]]
    if key.startswith("location.city") and not low.isascii():
        low = split_country(low)[1]  # "加拿大温哥华": the city
        if low in CITIES:
            return CITIES[low]
    if key.startswith("location.") and not low.isascii():
        # "上海浦东" / "杭州西湖区": the city, not the district
        city = next((c for c in _ZH_CITIES if low.startswith(c) and len(low) - len(c) <= 4), None)
        if city is not None:
            return CITIES[city]
    return low


#: Last words that make "I'm a <phrase>" a job title.
JOB_HEADS: frozenset[str] = _words(
    """engineer developer programmer nurse doctor physician surgeon teacher professor manager
    designer student lawyer attorney accountant scientist analyst consultant writer author architect
    pharmacist dentist chef cook driver pilot researcher founder ceo cto cfo coo owner salesperson
    marketer officer assistant technician mechanic electrician plumber farmer artist musician
    photographer journalist editor secretary clerk cashier banker trader agent administrator admin
    specialist coordinator director executive intern worker therapist psychologist vet veterinarian
    paramedic firefighter soldier retiree economist translator tutor lecturer librarian carpenter
    baker barista waiter waitress bartender recruiter entrepreneur freelancer contractor caregiver
    midwife optometrist physiotherapist statistician mathematician physicist chemist biologist
    investor broker realtor producer director actor actress singer dancer coach trainer
    dev developer swe sre guard nanny cop detective paralegal medic model marine doula priest
    pastor rabbi imam judge
    physio carer cleaner hairdresser barber solicitor postman postwoman courier receptionist
    optician welder lifeguard surveyor dietitian dietician radiographer locksmith roofer joiner
    gardener butcher builder labourer laborer electrician beautician plasterer bricklayer
    sonographer hygienist porter stylist
    """
)

#: Endings that make "我是<phrase>" a job title.
ZH_JOB_SUFFIXES: tuple[str, ...] = (
    "工程师",
    "程序员",
    "设计师",
    "医生",
    "护士",
    "老师",
    "教师",
    "教授",
    "律师",
    "会计",
    "经理",
    "司机",
    "厨师",
    "记者",
    "作家",
    "警察",
    "军人",
    "农民",
    "销售",
    "老板",
    "总监",
    "主管",
    "学生",
    "研究生",
    "博士生",
    "本科生",
    "创始人",
    "店主",
    "主任",
    "分析师",
    "顾问",
    "秘书",
    "编辑",
    "药剂师",
    "牙医",
    "兽医",
    "飞行员",
    "科学家",
    "研究员",
    "工人",
    "职员",
    "公务员",
    "快递员",
    "服务员",
    "营业员",
    "保安",
    "CEO",
    "CTO",
    "产品经理",
    "运营",
    "HR",
    "财务",
    # trades of the street and the counter: "我是外卖骑手", "我在银行做柜员"
    "骑手",
    "柜员",
    "收银员",
    "导游",
    "理发师",
    "健身教练",
    "主播",
    "外卖员",
    "配送员",
    "电工",
    "护工",
    "月嫂",
)

#: Common Chinese surnames (first character of "我是张伟"-style self-introductions).
ZH_SURNAMES: frozenset[str] = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗高郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程苏魏吕丁"
    "任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃"
    "武戴莫孔向汤欧常温康施文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申耿关兰焦俞左柳甘祝包宁尚符"
    "舒阮柯纪梅童凌毕单季裴霍涂成苗谷盛曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆农"
    "司卓古吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷晏席卫米柏宗瞿桂全佟应臧闵苟邬边卞姬师和仇栾隋商"
    "刁沙荣巫寇桑郎甄丛仲虞敖巩明佘池查麻苑迟邝欧诸"
)
#: Two/three-character phrases after "我是" that start like a surname but are not names.
ZH_NOT_NAMES: frozenset[str] = frozenset(
    [
        "高手",
        "新手",
        "高中",
        "高兴",
        "文盲",
        "明星",
        "华人",
        "关键",
        "全职",
        "单身",
        "安全",
        "常客",
        "老板",
        "老师",
        "老大",
        "白领",
        "金主",
        "万能",
        "和平",
        "司机",
        "路人",
        "游客",
        "成年",
        "时候",
        "应该",
        "谁",
        "方便",
        "黄金",
        "石头",
        "房东",
        "房客",
        "向导",
        "左撇子",
        "师傅",
        "管理",
        "管家",
        "康复",
        "宁愿",
        "江湖",
        "武汉",
        "温州",
        "成都",
        "常州",
        "金华",
        "高邮",
        "包头",
        "吉林",
        "安徽",
        "江西",
        "江苏",
        "海南",
        "宁波",
        "宁夏",
        "贵州",
        "云南",
        "石家庄",
        "苏州",
        "杭州",
    ]
)

#: "forget my <topic>" -> the key (or key prefix) to revoke.
FORGET_TOPICS: Mapping[str, str] = _table(
    """
location.address: address | home address | shipping address
location.address: 地址 | 住址 | 家庭住址
location.address: 收货地址
location: location | where i live | 位置
location.city: location.city | city | 城市
location.country: location.country | country
allergy: allergy | allergies | 过敏 | 过敏史 | 过敏信息
allergy.medication: allergy.medication | medication allergy | medication allergies | drug allergies
allergy.food: allergy.food | food allergies | food allergy
budget: budget | 预算
diet: diet | dietary preferences | 饮食
name: name | 名字 | 姓名
name.preferred: name.preferred | nickname
job.title: job.title | job | job title | occupation | 工作 | 职业
industry: industry | 行业
language: language | language preference | 语言
health: health | 健康
health.condition: health.condition | health condition | condition | 病史
contact: contact preferences | contact preference | 联系偏好
contact.channel: contact | contact info | contact information | contact details
contact.channel: 联系方式 | 联系信息
contact.channel: phone number | email address | 电话号码 | 电话 | 邮箱 | 邮箱地址
contact.channel: contact.channel | notification preferences
contact.quiet_hours: contact.quiet_hours | quiet hours
family: family | 家人
timezone: timezone | time zone | 时区
seat: seat | seat preference | 座位
interest: interest | interests
device: device | devices | 设备
"""
)

#: Words that are never the object of a taste / interest / recommendation key.
#: Appointments one "has" on a day, said without a measure word ("我周五有面试", "我明天有航班"):
#: the event handler reads them as it reads "有个面试" (English: "I have a flight tomorrow").
ZH_APPOINTMENTS: tuple[str, ...] = (
    "面试",
    "笔试",
    "考试",
    "答辩",
    "手术",
    "体检",
    "复查",
    "复诊",
    "航班",
    "飞机",
    "婚礼",
    "比赛",
    "演出",
    "会议",
    "例会",
    "讲座",
    "路演",
    "出差",
    "约会",
)

#: Everyday Chinese list items (foods, dishes, cuisines, drinks, animals, pastimes, topics)
#: that people run together without a separator ("日料寿司拉面啥的", "虾蟹都过敏", "猫狗都
#: 有"): a run made wholly of these words (and of the Chinese words of the allergen, drug and
#: condition tables) is read as its items. Single characters stand only for foods and animals.
ZH_LIST_WORDS: frozenset[str] = _words(
    """
    虾 蟹 鱼 鸡 鸭 鹅 牛 羊 猪 蛋 奶 茶 酒 猫 狗 兔 蒜 葱 姜 醋
    韩料 西餐 中餐 快餐 火锅 烧烤 串串 麻辣烫 麻辣香锅 冒菜 寿司 拉面 刺身 披萨 汉堡 薯条 炸鸡
    牛排 意面 沙拉 饺子 包子 馄饨 面条 米饭 米粉 螺蛳粉 臭豆腐 榴莲 香菜 芹菜 苦瓜 茄子 韭菜 洋葱
    大蒜 生姜 肥肉 内脏 肥肠 猪肝 羊肉 牛肉 猪肉 鸡肉 鸭肉 鱼肉 海鲜 贝类 生蚝 扇贝 小龙虾 大闸蟹
    川菜 湘菜 粤菜 鲁菜 东北菜 西北菜 江浙菜 本帮菜 泰餐 越南菜 印度菜 日料 韩餐 法餐 意餐
    甜食 甜品 蛋糕 冰淇淋 巧克力 零食 辣条 咖啡 奶茶 可乐 啤酒 白酒 红酒 果汁 酸奶 豆浆 牛奶
    水果 蔬菜 西瓜 苹果 香蕉 葡萄 橙子 草莓 芒果 菠萝 桃子 荔枝
    猫咪 狗狗 兔子 仓鼠 乌龟 金鱼 鹦鹉 鸟
    股票 基金 期货 理财 保险 贷款 信用卡 游戏 网游 手游 直播 短视频 课程 培训班 网课 保健品
    减肥药 化妆品 护肤品 彩票
    钓鱼 爬山 徒步 跑步 游泳 健身 瑜伽 骑行 露营 滑雪 篮球 足球 羽毛球 乒乓球 网球 象棋 围棋
    摄影 画画 书法 唱歌 跳舞 追剧 看书 阅读 旅游 旅行 做饭 烘焙 养花 种菜 编程 动漫 二次元
    下棋 逛街 散步 遛狗 喝茶
    电影 音乐 历史 军事 科技 数码 汽车 花粉 尘螨 猫毛 狗毛 乳胶
    支付宝 微信 现金 银联 借记卡
    """
)

TOPIC_STOP: frozenset[str] = _words(
    """it that this these those them you your yourself him her his me us what how when why if
    there here something anything everything nothing more one ones some any idea the_idea so
    lot a_lot way doing being to 你 他 她 它 这 那 这个 那个 这样 那样 什么 一下 你们 他们 她们
    自己 东西 上 一点 一点点 一些 一点儿"""
)

#: A Chinese request or politeness word, alone: "请", "麻烦你", "帮我", "也请", "您以后",
#: "以后请". A rule that reads a fronted topic ("股票别推荐了") must not take it for the topic
#: ("请不要推荐…" / "麻烦别推荐…" / "帮我别推…" name nothing the user refuses).
REQUEST_ZH = re.compile(
    r"^(?:以后|今后|之后|往后|下次)?(?:也|还|烦|恳|敬|诚)?(?:请|麻烦|拜托|劳驾|求求|求|帮我|帮忙|帮帮忙|帮个忙)?"
    r"(?:你|您|你们|您们|大家)?(?:以后|今后|之后|往后|下次|再)?(?:也|都|就|千万|可|一定|务必)?$"
)


#: A person is no taste, interest or topic: "我喜欢上一个女孩", "我爱上了个人".
PERSON_ZH = re.compile(
    r"^(?:上了?)?(?:一个|一位|个|那个|这个)?(?:女孩|男孩|女生|男生|姑娘|小伙子?|帅哥|美女|人)(?:子|儿)?$"
)


def is_request_word(text: str) -> bool:
    """Whether ``text`` is only a request / politeness word ("请", "麻烦你", "帮我")."""
    t = text.strip()
    return bool(t) and REQUEST_ZH.match(t) is not None


#: After a bare "I'm in": first words that are not a place ("I'm in Finance", "in March").
NOT_PLACE: frozenset[str] = _words(
    """january february march april may june july august september october november december
    monday tuesday wednesday thursday friday saturday sunday love charge bed school college
    class church office hospital trouble town utc gmt sales marketing it hr english chinese
    pst pdt est edt cst cdt mst mdt cet cest bst jst aest aedt sgt hkt ist"""
)

#: Capitalised words that are not a name after "I'm".
NAME_STOP: frozenset[str] = _words(
    """i im sorry fine good ok okay sure here back ready happy sad tired busy not so very just also
    glad done new home free available interested looking going trying thinking still really
    american chinese british english german french japanese korean indian canadian australian
    vegan vegetarian pregnant allergic diabetic single married retired divorced hungry sick well
    alive from in at on with the a an afraid aware confused curious excited fed
    important hard difficult spelled spelt pronounced long short common rare weird unusual
    tricky easy special misspelled
    ist jst cet cest est edt pst pdt gmt bst aest aedt sgt hkt cst cdt mst mdt utc"""
) | _words(
    # nationalities: "I'm Irish" / "I'm Nigerian, based in Lagos" name nobody
    """afghan albanian algerian argentine argentinian armenian austrian azerbaijani
        bangladeshi belarusian belgian bolivian bosnian brazilian bulgarian cambodian
        cameroonian chilean colombian congolese croatian cuban cypriot czech danish dutch
        ecuadorian egyptian emirati english eritrean estonian ethiopian filipino filipina
        finnish georgian ghanaian greek guatemalan haitian honduran hungarian icelandic
        indonesian iranian iraqi irish israeli italian ivorian jamaican jordanian kazakh
        kenyan kuwaiti kyrgyz lao latvian lebanese libyan lithuanian luxembourgish
        malaysian maltese mexican moldovan mongolian montenegrin moroccan nepali nepalese
        nigerian norwegian omani pakistani palestinian panamanian paraguayan persian peruvian
        polish portuguese qatari romanian russian rwandan saudi scottish senegalese serbian
        singaporean slovak slovenian somali spanish sri lankan sudanese swedish swiss syrian
        taiwanese tajik tanzanian thai tunisian turkish ugandan ukrainian uruguayan uzbek
        venezuelan vietnamese welsh yemeni zambian zimbabwean kiwi aussie brit latina latino
    european african asian hispanic arab"""
)


#: Traditional -> simplified characters that user statements use (one character each, so
#: the text keeps its length): "我對蝦過敏", "請用繁體中文回覆", "十二月二十四號".
_T2S_PAIRS = (
    "對对過过蝦虾號号請请體体覆复歡欢喜喜們们這这個个來来為为會会說说話话時时間间點点電电"
    "聯联繫系絡络郵邮發发訊讯復复麼么還还於于幾几歲岁愛爱車车飛飞機机場场開开關关讓让給给"
    "從从後后頭头買买賣卖錢钱貴贵萬万塊块書书習习語语門门問问題题氣气戶户務务價价過过歷历"
    "媽妈爺爷奶奶兒儿孫孙貓猫狗狗養养隻只條条魚鱼雞鸡鴨鸭豬猪牛牛羊羊蝦虾蟹蟹麵面飯饭菜菜"
    "藥药醫医療疗糖糖尿尿壓压證证病病敏敏癥症腎肾臟脏腦脑嚴严職职業业師师員员計计師师經经"
    "劃划導导總总長长齊齐試试搬搬遷迁灣湾臺台東东廣广瀋沈蘇苏錫锡漢汉門门寧宁鄉乡區区窗窗"
    "靠靠邊边艙舱級级館馆廳厅層层樓楼樂乐視视頻频戲戏運运動动讀读寫写畫画遊游釣钓攝摄影影"
    "簡简單单詳详細细長长短短適适應应變变稱称號号碼码帳账單单銀银轉转現现貨货費费預预算算"
    "晚晚間间擾扰醒醒睡睡覺觉別别擔担煩烦謝谢禮礼貌貌錄录記记憶忆刪删除除確确認认總总"
    # the common traditional forms of foods, places, surnames, hobbies and conditions
    # ("我不太喜歡吃海鮮", "我會講法語", "我住在臺灣"), characters only traditional text uses
    "鮮鲜講讲興兴燒烧餃饺飲饮湯汤餅饼鹹咸醬酱蔥葱薑姜鵝鹅貝贝魷鱿鰻鳗鮭鲑鱈鳕龍龙鳳凤麥麦穀谷蘿萝蔔卜蘋苹籃篮網网騎骑術术練练"
    "彈弹鋼钢劇剧綜综藝艺賽赛隊队線线紅红綠绿藍蓝黃黄顏颜聽听聾聋鍵键盤盘標标準准頁页圖图錶表溫温華华製制紐纽約约倫伦韓韩國国"
    "義义蘭兰亞亚歐欧舊旧磯矶廈厦濟济陽阳鄭郑崑昆烏乌魯鲁爾尔濱滨慶庆鎮镇縣县莊庄賓宾舖铺煙烟張张劉刘陳陈楊杨趙赵吳吴馮冯蔣蒋"
    "許许鄧邓蕭萧馬马葉叶鍾钟譚谭陸陆賴赖盧卢羅罗鄒邹閻阎顧顾遠远離离無无靜静鬧闹雙双鵬鹏積积鑽钻寶宝龜龟鳥鸟鸚鹦鵡鹉倉仓寵宠"
    "婦妇訂订戀恋喪丧護护專专設设軟软銷销財财險险資资產产貿贸農农學学傳传輸输創创畢毕碩硕課课憂忧鬱郁慮虑癲癫癇痫膚肤塵尘蟎螨"
    "黴霉膠胶麩麸質质堅坚類类熱热劑剂維维鈣钙鐵铁鋅锌針针註注幣币優优賬账繳缴額额粵粤閩闽該该嗎吗誰谁裡里裏里兩两億亿沒没與与"
    "將将須须幫帮討讨厭厌慣惯訴诉聲声調调態态潔洁驟骤結结論论範范舉举輕轻鬆松隨随勵励親亲肅肃連连週周齡龄紀纪曆历陰阴夢梦懶懒"
    "園园飪饪織织縫缝編编閱阅營营衝冲潛潜擊击極极圍围橋桥滷卤鍋锅燉炖飽饱餓饿澀涩膩腻噁恶嚐尝嘗尝檸柠槤莲櫻樱濕湿潤润腸肠瀉泻"
    "脹胀痺痹腫肿癢痒蕁荨頸颈腳脚臉脸鏡镜齒齿鬍胡髮发紮扎綁绑襪袜褲裤購购遞递驗验隱隐權权備备雲云儲储檔档數数據据統统報报稅税"
    "貸贷匯汇換换兌兑種种賤贱環环淨净髒脏亂乱涼凉悶闷風风颱台霧雾噸吨釐厘讚赞僅仅樣样啟启際际廠厂漁渔灑洒燈灯爐炉牆墙狀状獨独"
    "獲获癮瘾盡尽監监礙碍禍祸穩稳窮穷競竞筆笔節节糧粮紙纸組组絕绝絲丝緊紧繼继續续罰罚聖圣聞闻艱艰虛虚蟲虫螞蚂蟻蚁衛卫裝装複复"
    "覽览觸触詢询詩诗誤误諮咨謂谓識识豐丰豈岂賀贺賞赏趕赶趨趋跡迹躍跃軍军較较載载輛辆輪轮辦办違违選选遺遗鄰邻釋释銅铜錯错鍛锻"
    "靈灵榮荣閃闪閒闲閣阁陣阵雜杂難难靈灵響响頂顶項项順顺領领顆颗驚惊鬥斗鹽盐麗丽黨党孃娘牠它妳你祂他辭辞係系"
    "啞哑團团壇坛實实廚厨擁拥擠挤櫃柜減减漿浆當当處处薦荐螢萤頓顿駕驾駛驶鐘钟輔辅獎奖滿满雖虽觀观"
    "誌志諾诺壽寿滾滚餚肴饅馒鍊炼夠够協协傷伤勢势參参壞坏奮奋嬰婴屆届屬属災灾爭争獻献膽胆補补議议"
    "軌轨遲迟閉闭驢驴譯译"  # "幫我翻譯：…"
    "姊姐"  # "我姊姊對貓過敏": Taiwanese 姊姊 is 姐姐
    "閨闺"  # "我閨蜜對花生過敏"
)
T2S: Mapping[int, str] = {
    ord(_T2S_PAIRS[i]): _T2S_PAIRS[i + 1]
    for i in range(0, len(_T2S_PAIRS) - 1, 2)
    if _T2S_PAIRS[i] != _T2S_PAIRS[i + 1]
}

#: Misspellings users type, as ``right: wrong | wrong`` rows (whole words, any case).
TYPOS: Mapping[str, str] = _table(
    """
allergic: alergic | allergik | alergik | allegic
allergy: alergy | allergie
allergies: alergies
budget: budjet | buget | bugdet
vegetarian: vegitarian | vegeterian | vegetarain | vegatarian
vegan: vegen
prefer: perfer | prefere
definitely: definately
tldr: tl;dr | tl:dr | tl dr
i'm: im
i've: ive
don't: dont
can't: cant
doesn't: doesnt
isn't: isnt
didn't: didnt
won't: wont
wouldn't: wouldnt
aren't: arent
wasn't: wasnt
weren't: werent
haven't: havent
hasn't: hasnt
couldn't: couldnt
shouldn't: shouldnt
that's: thats
she's: shes
he's: hes
they're: theyre
you're: youre
through: thru
please: plz | pleez
intolerant: intollerant | intolerent
penicillin: penicilin | pencillin | penicillen | penecillin
ibuprofen: ibuprophen | ibuprofin
paracetamol: paracetemol | paracetomol
asthma: asthama | athsma
text: txt
texts: txts
message: msg
migraines: migranes | migrains
migraine: migrane | migrain
premium economy: premium eco | prem eco | premium econ | prem economy
business class: biz class | bizz class | business cls
fly economy: fly coach | flying coach
book me economy: book me coach | book me in coach
"""
)
_TYPO_RE = re.compile(
    r"(?<![\w;:])("
    + "|".join(re.escape(w) for w in sorted(TYPOS, key=len, reverse=True))
    + r")(?!\w)",
    re.IGNORECASE,
)


#: Chinese dialect pronouns and miswritten words, as ``right: wrong | wrong`` rows: "俺叫李铁柱"
#: and "咱就爱吃饺子" speak of the user like "我" does; "我的名子" is "我的名字".
ZH_TYPOS: Mapping[str, str] = _table(
    """
我: 俺 | 咱 | 我这人 | 我这个人
名字: 名子
素食主义: 素食主意
再也不: 在也不
已经: 以经
应该: 因该
座位: 坐位
"""
)
_ZH_TYPO_RE = re.compile("|".join(re.escape(w) for w in sorted(ZH_TYPOS, key=len, reverse=True)))


#: Chat shorthand mixed into Chinese, as (pattern, replacement): "vx我" / "wx联系" is WeChat,
#: "base上海" lives there, "别call我" asks for no calls, "灰常" is 非常, "本人" opening a
#: clause is the user.

#: A time gone by before 我 in the same clause: "上学那会儿", "以前", "小时候", "大学时", "从小".
_SINCE_THEN_ZH = re.compile(
    r"(?:以前|之前|小时候|从小|自小|打小|当年|那(?:时候?|会儿?|几年|阵子?)"
    r"|(?:上学|读书|念书|上大学|大学|高中|初中|小学|刚毕业|年轻)(?:的)?(?:时候?|那会儿?))[^，,。.!！?？；;]{0,3}$"
)


def _stress_ju(m: re.Match[str]) -> str:
    return m.group(0) if _SINCE_THEN_ZH.search(m.string, 0, m.start() - 1) else ""


_CHAT_ZH: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...] = (
    (re.compile(r"(?<![A-Za-z])(?:vx|VX|Vx|wx|WX|[vV]信|薇信)(?![A-Za-z])"), "微信"),
    (re.compile(r"(?<![A-Za-z])[bB]ase(?:在)?\s*(?=[\u4e00-\u9fff])"), "住在"),
    (re.compile(r"(?<![A-Za-z])[cC]all\s*我"), "打电话给我"),
    (re.compile(r"灰常"), "非常"),
    # a name given without "我": "本名张伟，叫我大伟吧", "真名是李娜" (the user's own)
    (
        re.compile(r"(?:^|(?<=[，,。！!\s]))(?:本名|真名|全名)(?:是|叫)?\s*(?=[\u4e00-\u9fff])"),
        "我本名叫",
    ),
    # a reading said to run high, however softly, and treated: "血压有点高，在吃药控制" is
    # 血压高 (a reading "有点高" alone may be today's, and stays as it is)
    (
        re.compile(
            r"(血压|血糖|血脂|尿酸)(?:有点儿?|有些|也|都|本来就)*(?:偏|比较|稍微|稍|略|挺)?高"
            r"(?=[，,]?\s*(?:现在|目前|一直|平时|每天|天天)?(?:在|要|得|靠)?(?:吃药|用药|服药|打胰岛素))"
        ),
        r"\1高",
    ),
    # "我其实很爱吃香菜" is "其实我很爱吃香菜": the stance word before the subject, where the
    # rules read it (其实 still marks a correction)
    (re.compile(r"(?:^|(?<=[，,。！!？?\s]))我(其实|实际上)(?=[\u4e00-\u9fff])"), r"\1我"),
    # a telling opener said aloud (voice input): "我跟你说啊我那个表姐她…" is "我那个表姐她…"
    (
        re.compile(
            r"(?:^|(?<=[，,。！!？?\s]))我?(?:跟你|和你|跟您)(?:说|讲)(?!过|的|了|一声|实话)"
            r"(?:啊|哈|哦|呀|吧|个事儿?|件事儿?)?\s*(?=[\u4e00-\u9fff])"
        ),
        "",
    ),
    # English words typed inside a Chinese sentence ("我比较prefer微信支付", "我是freelancer",
    # "我lactose intolerant", "我在做PM"): read as the Chinese words the rules know
    (re.compile(r"(?<=[\u4e00-\u9fff])\s*(?i:prefer)\s*(?=[\u4e00-\u9fff])"), "喜欢"),
    # "我是freelance设计师", "我是自由职业设计师": the status and the trade, each said
    (
        re.compile(
            r"(?<=[是当做])\s*(?:(?i:a\s+)?(?i:freelancer|freelance)|自由职业者?)\s*(?:的)?(?=(?:"
            + "|".join(ZH_JOB_SUFFIXES)
            + r")(?:$|[，。,.!！\s]))"
        ),
        "自由职业者，做",
    ),
    (re.compile(r"(?<=[是当做])\s*(?i:a\s+)?(?i:freelancer|freelance)(?![A-Za-z])"), "自由职业者"),
    (re.compile(r"(?<=[\u4e00-\u9fff])\s*(?i:lactose\s+intolerant)\b"), "乳糖不耐受"),
    (re.compile(r"(?<=[\u4e00-\u9fff])\s*(?i:gluten\s+intolerant)\b"), "麸质不耐受"),
    (re.compile(r"(?<=[是当做])\s*PM(?![A-Za-z])"), "产品经理"),
    # "小学老师一枚", "程序员一枚": a self-label said with 一枚 is "我是…"; "我在做销售",
    # "我现在当老师": a job done is a job held ("我做会计的" is read by the job rows)
    (
        re.compile(r"(?:^|(?<=[，,。！!\s]))(?:我|本人)?([\u4e00-\u9fffA-Za-z]{2,10}?)一枚"),
        r"我是\1",
    ),
    (
        re.compile(
            r"(?<=我)(?:现在|目前)?(?:在)?(?:做|当)(?=(?:"
            + "|".join(ZH_JOB_SUFFIXES)
            + r")(?:$|[，。,.!！\s]|呢|啦))"
        ),
        "是",
    ),
    (re.compile(r"(?:^|(?<=[，,。！!？?；;：:\s]))本人(?=[\u4e00-\u9fff])"), "我"),
    # a pastime said with a doubled verb, "钓钓鱼爬爬山", "散散步", is the pastime (a known
    # verb-object pair only: "逛逛博物馆" keeps its doubled verb for the rows that trim it,
    # "下下周" is the week after next)
    (
        re.compile(
            r"(钓|爬|看|逛|散|遛|下|喝|唱|跳|跑|游|打|练|种|聊|弹|拍)\1"
            r"(?=(?<=钓)鱼|(?<=爬)山|(?<=看)书|(?<=逛)街|(?<=散)步|(?<=遛)狗|(?<=下)棋|(?<=喝)茶"
            r"|(?<=唱)歌|(?<=跳)舞|(?<=跑)步|(?<=游)泳|(?<=打)球|(?<=练)字|(?<=种)[花菜]|(?<=聊)天"
            r"|(?<=弹)琴|(?<=拍)照)"
        ),
        r"\1",
    ),
    # a rough amount: "十来万" is about 十万, "两千来块" about 两千; two neighbouring digits
    # before a scale are a range, "两三百" is 两百到三百, "一两万" 一万到两万 (a scale of
    # 百 / 千 / 万 only: "三四十岁", "两三个" stay as they are)
    (re.compile(r"(?<=[十百千])来(?=万|千|块|元)"), ""),
    (
        re.compile(
            r"(?<![零〇一二两三四五六七八九十百千万亿\d])(一两|两三|三四|四五|五六|六七|七八|八九)([百千万])"
        ),
        lambda m: f"{m.group(1)[0]}{m.group(2)}到{m.group(1)[1]}{m.group(2)}",
    ),
    # Cantonese written as it is spoken (after the traditional -> simplified step, so 係 is
    # 系 here): "我住喺香港", "我唔食猪肉嘅", "我由广州搬咗去香港", "我仲係單身", "佢哋",
    # "一万蚊", "要係我識講日文", "頭先講錯咗". Only words that are no Mandarin word.
    (re.compile(r"唔该|唔該"), "谢谢"),
    (re.compile(r"唔好(?=再|推|打|发|用|叫|俾|畀|同|搵|[A-Za-z])"), "不要"),
    (re.compile(r"唔"), "不"),
    (re.compile(r"(?<=搬)咗(?=去|到|来)"), ""),
    (re.compile(r"喺"), "在"),
    (re.compile(r"咗"), "了"),
    (re.compile(r"嘅"), "的"),
    (re.compile(r"冇"), "没有"),
    (re.compile(r"佢哋|佢地"), "他们"),
    (re.compile(r"我哋|我地(?=[\u4e00-\u9fff])(?!地)"), "我们"),
    (re.compile(r"佢"), "他"),
    (re.compile(r"俾(?=我)"), "给"),
    (re.compile(r"搵(?=我)"), "找"),
    (re.compile(r"睇"), "看"),
    (re.compile(r"而家"), "现在"),
    (re.compile(r"头先"), "刚才"),
    (re.compile(r"讲错"), "说错"),
    (re.compile(r"钟意"), "喜欢"),
    (re.compile(r"推介"), "推荐"),
    (re.compile(r"(?<=[我你他都就也仲不要真])系(?![统列数])"), "是"),
    (re.compile(r"(?:^|(?<=[，,。\s]))系(?=[我你他])"), "是"),
    (re.compile(r"(?<=[日期])系(?=[一二三四五六七八九十\d])"), "是"),
    (re.compile(r"(?:(?<![\u4e00-\u9fff])|(?<=我))仲(?=[是有在未要会])"), "还"),
    (re.compile(r"(?<=[我不欢])食(?![物品堂谱材量欲])"), "吃"),
    (re.compile(r"(?<=[\d一二两三四五六七八九十百千万])蚊"), "块"),
    (re.compile(r"识(?=讲|说|听|写|用|开|游|做)"), "会"),
    # "叫我阿玲就得啦": Cantonese 得 is "行" (it will do)
    (re.compile(r"(?<=就)得(?:啦|了|喇)?(?=$|[，,。.！!])"), "行"),
    # regional synonyms read as the word the rules know: 联络/讯息 (Taiwan, HK), 走道 (the
    # aisle), 廿 in dates, 偏爱, a province before its city ("浙江省杭州市")
    (re.compile(r"联络"), "联系"),
    (re.compile(r"讯息"), "消息"),
    (re.compile(r"靠走道|走道"), "靠过道"),
    (re.compile(r"廿"), "二十"),
    (re.compile(r"偏爱"), "喜欢"),
    (re.compile(r"平日里|平日|平常日子"), "平时"),
    # a hedge on what the user knows of themselves: "我应该算是个素食者吧", "我差不多算退休了",
    # "我今年应该四十二了", "我基本不吃辣" (a doubt such as 好像 / 可能 对X过敏 stays a doubt)
    (re.compile(r"(?<=我)(?:应该|大概|差不多|也)?算是"), "是"),
    (re.compile(r"(?<=我)(?:差不多|基本(?:上)?)算(?=[\u4e00-\u9fff])"), ""),
    (re.compile(r"(?<=我今年)(?:应该|大概|差不多)(?:有)?(?=[一二三四五六七八九十\d])"), ""),
    (re.compile(r"(?<=我)基本(?:上)?(?=不|没|只)"), ""),
    (re.compile(r"打小(?:起)?"), "从小"),
    (re.compile(r"(?:^|(?<=[，,。！!？?；;：:\s]))(?:敝人|鄙人|在下)(?=[\u4e00-\u9fff])"), "我"),
    (re.compile(r"爱死了?(?=[\u4e00-\u9fffA-Za-z])"), "超爱"),
    (re.compile(r"[\u4e00-\u9fff]{2,3}省(?=[\u4e00-\u9fff]{2,4}市)"), ""),
    (re.compile(r"(?<=[向给对跟和与])本人"), "我"),
    (re.compile(r"(?<=我)住的(?:地方|城市)?是(?=[\u4e00-\u9fff]{2})"), "住在"),
    # Northeastern: "贼稀罕吃酸菜饺子" is "特别喜欢吃"
    (re.compile(r"贼(?=[喜爱稀好能])"), "特别"),
    (re.compile(r"稀罕(?=吃|喝|看|玩|听)"), "喜欢"),
    # a correction of a number or a name in one breath: "我不是35，是36岁", "预算不是一万，是
    # 一万二", "我不叫李明，是李敏" read as what it corrects to ("我是36岁", "我叫李敏"); the
    # value taken back is not read as the user's
    (
        re.compile(
            r"不是[^，,。！!？?；;]{1,10}[，,]\s*(?:而)?是(?=[\d一二两三四五六七八九十百千万]"
            r"[\d一二两三四五六七八九十百千万块元岁kK]*(?:$|[，,。！!；;岁块元kK吧啦哈]))"
        ),
        "是",
    ),
    (
        re.compile(
            r"不叫[^，,。！!？?；;]{1,8}[，,]\s*(?:而)?(?:是|叫)(?![我你他她])(?=[\u4e00-\u9fff])"
        ),
        "叫",
    ),
    # an age said with 是 ("我是36岁") is the age
    (re.compile(r"(?<=我)是(?=[\d一二三四五六七八九十]{1,3}岁)"), ""),
    # the birthday said after its date: "10月8号是我生日", "下周三...": "我生日是10月8号"
    (
        re.compile(
            r"(?:(?:下下|下|这|本)(?:周|个?月))?((?:\d{4}年)?[\d一二三四五六七八九十]{1,2}月"
            r"[\d一二三四五六七八九十]{1,3}[号日])(?:就|正好|刚好)?是我(?:的)?生日"
        ),
        r"我生日是\1",
    ),
    # "我就住东京", "我就在深圳": 就 stresses the place and changes nothing; after a time
    # gone by ("上学那会儿我就住在成都", "以前我就在深圳") it says the fact goes on since then,
    # and is kept for the past-state check
    (re.compile(r"(?<=我)就(?=住|在[\u4e00-\u9fff]{2})"), _stress_ju),
    # a job done at an employer with 干 is the job held: "我在华为干硬件工程师"
    (re.compile(r"(在[\u4e00-\u9fffA-Za-z]{2,6}?)干(?=[\u4e00-\u9fff]{2})"), r"\1做"),
)
#: A space typed between two Chinese words ends a clause ("芒果过敏 吃了会肿"), and so does
#: an emoji right after Chinese text ("今年刚满十八岁🎉", "坐标成都🐼"): a comma is put there.
#: (and before an address given after the words: "以后发我邮箱吧 a@b.com")
_ZH_SPACE_BREAK = re.compile(
    r"(?<=[\u4e00-\u9fff])[ \u3000]+(?=[\u4e00-\u9fff])"
    r"|(?<=[吧啊呀哈哦呢了的])[ \u3000]+(?=[\w.+-]+@[\w-]+\.[\w.]+)"
)
_ZH_EMOJI_BREAK = re.compile(r"(?<=[\u4e00-\u9fff])(?=[\u2600-\u27bf\U0001f000-\U0001faff])")


#: Form fields typed as "label：value" (customer-service forms, profiles pasted in): read as
#: the first-person sentence the label stands for, ``(label alternation, template)``:
#: "出生日期：1958年3月12日" is "我的生日是1958年3月12日", "过敏史：青霉素、海鲜" is
#: "我对青霉素、海鲜过敏". The value runs to the end of its sentence.
FORM_FIELDS_ZH: tuple[tuple[str, str], ...] = (
    (r"姓名|名字|全名|真实姓名", "我叫{v}"),
    (r"昵称|称呼", "叫我{v}"),
    (r"出生日期|出生年月日?|生日|出生日", "我的生日是{v}"),
    (r"年龄|年纪|岁数", "我今年{v}"),
    (
        r"(?:食物|药物|药品)?过敏史|过敏源|过敏原|过敏(?:物|情况)|(?:食物|药物|药品)过敏",
        "我对{v}过敏",
    ),
    (r"(?:既往)?病史|慢性病|基础病|疾病史", "我有{v}"),
    (r"(?:长期|日常|常规|目前|正在)?用药(?:情况)?|(?:长期|日常)服用药物", "我长期服用{v}"),
    (r"(?:常用)?(?:付款|支付)方式(?:偏好)?", "我用{v}付款"),
    (
        r"(?:现)?(?:居住地址|常住地址|家庭住址|居住地|居住城市|所在城市|常住地|现居地|现住址)",
        "我住在{v}",
    ),
    (r"职业|工作|职务|岗位", "我的职业是{v}"),
    (r"婚姻状况|婚姻状态|婚否", "我{v}"),
    (r"座位(?:偏好|要求|喜好)", "我喜欢{v}的座位"),
    (r"(?:常旅客|会员|里程)计划|常旅客(?:会员)?", "我是{v}会员"),
    (r"房间(?:要求|偏好|需求)|住宿要求", "我要{v}的房间"),
    (r"(?:业余)?爱好|兴趣爱好|兴趣", "我的爱好是{v}"),
    (r"联系方式偏好|(?:首选|偏好的?)联系方式", "请用{v}联系我"),
)
_FORM_RX = re.compile(
    r"(?:^|(?<=[。；;！!\n]))\s*(?:我的?|本人)?(?:"
    + "|".join(f"(?P<f{i}>{label})" for i, (label, _) in enumerate(FORM_FIELDS_ZH))
    + r")\s*[：:]\s*(?P<v>[^。；;！!？?\n]{1,40})"
)


def _form_field(m: re.Match[str]) -> str:
    i = next(int(g[1:]) for g, v in m.groupdict().items() if v and g != "v")
    return FORM_FIELDS_ZH[i][1].format(v=m.group("v").strip())


def form_fields_zh(text: str) -> str:
    """Chinese form fields ("婚姻状况：已婚") read as the first-person sentence."""
    return _FORM_RX.sub(_form_field, text)


def chat_zh(text: str) -> str:
    """Chinese chat habits read as plain text: shorthand (``_CHAT_ZH``) and a space or an
    emoji after Chinese words as a clause break. Text without Chinese is returned as is."""
    if not any("\u4e00" <= ch <= "\u9fff" for ch in text):
        return text
    for rx, repl in _CHAT_ZH:
        text = rx.sub(repl, text)
    text = form_fields_zh(text)
    text = _ZH_SPACE_BREAK.sub("，", text)
    return _ZH_EMOJI_BREAK.sub("，", text)


#: Stance adverbs and chat hedges that colour a clause without changing what it states
#: ("I'd honestly rather ...", "I genuinely can't stand ...", "tbh i'm vegan"). They are
#: dropped before the rules read a turn, so no row has to allow for them; "really" only
#: between two words ("not really" keeps its weakening), "actually" is kept (it marks a
#: correction), and sarcasm words ("totally", "sure") are kept for the gate.
_FILLER_RE = re.compile(
    r"(?:(?<=\s)|^)(?:honestly|frankly|genuinely|seriously|literally|basically|personally"
    r"|truthfully|ngl|tbh|tbf|to\s+be\s+honest|to\s+be\s+fair|if\s+i'm\s+honest|hands\s+down"
    r"|(?<=[a-z]\s)really(?=\s+[a-z])(?<!not\sreally))(?:\s*,\s*|\s+|(?=[.!?]|$))",
    re.IGNORECASE,
)

#: Asides that close a clause without changing what it states ("I'm Priya by the way",
#: "I'm 41 if that matters", "I'm left-handed, if that changes anything"): dropped with
#: the comma before them, so the clause ends where its fact does.
_ASIDE_RE = re.compile(
    r"(?<=\S)(?:\s*,\s*|\s+)(?:by\s+the\s+way|btw|fyi|fwiw|for\s+what\s+it'?s\s+worth|just\s+so\s+you\s+know"
    r"|if\s+(?:that|it|this)\s+(?:matters|helps|changes\s+anything|makes\s+(?:a|any)\s+difference"
    r"|is\s+(?:relevant|useful|important))|in\s+case\s+(?:that|it|this)\s+(?:matters|helps"
    r"|is\s+(?:relevant|useful)))(?=\s*(?:[.!?,;]|$))",
    re.IGNORECASE,
)


#: Context openers at a sentence's start ("fyi aspirin gives me a rash", "for context,
#: I'm a nurse", "please no Klarna"): they introduce the fact and state nothing, so rules
#: anchored at the start read what follows them.
_OPENER_RE = re.compile(
    r"(?:^|(?<=[.!?]\s))(?:fyi|for\s+context|just\s+so\s+you\s+know|(?:just\s+)?a\s+heads\s+up"
    r"|heads\s+up|quick\s+note|please(?=\s+no\s))\b(?:\s*[,:;-]\s*|\s+)(?=\S)",
    re.IGNORECASE,
)

#: What after a pet word makes it no pet: "a dog allergy", "a cat toy", "a hot dog" is
#: ruled out where the word before is read.
NOT_A_PET_AFTER = (
    r"(?!\s+(?:allerg|dander|phobia|bite|food|toys?\b|beds?\b|collar|lead\b|leash|treats?\b"
    r"|sitter|walker|bowl|house|crate|costume|hair|video|shampoo))"
)

#: A disliked "taste" that is phone calls themselves ("I hate talking on the phone", "no
#: phone calls please, I can't stand them") is the call rule (``contact.call`` = never).
PHONE_CALLS_RE = re.compile(
    r"^(?:no\s+)?(?:(?:phone|voice)\s+)?calls(?:\s+please)?$|^(?:talking|chatting|speaking)\s+on"
    r"\s+the\s+phone$|^(?:the\s+)?phone$|^being\s+(?:called|rung|phoned)$",
    re.IGNORECASE,
)


_DOT_CLOCK_RE = re.compile(
    r"\b(\d{1,2})\.([0-5]\d)(?=\s*[ap]\.?m\b|\s+(?:at\s+night|in\s+the\s+(?:morning|afternoon|evening)))",
    re.IGNORECASE,
)


_PLACE_INITIALISM_RE = re.compile(
    r"(?<![\w.])(U\.S\.A\.|U\.S\.|U\.K\.|U\.A\.E\.|D\.C\.|E\.U\.)(?![\w.])(?=(\s+[A-Z])?)"
)


def initialisms(text: str) -> str:
    """Dotted place initialisms without their dots: "the U.S." -> "the US", "U.K." -> "UK"
    (a place reader stopped at the first dot and stored "U"). Before a capitalised word
    the last dot stays, as the sentence end it may be: "I live in the U.S. I love it"."""
    return _PLACE_INITIALISM_RE.sub(
        lambda m: m.group(1).replace(".", "") + ("." if m.group(2) else ""), text
    )


def clock_times(text: str) -> str:
    """British clock times with a dot read like colon ones: "9.30pm" -> "9:30pm", "9.30 at
    night" -> "9:30 at night" (only before am/pm or a part of the day, so prices and
    decimals are left alone)."""
    return _DOT_CLOCK_RE.sub(r"\1:\2", text)


#: A habit adverb between "I"/"we" and the verb ("I usually speak Spanish", "we mostly
#: pay cash"): the verb reads as without it. "always", "never" and "only" stay (they mark
#: a standing rule).
_HABIT_RE = re.compile(
    r"(?<=\b[iI]\s)(?:mostly|usually|generally|normally|typically|mainly|primarily|pretty\s+much"
    r"|tend\s+to)\s+(?=[a-z])|(?<=\bwe\s)(?:mostly|usually|generally|normally|mainly)\s+(?=[a-z])",
    re.IGNORECASE,
)


#: The same in Chinese: a habit or time adverbial between 我 and the verb ("我一般都用…",
#: "我这几年一直在吃…", "我下班以后喜欢…", "我周末一般…"), dropped up to the verb; a
#: negation, 要/想 and the verb stay.
_HABIT_ZH_RE = re.compile(
    r"(?<=我)(?:(?:这|近|最近)(?:几|两|些|一)年(?:来|里)?|多年来?|一般(?:来说)?|通常|平常|平日"
    r"|平时|经常|常常|向来|一向|基本上?|每天|每周|每晚|天天|(?:每天)?(?:早上|晚上|中午|下午|周末"
    r"|假期|下班|放学|休息|有空|闲下来|没事)(?:以后|之后|后|的时候|时)?)+(?:都|也|就)?"
    r"(?=[\u4e00-\u9fff])"
)


def without_habit(text: str) -> str:
    """``text`` without a habit adverb before the verb: "I usually speak Spanish" -> "I
    speak Spanish", "我下班以后喜欢打球" -> "我喜欢打球" (a second reading for a clause no
    rule read as it is)."""
    return _HABIT_ZH_RE.sub("", _HABIT_RE.sub("", text))


def strip_fillers(text: str) -> str:
    """``text`` without stance adverbs and chat hedges (``_FILLER_RE``), closing asides
    (``_ASIDE_RE``) and context openers (``_OPENER_RE``):
    "I'd honestly rather you never called" -> "I'd rather you never called"."""
    out = _FILLER_RE.sub(_drop_filler, text)
    if "\x00" in out:  # the kept commas, without the spaces around them (no regex: linear)
        parts = out.split("\x00")
        out = ", ".join([parts[0].rstrip(), *(p.strip() for p in parts[1:-1]), parts[-1].lstrip()])
    out = _OPENER_RE.sub("", _ASIDE_RE.sub("", out))
    return out if out.strip() else text


#: Words after which a filler and its comma open the rest of the same clause ("I am
#: honestly, truly vegan", "so honestly, whatever"), not close one.
_OPEN_WORD_RE = re.compile(
    r"\b(?:i|i'm|im|am|is|are|was|were|and|but|so|or|because|cos|the|a|an|my|to|very|really)$",
    re.IGNORECASE,
)


def _drop_filler(m: re.Match[str]) -> str:
    """A filler dropped; one that closed a clause before its comma ("not a fan of mushrooms
    tbh, pick something else") leaves the comma, so the next clause stays apart."""
    before = m.string[: m.start()].rstrip()
    if "," in m.group(0) and before[-1:].isalnum() and not _OPEN_WORD_RE.search(before):
        return "\x00"
    return ""


#: A correction that names the new value and the old one ("actually make that window, not
#: aisle", "no, change it to telegram instead of signal"): the new value is said as an answer.
#: A capitalised one (a city, a name) is left as said: "Leeds please" would read as home.
_MAKE_THAT_RE = re.compile(
    r"(?:^|(?<=[.!?]\s))(?:(?:actually|no|nah|sorry|oops|wait|oh|ok|okay|hmm)\W+)*"
    r"(?:make|change|switch)\s+(?:that|it|this)\s+(?:to\s+)?(?P<new>(?-i:[a-z0-9£$€])[^,.;!?]{0,30}?)"
    r"(?P<old>\s*,?\s+(?:not|instead\s+of|rather\s+than)\s+[^,.;!?]{1,30})",
    re.IGNORECASE,
)


def make_that(text: str) -> str:
    """A correction read as the answer it gives: "actually make that window, not aisle" ->
    "window please, not aisle" (the short-answer rules know "window please")."""
    return _MAKE_THAT_RE.sub(lambda m: f"{m.group('new')} please{m.group('old')}", text)


#: "my names aoife", "names dan btw": "name's" typed without its apostrophe (a plural
#: "names" never follows "my" and then a single word, nor opens a message that way).
_NAMES_IS_RE = re.compile(
    r"(?:(?<=\bmy\s)|(?<=\bthe\s)|(?<=^)|(?<=[.!?]\s))(names)(?=\s+[^\W\d_][\w'-]*(?:\s*$|\s*[,.!]|\s+(?:btw|but|and|by\s+the\s+way)\b))",
    re.IGNORECASE,
)


#: "w" / "w/" for "with" in chat ("i pay w paypal", "flat w/ my partner"): lowercase, between
#: two words (not "W-2", "George W. Bush", "5w").
_CHAT_WITH_RE = re.compile(r"(?<=[a-z] )w/?(?= [a-z])")
_CHAT_WITH_GLUED_RE = re.compile(r"(?<=[a-z] )w/(?=[a-z])")


def fix_typos(text: str) -> str:
    """Common misspellings corrected word by word (``TYPOS``): "im alergic" -> "im allergic";
    Chinese ones (``ZH_TYPOS``) as substrings: "俺的名子叫赵磊" -> "我的名字叫赵磊"."""
    text = _CHAT_WITH_GLUED_RE.sub("with ", _CHAT_WITH_RE.sub("with", text))
    text = _TYPO_RE.sub(lambda m: TYPOS.get(m.group(1).lower(), m.group(1)), text)
    text = _NAMES_IS_RE.sub(lambda m: m.group(1)[:-1] + "'s", text)
    return _ZH_TYPO_RE.sub(lambda m: ZH_TYPOS[m.group(0)], text)


#: Airlines named in English preferences ("I prefer Emirates", "I won't fly Spirit"), as a
#: regex alternation.
AIRLINES_EN = (
    r"Delta|United|American(?:\s+Airlines)?|Southwest|JetBlue|Alaska(?:\s+Airlines)?|Lufthansa|Emirates"
    r"|Qatar(?:\s+Airways)?|KLM|Air\s+France|British\s+Airways|Singapore\s+Airlines|Cathay(?:\s+Pacific)?"
    r"|ANA|JAL|Ryanair|easyJet|Spirit|Frontier|Qantas|Air\s+Canada|WestJet|Turkish(?:\s+Airlines)?"
    r"|Virgin(?:\s+Atlantic|\s+Australia)?|Etihad|Iberia|Swiss|SAS|Finnair|Aer\s+Lingus|Wizz(?:\s+Air)?"
    r"|Norwegian|Vueling|TAP(?:\s+Air\s+Portugal)?|Air\s+New\s+Zealand|Korean\s+Air|Asiana|EVA(?:\s+Air)?"
    r"|Hawaiian(?:\s+Airlines)?|Allegiant|Jetstar|AirAsia|IndiGo|Aeromexico|LATAM|Avianca|Icelandair"
    r"|Air\s+Peace|Arik(?:\s+Air)?|Ethiopian(?:\s+Airlines)?|Kenya\s+Airways|Philippine\s+Airlines|Cebu\s+Pacific"
    r"|Air\s+India|Vistara|SpiceJet|Saudia|flydubai|Malaysia\s+Airlines|Thai\s+Airways|Garuda(?:\s+Indonesia)?"
)
