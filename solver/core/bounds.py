"""The bounds on what dipsolve reads and draws, stated once (`LIMITS`), and the checks readers make.

Each bound is a `Bound` in `LIMITS`, by name; a reader that meets input past one raises
`DipsolveLimitError` (a `DipsolveSyntaxError`) naming the bound and, when it knows it,
the place (``FILE:LINE:COL``)::

    >>> LIMITS["max_year"].value
    9999
    >>> parse_int("1" * 5000, "year", "max_year")
    Traceback (most recent call last):
    ...
    dipsolve.core.errors.DipsolveLimitError: year 1111…1111 (5000 digits): past the limit max_year (a year is 1 to 9999)

The checks never recurse and never convert a number before counting its digits, so input
past a bound costs no more than reading it:

- `parse_int` / `check_int`: an integer in a bound's range (digits counted first);
- `check_float`: the one validator of every float dipsolve takes from a user (province
  values, time limits, picture scales, every float flag): finite and in its range (no
  bound takes infinity to mean "no limit": every solver call has a time limit);
- `check_nesting`: bracket depth of a press message, found by counting, not descending;
- `loads_json`: JSON whose depth is counted before `json.loads` descends, whose integers
  are digit-counted, and without ``NaN``/``Infinity`` (not JSON: a `DipsolveSyntaxError`);
- `read_text`: a text file no larger than ``max_file_bytes``, UTF-8 with or without a
  byte-order mark, any line ends read as LF; gzip data (known by its magic bytes, as
  archives ship records: ``.json.gz``) decompressed within the same bound (`gunzip`);
- `check_picture`: a picture's size in pixels, before anything is drawn.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
import zlib
from itertools import accumulate
from dataclasses import dataclass
from typing import Any

from .errors import DipsolveFileError, DipsolveLimitError, DipsolveSyntaxError

__all__ = ["Bound", "LIMITS", "DipsolveLimitError", "limit_error", "parse_int", "check_digits",
           "check_int", "check_float", "check_nesting", "json_decoder", "loads_json", "read_text", "read_bytes", "gunzip",
           "check_picture", "help_range"]


@dataclass(frozen=True)
class Bound:
    """One bound: its ``name`` (as errors and docs say it), the largest ``value`` (and
    the least, ``low``, when there is one), and ``says``: the bound in words, with
    ``{range}`` for the range (``a year is {range}``)."""

    name: str
    value: float
    says: str
    low: float | None = None
    low_open: bool = False          # low itself excluded (a time limit is > 0, not >= 0)

    def range_text(self) -> str:
        """``1 to 9999``, ``at most 64``, ``more than 0, at most 10,000,000``."""
        high = _num(self.value)
        if self.low is None:
            return f"at most {high}"
        if self.low_open:
            return f"more than {_num(self.low)}, at most {high}"
        return f"{_num(self.low)} to {high}"

    def sentence(self) -> str:
        """The bound in words: ``a year is 1 to 9999``."""
        return self.says.format(range=self.range_text())


def _num(x: float) -> str:
    """A bound as people read it: ``9999``, ``1,048,576``, ``0.5``."""
    if isinstance(x, float) and x.is_integer():
        x = int(x)
    return f"{x:,}" if isinstance(x, int) and abs(x) >= 10_000 else f"{x:g}" \
        if isinstance(x, float) else str(x)


_BOUNDS = [
    Bound("max_year", 9999, "a year is {range}", low=1),
    Bound("max_units", 150, "a position has {range} units: one in each of the 75 provinces "
                            "and one dislodged from it"),
    Bound("max_nesting", 64, "brackets nest {range} deep in press and in JSON"),
    Bound("max_press_length", 65_535, "a press message has {range} characters, as a DAIDE "
                                      "message has at most 65,535 bytes"),
    Bound("press_levels", 8000, "a press level is {range}: DAIDE's 0 to 130, daidepp's 140 "
                                "to 160, 8000 free text", low=0),
    Bound("max_file_bytes", 1 << 24, "a file read has {range} bytes: a saved game to 1910 "
                                     "is about 70 kB, a position file 1 kB"),
    Bound("max_pixels", 40_000_000, "a picture has {range} pixels: the board is 1260 x 900 "
                                    "at scale 1, so a scale of at most 5.9"),
    Bound("max_page_phases", 1000, "a game page draws {range} phases: a game played to 1935 has "
                                   "about 140, and each phase adds about 40-70 kB"),
    Bound("max_digits", 20, "an integer has {range} digits"),
    Bound("max_order_length", 1000, "an order has {range} characters (a line may hold several, "
                                    "separated by ',' or ';'): the longest order in words is "
                                    "about 100"),
    Bound("max_quote", 120, "an error repeats {range} characters of the input it quotes "
                            "(shortened around the place, escaped)"),
    Bound("max_value", 1e9, "a province value is {range}", low=-1e9),
    Bound("max_seconds", 1e7, "a time limit is {range} seconds", low=0, low_open=True),
    Bound("max_workers", 64, "a solver has {range} worker threads", low=1),
    Bound("max_nodes", 10**12, "a node limit is {range} nodes of work", low=1),
    Bound("max_jobs", 64, "{range} processes play games at once", low=1),
    Bound("max_games", 100_000, "a run plays {range} games", low=1),
    Bound("max_samples", 10_000, "a sampled search makes {range} opponent draws", low=1),
    Bound("max_beam", 1_000_000, "a beam keeps {range} entries", low=1),
    Bound("max_seed", 2**31 - 1, "a random seed is {range}", low=0),
    Bound("max_locations", 1000, "a map has {range} locations (provinces and coasts): the "
                                 "diplomacy package's largest, known_world_901, has 281"),
    Bound("max_powers", 64, "a map has {range} powers: the diplomacy package's maps have "
                            "up to 17"),
]

#: every bound, by name: the one statement of what dipsolve reads and draws
LIMITS: dict[str, Bound] = {b.name: b for b in _BOUNDS}


def help_range(name: str) -> str:
    """The range of a bound as ``--help`` says it: ``1 to 9999``."""
    return LIMITS[name].range_text()


def limit_error(name: str, found: str, *, filename: str | None = None, line: int | None = None,
                column: int | None = None, source_line: str | None = None,
                width: int = 1) -> DipsolveLimitError:
    """The error for ``found`` (what was read, in words) past the bound ``name``."""
    b = LIMITS[name]
    return DipsolveLimitError(f"{found}: past the limit {b.name} ({b.sentence()})",
                              limit=b.name, filename=filename, line=line, column=column,
                              source_line=source_line, width=width, found=found,
                              expected=b.range_text())


def _short(digits: str) -> str:
    return digits if len(digits) <= 12 else f"{digits[:4]}…{digits[-4:]} ({len(digits)} digits)"


def parse_int(text: str, what: str, name: str, **where: Any) -> int:
    """The integer ``text`` (optionally signed), its digits counted before it is
    converted, checked against the bound ``name``; `DipsolveLimitError` past it, ValueError
    (from `int`) when it is not an integer at all."""
    t = text.strip()
    digits = t.lstrip("+-").replace("_", "")
    if digits.isdigit() and len(digits) > LIMITS["max_digits"].value:
        raise limit_error(name, f"{what} {_short(t)}", **where)
    return check_int(int(t), what, name, **where)


def check_digits(text: str, what: str = "a number", **where: Any) -> str:
    """``text`` if its digits are no more than ``max_digits`` (so that `int` may convert
    it), else `DipsolveLimitError`."""
    t = text.strip()
    if len(t.lstrip("+-")) > LIMITS["max_digits"].value:
        raise limit_error("max_digits", f"{what} {_short(t)}", **where)
    return text


def check_int(value: int, what: str, name: str, **where: Any) -> int:
    """``value`` if it is within the bound ``name`` (``low`` to ``value``), else
    `DipsolveLimitError`."""
    b = LIMITS[name]
    if value > b.value or (b.low is not None and value < b.low):
        raise limit_error(name, f"{what} {_short(str(value))}", **where)
    return value


def check_float(value: float, what: str, name: str, *, shown: str | None = None,
                positive_only: bool = False, **where: Any) -> float:
    """The one validator of every float a user gives dipsolve: ``value`` if it is a
    finite number within the bound ``name`` (no bound takes ``inf`` for "no limit": every
    solver call has a time limit), else `DipsolveLimitError` saying what is wrong with it
    (``shown``: the number as the user wrote it, ``1e400`` rather than ``inf``).
    ``positive_only``: the bound's range is checked by the caller (a picture's scale, by
    the pixels it makes); here only that ``value`` is a finite number above 0."""
    b = LIMITS[name]
    if positive_only:
        b = Bound(b.name, math.inf, b.says, low=0, low_open=True)
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise limit_error(name, f"{what} {value!r} is not a number", **where)
    text = shown if shown is not None else f"{value:g}"
    if math.isnan(value):
        raise limit_error(name, f"{what} {text} is not a number", **where)
    if math.isinf(value):
        raise limit_error(name, f"{what} {text} is not finite", **where)
    low_bad = b.low is not None and (value <= b.low if b.low_open else value < b.low)
    if low_bad and positive_only:
        raise limit_error(name, f"{what} {text} is not positive", **where)
    if value > b.value or low_bad:
        raise limit_error(name, f"{what} {text}", **where)
    return float(value)


def _place(text: str, offset: int) -> tuple[int, int, str]:
    """Line, column (1-based) and the text of the line at ``offset``."""
    line = text.count("\n", 0, offset) + 1
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    return line, offset - start + 1, text[start:end if end >= 0 else len(text)]


def check_nesting(text: str, filename: str | None = None, *, what: str = "brackets nested",
                  line_offset: int = 0) -> None:
    """Raise `DipsolveLimitError` at the first ``(`` of ``text`` deeper than
    ``max_nesting``: counted, never descended (a bracket inside free text counts too)."""
    limit = LIMITS["max_nesting"].value
    depth = 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
            if depth > limit:
                line, col, src = _place(text, i)
                raise limit_error("max_nesting", f"{what} {depth} deep", filename=filename,
                                  line=line + line_offset, column=col, source_line=src)
        elif ch == ")":
            depth -= 1


#: a JSON string (an unterminated one runs to the end, as `_json_depth` reads it)
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?', re.S)
#: the bytes `_json_depth` deletes: all but quotes, backslashes and brackets
_NOT_STRUCTURE = bytes(c for c in range(256) if c not in b'"\\[]{}')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_BRACKET_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


def _json_depth(text: str, filename: str | None) -> None:
    """`check_nesting` for JSON: brackets inside strings (with their escapes) skipped.

    The deepest point is found in C: the text's quotes, backslashes and brackets kept
    (`bytes.translate`); with no backslash, every other piece between quotes is a
    string's inside, else strings are cut out of the text by a regular expression; the
    brackets' running sum by `itertools.accumulate`.  Only a text past the bound is
    walked character by character, to place the error."""
    limit = LIMITS["max_nesting"].value
    kept = text.encode("utf-8", "surrogatepass").translate(None, _NOT_STRUCTURE)
    if b"\\" not in kept:
        brackets = b"".join(kept.split(b'"')[0::2])
    else:
        brackets = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text)).encode()
    if not brackets or max(accumulate(map(_BRACKET_STEP.__getitem__, brackets))) <= limit:
        return
    depth = 0
    in_string = escaped = False
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                line, col, src = _place(text, i)
                raise limit_error("max_nesting", f"JSON nested {depth} deep", filename=filename,
                                  line=line, column=col, source_line=src)
        elif ch in "]}":
            depth -= 1


def loads_json(text: str, filename: str | None = None) -> Any:
    """``json.loads(text)`` within the bounds: nesting counted first, integers
    digit-counted (``max_digits``), ``NaN`` and ``Infinity`` refused.  A document that is
    not JSON raises `json.JSONDecodeError` as `json.loads` does."""
    return json_decoder(text, filename).decode(text)


def json_decoder(text: str, filename: str | None = None) -> json.JSONDecoder:
    """A `json.JSONDecoder` for ``text`` (one document, or several read one after another
    with ``raw_decode``) within the bounds, as `loads_json`: the nesting of all of
    ``text`` is counted here, before the decoder descends."""
    _json_depth(text, filename)

    def integer(s: str) -> int:
        digits = s.lstrip("-")
        if len(digits) > LIMITS["max_digits"].value:
            i = text.find(s)
            line, col, src = _place(text, max(i, 0))
            raise limit_error("max_digits", f"a number {_short(s)}", filename=filename,
                              line=line, column=col, source_line=src, width=len(s))
        return int(s)

    def constant(s: str) -> Any:
        i = text.find(s)
        line, col, src = _place(text, max(i, 0))
        raise DipsolveSyntaxError(f"{s} is not JSON, expected a finite number",
                                  filename=filename, line=line, column=col, source_line=src,
                                  width=len(s), found=s, expected="a finite number")

    return json.JSONDecoder(parse_int=integer, parse_constant=constant)


def read_bytes(path: str | os.PathLike[str]) -> bytes:
    """The bytes of the file at ``path``, no more than ``max_file_bytes`` of them (else
    `DipsolveLimitError`: a file whose size says so before any of it is read, a pipe
    once the bound is passed); a device (``/dev/zero``, a terminal) is refused before
    reading (`DipsolveSyntaxError`); OSError as `open` raises it."""
    limit = int(LIMITS["max_file_bytes"].value)
    name = os.fspath(path)
    st = os.stat(path)
    if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode):
        raise DipsolveSyntaxError("a device, not a file: not read", filename=name,
                                  found="a device", expected="a file or a pipe")
    if stat.S_ISREG(st.st_mode) and st.st_size > limit:
        raise limit_error("max_file_bytes", f"a file of {st.st_size:,} bytes", filename=name)
    with open(path, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise limit_error("max_file_bytes", f"a file of more than {limit:,} bytes",
                          filename=os.fspath(path))
    return gunzip(data, name)


#: how gzip data starts (RFC 1952): a file is read as gzip by these bytes, not by its name
GZIP_MAGIC = b"\x1f\x8b"


def gunzip(data: bytes, name: str) -> bytes:
    """``data`` decompressed when it is gzip (it starts with `GZIP_MAGIC`; every member
    of a multi-member file, as ``gzip`` and ``cat a.gz b.gz`` make them), else ``data``
    itself.  The decompressed size is held to ``max_file_bytes`` as it grows (a gzip
    bomb costs no more than the bound: `DipsolveLimitError`); corrupt or cut gzip data
    is a `DipsolveSyntaxError` naming the file."""
    if not data.startswith(GZIP_MAGIC):
        return data
    limit = int(LIMITS["max_file_bytes"].value)
    out = bytearray()
    rest = data
    while rest.startswith(GZIP_MAGIC):
        member = zlib.decompressobj(16 + zlib.MAX_WBITS)        # a gzip header and trailer
        try:
            out += member.decompress(rest, limit + 1 - len(out))
        except zlib.error as e:
            raise _bad_gzip(name, str(e).removeprefix("Error -3 while decompressing data: ")) from None
        if len(out) > limit:
            raise limit_error("max_file_bytes", f"gzip data of more than {limit:,} bytes decompressed",
                              filename=name)
        if not member.eof:
            raise _bad_gzip(name, "it ends too early (truncated?)")
        rest = member.unused_data
    if rest.strip(b"\0"):                   # zeros after the last member are padding
        raise _bad_gzip(name, f"{len(rest):,} bytes after the gzip data are not gzip")
    return bytes(out)


def _bad_gzip(name: str, why: str) -> DipsolveSyntaxError:
    return DipsolveSyntaxError(f"cannot read the gzip data: {why}", filename=name,
                               found="corrupt gzip data", expected="a whole gzip file")


def decode_text(data: bytes) -> str:
    """UTF-8 with or without a byte-order mark, any line ends (LF, CRLF, CR) as LF;
    `UnicodeDecodeError` when it is not UTF-8."""
    return data.decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")


def read_text(path: str | os.PathLike[str]) -> str:
    """A text file within ``max_file_bytes`` (`read_bytes`, `decode_text`)."""
    return decode_text(read_bytes(path))


def read_input(path: str | os.PathLike[str]) -> str:
    """`read_text` for a public function: a file that cannot be read is a
    `DipsolveFileError` with the system's reason, one that is not UTF-8 a
    `DipsolveSyntaxError` saying where."""
    name = os.fspath(path) if isinstance(path, (str, os.PathLike)) else repr(path)
    try:
        return read_text(path)
    except UnicodeDecodeError as e:
        raise DipsolveSyntaxError(f"not a text file: byte {e.start} is not UTF-8", filename=name,
                                  found="binary data", expected="UTF-8 text") from None
    except OSError as e:
        raise DipsolveFileError(f"cannot read: {e.strerror or e}", filename=name) from None


def check_picture(width: float, height: float, scale: float, what: str = "scale") -> tuple[int, int]:
    """The size in pixels of a ``width`` x ``height`` picture at ``scale``, checked
    before anything is drawn: ``scale`` finite and positive, at least one pixel each
    way, at most ``max_pixels`` in all; else `DipsolveLimitError` (``what``: how the
    scale is named, ``--scale``)."""
    check_float(scale, what, "max_pixels", positive_only=True)
    if width * height * scale * scale > LIMITS["max_pixels"].value:
        size = (f"{width * scale:,.0f} x {height * scale:,.0f} pixels" if scale < 1e6
                else "more than 10^12 pixels")
        raise limit_error("max_pixels", f"{what} {scale:g} makes a picture of {size}")
    w, h = round(width * scale), round(height * scale)
    if w < 1 or h < 1:
        raise limit_error("max_pixels", f"{what} {scale:g} makes a picture of {w} x {h} pixels, "
                                        f"none to draw")
    return w, h
