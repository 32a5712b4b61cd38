"""The builder of the package's prior (solver/data/build_policy_prior.py): fitted to saved
games people played, with where they came from in the file's header; the seat without a
prior whose self-play made the package's file."""

from __future__ import annotations

import random
import runpy
from pathlib import Path

import pytest

from dipsolve.algorithms.order_policy import FEATURES, OrderPolicy, PolicyLearner, read_policy
from dipsolve.core.position import Position
from dipsolve.play.bots import DumbBotPlayer

ROOT = Path(__file__).resolve().parent.parent
BUILDER = ROOT / "solver" / "data" / "build_policy_prior.py"
RECORDS = ROOT / "tests" / "data" / "records"


def _main():
    return runpy.run_path(str(BUILDER))["main"]


def test_a_prior_fitted_to_recorded_games_names_them_and_predicts_a_table(tmp_path):
    out = tmp_path / "prior.tsv"
    game = RECORDS / "meta-game_433761_ENGLAND_AG.json"
    assert _main()(["--records", str(game), "--source", "one of Meta's games (MIT)", "--out", str(out)]) == 0
    text = out.read_text()
    header = [line for line in text.splitlines() if line.startswith("#")]
    assert any("one of Meta's games (MIT)" in line for line in header)
    assert any("movement phases of 1 games people played" in line for line in header)
    policy = read_policy(text, str(out))
    assert len(policy.weights) == len(FEATURES) and policy != OrderPolicy()
    # people's orders say something of another table's first orders: better than a uniform guess
    pos = Position.initial()
    judge = PolicyLearner()
    judge.observe(pos, {p: DumbBotPlayer().orders(pos, p, 1.0, random.Random(p)) for p in pos.powers()},
                  pos.powers())
    assert judge.log_likelihood(policy) > judge.log_likelihood(OrderPolicy())


@pytest.mark.parametrize("argv, said", [
    ([], "nothing to fit"),
    (["--records", "x.json"], "--records needs --source"),
    (["--games", "-1"], "--games takes at least 0"),
    (["--records", "no-such-record.json", "--source", "x"], "no-such-record.json: cannot read the record"),
])
def test_the_builder_refuses_what_it_cannot_make(argv, said, tmp_path, capsys):
    out = tmp_path / "prior.tsv"
    with pytest.raises(SystemExit) as e:
        _main()(argv + ["--out", str(out)])
    assert e.value.code == 2
    assert said in capsys.readouterr().err
    assert not out.exists()
