"""From a user's store records to LangGraph items, and the answers to read operations.

:class:`~langchain_usermemory.store.UserMemoryStore` reads every version of a user's
store records in one core call; :func:`build_snapshot` turns them into the items
``get`` / ``search`` / ``list_namespaces`` answer from (an item's ``created_at`` is when
its current run of versions began, expired items are left out), and :func:`search` /
:func:`list_namespaces` answer those operations the way ``InMemoryStore`` does.
"""

from __future__ import annotations

import json
import logging
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from langgraph.store.base import Item, ListNamespacesOp, SearchItem, SearchOp

from shared_core import MemoryRecord, ScoredMemory, Status

from ._filters import matches, ns_matches

__all__ = ["Address", "Snapshot", "build_snapshot", "list_namespaces", "search", "search_item"]

logger = logging.getLogger("langchain_usermemory.store")

Address = tuple[tuple[str, ...], str]
"""An item's (namespace, key)."""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """One user's current store items, in insertion order."""

    items: dict[Address, Item]
    by_record: dict[str, Address]  # active record id -> item address
    order: dict[Address, tuple[Any, ...]]  # insertion-order sort key
    records: dict[Address, MemoryRecord]  # item address -> its record


def build_snapshot(
    user_id: str,
    records: Iterable[MemoryRecord],
    *,
    key_prefix: str,
    address: Callable[[str, str], Address | None],
    now: datetime,
) -> Snapshot:
    """Build the user's items from every version of their store records.

    Args:
        user_id: whose records.
        records: every version of the user's records (any key).
        key_prefix: the first component of store item keys (other records are skipped).
        address: the item address of a core key (``None``: not a store item).
        now: items whose TTL ran out by then are left out.
    """
    by_key: dict[str, list[MemoryRecord]] = defaultdict(list)
    for record in records:
        if record.key.startswith((key_prefix + ".", key_prefix + ":")):
            by_key[record.key].append(record)
    ns_first: dict[tuple[str, ...], datetime] = {}
    rows: list[tuple[datetime, Item, MemoryRecord]] = []
    for core_key, versions in by_key.items():
        found = address(user_id, core_key)
        if found is None:
            continue
        versions.sort(key=lambda r: (r.created_at, r.version))
        namespace, key = found
        first = versions[0].created_at
        ns_first[namespace] = min(ns_first.get(namespace, first), first)
        active = [r for r in versions if r.status is Status.ACTIVE]
        if not active:
            continue
        current = active[-1]
        if current.valid_until is not None and current.valid_until <= now:
            continue  # its TTL ran out
        started = current.created_at
        for r in reversed(versions[: versions.index(current)]):
            if r.status is not Status.SUPERSEDED:
                break
            started = r.created_at
        try:
            value = json.loads(current.value)
        except ValueError:
            logger.warning("store item %s of %s is not JSON; skipped", core_key, user_id)
            continue
        if not isinstance(value, dict):
            continue
        item = Item(
            value=value,
            key=key,
            namespace=namespace,
            created_at=started,
            updated_at=current.updated_at,
        )
        rows.append((started, item, current))
    items = {(item.namespace, item.key): item for _, item, _ in rows}
    by_record = {rec.id: (item.namespace, item.key) for _, item, rec in rows}
    held = {(item.namespace, item.key): rec for _, item, rec in rows}
    order = {
        (item.namespace, item.key): (
            ns_first[item.namespace],
            item.namespace,
            started,
            item.key,
        )
        for started, item, _ in rows
    }
    return Snapshot(items=items, by_record=by_record, order=order, records=held)


def search(
    op: SearchOp,
    snaps: Mapping[str, Snapshot],
    hits: list[ScoredMemory] | None,
) -> list[SearchItem]:
    prefix = tuple(op.namespace_prefix)
    ranked: list[tuple[tuple[Any, ...], Item]] = []
    for snap in snaps.values():
        for address, item in snap.items.items():
            if item.namespace[: len(prefix)] == prefix and matches(item.value, op.filter):
                ranked.append((snap.order[address], item))
    ranked.sort(key=lambda pair: pair[0])
    matching = [item for _, item in ranked]
    scored: list[SearchItem] = []
    if hits is not None:
        wanted = {(i.namespace, i.key): i for i in matching}
        seen: set[Address] = set()
        for hit in hits:
            for snap in snaps.values():
                found = snap.by_record.get(hit.record.id)
                if found is not None and found in wanted and found not in seen:
                    seen.add(found)
                    scored.append(search_item(wanted[found], hit.score))
        scored.extend(search_item(i, None) for i in matching if (i.namespace, i.key) not in seen)
    else:
        scored = [search_item(i, None) for i in matching]
    return scored[op.offset : op.offset + op.limit]


def list_namespaces(op: ListNamespacesOp, snaps: Mapping[str, Snapshot]) -> list[tuple[str, ...]]:
    namespaces = {ns for snap in snaps.values() for ns, _ in snap.items}
    if op.match_conditions:
        namespaces = {
            ns for ns in namespaces if all(ns_matches(c, ns) for c in op.match_conditions)
        }
    if op.max_depth is not None:
        namespaces = {ns[: op.max_depth] for ns in namespaces}
    return sorted(namespaces)[op.offset : op.offset + op.limit]


def search_item(item: Item, score: float | None) -> SearchItem:
    return SearchItem(
        namespace=item.namespace,
        key=item.key,
        value=item.value,
        created_at=item.created_at,
        updated_at=item.updated_at,
        score=score,
    )
