"""InMemorySessionStore: the SessionStore contract plus sweeping, caps and threads."""

from __future__ import annotations

import threading

import pytest
from contract.session_store_contract import TTL, SessionStoreContract, turn, uid

from shared_core.clock import FakeClock
from shared_core.errors import InvalidInputError
from shared_core.storage.session import InMemorySessionStore


class TestInMemorySessionContract(SessionStoreContract):
    @pytest.fixture
    def sessions(self, clock: FakeClock) -> InMemorySessionStore:
        return InMemorySessionStore(TTL, clock=clock)


def test_sweep_on_writes_drops_expired_sessions() -> None:
    clock = FakeClock()
    store = InMemorySessionStore(60, clock=clock, sweep_interval=30)
    for n in range(10):
        store.append(f"u{n}", "s", turn(0))
    assert len(store) == 10
    clock.advance(seconds=61)
    store.append("fresh", "s", turn(0))  # a write triggers the periodic sweep
    assert len(store) == 1
    assert store.sessions("u0") == []


def test_reads_do_not_extend_the_ttl() -> None:
    clock = FakeClock()
    store = InMemorySessionStore(60, clock=clock)
    store.append("u", "s", turn(0))
    clock.advance(seconds=40)
    assert store.turns("u", "s")
    clock.advance(seconds=30)
    assert store.turns("u", "s") == []


def test_device_id_and_turn_cap() -> None:
    store = InMemorySessionStore(60, clock=FakeClock(), max_turns=3)
    for i in range(5):
        store.append("u", "s", turn(i), device_id="phone" if i == 0 else None)
    assert [t.turn_id for t in store.turns("u", "s")] == ["t2", "t3", "t4"]
    assert store.device_id("u", "s") == "phone"
    store.append("u", "s", turn(5), device_id="laptop")
    assert store.device_id("u", "s") == "laptop"


def test_rejects_bad_arguments() -> None:
    with pytest.raises(InvalidInputError):
        InMemorySessionStore(0)
    store = InMemorySessionStore(60, clock=FakeClock())
    with pytest.raises(InvalidInputError):
        store.append("u", "s", {"role": "user"})  # type: ignore[arg-type]


def test_thread_safe_appends() -> None:
    store = InMemorySessionStore(600, clock=FakeClock())
    u = uid()

    def work(n: int) -> None:
        for i in range(200):
            store.append(u, f"s{n % 3}", turn(n * 1000 + i))

    threads = [threading.Thread(target=work, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(len(store.turns(u, f"s{k}")) for k in range(3)) == 1200
    assert sorted(store.sessions(u)) == ["s0", "s1", "s2"]
    store.close()
    assert len(store) == 0
