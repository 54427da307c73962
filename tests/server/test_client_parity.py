"""The server clients have the library's method names and parameters, checked by
``inspect`` on both sides, so switching an app from ``UserMemory`` to ``UserMemoryClient``
(or ``AsyncUserMemory`` to ``AsyncUserMemoryClient``) is one line."""

from __future__ import annotations

import inspect

import pytest

from shared_core import AsyncUserMemory, UserMemory
from shared_core.server import AsyncUserMemoryClient, UserMemoryClient

# operator jobs the server runs itself, over every tenant: not a tenant key's to call
SERVER_SIDE = {"complete_erasures", "reindex", "flush_audit"}
# in-process seams: gather() returns Candidates (records, channel hits, the parsed query)
# for rank() in the same process; over the wire, recall() is the call
IN_PROCESS = {"gather", "rank"}
LIFECYCLE = {"close", "aclose", "from_url", "wrap"}


def public_methods(cls: type) -> set[str]:
    return {
        n
        for n, v in inspect.getmembers(cls)
        if not n.startswith("_") and inspect.isfunction(v) and n not in LIFECYCLE
    }


def params(fn: object) -> list[tuple[str, object, object, object]]:
    """(name, kind, default, annotation) of every parameter but ``self``."""
    sig = inspect.signature(fn)  # type: ignore[arg-type]
    ps = list(sig.parameters.values())[1:]
    return [(p.name, p.kind, p.default, str(p.annotation)) for p in ps]


def effective(cls: type, name: str) -> object:
    """The method, or the sync library's where the async one forwards ``**kwargs``."""
    fn = getattr(cls, name)
    if any(p.kind is p.VAR_KEYWORD for p in inspect.signature(fn).parameters.values()):
        return getattr(UserMemory, name)
    return fn


@pytest.mark.parametrize(
    ("library", "client"),
    [(UserMemory, UserMemoryClient), (AsyncUserMemory, AsyncUserMemoryClient)],
    ids=["sync", "async"],
)
def test_every_library_method_has_a_client_twin_with_the_same_parameters(library, client):
    wanted = public_methods(library) - SERVER_SIDE - IN_PROCESS
    assert wanted <= public_methods(client), sorted(wanted - public_methods(client))
    assert {"observe_messages", "resolve_conflict", "memories", "set_expiry"} <= wanted
    for name in sorted(wanted):
        lib, cli = effective(library, name), getattr(client, name)
        assert params(cli) == params(lib), name
        assert inspect.iscoroutinefunction(cli) == inspect.iscoroutinefunction(
            getattr(library, name)
        ), name


def test_no_library_method_is_left_out_silently():
    # a new library method fails the test above unless the client gets it or it is
    # named here as a server-side job: the exclusions must all still exist
    assert public_methods(UserMemory) >= SERVER_SIDE | IN_PROCESS
    assert not (SERVER_SIDE | IN_PROCESS) & public_methods(UserMemoryClient)
