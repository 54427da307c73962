"""``usermemory keys``, ``usermemory serve`` (no flags: the embedded default) and their
failure modes."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
from click.testing import CliRunner

from shared_core.cli import main
from shared_core.server import KeyStore

ROOT = Path(__file__).resolve().parents[2]


def test_keys_create_list_revoke(tmp_path):
    url = f"sqlite:///{tmp_path / 'keys.db'}"
    runner = CliRunner()
    made = runner.invoke(
        main,
        [
            "keys",
            "create",
            "--tenant",
            "acme",
            "--name",
            "web",
            "--context",
            "support",
            "--keys-url",
            url,
        ],
    )
    assert made.exit_code == 0, made.output
    plain = made.stdout.strip().splitlines()[-1]
    assert plain.startswith("umk_")
    store = KeyStore(url)
    key = store.verify_key(plain)
    assert (key.tenant, key.name, key.contexts) == ("acme", "web", ("support",))
    store.close()

    listed = runner.invoke(main, ["keys", "list", "--json", "--keys-url", url])
    assert listed.exit_code == 0
    assert '"tenant": "acme"' in listed.stdout and plain.split(".")[1] not in listed.stdout

    revoked = runner.invoke(main, ["keys", "revoke", key.id, "--keys-url", url])
    assert revoked.exit_code == 0, revoked.output
    store = KeyStore(url)
    assert store.get(key.id).revoked_at is not None
    store.close()

    missing = runner.invoke(main, ["keys", "revoke", "0123456789abcdef", "--keys-url", url])
    assert missing.exit_code == 1
    bad = runner.invoke(main, ["keys", "create", "--tenant", "Not A Tenant", "--keys-url", url])
    assert bad.exit_code == 1 and "tenant" in bad.output


def test_mcp_stdio_needs_a_user():
    r = CliRunner().invoke(main, ["mcp"])
    assert r.exit_code == 2 and "--user" in r.output


def test_mcp_over_http_runs_serve_with_its_defaults(tmp_path, monkeypatch):
    import shared_core.server.app as app_module
    import shared_core.server.run as run_module

    seen: dict[str, object] = {}

    def fake_app(mem, *, keys, settings):
        seen["settings"] = settings
        return "app"

    monkeypatch.setattr(app_module, "create_app", fake_app)
    monkeypatch.setattr(run_module, "serve", lambda app, **kw: seen.update(app=app, **kw))
    args = ["mcp", "--transport", "streamable-http", "--port", "9911", "--embedder", "hashing"]
    args += ["--url", f"sqlite:///{tmp_path / 'm.db'}"]
    r = CliRunner().invoke(main, [*args, "--keys-url", f"sqlite:///{tmp_path / 'k.db'}"])
    assert r.exit_code == 0, r.output
    assert (seen["app"], seen["host"], seen["port"]) == ("app", "127.0.0.1", 9911)
    settings = seen["settings"]
    assert settings.mcp is True and settings.cors_origins == ()
    assert (settings.max_body_bytes, settings.rate_limit_per_minute) == (1_048_576, 6000)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_serve_starts_on_the_embedded_default_with_no_flags(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("USERMEMORY_")} | {
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "PYTHONPATH": str(ROOT),
    }
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "shared_core.cli", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                r = httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=2)
                break
            except httpx.TransportError:
                assert proc.poll() is None, proc.stderr.read()
                assert time.monotonic() < deadline, "server did not start"
                time.sleep(0.2)
        assert r.status_code == 200 and r.json()["status"] == "ready"
        data = Path(tmp_path / "data" / "usermemory")
        assert (data / "memory.db").exists() and (data / "server.db").exists()
        # a key made by the CLI afterwards works against the running server
        made = subprocess.run(
            [sys.executable, "-m", "shared_core.cli", "keys", "create", "--tenant", "acme"],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        plain = made.stdout.strip().splitlines()[-1]
        # (no write here: the first embedding would export MiniLM to ONNX in this fresh HOME)
        r = httpx.post(
            f"http://127.0.0.1:{port}/v1/profile",
            json={"user_id": "u1"},
            headers={"Authorization": f"Bearer {plain}"},
            timeout=30,
        )
        assert r.status_code == 200 and r.json() == {"profile": {}}, r.text
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        proc.stdout.close()
        proc.stderr.close()
