"""Metrics with the real prometheus_client, read back through the registry; no-op fallback."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import prometheus_client
import pytest

from shared_core.errors import ConfigError, InvalidInputError
from shared_core.metrics import COUNTERS, Metrics, prometheus_available

ROOT = Path(__file__).resolve().parents[2]


def test_counters_and_hit_rate() -> None:
    m = Metrics()
    assert m.enabled and prometheus_available()
    assert m.hit_rate() is None
    for hit in (True, True, False, True):
        m.inc("recall")
        if hit:
            m.inc("recall_hits")
    reg = m.registry
    assert reg.get_sample_value("usermemory_recall_total") == 4.0
    assert reg.get_sample_value("usermemory_recall_hits_total") == 3.0
    assert m.hit_rate() == pytest.approx(0.75)
    m.inc("usermemory_conflicts_detected_total", 2)
    m.inc("conflicts_resolved")
    assert m.value("conflicts_detected_total") == 2.0
    assert reg.get_sample_value("usermemory_conflicts_resolved_total") == 1.0


def test_labelled_counters() -> None:
    m = Metrics()
    m.inc("gated_out", reason="low_confidence")
    m.inc("gated_out", reason="low_confidence")
    m.inc("gated_out", reason="chit_chat")
    m.inc("backend_degraded", backend="redis")
    reg = m.registry
    assert reg.get_sample_value("usermemory_gated_out_total", {"reason": "low_confidence"}) == 2
    assert reg.get_sample_value("usermemory_gated_out_total", {"reason": "chit_chat"}) == 1
    assert m.value("backend_degraded_total", backend="redis") == 1.0
    assert m.value("backend_degraded_total", backend="postgres") is None
    with pytest.raises(InvalidInputError):
        m.inc("gated_out")  # label missing
    with pytest.raises(InvalidInputError):
        m.inc("recall", reason="x")  # unexpected label


def test_ad_hoc_counters_fix_their_labels_on_first_use() -> None:
    m = Metrics()
    m.inc("extractor_fallback")
    m.inc("extractor_fallback")
    assert m.value("extractor_fallback_total") == 2.0
    m.inc("cache_evictions", 3, store="vectors")
    assert m.value("cache_evictions_total", store="vectors") == 3.0
    with pytest.raises(InvalidInputError):
        m.inc("cache_evictions", 1)


def test_latency_histograms_and_timer() -> None:
    m = Metrics()
    m.observe_latency("recall", 0.004)
    m.observe_latency("recall", 0.2)
    with m.timer("observe"):
        time.sleep(0.01)
    with pytest.raises(RuntimeError), m.timer("observe"):
        raise RuntimeError("boom")  # still timed
    reg = m.registry
    assert reg.get_sample_value("usermemory_recall_seconds_count") == 2
    assert reg.get_sample_value("usermemory_recall_seconds_sum") == pytest.approx(0.204)
    assert reg.get_sample_value("usermemory_recall_seconds_bucket", {"le": "0.005"}) == 1
    assert reg.get_sample_value("usermemory_observe_seconds_count") == 2
    assert reg.get_sample_value("usermemory_observe_seconds_sum") >= 0.01
    m.observe_latency("context", 0.001)  # other ops get their own histogram
    assert m.value("context_seconds_count") == 1.0


def test_bad_arguments_are_typed_errors() -> None:
    m = Metrics()
    for bad in (-1, "fast", True):
        with pytest.raises(InvalidInputError):
            m.observe_latency("recall", bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError):
        m.observe_latency("Bad-Op", 0.1)
    with pytest.raises(InvalidInputError):
        m.inc("recall", -1)
    with pytest.raises(InvalidInputError):
        m.inc("no spaces allowed")
    # the no-op validates the same way, so bugs show up without prometheus_client too
    with pytest.raises(InvalidInputError):
        Metrics.disabled().inc("recall", -1)


def test_many_instances_do_not_clash_and_are_isolated() -> None:
    a, b = Metrics(), Metrics()
    a.inc("recall")
    assert a.value("recall_total") == 1.0
    assert b.value("recall_total") == 0.0


def test_global_registry_opt_in() -> None:
    registry = prometheus_client.CollectorRegistry()
    m = Metrics(registry=registry)
    m.inc("recall")
    assert registry.get_sample_value("usermemory_recall_total") == 1.0
    with pytest.raises(ConfigError, match="already holds"):
        Metrics(registry=registry)  # one Metrics per shared registry, as documented
    assert m.registry is registry
    assert Metrics(registry=prometheus_client.REGISTRY).registry is prometheus_client.REGISTRY
    for name in COUNTERS:  # leave the process-wide registry as we found it
        collector = prometheus_client.REGISTRY._names_to_collectors.get(name)
        if collector is not None:
            prometheus_client.REGISTRY.unregister(collector)
    for op in ("recall", "observe"):
        collector = prometheus_client.REGISTRY._names_to_collectors.get(f"usermemory_{op}_seconds")
        if collector is not None:
            prometheus_client.REGISTRY.unregister(collector)


def test_exposition_text() -> None:
    m = Metrics()
    m.inc("gated_out", reason="duplicate")
    m.observe_latency("recall", 0.01)
    text = m.generate_latest().decode()
    assert 'usermemory_gated_out_total{reason="duplicate"} 1.0' in text
    assert "usermemory_recall_seconds_count 1.0" in text
    assert "# TYPE usermemory_recall_total counter" in text


def test_disabled_is_a_no_op() -> None:
    m = Metrics.disabled()
    assert not m.enabled and m.registry is None
    m.inc("recall")
    m.inc("gated_out", reason="x")
    m.observe_latency("recall", 0.1)
    with m.timer("recall"):
        pass
    assert m.value("recall_total") is None
    assert m.hit_rate() is None
    assert m.generate_latest() == b""


def test_degrades_to_no_op_without_prometheus_client() -> None:
    code = (
        "import sys\n"
        "sys.modules['prometheus_client'] = None  # makes the import fail\n"
        "from shared_core.metrics import Metrics, prometheus_available\n"
        "m = Metrics()\n"
        "assert not prometheus_available() and not m.enabled\n"
        "m.inc('recall'); m.inc('gated_out', reason='x'); m.observe_latency('recall', 0.1)\n"
        "with m.timer('observe'):\n"
        "    pass\n"
        "assert m.value('recall_total') is None and m.generate_latest() == b''\n"
        "print('noop')\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "noop"
