"""Operational metrics: Prometheus when ``prometheus_client`` is installed, else a no-op.

One :class:`Metrics` object per ``UserMemory``. By default it owns a private
``CollectorRegistry`` so several ``UserMemory`` objects in one process never hit
duplicate-registration errors; pass ``registry=prometheus_client.REGISTRY`` to publish on
the global registry instead (then create only one such ``Metrics`` per process).

Metrics:

* histograms ``usermemory_recall_seconds``, ``usermemory_observe_seconds`` (and
  ``usermemory_<op>_seconds`` for any other op passed to :meth:`Metrics.observe_latency`);
* counters ``usermemory_recall_total``, ``usermemory_recall_hits_total`` (hit rate =
  hits / total), ``usermemory_conflicts_detected_total``,
  ``usermemory_conflicts_resolved_total``, ``usermemory_gated_out_total{reason}``,
  ``usermemory_backend_degraded_total{backend}``, ``usermemory_read_audit_dropped_total``.

Example:
    >>> m = Metrics()
    >>> with m.timer("recall"):
    ...     pass
    >>> m.inc("recall")
    >>> m.value("recall_total")
    1.0
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import re
import threading
import time
from collections.abc import Iterator
from typing import Any

from . import _forksafe
from .errors import ConfigError, InvalidInputError

__all__ = ["COUNTERS", "LATENCY_BUCKETS", "Metrics", "prometheus_available"]

logger = logging.getLogger(__name__)

PREFIX = "usermemory_"

COUNTERS: dict[str, tuple[tuple[str, ...], str]] = {
    "usermemory_recall_total": ((), "recall() calls"),
    "usermemory_recall_hits_total": ((), "recall() calls that returned at least one memory"),
    "usermemory_conflicts_detected_total": ((), "contradictions detected on write"),
    "usermemory_conflicts_resolved_total": ((), "contradictions resolved (superseded/confirmed)"),
    "usermemory_gated_out_total": (("reason",), "candidates dropped by the write gate"),
    "usermemory_backend_degraded_total": (("backend",), "calls served in degraded mode"),
    "usermemory_read_audit_dropped_total": (
        (),
        "read-audit entries dropped because the buffer was full while the store failed",
    ),
}
"""Predefined counters: name -> (label names, help)."""

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
"""Histogram buckets in seconds (1 ms .. 10 s)."""

_NAME_RE = re.compile(r"[a-z_][a-z0-9_]*")


def prometheus_available() -> bool:
    """Whether ``prometheus_client`` can be imported."""
    try:
        importlib.import_module("prometheus_client")
    except ImportError:
        return False
    return True


def _full_name(name: str, *, counter: bool = False) -> str:
    """``"recall"`` -> ``"usermemory_recall_total"`` (for counters); full names pass through."""
    if not isinstance(name, str) or not _NAME_RE.fullmatch(name):
        raise InvalidInputError(f"invalid metric name {name!r}")
    full = name if name.startswith(PREFIX) else PREFIX + name
    if counter and not full.endswith("_total"):
        full += "_total"
    return full


def renew_prometheus_locks(registry: Any, collectors: list[Any]) -> None:
    """New locks for these ``prometheus_client`` collectors, in a forked child.

    The locks are private attributes of ``prometheus_client`` objects (0.20 .. 0.26:
    ``CollectorRegistry._lock``, a labelled metric's ``_lock`` over its children, and a
    ``MutexValue._lock`` per value: a counter's value, a histogram's sum and each of its
    buckets), so they are found by type, one level below each metric, rather than by
    name. Only the given collectors and registry are renewed (a ``Metrics``', the
    server's HTTP metrics); multiprocess mode (``PROMETHEUS_MULTIPROC_DIR``) keeps one
    lock in a closure and is not covered.
    """
    metrics: list[Any] = []
    for wrapper in collectors:
        metrics.append(wrapper)
        children = getattr(wrapper, "_metrics", None)
        if isinstance(children, dict):
            metrics.extend(children.values())
    _forksafe.renew_lock_attrs(registry)
    for metric in metrics:
        _forksafe.renew_lock_attrs(metric)
        for value in list(vars(metric).values()):
            for part in value if isinstance(value, list) else (value,):
                _forksafe.renew_lock_attrs(part)


class Metrics:
    """Counters and latency histograms for one ``UserMemory``; no-op when disabled.

    Args:
        registry: a ``prometheus_client.CollectorRegistry``; ``None`` creates a private one.
        enabled: ``False`` makes every call a no-op (also automatic when
            ``prometheus_client`` is not installed).

    Raises:
        ConfigError: ``registry`` already holds the metrics of another ``Metrics``.
    """

    def __init__(self, registry: Any = None, *, enabled: bool = True) -> None:
        self._prom: Any = None
        self._lock = threading.Lock()
        self._counters: dict[str, tuple[Any, tuple[str, ...]]] = {}
        self._histograms: dict[str, Any] = {}
        self.registry: Any = None
        if enabled:
            try:
                self._prom = importlib.import_module("prometheus_client")
            except ImportError:
                logger.debug("prometheus_client not installed; metrics disabled")
        if self._prom is not None:
            self.registry = registry if registry is not None else self._prom.CollectorRegistry()
            try:
                for name, (labels, doc) in COUNTERS.items():
                    self._counter(name, labels, doc)
                for op in ("recall", "observe"):
                    self._histogram(op)
            except ValueError as exc:  # prometheus_client: "Duplicated timeseries ..."
                raise ConfigError(
                    f"this registry already holds UserMemory metrics ({exc}); "
                    "use one Metrics per shared registry"
                ) from exc
        _forksafe.track(self)  # also when no UserMemory holds it (e.g. a server's)

    def after_fork(self) -> None:
        """In a forked child: new locks, ours and ``prometheus_client``'s (the counts so
        far are the parent's: a child's counters start from them, as
        ``prometheus_client`` values do).

        ``prometheus_client`` has no fork hook: each value, each labelled metric and the
        registry has a ``threading.Lock`` that a parent thread may hold at the fork
        (:func:`renew_prometheus_locks`).
        """
        self._lock = threading.Lock()
        if self._prom is not None:
            collectors = [c for c, _ in self._counters.values()]
            renew_prometheus_locks(self.registry, [*collectors, *self._histograms.values()])

    @classmethod
    def disabled(cls) -> Metrics:
        """A ``Metrics`` whose every method does nothing."""
        return cls(enabled=False)

    @property
    def enabled(self) -> bool:
        """Whether metrics are recorded (``prometheus_client`` present and not disabled)."""
        return self._prom is not None

    def _counter(self, name: str, labels: tuple[str, ...], doc: str) -> tuple[Any, tuple[str, ...]]:
        with self._lock:
            entry = self._counters.get(name)
            if entry is None:
                counter = self._prom.Counter(
                    name.removesuffix("_total"), doc, labels, registry=self.registry
                )
                entry = self._counters[name] = (counter, labels)
            return entry

    def _histogram(self, op: str) -> Any:
        with self._lock:
            hist = self._histograms.get(op)
            if hist is None:
                hist = self._prom.Histogram(
                    f"{PREFIX}{op}_seconds",
                    f"latency of {op}() in seconds",
                    buckets=LATENCY_BUCKETS,
                    registry=self.registry,
                )
                self._histograms[op] = hist
            return hist

    def observe_latency(self, op: str, seconds: float) -> None:
        """Record one ``op`` duration in the ``usermemory_<op>_seconds`` histogram.

        Raises:
            InvalidInputError: bad op name or negative/non-numeric ``seconds``.
        """
        if not isinstance(op, str) or not _NAME_RE.fullmatch(op):
            raise InvalidInputError(f"invalid op name {op!r}")
        if isinstance(seconds, bool) or not isinstance(seconds, int | float) or seconds < 0:
            raise InvalidInputError(f"seconds must be a number >= 0, got {seconds!r}")
        if self._prom is None:
            return
        self._histogram(op).observe(float(seconds))

    def inc(self, name: str, n: float = 1, **labels: str) -> None:
        """Add ``n`` to a counter.

        ``name`` may omit the ``usermemory_`` prefix and the ``_total`` suffix:
        ``inc("gated_out", reason="low_confidence")`` increments
        ``usermemory_gated_out_total{reason="low_confidence"}``. Counters not in
        :data:`COUNTERS` are created on first use with the label names of that call.

        Raises:
            InvalidInputError: bad name, negative ``n`` or wrong label names.
        """
        full = _full_name(name, counter=True)
        if isinstance(n, bool) or not isinstance(n, int | float) or n < 0:
            raise InvalidInputError(f"n must be a number >= 0, got {n!r}")
        if self._prom is None:
            return
        entry = self._counters.get(full)
        if entry is None:
            label_names, doc = COUNTERS.get(full, (tuple(sorted(labels)), full))
            entry = self._counter(full, label_names, doc)
        counter, names = entry
        if set(labels) != set(names):
            raise InvalidInputError(f"{full} takes labels {list(names)}, got {sorted(labels)}")
        target = counter.labels(**{k: str(v) for k, v in labels.items()}) if names else counter
        target.inc(n)

    @contextlib.contextmanager
    def timer(self, op: str) -> Iterator[None]:
        """Time the ``with`` block into ``usermemory_<op>_seconds`` (also when it raises)."""
        start = time.perf_counter()
        try:
            yield
        finally:
            self.observe_latency(op, time.perf_counter() - start)

    def value(self, name: str, **labels: str) -> float | None:
        """Current value of a sample, ``None`` when unknown or disabled.

        ``name`` may omit the ``usermemory_`` prefix (``"recall_total"``,
        ``"recall_seconds_count"``).
        """
        if self._prom is None:
            return None
        value = self.registry.get_sample_value(_full_name(name), labels or None)
        return None if value is None else float(value)

    def hit_rate(self) -> float | None:
        """``recall_hits_total / recall_total``, or ``None`` before the first recall."""
        total = self.value("recall_total")
        if not total:
            return None
        return (self.value("recall_hits_total") or 0.0) / total

    def generate_latest(self) -> bytes:
        """The Prometheus text exposition of this registry (``b""`` when disabled)."""
        if self._prom is None:
            return b""
        return bytes(self._prom.generate_latest(self.registry))
