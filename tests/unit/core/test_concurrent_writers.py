"""Concurrent writers lose nothing and an erase is final (issue 16 items 1, 2 and 8).

- 8 threads on one shared ``UserMemory``, 4 processes on one SQLite file and 50
  coroutines of ``AsyncUserMemory``, all on ONE user: every call succeeds and the turn
  count, session count and reinforcement evidence are exact.
- The erase/observe race on SQLite with two instances on one file and a forced
  interleaving: instance A's observe is held (a barrier in its record store, or in its
  session store after the commit) while instance B runs ``forget`` / ``forget_key``;
  nothing erased or revoked comes back. The same for ``import_user`` and
  ``merge_anonymous`` (an erase of the user or of the anonymous id while the merge runs).
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from contract.race import Gate, GatedRecords, GatedSessions, nothing_left, race

from shared_core import AsyncUserMemory, ChangeAction, Status, UserErasedError, UserMemory
from shared_core.embed import HashingEmbedder
from shared_core.errors import InvalidInputError
from shared_core.storage import StorageSpec
from shared_core.storage.protocols import RecordFilter
from shared_core.storage.session import InMemorySessionStore
from shared_core.storage.sqlite import SqliteRecordStore

REPO = Path(__file__).resolve().parents[3]
STATEMENT = "Never call me."  # extracted as contact.call = never; each repeat reinforces it


def _open(path: Path, **kw: Any) -> UserMemory:
    return UserMemory.from_url(f"sqlite:///{path}", embedder=HashingEmbedder(), **kw)


def _evidence(mem: UserMemory, user: str, key: str = "contact.call") -> int:
    recs = mem.records.find(RecordFilter(user_id=user, keys=(key,)))
    assert len(recs) == 1, recs
    return recs[0].evidence


# --------------------------------------------------------------------------- threads
def test_eight_threads_one_user_exact_counts(tmp_path: Path) -> None:
    mem = _open(tmp_path / "m.db")
    per_thread, errors = 15, []

    def worker(i: int) -> None:
        try:
            for j in range(per_thread):
                changes = mem.observe("u", STATEMENT, session_id=f"s{i}", turn_id=f"t{i}.{j}")
                assert {c.action for c in changes} & {ChangeAction.ADDED, ChangeAction.REINFORCED}
                mem.remember("u", f"thread.{i}", str(j))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    try:
        assert errors == []
        state = mem.records.user_state("u")
        assert state is not None
        assert (state.turns, state.sessions) == (8 * per_thread, 8)
        assert _evidence(mem, "u") == 8 * per_thread
        profile = mem.profile("u")
        assert all(profile[f"thread.{i}"] == str(per_thread - 1) for i in range(8))
        for i in range(8):  # every remember() is a version in history, none lost
            assert len(mem.history("u", f"thread.{i}")) == per_thread
    finally:
        mem.close()


# --------------------------------------------------------------------------- processes
_CHILD = textwrap.dedent(
    """
    import json, sys
    from shared_core import UserMemory
    from shared_core.embed import HashingEmbedder
    path, idx, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    mem = UserMemory.from_url("sqlite:///" + path, embedder=HashingEmbedder())
    failed = []
    for j in range(n):
        try:
            mem.observe("u", "Never call me.", session_id=f"p{idx}", turn_id=f"p{idx}.{j}")
            mem.remember("u", f"proc.{idx}", str(j))
        except Exception as exc:
            failed.append(repr(exc))
    mem.close()
    print(json.dumps(failed))
    """
)


def test_four_processes_one_user_exact_counts(tmp_path: Path) -> None:
    path = tmp_path / "shared.db"
    _open(path).close()  # schema once, before the race
    n = 12
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _CHILD, str(path), str(i), str(n)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        for i in range(4)
    ]
    outputs = [p.communicate(timeout=300) for p in procs]
    for p, (out, err) in zip(procs, outputs, strict=True):
        assert p.returncode == 0, err.decode()
        assert json.loads(out) == []  # no failed call
    mem = _open(path)
    try:
        state = mem.records.user_state("u")
        assert state is not None
        assert (state.turns, state.sessions) == (4 * n, 4)
        assert _evidence(mem, "u") == 4 * n
        for i in range(4):
            assert len(mem.history("u", f"proc.{i}")) == n
    finally:
        mem.close()


# --------------------------------------------------------------------------- coroutines
def test_fifty_coroutines_one_user_exact_counts(tmp_path: Path) -> None:
    async def main() -> tuple[list[BaseException], Any, int]:
        async with AsyncUserMemory(
            f"sqlite:///{tmp_path / 'a.db'}", embedder=HashingEmbedder()
        ) as amem:

            async def one(i: int) -> None:
                await amem.observe("u", STATEMENT, session_id=f"c{i % 10}", turn_id=f"c{i}.a")
                await amem.remember("u", f"co.{i}", "x")
                await amem.observe("u", STATEMENT, session_id=f"c{i % 10}", turn_id=f"c{i}.b")

            results = await asyncio.gather(*(one(i) for i in range(50)), return_exceptions=True)
            errors = [r for r in results if isinstance(r, BaseException)]
            return errors, amem.sync.records.user_state("u"), _evidence(amem.sync, "u")

    errors, state, evidence = asyncio.run(main())
    assert errors == []
    assert (state.turns, state.sessions) == (100, 10)
    assert evidence == 100


# --------------------------------------------------------------------------- erase races
@pytest.fixture
def two_instances(tmp_path: Path) -> Iterator[tuple[UserMemory, UserMemory, Gate, Gate]]:
    path = tmp_path / "race.db"
    records = GatedRecords(SqliteRecordStore(path))
    sessions = GatedSessions(InMemorySessionStore(1800))
    spec = StorageSpec(records=records, vectors="sqlite:///:memory:", sessions=sessions)
    a = UserMemory(spec, embedder=HashingEmbedder())
    b = _open(path)
    yield a, b, records, sessions
    a.close()
    b.close()


@pytest.mark.parametrize("gate_name", ["records", "sessions"])
def test_forget_racing_observe_wins(two_instances: Any, gate_name: str) -> None:
    a, b, rec_gate, sess_gate = two_instances
    a.observe("u", "I live in Berlin.", session_id="s1")
    gate = rec_gate if gate_name == "records" else sess_gate
    # A supersedes Berlin; held before its commit (records) or after it (sessions)
    out = race(gate, lambda: a.observe("u", "Actually I live in Paris now.", session_id="s1"),
                lambda: b.forget("u"))  # fmt: skip
    assert "error" not in out, out
    assert [c.action for c in out["result"]] == [ChangeAction.IGNORED]
    for mem in (a, b):
        nothing_left(mem, "u")
        assert mem.session_turns("u", "s1") == []


def test_forget_racing_remember_raises_typed_and_keeps_nothing(two_instances: Any) -> None:
    a, b, rec_gate, _ = two_instances
    a.remember("u", "contact.channel", "email")
    out = race(rec_gate, lambda: a.remember("u", "contact.channel", "sms"), lambda: b.forget("u"))
    assert isinstance(out["error"], UserErasedError)
    for mem in (a, b):
        nothing_left(mem, "u")


def test_forget_key_racing_observe_never_reactivates(two_instances: Any) -> None:
    a, b, rec_gate, _ = two_instances
    first = a.observe("u", STATEMENT, session_id="s1")
    rec_id = next(c.record.id for c in first if c.key == "contact.call" and c.record)
    # A reinforces the very row B revokes
    out = race(rec_gate, lambda: a.observe("u", STATEMENT, session_id="s1"),
                lambda: b.forget_key("u", "contact.call"))  # fmt: skip
    assert "error" not in out, out
    assert any(c.action is ChangeAction.REVOKED for c in out["other"])
    for mem in (a, b):
        (old,) = mem.records.get([rec_id])
        assert old.status is Status.REVOKED  # the revoked version never comes back
        versions = mem.history("u", "contact.call")
        assert [v.status for v in versions if v.id == rec_id] == [Status.REVOKED]
        # A's turn was recomputed after the revocation: a new statement, a new version
        assert sum(v.status is Status.ACTIVE for v in versions) == 1


def test_end_session_racing_forget_writes_no_episode(two_instances: Any) -> None:
    a, b, rec_gate, _ = two_instances
    a.observe("u", "I live in Berlin.", session_id="s1")
    out = race(rec_gate, lambda: a.end_session("u", "s1"), lambda: b.forget("u"))
    assert "error" not in out and out["result"] is None
    nothing_left(b, "u")


def test_import_racing_forget_commits_nothing(two_instances: Any) -> None:
    a, b, rec_gate, _ = two_instances
    a.remember("u", "contact.channel", "email")
    dump = a.export("u")
    a.forget("u")  # export -> forget -> import is the legitimate restore ...
    # ... but an import still in flight when the user is erased again must not land
    out = race(rec_gate, lambda: a.import_user(dump), lambda: b.forget("u"))
    assert isinstance(out["error"], UserErasedError), out
    for mem in (a, b):
        nothing_left(mem, "u")
    assert a.import_user(dump) == 1  # after the erase, a new import is a new start
    assert b.profile("u") == {"contact.channel": "email"}


@pytest.mark.parametrize("erased", ["u", "anon"])
def test_merge_racing_forget_commits_nothing(two_instances: Any, erased: str) -> None:
    a, b, rec_gate, _ = two_instances
    a.observe("anon", "I live in Berlin.", session_id="s1")
    a.remember("u", "contact.channel", "email")
    out = race(rec_gate, lambda: a.merge_anonymous("anon", "u"), lambda: b.forget(erased))
    assert isinstance(out["error"], UserErasedError), out
    kept, profile = ("u", {"contact.channel": "email"})
    if erased == "u":  # the merge was dropped as a whole: the visitor keeps its memory
        kept, profile = ("anon", {"location.city": "Berlin"})
    for mem in (a, b):
        nothing_left(mem, erased)
        assert mem.session_turns("u", "s1") == []
        assert mem.profile(kept) == profile  # nothing erased came over, nothing else lost
        assert len(mem.records.find(RecordFilter(user_id=kept))) == 1 + (erased == "u")


def test_merge_sessions_written_after_an_erase_of_the_user_are_unreachable(
    two_instances: Any,
) -> None:
    a, b, _, sess_gate = two_instances
    a.observe("anon", "I live in Berlin.", session_id="s1")
    # the merge's records committed; its session copy is held while B erases the user
    out = race(sess_gate, lambda: a.merge_anonymous("anon", "u"), lambda: b.forget("u"))
    assert "error" not in out, out
    for mem in (a, b):
        nothing_left(mem, "u")
        assert mem.session_turns("u", "s1") == []


# --------------------------------------------------------------------------- small items
@pytest.mark.parametrize("bad", [None, 123, "a\nb", "", "x" * 10_000])
def test_forget_key_bad_system_context_is_typed(bad: Any, tmp_path: Path) -> None:
    mem = _open(tmp_path / "k.db")
    try:
        mem.remember("u", "contact.channel", "email")
        with pytest.raises(InvalidInputError):
            mem.forget_key("u", "contact.channel", system_context=bad)
        assert mem.profile("u") == {"contact.channel": "email"}  # nothing revoked
    finally:
        mem.close()
