"""The per-language rule packs (data rows), the irregular handlers beside them and the
taxonomy's canonical reading of what they store (issue 12, items 1-3).

The sentences here are written for these tests, not taken from the phrasing benchmark.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from shared_core.entities import Candidate, Intent, Turn
from shared_core.ingest import _rules_packs as P
from shared_core.ingest.extract import RuleExtractor
from shared_core.ingest.lexicon import parse_number
from shared_core.taxonomy import KEYS, canonical, spec
from tests.ingest_probe import stored

AT = datetime(2026, 4, 15, tzinfo=UTC)


def extract(text: str) -> list[Candidate]:
    return RuleExtractor().extract(Turn(user_id="u", text=text, session_id="s", turn_id="t", at=AT))


def family(pairs: set[tuple[str, str]], key: str) -> set[str]:
    return {v for k, v in pairs if k == key or k.startswith(key + ".")}


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("Please reach me on Telegram.", "contact.channel", "telegram"),
        ("请通过邮件联系我", "contact.channel", "email"),
        ("My pronouns are he/him.", "pronouns", "he/him"),
        ("请用“她”称呼我", "pronouns", "she/her"),
        ("I turned 40 last week.", "age", "40"),
        ("我今年三十五岁", "age", "35"),
        ("My birthday is March 3rd.", "birthday", "03-03"),
        ("我1992年6月8号出生", "birthday", "1992-06-08"),
        ("I'm self-employed.", "job.status", "self_employed"),
        ("我退休了", "job.status", "retired"),
        ("I'm single.", "relationship.status", "single"),
        ("I have three children.", "family.children", "3"),
        ("I always fly economy.", "travel.class", "economy"),
        ("我只坐头等舱", "travel.class", "first"),
        ("Window seat please.", "travel.seat", "window"),
        ("Be more formal.", "response.tone", "formal"),
        ("Explain like I'm five.", "response.style", "simple"),
        ("Use Fahrenheit.", "units.temperature", "fahrenheit"),
        ("I'm in Pacific time.", "timezone", "America/Los_Angeles"),
        ("我用北京时间", "timezone", "Asia/Shanghai"),
        ("I work at Google.", "job.employer", "Google"),
        ("I'm relocating to Madrid next year.", "location.moving_to", "madrid"),
        ("I'm based in Toronto, Canada.", "location.country", "CA"),
        ("Nothing over £200 please.", "budget.max", "200 GBP"),
        ("最多两千五百块", "budget.max", "2500 CNY"),
        ("最多两千五", "budget.max", "2500"),
        ("Please answer in French.", "language", "fr"),
    ],
)
def test_a_row_stores_the_canonical_value(text: str, key: str, value: str) -> None:
    got = stored(text)
    assert any(k == key and v.casefold() == value.casefold() for k, v in got), got


@pytest.mark.parametrize(
    ("text", "key", "items"),
    [
        ("I'm fluent in German and Spanish.", "language.spoken", {"de", "es"}),
        ("我会说英语和法语", "language.spoken", {"en", "fr"}),
        ("I pay with Venmo or cash.", "payment.method", {"venmo", "cash"}),
        ("我一般用支付宝付款", "payment.method", {"alipay"}),
        ("I never use credit cards.", "payment.avoid", {"credit_card"}),
        ("I take lisinopril daily.", "medication", {"lisinopril"}),
        ("I'm a Marriott Bonvoy member.", "travel.loyalty", {"marriott bonvoy"}),
        ("Non-smoking room please, on a high floor.", "hotel.room", {"non_smoking", "high_floor"}),
        ("I'm blind, I use a screen reader.", "accessibility", {"screen_reader"}),
        ("I avoid beef for religious reasons.", "diet.avoid", {"beef"}),
        ("Penicillin gives me a rash.", "allergy.medication", {"penicillin"}),
        ("I'm allergic to dust mites.", "allergy.other", {"dust mites"}),
        ("Stop recommending crypto.", "recommend.never", {"crypto"}),
        ("I adore sushi.", "food.like", {"sushi"}),
        ("I love painting.", "interest", {"painting"}),
    ],
)
def test_list_keys_collect_their_items(text: str, key: str, items: set[str]) -> None:
    got = {v.casefold() for v in family(stored(text), key)}
    assert got == items


def test_a_move_keeps_both_cities() -> None:
    for text, cur, prev in [
        ("I just moved to Austin from Boston.", "austin", "boston"),
        ("We left Denver and now live in Portland.", "portland", "denver"),
        ("我刚从广州搬到深圳", "shenzhen", "guangzhou"),
    ]:
        got = stored(text)
        assert ("location.city", cur) in got and ("location.city.previous", prev) in got, got


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("no messages from 11pm to 6am please", "23:00-06:00"),
        ("don't contact me between 21:30 and 07:00", "21:30-07:00"),
        ("晚上十点到早上七点别打扰我", "22:00-07:00"),
        ("晚上11点以后就别联系我了，早上8点以后再说", "23:00-08:00"),
    ],
)
def test_quiet_hours_ranges(text: str, value: str) -> None:
    assert ("contact.quiet_hours", value) in stored(text)


@pytest.mark.parametrize(
    "text",
    [
        "It costs between 500 and 800 dollars.",  # a price, not the user's budget
        "The meeting is from 9am to 5pm.",  # no contact cue: not quiet hours
        "Tell me about Hilton Honors.",  # a programme named, no membership
        "我想知道北京时间现在几点",  # a question about the time, not the user's zone
        "My mom takes metformin.",
        "She speaks French and English.",
        "Oh sure, I just LOVE queueing for an hour.",
        "他说“我住在海边”",
        "我朋友刚从北京搬到上海",
    ],
)
def test_rows_need_the_users_own_statement(text: str) -> None:
    assert stored(text) == set()


def test_a_phone_number_is_not_a_budget_range() -> None:
    got = stored("Reach me at 415-555-0199, my budget is 5000.")
    assert ("budget.max", "5000") in got and not family(got, "budget.min")


def test_a_negated_row_forgets_instead_of_storing() -> None:
    c = next(c for c in extract("I'm not gluten intolerant anymore.") if c.key == "intolerance")
    assert c.intent is Intent.FORGET
    assert not [c for c in extract("I don't keep kosher anymore.") if c.intent is Intent.ASSERT]


def test_value_rows_store_the_code_and_keep_the_words_in_the_span() -> None:
    (c,) = [c for c in extract("I only eat halal food.") if c.key == "diet"]
    assert c.value == c.normalized == "halal" and "halal food" in c.span


def test_behavioural_complaints_wait_for_consensus() -> None:
    (c,) = [c for c in extract("way too long") if c.key == "response.length"]
    assert not c.explicit  # three of these make the preference (the resolver's rule)


def test_every_row_key_is_in_the_taxonomy_and_has_hint_words() -> None:
    row_keys = {k for k, *_ in P.VALUE_ROWS} | {k for k, *_ in P.ITEM_ROWS}
    pseudo = {"taste.like", "taste.dislike", "recommend", "allergy"}  # resolved per item
    for key in row_keys - pseudo:
        assert spec(key) is not None, key
    assert row_keys <= set(P._HINTS)


def test_hint_words_select_the_rows_of_a_clause() -> None:
    assert {"payment.method", "payment.avoid"} <= P._active_keys("i pay with cash")
    assert "payment.method" not in P._active_keys("i live in berlin")


@pytest.mark.parametrize(
    ("text", "number"),
    [("一百零五", 105), ("1万5", 15000), ("两千五", 2500), ("4千", 4000), ("三千块", 3000)],
)
def test_chinese_numerals(text: str, number: int) -> None:
    assert parse_number(text) == number


def test_canonical_reads_the_established_keys() -> None:
    assert canonical("seat", "aisle", "aisle") == ("travel.seat", "aisle")
    assert canonical("family.husband", "李强", "李强") == ("family.partner.name", "李强")
    assert canonical("recommend.credit_cards", "never", "never") == (
        "recommend.never.credit_cards",
        "credit cards",
    )
    assert canonical("taste.spicy_food", "like", "like")[0] == "food.like.spicy_food"
    assert canonical("taste.chess", "like", "like") == ("interest.chess", "chess")
    assert canonical("language", "Japanese", "japanese") == ("language", "ja")
    assert canonical("budget.max", "under 50 bucks", "50") == ("budget.max", "50 USD")
    assert canonical("budget.max", "at most 50", "50") == ("budget.max", "50")
    assert canonical("location.country", "Canada", "canada") == ("location.country", "CA")


def test_new_keys_reach_the_llm_schema_labels_and_kinds() -> None:
    for key in ("pronouns", "payment.method", "travel.loyalty", "accessibility", "birthday"):
        assert key in KEYS and KEYS[key].label_en and KEYS[key].label_zh
