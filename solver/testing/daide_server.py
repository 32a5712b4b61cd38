"""A real DAIDE server for tests and examples: the ``diplomacy`` package's, in its own process.

    python -m dipsolve.testing.daide_server --out GAME.json [--deadline S] [--until PHASE] [--press]
                                            [--draw-after YEARS]

starts the peer's server (``diplomacy.Server``, in a temporary directory) with one
standard, no-press game of seven seats (``--press``: a game with press, which the server
relays at its level, 30: ``SND`` in, ``FRM`` out, every message kept in the record), and its DAIDE server on 127.0.0.1 at a free
port; prints ``DAIDE-PORT <port>`` on stdout once clients may connect; the game begins
when seven DAIDE clients have signed on.  Each turn is processed when every seat has
submitted and said GOF, or at the turn's deadline (``--deadline`` seconds, the MTL, RTL
and BTL the clients see).  When the game reaches ``--until`` (a phase such as
``S1903M``: the phases before it are played), or no supply centre has changed hands for
``--draw-after`` years (the owners at the start of each Spring the same as that many years
before: a draw, as `dipsolve play --draw-after` ends a game), or it ends by itself (a
solo), the server ends it (the
clients get SMR and OFF), writes the game's record -- the peer's saved-game JSON
(``diplomacy.utils.export.to_saved_game_format``), every phase with its orders and
results -- to ``--out``, prints ``DONE <phase>`` and exits.  It exits with status 3 if the
game is not over after ``--max-seconds``, and with status 4, the record written as it
stands, when every client that signed on has left for `ABANDONED_AFTER` seconds before
the game is over (the peer's server can wait for ever on a phase whose orders are all in).

`DaideServerProcess` runs it from Python (a context manager that always kills it).
"""

from __future__ import annotations

import argparse
import json
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

__all__ = ["ABANDONED_AFTER", "DaideServerProcess", "free_port", "main", "unchanged"]

#: seconds with no client connected, after some had signed on, before the server gives
#: the game up (status 4)
ABANDONED_AFTER = 10.0


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _phase_key(phase: str) -> tuple[int, int]:
    """``S1901M`` -> a key that sorts phases in play order."""
    order = {"SM": 0, "SR": 1, "FM": 2, "FR": 3, "WA": 4}
    return int(phase[1:5]), order.get(phase[0] + phase[-1], 0)


def unchanged(springs: dict[int, dict], phase: str, centers: dict, years: int) -> bool:
    """Whether no centre has changed hands for ``years`` years by ``phase`` (a Spring
    movement phase, ``S1905M``; any other: False): its owners (``centers``, power ->
    its centres) are kept in ``springs`` (year -> owners) and compared with those of
    every Spring since ``years`` years before.

        >>> springs = {}
        >>> [unchanged(springs, p, {"FRA": ["PAR"]}, 2) for p in ("S1901M", "F1901M", "S1902M", "S1903M")]
        [False, False, False, True]
        >>> unchanged(springs, "S1904M", {"FRA": ["PAR", "BEL"]}, 2)
        False
    """
    if not (phase.startswith("S") and phase.endswith("M") and phase[1:5].isdigit()):
        return False
    year = int(phase[1:5])
    springs.setdefault(year, {p: sorted(cs) for p, cs in centers.items()})
    before = springs.get(year - years)
    return before is not None and all(springs.get(y) == before for y in range(year - years, year + 1))


def main(argv: list[str] | None = None) -> int:
    """Run the server until the game is over (see the module's doc)."""
    ap = argparse.ArgumentParser(prog="python -m dipsolve.testing.daide_server")
    ap.add_argument("--out", required=True, help="where to write the saved-game JSON")
    ap.add_argument("--deadline", type=int, default=10, help="seconds a turn may take (default 10)")
    ap.add_argument("--until", default="S1903M", help="end the game on reaching this phase")
    ap.add_argument("--port", type=int, default=0, help="the DAIDE port (default: a free one)")
    ap.add_argument("--max-seconds", type=float, default=600.0, help="give up after this long")
    ap.add_argument("--press", action="store_true", help="a game with press (default: no press)")
    ap.add_argument("--draw-after", type=int, default=0, metavar="YEARS",
                    help="end the game when no centre has changed hands for YEARS years (default 0: never)")
    ap.add_argument("--workdir", help="the server's data folder (default: a temporary one, "
                                      "removed at the end)")
    args = ap.parse_args(argv)
    require_server()

    from tornado import gen
    from tornado.ioloop import IOLoop

    from diplomacy import Server
    from diplomacy.daide.server import Server as DaideServer
    from diplomacy.server.notifier import Notifier
    from diplomacy.server.server_game import ServerGame
    from diplomacy.utils import strings
    from diplomacy.utils.export import to_saved_game_format

    class StandardOnlyServer(Server):
        """The peer's server, knowing the standard map only (loading all its maps
        builds their convoy tables: minutes, the first time on a machine)."""

        __slots__ = ()

        def _load_available_maps(self):
            from diplomacy import Map
            m = Map("standard")
            self.available_maps["standard"] = {
                "powers": list(m.powers), "supply_centers": list(m.scs),
                "loc_type": m.loc_type.copy(), "loc_abut": m.loc_abut.copy(),
                "aliases": m.aliases.copy()}

    scratch = None if args.workdir else tempfile.TemporaryDirectory(prefix="dipsolve-daide-server-")
    workdir = args.workdir or scratch.name  # type: ignore[union-attr]
    io_loop = IOLoop()
    io_loop.make_current()
    server = StandardOnlyServer(server_dir=workdir)
    server.set_tasks(io_loop)
    signal.signal(signal.SIGINT, signal.SIG_DFL)        # set_tasks takes SIGINT over
    rules = ["POWER_CHOICE"] if args.press else ["NO_PRESS", "POWER_CHOICE"]
    game = ServerGame(map_name="standard", n_controls=7, rules=rules,
                      deadline=args.deadline, server=server)
    server.games[game.game_id] = game
    port = args.port or free_port()
    daide = DaideServer(server, game.game_id)
    daide.listen(port, address="127.0.0.1")
    server.daide_servers[port] = daide
    status = {"code": 0}
    start = time.monotonic()

    springs: dict[int, dict] = {}       # year -> the centres' owners at the start of its Spring

    def stalled(phase: str) -> bool:
        return bool(args.draw_after) and unchanged(springs, phase, game.get_state()["centers"], args.draw_after)

    seated: dict[str, float | None] = {"ever": None, "empty_since": None}
    accept = daide.handle_stream

    def handle_stream(stream, address):   # noqa: ANN001, ANN202
        # a client is seen as it connects, not only while the watch below polls: on a
        # loaded machine one can come and go between two polls
        seated["ever"], seated["empty_since"] = time.monotonic(), None
        return accept(stream, address)
    daide.handle_stream = handle_stream

    def abandoned() -> bool:
        """Every client that signed on has left (for `ABANDONED_AFTER` seconds) and the
        game is not over: the peer's server can wait for ever on a phase (a game of
        2026-11-29 stopped in W1909A with every power's orders in); the record is
        written as it stands."""
        now = time.monotonic()
        if daide._registered_connections:
            seated["ever"], seated["empty_since"] = now, None
            return False
        if seated["ever"] is None:
            return False
        empty = seated["empty_since"]
        if empty is None:
            seated["empty_since"] = empty = now
        return now - empty > ABANDONED_AFTER

    @gen.coroutine
    def watch():
        print(f"DAIDE-PORT {port}", flush=True)
        while True:
            yield gen.sleep(0.1)
            if time.monotonic() - start > args.max_seconds:
                status["code"] = 3
                break
            if game.status != strings.COMPLETED and abandoned():
                status["code"] = 4
                break
            if game.status == strings.COMPLETED:        # a solo: the game ended itself
                break
            phase = game.get_current_phase()
            if game.status == strings.ACTIVE and phase not in ("FORMING", "COMPLETED") \
                    and (_phase_key(phase) >= _phase_key(args.until) or stalled(phase)):
                before, after = game.draw()
                Notifier(server).notify_game_processed(game, before, after)
                break
        yield gen.sleep(2.0)          # let the notifications (SMR, OFF) go out and be read
        Path(args.out).write_text(json.dumps(to_saved_game_format(game)), encoding="utf-8")
        print(f"DONE {game.get_current_phase()}", flush=True)
        yield gen.sleep(0.2)
        daide.stop()

    try:
        io_loop.run_sync(watch)
    finally:
        io_loop.close(all_fds=True)
        if scratch is not None:
            scratch.cleanup()
    return status["code"]


#: what to install for the server, said when it is missing
INSTALL = ("pip install -e '.[test]' in a checkout (the test extra), or "
           "pip install diplomacy==1.1.2")


def require_server() -> None:
    """Raise `DipsolveUnavailable`, saying what to install, unless the ``diplomacy``
    package (and its ``tornado``) can be imported: the README's plain install has neither."""
    try:
        import diplomacy  # noqa: F401
        import tornado  # noqa: F401
    except ImportError as e:
        from ..core.errors import DipsolveUnavailable
        raise DipsolveUnavailable(
            f"the DAIDE server is the diplomacy package's, which is not installed ({e}): "
            f"{INSTALL}") from None


class DaideServerProcess:
    """The server above in a subprocess: ``with DaideServerProcess(out) as server:``
    ``server.port``; killed (with its process group) on leaving, whatever happened, and
    its data folder removed."""

    def __init__(self, out: str | os.PathLike, *, deadline: int = 10, until: str = "S1903M",
                 max_seconds: float = 600.0, start_timeout: float = 60.0, press: bool = False,
                 draw_after: int = 0) -> None:
        self.out = Path(out)
        self.args = [sys.executable, "-m", "dipsolve.testing.daide_server", "--out", str(self.out),
                     "--deadline", str(deadline), "--until", until, "--max-seconds", str(max_seconds)]
        if press:
            self.args.append("--press")
        if draw_after:
            self.args += ["--draw-after", str(draw_after)]
        self.start_timeout = start_timeout
        self.proc: subprocess.Popen | None = None
        self.port = 0
        self.log = Path(str(self.out) + ".server.log")

    def __enter__(self) -> "DaideServerProcess":
        require_server()
        self._log_file = open(self.log, "w", encoding="utf-8")
        self.workdir = tempfile.mkdtemp(prefix="dipsolve-daide-server-")
        self.proc = subprocess.Popen(self.args + ["--workdir", self.workdir], stdout=subprocess.PIPE,
                                     stderr=self._log_file,
                                     text=True, start_new_session=True)
        deadline = time.monotonic() + self.start_timeout
        assert self.proc.stdout is not None
        line = ""
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.proc.stdout], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                break
            line = self.proc.stdout.readline()
            if line.startswith("DAIDE-PORT "):
                self.port = int(line.split()[1])
                return self
            if not line and self.proc.poll() is not None:
                break
        self.__exit__(None, None, None)
        raise RuntimeError(f"the DAIDE server did not start: {line!r}; see {self.log}")

    def wait(self, timeout: float) -> str:
        """Wait for the server to end the game; its last line (``DONE <phase>``)."""
        assert self.proc is not None and self.proc.stdout is not None
        out, _ = self.proc.communicate(timeout=timeout)
        return (out or "").strip().splitlines()[-1] if (out or "").strip() else ""

    def __exit__(self, *exc) -> None:
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait(timeout=10)
        if self.proc is not None and self.proc.stdout is not None:
            self.proc.stdout.close()
        if hasattr(self, "_log_file"):
            self._log_file.close()
        if hasattr(self, "workdir"):
            shutil.rmtree(self.workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
