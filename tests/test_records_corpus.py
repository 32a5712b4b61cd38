"""Real records (read from the installed `diplomacy` package, sources and licences in
tests/data/records/README.md): every phase
re-adjudicated gives the record's next board, or a difference a named convention or
quirk explains; none is unexplained (issue 27)."""

from __future__ import annotations

from pathlib import Path

import pytest

import dipsolve
from dipsolve.cli import main
from dipsolve.testing.peer import REAL_RECORDS, real_records

ROOT = Path(__file__).resolve().parent.parent
FOUND = real_records()
CORPUS = [FOUND[name] for name in sorted(FOUND)]
IDS = sorted(FOUND)

#: what the corpus holds, phase by phase: the quirks that explain its differences
EXPECTED = {
    "diplomacy-001ce02c.json": {"S1902M": ("6.H.6",), "F1908M": ("6.H.6",)},
    "diplomacy-0021f2cf.json": {"S1902M": ("6.G.8",), "S1907M": ("6.G.8",), "F1907M": ("6.G.8",)},
}


def test_the_corpus_is_the_one_its_readme_names():
    readme = (ROOT / "tests" / "data" / "records" / "README.md").read_text()
    assert IDS == sorted(EXPECTED) == sorted(REAL_RECORDS)      # the test extra installs the peer
    assert all(f"`{name}`" in readme and f"`{file}`" in readme for name, file in REAL_RECORDS.items())
    assert "licence" in readme


@pytest.mark.parametrize("name", IDS)
def test_every_phase_is_the_next_board_or_explained(name):
    path = FOUND[name]
    game = dipsolve.Game.load(str(path))
    analysis = dipsolve.analyze(game.record, check_only=True)
    assert analysis.unexplained == []
    assert len(analysis.checks) == len(game) - 1
    found = {c.phase: c.quirks for c in analysis.checks if c.differences}
    assert found == EXPECTED[name]
    assert all(c.explained for c in analysis.checks)


@pytest.mark.parametrize("path", CORPUS, ids=IDS)
def test_analyze_adjudication_only_says_so(path, capsys):
    assert main(["analyze", str(path), "--adjudication-only"]) == 0
    out = capsys.readouterr().out
    assert "all explained by the peer's documented quirks" in out and "UNEXPLAINED" not in out
