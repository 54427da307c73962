"""Chinese look-alikes of the key groups that must store nothing (families found by dev22zh).

Each test uses wordings found in no benchmark file; the controls beside them are real
statements of the same shape that must still be kept.
"""

from __future__ import annotations

import pytest

from tests.ingest_probe import stored


@pytest.mark.parametrize(
    "turns",
    [
        # 到底 presses a question, whatever request word follows it
        ("低碳水饮食到底能不能吃米饭啊",),
        ("生酮到底能不能喝牛奶",),
        # a mid-sentence 怎么 closed by a particle asks
        ("摄氏度怎么换成华氏度呀",),
        # peers at school and work, peers named by a country, code-mixed role nouns
        ("我舍友对芒果过敏",),
        ("我的 roommate 对猫过敏",),
        ("日本客户习惯用日元报价",),
        # the people of a country in general
        ("德国人买东西都用现金",),
        ("日本人一般用摄氏度",),
        # a correction naming who it was about takes the earlier statement back
        ("坐飞机我都选靠窗的位子", "不对，是我同事喜欢靠窗"),
        ("我吃全素快十年了", "等等，我说反了，是我老公吃素"),
        # a written document's own words after a colon
        ("作业要求：用表格列出答案",),
        ("产品说明：适合乳糖不耐受人群",),
        # retractions in more words
        ("我家在成都高新区", "刚才手快了，别管"),
        ("回复用英文", "那条不是我发的"),
        ("我喜欢爵士乐", "收回，不准确"),
        # a thing pointed at and worked on once, a manner before a one-off request
        ("给这段视频加一下字幕",),
        ("把下面的数据整理成表格",),
        ("用英文帮我写封感谢信",),
        ("用表格帮我列个清单",),
        ("举个例子解释一下复利",),
        # tonight's hours and these days' needs are for now
        ("今晚十一点以后别打电话给我",),
        ("这两天眼睛发炎，字体大一点",),
        # a refusal for this answer only
        ("这回先别推荐基金了",),
        # office words are no allergen, quirks no condition, medicine no taste
        ("我对OKR过敏",),
        ("我有选择困难症",),
        ("我有拖延症，没救了",),
        ("我最爱吃药了",),
        # a title asked for with 称呼我为 is still a played one
        ("以后称呼我为殿下",),
        # a length of text is no budget
        ("under 200 words please",),
        # someone else just before 对…过敏 in a run-on
        ("上周团建有个同事对花生过敏差点出事",),
        # how often with its verb names no food
        ("我们公司的冷便当我可太爱了，顿顿吃都吃不腻",),
        # families found by probing the same registers with fresh wordings:
        # a rhetorical "how could I" denies
        ("我怎么可能对榴莲过敏，我天天吃",),
        # a stretch of the past that "now" contrasts with is over
        ("高中时候我是素食者，现在什么都吃",),
        # today's way to pay
        ("今天用支付宝付吧，微信余额不够",),
        # an assistant promising about its own answers, pasted
        ("我的回复会尽量口语化一些",),
        ("我会尽量用简单的话回答您",),
        # a translation asked for in traditional characters
        ("幫我翻譯一下：我是素食者",),
        # a partner in chat slang
        ("我女票对猫毛过敏",),
        # a text made in a manner for one occasion
        ("周一的汇报帮我用英文写一份提纲",),
        # someone else's quiet hours, someone else's pronoun, any name at all
        ("晚上十点后别打扰我老婆，她要早睡",),
        ('你可以用"他"来指代我表哥',),
        ("叫我啥都可以",),
        # one caption asked for now, with a request word before 给我
        ("可不可以给我开个字幕，图书馆里不能外放",),
        # the listener's place taken, and something called for (no name)
        ("换我的话肯定选靠窗",),
        ("我叫车了，马上下楼",),
    ],
)
def test_look_alike_stores_nothing(turns: tuple[str, ...]) -> None:
    assert stored(*turns) == set()


def test_a_length_of_text_is_no_budget() -> None:
    # (a count of characters for the answers is their length: response.length = short)
    assert not any(k.startswith("budget") for k, _ in stored("回复控制在不超过150字"))


@pytest.mark.usefixtures("rules_alone")
@pytest.mark.parametrize(
    ("turns", "expected"),
    [
        (("以后能不能用英文回复我",), ("language", "en")),
        (("我对杏仁过敏",), ("allergy.food", "almonds")),
        (("我和朋友都对虾过敏",), ("allergy.food", "shrimp")),
        (("补充说明：我对青霉素过敏",), ("allergy.medication", "penicillin")),
        (("以后回答都用表格",), ("response.format", "table")),
        (("别给我推荐基金",), ("recommend.never.基金", "基金")),
        (("请称呼我为陈教授",), ("name.preferred", "陈教授")),
        (("预算不超过1500",), ("budget.max", "1500")),
        (("my spending cap is 3k",), ("budget.max", "3000")),
        (("预算1.5w",), ("budget.max", "15000")),
        (("我超爱吃饺子，天天吃都吃不腻",), ("food.like.饺子", "饺子")),
        (("请用她来称呼我",), ("pronouns", "she/her")),
        (("从今天起我用支付宝付款",), ("payment.method.alipay", "alipay")),
        (("以后看视频都给我开字幕",), ("accessibility.captions", "captions")),
    ],
)
def test_statement_of_the_same_shape_keeps(
    turns: tuple[str, ...], expected: tuple[str, str]
) -> None:
    assert expected in stored(*turns)


def test_clock_time_after_is_a_standing_quiet_hour() -> None:
    """A clock time with 以后 and no 今晚 ("晚上十一点以后…") is still a standing rule."""
    assert any(key == "contact.quiet_hours" for key, _v in stored("晚上十一点以后别给我打电话"))
