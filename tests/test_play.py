"""Whole games (dipsolve.play.games) and ``dipsolve play``: reproducible, every phase played in
order, centers conserved, a solo ends the game, the results table adds up."""

from __future__ import annotations

import json

import pytest

import dipsolve

from dipsolve.play.bots import DumbBotPlayer, RandomBot
from dipsolve.play.registry import make_bot
from dipsolve.cli import main
from dipsolve.core.map import POWERS, standard_map
from dipsolve.play.games import (DRAW_AFTER, UNTIL, GameRecord, PowerResult, play_game, play_series,
                                 results_table, rotated, standings, wilson)
from dipsolve.core.position import KINDS, SEASONS, Position
from dipsolve.core.results import Limits

DUMB, RANDOM = DumbBotPlayer(), RandomBot()


def _mixed():
    return {p: (DUMB if i % 2 else RANDOM) for i, p in enumerate(POWERS)}


def test_a_game_replays_exactly_from_its_seed():
    a = play_game(_mixed(), limits=Limits(seed=3), until=1903)
    b = play_game(_mixed(), limits=Limits(seed=3), until=1903)
    assert a.phases == b.phases and a.results == b.results and a.final == b.final
    c = play_game(_mixed(), limits=Limits(seed=4), until=1903)
    assert c.phases != a.phases


def _key(position: Position) -> tuple[int, int, int]:
    ph = position.phase
    return ph.year, SEASONS.index(ph.season), KINDS.index(ph.kind)


def test_every_phase_is_played_in_order_and_centers_are_conserved():
    seen: list[Position] = []
    kinds = set()
    for seed in range(3):
        seen.clear()
        record = play_game({p: DUMB for p in POWERS}, limits=Limits(seed=seed), until=1905, on_phase=seen.append)
        seen.append(record.final)
        assert [p.phase.short for p in seen[:-1]] == [ph.phase for ph in record.phases]
        assert seen[0].phase.short == "S1901M"
        total = len(standard_map().centers)
        for before, after in zip(seen, seen[1:]):
            assert _key(after) > _key(before)                       # time only moves on
            assert after.validate() is after                        # a legal board
            assert len(after.centers) >= len(before.centers)        # a center once owned stays owned
            assert len(after.centers) <= total
            if after.phase.kind == "movement" and after.phase.season == "Spring":
                for power in POWERS:                                # adjustments were made
                    assert len(after.units_of(power)) <= len(after.centers_of(power))
            if before.phase.kind != "adjustment" and before.phase.season == "Spring":
                assert after.centers == before.centers              # only the fall changes owners
        kinds |= {p.phase.kind for p in seen}
        assert record.final.phase.short in ("W1905A", "S1906M")
        assert sum(r.centers for r in record.results) == len(record.final.centers)
        assert all(r.refused == 0 for r in record.results)
    assert kinds == {"movement", "retreat", "adjustment"}


def test_a_solo_ends_the_game():
    seats = {p: RANDOM for p in POWERS} | {"Austria": DUMB}
    record = play_game(seats, limits=Limits(seed=5), until=1915)
    assert record.winner == "Austria"
    austria = record.result("Austria")
    assert austria.win and austria.centers >= 18
    assert record.final.phase.year < 1915
    assert not any(r.win for r in record.results if r.power != "Austria")
    assert all(r.eliminated == (r.centers == 0) for r in record.results)


class _Holds:
    """Every unit holds (no orders): no center ever changes hands."""
    name = "holds"

    def orders(self, position, power, time_limit, rng):
        return []


def test_a_game_where_no_center_changes_hands_for_five_years_is_a_draw():
    assert (UNTIL, DRAW_AFTER) == (1935, 5)       # DipNet's last year, FAIR's draw rule
    seats = {p: _Holds() for p in POWERS}
    record = play_game(seats, limits=Limits(seed=1))
    # nothing changed hands in 1901-1905: the game ends before Spring 1906 is played
    assert (record.ended, record.final_phase, record.winner) == ("draw", "S1906M", None)
    assert record.phases[-1].phase == "F1905M" and record.draw_after == 5
    shorter = play_game(seats, limits=Limits(seed=1), draw_after=2)
    assert (shorter.ended, shorter.final_phase) == ("draw", "S1903M")
    never = play_game(seats, limits=Limits(seed=1), draw_after=None, until=1908)
    assert (never.ended, never.phases[-1].phase) == ("year", "F1908M")
    with pytest.raises(dipsolve.DipsolveError):
        play_game(seats, draw_after=0)


class _TakesDenmark(_Holds):
    """Holds, but for Germany's fleet, which takes Denmark in the Fall of 1903."""
    name = "takes-denmark"

    def orders(self, position, power, time_limit, rng):
        if position.phase.short == "F1903M":
            return [dipsolve.Move("F", "KIE", "DEN")]
        return []


def test_a_center_that_changes_hands_puts_the_draw_off():
    seats = {p: _Holds() for p in POWERS} | {"Germany": _TakesDenmark()}
    record = play_game(seats, limits=Limits(seed=1))
    # Denmark changes hands after the Fall of 1903; 1904-1908 then stand still
    assert (record.ended, record.final_phase) == ("draw", "S1909M")
    assert record.final.owner["DEN"] == "Germany"


def _record(seed: int, centers: dict[str, int], winner: str | None, final: str = "S1911M") -> GameRecord:
    results = tuple(PowerResult(p, "A" if p == "Austria" else "B", c, c, p == winner, c == 0, 0)
                    for p, c in centers.items())
    last = Position.build(final, [], {})
    return GameRecord(seed, 1935, 2.0, {p: r.bot for p, r in zip(centers, results)}, results, winner,
                      last, (), 0.0, None, 5, "solo" if winner else "draw")


def test_standings_count_each_seat_as_dipnets_table_4():
    base = dict.fromkeys(POWERS, 2)
    games = [
        _record(0, base | {"Austria": 18, "Turkey": 0}, "Austria", "W1907A"),       # A wins
        _record(1, base | {"Austria": 9, "Russia": 9}, None),                       # A shares the most
        _record(2, base | {"Austria": 3, "Russia": 10}, None),                      # A survived
        _record(3, base | {"Austria": 0, "Russia": 10}, None),                      # A defeated
        _record(4, base | {"Austria": 18}, "Austria", "S1910M"),                    # A wins
    ]
    rows = {r.bot: r for r in standings(games)}
    a = rows["A"]
    assert (a.seats, a.wins, a.most, a.survived, a.defeated) == (5, 2, 1, 1, 1)
    assert a.solo_years == (1907, 1909)
    assert a.median_solo_year is None                  # 2 of 5 seats: fewer than half soloed
    assert [k for _, k in a.solos_by()] == [1, 1, 2]
    b = rows["B"]
    assert b.seats == 30 and b.wins == 0
    assert b.most == 1 + 1 + 1                         # Russia's 9 (tied) and 10 twice
    assert b.defeated == 1 and b.most + b.survived + b.defeated == 30
    assert sum(rows["A"].to_json()[k]["count"] for k in ("win", "most_sc", "survived", "defeated")) == 5
    three = standings(games[:1] + games[4:] + games[1:2])[0]
    assert three.median_solo_year == 1909             # half of 3 seats (2) soloed by 1909


def test_the_95_percent_interval_is_wilsons():
    lo, hi = wilson(7, 7)
    assert hi == 1.0 and lo == pytest.approx(0.6457, abs=1e-3)
    lo, hi = wilson(0, 42)
    assert lo == 0.0 and hi == pytest.approx(0.0838, abs=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)


def test_a_series_rotates_the_seats_and_the_table_adds_up():
    seating = [DUMB] + [RANDOM] * 6
    records = play_series(seating, 7, limits=Limits(seed=10), until=1902, rotate=True)
    assert [r.seed for r in records] == list(range(10, 17))
    assert sorted(next(p for p, b in r.seats.items() if b == "dumbbot") for r in records) == sorted(POWERS)
    rows = {row.bot: row for row in results_table(records)}
    assert rows["dumbbot"].seats == rows["dumbbot"].games == 7
    assert rows["random"].seats == 42 and rows["random"].games == 7
    for name, row in rows.items():
        centers = [r.result(p).centers for r in records for p in POWERS if r.seats[p] == name]
        assert row.centers == pytest.approx(sum(centers) / len(centers))
        assert row.wins == sum(r.winner is not None and r.seats[r.winner] == name for r in records)
    assert rotated(seating, 1)["England"] is DUMB


def test_make_bot_names():
    assert make_bot("DumbBot").name == "dumbbot" and make_bot("random").name == "random"
    assert make_bot("dipsolve:cpsat").name == "dipsolve:cpsat"
    # the default opponent model (learned: a policy fitted to the table) goes unnamed; others are named
    assert make_bot("dipsolve").learns and make_bot("dipsolve").strategy == dipsolve.Strategy()
    assert make_bot("dipsolve:minimax").learns                  # candidates judged against draws of it
    assert make_bot("dipsolve").name == "dipsolve:agenda"
    assert make_bot("dipsolve", opponents="equilibrium").name == "dipsolve:agenda[equilibrium]"
    assert make_bot("dipsolve", opponents="worst").name == "dipsolve:agenda[worst]"
    assert make_bot("dipsolve", opponents="sampled").name == "dipsolve:agenda[sampled]"
    assert make_bot("greedy").name == "greedy"
    with pytest.raises(ValueError, match="unknown opponent model"):
        make_bot("dipsolve", opponents="psychic")
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("albert")
    with pytest.raises(ValueError, match="unknown dipsolve method"):
        make_bot("dipsolve:alphabeta")


class _Prepared:
    """DumbBot that counts how often it was prepared, and plays only once prepared."""

    name = "prepared"

    def __init__(self) -> None:
        self.prepared = 0

    def prepare(self) -> None:
        self.prepared += 1

    def orders(self, position, power, deadline_s, rng):
        assert self.prepared == 1
        return DUMB.orders(position, power, deadline_s, rng)


def test_a_bot_is_prepared_once_before_the_game():
    bot = _Prepared()
    record = play_game({p: bot for p in POWERS}, until=1901)
    assert bot.prepared == 1 and record.phases


class _Foreseeing:
    """A seat shown the others' orders before its own (a benchmark's bound): it keeps what
    it was shown, and plays DumbBot."""

    name = "foreseeing"
    foresees = True

    def __init__(self) -> None:
        self.shown: dict[str, dict] = {}

    def foresee(self, position, orders):
        self.shown[position.phase.short] = orders

    def orders(self, position, power, deadline_s, rng):
        assert position.phase.short in self.shown       # shown first, every phase it orders
        return DUMB.orders(position, power, deadline_s, rng)


def test_a_foreseeing_seat_orders_last_and_is_shown_the_others_orders_first():
    seer = _Foreseeing()
    seats = _mixed()
    seats["France"] = seer
    record = play_game(seats, limits=Limits(seed=5), until=1902)
    ordered = 0
    for ph in record.phases:
        if ph.phase not in seer.shown:
            continue
        ordered += 1
        shown = {p: tuple(str(o) for o in os) for p, os in seer.shown[ph.phase].items()}
        # exactly the others' orders of the phase, which the record keeps
        assert shown == {p: os for p, os in ph.orders.items() if p != "France"}
        assert list(ph.seconds)[-1] == "France"          # asked last
    assert ordered >= 4
    # every seat draws from its own stream, so asking France last changes nobody's play:
    # the game is the one a DumbBot in France plays
    seats["France"] = DUMB
    assert play_game(seats, limits=Limits(seed=5), until=1902).phases == record.phases


def test_a_dipsolve_seat_takes_what_was_loaded_before_the_game_out_of_the_collectors_reach():
    # a full collection scanning the loaded modules took 70-90 ms of a phase's time
    import gc
    made_before = [[]]
    make_bot("dipsolve").prepare()
    assert gc.get_freeze_count() > 0
    assert not any(o is made_before for o in gc.get_objects())
    made_after = [[]]
    assert any(o is made_after for o in gc.get_objects())


def test_a_cpsat_seat_loads_its_model_before_the_game():
    from dipsolve.models import order_method
    make_bot("dipsolve:cpsat").prepare()
    assert order_method.loaded()


# -- the command line --------------------------------------------------------------------------

def run(capsys, *argv):
    code = main(["play", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_plays_and_prints_the_table(capsys):
    code, out, err = run(capsys, "--bots", "dumbbot,random", "--games", "2", "--until", "1902",
                         "--rotate", "--seed", "1")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("game 1 (seed 1): ") and "AUS " in lines[0] and "(dumbbot)" in lines[0]
    assert lines[1].startswith("game 2 (seed 2): ")
    header = next(i for i, l in enumerate(lines) if l.startswith("bot "))
    assert "% win" in lines[header] and "centers" in lines[header]
    assert {l.split()[0] for l in lines[header + 1:header + 3]} == {"dumbbot", "random"}
    table4 = next(i for i, l in enumerate(lines) if l.startswith("bot ") and i > header)
    assert lines[table4].split()[1:6] == ["seats", "win", "most", "SC", "survived"]
    # every seat counted once: win + most SC + survived + defeated = 100%
    for line in lines[table4 + 1:table4 + 3]:
        shares = [float(cell.rstrip("%")) for cell in line.split() if cell.endswith("%")]
        assert len(shares) == 4 and sum(shares) == pytest.approx(100.0, abs=0.2)


def test_cli_json_is_the_same_game_as_the_library(capsys):
    code, out, err = run(capsys, "--seat", "FRA=random", "--games", "1", "--until", "1902",
                         "--seed", "7", "--json", "--history")
    assert code == 0, err
    obj = json.loads(out)
    game = obj["games"][0]
    assert game["seats"]["France"] == "random" and game["seats"]["Germany"] == "dumbbot"
    seats = {p: DUMB for p in POWERS} | {"France": RANDOM}
    record = play_game(seats, limits=Limits(time_limit=2, seed=7), until=1902)   # the CLI's 2 s a phase

    def untimed(obj):   # wall times differ between two runs of the same game
        obj = {k: v for k, v in obj.items() if k != "seconds"}
        obj["phases"] = [{k: v for k, v in p.items() if k != "seconds"} for p in obj["phases"]]
        obj["powers"] = [{k: v for k, v in r.items() if "seconds" not in k} for r in obj["powers"]]
        return obj
    assert untimed(game) == untimed(json.loads(json.dumps(record.to_json(history=True))))
    assert game["phases"][0]["phase"] == "S1901M"
    assert {row["bot"] for row in obj["table"]} == {"dumbbot", "random"}


@pytest.mark.parametrize("argv, message", [
    (["--bots", "albert"], "unknown bot 'albert'"),
    (["--seat", "Prussia=dumbbot"], "unknown power 'Prussia'"),
    (["--seat", "France"], "expected POWER=BOT"),
    (["--bots", ",".join(["dumbbot"] * 8)], "names 8 bots"),
    (["--games", "0"], "--games 0"),
    (["--until", "1899"], "--until 1899"),
    (["--draw-after", "-1"], "--draw-after -1"),
    (["--time-limit", "0"], "--time-limit 0: past the limit max_seconds"),
    (["--time-limit", "inf"], "--time-limit inf is not finite: past the limit max_seconds"),
    (["--history"], "--history goes with --json"),
    (["--evaluation", "mountain"], "--evaluation 'mountain': unknown evaluation"),
])
def test_cli_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("kind", ["movement", "retreat", "adjustment"])
def test_random_bot_orders_are_accepted(kind):
    import random

    from dipsolve.core.adjudicator import Reason, adjudicate
    from dipsolve.testing import random_position
    refused = {Reason.ILLEGAL, Reason.NOT_YOUR_UNIT, Reason.NO_UNIT, Reason.DUPLICATE}
    for seed in range(40):
        pos = random_position(seed, n_units=20, phase_kind=kind)
        orders = {p: RANDOM.orders(pos, p, 1.0, random.Random(seed)) for p in pos.powers()}
        bad = [r for r in adjudicate(pos, orders).results if r.reason in refused]
        assert not bad, (pos.to_text(orders), bad)
        if kind == "movement":
            for p in pos.powers():
                assert len(orders[p]) == len(pos.units_of(p))


def test_the_dipsolve_seat_plays_every_phase(capsys):
    # one short game with dipsolve's search in one seat (the search honours its clock)
    code, out, err = run(capsys, "--bots", "dipsolve,dumbbot", "--until", "1901",
                         "--time-limit", "0.2", "--seed", "2", "--json", "--history")
    assert code == 0, err
    game = json.loads(out)["games"][0]
    assert game["seats"]["Austria"] == "dipsolve:agenda"
    austria = next(p for p in game["powers"] if p["power"] == "Austria")
    assert austria["refused"] == 0
    played = [ph for ph in game["phases"] if "Austria" in ph["orders"]]
    assert {ph["phase"] for ph in played} >= {"S1901M", "F1901M"}


@pytest.mark.slow  # worker processes
def test_games_played_at_once_are_the_games_played_one_by_one():
    # DumbBot and random draw chance only from their seats' streams: the same seeds
    # give the same games whether they run in one process or in two
    seating = [DUMB] * 4 + [RandomBot()] * 3
    one = play_series(seating, 3, limits=Limits(seed=4), until=1903, rotate=True)
    two = play_series(seating, 3, limits=Limits(seed=4), until=1903, rotate=True, jobs=2)
    assert [r.results for r in one] == [r.results for r in two]
    assert [r.phases for r in one] == [r.phases for r in two]
    with pytest.raises(ValueError, match="jobs"):
        play_series(seating, 1, jobs=0)


def test_the_greedy_bot_plays_whole_games_with_legal_orders_only():
    from dipsolve.play.bots import GreedyBot
    greedy = GreedyBot()
    records = play_series([greedy] + [RandomBot()] * 6, 3, limits=Limits(time_limit=0.1, seed=5), until=1905,
                          rotate=True)
    assert all(r.refused == 0 for rec in records for r in rec.results)
    row = {r.bot: r for r in results_table(records)}
    # heading for the centers it does not own, it ends with more than the random seats
    assert row["greedy"].centers > row["random"].centers
    # it orders every phase kind: retreats and adjustments included
    kinds = {p.phase[-1] for rec in records for p in rec.phases if greedy.name in
             {rec.seats[q] for q in p.orders}}
    assert {"M", "A"} <= kinds
