"""The backend registry: URL parsing, built-ins, registration, entry points, errors."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from datetime import UTC, datetime
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from shared_core.clock import FakeClock
from shared_core.config import MemoryConfig
from shared_core.entities import Kind, MemoryRecord
from shared_core.errors import ConfigError, MissingDependencyError, UnknownBackendError
from shared_core.storage import registry
from shared_core.storage.protocols import RecordFilter, VectorItem, WriteBatch
from shared_core.storage.registry import (
    BUILTIN_BACKENDS,
    Backends,
    known_schemes,
    open_backend,
    open_component,
    register_backend,
    sqlite_path_from_url,
)
from shared_core.storage.session import InMemorySessionStore
from shared_core.storage.sqlite import SqliteRecordStore
from shared_core.storage.vectors import SqliteVectorIndex

T = datetime(2026, 2, 2, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _clean_registry() -> Iterator[None]:
    saved = dict(registry._registered)
    yield
    registry._registered.clear()
    registry._registered.update(saved)


def _record(user: str = "u1") -> MemoryRecord:
    return MemoryRecord(
        user_id=user, kind=Kind.FACT, key="city", value="Lyon", created_at=T, updated_at=T
    )


@pytest.mark.parametrize(
    ("url", "path"),
    [
        ("sqlite:///:memory:", ":memory:"),
        ("sqlite://", ":memory:"),
        ("sqlite:///memory.db", "memory.db"),
        ("sqlite:///data/dir/memory.db", "data/dir/memory.db"),
        ("sqlite:////abs/path/memory.db", "/abs/path/memory.db"),
        ("SQLITE:////abs/my%20memory.db", "/abs/my memory.db"),
        ("sqlite:///C:/Users/me/memory.db", "C:/Users/me/memory.db"),
    ],
)
def test_sqlite_urls(url: str, path: str) -> None:
    assert sqlite_path_from_url(url) == (path, {})


def test_sqlite_url_home_and_options() -> None:
    path, opts = sqlite_path_from_url("sqlite:///~/um.db?timeout=2.5&max_cached_users=7")
    assert path == str(Path("~/um.db").expanduser())
    assert opts == {"timeout": 2.5, "max_cached_users": 7}
    for bad in (
        "sqlite://host/x.db",
        "sqlite:///x.db?bogus=1",
        "sqlite:///x.db?timeout=abc",
        "redis://x",
    ):
        with pytest.raises(ConfigError):
            sqlite_path_from_url(bad)


def test_open_sqlite_file_shares_one_database(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/a/b/memory.db"
    clock = FakeClock(T)
    b = open_backend(url, config=MemoryConfig(session_ttl_seconds=42), clock=clock)
    assert isinstance(b.records, SqliteRecordStore)
    assert isinstance(b.vectors, SqliteVectorIndex)
    assert isinstance(b.sessions, InMemorySessionStore)
    assert b.records.db is b.vectors.db and b.sessions.ttl.total_seconds() == 42
    assert (tmp_path / "a" / "b" / "memory.db").exists()
    b.records.apply(WriteBatch(records=[_record()]))
    b.vectors.upsert(
        [
            VectorItem(
                record_id="r",
                user_id="u1",
                system_context="default",
                kind=Kind.FACT,
                key="city",
                vector=np.ones(4, np.float32),
            )
        ]
    )
    b.close()
    assert b.records.db.closed
    b2 = open_backend(url)
    assert [r.value for r in b2.records.find(RecordFilter(user_id="u1"))] == ["Lyon"]
    assert b2.vectors.ids_for_user("u1") == {"r"}
    b2.close()


def test_in_memory_url_gives_one_shared_memory_database() -> None:
    b = open_backend("sqlite:///:memory:")
    b.vectors.upsert(
        [
            VectorItem(
                record_id="r",
                user_id="u1",
                system_context="default",
                kind=Kind.FACT,
                key="k",
                vector=np.ones(4, np.float32),
            )
        ]
    )
    counts = b.records.erase_user("u1", at=T)
    assert counts["vectors"] == 1  # same database as the record store
    b.close()


def test_unknown_scheme_lists_known_ones() -> None:
    with pytest.raises(UnknownBackendError) as info:
        open_backend("mongodb://localhost/x")
    msg = str(info.value)
    assert "mongodb" in msg and "sqlite" in msg and "postgresql" in msg
    assert isinstance(info.value, ConfigError)
    with pytest.raises(ConfigError):
        open_backend("no-scheme-here")


def test_missing_driver_names_the_extra() -> None:
    register_backend("fancydb", "definitely_not_installed_driver_xyz:open", extra="fancy")
    with pytest.raises(MissingDependencyError) as info:
        open_backend("fancydb://host/db")
    assert "definitely_not_installed_driver_xyz" in str(info.value)
    assert "usermemory[fancy]" in str(info.value)
    assert isinstance(info.value, ImportError)


def test_factory_import_error_becomes_missing_dependency() -> None:
    def factory(url: str, **_: Any) -> Any:
        raise ModuleNotFoundError("No module named 'psycopg_fake'", name="psycopg_fake")

    register_backend("lazydb", factory, extra="lazy")
    with pytest.raises(MissingDependencyError, match=r"usermemory\[lazy\]"):
        open_backend("lazydb://x")


def test_in_tree_target_typo_is_a_config_error() -> None:
    register_backend("broken", "shared_core.storage.no_such_module:open")
    with pytest.raises(ConfigError, match="missing module"):
        open_backend("broken://x")
    register_backend("broken2", "shared_core.storage.sqlite:no_such_attr")
    with pytest.raises(ConfigError, match="no_such_attr"):
        open_backend("broken2://x")


def test_every_builtin_target_resolves() -> None:
    for scheme, spec in BUILTIN_BACKENDS.items():
        for role, target in spec.factories.items():
            assert isinstance(target, str)
            module, _, attr = target.partition(":")
            assert callable(getattr(importlib.import_module(module), attr)), (scheme, role)
        assert scheme in known_schemes()


def test_registered_record_store_is_completed_with_in_process_parts() -> None:
    seen: dict[str, Any] = {}

    def factory(url: str, *, config: MemoryConfig, clock: Any) -> SqliteRecordStore:
        seen.update(url=url, config=config, clock=clock)
        return SqliteRecordStore(":memory:")

    register_backend("mystore", factory, description="test store")
    clock = FakeClock(T)
    b = open_backend("MyStore://anything", clock=clock)
    assert seen["url"] == "MyStore://anything" and seen["clock"] is clock
    assert isinstance(b.records, SqliteRecordStore)
    assert isinstance(b.vectors, SqliteVectorIndex)  # in-process fallback
    assert isinstance(b.sessions, InMemorySessionStore)
    assert "mystore" in known_schemes()
    b.close()


def test_factory_may_return_full_backends() -> None:
    made: list[Backends] = []

    def factory(url: str, **kw: Any) -> Backends:
        made.append(registry.open_sqlite("sqlite://", **kw))
        return made[-1]

    register_backend("bundle", factory)
    assert open_backend("bundle://x") is made[0]
    made[0].close()


def test_non_store_result_is_rejected() -> None:
    register_backend("weird", lambda url, **kw: 42)
    with pytest.raises(ConfigError, match="not a store"):
        open_backend("weird://x")


def test_component_only_scheme_cannot_be_the_record_store() -> None:
    register_backend("sessonly", lambda url, **kw: InMemorySessionStore(5), role="sessions")
    with pytest.raises(ConfigError, match="not a record store"):
        open_backend("sessonly://x")
    s = open_component("sessonly://x", "sessions")
    assert isinstance(s, InMemorySessionStore)
    with pytest.raises(ConfigError, match="cannot serve"):
        open_component("sessonly://x", "vectors")


def test_open_component_from_sqlite() -> None:
    rs = open_component("sqlite:///:memory:", "records")
    assert isinstance(rs, SqliteRecordStore)
    rs.close()
    vx = open_component("sqlite:///:memory:", "vectors")
    assert isinstance(vx, SqliteVectorIndex)
    vx.close()


def test_register_backend_validates() -> None:
    with pytest.raises(ConfigError):
        register_backend("bad scheme!", lambda url, **kw: None)
    with pytest.raises(ConfigError):
        register_backend("ok", "not-a-target")
    with pytest.raises(ConfigError):
        register_backend("ok", lambda url, **kw: None, role="nonsense")  # type: ignore[arg-type]


def test_entry_point_backends(monkeypatch: pytest.MonkeyPatch) -> None:
    ep = EntryPoint(
        name="plugdb",
        value="shared_core.storage.registry:open_sqlite",
        group=registry.ENTRY_POINT_GROUP,
    )

    def fake_entry_points(*, group: str) -> list[EntryPoint]:
        return [ep] if group == registry.ENTRY_POINT_GROUP else []

    monkeypatch.setattr(registry, "entry_points", fake_entry_points)
    assert "plugdb" in known_schemes()
    with pytest.raises(ConfigError):  # open_sqlite insists on sqlite:// URLs
        open_backend("plugdb:///:memory:")
    ep2 = EntryPoint(
        name="plugdb",
        value="shared_core.storage.registry:_open_sqlite_records",
        group=registry.ENTRY_POINT_GROUP,
    )
    monkeypatch.setattr(registry, "entry_points", lambda *, group: [ep2])
    with pytest.raises(ConfigError):
        open_backend("plugdb://x")
    register_backend("plugdb", lambda url, **kw: SqliteRecordStore(":memory:"))
    b = open_backend("plugdb://x")  # run-time registration wins over the entry point
    assert isinstance(b.records, SqliteRecordStore)
    b.close()
