"""Write-path gaps found by the long-horizon evaluation (benchmarks/evaluate.py), EN + ZH.

Each table row is one turn and what the rule extractor must produce for it; the
end-to-end tests at the bottom run the same turns through :class:`UserMemory` (SQLite,
hashing embedder) so the resolver's handling of the new keys/flags is covered too.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from shared_core import UserMemory
from shared_core.embed import HashingEmbedder
from shared_core.entities import Candidate, ChangeAction, Intent, Status, Turn
from shared_core.ingest.extract import RuleExtractor
from shared_core.recall.rewrite import rewrite

AT = datetime(2026, 4, 15, 10, 30, tzinfo=UTC)
EX = RuleExtractor()


@pytest.fixture(autouse=True)
def _no_swallowed_errors(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """The extractor logs and returns [] on an internal error: fail the test if that happens."""
    with caplog.at_level(logging.ERROR, logger="shared_core.ingest.extract"):
        yield
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


def extract(text: str) -> list[Candidate]:
    return EX.extract(Turn(user_id="u", text=text, session_id="s", turn_id="t", at=AT))


def only(text: str, key: str) -> Candidate:
    found = [c for c in extract(text) if c.key == key]
    assert len(found) == 1, f"{key!r} in {[(c.key, c.value) for c in extract(text)]}"
    return found[0]


@pytest.fixture
def mem() -> Iterator[UserMemory]:
    with UserMemory("sqlite:///:memory:", embedder=HashingEmbedder()) as m:
        yield m


# ---- 1. thousands separators ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "key", "normalized"),
    [
        ("My budget is 15,000.", "budget.max", "15000"),
        ("I can spend at most 3,000.", "budget.max", "3000"),
        ("My budget is 1,500,000.", "budget.max", "1500000"),
        ("My budget is 15 000.", "budget.max", "15000"),
        ("My budget is $15k.", "budget.max", "15000"),
        ("At least 2,500 please, my budget is flexible.", "budget.min", "2500"),
        ("预算是1.5万。", "budget.max", "15000"),
        ("预算最多15,000元。", "budget.max", "15000"),
    ],
)
def test_numbers_with_separators_are_not_split(text: str, key: str, normalized: str) -> None:
    assert only(text, key).normalized == normalized


def test_comma_between_words_still_splits_clauses() -> None:
    got = {(c.key, c.normalized) for c in extract("I'm vegan, my budget is 300, 2 kids")}
    assert ("diet", "vegan") in got and ("budget.max", "300") in got


# ---- 2. additive allergies coexist -----------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "key", "normalized"),
    [
        ("I'm also allergic to ibuprofen.", "allergy.medication.ibuprofen", "ibuprofen"),
        ("I'm allergic to aspirin too.", "allergy.medication.aspirin", "aspirin"),
        ("I'm allergic to peanuts as well.", "allergy.food.peanuts", "peanuts"),
        ("我对布洛芬也过敏。", "allergy.medication.ibuprofen", "ibuprofen"),
        ("我还对花生过敏。", "allergy.food.peanuts", "peanuts"),
    ],
)
def test_additive_allergy_gets_a_sibling_key(text: str, key: str, normalized: str) -> None:
    c = only(text, key)
    assert c.normalized == normalized and c.intent is Intent.ASSERT
    assert not [x for x in extract(text) if x.key in ("allergy.medication", "allergy.food")]


@pytest.mark.parametrize(
    "text",
    ["I'm allergic to penicillin.", "我对青霉素过敏。", "I'm severely allergic to penicillin"],
)
def test_single_allergy_keeps_the_base_key(text: str) -> None:
    assert only(text, "allergy.medication").normalized == "penicillin"


@pytest.mark.parametrize(
    ("first", "also"),
    [
        ("I'm allergic to penicillin.", "I'm also allergic to ibuprofen."),
        ("我对青霉素过敏。", "我对布洛芬也过敏。"),
    ],
)
def test_additive_allergy_does_not_replace_the_first(
    mem: UserMemory, first: str, also: str
) -> None:
    mem.observe("u", first)
    mem.observe("u", also)
    prof = mem.profile("u")
    assert mem.history("u", "allergy.medication")[-1].normalized == "penicillin"
    assert prof["allergy.medication.ibuprofen"]
    assert [r.status for r in mem.history("u", "allergy.medication")] == [Status.ACTIVE]
    # "no longer allergic to ibuprofen" revokes the sibling, not the first allergy
    mem.observe("u", "I'm no longer allergic to ibuprofen.")
    prof = mem.profile("u")
    assert "allergy.medication.ibuprofen" not in prof and "allergy.medication" in prof


def test_correction_still_versions_the_base_key(mem: UserMemory) -> None:
    mem.observe("u", "I'm allergic to penicillin.")
    mem.observe("u", "Sorry, I got it wrong: I'm allergic to cephalexin, not penicillin.")
    hist = mem.history("u", "allergy.medication")
    assert [(r.version, r.normalized, r.status) for r in hist] == [
        (1, "penicillin", Status.SUPERSEDED),
        (2, "cephalexin", Status.ACTIVE),
    ]


# ---- 3. corrections with the new value first -------------------------------------------------
@pytest.mark.parametrize(
    ("text", "key", "normalized"),
    [
        ("Correction: it's codeine, not ibuprofen.", "allergy.medication", "codeine"),
        ("Sorry, I meant email, not SMS.", "contact.channel", "email"),
        ("I meant Berlin, not Munich", "location.city", "berlin"),
        ("I'm vegetarian, not vegan.", "diet", "vegetarian"),
        ("不对，是头孢，不是青霉素", "allergy.medication", "cephalosporin"),
        ("是短信，不是邮件。", "contact.channel", "sms"),
        ("不对，我是对阿司匹林过敏，不是布洛芬。", "allergy.medication", "aspirin"),
        ("Sorry, I meant 3,000, not 30000.", "budget.max", "3000"),
        ("Sorry, I meant 8,000, not 30,000.", "budget.max", "8000"),
        ("Sorry, I meant $5,000, not 30000.", "budget.max", "5000"),
        ("我说错了，预算是两万，不是三万。", "budget.max", "20000"),
    ],
)
def test_new_value_first_corrections(text: str, key: str, normalized: str) -> None:
    c = only(text, key)
    assert (c.normalized, c.correction, c.intent) == (normalized, True, Intent.ASSERT)


@pytest.mark.parametrize(
    "text",
    [
        "I'm fine, not sick.",
        "Today, not tomorrow.",
        "是我，不是他。",
        "I meant 2019, not 2018.",
        "I meant 3 kids, not 2.",
    ],
)
def test_x_not_y_without_vocabulary_gives_nothing(text: str) -> None:
    assert [c for c in extract(text) if c.correction] == []


def test_new_first_correction_supersedes(mem: UserMemory) -> None:
    mem.observe("u", "I only accept SMS.")
    changes = mem.observe("u", "Sorry, I meant email, not SMS.")
    assert any(c.action is ChangeAction.UPDATED and c.key == "contact.channel" for c in changes)
    assert mem.profile("u")["contact.channel"].lower() == "email"
    assert [r.version for r in mem.history("u", "contact.channel")] == [1, 2]


# ---- 4. negations / no longer ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "key", "normalized"),
    [
        ("I no longer have diabetes.", "health.condition", "diabetes"),
        ("I don't have asthma anymore.", "health.condition", "asthma"),
        ("I don't keep halal anymore.", "diet", "halal"),
        ("I no longer eat vegan.", "diet", "vegan"),
        ("I'm not vegetarian anymore", "diet", "vegetarian"),
        ("我没有高血压了。", "health.condition", "hypertension"),
        ("我不再有糖尿病。", "health.condition", "diabetes"),
        ("我不吃素了", "diet", "vegetarian"),
    ],
)
def test_negations_forget_the_value(text: str, key: str, normalized: str) -> None:
    c = only(text, key)
    assert (c.intent, c.normalized) == (Intent.FORGET, normalized)
    assert not [x for x in extract(text) if x.key.startswith("taste.")]


@pytest.mark.parametrize(
    ("text", "key", "normalized"),
    [
        ("I have diabetes.", "health.condition", "diabetes"),
        ("I keep halal.", "diet", "halal"),
        ("我有高血压。", "health.condition", "hypertension"),
        ("我不吃肉", "diet", "vegetarian"),
    ],
)
def test_positive_twins_still_assert(text: str, key: str, normalized: str) -> None:
    c = only(text, key)
    assert (c.intent, c.normalized) == (Intent.ASSERT, normalized)


@pytest.mark.parametrize(
    ("said", "negated", "key"),
    [
        ("I have diabetes.", "I no longer have diabetes.", "health.condition"),
        ("I keep halal.", "I don't keep halal anymore.", "diet"),
        ("我有高血压。", "我没有高血压了。", "health.condition"),
        ("我吃素。", "我不吃素了", "diet"),
    ],
)
def test_negation_revokes_end_to_end(mem: UserMemory, said: str, negated: str, key: str) -> None:
    mem.observe("u", said)
    assert key in mem.profile("u")
    mem.observe("u", negated)
    assert key not in mem.profile("u")


# ---- 5. Chinese names --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("我的名字叫黄雅琴。", "黄雅琴"),
        ("我名字叫王芳", "王芳"),
        ("我叫张伟。", "张伟"),
        ("你好，我是张伟", "张伟"),
        ("我是张伟，很高兴认识你。", "张伟"),
        ("您好，我是李娜。", "李娜"),
    ],
)
def test_chinese_self_introduction(text: str, name: str) -> None:
    assert only(text, "name").value == name


@pytest.mark.parametrize(
    "text",
    ["我是护士。", "我是高手。", "我是新来的。", "我是张伟的妈妈。", "我是上海人。", "我是学生"],
)
def test_chinese_wo_shi_role_is_not_a_name(text: str) -> None:
    assert [c for c in extract(text) if c.key == "name"] == []


def test_wo_shi_job_still_a_job() -> None:
    assert only("我是护士。", "job.title").value == "护士"


# ---- 6. Chinese budget -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "normalized", "correction"),
    [
        ("我最多花两万块。", "20000", False),
        ("我最多能花三千。", "3000", False),
        ("不对，预算改成两万。", "20000", True),
        ("预算调到五千元。", "5000", False),
    ],
)
def test_chinese_budget(text: str, normalized: str, correction: bool) -> None:
    c = only(text, "budget.max")
    assert (c.normalized, c.correction) == (normalized, correction)


# ---- 7. Chinese diet changes ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "normalized"),
    [
        ("其实我现在吃素", "vegetarian"),
        ("我现在只吃清真", "halal"),
        ("我现在吃纯素", "vegan"),
        ("我已经开始吃素了", "vegetarian"),
        ("我是素食者", "vegetarian"),
    ],
)
def test_chinese_diet_with_adverbs(text: str, normalized: str) -> None:
    c = only(text, "diet")
    assert (c.intent, c.normalized) == (Intent.ASSERT, normalized)


# ---- 8. "I'm in Lisbon" --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "normalized"),
    [
        ("I'm in Lisbon.", "lisbon"),
        ("I'm in Lisbon now", "lisbon"),
        ("I'm currently in Lisbon", "lisbon"),
        ("I am in Tokyo right now.", "tokyo"),
        ("I'm in New York for a conference.", "new york"),
        ("I'm in beijing", "beijing"),
    ],
)
def test_im_in_city(text: str, normalized: str) -> None:
    assert only(text, "location.city").normalized == normalized


@pytest.mark.parametrize(
    "text",
    [
        "I'm in a meeting",
        "I'm in manufacturing",
        "I'm in trouble",
        "I'm in SaaS.",
        "I'm in Finance.",
        "I'm in Europe/Berlin time.",
        "I'm in UTC+2.",
        "I'm in March Madness",
        "I'm in English class",
    ],
)
def test_im_in_non_places(text: str) -> None:
    assert not [c for c in extract(text) if c.key.startswith("location.")]


def test_im_in_industry_still_industry() -> None:
    assert only("I'm in manufacturing", "industry").normalized == "manufacturing"


# ---- 9. call rules: hard always, permanent only for standing rules -----------------------------
@pytest.mark.parametrize(
    ("text", "permanent"),
    [
        ("I don't take phone calls", True),
        ("No phone calls please.", True),
        ("我不接电话。", True),
        ("Never call me.", True),
        ("don't call me", False),
        ("不要给我打电话", False),
    ],
)
def test_call_rules_hard_and_permanence(text: str, permanent: bool) -> None:
    c = only(text, "contact.call")
    assert (c.normalized, c.hard, c.permanent) == ("never", True, permanent)


def test_permanent_call_rule_asks_before_changing(mem: UserMemory) -> None:
    mem.observe("u", "I don't take phone calls.")
    changes = mem.observe("u", "You can call me.")
    assert [c.action for c in changes if c.key == "contact.call"] == [ChangeAction.CONFLICT]
    assert mem.profile("u")["contact.call"] == "never"


def test_plain_call_request_is_replaced(mem: UserMemory) -> None:
    mem.observe("u", "Don't call me.")
    changes = mem.observe("u", "You can call me.")
    assert ChangeAction.UPDATED in [c.action for c in changes if c.key == "contact.call"]
    assert mem.profile("u")["contact.call"] == "allowed"


# ---- 10. "delete my contact info" keeps the call rule ------------------------------------
@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("删除我的联系方式", "contact.channel"),
        ("forget my contact info", "contact.channel"),
        ("Please delete my contact details.", "contact.channel"),
        ("forget my contact preferences", "contact"),
    ],
)
def test_forget_contact_info_targets_channel(text: str, key: str) -> None:
    c = only(text, key)
    assert c.intent is Intent.FORGET


@pytest.mark.parametrize("request_text", ["删除我的联系方式", "Forget my contact info."])
def test_forget_contact_info_keeps_never_call(mem: UserMemory, request_text: str) -> None:
    mem.observe("u", "Never call me. I only accept SMS.")
    assert set(mem.profile("u")) >= {"contact.call", "contact.channel"}
    mem.observe("u", request_text)
    prof = mem.profile("u")
    assert prof.get("contact.call") == "never" and "contact.channel" not in prof


# ---- 11. query-side synonyms -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("query", "prefix"),
    [
        ("What meals can you plan for me?", "diet"),
        ("Any food I should avoid?", "allergy.food"),
        ("What can I eat?", "diet"),
        ("Any illness I have?", "health."),
        ("Which condition do I have?", "health."),
        ("How much can I pay?", "budget."),
        ("What can I afford?", "budget."),
        ("How much will I spend?", "budget."),
        ("What price range suits me?", "budget."),
        ("我有什么忌口？", "diet"),
        ("帮我安排一下餐食。", "diet"),
        ("我能吃什么？", "diet"),
        ("我有什么病？", "health."),
        ("按我能花的钱推荐一个套餐。", "budget."),
        ("我这边有停电吗？", "location."),
        ("有更新时用什么方式告诉你？", "contact.channel"),
        ("What should I call you?", "name"),
        ("what's my name", "name"),
        ("我叫什么？", "name"),
        ("怎么称呼我？", "name"),
        ("Don't call me", "contact."),
        ("Which channel should I use for your alerts?", "contact."),
    ],
)
def test_query_synonyms(query: str, prefix: str) -> None:
    assert prefix in rewrite(query).key_prefixes


@pytest.mark.parametrize("query", ["What should I call you?", "what's my name", "我叫什么？"])
def test_name_questions_are_not_contact(query: str) -> None:
    assert not [p for p in rewrite(query).key_prefixes if p.startswith("contact")]


def test_a_tv_channel_is_not_a_contact_channel() -> None:
    assert rewrite("What TV channel is the match on?").key_prefixes == ()


def test_peanut_question_is_not_budget() -> None:
    assert "budget." not in rewrite("我对花生过敏吗？").key_prefixes


# ---- corrections that name the replaced value target the slot holding it ---------------------
@pytest.mark.parametrize(
    ("also", "fix", "new"),
    [
        (
            "I'm allergic to aspirin too.",
            "Actually I'm not allergic to aspirin, it's ibuprofen.",
            "ibuprofen",
        ),
        ("I'm allergic to aspirin too.", "Sorry, I meant ibuprofen, not aspirin.", "ibuprofen"),
        ("我还对阿司匹林过敏。", "不是阿司匹林，是布洛芬。", "ibuprofen"),
        ("我还对阿司匹林过敏。", "我是对布洛芬过敏，不是阿司匹林。", "ibuprofen"),
    ],
)
def test_correction_of_an_additional_allergy_keeps_the_first(
    mem: UserMemory, also: str, fix: str, new: str
) -> None:
    mem.observe("u", "I'm allergic to penicillin.")
    mem.observe("u", also)
    mem.observe("u", fix)
    base = mem.history("u", "allergy.medication")
    assert [(r.normalized, r.status) for r in base] == [("penicillin", Status.ACTIVE)]
    sib = mem.history("u", "allergy.medication.aspirin")
    assert [(r.version, r.normalized, r.status) for r in sib] == [
        (1, "aspirin", Status.SUPERSEDED),
        (2, new, Status.ACTIVE),
    ]


def test_correction_names_the_value_it_replaces() -> None:
    c = only("Actually I'm not allergic to aspirin, it's ibuprofen.", "allergy.medication")
    assert c.correction and c.replaces == "aspirin" and c.normalized == "ibuprofen"
    assert only("Actually, not in manufacturing, I'm in SaaS.", "industry").replaces


# ---- additional health conditions coexist ----------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I also have diabetes.", {("health.condition.diabetes", "diabetes")}),
        ("I have diabetes too.", {("health.condition.diabetes", "diabetes")}),
        ("I've also got asthma.", {("health.condition.asthma", "asthma")}),
        (
            "I have asthma and diabetes.",
            {("health.condition", "asthma"), ("health.condition.diabetes", "diabetes")},
        ),
        ("我还有糖尿病。", {("health.condition.diabetes", "diabetes")}),
        ("我也有高血压。", {("health.condition.hypertension", "hypertension")}),
        ("I have asthma.", {("health.condition", "asthma")}),
    ],
)
def test_health_conditions(text: str, expected: set[tuple[str, str]]) -> None:
    got = {(c.key, c.normalized) for c in extract(text) if c.key.startswith("health.")}
    assert got == expected


def test_additional_condition_is_revoked_alone(mem: UserMemory) -> None:
    mem.observe("u", "I have asthma.")
    mem.observe("u", "I also have diabetes.")
    assert set(mem.profile("u")) >= {"health.condition", "health.condition.diabetes"}
    mem.observe("u", "I no longer have diabetes.")
    prof = mem.profile("u")
    assert prof.get("health.condition") == "asthma" and "health.condition.diabetes" not in prof
