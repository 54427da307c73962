"""``usermemory demo`` (the 50-session scenario) and ``usermemory warmup`` (the embedder)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import click

from .common import embedder_option, main, make_embedder, user_errors


@main.command()
@click.option(
    "--db",
    default=":memory:",
    show_default=True,
    help="SQLite file for the demo (kept afterwards if a path is given).",
)
@embedder_option
@click.option("--json", "as_json", is_flag=True, help="Print the session-50 result as JSON.")
def demo(db: str, embedder: str, as_json: bool) -> None:
    """Run the 50-session support scenario and show what session 50 recalls."""
    from ..clock import FakeClock
    from ..demo import DEMO_USER, SESSION_50_QUERY, demo_sessions, session_date
    from ..pipeline import UserMemory
    from ..tokens import count_tokens

    clock = FakeClock(session_date(1))
    url = "sqlite:///:memory:" if db == ":memory:" else f"sqlite:///{Path(db).resolve()}"
    emb = make_embedder(embedder)
    started = time.perf_counter()
    history_tokens = 0
    with UserMemory(url, clock=clock, embedder=emb) as mem:
        sessions = list(demo_sessions())
        with click.progressbar(sessions, label="sessions 1-49", file=sys.stderr) as bar:
            for s in bar:
                s.play(mem, clock)
                history_tokens += sum(count_tokens(f"{t.role}: {t.text}") for t in s.turns)
        clock.set(session_date(50))
        results = mem.recall(DEMO_USER, SESSION_50_QUERY, k=3, system_context="support")
        block = mem.context(DEMO_USER, SESSION_50_QUERY, system_context="support")
        elapsed = time.perf_counter() - started
        if as_json:
            click.echo(
                json.dumps(
                    {
                        "query": SESSION_50_QUERY,
                        "recalled": [r.to_dict() for r in results],
                        "context": block,
                        "context_tokens": count_tokens(block),
                        "buffer_memory_tokens": history_tokens,
                    },
                    indent=2,
                    ensure_ascii=False,
                )
            )
            return
        click.secho(
            f"\nSession 50 ({session_date(50):%Y-%m-%d}), user {DEMO_USER} says:", bold=True
        )
        click.echo(f"  {SESSION_50_QUERY!r}\n")
        click.secho("Recalled (score = confidence x decay x relevance):", bold=True)
        for r in results:
            p = r.provenance
            click.echo(
                f"  {r.record.key} = {r.record.value!r}  score {r.score:.3f} "
                f"(conf {r.confidence:.2f} x decay {r.decay:.2f} x rel {r.relevance:.2f}; "
                f"via {'+'.join(r.matched_by)})\n"
                f"      said {p.at:%Y-%m-%d} in session {p.session_id}, turn {p.turn_id}, "
                f"source {r.record.source.value}, version {r.record.version}"
            )
        click.secho("\nContext block injected into the prompt:", bold=True)
        click.echo(block)
        click.secho("\nPrompt size:", bold=True)
        click.echo(f"  UserMemory context block: {count_tokens(block)} tokens")
        click.echo(f"  ConversationBufferMemory (all 49 sessions): {history_tokens} tokens")
        click.echo(
            f"\n(49 sessions observed and recalled in {elapsed:.1f} s, "
            f"embedder {getattr(emb, 'name', type(emb).__name__)})"
        )


@main.command()
@embedder_option
def warmup(embedder: str) -> None:
    """Prepare the embedder once: export MiniLM to ONNX if needed, load it, time a query.

    Run it at deploy time (or in a Docker build) so the first request of a process does
    not pay the one-time export (about 12 s).
    """
    import statistics

    with user_errors():
        emb = make_embedder(embedder)
        started = time.perf_counter()
        emb.embed(["warm up"])
        load_s = time.perf_counter() - started
        times = []
        for i in range(20):
            t0 = time.perf_counter()
            emb.embed([f"how should we contact you about order {i}?"])
            times.append((time.perf_counter() - t0) * 1000)
    where = getattr(emb, "model_dir", None)
    if getattr(emb, "using_fallback", False):
        where = None
        click.echo("ONNX export failed; using sentence-transformers (see the warning above)")
    click.echo(f"embedder: {getattr(emb, 'name', type(emb).__name__)}")
    if where is not None:
        click.echo(f"model: {where}")
    click.echo(f"load: {load_s:.2f} s; one query: {statistics.median(times):.1f} ms (median of 20)")
