"""Behaviour every :class:`~shared_core.storage.protocols.SessionStore` must have.

Subclass :class:`SessionStoreContract` in a ``Test*`` class and provide a ``sessions``
fixture: a fresh store with ``ttl_seconds == TTL`` whose time is the test's ``clock``
fixture (a :class:`~shared_core.clock.FakeClock`, defined here). A backend whose TTL runs
on a server clock sets ``controls_time = False``; the TTL tests then skip (and the
backend tests its expiry with real time in its own suite).
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from shared_core.clock import FakeClock
from shared_core.entities import SessionTurn, new_id
from shared_core.errors import InvalidInputError, NotFoundError
from shared_core.storage.protocols import SessionStore

TTL = 600
T0 = datetime(2026, 5, 4, 12, 0, tzinfo=UTC)


def uid(prefix: str = "u") -> str:
    return f"{prefix}-{new_id()[:12]}"


def turn(i: int, text: str | None = None, role: str = "user") -> SessionTurn:
    return SessionTurn(
        role=role, text=text or f"turn {i}", turn_id=f"t{i}", at=T0 + timedelta(seconds=i)
    )


class SessionStoreContract:
    """The SessionStore contract; subclasses provide the ``sessions`` fixture."""

    controls_time = True

    @pytest.fixture
    def clock(self) -> FakeClock:
        return FakeClock(T0)

    def _need_clock(self) -> None:
        if not self.controls_time:
            pytest.skip("this backend's TTL runs on the server clock")

    def test_is_a_session_store(self, sessions: SessionStore) -> None:
        assert isinstance(sessions, SessionStore)

    def test_append_and_read_turns(self, sessions: SessionStore) -> None:
        u = uid()
        for i in range(5):
            sessions.append(u, "s1", turn(i, role="user" if i % 2 == 0 else "assistant"))
        got = sessions.turns(u, "s1")
        assert [t.turn_id for t in got] == ["t0", "t1", "t2", "t3", "t4"]
        assert got[1] == turn(1, role="assistant")
        assert [t.turn_id for t in sessions.turns(u, "s1", limit=2)] == ["t3", "t4"]
        assert sessions.turns(u, "s1", limit=0) == []
        assert sessions.turns(u, "nope") == []
        assert sessions.turns(uid(), "s1") == []

    def test_unicode_and_hostile_ids(self, sessions: SessionStore) -> None:
        u = f"o'r\"%_*?[]{{}}🧠{new_id()[:6]}"
        sid = "sess:*:\\x"
        sessions.append(u, sid, turn(0, "我对青霉素过敏 🤧"), device_id="dev'1")
        assert sessions.turns(u, sid)[0].text == "我对青霉素过敏 🤧"
        assert sessions.sessions(u) == [sid]

    def test_mark_written_accumulates(self, sessions: SessionStore) -> None:
        u = uid()
        sessions.append(u, "s", turn(0))
        sessions.append(u, "s", turn(1))
        sessions.mark_written(u, "s", "t0", ["r1", "r2"])
        sessions.mark_written(u, "s", "t0", ["r2", "r3"])
        t0, t1 = sessions.turns(u, "s")
        assert t0.written == ("r1", "r2", "r3")
        assert t1.written == ()
        with pytest.raises(NotFoundError):
            sessions.mark_written(u, "s", "t-missing", ["r"])

    def test_state_round_trip_and_copy(self, sessions: SessionStore) -> None:
        u = uid()
        assert dict(sessions.get_state(u, "s")) == {}
        topics = ["tea"]
        state: dict[str, Any] = {"last_turn_index": 3, "topics": topics, "nested": {"a": None}}
        sessions.set_state(u, "s", state)
        got = sessions.get_state(u, "s")
        assert dict(got) == state
        topics.append("mutated")
        assert dict(sessions.get_state(u, "s"))["topics"] == ["tea"]
        with pytest.raises(InvalidInputError):
            sessions.set_state(u, "s", {"bad": object()})
        assert dict(sessions.get_state(u, "s"))["last_turn_index"] == 3

    def test_update_state_applies_fn_to_latest_state(self, sessions: SessionStore) -> None:
        u = uid()
        seen: list[dict[str, Any]] = []

        def bump(st: dict[str, Any]) -> dict[str, Any]:
            seen.append(dict(st))
            return {**st, "n": int(st.get("n", 0)) + 1}

        assert sessions.update_state(u, "s", bump) == {"n": 1}
        assert seen[-1] == {}
        sessions.set_state(u, "s", {"n": 5, "keep": "x"})
        assert sessions.update_state(u, "s", bump) == {"n": 6, "keep": "x"}
        assert dict(sessions.get_state(u, "s")) == {"n": 6, "keep": "x"}
        assert "s" in sessions.sessions(u)
        with pytest.raises(InvalidInputError):
            sessions.update_state(u, "s", lambda st: {"bad": object()})
        assert dict(sessions.get_state(u, "s")) == {"n": 6, "keep": "x"}

    def test_concurrent_update_state_loses_no_increment(self, sessions: SessionStore) -> None:
        u = uid()
        workers, each = 6, 25

        def work() -> None:
            for _ in range(each):
                sessions.update_state(u, "s", lambda st: {"n": int(st.get("n", 0)) + 1})

        threads = [threading.Thread(target=work) for _ in range(workers)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
        assert dict(sessions.get_state(u, "s")) == {"n": workers * each}

    def test_end_returns_turns_and_drops(self, sessions: SessionStore) -> None:
        u = uid()
        sessions.append(u, "s", turn(0))
        sessions.append(u, "s", turn(1))
        sessions.set_state(u, "s", {"x": 1})
        assert [t.turn_id for t in sessions.end(u, "s")] == ["t0", "t1"]
        assert sessions.turns(u, "s") == []
        assert dict(sessions.get_state(u, "s")) == {}
        assert sessions.sessions(u) == []
        assert sessions.end(u, "s") == []

    def test_sessions_and_delete_user(self, sessions: SessionStore) -> None:
        u, other = uid(), uid()
        sessions.append(u, "a", turn(0))
        sessions.append(u, "b", turn(0))
        sessions.append(other, "a", turn(0))
        assert sorted(sessions.sessions(u)) == ["a", "b"]
        assert sessions.delete_user(u) == 2
        assert sessions.sessions(u) == []
        assert sessions.turns(u, "a") == []
        assert [t.turn_id for t in sessions.turns(other, "a")] == ["t0"]
        assert sessions.delete_user(u) == 0

    def test_expires_after_ttl_of_inactivity(
        self, sessions: SessionStore, clock: FakeClock
    ) -> None:
        self._need_clock()
        u = uid()
        sessions.append(u, "s", turn(0))
        sessions.set_state(u, "s", {"k": 1})
        clock.advance(seconds=TTL - 1)
        assert len(sessions.turns(u, "s")) == 1
        clock.advance(seconds=2)
        assert sessions.turns(u, "s") == []
        assert dict(sessions.get_state(u, "s")) == {}
        assert sessions.sessions(u) == []

    def test_activity_refreshes_ttl(self, sessions: SessionStore, clock: FakeClock) -> None:
        self._need_clock()
        u = uid()
        sessions.append(u, "s", turn(0))
        for i in range(1, 4):
            clock.advance(seconds=TTL - 10)
            sessions.append(u, "s", turn(i))
        clock.advance(seconds=TTL - 10)
        assert [t.turn_id for t in sessions.turns(u, "s")] == ["t0", "t1", "t2", "t3"]
        clock.advance(seconds=20)
        assert sessions.turns(u, "s") == []
