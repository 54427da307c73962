"""Read a context block (the default templates) back into structured sections, so that
scenario tests assert which key, value, citation and episode landed in which part of the
block instead of looking for wording anywhere in the text."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

_HEADINGS = {
    "Hard constraints (always obey):": "hard",
    "Ask to confirm before acting:": "confirm",
    "Preferences and facts:": "soft",
    "Relevant past conversations:": "episodes",
}
_ITEM = re.compile(r'^- (?P<key>\S+) = (?P<value>".*?")(?: \[[^\]]*\])? \((?P<cite>.*)\)$')
_EXCEPTION = re.compile(
    r'^  - exception: (?P<key>\S+) = (?P<value>".*?")(?: \[[^\]]*\])? \((?P<cite>.*)\)$'
)
_QUESTION = re.compile(r'^- (?P<q>".*?")(?: \[[^\]]*\])?$')
_EPISODE = re.compile(
    r'^- (?P<date>\d{4}-\d{2}-\d{2}) \(session (?P<session>".*?")(?:, turn (?P<turn>".*?"))?\)'
    r'(?: (?P<speaker>[^:"]+))?: (?P<text>".*?")(?: \[[^\]]*\])?$'
)


@dataclass
class Item:
    key: str
    value: str
    cite: str
    exceptions: list[Item] = field(default_factory=list)


@dataclass
class Episode:
    date: str
    session: str
    turn: str | None
    text: str
    speaker: str | None = None


@dataclass
class Sections:
    hard: list[Item] = field(default_factory=list)
    confirm_questions: list[str] = field(default_factory=list)
    confirm_items: list[Item] = field(default_factory=list)
    soft: list[Item] = field(default_factory=list)
    episodes: list[Episode] = field(default_factory=list)

    def keys(self, section: str) -> list[str]:
        items: list[Item] = getattr(self, section)
        return [i.key for i in items]

    def item(self, section: str, key: str) -> Item:
        found = [i for i in getattr(self, section) if i.key == key]
        assert len(found) == 1, (section, key, getattr(self, section))
        return found[0]

    def all_keys(self) -> set[str]:
        items = [*self.hard, *self.confirm_items, *self.soft]
        return {i.key for i in items} | {e.key for i in self.hard for e in i.exceptions}


def sections(block: str) -> Sections:
    """Parse every line of ``block``; a line that fits no part of the grammar fails."""
    out = Sections()
    lines = block.split("\n")
    assert lines[0].startswith("### User memory") and lines[-1] == "### End of user memory"
    part = "identity"
    for line in lines[2:-1]:
        if line in _HEADINGS:
            part = _HEADINGS[line]
            continue
        if part == "hard" and (m := _EXCEPTION.match(line)):
            out.hard[-1].exceptions.append(_item(m))
        elif part == "episodes" and (m := _EPISODE.match(line)):
            turn = json.loads(m["turn"]) if m["turn"] else None
            out.episodes.append(
                Episode(
                    m["date"], json.loads(m["session"]), turn, json.loads(m["text"]), m["speaker"]
                )
            )
        elif part == "confirm" and (m := _QUESTION.match(line)):
            out.confirm_questions.append(json.loads(m["q"]))
        elif part in ("hard", "confirm", "soft") and (m := _ITEM.match(line)):
            target = {"hard": out.hard, "confirm": out.confirm_items, "soft": out.soft}[part]
            target.append(_item(m))
        else:
            raise AssertionError(f"unexpected line in the {part} part: {line!r}")
    return out


def _item(m: re.Match[str]) -> Item:
    return Item(key=m["key"], value=json.loads(m["value"]), cite=m["cite"])
