"""Families of Chinese non-statements the second dev19zh batch exposed (issue 12).

A state bounded to a stretch of the past (上学那会儿 / 大学那几年 / 那时候 / 年轻时), 一直
included, stores nothing unless "now" follows; a text to write or edit after the request
and its colon (帮我写个开场白：我是…), a character in the user's own story (我的小说主角…), memes
claimed as what one is (柠檬精, 显眼包); a character the user plays or writes (游戏里
我的角色是…, 我的人设是…) and a text named by its frame before a colon (设定是： / 广告词是这么
写的： / 自我介绍：); hedges 说不准 / 说不好 / 不好说; idling in bed as one's sport; "this one
answer" said with 这一次 / 这回; retractions that give the earlier turn to someone else
(这条是帮我X问的, 跟我没关系), to a forward (上一条是群里转的, 不是我说的) or to the past
(我说的是…以前的).

The sentences here are worded for the tests, not copied from the phrasing benchmark."""

from __future__ import annotations

import pytest

from tests.unit.ingest.test_gate_generalize import stored


@pytest.mark.parametrize(
    "text",
    [
        # a bounded stretch of the past
        "读书那会儿我天天喝可乐",
        "高中时我一直不吃香菜",
        "那几年我在广州当厨师",
        "年轻时候我对青霉素过敏",
        "上学那会儿我对虾过敏，现在好了",
        # a character played or written, a text after its frame
        "剧本杀里我的角色是个退休的外科医生",
        "我的人设是一个对芒果过敏的咖啡师",
        "男主设定：我是个住在哈尔滨的警察",
        "宣传语是这样写的：我只用支付宝",
        # a text to write or edit after the request, a character in one's own story
        "帮我拟个发言稿：我是财务部的刘洋，入职三年",
        "这段自我介绍帮我润色一下：本人现居厦门，不吃辣",
        "我的剧本里的女主对海鲜过敏",
        # hedges
        "明年住哪儿还说不好",
        "换不换成素食，这个不好说",
        # memes claimed as what one is
        "我就是个显眼包",
        "本人大冤种一个，我是冤种",
        # idling as one's sport
        "我的运动就是躺沙发上打滚",
        # this one answer
        "这回回答用英文就好",
    ],
)
def test_nothing_stored(text: str) -> None:
    assert stored(text) == {}


@pytest.mark.parametrize(
    "turns",
    [
        ("我有糖尿病", "那条是帮我妈问的"),
        ("我对牛奶过敏", "这个是替同事打的，跟我没关系"),
        ("我每天吃鱼油", "上一条是从朋友圈复制过来的"),
        ("我每天吃鱼油", "那不是我说的"),
        ("我的狗叫旺财", "我讲的是小时候的那条狗"),
    ],
)
def test_retractions_giving_the_turn_away(turns: tuple[str, ...]) -> None:
    assert stored(turns[0])  # the statement stores on its own
    assert stored(*turns) == {}


@pytest.mark.parametrize(
    ("text", "key"),
    [
        # a state begun in that stretch, or "now" after it, keeps the present fact
        ("那时候我就对花生过敏，现在也是", "allergy.food"),
        ("从上学那会儿起我就住在成都", "location.city"),
        ("我上大学的时候开始对花粉过敏", "allergy.other"),
        ("高中时我对花生过敏，到现在也没好", "allergy.food"),
    ],
)
def test_present_facts_keep(text: str, key: str) -> None:
    assert key in stored(text)
