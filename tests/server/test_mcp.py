"""MCP end to end with the SDK's own ClientSession, over stdio and over streamable HTTP.
The user is fixed by configuration (stdio) or by the end-user token (HTTP), never by the
model: no tool takes a user id, and one passed anyway changes nothing."""

from __future__ import annotations

import sys
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import httpx2
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from server_support import auth

from shared_core import UserMemory
from shared_core.embed import HashingEmbedder

ROOT = Path(__file__).resolve().parents[2]
TOOLS = {"remember", "recall", "get_context", "get_profile", "get_history", "forget_key"}


async def _exercise(session: ClientSession) -> None:
    """The full tool set, as an agent host would call it."""
    await session.initialize()
    tools = (await session.list_tools()).tools
    assert {t.name for t in tools} == TOOLS
    for t in tools:  # the model cannot name a user
        assert "user_id" not in t.input_schema.get("properties", {}), t.name

    res = await session.call_tool("remember", {"key": "diet", "value": "vegetarian"})
    assert not res.is_error and res.structured_content["value"] == "vegetarian"
    res = await session.call_tool("remember", {"key": "diet", "value": "vegan"})
    assert res.structured_content["version"] == 2

    prof = await session.call_tool("get_profile", {})
    assert prof.structured_content == {"diet": "vegan"}
    hits = await session.call_tool("recall", {"query": "what do I eat", "k": 2})
    assert hits.structured_content["memories"][0]["key"] == "diet"
    block = await session.call_tool("get_context", {"query": "what do I eat"})
    assert 'diet = "vegan"' in block.content[0].text
    hist = await session.call_tool("get_history", {"key": "diet"})
    assert [v["value"] for v in hist.structured_content["versions"]] == ["vegetarian", "vegan"]

    bad = await session.call_tool("remember", {"key": "", "value": "x"})
    assert bad.is_error and "invalid" in bad.content[0].text

    gone = await session.call_tool("forget_key", {"key": "diet"})
    assert gone.structured_content["revoked"] == ["diet"]
    assert (await session.call_tool("get_profile", {})).structured_content == {}


async def test_stdio_end_to_end(tmp_path):
    db = tmp_path / "m.db"
    params = StdioServerParameters(
        command=sys.executable,
        args=[
            "-m",
            "shared_core.cli",
            "mcp",
            "--user",
            "u1",
            "--tenant",
            "acme",
            "--url",
            f"sqlite:///{db}",
            "--embedder",
            "hashing",
        ],
        env={"PYTHONPATH": str(ROOT), "USERMEMORY_KEYS_URL": f"sqlite:///{tmp_path / 'k.db'}"},
        cwd=str(tmp_path),
    )
    with open(tmp_path / "stderr.txt", "w") as err:
        async with stdio_client(params, errlog=err) as (r, w), ClientSession(r, w) as session:
            await _exercise(session)
            # a user id slipped into the arguments is ignored: still u1's memory
            await session.call_tool("remember", {"key": "city", "value": "Oslo", "user_id": "u2"})
            prof = await session.call_tool("get_profile", {"user_id": "u2"})
            assert prof.structured_content == {"city": "Oslo"}
    mem = UserMemory(f"sqlite:///{db}", embedder=HashingEmbedder())
    try:
        assert mem.users() == ["acme/u1"]  # the same namespace the HTTP server uses
        assert mem.profile("acme/u1") == {"city": "Oslo"}
    finally:
        mem.close()


@asynccontextmanager
async def _http_session(url: str, credential: str):
    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {credential}"}) as client,
        streamable_http_client(f"{url}/mcp", http_client=client) as (r, w),
        ClientSession(r, w) as session,
    ):
        yield session


def _token(url: str, key: str, user: str) -> str:
    r = httpx.post(f"{url}/v1/tokens", json={"user_id": user}, headers=auth(key))
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


async def test_streamable_http_end_to_end(live):
    kid, key = live.key("acme")
    async with _http_session(live.url, _token(live.url, key, "alice")) as session:
        await _exercise(session)
    assert live.mem.users() == ["acme/alice"]
    logged = [r for r in live.keys.request_log() if r["path"] == "/mcp"]
    assert logged and all(r["key_id"] == kid and r["user_id"] == "alice" for r in logged)


async def test_http_token_cannot_reach_another_user(live):
    _, key = live.key("acme")
    bob = httpx.post(
        f"{live.url}/v1/remember",
        json={"user_id": "bob", "key": "diet", "value": "carnivore"},
        headers=auth(key),
    )
    assert bob.status_code == 200
    before = live.mem.export("acme/bob")["records"]
    async with _http_session(live.url, _token(live.url, key, "alice")) as session:
        await session.initialize()
        for name, args in (
            ("get_profile", {"user_id": "bob"}),
            ("recall", {"query": "diet", "user_id": "bob"}),
            ("get_context", {"query": "diet", "user_id": "bob"}),
            ("get_history", {"key": "diet", "user_id": "bob"}),
            ("forget_key", {"key": "diet", "user_id": "bob"}),
            ("remember", {"key": "diet", "value": "x", "user_id": "bob"}),
        ):
            res = await session.call_tool(name, args)
            text = " ".join(getattr(c, "text", "") for c in res.content)
            assert "carnivore" not in text, name
    assert live.mem.export("acme/bob")["records"] == before
    assert live.mem.profile("acme/alice") == {"diet": "x"}


async def test_http_refuses_api_keys_and_bad_tokens(live):
    kid, key = live.key("acme")
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}
    accept = {"Accept": "application/json, text/event-stream"}
    for headers, status in ((auth(key), 403), (auth("garbage"), 401), ({}, 401)):
        r = httpx.post(f"{live.url}/mcp", json=init, headers={**headers, **accept})
        assert r.status_code == status, (headers, r.text)
    tok = _token(live.url, key, "alice")
    live.keys.revoke(kid)
    r = httpx.post(
        f"{live.url}/mcp",
        json=init,
        headers={**auth(tok), "Accept": "application/json, text/event-stream"},
    )
    assert r.status_code == 401
