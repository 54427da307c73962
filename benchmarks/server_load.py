"""Load test of the memory server on PostgreSQL + Redis: throughput, p50/p95, lost writes.

Starts ``usermemory serve`` as its own process on loopback (records and vectors in a
throwaway PostgreSQL schema, sessions, profile cache and change stream in Redis under a
throwaway key prefix, API keys in a temporary SQLite file), creates a key with
``usermemory keys create``, then runs ``--clients`` concurrent clients (async httpx, one
user each) for ``--duration`` seconds. Each client loops: ``POST /v1/observe`` with a new
statement ("I live in Town<n>x.", so every acknowledged write becomes a new version of
``location.address``), then ``POST /v1/context`` for the question it answers (the block
must be that user's).

Afterwards every user's ``/v1/history`` must list exactly the values the server
acknowledged, in order (no lost or doubled writes), and every request must have succeeded.
Prints requests/s and p50/p95 per operation plus the machine, and writes JSON with
``--out``. Exit code 1 on any error or lost write. The schema and the Redis keys it made
are removed at the end.

Run::

    python benchmarks/server_load.py                          # 50 clients, 30 s
    python benchmarks/server_load.py --clients 5 --duration 3 # the CI smoke
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]


def _machine() -> str:
    try:
        found = re.findall(r"model name\s*:\s*(.+)", Path("/proc/cpuinfo").read_text())
    except OSError:
        found = []
    model = found[0].strip() if found else platform.processor() or "unknown CPU"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return f"{os.cpu_count()} cores, {model}, {platform.system()}; load avg {load:.1f} at start"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


async def _client(
    http: httpx.AsyncClient,
    user: str,
    deadline: float,
    lat: dict[str, list[float]],
    acked: list[str],
    errors: list[str],
) -> None:
    n = 0
    while time.monotonic() < deadline:
        n += 1
        town = f"Town{n}x"
        for op, body in (
            ("observe", {"user_id": user, "text": f"I live in {town}.", "session_id": "s1"}),
            ("context", {"user_id": user, "query": "Where do I live?"}),
        ):
            t0 = time.perf_counter()
            try:
                r = await http.post(f"/v1/{op}", json=body)
            except httpx.HTTPError as exc:
                errors.append(f"{op}: {type(exc).__name__}: {exc}")
                continue
            lat[op].append((time.perf_counter() - t0) * 1000)
            if r.status_code != 200:
                errors.append(f"{op}: HTTP {r.status_code}: {r.text[:200]}")
            elif op == "observe":
                acked.append(town)
            elif f'User: "{user}"' not in r.json()["context"]:
                errors.append(f"the context block for {user} is not {user}'s")


async def _load(base: str, key: str, clients: int, duration: float) -> dict[str, Any]:
    lat: dict[str, list[float]] = {"observe": [], "context": []}
    acked: dict[str, list[str]] = {f"load-{i}": [] for i in range(clients)}
    errors: list[str] = []
    # one AsyncClient (one keep-alive connection) per simulated client, as 50 independent
    # callers would have: a single client pooling 50 connections spends ~6-7 ms of CPU per
    # request in httpcore's pool bookkeeping at this concurrency (measured: 0.8 ms with one
    # client each), half of this 2-core machine, which the server under test then lacks.
    # Keep-alive shorter than the server's (15 s), so a connection is never reused just as
    # the server closes it.
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1, keepalive_expiry=5)
    headers = {"Authorization": f"Bearer {key}"}
    https = {
        u: httpx.AsyncClient(base_url=base, headers=headers, timeout=60, limits=limits)
        for u in acked
    }
    try:
        started = time.monotonic()
        deadline = started + duration
        await asyncio.gather(
            *(_client(https[u], u, deadline, lat, acked[u], errors) for u in acked)
        )
        elapsed = time.monotonic() - started
        lost = 0
        for user, towns in acked.items():
            r = await https[user].post(
                "/v1/history", json={"user_id": user, "key": "location.address"}
            )
            stored = [rec["value"] for rec in r.json()["records"]]
            if stored != towns:
                lost += 1
                errors.append(
                    f"{user}: acknowledged {len(towns)} writes, history has {len(stored)}"
                )
    finally:
        for http in https.values():
            await http.aclose()
    total = len(lat["observe"]) + len(lat["context"])
    return {
        "clients": clients,
        "seconds": round(elapsed, 1),
        "requests": total,
        "requests_per_s": round(total / elapsed, 1),
        "ops": {
            op: {
                "count": len(xs),
                "per_s": round(len(xs) / elapsed, 1),
                "p50_ms": round(_pct(xs, 50), 1),
                "p95_ms": round(_pct(xs, 95), 1),
                "mean_ms": round(statistics.fmean(xs), 1) if xs else None,
            }
            for op, xs in lat.items()
        },
        "errors": len(errors),
        "error_samples": errors[:5],
        "users_with_lost_writes": lost,
        "writes_acknowledged": sum(len(t) for t in acked.values()),
    }


def _cleanup(pg_url: str, schema: str, redis_url: str, prefix: str) -> None:
    import psycopg
    import redis

    with psycopg.connect(pg_url, autocommit=True) as con:
        con.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    r = redis.Redis.from_url(redis_url)
    for k in r.scan_iter(match=f"{prefix}*", count=1000):
        r.delete(k)
    r.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--duration", type=float, default=30.0, help="seconds of load")
    ap.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432/test")
    ap.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    ap.add_argument(
        "--embedder",
        default="hashing",
        choices=("hashing", "onnx", "auto"),
        help="the server's embedder (hashing: measures the server and stores, not MiniLM)",
    )
    ap.add_argument("--out", default=None, help="write the result as JSON here")
    args = ap.parse_args(argv)
    if args.clients < 1 or args.duration <= 0:
        ap.error("--clients must be >= 1 and --duration > 0")

    run = uuid.uuid4().hex[:8]
    schema = f"server_load_{run}"
    prefix = f"server_load_{run}:"
    sep = "&" if "?" in args.pg else "?"
    pg_url = f"{args.pg}{sep}schema={schema}"
    rsep = "&" if "?" in args.redis else "?"
    redis_url = f"{args.redis}{rsep}prefix={prefix}"
    port = _free_port()
    machine = _machine()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryDirectory() as tmp:
        keys_url = f"sqlite:///{tmp}/keys.db"
        cli = [sys.executable, "-m", "shared_core.cli"]
        made = subprocess.run(
            [*cli, "keys", "create", "--tenant", "load", "--keys-url", keys_url],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        key = made.stdout.strip().splitlines()[-1]
        log = open(Path(tmp) / "server.log", "w")  # noqa: SIM115 - closed in finally
        server = subprocess.Popen(
            [
                *cli,
                "serve",
                "--port",
                str(port),
                "--url",
                pg_url,
                "--keys-url",
                keys_url,
                "--sessions-url",
                redis_url,
                "--cache-url",
                redis_url,
                "--events-url",
                redis_url,
                "--embedder",
                args.embedder,
                "--rate-limit",
                "0",
                "--no-mcp",
            ],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 120
            while True:
                try:
                    ready = httpx.get(f"{base}/readyz", timeout=5)
                    break
                except httpx.TransportError:
                    if server.poll() is not None or time.monotonic() > deadline:
                        log.flush()
                        print((Path(tmp) / "server.log").read_text()[-3000:], file=sys.stderr)
                        return 1
                    time.sleep(0.2)
            stores = ready.json()["stores"]
            if ready.status_code != 200 or "cache" not in stores:
                print(f"server not ready on PostgreSQL + Redis: {ready.text}", file=sys.stderr)
                return 1
            result = asyncio.run(_load(base, key, args.clients, args.duration))
        finally:
            server.terminate()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
            log.close()
            _cleanup(args.pg, schema, args.redis, prefix)
    result.update(
        machine=machine,
        backends="PostgreSQL records (+ pgvector if installed), Redis sessions+cache+events",
        embedder=args.embedder,
        command=" ".join([Path(sys.argv[0]).name, *(argv if argv is not None else sys.argv[1:])]),
    )
    o, c = result["ops"]["observe"], result["ops"]["context"]
    print(f"machine: {machine}")
    print(
        f"{result['clients']} clients for {result['seconds']} s on {result['backends']} "
        f"(embedder {args.embedder})"
    )
    print(
        f"throughput: {result['requests_per_s']} requests/s "
        f"({o['per_s']} observe/s + {c['per_s']} context/s)"
    )
    print(f"observe: p50 {o['p50_ms']} ms, p95 {o['p95_ms']} ms ({o['count']} calls)")
    print(f"context: p50 {c['p50_ms']} ms, p95 {c['p95_ms']} ms ({c['count']} calls)")
    print(
        f"errors: {result['errors']}; users with lost writes: "
        f"{result['users_with_lost_writes']} ({result['writes_acknowledged']} writes checked)"
    )
    for e in result["error_samples"]:
        print(f"  {e}")
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 1 if result["errors"] or result["users_with_lost_writes"] else 0


if __name__ == "__main__":
    sys.exit(main())
