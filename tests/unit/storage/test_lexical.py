"""Tokenizer and in-process BM25 used by the lexical retriever."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared_core.storage import lexical
from shared_core.storage.lexical import BM25Index, s_stem, tokenize, tokenize_key


def test_english_words_are_lowercased_and_split() -> None:
    assert tokenize("Call me on WhatsApp, not SMS!") == ["call", "whatsapp", "not", "sms"]
    assert tokenize("zyxw-penicillin-4711") == ["zyxw", "penicillin", "4711"]
    assert tokenize("") == []
    assert tokenize("   \n\t ") == []


def test_keys_split_on_dots_and_underscores() -> None:
    assert tokenize_key("contact.call_time") == ["contact", "call", "time"]
    assert tokenize_key("allergy.medication") == ["allergy", "medication"]


def test_s_stemmer_folds_plurals_only() -> None:
    pairs = {
        "allergies": "allergy",
        "meetings": "meeting",
        "dogs": "dog",
        "glasses": "glass",
        "classes": "class",
        "status": "status",
        "class": "class",
        "analysis": "analysis",
        "bus": "bus",
        "running": "running",
        "the": "the",
        "cats": "cat",
        "shoes": "shoe",
        "horses": "horse",
        "boxes": "box",
        "series": "sery",
        "café": "café",
        "mp3s": "mp3s",
    }
    for word, stem in pairs.items():
        assert s_stem(word) == stem, word
    for plural, singular in [
        ("movies", "movie"),
        ("watches", "watch"),
        ("headaches", "headache"),
        ("cookies", "cookie"),
        ("dishes", "dish"),
        ("strawberries", "strawberry"),
        ("sizes", "size"),
    ]:
        assert s_stem(plural) == s_stem(singular), (plural, singular)
        assert tokenize(plural) == tokenize(singular)
    assert tokenize("meetings", stem=False) == ["meetings"]


def test_function_words_dropped_negations_kept() -> None:
    assert tokenize("What is my favourite drink?") == ["favourite", "drink"]
    assert tokenize("never call me") == ["never", "call"]
    assert "不" in tokenize("我不喝咖啡")


def test_query_syntax_is_just_separators() -> None:
    assert tokenize('NEAR("old" station*) OR -hall ^ {x:y}') == [
        "near",
        "old",
        "station",
        "hall",
        "x",
    ]


def test_fullwidth_and_accents_normalised() -> None:
    assert tokenize("ＴＥＡ　１２３") == ["tea", "123"]
    assert tokenize("Café CRÈME") == ["café", "crème"]


def test_chinese_is_segmented_with_jieba() -> None:
    doc = tokenize("我对青霉素过敏")
    query = tokenize("青霉素过敏吗")
    assert "青霉素" in doc and "过敏" in doc
    assert "吗" not in query and "我" not in doc
    assert set(query) <= set(doc)
    mixed = tokenize("我住在北京市 near the Summer Palace")
    assert "北京市" in mixed and "北京" in mixed and "summer" in mixed and "palace" in mixed


def test_jieba_is_initialised_once() -> None:
    tokenize("初始化")
    first = lexical._get_jieba()
    for _ in range(20):
        tokenize("我喜欢在周末喝乌龙茶")
    assert lexical._get_jieba() is first  # no per-call dictionary load
    # the per-call time is a number in benchmarks/unit_speed.py, not an assertion here


def test_english_only_text_never_loads_jieba(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_jieba() -> None:
        raise AssertionError("jieba loaded for English text")

    monkeypatch.setattr(lexical, "_get_jieba", no_jieba)
    assert tokenize("plain english text 42") == ["plain", "english", "text", "42"]


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_tokenize_never_fails_and_yields_clean_tokens(text: str) -> None:
    toks = tokenize(text)
    assert all(t and not any(c.isspace() for c in t) for t in toks)
    assert tokenize(text) == toks  # deterministic


def test_bm25_prefers_rarer_and_denser_matches() -> None:
    docs = [
        tokenize("green tea in the morning"),
        tokenize("black coffee in the morning"),
        tokenize("tea tea tea, always tea"),
        tokenize("the weather"),
    ]
    ix = BM25Index(docs)
    scores = ix.scores(tokenize("tea morning"))
    assert set(scores) == {0, 1, 2}
    assert scores[0] > scores[1]  # matches both words
    assert scores[2] > scores[1]  # "tea" is rarer than "morning"
    assert all(s > 0 for s in scores.values())
    assert ix.scores(["absent"]) == {}
    assert BM25Index([]).scores(["tea"]) == {}
    assert len(ix) == 4


def test_bm25_idf_stays_positive_when_a_term_is_everywhere() -> None:
    ix = BM25Index([["tea"], ["tea", "milk"], ["tea", "lemon"]])
    scores = ix.scores(["tea"])
    assert len(scores) == 3 and min(scores.values()) > 0


def test_bm25_counts_terms_like_token_lists() -> None:
    # documents are kept as padded strings: a repeated, adjacent or prefix-sharing token
    # must count exactly as often as in the token list, and a non-token never matches
    ix = BM25Index([["tea", "tea", "tea"], ["teapot", "tea"], ["milk"], []])
    one = BM25Index([["tea"], ["teapot", "tea"], ["milk"], []])
    s, s1 = ix.scores(["tea"]), one.scores(["tea"])
    assert set(s) == {0, 1} and s[0] > s1[0]  # three occurrences beat one
    assert ix.scores(["teapot"]).keys() == {1}
    assert ix.scores(["", " ", "tea tea", "tea  tea"]) == {}


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from(["a", "b", "ab", "ba", "c"]), max_size=8), max_size=6),
    st.lists(st.sampled_from(["a", "b", "ab", "c", "d"]), min_size=1, max_size=3),
)
def test_bm25_term_frequency_matches_list_count(docs: list[list[str]], query: list[str]) -> None:
    # the reference: BM25 with term frequencies from list.count
    avgdl = (sum(map(len, docs)) / len(docs) if docs else 0.0) or 1.0
    want: dict[int, float] = {}
    for term in dict.fromkeys(query):
        n = sum(1 for d in docs if term in d)
        for i, d in enumerate(docs):
            tf = d.count(term)
            if tf:
                idf = math.log(1.0 + (len(docs) - n + 0.5) / (n + 0.5))
                norm = 1.2 * (1.0 - 0.75 + 0.75 * len(d) / avgdl)
                want[i] = want.get(i, 0.0) + idf * tf * 2.2 / (tf + norm)
    got = BM25Index(docs).scores(query)
    assert got.keys() == want.keys()
    assert all(math.isclose(got[i], want[i]) for i in want)
