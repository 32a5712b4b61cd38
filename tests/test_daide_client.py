"""The DAIDE client without a real server: the wire format, and the message flow against
a scripted fake server on 127.0.0.1 (garbage, a close mid-game, a refusal, a rejected
order, a silent server), each with its one-line error and exit status."""

from __future__ import annotations

import socket
import struct
import threading
from typing import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dipsolve
from dipsolve.cli.main import main
from dipsolve.play.daide.client import Variant, parse_tree
from dipsolve.play.daide.wire import (BASE_TOKENS, DM, EM, FM, IM, RM, STANDARD_MAP_TOKENS, Connection,
                                 DaideConnectionError, DaideError, DaideProtocolError, TokenTable,
                                 frame, initial_message, parse_frames)
from dipsolve.core.errors import DipsolveError

TABLE = TokenTable.from_rm(b"")


# -- the wire format ---------------------------------------------------------------------

def test_the_token_table_is_the_one_the_diplomacy_package_speaks():
    tokens = pytest.importorskip("diplomacy.daide.tokens")
    theirs = {b[0] << 8 | b[1]: name for b, name in tokens.BYTES_TO_STR.items()}
    ours = {**BASE_TOKENS, **STANDARD_MAP_TOKENS}
    assert {c: ours.get(c) for c in theirs} == theirs
    assert len(STANDARD_MAP_TOKENS) == 7 + 75


def test_an_rm_that_lists_the_tokens_gives_the_same_table_and_a_bad_rm_is_refused():
    listed = TokenTable.from_rm(TABLE.rm_body())
    assert listed.by_code == TABLE.by_code and len(TABLE.rm_body()) == 6 * 82
    # a server's own numbering is taken, not assumed
    renumbered = TokenTable.from_rm(b"\x41\x09AUS\0" + b"\x51\x44PAR\0")
    assert renumbered.decode(b"\x41\x09\x51\x44") == "AUS PAR"
    with pytest.raises(DaideProtocolError, match="six bytes"):
        TokenTable.from_rm(b"\x41\x00AUS")
    with pytest.raises(DaideProtocolError, match="not a power"):
        TokenTable.from_rm(b"\x48\x00AUS\0")


def test_texts_numbers_and_brackets_round_trip_through_bytes():
    for text in ["NOW (SPR 1901) (RUS FLT (STP SCS))", "TME (-5)", "NME ('dipsolve 1') ('0.1')",
                 "HLO (FRA) (8191) ((LVL 0) (MTL 300))", "SCO (UNO SER) (TUR ANK CON SMY)"]:
        assert TABLE.decode(TABLE.encode(text)) == text
    assert TABLE.encode("1901") == b"\x07\x6d" and TABLE.encode("-1") == b"\x3f\xff"
    assert TABLE.encode("(") == b"\x40\x00" and TABLE.encode("ECH") == b"\x52\x14"
    with pytest.raises(DaideError, match="not a DAIDE token"):
        TABLE.encode("NOW XYZ")
    with pytest.raises(DaideError, match="range"):
        TABLE.encode("9000")
    # found by the long fuzz run: digits that are not ASCII, and a sign twice
    for word in ["\u00b2", "--5", "\u0661\u0669", "-\u00b3"]:
        with pytest.raises(DaideError, match="not a DAIDE token"):
            TABLE.encode(f"TME ({word})")


def test_a_frame_is_type_pad_and_big_endian_length():
    assert initial_message() == bytes([0, 0, 0, 4, 0, 1, 0xDA, 0x10])
    body = TABLE.encode("MDF")
    assert frame(DM, body) == bytes([2, 0, 0, 2]) + b"\x48\x0a"
    messages, rest = parse_frames(frame(RM) + frame(DM, body) + b"\x02\x00\x00")
    assert [(m.type, m.body) for m in messages] == [(RM, b""), (DM, body)] and rest == b"\x02\x00\x00"
    for bad, why in [(b"\x07\x00\x00\x00", "unknown DAIDE message type 7"),
                     (frame(IM, b"\0\1\xda\x10"), "sent an IM"),
                     (b"\x02\x00\x00\x03abc", "two bytes each"),
                     (frame(EM, b"\x01"), "two-byte error code")]:
        with pytest.raises(DaideProtocolError, match=why):
            parse_frames(bad)


def test_the_tree_of_a_message_and_the_variant_of_hlo():
    tree = parse_tree("HLO (FRA) (12) ((LVL 10) (MTL 5) (RTL 3) (BTL 2) (AOA))")
    assert tree == ["HLO", ["FRA"], ["12"], [["LVL", "10"], ["MTL", "5"], ["RTL", "3"],
                                            ["BTL", "2"], ["AOA"]]]
    v = Variant.from_tree(tree[3])
    assert (v.level, v.limit("movement"), v.limit("retreat"), v.limit("adjustment"),
            v.any_orders) == (10, 5, 3, 2, True)
    # numbers that are not DAIDE's are no limits (never a ValueError)
    odd = Variant.from_tree([["LVL", "\u00b2"], ["MTL", "--5"], ["RTL", "9" * 30], ["BTL", "7"]])
    assert (odd.level, odd.move_limit, odd.retreat_limit, odd.build_limit) == (0, None, None, 7)
    for bad in ["HLO (FRA", "HLO FRA)"]:
        with pytest.raises(DaideProtocolError, match="without its"):
            parse_tree(bad)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300))
def test_arbitrary_bytes_raise_only_dipsolve_errors(data):
    for read in (parse_frames, TABLE.decode, TokenTable.from_rm):
        try:
            read(data)
        except DipsolveError:
            pass


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=200))
def test_a_connection_fed_arbitrary_bytes_then_closed_ends_in_a_dipsolve_error(data):
    """Never another exception, never a hang: the socket closes after the bytes."""
    a, b = socket.socketpair()
    conn = Connection(a, idle_timeout=5, body_timeout=5)
    b.sendall(data)
    b.close()
    got = 0
    with pytest.raises(DipsolveError):
        while True:
            conn.receive()
            got += 1
            assert got <= len(data) // 4 + 1
    conn.close()


def test_a_silent_server_times_out_with_an_injected_clock():
    a, b = socket.socketpair()
    now = [0.0]

    def clock() -> float:
        now[0] += 2.0
        return now[0]

    conn = Connection(a, idle_timeout=7, poll_interval=0.01, clock=clock)
    with pytest.raises(DaideConnectionError, match="no answer from the server for 7 s"):
        conn.receive()
    b.close()
    conn.close()


# -- the message flow, against a fake server -----------------------------------------------

NOW_1901 = ("NOW (SPR 1901) (AUS AMY BUD) (AUS AMY VIE) (AUS FLT TRI) (ENG FLT EDI) (ENG FLT LON) "
            "(ENG AMY LVP) (FRA FLT BRE) (FRA AMY MAR) (FRA AMY PAR) (GER FLT KIE) (GER AMY BER) "
            "(GER AMY MUN) (ITA FLT NAP) (ITA AMY ROM) (ITA AMY VEN) (RUS AMY WAR) (RUS AMY MOS) "
            "(RUS FLT SEV) (RUS FLT (STP SCS)) (TUR FLT ANK) (TUR AMY CON) (TUR AMY SMY)")
SCO_1901 = ("SCO (AUS BUD TRI VIE) (ENG EDI LON LVP) (FRA BRE MAR PAR) (GER BER KIE MUN) "
            "(ITA NAP ROM VEN) (RUS MOS SEV STP WAR) (TUR ANK CON SMY) "
            "(UNO BEL BUL DEN GRE HOL NWY POR RUM SER SPA SWE TUN)")
MDF = "MDF (AUS ENG FRA GER ITA RUS TUR) (((AUS BUD TRI VIE)) (ADR)) ((ADR (FLT ALB APU ION TRI VEN)))"


class FakeServer:
    """One scripted DAIDE server on 127.0.0.1: ``script(peer)`` runs in a thread with the
    accepted connection; `peer.expect` reads the client's next DM, `peer.send` sends one."""

    def __init__(self, script: Callable[["FakeServer"], None]) -> None:
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(1)
        self.port = self.listener.getsockname()[1]
        self.script = script
        self.received: list[str] = []
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.listener.settimeout(20)
            self.sock, _ = self.listener.accept()
            self.sock.settimeout(20)
            self.conn = Connection(self.sock, idle_timeout=20)
            im = self._read_exact(8)
            assert im == initial_message(), im
            self.script(self)
        except BaseException as e:     # reported by `join`
            self.error = e
        finally:
            try:
                self.sock.close()
            except AttributeError:
                pass
            self.listener.close()

    def _read_exact(self, n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            assert chunk, "the client closed the connection"
            data += chunk
        return data

    def raw(self, data: bytes) -> None:
        self.sock.sendall(data)

    def send(self, text: str) -> None:
        self.raw(frame(DM, TABLE.encode(text)))

    def expect(self, head: str) -> str:
        """The client's next message, which must begin with ``head`` (a ``NOT (GOF)``
        before it, the client's 'not ready' while its bot thinks, is passed over)."""
        while True:
            msg = self.conn.receive()
            text = TABLE.decode(msg.body) if msg.type == DM else {FM: "FM", EM: "EM"}.get(msg.type, "?")
            self.received.append(text)
            if text != "NOT (GOF)" or head.startswith("NOT"):
                break
        assert text.startswith(head), f"expected {head}, got {text}"
        return text

    def sign_on(self, power: str = "FRA", variant: str = "(LVL 0)") -> None:
        self.raw(frame(RM))
        name = self.expect("NME")
        self.send(f"YES ({name})")
        self.send("MAP ('standard')")
        self.expect("MDF")
        self.send(MDF)
        self.expect("YES (MAP")
        self.send(f"HLO ({power}) (1234) ({variant})")

    def join(self) -> None:
        self.thread.join(timeout=30)
        if self.error is not None:
            raise self.error


def run_client(server: FakeServer, *extra: str) -> int:
    return main(["daide", f"127.0.0.1:{server.port}", "--bot", "dumbbot", "--seed", "1", *extra])


def test_a_refusal_at_sign_on_is_one_line_and_exit_1(capsys):
    def script(s: FakeServer) -> None:
        s.raw(frame(RM))
        name = s.expect("NME")
        s.send(f"REJ ({name})")

    server = FakeServer(script)
    assert run_client(server) == 1
    server.join()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "refused the client: REJ (NME ('dipsolve') ('0.1'))" in err
    assert "game is full" in err


def test_garbage_from_the_server_is_one_line_and_exit_1(capsys):
    """The server's fault, not the user's: exit 1, as for a lost connection."""
    server = FakeServer(lambda s: (s.raw(frame(RM)), s.expect("NME"), s.raw(b"\x09\x00\x00\x02ab")))
    assert run_client(server) == 1
    server.join()
    err = capsys.readouterr().err
    assert err == "dipsolve daide: unknown DAIDE message type 9 from the server\n"


def test_an_unknown_token_is_answered_with_an_em_and_exit_1(capsys):
    def script(s: FakeServer) -> None:
        s.raw(frame(RM))
        s.expect("NME")
        s.raw(frame(DM, b"\x48\x1c\x4f\x01"))       # YES, then a token no table has
        s.expect("EM")

    server = FakeServer(script)
    assert run_client(server) == 1
    server.join()
    assert capsys.readouterr().err == "dipsolve daide: unknown token 0x4F01 at byte 2 of a DM\n"


def test_a_server_that_closes_mid_game_is_exit_1(capsys):
    def script(s: FakeServer) -> None:
        s.sign_on()
        s.send(SCO_1901)
        s.send(NOW_1901)
        s.expect("SUB")

    server = FakeServer(script)
    assert run_client(server) == 1
    server.join()
    err = capsys.readouterr().err.splitlines()
    assert err[-1] == "dipsolve daide: the server closed the connection"
    assert "Traceback" not in "\n".join(err)


@pytest.mark.parametrize("partial", [b"", b"\x02", b"\x02\x00", b"\x02\x00\x00\x08\x48"])
def test_a_silent_server_is_given_up_after_the_timeout(capsys, partial):
    """Silence, or half a message then silence: the rest of a message begun is waited
    for --timeout seconds too, not a fixed 30."""
    done = threading.Event()
    server = FakeServer(lambda s: (s.sign_on(), s.raw(partial), done.wait(20)))
    assert run_client(server, "--timeout", "1") == 1
    done.set()
    server.join()
    what = "the rest of a message" if partial else "a message"
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"dipsolve daide: no answer from the server for 1 s (waiting for {what})")


def test_a_rejected_order_is_reported_replaced_by_a_hold_and_resubmitted(capsys):
    """France orders 1901; the server refuses its first order (FAR); the client says so,
    sends the set again with that unit holding, then GOF; ORD, SMR and OFF end the game:
    exit 0 and the final centres from SMR."""
    first_sub: list[str] = []

    def thx_all(s: FakeServer, sub: str, reject_first: bool) -> list:
        orders = [o for o in parse_tree(sub)[2:] if isinstance(o, list)]
        assert parse_tree(sub)[1] == ["SPR", "1901"]        # the turn
        for i, order in enumerate(orders):
            body = " ".join(_text(x) for x in order)
            s.send(f"THX ({body}) ({'FAR' if reject_first and i == 0 else 'MBV'})")
        return orders

    def script(s: FakeServer) -> None:
        s.sign_on(variant="(LVL 0) (MTL 30)")
        s.send(SCO_1901)
        s.send(NOW_1901)
        sub = s.expect("SUB")
        first_sub.append(sub)
        orders = thx_all(s, sub, reject_first=True)
        s.send("MIS")
        again = s.expect("SUB")
        first_sub.append(again)
        thx_all(s, again, reject_first=False)
        s.expect("GOF")
        s.send("YES (GOF)")
        s.send(f"ORD (SPR 1901) ({' '.join(_text(x) for x in orders[0])}) (SUC)")
        s.send("SMR (SPR 1901) (AUS ('a') ('1') 3) (ENG ('b') ('1') 3) (FRA ('dipsolve') ('0.1') 5) "
               "(GER ('c') ('1') 3) (ITA ('d') ('1') 3) (RUS ('e') ('1') 4) (TUR ('f') ('1') 0 1902)")
        s.send("OFF")
        s.expect("FM")

    server = FakeServer(script)
    assert run_client(server) == 0
    server.join()
    out, err = capsys.readouterr()
    first = [o for o in parse_tree(first_sub[0])[2:] if isinstance(o, list)]
    second = [o for o in parse_tree(first_sub[1])[2:] if isinstance(o, list)]
    assert len(first) == len(second) == 3
    rejected = " ".join(_text(x) for x in first[0])
    assert f"the server rejected the order {rejected}: FAR (not adjacent)" in err
    unit = _text(first[0][0])
    assert " ".join(_text(x) for x in second[0]) == f"{unit} HLD"
    assert first[1:] == second[1:]
    assert "playing France" in err and "press level 0" in err
    assert out == ("game over (SPR 1901): the server ended the game; centers: France 5, Russia 4, "
                   "Austria 3, England 3, Germany 3, Italy 3, Turkey 0\n")
    assert not any(t.startswith("SND") for t in server.received)       # level 0: no press
    # not ready while the bot thinks, ready once the orders are settled
    assert server.received.index("NOT (GOF)") < server.received.index(first_sub[0])
    assert server.received[-2:] == ["GOF", "FM"]


def test_a_message_the_client_cannot_read_is_answered_huh(capsys):
    def script(s: FakeServer) -> None:
        s.sign_on(power="ENG")
        s.send("NOW (SPR 1901) (ENG AMY ECH)")          # an army at sea: not a board
        s.expect("HUH (")
        s.send("OFF")
        s.expect("FM")

    server = FakeServer(script)
    assert run_client(server) == 0
    server.join()
    assert any(t.startswith("HUH (NOW") and "ERR" in t for t in server.received)
    assert "cannot read the server's NOW" in capsys.readouterr().err


def _text(x) -> str:
    return x if isinstance(x, str) else "(" + " ".join(_text(y) for y in x) + ")"


def test_struct_layout_of_the_header():
    assert struct.unpack(">BBH", frame(DM, b"\x00" * 300)[:4]) == (2, 0, 300)


def test_a_thx_of_an_earlier_turn_is_not_taken_for_this_turns(capsys):
    """A server that processed a turn while a SUB was on its way answers that SUB late,
    after the next NOW: those THX (here a NYU) belong to no order of the new turn and are
    not reported as rejections; a SUB that arrives late is refused whole (REJ), which
    the client reports."""
    subs: list[str] = []

    def script(s: FakeServer) -> None:
        s.sign_on()
        s.send(SCO_1901)
        s.send(NOW_1901)
        subs.append(s.expect("SUB (SPR 1901)"))
        s.send(NOW_1901.replace("SPR 1901", "FAL 1901"))
        subs.append(s.expect("SUB (FAL 1901)"))
        s.send(f"REJ ({subs[0]})")
        s.send("THX ((FRA AMY BUR) MTO MUN) (NYU)")          # of the spring SUB
        for order in [o for o in parse_tree(subs[1])[2:] if isinstance(o, list)]:
            s.send(f"THX ({' '.join(_text(x) for x in order)}) (MBV)")
        s.send("MIS")
        s.expect("GOF")
        s.send("OFF")
        s.expect("FM")

    server = FakeServer(script)
    assert run_client(server) == 0
    server.join()
    err = capsys.readouterr().err
    assert "the server rejected: REJ (SUB (SPR 1901)" in err
    assert "rejected the order" not in err and "resubmitting" not in err
    assert sum(t.startswith("SUB") for t in server.received) == 2


def test_json_gives_the_end_or_the_error_as_one_object(capsys):
    import json

    def script(s: FakeServer) -> None:
        s.sign_on(power="TUR")
        s.send("ORD (SPR 1905) ((TUR AMY BUL) MTO SER) (BNC)")
        s.send("ORD (SPR 1905) ((TUR FLT CON) HLD) (SUC RET)")
        s.send("ORD (SPR 1905) ((TUR FLT ANK) HLD) (SUC)")
        s.send("DRW")
        s.send("SMR (WIN 1905) (AUS ('a') ('1') 6) (ENG ('b') ('1') 5) (FRA ('c') ('1') 5) "
               "(GER ('d') ('1') 4) (ITA ('e') ('1') 4) (RUS ('f') ('1') 5) (TUR ('dipsolve') ('0.1') 5)")
        s.send("OFF")
        s.expect("FM")

    server = FakeServer(script)
    assert run_client(server, "--json") == 0
    server.join()
    end = json.loads(capsys.readouterr().out)
    assert (end["how"], end["power"], end["turn"], end["centers"]["Austria"]) == ("draw", "Turkey", "WIN 1905", 6)
    assert end["players"]["Turkey"] == {"name": "dipsolve", "version": "0.1"}
    assert end["results"] == {"BNC": 1, "SUC": 2, "RET": 1}

    def refuse(s: FakeServer) -> None:
        s.raw(frame(RM))
        s.send(f"REJ ({s.expect('NME')})")

    server = FakeServer(refuse)
    assert run_client(server, "--json") == 1
    server.join()
    out, err = capsys.readouterr()
    assert json.loads(out)["error"] == "refused" and err == ""


def test_a_game_that_ends_while_the_bot_thinks_ends_cleanly(capsys):
    """The server ends the game right after a NOW (SMR and OFF are already there when the
    bot has decided): no orders are sent, exit 0 -- and the same when the server does not
    wait for the FM but closes at once."""
    end = frame(DM, TABLE.encode("SMR (SPR 1903) (AUS ('a') ('1') 4) (ENG ('b') ('1') 4) "
                                 "(FRA ('c') ('1') 5) (GER ('d') ('1') 5) (ITA ('e') ('1') 4) "
                                 "(RUS ('f') ('1') 6) (TUR ('g') ('1') 6)")) + frame(DM, TABLE.encode("OFF"))
    now = frame(DM, TABLE.encode(SCO_1901)) + frame(DM, TABLE.encode(NOW_1901.replace("1901", "1903", 1)))

    def polite(s: FakeServer) -> None:
        s.sign_on()
        s.raw(now + end)
        s.expect("NOT (GOF)")
        s.expect("FM")

    def abrupt(s: FakeServer) -> None:
        s.sign_on()
        s.raw(now + end)
        s.sock.shutdown(socket.SHUT_RDWR)

    for script in (polite, abrupt):
        server = FakeServer(script)
        assert run_client(server) == 0
        server.join()
        out, err = capsys.readouterr()
        assert out.startswith("game over (SPR 1903)"), err
        assert not any(t.startswith("SUB") for t in server.received)


def test_power_and_passcode_take_a_seat_back_with_iam(capsys):
    """--power with --passcode rejoins (IAM), asks HLO, then the board (SCO, NOW), and
    plays on; --power alone asks for the seat by name (the diplomacy server's 'FRA:NAME')."""
    def rejoin(s: FakeServer) -> None:
        s.raw(frame(RM))
        iam = s.expect("IAM (ITA) (77)")
        s.send(f"YES ({iam})")
        s.expect("HLO")
        s.send("HLO (ITA) (77) ((LVL 0))")
        s.expect("SCO")
        s.expect("NOW")
        s.send(SCO_1901)
        s.send(NOW_1901)
        s.expect("SUB (SPR 1901) ((ITA")
        s.send("OFF")
        s.expect("FM")

    server = FakeServer(rejoin)
    assert run_client(server, "--power", "Italy", "--passcode", "77") == 0
    server.join()
    assert "playing Italy (passcode 77" in capsys.readouterr().err

    def by_name(s: FakeServer) -> None:
        s.raw(frame(RM))
        s.expect("NME ('TUR:dipsolve') ('0.1')")
        s.send("OFF")

    server = FakeServer(by_name)
    assert run_client(server, "--power", "tur") == 1
    server.join()
    assert "turned the client off before the game began" in capsys.readouterr().err
    assert main(["daide", "127.0.0.1:1", "--passcode", "5"]) == 2
    assert "--passcode needs --power" in capsys.readouterr().err


def _solo_then_off(s: FakeServer) -> None:
    """A server that signs the client on, ends the game with France's solo in an SMR (no
    SLO), sends OFF and waits for the client's FM."""
    s.sign_on()
    s.send("SMR (AUT 1910) (AUS ('a') ('1') 1) (ENG ('b') ('1') 2) (FRA ('dipsolve') ('0.1') 18) "
           "(GER ('d') ('1') 0 1906) (ITA ('e') ('1') 4) (RUS ('f') ('1') 7) (TUR ('g') ('1') 2)")
    s.send("OFF")
    s.expect("FM")


def test_a_solo_the_server_ends_without_slo_is_read_from_smr(capsys):
    server = FakeServer(_solo_then_off)
    assert run_client(server) == 0
    server.join()
    assert capsys.readouterr().out == ("game over (AUT 1910): a solo win for France; centers: France 18, "
                                       "Russia 7, Italy 4, England 2, Turkey 2, Austria 1, Germany 0\n")


class ScriptedConnection:
    """A connection without a socket: `receive` hands out the given messages, then the
    server is gone; what the client sends is kept."""

    def __init__(self, messages: list[bytes]) -> None:
        self.messages = [(RM, b"")] + [(DM, m) for m in messages]
        self.sent: list[tuple[int, bytes]] = []
        self.closed = False

    def send(self, kind: int, body: bytes = b"") -> None:
        if self.closed:
            raise DaideConnectionError("the connection is closed")
        self.sent.append((kind, body))

    def receive(self):
        from dipsolve.play.daide.wire import Message
        if not self.messages:
            self.closed = True
            raise DaideConnectionError("the server closed the connection")
        kind, body = self.messages.pop(0)
        return Message(kind, body)

    def poll(self):
        from dipsolve.play.daide.wire import Message
        return [Message(k, b) for k, b in self.messages]

    def close(self) -> None:
        self.closed = True


SIGN_ON = ["YES (NME ('dipsolve') ('0.1'))", "MAP ('standard')", MDF, "HLO (FRA) (1) ((LVL 0))"]
_WORDS = ["(", ")", "(", ")", "NOW", "SCO", "THX", "MIS", "ORD", "SMR", "SLO", "DRW", "HUH",
          "REJ", "YES", "NOT", "GOF", "SUB", "TME", "FRM", "HLO", "MRT", "UNO", "MBV", "FAR", "SUC",
          "BNC", "RET", "SPR", "SUM", "FAL", "AUT", "WIN", "AMY", "FLT", "MTO", "HLD", "SUP", "CVY",
          "CTO", "VIA", "RTO", "DSB", "BLD", "REM", "WVE", "FRA", "GER", "RUS", "UNO", "PAR", "BUR",
          "MAR", "SPA", "STP", "SCS", "NCS", "ECH", "MAO", "1901", "0", "-3", "18", "'x'"]


_REAL = [SCO_1901, NOW_1901, NOW_1901.replace("SPR", "FAL"), "THX ((FRA AMY PAR) MTO BUR) (FAR)",
         "THX ((FRA FLT BRE) MTO MAO) (MBV)", "MIS (FRA AMY PAR) (FRA AMY MAR)", "MIS (-1)",
         "NOW (SUM 1901) (FRA AMY PAR MRT (BUR GAS)) (GER AMY BUR)", "NOW (WIN 1901) (FRA AMY PAR)",
         "ORD (SPR 1901) ((FRA AMY PAR) MTO BUR) (BNC RET)", "REJ (SUB (SPR 1901) ((FRA AMY PAR) HLD))",
         "FRM (GER) (FRA) (PRP (PCE (FRA GER)))", "TME (5)", "CCD (GER)", "OUT (ITA)"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=25).map(" ".join),
                          st.sampled_from(_REAL)), max_size=12))
def test_any_sequence_of_tokens_after_sign_on_ends_in_a_dipsolve_error_or_the_game_end(messages):
    """Whatever the server says after HLO -- in tokens the table knows, in any order --
    the session answers HUH, plays, or ends with one of dipsolve's errors: never another
    exception."""
    from dipsolve.play.registry import make_bot
    from dipsolve.play.daide.client import DaideSession
    bodies = [TABLE.encode(t) for t in SIGN_ON + messages]
    conn = ScriptedConnection(bodies)
    session = DaideSession(conn, make_bot("random"))   # type: ignore[arg-type]
    try:
        session.run()
    except DipsolveError:
        pass
    assert conn.sent[0][0] == IM and TABLE.decode(conn.sent[1][1]).startswith("NME")


def test_ctrl_c_leaves_the_game_with_an_fm_and_exit_130():
    import os
    import signal
    import subprocess
    import sys
    signed = threading.Event()

    def script(s: FakeServer) -> None:
        s.sign_on()
        signed.set()
        s.expect("FM")

    server = FakeServer(script)
    proc = subprocess.Popen([sys.executable, "-m", "dipsolve.cli", "daide", f"127.0.0.1:{server.port}",
                             "--bot", "dumbbot"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert signed.wait(60)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
    server.join()
    assert proc.returncode == 130
    assert err.splitlines()[-1] == "dipsolve: interrupted by SIGINT" and "Traceback" not in err


def test_play_daide_from_python_returns_the_end_or_raises_a_dipsolve_error():
    """`dipsolve.play_daide` is the CLI's seat from Python: the game's end as a `GameEnd`
    (the FM of a client leaving sent after OFF), a refusal as `DaideRefused`."""
    server = FakeServer(_solo_then_off)
    seen: list[tuple[str, str]] = []
    end = dipsolve.play_daide("127.0.0.1", server.port, "dumbbot", limits=dipsolve.Limits(seed=1),
                              log=lambda d, t: seen.append((d, t)))
    server.join()
    assert isinstance(end, dipsolve.GameEnd) and end.to_json()["winner"] == "France"
    assert (">>", "NME ('dipsolve') ('0.1')") in seen and ("<<", "OFF") in seen

    def refuse(s: FakeServer) -> None:
        s.raw(frame(RM))
        s.send(f"REJ ({s.expect('NME')})")

    server = FakeServer(refuse)
    with pytest.raises(dipsolve.DaideRefused) as caught:
        dipsolve.play_daide("127.0.0.1", server.port, dipsolve.RandomBot())
    server.join()
    assert isinstance(caught.value, dipsolve.DipsolveError)


# -- a hostile server: every message checked against its shape, every wait bounded, ------
# -- every line of it repeated shortened and escaped ---------------------------------------

def _after_sign_on(*messages: str, expect: str = "HUH", variant: str = "(LVL 0)"):
    """A server that signs the client on as France (with ``variant``), then sends
    ``messages`` and waits for the client's ``expect``."""
    def script(s: FakeServer) -> None:
        s.sign_on(variant=variant)
        for m in messages:
            s.send(m)
        s.expect(expect)
    return script


@pytest.mark.parametrize("message", [
    "SCO ((FRA) PAR MAR) (UNO BEL)",                     # the power bracketed
    "SCO (FRA (PAR) MAR)",                               # a province bracketed
    "SCO (PAR FRA MAR)",                                 # no power first
    "SCO (FRA PAR 'x')",                                 # text among the provinces
    "SMR (SPR 1901) ((FRA) ('a') ('1') 3)",              # the power bracketed
    "SMR (SPR 1901) (FRA 'a' ('1') 3)",                  # the name not bracketed
    "SMR (1901 SPR) (FRA ('a') ('1') 3)",                # the turn backwards
    "SMR (SPR 1901) (FRA ('a') ('1') (3))",              # the centers bracketed
    "SLO ((FRA))",
    "SLO (PAR)",
    "ORD (SPR 1901) ((FRA) MTO BUR) (SUC)",
    "ORD (SPR 1901) ((FRA AMY PAR) MTO BUR) (YES)",      # no result token
    "ORD (SPR 1901) ((FRA AMY PAR) MTO BUR)",            # no result at all
    "THX ((FRA AMY PAR) MTO BUR) ((MBV))",
    "MIS ((FRA) AMY PAR)",
])
def test_a_message_of_the_wrong_shape_is_one_clear_error_and_exit_1(capsys, message):
    """Never a TypeError from a bracketed power: the server's fault, said in one line
    that quotes the message, after a HUH to the server."""
    server = FakeServer(_after_sign_on(message))
    assert run_client(server) == 1
    server.join()
    err = capsys.readouterr().err.splitlines()
    head = message.split()[0]
    assert err[-1].startswith(f"dipsolve daide: the server's {head} is not "), err
    assert message in err[-1] and "Traceback" not in "\n".join(err)
    assert any(t.startswith(f"HUH ({head}") for t in server.received)


@pytest.mark.parametrize("message", [NOW_1901, "ORD (SPR 1901) ((FRA AMY PAR) MTO BUR) (SUC)",
                                     "THX ((FRA AMY PAR) MTO BUR) (MBV)", "MIS (FRA AMY PAR)"])
def test_a_turn_before_hlo_is_the_servers_fault_not_an_assertion(capsys, message):
    def script(s: FakeServer) -> None:
        s.raw(frame(RM))
        s.send(f"YES ({s.expect('NME')})")
        s.send(SCO_1901)
        s.send(message)

    server = FakeServer(script)
    assert run_client(server) == 1
    server.join()
    err = capsys.readouterr().err.splitlines()
    assert err[-1].startswith(f"dipsolve daide: the server sent {message[:3]} before HLO"), err


def test_results_of_other_powers_orders_are_not_counted_as_ours(capsys):
    import json
    server = FakeServer(_after_sign_on(
        "ORD (SPR 1901) ((FRA AMY PAR) MTO BUR) (SUC)",
        "ORD (SPR 1901) ((GER AMY MUN) MTO BUR) (BNC)",
        "ORD (SPR 1901) ((ENG FLT LON) MTO ECH) (BNC)",
        "ORD (SPR 1901) ((FRA FLT BRE) MTO MAO) (BNC)",
        "ORD (WIN 1901) (GER WVE) (SUC)",
        "ORD (WIN 1901) (FRA WVE) (SUC)",
        "DRW", "OFF", expect="FM"))
    assert run_client(server, "--json") == 0
    server.join()
    assert json.loads(capsys.readouterr().out)["results"] == {"SUC": 2, "BNC": 1}


def test_every_wait_of_play_daide_is_bounded_by_its_timeout(monkeypatch):
    from dipsolve.play.daide import seat
    seen: dict = {}

    def fake_open(host, port, **kw):
        seen.update(kw)
        raise DaideConnectionError("no server")

    monkeypatch.setattr(seat.Connection, "open", staticmethod(fake_open))
    with pytest.raises(DaideConnectionError):
        seat.play_daide("127.0.0.1", 9, "random", timeout=2.5)
    assert {k: seen[k] for k in ("connect_timeout", "idle_timeout", "body_timeout")} == {
        "connect_timeout": 2.5, "idle_timeout": 2.5, "body_timeout": 2.5}


FORGED = "\x1b[2J\x1b[31m\ngame over: a solo win for France\r\u202e"


@pytest.mark.parametrize("head", ["HUH", "REJ", "PRN"])
def test_a_servers_text_reaches_the_terminal_escaped_and_shortened(capsys, head):
    """Escape sequences, line ends and bidirectional marks from the server are shown
    escaped (no forged 'game over' line, no cleared screen), and a 30 kB message is
    shortened."""
    forged = FORGED.replace("\u202e", "")          # DAIDE text is one byte a character
    long = "x" * 30000
    server = FakeServer(_after_sign_on(f"{head} ('{forged}')", f"{head} ('{long}')", "OFF",
                                       expect="FM"))
    assert run_client(server, "-v") == 0
    server.join()
    out, err = capsys.readouterr()
    assert "\x1b" not in err and "\r" not in err and "\\x1b[2J" in err
    assert not any(line.startswith("game over") for line in err.splitlines())
    assert out.startswith("game over: the server ended the game")
    assert max(len(line) for line in err.splitlines()) < 2200     # -v logs 2,000 at most
    said = [line for line in err.splitlines() if line.startswith("dipsolve daide: the server")]
    assert len(said) == 2 and all(len(line) < 300 for line in said) and "(30008 characters)" in said[1]


def test_our_huh_of_a_hostile_message_is_logged_escaped(capsys):
    """-v logs what goes out too: a HUH repeats the server's words, escaped in the log."""
    server = FakeServer(_after_sign_on("SCO ((FRA) 'x\x1b[2J\ngame over: forged')"))
    assert run_client(server, "-v") == 1
    server.join()
    err = capsys.readouterr().err
    assert "\x1b" not in err and ">> HUH (SCO" in err
    assert not any(line.startswith("game over") for line in err.splitlines())


def test_variant_options_with_hostile_text_are_said_escaped(capsys):
    server = FakeServer(_after_sign_on("OFF", expect="FM",
                                       variant="(LVL 0) (PDA '\x1b]0;owned\x07') ('" + "y" * 500 + "')"))
    assert run_client(server) == 0
    server.join()
    err = capsys.readouterr().err
    playing = next(line for line in err.splitlines() if "playing France" in line)
    assert "\x1b" not in playing and "\\x1b]0;owned\\x07" in playing and len(playing) < 300


def test_an_error_quoting_a_huge_hostile_message_is_short(capsys):
    entries = " ".join("((FRA) PAR)" for _ in range(3000))
    server = FakeServer(_after_sign_on(f"SCO {entries}"))
    assert run_client(server, "--json") == 1
    server.join()
    import json
    out = capsys.readouterr().out
    obj = json.loads(out)
    assert obj["error"] == "syntax" and len(out) < 2000 and "characters)" in obj["message"]


def test_brackets_nested_past_the_limit_from_the_server_are_its_fault(capsys):
    server = FakeServer(_after_sign_on("SCO " + "(" * 70 + "FRA" + ")" * 70, expect="FM"))
    assert run_client(server) == 1
    server.join()
    assert "max_nesting" in capsys.readouterr().err.splitlines()[-1]


def test_the_seats_history_is_a_game():
    """`SeatHistory`: each NOW a phase (the same NOW twice, one), each readable ORD an
    order of its power; an order it cannot read is left out, not an error."""
    import dipsolve
    from dipsolve.play.daide.client import _body_text, parse_tree
    from dipsolve.play.daide.history import SeatHistory
    history = SeatHistory()
    assert history.game is None and not history.order("(FRA AMY PAR) MTO BUR")
    start = dipsolve.Position.initial()
    history.board(start)
    history.board(start)
    ord_ = parse_tree("ORD (SPR 1901) ((FRA AMY PAR) MTO BUR) (SUC)")
    assert history.order(_body_text(ord_[2]))
    assert not history.order("(FRA AMY PAR) MTO NOWHERE")
    after = dipsolve.adjudicate(start, {"France": ["A PAR - BUR"]}).next
    history.board(after)
    game = history.game
    assert [ph.name for ph in game] == ["S1901M", "F1901M"] and game.position == after
    assert {p: [str(o) for o in os] for p, os in game.phases[0].orders.items()} == {"France": ["A PAR - BUR"]}
    assert game.phases[0].outcome.next == after        # dipsolve agrees with the server here
    assert dipsolve.Game.from_json(game.dumps()).record == game.record


class _Watcher:
    """A bot that holds and keeps what `observe` shows it."""

    name = "watcher"

    def __init__(self) -> None:
        self.seen: list = []

    def orders(self, position, power, deadline_s, rng):
        from dipsolve.core.orders import Hold
        return [Hold(u.kind, u.location) for u in position.units_of(power)]

    def observe(self, position, orders):
        self.seen.append((position.phase.short, {p: sorted(map(str, os)) for p, os in orders.items()}))


def test_a_bot_that_observes_is_shown_every_power_s_orders_as_ord_reports_them():
    """A seat's bot with ``observe`` (the "learned" opponent model) is shown, when the next
    turn's board arrives, the turn before with every order the server's ORD reported."""

    def turn(s: FakeServer, now: str) -> None:
        s.send(SCO_1901)
        s.send(now)
        sub = s.expect("SUB")
        for order in (o for o in parse_tree(sub)[2:] if isinstance(o, list)):
            s.send(f"THX ({' '.join(_text(x) for x in order)}) (MBV)")
        s.expect("GOF")

    def script(s: FakeServer) -> None:
        s.sign_on(variant="(LVL 0) (MTL 30)")
        turn(s, NOW_1901)
        for order, result in (("(FRA AMY PAR) HLD", "SUC"), ("(FRA AMY MAR) HLD", "SUC"),
                              ("(FRA FLT BRE) HLD", "SUC"), ("(GER AMY MUN) MTO BUR", "SUC"),
                              ("(ENG FLT LON) MTO ECH", "SUC")):
            s.send(f"ORD (SPR 1901) ({order}) ({result})")
        turn(s, NOW_1901.replace("SPR 1901", "FAL 1901"))
        s.send("OFF")
        s.expect("FM")

    bot = _Watcher()
    server = FakeServer(script)
    dipsolve.play_daide("127.0.0.1", server.port, bot, limits=dipsolve.Limits(seed=1))
    server.join()
    assert bot.seen == [("S1901M", {"England": ["F LON - ENG"], "France": ["A MAR H", "A PAR H", "F BRE H"],
                                    "Germany": ["A MUN - BUR"]})]


def test_a_save_folder_that_cannot_take_the_game_is_refused_before_connecting(tmp_path, capsys):
    """The seat's game is written where play --save writes (checked before the game): a
    --save that names a file is exit status 2 before any server is asked (port 1 here)."""
    taken = tmp_path / "not-a-folder"
    taken.write_text("x", encoding="utf-8")
    assert main(["daide", "127.0.0.1:1", "--bot", "dumbbot", "--save", str(taken)]) == 2
    err = capsys.readouterr().err
    assert "not-a-folder" in err and "Traceback" not in err and "connect" not in err


class _Timed:
    """A bot that holds and keeps the time and seed each turn is given."""

    name = "timed"

    def __init__(self) -> None:
        self.given: list[tuple[float, int]] = []

    def orders(self, position, power, deadline_s, rng):
        from dipsolve.core.orders import Hold
        self.given.append((deadline_s, rng.randrange(1 << 30)))
        return [Hold(u.kind, u.location) for u in position.units_of(power)]


@pytest.mark.parametrize("variant, limits, seconds", [
    ("(LVL 0)", None, 5.0),                                           # no server limit: the seat's 5 s
    ("(LVL 0)", dipsolve.Limits(time_limit=2.5), 2.5),
    ("(LVL 0) (MTL 10)", dipsolve.Limits(time_limit=20), 7.5),        # 80% of the server's less half a second
    ("(LVL 0) (MTL 10)", dipsolve.Limits(time_limit=3), 3.0),         # the seat's, when shorter
])
def test_a_seat_thinks_within_its_limits_and_the_servers(variant, limits, seconds):
    """`play_daide`'s one `Limits`: the most a turn takes (less when the server's time
    limit is shorter) and the seed of the bot's choices, the same on every run."""
    from dipsolve.play.daide.client import DaideSession
    from dipsolve.play.daide.seat import DAIDE_LIMITS
    draws = []
    for _ in range(2):
        bot = _Timed()
        sign_on = SIGN_ON[:-1] + [f"HLO (FRA) (1) ({variant})"]
        conn = ScriptedConnection([TABLE.encode(t) for t in sign_on + [SCO_1901, NOW_1901]])
        session = DaideSession(conn, bot, limits=limits or DAIDE_LIMITS)   # type: ignore[arg-type]
        with pytest.raises(DipsolveError):
            session.run()                   # the script ends: the server is gone
        assert [s for s, _ in bot.given] == [seconds]
        draws.append(bot.given[0][1])
    assert draws[0] == draws[1]


def test_play_daide_refuses_limits_and_press_it_cannot_honour_before_connecting():
    with pytest.raises(dipsolve.DipsolveArgumentError, match="a seat's CP-SAT workers are its own"):
        dipsolve.play_daide("127.0.0.1", 9, "dipsolve", limits=dipsolve.Limits(workers=2))
    with pytest.raises(dipsolve.DipsolveArgumentError, match="limits: expected a Limits, not a int"):
        dipsolve.play_daide("127.0.0.1", 9, "dipsolve", limits=5)   # type: ignore[arg-type]
    with pytest.raises(dipsolve.DipsolveArgumentError, match="only a dipsolve seat negotiates"):
        dipsolve.play_daide("127.0.0.1", 9, "dumbbot", press=dipsolve.Press(30))
    with pytest.raises(dipsolve.DipsolveArgumentError, match="is not a dipsolve.Press"):
        dipsolve.play_daide("127.0.0.1", 9, "dipsolve", press=30)   # type: ignore[arg-type]
    for bad, says in (({"level": 5}, "press level 5"), ({"wait": float("nan")}, "press wait nan"),
                      ({"policy": "sly"}, "press policy 'sly'"), ({"trust": "blind"}, "trust 'blind'")):
        with pytest.raises(dipsolve.DipsolveArgumentError, match=says):
            dipsolve.Press(**bad)
