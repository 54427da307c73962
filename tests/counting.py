"""A forwarding proxy that counts calls by method name (shared test helper)."""

from __future__ import annotations

from collections import Counter
from typing import Any


class Counting:
    """Forwards every call to a real store / index and counts them by method name."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.calls: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.inner, name)
        if not callable(attr):
            return attr

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] += 1
            return attr(*args, **kwargs)

        return counted
