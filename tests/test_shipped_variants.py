"""The variants dipsolve ships (`dipsolve.core.variant.VARIANTS`: the standard game, Pure and
Ancient Mediterranean), each the project's own declared data (``solver/data/NAME.variant``
and ``NAME.map``, their sources named in them): the same game as the ``diplomacy``
package plays on its map of that name."""

from __future__ import annotations

from pathlib import Path

import pytest

from dipsolve import Position
from dipsolve.core.variant import VARIANTS, variant

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = [v for v in VARIANTS if v != "standard"]


def test_the_shipped_variants_are_listed_with_their_sources():
    assert VARIANTS == ("standard", "pure", "ancmed")
    for name in VARIANTS:
        head = (ROOT / "solver" / "data" / f"{name}.variant").read_text(encoding="utf-8")
        assert f"name {name}\n" in head
    for name in SHIPPED:       # each names its source beside its data
        for suffix in ("variant", "map"):
            text = (ROOT / "solver" / "data" / f"{name}.{suffix}").read_text(encoding="utf-8")
            assert "http" in text or "make_variant_map" in text, (name, suffix)


@pytest.mark.parametrize("name", SHIPPED)
def test_a_shipped_variant_is_the_game_the_peer_plays(name):
    pytest.importorskip("diplomacy")
    from test_map_file import same_board_as_peer
    same_board_as_peer(variant(name), name)


def test_the_small_and_the_large_variant_as_their_rules_say():
    pure, ancmed = variant("pure"), variant("ancmed")
    assert len(pure.map.provinces) == 7 and pure.victory == 4 and pure.powers == variant("standard").powers
    assert all(pure.map.army_moves[p] == set(pure.map.provinces) - {p} for p in pure.map.provinces)
    assert ancmed.powers == ("Carthage", "Egypt", "Greece", "Persia", "Rome")
    assert len(ancmed.map.centers) == 34 and ancmed.victory == 18 and len(ancmed.start_units) == 15
    assert ("Rome", "F", "NEA") in ancmed.start_units and ancmed.map.power("roman") == "Rome"
    start = Position.initial(ancmed)
    assert start.phase.short == "S1M" and Position.from_text(start.to_text(), game_map=ancmed.map) == start
