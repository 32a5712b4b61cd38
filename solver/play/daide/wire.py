"""The DAIDE wire format: messages (IM, RM, DM, FM, EM), their bytes, and the token table.

Every DAIDE message is a four-byte header -- the message type, a pad byte, the length of
what follows as a big-endian 16-bit number -- and its body (DAIDE client-server protocol,
version 1):

=====  ====  ==================================================================
type   name  body
=====  ====  ==================================================================
0      IM    client -> server, first: the version (1) and the magic number 0xDA10
1      RM    server -> client, first: the power and province tokens, six bytes each
             (the token's two bytes, three ASCII letters, a NUL); empty: the
             standard map's tokens
2      DM    a diplomacy message: a sequence of two-byte tokens
3      FM    either side: the connection is about to close
4      EM    either side: an error code (two bytes), then the connection closes
=====  ====  ==================================================================

    >>> table = TokenTable.from_rm(b"")        # an empty RM: the standard map
    >>> data = table.encode("NME ('dipsolve') ('0.1')")
    >>> table.decode(data)
    "NME ('dipsolve') ('0.1')"
    >>> frame(DM, table.encode("YES (MAP ('standard'))"))[:4].hex()
    '0200001c'

A token's text is its three letters, ``(`` and ``)``, a number (14-bit, signed), or a
quoted ``'text'`` for a run of ASCII tokens.  The tokens that are not powers or
provinces (brackets, commands, orders, results, ...) are fixed by the DAIDE message
syntax; the powers and provinces come from the server's RM, never assumed (an empty RM
means the standard map, as the protocol says).  Whatever the server sends that breaks
these rules is a `DaideProtocolError`; a lost or dead connection a
`DaideConnectionError`.
"""

from __future__ import annotations

import re
import socket
import struct
import time
from dataclasses import dataclass, field
from typing import Callable

from dipsolve.core.errors import DipsolveError, DipsolveSyntaxError
from dipsolve.core.position import Position
from dipsolve.grammar.tokens import SEASONS, canonical_text

__all__ = ["Variant", "daide_turn", "DM", "EM", "FM", "IM", "RM", "ERROR_CODES", "BASE_TOKENS", "STANDARD_MAP_TOKENS",
           "Connection", "DaideConnectionError", "DaideError", "DaideProtocolError",
           "DaideRefused", "Message", "TokenTable", "frame", "initial_message", "parse_frames"]

IM, RM, DM, FM, EM = 0, 1, 2, 3, 4
MESSAGE_NAMES = {IM: "IM", RM: "RM", DM: "DM", FM: "FM", EM: "EM"}
#: the protocol version this client speaks, and the magic number of the IM
VERSION, MAGIC = 1, 0xDA10

#: the error codes of an EM (the protocol's table)
ERROR_CODES = {
    0x01: "IM timer popped", 0x02: "IM was not the first message", 0x03: "IM wrong endian",
    0x04: "IM wrong magic number", 0x05: "version incompatibility", 0x06: "more than one IM sent",
    0x07: "IM sent by the server", 0x08: "unknown message type", 0x09: "message shorter than expected",
    0x0A: "DM sent before RM", 0x0B: "RM was not the first message from the server",
    0x0C: "more than one RM sent", 0x0D: "RM sent by the client", 0x0E: "invalid token in a DM",
}


class DaideError(DipsolveError):
    """Something went wrong between this client and a DAIDE server."""

    kind = "daide"


class DaideProtocolError(DaideError, DipsolveSyntaxError):
    """The server sent what the protocol does not allow (garbage): not understood."""

    kind = "syntax"


class DaideConnectionError(DaideError, RuntimeError):
    """The connection could not be made, was lost, or went silent past its timeout."""

    kind = "connection"


class DaideRefused(DaideConnectionError):
    """The server refused the client (``REJ`` of its sign-on, or ``OFF`` before HLO)."""

    kind = "refused"


def _base_tokens() -> dict[int, str]:
    """The tokens the DAIDE message syntax fixes (all but powers and provinces)."""
    groups: dict[int, list[str | None]] = {
        0x40: ["(", ")"],
        0x42: ["AMY", "FLT"],
        0x47: ["SPR", "SUM", "FAL", "AUT", "WIN"],
        0x45: ["SUC", "BNC", "CUT", "DSR", "FLD", "NSO", "RET"],
        0x44: ["MBV", "BPR", "CST", "ESC", "FAR", "HSC", "NAS", "NMB", "NMR", "NRN", "NRS",
               "NSA", "NSC", "NSF", "NSP", "NST", "NSU", "NVR", "NYU", "YSC"],
        0x48: ["CCD", "DRW", "FRM", "GOF", "HLO", "HST", "HUH", "IAM", "LOD", "MAP", "MDF",
               "MIS", "NME", "NOT", "NOW", "OBS", "OFF", "ORD", "OUT", "PRN", "REJ", "SCO",
               "SLO", "SND", "SUB", "SVE", "THX", "TME", "YES", "ADM", "SMR"],
        0x49: ["AOA", "BTL", "ERR", "LVL", "MRT", "MTL", "NPB", "NPR", "PDA", "PTL", "RTL",
               "UNO", None, "DSD"],
        0x4A: ["ALY", "AND", "BWX", "DMZ", "ELS", "EXP", "FCT", "FOR", "FWD", "HOW", "IDK",
               "IFF", "INS", None, "OCC", "ORR", "PCE", "POB", None, "PRP", "QRY", "SCD",
               "SRY", "SUG", "THK", "THN", "TRY", None, "VSS", "WHT", "WHY", "XDO", "XOY",
               "YDO", "CHO", "BCC", "UNT", "NAR", "CCL"],
    }
    out: dict[int, str] = {}
    for high, names in groups.items():
        for low, name in enumerate(names):
            if name is not None:
                out[high << 8 | low] = name
    coasts = {0x00: "NCS", 0x02: "NEC", 0x04: "ECS", 0x06: "SEC", 0x08: "SCS", 0x0A: "SWC",
              0x0C: "WCS", 0x0E: "NWC"}
    out.update({0x4600 | low: name for low, name in coasts.items()})
    orders = {0x20: "CTO", 0x21: "CVY", 0x22: "HLD", 0x23: "MTO", 0x24: "SUP", 0x25: "VIA",
              0x40: "DSB", 0x41: "RTO", 0x80: "BLD", 0x81: "REM", 0x82: "WVE"}
    out.update({0x4300 | low: name for low, name in orders.items()})
    return out


#: token -> text for the tokens the message syntax fixes
BASE_TOKENS: dict[int, str] = _base_tokens()

#: the standard map's power and province tokens, which an empty RM stands for (the
#: category byte says the kind: 0x41 power, 0x50-0x57 province: inland/sea/coastal/
#: bicoastal, without or with a supply center)
STANDARD_MAP_TOKENS: dict[int, str] = {
    **{0x4100 | i: p for i, p in enumerate(["AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR"])},
    **{0x5000 | i: p for i, p in enumerate(["BOH", "BUR", "GAL", "RUH", "SIL", "TYR", "UKR"])},
    **{0x5100 | (7 + i): p for i, p in enumerate(["BUD", "MOS", "MUN", "PAR", "SER", "VIE", "WAR"])},
    **{0x5200 | (14 + i): p for i, p in enumerate(
        ["ADR", "AEG", "BAL", "BAR", "BLA", "EAS", "ECH", "GOB", "GOL", "HEL", "ION", "IRI",
         "MAO", "NAO", "NTH", "NWG", "SKA", "TYS", "WES"])},
    **{0x5400 | (33 + i): p for i, p in enumerate(
        ["ALB", "APU", "ARM", "CLY", "FIN", "GAS", "LVN", "NAF", "PIC", "PIE", "PRU", "SYR",
         "TUS", "WAL", "YOR"])},
    **{0x5500 | (48 + i): p for i, p in enumerate(
        ["ANK", "BEL", "BER", "BRE", "CON", "DEN", "EDI", "GRE", "HOL", "KIE", "LON", "LVP",
         "MAR", "NAP", "NWY", "POR", "ROM", "RUM", "SEV", "SMY", "SWE", "TRI", "TUN", "VEN"])},
    **{0x5700 | (72 + i): p for i, p in enumerate(["BUL", "SPA", "STP"])},
}

_TEXT = 0x4B                     # an ASCII character token: 0x4B, then the character
_NUMBER = re.compile(r"-?[0-9]+")
_MAP_CATEGORIES = {0x41} | set(range(0x50, 0x58))


@dataclass(frozen=True)
class TokenTable:
    """The tokens of one connection: the fixed ones and the server's powers and provinces."""

    by_code: dict[int, str]
    by_name: dict[str, int]

    @classmethod
    def from_rm(cls, body: bytes) -> "TokenTable":
        """The table an RM's body gives (the standard map's when it is empty)."""
        if len(body) % 6:
            raise DaideProtocolError(f"RM of {len(body)} bytes: expected six bytes a token "
                                     "(two for the token, three letters, a NUL)",
                                     found=f"{len(body)} bytes", expected="a multiple of 6")
        names: dict[int, str] = {}
        for i in range(0, len(body), 6):
            code = body[i] << 8 | body[i + 1]
            raw = body[i + 2:i + 6]
            text = raw[:3].decode("ascii", "replace")
            if raw[3] != 0 or not (text.isascii() and text.isalnum()) or len(text) != 3:
                raise DaideProtocolError(f"RM entry {i // 6 + 1}: expected three letters and a NUL, "
                                         f"found {raw!r}", found=repr(raw),
                                         expected="three letters and a NUL")
            if body[i] not in _MAP_CATEGORIES:
                raise DaideProtocolError(f"RM entry {i // 6 + 1} ({text}): token 0x{code:04X} is not "
                                         "a power (0x41..) or a province (0x50..0x57)",
                                         found=f"0x{code:04X}", expected="a power or province token")
            names[code] = text.upper()
        if not names:
            names = dict(STANDARD_MAP_TOKENS)
        by_code = {**BASE_TOKENS, **names}
        by_name: dict[str, int] = {}
        for code, name in by_code.items():
            if name in by_name:
                raise DaideProtocolError(f"RM names the token {name} twice", found=name,
                                         expected="each name once")
            by_name[name] = code
        return cls(by_code, by_name)

    def rm_body(self) -> bytes:
        """The RM body listing this table's powers and provinces (what a server sends)."""
        out = bytearray()
        for code, name in sorted(self.by_code.items()):
            if code >> 8 in _MAP_CATEGORIES:
                out += bytes([code >> 8, code & 0xFF]) + name.encode("ascii") + b"\0"
        return bytes(out)

    def is_power(self, name: str) -> bool:
        return self.by_name.get(name, 0) >> 8 == 0x41

    def is_province(self, name: str) -> bool:
        return 0x50 <= self.by_name.get(name, 0) >> 8 <= 0x57

    def decode(self, body: bytes) -> str:
        """A DM's body as text: ``NOW (SPR 1901) (AUS AMY BUD) ...``; a run of ASCII
        tokens is one ``'quoted text'``."""
        if len(body) % 2:
            raise DaideProtocolError(f"DM of {len(body)} bytes: tokens are two bytes each",
                                     found=f"{len(body)} bytes", expected="an even length")
        words: list[str] = []
        text: list[str] = []
        for i in range(0, len(body), 2):
            hi, lo = body[i], body[i + 1]
            if hi == _TEXT:
                text.append(chr(lo))
                continue
            if text:
                words.append("'" + "".join(text) + "'")
                text = []
            if hi < 0x40:                                # a 14-bit two's-complement number
                value = (hi << 8 | lo) & 0x3FFF
                words.append(str(value - 0x4000 if value & 0x2000 else value))
                continue
            name = self.by_code.get(hi << 8 | lo)
            if name is None:
                raise DaideProtocolError(f"unknown token 0x{hi:02X}{lo:02X} at byte {i} of a DM",
                                         found=f"0x{hi:02X}{lo:02X}", expected="a DAIDE token")
            words.append(name)
        if text:
            words.append("'" + "".join(text) + "'")
        return canonical_text(words)

    def encode(self, text: str) -> bytes:
        """Text (as `decode` writes it) as a DM's body; `DaideError` for a word that is
        no token."""
        out = bytearray()
        for word in split_words(text):
            if word.startswith("'"):
                for ch in word[1:-1]:
                    if ord(ch) > 0xFF:
                        raise DaideError(f"{ch!r} is not an ASCII character (in {word})")
                    out += bytes([_TEXT, ord(ch)])
            elif _NUMBER.fullmatch(word):
                # ASCII digits (``²`` and ``--5`` are no numbers), counted before int()
                # reads them (4,301 would be a ValueError)
                if len(word.lstrip("-")) > 5 or not -8192 <= int(word) <= 8191:
                    shown = word if len(word) <= 12 else f"{word[:12]}… ({len(word)} characters)"
                    raise DaideError(f"{shown} is out of DAIDE's range (-8192..8191)")
                value = int(word)
                out += (value & 0x3FFF).to_bytes(2, "big")
            else:
                code = self.by_name.get(word.upper())
                if code is None:
                    raise DaideError(f"{word!r} is not a DAIDE token")
                out += code.to_bytes(2, "big")
        return bytes(out)


def split_words(text: str) -> list[str]:
    """DAIDE text cut into words: brackets, ``'text'``, and runs of other characters."""
    words: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
        elif ch in "()":
            words.append(ch)
            i += 1
        elif ch == "'":
            j = text.find("'", i + 1)
            if j < 0:
                raise DaideError(f"unterminated text in {text!r}")
            words.append(text[i:j + 1])
            i = j + 1
        else:
            j = i
            while j < n and not text[j].isspace() and text[j] not in "()'":
                j += 1
            words.append(text[i:j])
            i = j
    return words


@dataclass(frozen=True)
class Message:
    """One message off the wire: its type (IM..EM) and body."""

    type: int
    body: bytes

    @property
    def name(self) -> str:
        return MESSAGE_NAMES.get(self.type, f"type {self.type}")


def frame(kind: int, body: bytes = b"") -> bytes:
    """A message's bytes: type, pad, big-endian length, body."""
    if len(body) > 0xFFFF:
        raise DaideError(f"a message of {len(body)} bytes is longer than DAIDE allows (65535)")
    return struct.pack(">BBH", kind, 0, len(body)) + body


def initial_message() -> bytes:
    """The IM: protocol version 1, magic number 0xDA10."""
    return frame(IM, struct.pack(">HH", VERSION, MAGIC))


def check_message(msg: Message) -> None:
    """`DaideProtocolError` for a message a server may not send."""
    if msg.type not in MESSAGE_NAMES:
        raise DaideProtocolError(f"unknown DAIDE message type {msg.type} from the server",
                                 found=str(msg.type), expected="RM, DM, FM or EM (1-4)")
    if msg.type == IM:
        raise DaideProtocolError("the server sent an IM (only a client sends one)",
                                 found="IM", expected="RM, DM, FM or EM")
    if msg.type == DM and len(msg.body) % 2:
        raise DaideProtocolError(f"DM of {len(msg.body)} bytes: tokens are two bytes each",
                                 found=f"{len(msg.body)} bytes", expected="an even length")
    if msg.type == EM and len(msg.body) != 2:
        raise DaideProtocolError(f"EM of {len(msg.body)} bytes: expected a two-byte error code",
                                 found=f"{len(msg.body)} bytes", expected="2 bytes")
    if msg.type == FM and msg.body:
        raise DaideProtocolError(f"FM of {len(msg.body)} bytes: expected an empty body",
                                 found=f"{len(msg.body)} bytes", expected="0 bytes")


def parse_frames(data: bytes) -> tuple[list[Message], bytes]:
    """The whole messages at the start of ``data`` (each checked), and the bytes left."""
    out: list[Message] = []
    while len(data) >= 4:
        kind, _, length = struct.unpack(">BBH", data[:4])
        if kind not in MESSAGE_NAMES:          # before waiting for a body that may never come
            check_message(Message(kind, b""))
        if len(data) < 4 + length:
            break
        msg = Message(kind, bytes(data[4:4 + length]))
        check_message(msg)
        out.append(msg)
        data = data[4 + length:]
    return out, data


class Connection:
    """A DAIDE connection over TCP: messages out, messages in, with timeouts.

    ``idle_timeout`` is how long `receive` waits for the next message (the others may
    be thinking: minutes); once a message has begun, the rest of it must come within
    ``body_timeout`` seconds, as ``clock`` counts them; the socket is asked again every
    ``poll_interval`` seconds.
    """

    def __init__(self, sock: socket.socket, *, idle_timeout: float = 600.0,
                 body_timeout: float = 30.0, poll_interval: float = 5.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.sock = sock
        self.poll_interval = poll_interval
        self.idle_timeout = idle_timeout
        self.body_timeout = body_timeout
        self.clock = clock
        self._buffer = b""
        self._pending: list[Message] = []
        self.closed = False

    @classmethod
    def open(cls, host: str, port: int, *, connect_timeout: float = 10.0,
             **kw) -> "Connection":
        """Connect to ``host:port`` (`DaideConnectionError` if it cannot be done)."""
        try:
            sock = socket.create_connection((host, port), timeout=connect_timeout)
        except OSError as e:
            raise DaideConnectionError(f"cannot connect to {host}:{port}: "
                                       f"{e.strerror or e}") from None
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return cls(sock, **kw)

    def send(self, kind: int, body: bytes = b"") -> None:
        if self.closed:
            raise DaideConnectionError("the connection is closed")
        try:
            self.sock.settimeout(self.body_timeout)
            self.sock.sendall(frame(kind, body))
        except OSError as e:
            raise DaideConnectionError(f"the connection was lost while sending: "
                                       f"{e.strerror or e}") from None

    def receive(self) -> Message:
        """The next message; `DaideConnectionError` when the server is gone or silent."""
        started = self.clock()
        while not self._pending:
            waited = self.clock() - started
            limit = self.idle_timeout if not self._buffer else self.body_timeout
            left = limit - waited
            if left <= 0:
                what = "the rest of a message" if self._buffer else "a message"
                raise DaideConnectionError(f"no answer from the server for {limit:g} s "
                                           f"(waiting for {what})")
            try:
                self.sock.settimeout(min(left, self.poll_interval))
                chunk = self.sock.recv(65536)
            except socket.timeout:
                continue
            except OSError as e:
                raise DaideConnectionError(f"the connection was lost: {e.strerror or e}") from None
            if not chunk:
                self.closed = True
                if self._buffer:
                    raise DaideConnectionError(f"the server closed the connection in the middle "
                                               f"of a message ({len(self._buffer)} bytes of it)")
                raise DaideConnectionError("the server closed the connection")
            messages, self._buffer = parse_frames(self._buffer + chunk)
            self._pending.extend(messages)
            if messages:
                started = self.clock()
        return self._pending.pop(0)

    def poll(self) -> list[Message]:
        """The messages that have arrived and not been received yet, without waiting
        (they stay to be received, in order)."""
        if not self.closed:
            chunks = b""
            timeout = self.sock.gettimeout()
            try:
                self.sock.settimeout(0.0)        # a socket with a timeout waits before recv
                while True:
                    chunk = self.sock.recv(65536)
                    if not chunk:
                        break
                    chunks += chunk
            except (BlockingIOError, InterruptedError):
                pass
            except OSError:
                pass                 # a lost connection: `receive` will say so
            finally:
                try:
                    self.sock.settimeout(timeout)
                except OSError:
                    pass
            if chunks:
                messages, self._buffer = parse_frames(self._buffer + chunks)
                self._pending.extend(messages)
        return list(self._pending)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            try:
                self.sock.close()
            except OSError:
                pass


_NUMBER = re.compile(r"-?[0-9]+")


def _is_number(word: str) -> bool:
    """Whether a word is a DAIDE number: ASCII digits, one sign at most (``²`` and
    ``--5`` are not: `int` would refuse them)."""
    return _NUMBER.fullmatch(word) is not None


@dataclass
class Variant:
    """The game's variant options, from HLO."""

    level: int = 0
    move_limit: int | None = None
    retreat_limit: int | None = None
    build_limit: int | None = None
    any_orders: bool = False
    options: list[str] = field(default_factory=list)

    @classmethod
    def from_tree(cls, t: list) -> "Variant":
        v = cls()
        for opt in t:
            if isinstance(opt, str):
                opt = [opt]
            words = [w for w in opt if isinstance(w, str)]
            if not words:
                continue
            v.options.append(" ".join(words))
            key, args = words[0], words[1:]
            number = int(args[0]) if args and _is_number(args[0]) and len(args[0]) < 8 else None
            if key == "LVL" and number is not None:
                v.level = number
            elif key == "MTL":
                v.move_limit = number
            elif key == "RTL":
                v.retreat_limit = number
            elif key == "BTL":
                v.build_limit = number
            elif key == "AOA":
                v.any_orders = True
        return v

    def limit(self, kind: str) -> int | None:
        """The time limit of a turn of this kind (seconds), if the server set one."""
        return {"movement": self.move_limit, "retreat": self.retreat_limit,
                "adjustment": self.build_limit}[kind]


#: (season, phase kind) -> the DAIDE season token
_SEASON_TOKEN = {value: token for token, value in SEASONS.items()}


def daide_turn(position: Position) -> str:
    """The DAIDE turn of a position: ``SPR 1901``."""
    return f"{_SEASON_TOKEN[(position.phase.season, position.phase.kind)]} {position.phase.year}"
