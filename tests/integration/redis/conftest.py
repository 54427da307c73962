"""Fixtures for the Redis backend tests: a real standalone Redis and a 3-node Redis Cluster.

- ``redis_url``: ``USERMEMORY_TEST_REDIS_URL`` or ``redis://127.0.0.1:6379/0``.
- ``redis_cluster``: three ``redis-server --cluster-enabled yes`` processes on free loopback
  ports (cluster bus = port + 10000), joined with ``redis-cli --cluster create``; torn down
  at the end of the session.
- ``client`` / ``aclient``: parametrized over ``standalone`` and ``cluster``.
- ``prefix``: a random key prefix; every key under it is deleted after the test.

When a server is unreachable the tests fail under ``CI=true`` and skip otherwise.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis
import redis.asyncio
import redis.asyncio.cluster
import redis.cluster

pytestmark = pytest.mark.integration

DEFAULT_URL = "redis://127.0.0.1:6379/0"


def unavailable(reason: str) -> None:
    """Fail under CI=true, skip locally."""
    if os.environ.get("CI") == "true":
        pytest.fail(reason)
    pytest.skip(reason)


def _port_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def free_cluster_ports(count: int = 3, start: int = 30001, stop: int = 40000) -> list[int]:
    """``count`` consecutive ports whose cluster-bus ports (+10000) are free as well."""
    port = start + (os.getpid() % 500) * 7
    while port + count < stop:
        ports = list(range(port, port + count))
        if all(_port_free(p) and _port_free(p + 10000) for p in ports):
            return ports
        port += count
    raise RuntimeError("no free ports for a Redis Cluster")


@pytest.fixture(scope="session")
def redis_url() -> str:
    url = os.environ.get("USERMEMORY_TEST_REDIS_URL", DEFAULT_URL)
    client = redis.Redis.from_url(url, socket_connect_timeout=2)
    try:
        client.ping()
    except redis.exceptions.RedisError as exc:
        unavailable(
            f"Redis is not reachable at {url} ({exc}); start it with `redis-server` "
            "or set USERMEMORY_TEST_REDIS_URL"
        )
    finally:
        client.close()
    return url


@dataclass
class Cluster:
    ports: list[int]

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.ports[0]}/0"


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    server, cli = shutil.which("redis-server"), shutil.which("redis-cli")
    if not server or not cli:
        unavailable("redis-server/redis-cli not on PATH; install Redis 7 to run cluster tests")
    assert server and cli
    workdir: Path = tmp_path_factory.mktemp("redis-cluster")
    ports = free_cluster_ports()
    procs: list[subprocess.Popen[bytes]] = []
    try:
        for port in ports:
            log = open(workdir / f"{port}.log", "wb")  # noqa: SIM115 - closed with the process
            procs.append(
                subprocess.Popen(
                    [
                        server,
                        "--port",
                        str(port),
                        "--bind",
                        "127.0.0.1",
                        "--cluster-enabled",
                        "yes",
                        "--cluster-config-file",
                        str(workdir / f"nodes-{port}.conf"),
                        "--cluster-node-timeout",
                        "2000",
                        "--dir",
                        str(workdir),
                        "--save",
                        "",
                        "--appendonly",
                        "no",
                        "--daemonize",
                        "no",
                    ],
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            )
        for port in ports:
            _wait_ping(port)
        subprocess.run(
            [
                cli,
                "--cluster",
                "create",
                *(f"127.0.0.1:{p}" for p in ports),
                "--cluster-replicas",
                "0",
                "--cluster-yes",
            ],
            check=True,
            capture_output=True,
            timeout=30,
        )
        _wait_cluster_ok(ports)
        yield Cluster(ports)
    except (OSError, subprocess.SubprocessError, TimeoutError) as exc:
        unavailable(f"could not start a local Redis Cluster: {exc}")
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()


def _wait_ping(port: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            if redis.Redis(port=port, socket_connect_timeout=0.5).ping():
                return
        except redis.exceptions.ConnectionError:
            if time.monotonic() > deadline:
                raise TimeoutError(f"redis-server on {port} did not start") from None
            time.sleep(0.05)


def _wait_cluster_ok(ports: list[int], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        states = [
            redis.Redis(port=p, decode_responses=True).cluster("INFO")["cluster_state"]
            for p in ports
        ]
        if all(state == "ok" for state in states):
            return
        time.sleep(0.1)
    raise TimeoutError("Redis Cluster did not reach cluster_state:ok")


@pytest.fixture(params=["standalone", "cluster"])
def mode(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def client(mode: str, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A decode_responses sync client: ``redis.Redis`` or ``redis.cluster.RedisCluster``."""
    if mode == "cluster":
        cluster: Cluster = request.getfixturevalue("redis_cluster")
        c: Any = redis.cluster.RedisCluster(
            host="127.0.0.1", port=cluster.ports[0], decode_responses=True
        )
    else:
        c = redis.Redis.from_url(request.getfixturevalue("redis_url"), decode_responses=True)
    yield c
    c.close()


@pytest.fixture
async def aclient(mode: str, request: pytest.FixtureRequest) -> AsyncIterator[Any]:
    """The asyncio twin of :func:`client`."""
    if mode == "cluster":
        cluster: Cluster = request.getfixturevalue("redis_cluster")
        c: Any = redis.asyncio.cluster.RedisCluster(
            host="127.0.0.1", port=cluster.ports[0], decode_responses=True
        )
    else:
        c = redis.asyncio.Redis.from_url(
            request.getfixturevalue("redis_url"), decode_responses=True
        )
    yield c
    await c.aclose()


def all_keys(client: Any, match: str = "*") -> list[str]:
    """Every key matching ``match`` on every node (SCAN, cluster-aware)."""
    return sorted(str(k) for k in client.scan_iter(match=match, count=1000))


@pytest.fixture
def scan(client: Any) -> Callable[..., list[str]]:
    """``scan(match="*")``: every key on every node matching ``match``."""

    def run(match: str = "*") -> list[str]:
        return all_keys(client, match)

    return run


@pytest.fixture
def prefix(client: Any) -> Iterator[str]:
    """A random key prefix; its keys are removed after the test."""
    value = f"umtest:{uuid.uuid4().hex[:10]}:"
    yield value
    for key in all_keys(client, value + "*"):
        client.delete(key)


@pytest.fixture
def std_url(redis_url: str) -> Iterator[tuple[str, str, Any]]:
    """``(url with a random prefix option, the prefix, a standalone client)``; cleaned up."""
    value = f"umtest:{uuid.uuid4().hex[:10]}:"
    c = redis.Redis.from_url(redis_url, decode_responses=True)
    yield redis_url + ("&" if "?" in redis_url else "?") + f"prefix={value}", value, c
    for key in c.scan_iter(match=value + "*"):
        c.delete(key)
    c.close()
