"""The dense channel is left out for queries an English-only embedder cannot represent.

all-MiniLM-L6-v2 gives two unrelated Chinese sentences cosine 0.6-0.9, often above the
right answer; recall must not let that noise outrank a key match or fill ``context()``
with unrelated past turns.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import numpy as np
import pytest

from shared_core import FakeClock, UserMemory
from shared_core.embed import (
    MINILM_MODEL,
    CallableEmbedder,
    HashingEmbedder,
    cjk_share,
    english_only_model,
    represents,
)


def _everything_alike(texts: list[str]) -> np.ndarray:
    """What an English-only model does to Chinese text: every vector (nearly) the same."""
    return np.ones((len(texts), 8), dtype=np.float32)


class _Spy:
    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def __call__(self, texts: list[str]) -> np.ndarray:
        self.calls.append(list(texts))
        return _everything_alike(texts)


@pytest.fixture
def spy() -> _Spy:
    return _Spy()


@pytest.fixture
def english_only(spy: _Spy) -> Iterator[UserMemory]:
    clock = FakeClock(datetime(2025, 3, 30, tzinfo=UTC))
    emb = CallableEmbedder(spy, dimension=8, name="english-only", cache_size=0, multilingual=False)
    m = UserMemory.from_url("sqlite:///:memory:", clock=clock, embedder=emb)
    m.observe("u", "记住，以后用微信联系我。", session_id="s1")
    for i in range(2, 8):
        clock.advance(days=2)
        m.observe("u", "我的快递还没到。", session_id=f"s{i}")
        m.observe("u", "打开设置时应用闪退。", session_id=f"s{i}")
    yield m
    m.close()


def test_cjk_share() -> None:
    assert cjk_share("我们该怎么联系你？") == 1.0
    assert cjk_share("How should we contact you?") == 0.0
    assert cjk_share("") == 0.0 and cjk_share("？！ ...") == 0.0
    assert cjk_share("我喜欢 jazz") == pytest.approx(3 / 7)


def test_language_helpers_reject_bad_input() -> None:
    from shared_core.errors import InvalidInputError

    for bad in (None, 3, b"bytes", ["text"]):
        with pytest.raises(InvalidInputError):
            cjk_share(bad)  # type: ignore[arg-type]
        with pytest.raises(InvalidInputError):
            represents(CallableEmbedder(_everything_alike, 8, "e", multilingual=False), bad)  # type: ignore[arg-type]
        with pytest.raises(InvalidInputError):
            english_only_model(bad)  # type: ignore[arg-type]
    for bad_flag in ("no", 0, 1.0, []):
        with pytest.raises(InvalidInputError):
            CallableEmbedder(_everything_alike, 8, "e", multilingual=bad_flag)  # type: ignore[arg-type]
    huge = "联系" * 500_000 + "a"  # 1 MB of text: answered, no error
    assert cjk_share(huge) > 0.99
    assert cjk_share("\x00\ud800 '; DROP TABLE records; --") == 0.0


def test_english_only_models_are_recognised() -> None:
    assert english_only_model(MINILM_MODEL) and english_only_model("all-MiniLM-L6-v2")
    assert english_only_model("onnx:sentence-transformers/all-mpnet-base-v2")
    assert english_only_model("BAAI/bge-small-en-v1.5")
    assert not english_only_model("sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2")
    assert not english_only_model("BAAI/bge-m3")
    assert not english_only_model("/models/my-own-model")


def test_represents_uses_the_embedders_own_word() -> None:
    en_only = CallableEmbedder(_everything_alike, dimension=8, name="e", multilingual=False)
    assert represents(en_only, "How should we contact you?")
    assert represents(en_only, "我喜欢 jazz")  # mostly Latin letters
    assert not represents(en_only, "我们该怎么联系你？")
    assert represents(HashingEmbedder(), "我们该怎么联系你？")  # lexical features work for CJK
    assert represents(CallableEmbedder(_everything_alike, dimension=8, name="m"), "联系你")
    assert represents(object(), "联系你")  # an embedder that does not say is trusted


def test_chinese_query_skips_the_dense_channel(english_only: UserMemory, spy: _Spy) -> None:
    spy.calls.clear()
    got = english_only.recall("u", "我们该怎么联系你？", k=3)
    assert spy.calls == []  # the query was not even embedded
    assert got[0].record.key == "contact.channel" and got[0].record.value == "微信"
    # every stored turn is "similar" to the query under this embedder; none came back
    assert not any("快递" in s.record.value or "闪退" in s.record.value for s in got)
    assert all("dense" not in s.matched_by for s in got)
    ctx = english_only.context("u", "我们该怎么联系你？")
    assert "微信" in ctx and "快递" not in ctx and "闪退" not in ctx


def test_english_query_still_uses_the_dense_channel(english_only: UserMemory, spy: _Spy) -> None:
    spy.calls.clear()
    got = english_only.recall("u", "like last time, contact me", k=3)
    assert spy.calls == [["contact me"]]  # the rewritten query text was embedded
    assert any("dense" in s.matched_by for s in got)


def test_the_default_minilm_embedders_say_english_only(tmp_path) -> None:
    from shared_core.embed import OnnxEmbedder, SentenceTransformerEmbedder

    assert SentenceTransformerEmbedder().multilingual is False
    assert OnnxEmbedder(cache_dir=tmp_path).multilingual is False
    assert SentenceTransformerEmbedder("paraphrase-multilingual-MiniLM-L12-v2").multilingual


class _Counting:
    """Distinct, deterministic vectors per text; records every text it is asked for."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self._inner = HashingEmbedder(32)

    def __call__(self, texts: list[str]) -> np.ndarray:
        self.texts += texts
        return self._inner.embed(texts)


def _mem_with(fn: _Counting, *, multilingual: bool) -> UserMemory:
    emb = CallableEmbedder(fn, dimension=32, name="counting", multilingual=multilingual)
    return UserMemory.from_url("sqlite:///:memory:", embedder=emb)


def test_embedding_parts_of_records() -> None:
    from shared_core.recall.retrieve import embedding_parts

    m = _mem_with(_Counting(), multilingual=True)
    m.observe("u", "I'm allergic to penicillin.", session_id="s1")
    [allergy] = [r for r in m.export("u")["records"] if r["key"] == "allergy.medication"]
    rec = m.records.get([allergy["id"]])[0]
    assert embedding_parts(rec) == ("allergy medication penicillin", "I'm allergic to penicillin.")
    typed = m.remember("u", "plan.tier", "premium")
    assert embedding_parts(typed) == ("plan tier premium",)
    turns = [s.record for s in m.recall("u", "allergic penicillin", k=5)]
    [turn] = [r for r in turns if r.key.startswith("turn:")]
    assert embedding_parts(turn) == ("I'm allergic to penicillin.",)
    m.close()


def test_a_turn_and_its_memory_share_one_model_run_of_the_sentence() -> None:
    fn = _Counting()
    m = _mem_with(fn, multilingual=True)
    m.observe("u", "I'm allergic to penicillin.", session_id="s1")
    # the sentence is embedded once for both the turn and the allergy memory
    assert fn.texts.count("I'm allergic to penicillin.") == 1
    assert "allergy medication penicillin" in fn.texts
    # the memory's vector is the normalised sum of its parts
    [rec] = [
        s.record for s in m.recall("u", "penicillin", k=5) if s.record.key.startswith("allergy")
    ]
    parts = HashingEmbedder(32).embed(
        ["allergy medication penicillin", "I'm allergic to penicillin."]
    )
    want = parts.sum(axis=0) / np.linalg.norm(parts.sum(axis=0))
    got = m.vectors.search("u", "default", want.astype(np.float32), k=10)
    assert got[0].record_id == rec.id and got[0].similarity == pytest.approx(1.0, abs=1e-5)
    m.close()


def test_english_only_model_embeds_no_chinese_and_reindex_agrees() -> None:
    fn = _Counting()
    m = _mem_with(fn, multilingual=False)
    m.observe("u", "记住，我对青霉素过敏。", session_id="s1")
    # the Chinese sentence never went to the English-only model; the memory's key-value
    # text is mostly English ("allergy medication 青霉素") and is embedded on its own
    assert fn.texts == ["allergy medication 青霉素"]
    assert m.profile("u")["allergy.medication"] == "青霉素"
    indexed = m.vectors.ids_for_user("u")
    keys = {r["id"]: r["key"] for r in m.export("u")["records"]}
    assert {keys[i] for i in indexed} == {"allergy.medication"}  # the turn has no vector
    assert m.reindex("u") == 0  # no vector by design, nothing to repair
    m.observe("u", "Remember, I prefer SMS.", session_id="s1")
    assert "Remember, I prefer SMS." in fn.texts  # English still goes to the model
    indexed = m.vectors.ids_for_user("u")
    m.vectors.delete(sorted(indexed))  # lose them all, as failed index writes would
    assert m.reindex("u") == len(indexed)
    assert m.vectors.ids_for_user("u") == indexed
    # the Chinese memory is recalled by key lookup and BM25
    assert m.recall("u", "我对什么药过敏？", k=3)[0].record.value == "青霉素"
    m.close()
