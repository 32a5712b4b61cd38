"""Differential test of the shipped variants: dipsolve against the ``diplomacy`` package on
random phases of each variant's own board (the package has both maps, ``pure`` and
``ancmed``: dipsolve's declared data and the package's map are the same board, see
tests/test_shipped_variants.py).  Movement phases are followed through the retreat and
adjustment phases they lead to, and random retreat and Winter positions are checked too,
as tests/test_peer_crosscheck.py does on the standard map, with its documented exceptions
(the peer's known departures from the DATC, each proved by its recogniser there).

The package ends a game when a power reaches the variant's victory (its phase is then
``COMPLETED``); dipsolve's adjudicator goes on to the next phase and leaves the end to the
game (`Variant.winner`): there the two agree when dipsolve's next board has that winner.
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("diplomacy")

from dipsolve.core.variant import variant  # noqa: E402
from dipsolve.testing import random_orders, random_position  # noqa: E402
from dipsolve.testing.peer import crosscheck  # noqa: E402
from test_peer_crosscheck import Tally  # noqa: E402

CHAINS = 60       # movement phases of each variant, each followed through what comes after
SINGLES = 40      # random retreat phases, and as many Winters, of each variant


def _ended_alike(name: str, x) -> bool:
    """The peer ended the game at a solo: dipsolve's next board has the same winner."""
    return (x.peer.next is None and x.peer.peer_phase == "COMPLETED"
            and variant(name).winner(x.ours.next.centers) is not None)


def _check(name: str, tally: Tally, x) -> bool:
    if x.diffs and _ended_alike(name, x):
        tally.phases[x.position.phase.kind] += 1
        tally.excused["the game ends at a solo"] += 1
        return False
    return tally.check(x)


@pytest.fixture(scope="module", params=["pure", "ancmed"])
def tally(request) -> tuple[str, Tally]:
    name = request.param
    m = variant(name).map
    tally = Tally()
    rng = random.Random(20261126)
    for _ in range(CHAINS):
        position, game = random_position(rng, rng.randint(4, 30), game_map=m), None
        for _ in range(3):
            x = crosscheck(position, random_orders(rng, position, civil_disorder=0.15), game=game)
            if not _check(name, tally, x) or x.peer.next is None:
                break
            position, game = x.ours.next, x.peer.game
    for kind in ("retreat", "adjustment"):
        for _ in range(SINGLES):
            position = random_position(rng, rng.randint(4, 30), kind, game_map=m)
            _check(name, tally, crosscheck(position, random_orders(rng, position)))
    return name, tally


def test_a_shipped_variant_adjudicates_as_the_peer_does(tally):
    name, t = tally
    print(name, t.summary())
    t.assert_clean()
    assert sum(t.phases.values()) >= CHAINS + 2 * SINGLES
    assert {"movement", "retreat", "adjustment"} <= set(t.phases)
    assert t.agree >= 0.8 * sum(t.phases.values())
