"""RetrievalConfig chooses the fusion function and the channels (issue 15, item 3)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from shared_core import ConfigError, FakeClock, MemoryConfig, UserMemory
from shared_core.embed import HashingEmbedder
from shared_core.recall.fuse import (
    ChannelHits,
    FusedHit,
    FusionWeights,
    RetrievalConfig,
    calibrated_fusion,
    reciprocal_rank_fusion,
    rrf_fusion,
)


class SpyEmbedder(HashingEmbedder):
    """The hashing embedder, recording every batch it embeds (a hand-written spy)."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[list[str]] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append(list(texts))
        return super().embed(texts)


def _mem(clock: FakeClock, **config: Any) -> tuple[UserMemory, SpyEmbedder]:
    emb = SpyEmbedder()
    mem = UserMemory.from_url(
        "sqlite:///:memory:", clock=clock, embedder=emb, config=MemoryConfig(**config)
    )
    mem.observe("u", "Never call me, I only accept SMS. My budget is 5000 euros.")
    mem.observe("u", "I live in Berlin and I love jazz.")
    emb.calls.clear()
    return mem, emb


def test_default_is_calibrated_fusion_over_every_channel() -> None:
    cfg = MemoryConfig()
    assert cfg.retrieval.fusion_function is calibrated_fusion
    assert cfg.retrieval.channels == ("key", "lexical", "dense")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"channels": ()},
        {"channels": ("key", "bm25")},
        {"channels": "key"},
        {"fusion_function": "rrf"},
        {"weights": {"key": 1.0}},
    ],
)
def test_bad_retrieval_config_is_a_config_error(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ConfigError):
        RetrievalConfig(**kwargs)


def test_memory_config_takes_it_in_code_and_from_the_environment() -> None:
    with pytest.raises(ConfigError):
        MemoryConfig(retrieval="rrf")  # type: ignore[arg-type]
    cfg = MemoryConfig.from_env(
        {"USERMEMORY_RETRIEVAL": '{"fusion": "rrf", "channels": ["key", "lexical"]}'}
    )
    assert cfg.retrieval.fusion_function is rrf_fusion
    assert cfg.retrieval.channels == ("key", "lexical")
    for bad in ('{"fusion": "max"}', '{"channels": ["x"]}', '{"k": 1}', "[1]", "{"):
        with pytest.raises(ConfigError, match="USERMEMORY_RETRIEVAL"):
            MemoryConfig.from_env({"USERMEMORY_RETRIEVAL": bad})


def test_rrf_fusion_is_reciprocal_rank_fusion_as_a_fusion_function() -> None:
    channels = [
        ChannelHits("key", [("a", 1.0)]),
        ChannelHits("lexical", [("b", 0.9), ("a", 0.5)]),
        ChannelHits("dense", [("b", 0.8), ("c", 0.3)]),
    ]
    fused = rrf_fusion(channels, FusionWeights())
    expected = reciprocal_rank_fusion(channels, FusionWeights())
    assert {h.record_id: h.relevance for h in fused} == pytest.approx(expected)
    assert [h.record_id for h in fused] == sorted(expected, key=expected.__getitem__)[::-1]
    assert fused[-1].matched_by == ("dense",)


def test_a_left_out_channel_is_not_fused(clock: FakeClock) -> None:
    mem, _ = _mem(clock, retrieval=RetrievalConfig(channels=("key", "lexical")))
    hits = mem.recall("u", "how should I contact you", k=5)
    assert hits and all(set(h.matched_by) <= {"key", "lexical"} for h in hits)
    only_dense, _ = _mem(clock, retrieval=RetrievalConfig(channels=("dense",)))
    assert all(h.matched_by == ("dense",) for h in only_dense.recall("u", "contact you", k=5))


def test_a_custom_fusion_function_is_used(clock: FakeClock) -> None:
    seen: list[list[str]] = []

    def key_only(channels: Sequence[ChannelHits], weights: FusionWeights | None) -> list[FusedHit]:
        seen.append([c.name for c in channels])
        return [
            FusedHit(record_id=rid, relevance=1.0, rrf=0.0, matched_by=("key",))
            for c in channels
            if c.name == "key"
            for rid, _ in c.hits
        ]

    mem, _ = _mem(clock, retrieval=RetrievalConfig(fusion_function=key_only))
    hits = mem.recall("u", "what is my budget", k=5)
    assert seen == [["key", "lexical", "dense"]]
    assert [h.record.key for h in hits] == ["budget.max"]


@pytest.mark.parametrize("field", ["store_turns", "audit_reads", "classify_unmapped"])
@pytest.mark.parametrize("value", ["no", "false", 0, 1, None, [True]])
def test_config_switches_take_only_bools(field: str, value: object) -> None:
    """A switch given "no" or 0 is refused, not read as on (or off) by truthiness."""
    with pytest.raises(ConfigError, match=field):
        MemoryConfig(**{field: value})  # type: ignore[arg-type]
    assert getattr(MemoryConfig(**{field: False}), field) is False


def test_config_switch_from_environment_is_a_bool(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("USERMEMORY_CLASSIFY_UNMAPPED", "false")
    assert MemoryConfig.from_env().classify_unmapped is False
    monkeypatch.setenv("USERMEMORY_CLASSIFY_UNMAPPED", "maybe")
    with pytest.raises(ConfigError):
        MemoryConfig.from_env()
