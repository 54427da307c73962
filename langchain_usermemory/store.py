"""A LangGraph ``BaseStore`` on top of UserMemory.

LangGraph agents (and LangMem's memory tools) read and write long-term memory through
``BaseStore``. :class:`UserMemoryStore` maps that API onto the core:

* namespace ``("users", <user label>, *rest)`` + key -> one memory slot of that user:
  kind ``fact``, key ``lg.<rest...>:<key>`` (each part %-escaped so dots and odd
  characters round-trip), value the item's JSON, source ``agent`` (what it is: a note
  the agent wrote, with its own confidence, shown in ``context()`` as
  ``note = "..." (noted by the agent on <date>, ...)``, never as a business rule; it
  never overrides what the user said);
* ``put`` -> ``remember`` (every put is a new version, the old one is kept as
  superseded, so ``memory.history()`` shows the item's history), ``put(value=None)``
  / ``delete`` -> ``forget_key``;
* ``search(query=...)`` -> the core's hybrid ``recall`` (dense + lexical + key match),
  then the remaining matches unscored, like ``InMemoryStore``; ``search()`` without a
  query lists items in insertion order; ``filter`` supports equality and
  ``$eq/$ne/$gt/$gte/$lt/$lte``;
* ``list_namespaces`` -> the namespaces of the users' items.

LangGraph forbids "." inside namespace labels, so user ids such as e-mail addresses
are written with :func:`user_label` (``"a.b@x.org"`` -> ``"a%2Eb@x%2Eorg"``) and read
back with :func:`label_user`; :func:`user_namespace` builds the whole namespace. A
label :func:`user_label` cannot produce (a bare "%", as in ``"%61lice"``) is refused
with :class:`StoreNamespaceError`, so no label can address another user's items.

Batches follow ``InMemoryStore``: reads see the state before the batch, then the
puts are applied (the last put per item wins).

TTL as LangGraph defines it (``supports_ttl`` is true): ``put(..., ttl=minutes)`` (or
``ttl_config={"default_ttl": minutes}``) makes the item expire that many minutes after
its last write, or its last read when ``refresh_ttl`` / ``ttl_config["refresh_on_read"]``
(default true) says so. An expired item is gone for ``get``, ``search``, recall and
``context()`` (the core's ``valid_until``); its versions stay in ``memory.history()``.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import timedelta
from typing import Any
from urllib.parse import unquote

from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchOp,
    TTLConfig,
    validate_op_namespace,
)

from shared_core import (
    Clock,
    InvalidInputError,
    Kind,
    MemoryRecord,
    Plan,
    ScoredMemory,
    Source,
    arun_plan,
    check_count,
    core_call,
    run_plan,
)

from ._filters import validate_filter
from ._items import Address, Snapshot, build_snapshot, list_namespaces, search
from .namespaces import (
    StoreNamespaceError,
    _enc,
    _label_to_user,
    label_user,
    user_label,
    user_namespace,
)

__all__ = [
    "StoreNamespaceError",
    "UserMemoryStore",
    "label_user",
    "user_label",
    "user_namespace",
]


_TTL_KEY = "store_ttl_minutes"  # record metadata: the item's TTL, to refresh it on reads


class UserMemoryStore(BaseStore):
    """LangGraph long-term store backed by a ``UserMemory`` / ``AsyncUserMemory``.

    Example::

        store = UserMemoryStore(UserMemory.from_url("sqlite:///memory.db"))
        ns = user_namespace("ada@example.org", "memories")
        store.put(ns, "coffee", {"content": "Ada drinks oat-milk flat whites"})
        store.search(ns, query="what does Ada drink?")

    Args:
        memory: a ``UserMemory``, ``AsyncUserMemory`` or server client
            (``UserMemoryClient`` / ``AsyncUserMemoryClient``); ``abatch`` awaits an async
            one natively. Only the public API is used (``memories``, ``remember``,
            ``recall``, ``forget_key``, ``set_expiry``, ``users``).
        user_index: position of the user label in every namespace (default 1, as in
            ``("users", user, ...)``; LangMem's ``("memories", user)`` also fits).
        system_context: the core system context the items live in.
        kind: the core kind of store items.
        source: the core source of store writes (``agent`` by default: the agent's own
            notes; ``admin_set`` makes them business rules that outrank the user).
        confidence: the confidence of store writes (``None``: the core's default for
            ``source``, ``MemoryConfig.source_confidence``).
        key_prefix: first component of the core key of every store item.
        recall_pool: how many recall hits a semantic search asks the core for.
        ttl_config: LangGraph's ``TTLConfig`` (``default_ttl`` minutes,
            ``refresh_on_read``); ``None``: items never expire unless ``put`` gives a
            ``ttl``.
    """

    supports_ttl = True

    def __init__(
        self,
        memory: Any,
        *,
        user_index: int = 1,
        system_context: str = "default",
        kind: str = "fact",
        source: str = "agent",
        confidence: float | None = None,
        key_prefix: str = "lg",
        recall_pool: int = 50,
        ttl_config: TTLConfig | None = None,
    ) -> None:
        check_count(user_index, "user_index", minimum=0)
        if not key_prefix or "." in key_prefix:
            raise InvalidInputError(
                f"key_prefix must be a non-empty label without '.', got {key_prefix!r}"
            )
        try:
            Kind(kind)
            Source(source)
        except ValueError as exc:
            raise InvalidInputError(f"bad store kind/source: {exc}") from exc
        if confidence is not None and (
            isinstance(confidence, bool)
            or not isinstance(confidence, int | float)
            or not 0.0 <= confidence <= 1.0
        ):
            raise InvalidInputError(f"confidence must be a number in [0, 1], got {confidence!r}")
        self.memory = memory
        self.confidence = confidence
        self.ttl_config = ttl_config
        self.user_index = user_index
        self.system_context = system_context
        self.kind = kind
        self.source = source
        self.key_prefix = key_prefix
        self.recall_pool = recall_pool

    # -- addressing ----------------------------------------------------------------

    def _split(self, namespace: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
        """(core user id, namespace labels without the user label)."""
        if len(namespace) <= self.user_index:
            raise StoreNamespaceError(
                f"namespace {namespace} has no user label at position {self.user_index}; "
                f"use user_namespace(user_id, ...)"
            )
        rest = namespace[: self.user_index] + namespace[self.user_index + 1 :]
        return _label_to_user(namespace[self.user_index]), rest

    def _core_key(self, namespace: tuple[str, ...], key: str) -> tuple[str, str]:
        """(core user id, core key ``<prefix>[.<label>...]:<key>``), every part %-escaped.

        The item key follows a ":" so that revoking one item (the core also revokes
        ``<key>.*`` sub-keys) can never touch an item of a deeper namespace.
        """
        user_id, rest = self._split(namespace)
        return user_id, ".".join([self.key_prefix, *(_enc(p) for p in rest)]) + ":" + _enc(key)

    def _address(self, user_id: str, core_key: str) -> Address | None:
        head, sep, tail = core_key.rpartition(":")
        parts = head.split(".")
        if not sep or parts[0] != self.key_prefix:
            return None
        labels = [unquote(p) for p in parts[1:]]
        if len(labels) < self.user_index:
            return None
        namespace = (*labels[: self.user_index], user_label(user_id), *labels[self.user_index :])
        return namespace, unquote(tail)

    # -- reading the core ----------------------------------------------------------

    # -- op planning ---------------------------------------------------------------

    def _users_for_prefix(self, prefix: Sequence[str]) -> str | None:
        """The one user a namespace prefix addresses, or ``None`` for "any user"."""
        if len(prefix) > self.user_index and prefix[self.user_index] != "*":
            return _label_to_user(prefix[self.user_index])
        return None

    def _needs(self, ops: Sequence[Op]) -> tuple[set[str], bool]:
        """Users whose snapshot the read ops need, and whether all users are needed."""
        users: set[str] = set()
        everyone = False
        for op in ops:
            if isinstance(op, GetOp):
                users.add(self._split(op.namespace)[0])
            elif isinstance(op, SearchOp):
                who = self._users_for_prefix(op.namespace_prefix)
                everyone |= who is None
                if who is not None:
                    users.add(who)
            elif isinstance(op, ListNamespacesOp):
                prefixes = [c.path for c in op.match_conditions or () if c.match_type == "prefix"]
                whos = [self._users_for_prefix(p) for p in prefixes]
                known = [w for w in whos if w is not None]
                if known:
                    users.update(known)
                else:
                    everyone = True
        return users, everyone

    @staticmethod
    def _check(ops: Iterable[Op]) -> list[Op]:
        checked = list(ops)
        for op in checked:
            if not isinstance(op, GetOp | SearchOp | PutOp | ListNamespacesOp):
                raise InvalidInputError(f"unknown store operation {type(op).__name__}")
            try:
                validate_op_namespace(op)
            except InvalidNamespaceError as exc:
                raise StoreNamespaceError(str(exc)) from exc
            if isinstance(op, SearchOp) and op.filter is not None:
                validate_filter(op.filter)
        return checked

    def _puts(self, ops: Sequence[Op]) -> list[tuple[str, str, str | None, float | None]]:
        """(user id, core key, JSON value or None to delete, TTL in minutes); the last put
        per item wins."""
        latest: dict[Address, PutOp] = {}
        for op in ops:
            if isinstance(op, PutOp):
                latest.pop((op.namespace, op.key), None)
                latest[(op.namespace, op.key)] = op
        out: list[tuple[str, str, str | None, float | None]] = []
        for op in latest.values():
            user_id, core_key = self._core_key(op.namespace, str(op.key))
            if op.value is None:
                out.append((user_id, core_key, None, None))
                continue
            ttl = op.ttl
            if ttl is not None and (
                isinstance(ttl, bool) or not isinstance(ttl, int | float) or not ttl > 0
            ):
                raise InvalidInputError(f"ttl must be a positive number of minutes, got {ttl!r}")
            if not isinstance(op.value, Mapping):
                raise InvalidInputError(
                    f"store values must be mappings, got {type(op.value).__name__}"
                )
            try:
                text = json.dumps(dict(op.value), ensure_ascii=False, separators=(",", ":"))
            except (TypeError, ValueError) as exc:
                raise InvalidInputError(
                    f"store value for {op.key!r} is not JSON-serialisable: {exc}"
                ) from exc
            out.append((user_id, core_key, text, None if ttl is None else float(ttl)))
        return out

    def _remember_kwargs(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "source": self.source,
            "confidence": self.confidence,
            "system_context": self.system_context,
            "actor": "langgraph_store",
        }

    # -- TTL -----------------------------------------------------------------------

    def _expiry(self, record: MemoryRecord, ttl: float | None) -> MemoryRecord | None:
        """``record`` with the expiry a put with ``ttl`` gives it (``None``: unchanged)."""
        meta = dict(record.metadata)
        if ttl is None:
            if record.valid_until is None and _TTL_KEY not in meta:
                return None
            meta.pop(_TTL_KEY, None)
            return record.replace(valid_until=None, metadata=meta)
        meta[_TTL_KEY] = ttl
        until = _clock(self.memory).now() + timedelta(minutes=ttl)
        return record.replace(valid_until=until, metadata=meta)

    def _refreshed(
        self, ops: Sequence[Op], results: Sequence[Result], snaps: Mapping[str, Snapshot]
    ) -> list[MemoryRecord]:
        """The records whose TTL the reads in ``ops`` refresh (``refresh_ttl``)."""
        addresses: set[Address] = set()
        for op, result in zip(ops, results, strict=True):
            if isinstance(op, GetOp | SearchOp) and op.refresh_ttl and result:
                found = [result] if isinstance(result, Item) else result
                addresses.update((i.namespace, i.key) for i in found if isinstance(i, Item))
        out = []
        for snap in snaps.values():
            for address in addresses & snap.records.keys():
                record = snap.records[address]
                ttl = record.metadata.get(_TTL_KEY)
                if isinstance(ttl, int | float):
                    updated = self._expiry(record, float(ttl))
                    if updated is not None:
                        out.append(updated)
        return out

    def _write_expiry(self, records: Sequence[MemoryRecord]) -> Plan[None]:
        """Store new expiry times (the records keep their id, value and version)."""
        for user_id in dict.fromkeys(r.user_id for r in records):
            mine = [r for r in records if r.user_id == user_id]
            yield core_call(
                "set_expiry",
                user_id,
                {r.id: r.valid_until for r in mine},
                system_context=self.system_context,
                metadata={r.id: {_TTL_KEY: r.metadata.get(_TTL_KEY)} for r in mine},
            )

    # -- answering -----------------------------------------------------------------

    def _answer(
        self,
        op: Op,
        snaps: Mapping[str, Snapshot],
        recalled: Mapping[int, list[ScoredMemory]],
        index: int,
    ) -> Result:
        if isinstance(op, GetOp):
            user_id, _ = self._split(op.namespace)
            return snaps[user_id].items.get((op.namespace, str(op.key)))
        if isinstance(op, SearchOp):
            return search(op, snaps, recalled.get(index))
        if isinstance(op, ListNamespacesOp):
            return list_namespaces(op, snaps)
        return None

    def _recall_kwargs(self, op: SearchOp) -> dict[str, Any]:
        return {
            "k": max(self.recall_pool, op.offset + op.limit),
            "system_context": self.system_context,
            "kinds": [self.kind],
        }

    # -- BaseStore -----------------------------------------------------------------

    def _memories_kwargs(self) -> dict[str, Any]:
        # every version: item creation times and namespace order
        return {
            "system_context": self.system_context,
            "kinds": [self.kind],
            "key_prefix": self.key_prefix,
            "all_versions": True,
        }

    def _batch(self, ops: Iterable[Op]) -> Plan[list[Result]]:
        """The batch as one plan of core calls: read the users' items (and recall for
        searches), answer the reads, then apply the puts and the TTL refreshes."""
        checked = self._check(ops)
        users, everyone = self._needs(checked)
        if everyone:
            users |= set((yield core_call("users")))
        snaps: dict[str, Snapshot] = {}
        for user_id in users:
            records = yield core_call("memories", user_id, **self._memories_kwargs())
            snaps[user_id] = build_snapshot(
                user_id,
                records,
                key_prefix=self.key_prefix,
                address=self._address,
                now=_clock(self.memory).now(),
            )
        recalled: dict[int, list[ScoredMemory]] = {}
        for i, op in enumerate(checked):
            if isinstance(op, SearchOp) and op.query:
                hits: list[ScoredMemory] = []
                for user_id in snaps:
                    kwargs = self._recall_kwargs(op)
                    hits.extend((yield core_call("recall", user_id, op.query, **kwargs)))
                recalled[i] = sorted(hits, key=lambda h: h.score, reverse=True)
        results = [self._answer(op, snaps, recalled, i) for i, op in enumerate(checked)]
        expiry = self._refreshed(checked, results, snaps)
        for user_id, core_key, text, ttl in self._puts(checked):
            if text is None:
                yield core_call("forget_key", user_id, core_key, system_context=self.system_context)
                continue
            record = yield core_call("remember", user_id, core_key, text, **self._remember_kwargs())
            expiry = [r for r in expiry if r.key != record.key or r.user_id != user_id]
            expiry.extend(r for r in [self._expiry(record, ttl)] if r is not None)
        yield from self._write_expiry(expiry)
        return results

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Execute get / search / put / list-namespaces operations.

        Args:
            ops: the operations.

        Returns:
            One result per operation, in order.
        """
        return run_plan(self.memory, self._batch(ops))

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """Async :meth:`batch` (awaits an ``AsyncUserMemory`` natively).

        Args:
            ops: the operations.

        Returns:
            One result per operation, in order.
        """
        return await arun_plan(self.memory, self._batch(ops))


@contextlib.contextmanager
def _as_store_namespace_error() -> Iterator[None]:
    try:
        yield
    except StoreNamespaceError:
        raise
    except InvalidNamespaceError as exc:
        raise StoreNamespaceError(str(exc)) from exc


def _typed_namespace_errors(name: str) -> None:
    """Make ``UserMemoryStore.<name>`` raise ``StoreNamespaceError`` for bad labels.

    ``BaseStore``'s convenience methods check the labels themselves before ``batch``
    and raise LangGraph's bare ``InvalidNamespaceError``; this re-raises it as
    :class:`StoreNamespaceError` (still an ``InvalidNamespaceError``).
    """
    base = getattr(BaseStore, name)
    wrapper: Any
    if inspect.iscoroutinefunction(base):

        async def wrapper(self: UserMemoryStore, *args: Any, **kwargs: Any) -> Any:
            with _as_store_namespace_error():
                return await base(self, *args, **kwargs)

    else:

        def wrapper(self: UserMemoryStore, *args: Any, **kwargs: Any) -> Any:
            with _as_store_namespace_error():
                return base(self, *args, **kwargs)

    setattr(UserMemoryStore, name, functools.wraps(base)(wrapper))


for _name in ("get", "search", "put", "delete", "list_namespaces"):
    _typed_namespace_errors(_name)
    _typed_namespace_errors("a" + _name)


def _clock(memory: Any) -> Clock:
    """The clock of ``memory`` (an ``AsyncUserMemory`` or async client keeps it on ``.sync``)."""
    clock = getattr(getattr(memory, "sync", memory), "clock", None)
    if clock is None or not callable(getattr(clock, "now", None)):
        raise InvalidInputError(
            f"{type(memory).__name__} is not a UserMemory / AsyncUserMemory / UserMemoryClient"
        )
    return clock  # type: ignore[no-any-return]
