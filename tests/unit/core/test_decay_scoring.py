"""Decay and scoring math with an injected clock."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest

from shared_core import MemoryConfig
from shared_core.config import DecayPolicy
from shared_core.decay import decay, decay_class, effective_confidence
from shared_core.entities import Kind, MemoryRecord, Source
from shared_core.recall.fuse import ChannelHits, calibrated_fusion, reciprocal_rank_fusion
from shared_core.recall.score import score_hits

T0 = datetime(2026, 4, 1, tzinfo=UTC)


def rec(**kw) -> MemoryRecord:
    base = dict(
        user_id="u",
        kind=Kind.PREFERENCE,
        key="k",
        value="v",
        created_at=T0,
        updated_at=T0,
        source=Source.USER_DECLARE,
        confidence=0.95,
    )
    base.update(kw)
    return MemoryRecord(**base)


def test_soft_decay_is_exp_minus_age_over_72h():
    cfg = MemoryConfig()
    r = rec(source=Source.INFERRED, explicit=False, confidence=0.7)
    assert decay_class(r) == "soft"
    for hours in (0, 24, 72, 144):
        got = decay(r, T0 + timedelta(hours=hours), cfg)
        assert got == pytest.approx(math.exp(-hours / 72))
    assert effective_confidence(r, T0 + timedelta(hours=72), cfg) == pytest.approx(
        0.7 * math.exp(-1)
    )


def test_explicit_declaration_never_fades_below_threshold():
    cfg = MemoryConfig()
    r = rec()
    late = T0 + timedelta(days=400)
    assert decay_class(r) == "explicit"
    assert decay(r, late, cfg) >= 0.8
    assert effective_confidence(r, late, cfg) == pytest.approx(0.95)
    assert effective_confidence(r, late, cfg) >= cfg.confidence_threshold


def test_hard_and_permanent_do_not_decay():
    cfg = MemoryConfig()
    for r in (rec(hard=True), rec(permanent=True, kind=Kind.CONSTRAINT)):
        assert decay(r, T0 + timedelta(days=3650), cfg) == 1.0


def test_episode_decay_has_floor():
    cfg = MemoryConfig()
    r = rec(kind=Kind.EPISODE, confidence=1.0)
    assert decay(r, T0 + timedelta(days=3650), cfg) == pytest.approx(0.3, abs=1e-3)


def test_configurable_policy():
    cfg = MemoryConfig(decay={"soft": DecayPolicy(tau_hours=24, floor=0.1)})
    r = rec(source=Source.INFERRED, explicit=False)
    assert decay(r, T0 + timedelta(hours=24), cfg) == pytest.approx(0.1 + 0.9 * math.exp(-1))
    assert set(cfg.decay) >= {"soft", "explicit", "hard", "episode"}


def test_score_is_product_and_threshold_filters_soft_items():
    cfg = MemoryConfig()
    fresh = rec(id="a", source=Source.INFERRED, explicit=False, confidence=0.75)
    old = rec(id="b", source=Source.INFERRED, explicit=False, confidence=0.75)
    explicit = rec(id="c")
    now = T0 + timedelta(hours=1)
    hits = calibrated_fusion([ChannelHits("key", [("a", 1.0), ("b", 1.0), ("c", 1.0)])])
    records = {"a": fresh, "b": old.replace(updated_at=T0 - timedelta(days=7)), "c": explicit}
    scored = score_hits(hits, records, now=now, config=cfg, system_context="default")
    ids = [s.record.id for s in scored]
    assert "b" not in ids  # faded: 0.75 * exp(-169/72) = 0.07 < fade_threshold 0.1
    assert "a" in ids  # fresh inferred value above the threshold on its stated confidence
    assert ids[0] == "c"
    for s in scored:
        assert s.score == pytest.approx(s.confidence * s.decay * s.relevance)


def test_per_context_threshold():
    cfg = MemoryConfig(context_thresholds={"health": 0.97})
    r = rec(id="x")
    hits = calibrated_fusion([ChannelHits("key", [("x", 1.0)])])
    assert score_hits(hits, {"x": r}, now=T0, config=cfg, system_context="default")
    assert not score_hits(hits, {"x": r}, now=T0, config=cfg, system_context="health")


def test_fusion_agreement_beats_single_channel_and_rrf_is_normalised():
    chans = [ChannelHits("dense", [("a", 0.6), ("b", 0.6)]), ChannelHits("lexical", [("a", 3.0)])]
    fused = {h.record_id: h for h in calibrated_fusion(chans)}
    assert fused["a"].relevance > fused["b"].relevance
    assert set(fused["a"].matched_by) == {"dense", "lexical"}
    rrf = reciprocal_rank_fusion(chans)
    assert 0 < rrf["b"] < rrf["a"] <= 1


def test_irrelevant_dense_hits_have_no_relevance():
    fused = calibrated_fusion([ChannelHits("dense", [("a", 0.05)])])
    assert fused[0].relevance == 0.0


def test_config_from_env_and_validation():
    from shared_core import ConfigError

    cfg = MemoryConfig.from_env(
        {
            "USERMEMORY_CONFIDENCE_THRESHOLD": "0.6",
            "USERMEMORY_SOURCE_CONFIDENCE": '{"inferred": 0.5}',
            "USERMEMORY_PII_MODE": "mask_all",
        }
    )
    assert cfg.confidence_threshold == 0.6 and cfg.confidence_for("inferred") == 0.5
    assert cfg.confidence_for("admin_set") == 0.99
    with pytest.raises(ConfigError):
        MemoryConfig.from_env({"USERMEMORY_DEFAULT_K": "many"})
    with pytest.raises(ConfigError):
        MemoryConfig(confidence_threshold=2)
