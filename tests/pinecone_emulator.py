"""A local EMULATOR of the Pinecone REST API, for tests. It is not Pinecone.

Pinecone's cloud is unreachable from CI and Pinecone Local needs Docker, so the
Pinecone backend is tested through the real ``pinecone`` SDK against this
in-process emulator of the REST control plane and data plane (API version
2026-07, the one SDK v10 speaks):

- control plane (one server): ``POST /indexes``, ``GET /indexes``,
  ``GET /indexes/{name}``, ``DELETE /indexes/{name}``;
- data plane (one server per index, like Pinecone's per-index hosts):
  ``POST /vectors/upsert``, ``POST /query``, ``GET /vectors/fetch``,
  ``POST /vectors/fetch_by_metadata``, ``POST /vectors/delete`` (ids, filter or
  deleteAll), ``GET /vectors/list`` (prefix + pagination) and
  ``POST /describe_index_stats``.

It validates requests the way the service does (API key, dimension mismatch,
metadata types and size, request size and vector count limits, filter syntax,
``top_k`` range, one delete selector) and answers with the service's JSON shapes.
Search is exact cosine (or dot product) with numpy, and writes are visible
immediately: the real service is eventually consistent, so passing here does not
prove a caller tolerates read-after-write lag.

Filters support ``$eq $ne $gt $gte $lt $lte $in $nin $exists $and $or``, a bare
value as ``$eq``, several top-level fields as an implicit ``$and``, and list-of-
string metadata (``$eq``/``$in`` match when any element matches; ``$ne``/``$nin``
when none does; a missing field matches ``$ne``/``$nin`` only).

For tests it also records every request (:attr:`PineconeEmulator.requests`),
exposes the stored data (:meth:`PineconeEmulator.stored`), can refuse delete by
metadata filter as older serverless indexes did
(``delete_by_filter_supported=False``) and can inject failures
(:meth:`PineconeEmulator.inject_failures`).

Usage::

    with PineconeEmulator(api_key="test-key") as emu:
        pc = Pinecone(api_key="test-key", host=emu.control_host)
"""

from __future__ import annotations

import base64
import itertools
import json
import math
import re
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import numpy as np

__all__ = ["EmulatedIndex", "PineconeEmulator", "RequestRecord"]

MAX_REQUEST_BYTES = 2 * 1024 * 1024  # Pinecone: 2 MB per upsert request
MAX_UPSERT_VECTORS = 1000  # Pinecone: 1000 records per upsert request
MAX_DELETE_IDS = 1000
MAX_FETCH_IDS = 1000
MAX_METADATA_BYTES = 40 * 1024  # Pinecone: 40 KB of metadata per record
MAX_ID_LEN = 512
MAX_TOP_K = 10_000
MAX_DIMENSION = 20_000
LIST_DEFAULT_LIMIT = 100
LIST_MAX_LIMIT = 100
_NAME_RE = re.compile(r"^[a-z0-9]([a-z0-9-]{0,43}[a-z0-9])?$")
_FIELD_OPS = frozenset({"$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin", "$exists"})
_LOGICAL_OPS = frozenset({"$and", "$or"})


class _HttpError(Exception):
    """An error answer: status, gRPC-style code name and message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def _bad(message: str) -> _HttpError:
    return _HttpError(400, "INVALID_ARGUMENT", message)


@dataclass(frozen=True, slots=True)
class RequestRecord:
    """One request the emulator received."""

    index: str | None  # None for the control plane
    method: str
    path: str
    body_bytes: int
    status: int


@dataclass(slots=True)
class _Failure:
    remaining: int
    status: int
    path: str | None
    index: str | None


@dataclass(slots=True)
class _StoredVector:
    values: np.ndarray
    metadata: dict[str, Any]


@dataclass(slots=True)
class EmulatedIndex:
    """One emulated serverless index: its settings, namespaces and data-plane server."""

    name: str
    dimension: int
    metric: str
    cloud: str
    region: str
    tags: dict[str, str] | None
    deletion_protection: str
    namespaces: dict[str, dict[str, _StoredVector]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    server: ThreadingHTTPServer | None = None
    thread: threading.Thread | None = None

    @property
    def host(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def model(self) -> dict[str, Any]:
        """The describe-index JSON of the 2026-07 control plane."""
        return {
            "name": self.name,
            "host": self.host,
            "status": {"ready": True, "state": "Ready"},
            "schema": {
                "fields": {
                    "_values": {
                        "type": "dense_vector",
                        "dimension": self.dimension,
                        "metric": self.metric,
                    }
                }
            },
            "deployment": {
                "deployment_type": "managed",
                "cloud": self.cloud,
                "region": self.region,
            },
            "read_capacity": {"mode": "OnDemand", "status": {"state": "Ready"}},
            "deletion_protection": self.deletion_protection,
            "tags": self.tags,
        }


# --------------------------------------------------------------------------- filters


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _check_scalar(op: str, v: Any) -> None:
    if not isinstance(v, (str, bool)) and not _is_number(v):
        raise _bad(f"Invalid value for operator {op}: must be a string, number or boolean")


def validate_filter(flt: Any, *, top: bool = True) -> None:
    """Raise a 400 unless ``flt`` is a filter expression the service accepts."""
    if not isinstance(flt, dict):
        raise _bad("Invalid filter: must be an object")
    if top and not flt:
        raise _bad("Invalid filter: empty filter")
    for key, cond in flt.items():
        if key in _LOGICAL_OPS:
            if not isinstance(cond, list) or not cond:
                raise _bad(f"Invalid filter: {key} must be a non-empty array of filters")
            for sub in cond:
                validate_filter(sub, top=False)
                if not sub:
                    raise _bad(f"Invalid filter: empty filter inside {key}")
        elif key.startswith("$"):
            raise _bad(f"Invalid filter: unknown operator {key} at the top level")
        elif isinstance(cond, dict):
            if not cond:
                raise _bad(f"Invalid filter for field {key}: empty condition")
            for op, v in cond.items():
                if op not in _FIELD_OPS:
                    raise _bad(f"Invalid filter for field {key}: unknown operator {op}")
                if op in ("$in", "$nin"):
                    if not isinstance(v, list):
                        raise _bad(f"Invalid filter: {op} requires an array")
                    for item in v:
                        _check_scalar(op, item)
                elif op in ("$gt", "$gte", "$lt", "$lte"):
                    if not _is_number(v):
                        raise _bad(f"Invalid filter: {op} requires a number")
                elif op == "$exists":
                    if not isinstance(v, bool):
                        raise _bad("Invalid filter: $exists requires a boolean")
                else:
                    _check_scalar(op, v)
        else:
            _check_scalar("$eq", cond)


def _field_matches(op: str, arg: Any, present: bool, value: Any) -> bool:
    if op == "$exists":
        return present is arg
    if not present:
        return op in ("$ne", "$nin")
    values = value if isinstance(value, list) else [value]
    if op == "$eq":
        return any(_same(v, arg) for v in values)
    if op == "$ne":
        return not any(_same(v, arg) for v in values)
    if op == "$in":
        return any(_same(v, a) for v in values for a in arg)
    if op == "$nin":
        return not any(_same(v, a) for v in values for a in arg)
    numeric = [v for v in values if _is_number(v)]
    if op == "$gt":
        return any(v > arg for v in numeric)
    if op == "$gte":
        return any(v >= arg for v in numeric)
    if op == "$lt":
        return any(v < arg for v in numeric)
    return any(v <= arg for v in numeric)  # $lte


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a is b
    if _is_number(a) and _is_number(b):
        return float(a) == float(b)
    return bool(type(a) is type(b) and a == b)


def filter_matches(flt: Mapping[str, Any], metadata: Mapping[str, Any]) -> bool:
    """Whether ``metadata`` satisfies the (already validated) filter ``flt``."""
    for key, cond in flt.items():
        if key == "$and":
            if not all(filter_matches(sub, metadata) for sub in cond):
                return False
        elif key == "$or":
            if not any(filter_matches(sub, metadata) for sub in cond):
                return False
        else:
            present = key in metadata
            value = metadata.get(key)
            ops = cond if isinstance(cond, dict) else {"$eq": cond}
            for op, arg in ops.items():
                if not _field_matches(op, arg, present, value):
                    return False
    return True


# --------------------------------------------------------------------------- validation


def _validate_id(value: Any, what: str = "Vector ID") -> str:
    if not isinstance(value, str) or not value:
        raise _bad(f"{what} must be a non-empty string")
    if len(value) > MAX_ID_LEN:
        raise _bad(f"{what} exceeds the maximum length of {MAX_ID_LEN} characters")
    if not value.isascii() or "\x00" in value:
        raise _bad(f"{what} must be ASCII without null characters")
    return value


def _validate_metadata(vid: str, metadata: Any) -> dict[str, Any]:
    if metadata is None:
        return {}
    if not isinstance(metadata, dict):
        raise _bad(f"Metadata of vector {vid} must be an object")
    for k, v in metadata.items():
        if isinstance(v, list):
            if not all(isinstance(x, str) for x in v):
                raise _bad(f"Metadata value of field {k} must be a list of strings")
        elif isinstance(v, float) and not math.isfinite(v):
            raise _bad(f"Metadata value of field {k} must be a finite number")
        elif not isinstance(v, (str, bool, int, float)):
            raise _bad(
                f"Metadata value of field {k} must be a string, number, boolean or list of strings"
            )
    size = len(json.dumps(metadata, separators=(",", ":")).encode())
    if size > MAX_METADATA_BYTES:
        raise _bad(
            f"Metadata size is {size} bytes, which exceeds the limit of {MAX_METADATA_BYTES} "
            "bytes per vector"
        )
    return dict(metadata)


def _validate_values(vid: str, values: Any, dimension: int, metric: str) -> np.ndarray:
    if not isinstance(values, list) or not all(_is_number(x) for x in values):
        raise _bad(f"Values of vector {vid} must be an array of numbers")
    if len(values) != dimension:
        raise _bad(
            f"Vector dimension {len(values)} does not match the dimension of the index {dimension}"
        )
    arr = np.asarray(values, dtype=np.float32)
    if not np.all(np.isfinite(arr)):
        raise _bad(f"Values of vector {vid} must be finite")
    if metric == "cosine" and not np.any(arr):
        raise _bad("Dense vectors must contain at least one non-zero value")
    return arr


def _encode_token(last_id: str) -> str:
    return base64.urlsafe_b64encode(last_id.encode()).decode()


def _decode_token(token: str) -> str:
    try:
        return base64.urlsafe_b64decode(token.encode()).decode()
    except (ValueError, UnicodeDecodeError) as exc:
        raise _bad("Invalid pagination token") from exc


def _int_param(params: Mapping[str, list[str]], name: str, default: int, lo: int, hi: int) -> int:
    raw = params.get(name)
    if not raw:
        return default
    try:
        value = int(raw[-1])
    except ValueError as exc:
        raise _bad(f"{name} must be an integer") from exc
    if not lo <= value <= hi:
        raise _bad(f"{name} must be between {lo} and {hi}")
    return value


# --------------------------------------------------------------------------- HTTP plumbing


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    allow_reuse_address = True

    def __init__(self, emulator: PineconeEmulator, index: EmulatedIndex | None) -> None:
        self.emulator = emulator
        self.index = index
        super().__init__(("127.0.0.1", 0), _Handler)


def _shutdown(srv: _Server) -> None:
    srv.shutdown()
    srv.server_close()


class _Handler(BaseHTTPRequestHandler):
    # Without this every small response waits for the peer's delayed ACK (~40 ms).
    disable_nagle_algorithm = True
    protocol_version = "HTTP/1.1"  # keep-alive, like the service
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        """Silence the default stderr access log."""

    def do_GET(self) -> None:
        self._dispatch("GET")

    def do_POST(self) -> None:
        self._dispatch("POST")

    def do_DELETE(self) -> None:
        self._dispatch("DELETE")

    def do_PATCH(self) -> None:
        self._dispatch("PATCH")

    def _dispatch(self, method: str) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        split = urlsplit(self.path)
        path = split.path
        params = parse_qs(split.query, keep_blank_values=True)
        emu = self.server.emulator
        index = self.server.index
        status = 500
        try:
            try:
                emu._check_auth(self.headers.get("Api-Key"))
                emu._maybe_fail(index.name if index else None, path)
                if len(raw) > MAX_REQUEST_BYTES:
                    raise _HttpError(
                        413,
                        "OUT_OF_RANGE",
                        f"Request size {len(raw)} bytes exceeds the maximum supported size "
                        f"of {MAX_REQUEST_BYTES} bytes",
                    )
                body: Any = None
                if raw:
                    try:
                        body = json.loads(raw)
                    except json.JSONDecodeError as exc:
                        raise _bad(f"Request body is not valid JSON: {exc}") from exc
                if index is None:
                    status, payload = emu._control(method, path, body)
                else:
                    status, payload = emu._data(index, method, path, params, body)
            except _HttpError as err:
                status = err.status
                payload = _error_body(err, control=index is None)
            except Exception as exc:  # a bug in the emulator: answer 500, never hang
                status = 500
                payload = {"code": 13, "message": f"emulator error: {exc!r}", "details": []}
        finally:
            emu._record(index.name if index else None, method, path, len(raw), status)
        self._send(status, payload)

    def _send(self, status: int, payload: Any) -> None:
        data = b"" if payload is None else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("x-pinecone-request-id", str(next(self.server.emulator._request_ids)))
        self.end_headers()
        if data:
            self.wfile.write(data)


_GRPC_CODES = {
    "INVALID_ARGUMENT": 3,
    "NOT_FOUND": 5,
    "ALREADY_EXISTS": 6,
    "UNAUTHENTICATED": 16,
    "OUT_OF_RANGE": 11,
    "UNAVAILABLE": 14,
    "INTERNAL": 13,
    "UNIMPLEMENTED": 12,
}


def _error_body(err: _HttpError, *, control: bool) -> dict[str, Any]:
    if control:  # control plane: {"error": {code, message}, "status"}
        return {"error": {"code": err.code, "message": err.message}, "status": err.status}
    return {"code": _GRPC_CODES.get(err.code, 2), "message": err.message, "details": []}


# --------------------------------------------------------------------------- the emulator


class PineconeEmulator:
    """An in-process emulator of Pinecone's REST control and data planes (not Pinecone).

    Args:
        api_key: the only API key accepted (the SDK requires one even here).
        delete_by_filter_supported: when False, ``/vectors/delete`` with a ``filter``
            answers 400 as serverless indexes used to, so callers must fall back.
    """

    def __init__(
        self, api_key: str = "emulator-key", *, delete_by_filter_supported: bool = True
    ) -> None:
        self.api_key = api_key
        self.delete_by_filter_supported = delete_by_filter_supported
        self.indexes: dict[str, EmulatedIndex] = {}
        self.requests: list[RequestRecord] = []
        self._lock = threading.Lock()
        self._failures: list[_Failure] = []
        self._request_ids = itertools.count(1)
        self._control_server: _Server | None = None
        self._threads: list[threading.Thread] = []

    # ---- lifecycle

    def start(self) -> PineconeEmulator:
        """Start the control-plane server (index servers start with their index)."""
        if self._control_server is None:
            self._control_server = self._serve(None)
        return self

    def stop(self) -> None:
        """Stop every server (the index data stays readable through :meth:`stored`)."""
        servers = [self._control_server] + [ix.server for ix in self.indexes.values()]
        for srv in servers:
            if srv is not None:
                srv.shutdown()
                srv.server_close()
        self._control_server = None
        for ix in self.indexes.values():
            ix.server = None
        for t in self._threads:
            t.join(timeout=5)
        self._threads.clear()

    def __enter__(self) -> PineconeEmulator:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def control_host(self) -> str:
        """``http://127.0.0.1:PORT`` of the control plane (pass as ``Pinecone(host=...)``)."""
        if self._control_server is None:
            raise RuntimeError("the emulator is not started")
        return f"http://127.0.0.1:{self._control_server.server_address[1]}"

    def _serve(self, index: EmulatedIndex | None) -> _Server:
        srv = _Server(self, index)
        t = threading.Thread(
            target=srv.serve_forever,
            kwargs={"poll_interval": 0.05},
            name=f"pinecone-emulator-{index.name if index else 'control'}",
            daemon=True,
        )
        t.start()
        self._threads = [x for x in self._threads if x.is_alive()] + [t]
        return srv

    # ---- test helpers

    def stored(self, index: str) -> dict[str, dict[str, tuple[list[float], dict[str, Any]]]]:
        """A copy of everything the index holds: ``{namespace: {id: (values, metadata)}}``."""
        ix = self.indexes[index]
        with ix.lock:
            return {
                ns: {vid: (v.values.tolist(), dict(v.metadata)) for vid, v in vecs.items()}
                for ns, vecs in ix.namespaces.items()
            }

    def count_requests(
        self, path: str | None = None, *, index: str | None = None, method: str | None = None
    ) -> int:
        """How many requests matched ``path``/``index``/``method`` (None = any)."""
        with self._lock:
            return sum(
                1
                for r in self.requests
                if (path is None or r.path == path)
                and (index is None or r.index == index)
                and (method is None or r.method == method)
            )

    def reset_requests(self) -> None:
        """Forget the recorded requests."""
        with self._lock:
            self.requests.clear()

    def inject_failures(
        self,
        count: int,
        *,
        status: int = 503,
        path: str | None = None,
        index: str | None = None,
    ) -> None:
        """Answer the next ``count`` matching requests with ``status`` instead of serving them.

        The SDK retries 408/429/5xx up to 3 times, so use ``count >= 4`` (or a 4xx
        status) to make one call fail.
        """
        with self._lock:
            self._failures.append(_Failure(count, status, path, index))

    def clear_failures(self) -> None:
        """Drop every pending injected failure."""
        with self._lock:
            self._failures.clear()

    def drop_index(self, name: str) -> bool:
        """Delete an index and stop its server, as ``DELETE /indexes/{name}`` does.

        Returns:
            Whether the index existed.
        """
        with self._lock:
            exists = name in self.indexes
        if exists:
            self._drop_index(name)
        return exists

    # ---- internals shared by handlers

    def _record(self, index: str | None, method: str, path: str, size: int, status: int) -> None:
        with self._lock:
            self.requests.append(RequestRecord(index, method, path, size, status))

    def _check_auth(self, key: str | None) -> None:
        if key != self.api_key:
            raise _HttpError(401, "UNAUTHENTICATED", "Invalid API Key")

    def _maybe_fail(self, index: str | None, path: str) -> None:
        with self._lock:
            for f in self._failures:
                if f.remaining > 0 and f.path in (None, path) and f.index in (None, index):
                    f.remaining -= 1
                    raise _HttpError(
                        f.status,
                        "UNAVAILABLE" if f.status >= 500 else "INVALID_ARGUMENT",
                        "injected failure",
                    )

    # ---- control plane

    def _control(self, method: str, path: str, body: Any) -> tuple[int, Any]:
        parts = [unquote(p) for p in path.strip("/").split("/") if p]
        if parts == ["indexes"] and method == "GET":
            with self._lock:
                models = [ix.model() for ix in self.indexes.values()]
            return 200, {"indexes": models}
        if parts == ["indexes"] and method == "POST":
            return 201, self._create_index(body)
        if len(parts) == 2 and parts[0] == "indexes":
            name = parts[1]
            with self._lock:
                ix = self.indexes.get(name)
            if ix is None:
                raise _HttpError(404, "NOT_FOUND", f"Resource {name} not found")
            if method == "GET":
                return 200, ix.model()
            if method == "DELETE":
                if ix.deletion_protection == "enabled":
                    raise _HttpError(
                        403, "FORBIDDEN", f"Deletion protection is enabled for index {name}"
                    )
                self._drop_index(name)
                return 202, None
        raise _HttpError(404, "NOT_FOUND", f"{method} {path} is not emulated")

    def _create_index(self, body: Any) -> dict[str, Any]:
        if not isinstance(body, dict):
            raise _bad("Request body must be an object")
        name = body.get("name")
        if not isinstance(name, str) or not _NAME_RE.match(name):
            raise _bad(
                "Index name must be 1-45 lowercase alphanumeric characters or '-', "
                "starting and ending with an alphanumeric character"
            )
        fields = (body.get("schema") or {}).get("fields")
        if not isinstance(fields, dict) or set(fields) != {"_values"}:
            raise _bad("the emulator only supports vector indexes (schema fields: _values)")
        spec = fields["_values"]
        if not isinstance(spec, dict) or spec.get("type") != "dense_vector":
            raise _bad("_values must be a dense_vector field")
        dim = spec.get("dimension")
        if not isinstance(dim, int) or isinstance(dim, bool) or not 1 <= dim <= MAX_DIMENSION:
            raise _bad(f"dimension must be an integer between 1 and {MAX_DIMENSION}")
        metric = spec.get("metric", "cosine")
        if metric not in ("cosine", "dotproduct"):
            raise _bad(f"metric {metric!r} is not emulated (cosine, dotproduct)")
        deployment = body.get("deployment") or {
            "deployment_type": "managed",
            "cloud": "aws",
            "region": "us-east-1",
        }
        if deployment.get("deployment_type") != "managed":
            raise _bad("the emulator only supports managed (serverless) deployments")
        cloud, region = deployment.get("cloud"), deployment.get("region")
        if not isinstance(cloud, str) or not isinstance(region, str):
            raise _bad("deployment needs cloud and region")
        ix = EmulatedIndex(
            name=name,
            dimension=dim,
            metric=metric,
            cloud=cloud,
            region=region,
            tags=body.get("tags"),
            deletion_protection=body.get("deletion_protection", "disabled"),
        )
        with self._lock:
            if name in self.indexes:
                raise _HttpError(409, "ALREADY_EXISTS", f"Resource {name} already exists")
            self.indexes[name] = ix
        ix.server = self._serve(ix)
        return ix.model()

    def _drop_index(self, name: str) -> None:
        with self._lock:
            ix = self.indexes.pop(name, None)
        if ix is None:
            return
        if ix.server is not None:
            srv, ix.server = ix.server, None
            # shutdown() blocks until serve_forever returns: do it off this handler thread.
            threading.Thread(target=_shutdown, args=(srv,), daemon=True).start()

    # ---- data plane

    def _data(
        self,
        ix: EmulatedIndex,
        method: str,
        path: str,
        params: Mapping[str, list[str]],
        body: Any,
    ) -> tuple[int, Any]:
        routes: dict[tuple[str, str], Callable[[], Any]] = {
            ("POST", "/vectors/upsert"): lambda: self._upsert(ix, body),
            ("POST", "/query"): lambda: self._query(ix, body),
            ("GET", "/vectors/fetch"): lambda: self._fetch(ix, params),
            ("POST", "/vectors/fetch_by_metadata"): lambda: self._fetch_by_metadata(ix, body),
            ("POST", "/vectors/delete"): lambda: self._delete(ix, body),
            ("GET", "/vectors/list"): lambda: self._list(ix, params),
            ("POST", "/describe_index_stats"): lambda: self._stats(ix, body),
        }
        handler = routes.get((method, path))
        if handler is None:
            raise _HttpError(404, "NOT_FOUND", f"{method} {path} is not emulated")
        if method == "POST" and not isinstance(body, dict):
            raise _bad("Request body must be an object")
        return 200, handler()

    @staticmethod
    def _namespace(body: Mapping[str, Any]) -> str:
        ns = body.get("namespace", "")
        if not isinstance(ns, str):
            raise _bad("namespace must be a string")
        return ns

    def _upsert(self, ix: EmulatedIndex, body: dict[str, Any]) -> dict[str, Any]:
        vectors = body.get("vectors")
        if not isinstance(vectors, list) or not vectors:
            raise _bad("vectors must be a non-empty array")
        if len(vectors) > MAX_UPSERT_VECTORS:
            raise _bad(
                f"Upsert request contains {len(vectors)} vectors; the maximum is "
                f"{MAX_UPSERT_VECTORS}"
            )
        ns = self._namespace(body)
        staged: dict[str, _StoredVector] = {}
        for v in vectors:  # validate everything before writing anything
            if not isinstance(v, dict):
                raise _bad("each vector must be an object")
            if v.get("sparseValues") is not None:
                raise _bad("sparse values are not emulated")
            vid = _validate_id(v.get("id"))
            values = _validate_values(vid, v.get("values"), ix.dimension, ix.metric)
            staged[vid] = _StoredVector(values, _validate_metadata(vid, v.get("metadata")))
        with ix.lock:
            ix.namespaces.setdefault(ns, {}).update(staged)
        return {"upsertedCount": len(vectors)}

    def _query(self, ix: EmulatedIndex, body: dict[str, Any]) -> dict[str, Any]:
        top_k = body.get("topK")
        if not isinstance(top_k, int) or isinstance(top_k, bool) or not 1 <= top_k <= MAX_TOP_K:
            raise _bad(f"topK must be an integer between 1 and {MAX_TOP_K}")
        ns = self._namespace(body)
        flt = body.get("filter")
        if flt is not None:
            validate_filter(flt)
        if body.get("sparseVector") is not None:
            raise _bad("sparse queries are not emulated")
        has_vec, has_id = body.get("vector") is not None, body.get("id") is not None
        if has_vec == has_id:
            raise _bad("exactly one of vector or id must be provided")
        with ix.lock:
            space = dict(ix.namespaces.get(ns, {}))
        if has_id:
            stored = space.get(_validate_id(body["id"]))
            if stored is None:
                raise _bad(f"Vector with id {body['id']} not found in namespace {ns!r}")
            q = stored.values
        else:
            q = _validate_values("query", body["vector"], ix.dimension, ix.metric)
        cands = [
            (vid, sv)
            for vid, sv in space.items()
            if flt is None or filter_matches(flt, sv.metadata)
        ]
        matches: list[dict[str, Any]] = []
        if cands:
            mat = np.stack([sv.values for _, sv in cands])
            scores = mat @ q
            if ix.metric == "cosine":
                scores = scores / (np.linalg.norm(mat, axis=1) * float(np.linalg.norm(q)))
            order = sorted(range(len(cands)), key=lambda i: (-float(scores[i]), cands[i][0]))
            for i in order[:top_k]:
                vid, sv = cands[i]
                m: dict[str, Any] = {"id": vid, "score": float(scores[i]), "values": []}
                if body.get("includeValues"):
                    m["values"] = sv.values.tolist()
                if body.get("includeMetadata"):
                    m["metadata"] = dict(sv.metadata)
                matches.append(m)
        return {"matches": matches, "namespace": ns, "usage": {"readUnits": 1}}

    def _fetch(self, ix: EmulatedIndex, params: Mapping[str, list[str]]) -> dict[str, Any]:
        ids = params.get("ids", [])
        if not ids:
            raise _bad("ids must be provided")
        if len(ids) > MAX_FETCH_IDS:
            raise _bad(f"at most {MAX_FETCH_IDS} ids per fetch")
        for vid in ids:
            _validate_id(vid)
        ns = (params.get("namespace") or [""])[-1]
        with ix.lock:
            space = ix.namespaces.get(ns, {})
            found = {
                vid: {
                    "id": vid,
                    "values": space[vid].values.tolist(),
                    "metadata": space[vid].metadata,
                }
                for vid in ids
                if vid in space
            }
        return {"vectors": found, "namespace": ns, "usage": {"readUnits": 1}}

    def _fetch_by_metadata(self, ix: EmulatedIndex, body: dict[str, Any]) -> dict[str, Any]:
        flt = body.get("filter")
        if not flt:
            raise _bad("Empty filter provided for fetch by metadata request")
        validate_filter(flt)
        ns = self._namespace(body)
        limit = body.get("limit", 100)
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 10_000:
            raise _bad("limit must be between 1 and 10000")
        after = _decode_token(body["paginationToken"]) if body.get("paginationToken") else None
        with ix.lock:
            space = ix.namespaces.get(ns, {})
            ids = sorted(
                vid
                for vid, sv in space.items()
                if (after is None or vid > after) and filter_matches(flt, sv.metadata)
            )
            page = ids[:limit]
            vectors = {
                vid: {
                    "id": vid,
                    "values": space[vid].values.tolist(),
                    "metadata": space[vid].metadata,
                }
                for vid in page
            }
        out: dict[str, Any] = {"vectors": vectors, "namespace": ns, "usage": {"readUnits": 1}}
        if len(ids) > limit:
            out["pagination"] = {"next": _encode_token(page[-1])}
        return out

    def _delete(self, ix: EmulatedIndex, body: dict[str, Any]) -> dict[str, Any]:
        ns = self._namespace(body)
        ids, flt, delete_all = body.get("ids"), body.get("filter"), body.get("deleteAll", False)
        selectors = sum([ids is not None, flt is not None, bool(delete_all)])
        if selectors != 1:
            raise _bad("exactly one of ids, filter or deleteAll must be provided")
        if ids is not None:
            if not isinstance(ids, list) or not ids or len(ids) > MAX_DELETE_IDS:
                raise _bad(f"ids must be an array of 1 to {MAX_DELETE_IDS} ids")
            for vid in ids:
                _validate_id(vid)
        if flt is not None:
            if not self.delete_by_filter_supported:
                raise _bad(
                    "Serverless and Starter indexes do not support deleting with metadata filtering"
                )
            if not flt:
                raise _bad("Delete with empty metadata filter is not allowed")
            validate_filter(flt)
        with ix.lock:
            space = ix.namespaces.get(ns, {})
            if ids is not None:
                for vid in ids:
                    space.pop(vid, None)
            elif flt is not None:
                for vid in [v for v, sv in space.items() if filter_matches(flt, sv.metadata)]:
                    del space[vid]
            else:
                ix.namespaces.pop(ns, None)
            if not space:
                ix.namespaces.pop(ns, None)
        return {}

    def _list(self, ix: EmulatedIndex, params: Mapping[str, list[str]]) -> dict[str, Any]:
        ns = (params.get("namespace") or [""])[-1]
        prefix = (params.get("prefix") or [""])[-1]
        limit = _int_param(params, "limit", LIST_DEFAULT_LIMIT, 1, LIST_MAX_LIMIT)
        token = (params.get("paginationToken") or [""])[-1]
        after = _decode_token(token) if token else None
        with ix.lock:
            ids = sorted(
                vid
                for vid in ix.namespaces.get(ns, {})
                if vid.startswith(prefix) and (after is None or vid > after)
            )
        page = ids[:limit]
        out: dict[str, Any] = {
            "vectors": [{"id": vid} for vid in page],
            "namespace": ns,
            "usage": {"readUnits": 1},
        }
        if len(ids) > limit:
            out["pagination"] = {"next": _encode_token(page[-1])}
        return out

    def _stats(self, ix: EmulatedIndex, body: dict[str, Any]) -> dict[str, Any]:
        flt = body.get("filter")
        if flt is not None:
            validate_filter(flt)
        with ix.lock:
            counts = {
                ns: sum(
                    1 for sv in vecs.values() if flt is None or filter_matches(flt, sv.metadata)
                )
                for ns, vecs in ix.namespaces.items()
            }
        return {
            "namespaces": {ns: {"vectorCount": n} for ns, n in counts.items()},
            "dimension": ix.dimension,
            "indexFullness": 0.0,
            "totalVectorCount": sum(counts.values()),
            "metric": ix.metric,
            "vectorType": "dense",
        }
