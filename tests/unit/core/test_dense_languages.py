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
