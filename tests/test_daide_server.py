"""Loopback: seven ``dipsolve daide`` clients play a real DAIDE server's game past Winter 1902.

The server is the ``diplomacy`` package's (1.1.2), run by `dipsolve.testing.daide_server`
in its own process on 127.0.0.1 at a free port (killed whatever happens).  Seven clients
-- DumbBots, random bots, one dipsolve search at a short time limit and the example bot
of one's own (examples/bots/greedy.py) -- sign on as
separate processes and play until the server ends the game on reaching Spring 1903.
Then every phase the server recorded (its saved-game JSON: the position, each power's
orders, each unit's results; read by `dipsolve.io.records`) is adjudicated again by
dipsolve, and the next position and the results must be the server's -- but for the
peer's documented bugs (`dipsolve.analysis.QUIRKS`), each named when it happens.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("diplomacy")

import dipsolve  # noqa: E402
from dipsolve.core.adjudicator import adjudicate  # noqa: E402
from dipsolve.analysis import QUIRKS, check_phase  # noqa: E402
from dipsolve.io.records import iter_positions, read_records, result_codes  # noqa: E402
from dipsolve.testing.daide_server import DaideServerProcess  # noqa: E402
from dipsolve.testing.peer import OUR_POWER  # noqa: E402

#: a DAIDE server and seven clients playing: slow (CI runs it: ``--all``)
pytestmark = pytest.mark.slow

#: a bot of the user's own, seated by its file and class (docs/bots.md)
EXAMPLE_BOT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                           "examples", "bots", "greedy.py") + ":GreedyBot"
#: the seats, in the order the clients connect (the server seats them alphabetically)
BOTS = ["dumbbot", "random", "dipsolve", "dumbbot", EXAMPLE_BOT, "dumbbot", "random"]
#: the server's time limit a turn (MTL/RTL/BTL): the dipsolve seat thinks 0.5 s of it
DEADLINE = 10


def _client(port: int, bot: str, seat: int, save: Path) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "dipsolve.cli", "daide", f"127.0.0.1:{port}", "--bot", bot,
           "--name", f"seat{seat}", "--seed", str(seat), "--timeout", "90"]
    if seat == 0:                      # one seat keeps its history (a dipsolve.Game)
        cmd += ["--save", str(save)]
    if bot.startswith("dipsolve"):
        cmd += ["--time-limit", "0.5"]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


@pytest.fixture(scope="module")
def daide_game(tmp_path_factory):
    """(the server's saved game, [(exit status, stdout, stderr) per client], its last line,
    the folder seat 0 saved its game in)."""
    out = tmp_path_factory.mktemp("daide") / "game.json"
    saved = out.parent / "seat0"
    clients: list[subprocess.Popen] = []
    try:
        with DaideServerProcess(out, deadline=DEADLINE, until="S1903M", max_seconds=170) as server:
            clients = [_client(server.port, bot, i, saved) for i, bot in enumerate(BOTS)]
            last = server.wait(timeout=180)
            results = []
            for c in clients:
                stdout, stderr = c.communicate(timeout=60)
                results.append((c.returncode, stdout, stderr))
    finally:
        for c in clients:
            if c.poll() is None:
                os.killpg(c.pid, signal.SIGKILL)
                c.wait()
    log = server.log.read_text(encoding="utf-8", errors="replace")[-3000:] if server.log.exists() else ""
    assert out.exists(), f"the server wrote no record ({last!r}); its log ends:\n{log}"
    return json.loads(out.read_text(encoding="utf-8")), results, last, saved


def _differences(record_json: dict) -> tuple[list[str], dict[str, int], int]:
    """Every phase of the server's record adjudicated by dipsolve (`dipsolve.io.records`
    reads it, `dipsolve.analysis.check_phase` compares the next board and names the peer's
    documented quirks): (unexplained differences, quirks seen, phases compared).  Where the
    boards agree, the results agree too: each unit dislodged or not, and a unit still in
    place bounced (a move) or cut (a support) or not, as the server recorded."""
    record = read_records(json.dumps(record_json), "<the server's record>")[0]
    diffs: list[str] = []
    quirks: dict[str, int] = {}
    compared = 0
    for before, after in iter_positions(record):
        if after is None or not before.orders:
            continue
        compared += 1
        check = check_phase(before, after)
        if not check.explained:
            diffs.append(f"{before.name}: " + "; ".join(check.differences)
                         + f"\norders: { {p: [str(o) for o in os] for p, os in before.orders.items()} }")
            continue
        for q in check.quirks:
            quirks[q] = quirks.get(q, 0) + 1
        if check.differences or before.position.phase.kind != "movement":
            continue
        ours = result_codes(adjudicate(before.position, before.orders_of()))
        for unit in sorted(set(ours) | set(before.results)):
            mine = set(ours.get(unit, ())) & {"bounce", "cut", "dislodged"}
            theirs = set(before.results.get(unit, ())) & {"bounce", "cut", "dislodged"}
            if "dislodged" in mine | theirs:
                mine, theirs = mine & {"dislodged"}, theirs & {"dislodged"}
            if mine != theirs:
                diffs.append(f"{before.name} {unit}: dipsolve {sorted(mine)}, server {sorted(theirs)}")
    return diffs, quirks, compared


def test_seven_clients_play_to_winter_1902_and_every_phase_is_dipsolves(daide_game):
    record, results, last, _ = daide_game
    for (status, stdout, stderr), bot in zip(results, BOTS):
        assert status == 0, f"{bot} client exited {status}:\n{stderr[-2000:]}"
        assert stdout.startswith("game over (SPR 1903)"), stdout + stderr[-2000:]
        assert "Traceback" not in stderr
    assert last == "DONE COMPLETED"
    names = [p["name"] for p in record["phases"]]
    assert "S1901M" in names and "F1902M" in names and "S1903M" in names, names
    # the record of a game whose phases the clients' orders made: every seat ordered
    s1901 = next(p for p in record["phases"] if p["name"] == "S1901M")
    assert all(len(s1901["orders"][power]) == (4 if power == "RUSSIA" else 3)
               for power in s1901["orders"]), s1901["orders"]
    diffs, quirks, compared = _differences(record)
    assert compared >= 5
    assert not diffs, "\n".join(diffs)
    assert set(quirks) <= set(QUIRKS)          # the peer's documented bugs, each named


def test_each_client_says_its_power_and_the_final_centres(daide_game):
    record, results, _, _ = daide_game
    seated = []
    for status, stdout, stderr in results:
        line = next(x for x in stderr.splitlines() if "playing " in x)
        seated.append(line.split("playing ")[1].split()[0])
        counts = dict(item.rsplit(" ", 1) for item in stdout.split("centers: ")[1].strip().split(", "))
        final = record["phases"][-1]["state"]["centers"]
        assert {p: int(n) for p, n in counts.items()} == {OUR_POWER[p]: len(c) for p, c in final.items()}
    assert sorted(seated) == sorted(OUR_POWER.values())


def test_the_comparison_sees_a_record_that_is_not_dipsolves(daide_game):
    """The check above can fail: a unit moved by hand in the record's second phase, or a
    bounce the server did not report, is a difference (no peer bug explains it)."""
    import copy
    record, _, _, _ = daide_game
    moved = copy.deepcopy(record)
    units = moved["phases"][1]["state"]["units"]
    power = next(p for p, us in units.items() if any(u.startswith("A ") for u in us))
    i = next(i for i, u in enumerate(units[power]) if u.startswith("A "))
    units[power][i] = "A BOH" if not units[power][i].endswith("BOH") else "A TYR"
    diffs, _, _ = _differences(moved)
    assert diffs and diffs[0].startswith(f"{moved['phases'][0]['name']}: unit only in dipsolve:")
    bounced = copy.deepcopy(record)
    results = bounced["phases"][0]["results"]
    unit = next(u for u, codes in results.items() if not codes)
    results[unit] = ["bounce"]
    diffs, _, _ = _differences(bounced)
    assert diffs == [f"{bounced['phases'][0]['name']} {unit}: dipsolve [], server ['bounce']"]


def test_the_seats_history_is_a_game_of_the_servers_boards(daide_game):
    """The seat's history is a `dipsolve.Game` (saved with ``play --save``'s writer): every
    phase the seat saw is the server's board of that phase, with the orders the server
    recorded for the powers the server reported (ORD; the diplomacy package's server
    reports a seat its own orders only)."""
    record_json, results, _, saved = daide_game
    files = sorted(saved.glob("daide-*.json"))
    assert len(files) == 1, results[0][2][-2000:]
    game = dipsolve.Game.load(str(files[0]))
    assert files[0].read_text() == game.dumps()
    server = {ph.name: ph for ph in read_records(json.dumps(record_json))[0].phases}
    power = next(x for x in results[0][2].splitlines() if "playing " in x).split("playing ")[1].split()[0]
    power = OUR_POWER.get(power, power)
    assert files[0].name == f"daide-{power}.json"
    seen = [ph for ph in game if ph.name in server]
    assert len(seen) >= 6 and [ph.name for ph in game][0] == "S1901M"
    for ph in seen:
        theirs = server[ph.name]
        assert (ph.position.units, ph.position.centers) == (theirs.position.units, theirs.position.centers), ph.name
        if ph is game.phases[-1]:
            continue
        ours = {p: sorted(map(str, os)) for p, os in ph.orders.items() if os}
        assert ours == {p: sorted(map(str, theirs.orders.get(p, ()))) for p in ours}, ph.name
        if ph.position.phase.kind == "movement" and ph.position.units_of(power):
            assert power in ours, ph.name                         # the seat's own, at least


def test_a_game_every_client_has_left_is_given_up_with_its_record(tmp_path):
    """The peer's server can wait for ever on a phase; once every client that signed on
    has gone (here the only one, which gives up after 2 s of silence before the game
    begins), the server writes its record as it stands and exits with status 4, instead
    of holding its caller until --max-seconds."""
    out = tmp_path / "game.json"
    with DaideServerProcess(out, deadline=10, max_seconds=300) as server:
        client = subprocess.run([sys.executable, "-m", "dipsolve.cli", "daide", f"127.0.0.1:{server.port}",
                                 "--bot", "random", "--timeout", "2"], capture_output=True, text=True,
                                timeout=120)
        assert client.returncode == 1
        server.wait(timeout=120)
        assert server.proc is not None and server.proc.returncode == 4
    assert out.exists() and json.loads(out.read_text(encoding="utf-8"))["phases"] is not None
