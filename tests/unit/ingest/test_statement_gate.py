"""The learned statement gate: its wiring into observe, what it never touches, the shipped
model's provenance, and bounded work on any input."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks import statement_gate as trainer
from benchmarks.phrasing_bench import load_data
from shared_core import MemoryConfig, UserMemory
from shared_core.embed import HashingEmbedder
from shared_core.entities import Candidate, ChangeAction, Intent, Kind
from shared_core.errors import ConfigError, InvalidInputError
from shared_core.ingest import statement_gate
from shared_core.ingest.gate import UNLIKELY_STATEMENT, Verdict, gate


@pytest.fixture
def low(monkeypatch: pytest.MonkeyPatch) -> set[str]:
    """Turns in the returned set score 0 with the gate; every other turn scores 1."""
    texts: set[str] = set()
    monkeypatch.setattr(statement_gate, "turn_score", lambda t: 0.0 if t in texts else 1.0)
    return texts


@pytest.fixture
def mem() -> Iterator[UserMemory]:
    with UserMemory(
        "sqlite:///:memory:", embedder=HashingEmbedder(), config=MemoryConfig(statement_gate=0.1)
    ) as m:
        yield m


def _active(mem: UserMemory) -> set[tuple[str, str]]:
    return {
        (r["key"], r["normalized"])
        for r in mem.export("u")["records"]
        if r["kind"] != "episode" and r["status"] == "active"
    }


def test_a_turn_scored_under_the_threshold_stores_nothing_and_says_why(
    mem: UserMemory, low: set[str]
) -> None:
    low.add("I live in Berlin.")
    changes = mem.observe("u", "I live in Berlin.")
    assert _active(mem) == set()
    rejected = [c for c in changes if c.action is ChangeAction.IGNORED]
    assert rejected and all("statement gate" in c.reason for c in rejected)
    mem.observe("u", "I live in Munich.")  # scored 1: the same rule reading is kept
    assert ("location.city", "munich") in _active(mem)


def test_a_statement_after_a_question_in_the_same_turn_is_read(mem: UserMemory) -> None:
    turn = "How will you tell me my order is ready? My allergy: I'm allergic to penicillin."
    mem.observe("u", turn)
    assert ("allergy.medication", "penicillin") in _active(mem)


def test_threshold_zero_turns_the_gate_off(low: set[str]) -> None:
    low.add("I live in Berlin.")
    config = MemoryConfig(statement_gate=0)
    with UserMemory("sqlite:///:memory:", embedder=HashingEmbedder(), config=config) as m:
        m.observe("u", "I live in Berlin.")
        assert ("location.city", "berlin") in _active(m)


def test_an_answer_to_the_assistants_question_is_read_with_its_question(
    mem: UserMemory, low: set[str]
) -> None:
    low.update({"Leeds.", "Where are you based?"})
    mem.observe("u", "Where are you based?", role="assistant", session_id="s")
    mem.observe("u", "Leeds.", session_id="s")
    assert ("location.city", "leeds") in _active(mem)


def test_any_reply_to_an_assistant_question_is_read_without_the_gate(
    mem: UserMemory, low: set[str]
) -> None:
    low.add("I live in Berlin.")
    mem.observe("u", "Anything else I can help with?", role="assistant", session_id="s")
    mem.observe("u", "I live in Berlin.", session_id="s")
    assert ("location.city", "berlin") in _active(mem)


def test_typographic_apostrophes_read_as_plain_ones() -> None:
    for curly, plain in (("I\u2019m vegan", "I'm vegan"), ("\u2018cause I\u2019m", "'cause I'm")):
        assert statement_gate.turn_score(curly) == statement_gate.turn_score(plain)


def test_forgets_and_implicit_signals_are_not_gated(mem: UserMemory, low: set[str]) -> None:
    mem.observe("u", "I live in Berlin.")
    low.update({"Forget my city.", "Shorter please, too long."})
    mem.observe("u", "Forget my city.")
    assert ("location.city", "berlin") not in _active(mem)
    actions = [
        [c.action for c in mem.observe("u", "Shorter please, too long.", session_id=f"s{i}")]
        for i in range(3)
    ]
    assert ChangeAction.PENDING in actions[0] and ChangeAction.ADDED in actions[2]
    assert ("response.length", "short") in _active(mem)


def test_a_turn_with_nothing_asserted_is_not_scored(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(text: str) -> float:
        raise AssertionError(f"scored {text!r}")

    monkeypatch.setattr(statement_gate, "turn_score", boom)
    forget = Candidate(kind=Kind.FACT, key="location.city", intent=Intent.FORGET)
    assert statement_gate.mark("forget my city", [forget], 0.1) == [forget]
    assert statement_gate.mark("anything", [], 0.1) == []


def test_the_gate_rejects_only_what_it_would_accept_outright() -> None:
    signals = frozenset({UNLIKELY_STATEMENT})
    explicit = Candidate(kind=Kind.FACT, key="diet", value="vegan", explicit=True, signals=signals)
    implicit = Candidate(
        kind=Kind.PREFERENCE, key="response.length", value="short", signals=signals
    )
    verdicts = [d.verdict for d in gate([explicit, implicit], role="user", config=MemoryConfig())]
    assert verdicts == [Verdict.REJECT, Verdict.PENDING]


def test_an_allergy_is_never_gated(mem: UserMemory, low: set[str]) -> None:
    """A missed allergy can hurt the user; one stored wrongly only makes the assistant careful."""
    low.update({"补充说明：我对青霉素过敏", "fyi I'm vegan and allergic to peanuts"})
    mem.observe("u", "补充说明：我对青霉素过敏")
    mem.observe("u", "fyi I'm vegan and allergic to peanuts")
    stored = _active(mem)
    assert ("allergy.medication", "penicillin") in stored
    assert ("allergy.food", "peanut") in stored or ("allergy.food", "peanuts") in stored
    assert not any(key == "diet" for key, _ in stored)


@pytest.mark.parametrize("bad", [-0.1, 1.5])
def test_a_threshold_outside_zero_to_one_is_a_config_error(bad: float) -> None:
    with pytest.raises(ConfigError):
        MemoryConfig(statement_gate=bad)


def test_the_threshold_comes_from_the_environment() -> None:
    config = MemoryConfig.from_env({"USERMEMORY_STATEMENT_GATE": "0.25"})
    assert config.statement_gate == 0.25


def test_the_shipped_model_was_trained_on_the_current_development_rows() -> None:
    rows = trainer.training_rows(load_data())
    assert statement_gate.model().digest == trainer.digest(rows)
    splits = {split for _, split, _, _ in rows}
    assert splits.isdisjoint({"test", *trainer.YARDSTICKS}), "trained on reported rows"


def test_retraining_reproduces_the_shipped_model() -> None:
    assert trainer.check(load_data()) == 0


def test_the_model_separates_its_own_training_rows() -> None:
    rows = trainer.training_rows(load_data())
    model = statement_gate.model()
    scores = np.array([model.score(text) for _, _, text, _ in rows])
    labels = np.array([y for *_, y in rows])
    assert scores[labels == 1].mean() > 0.5 > scores[labels == 0].mean()


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=400))
def test_any_text_gets_a_probability(text: str) -> None:
    assert 0.0 <= statement_gate.score(text) <= 1.0


@pytest.mark.parametrize("bad", [None, 42, b"I'm vegan", ["I'm vegan"]])
def test_a_text_that_is_not_a_string_is_a_typed_error(bad: object) -> None:
    with pytest.raises(InvalidInputError):
        statement_gate.turn_score(bad)  # type: ignore[arg-type]


def test_an_empty_turn_is_undecided() -> None:
    assert statement_gate.turn_score("") == statement_gate.turn_score("   \n ") == 0.5


def test_work_grows_linearly_with_the_turn() -> None:
    for text in ("a" * 32_000, "我" * 32_000, "ab " * 10_000, " " * 32_000, "ok. " * 8_000):
        assert sum(1 for _ in statement_gate.grams(text)) <= 4 * (len(text) + 2)
        assert 0.0 <= statement_gate.turn_score(text) <= 1.0
