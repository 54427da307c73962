"""Round 10 (dev21): names typed lowercase in the slots that mark them as names.

A pet or child list after its noun, names in brackets, "she's called ...", a pet or partner
named before a verb or an adverb, and the employer after the role. Someone else's pets,
children or employer stay theirs. Wordings here are in no benchmark file.
"""

from __future__ import annotations

import pytest

from tests.ingest_probe import stored


def _values(text: str, key: str) -> set[str]:
    return {v.lower() for k, v in stored(text) if k == key or k.startswith(key + ".")}


@pytest.mark.parametrize(
    ("text", "key", "names"),
    [
        ("i have 2 rabbits, pip and clover", "pet.names", {"pip", "clover"}),
        ("my cat noodle sleeps all day", "pet.names", {"noodle"}),
        ("got a puppy last month, hes called rolo", "pet.names", {"rolo"}),
        (
            "my kids (ruby 4, arlo 7) are off school this week",
            "family.child.names",
            {"ruby", "arlo"},
        ),
        ("we have two girls, isla and maeve", "family.child.names", {"isla", "maeve"}),
        ("i have a son, his name is finley", "family.child.names", {"finley"}),
        ("ade (my partner) handles the money", "family.partner.name", {"ade"}),
        ("my husband kwame usually drives us", "family.partner.name", {"kwame"}),
        ("optician at specsavers", "job.employer", {"specsavers"}),
    ],
)
def test_lowercase_name_in_a_naming_slot(text: str, key: str, names: set[str]) -> None:
    assert _values(text, key) == names


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("my brothers dog biscuit is so cute", "pet.names"),
        ("my friend has two cats, tom and jerry", "pet.names"),
        ("my dog walker charges a lot", "pet.names"),
        ("my sisters kids (ruby 4, arlo 7) are staying over", "family.child.names"),
        ("my cousin has a son, his name is finley", "family.child.names"),
        ("my wife works weekends", "family.partner.name"),
        ("im a teacher, my wife works at asda", "job.employer"),
        ("nurse at night mostly", "job.employer"),
    ],
)
def test_someone_elses_or_no_name_stays_unnamed(text: str, key: str) -> None:
    assert not _values(text, key)
