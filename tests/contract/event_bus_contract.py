"""Behaviour every :class:`~shared_core.storage.protocols.EventBus` must have.

Subclass :class:`EventBusContract` in a ``Test*`` class and provide a ``bus`` fixture
yielding a fresh bus whose feed starts empty.
"""

from __future__ import annotations

from typing import Any

import pytest

from shared_core.entities import new_id
from shared_core.errors import InvalidInputError
from shared_core.storage.protocols import EventBus


def uid(prefix: str = "u") -> str:
    return f"{prefix}-{new_id()[:12]}"


def event(user: str, key: str = "diet", n: int = 1) -> dict[str, Any]:
    return {
        "type": "memory.update",
        "user_id": user,
        "system_context": "default",
        "action": "active",
        "key": key,
        "record_id": f"r{n}",
        "version": n,
        "at": "2026-01-01T00:00:00+00:00",
    }


class EventBusContract:
    """The EventBus contract; subclasses provide the ``bus`` fixture."""

    def test_is_an_event_bus(self, bus: EventBus) -> None:
        assert isinstance(bus, EventBus)

    def test_values_are_never_published(self, bus: EventBus) -> None:
        u = uid()
        with pytest.raises(InvalidInputError):
            bus.publish({**event(u), "value": "vegetarian"})
        assert bus.delete_user(u) == 0  # nothing of the refused event reached the feed

    def test_delete_user_removes_exactly_that_users_events(self, bus: EventBus) -> None:
        a, b = uid("a"), uid("b")
        for n in range(3):
            bus.publish(event(a, n=n))
        bus.publish(event(b, key="city"))
        assert bus.delete_user(a) == 3
        assert bus.delete_user(a) == 0
        assert bus.delete_user(b) == 1
