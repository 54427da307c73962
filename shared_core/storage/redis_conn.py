"""Reaching Redis: URL options, bounded-wait clients and error translation, shared by the
session store (:mod:`shared_core.storage.redis`) and the cache and bus
(:mod:`shared_core.storage.redis_events`)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from ..errors import ConfigError, MissingDependencyError, map_backend_errors

__all__ = [
    "DEFAULT_MAXLEN",
    "DEFAULT_STREAM",
    "SOCKET_CONNECT_TIMEOUT",
    "SOCKET_TIMEOUT",
    "Client",
    "RedisOptions",
    "client_kwargs",
    "connect",
    "parse_redis_url",
    "redis_errors",
]

Client = Any  # redis.Redis | redis.cluster.RedisCluster (or their asyncio twins)

DEFAULT_STREAM = "memory.update"
DEFAULT_MAXLEN = 10_000
#: Seconds any Redis command may wait for a reply (URL: ``?socket_timeout=``).
SOCKET_TIMEOUT = 1.0
#: Seconds to wait for a TCP connection (URL: ``?socket_connect_timeout=``).
SOCKET_CONNECT_TIMEOUT = 2.0


@contextlib.contextmanager
def redis_errors() -> Iterator[None]:
    """Translate redis-py exceptions into ``BackendUnavailableError`` / ``BackendError``."""
    from redis import exceptions as rx

    with map_backend_errors(
        "redis",
        unavailable=(
            rx.ConnectionError,
            rx.TimeoutError,
            rx.ClusterDownError,
            rx.RedisClusterException,
            OSError,
        ),
        failed=(rx.RedisError,),
    ):
        yield


@dataclass(frozen=True, slots=True)
class RedisOptions:
    """UserMemory options read from a Redis URL's query string (the rest goes to redis-py).

    ``redis://host:6379/0?prefix=app:&ttl=1800&cluster=true&maxlen=10000&cache_ttl=600``;
    the schemes ``redis+cluster://`` / ``rediss+cluster://`` also select a cluster client.
    """

    url: str
    cluster: bool = False
    prefix: str = ""
    ttl: float | None = None
    cache_ttl: float | None = None
    stream: str = DEFAULT_STREAM
    maxlen: int = DEFAULT_MAXLEN


def parse_redis_url(url: str) -> RedisOptions:
    """Split a ``redis://``/``rediss://`` URL into redis-py's URL and our options."""
    if not isinstance(url, str):
        raise ConfigError("a Redis URL must be a string")
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    cluster = scheme.endswith("+cluster")
    base = scheme.removesuffix("+cluster")
    if base not in ("redis", "rediss", "unix"):
        raise ConfigError(f"not a Redis URL: {url!r}")
    ours: dict[str, str] = {}
    rest: list[tuple[str, str]] = []
    for k, v in parse_qsl(parts.query, keep_blank_values=True):
        if k in ("prefix", "ttl", "cache_ttl", "cluster", "stream", "maxlen"):
            ours[k] = v
        else:
            rest.append((k, v))
    try:
        return RedisOptions(
            url=urlunsplit((base, parts.netloc, parts.path, urlencode(rest), parts.fragment)),
            cluster=cluster or ours.get("cluster", "").lower() in ("1", "true", "yes"),
            prefix=ours.get("prefix", ""),
            ttl=float(ours["ttl"]) if "ttl" in ours else None,
            cache_ttl=float(ours["cache_ttl"]) if "cache_ttl" in ours else None,
            stream=ours.get("stream") or DEFAULT_STREAM,
            maxlen=int(ours.get("maxlen", DEFAULT_MAXLEN)),
        )
    except ValueError as exc:
        raise ConfigError(f"bad option in Redis URL {url!r}: {exc}") from exc


def client_kwargs() -> dict[str, Any]:
    """redis-py client options that bound every network call.

    A hung server (SIGSTOP, a dead peer behind a live TCP stack) raises ``TimeoutError``
    after :data:`SOCKET_TIMEOUT` instead of blocking, and a timeout is never retried (one
    retry only for a dropped pooled connection). A URL may override both
    (``?socket_timeout=5&socket_connect_timeout=5``).
    """
    from redis import exceptions as rx
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    return {
        "decode_responses": True,
        "socket_connect_timeout": SOCKET_CONNECT_TIMEOUT,
        "socket_timeout": SOCKET_TIMEOUT,
        "retry": Retry(NoBackoff(), 1, supported_errors=(rx.ConnectionError,)),
    }


def connect(client_or_url: Client | str) -> tuple[Client, bool, RedisOptions]:
    """Return ``(client, owned, options)``: a sync client built from a URL, or the one given."""
    if not isinstance(client_or_url, str):
        return client_or_url, False, RedisOptions(url="")
    opts = parse_redis_url(client_or_url)
    try:
        import redis
        import redis.cluster
    except ImportError as exc:  # pragma: no cover - exercised only without the extra
        raise MissingDependencyError("redis", "redis") from exc
    kwargs = client_kwargs()
    with redis_errors():
        if opts.cluster:
            return redis.cluster.RedisCluster.from_url(opts.url, **kwargs), True, opts
        return redis.Redis.from_url(opts.url, **kwargs), True, opts
