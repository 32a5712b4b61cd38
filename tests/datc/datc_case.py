"""A DATC case as the converter holds it (`Case`, `Order`), and the map's answers it needs.

Shared by the readers (`datc_read`), the fixes (`datc_fixes`) and the writer
(`datc_write`) of ``convert_datc.py``: the standard map, canonical locations for the
data files' spellings, where a move ends and whether it goes by convoy, and the 2023
civil-disorder rule.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from dipsolve.core.map import standard_map
from dipsolve.core.position import Unit

MAP = standard_map()
TEXT_FILE = "datc_v2.4_06.txt"
JSON_FILE = "datc.json"


@dataclass
class Order:
    power: str
    typ: str                 # H M SH SM C B D R
    kind: str = ""           # unit kind ("A"/"F"); "" for WAIVE
    loc: str = ""
    skind: str = ""          # supported / convoyed unit
    sloc: str = ""
    target: str = ""
    via: bool = False
    note: str = ""           # trailing comment

    def text(self) -> str:
        t = self.typ
        if t == "H":
            s = f"{self.kind} {self.loc} H"
        elif t == "M":
            s = f"{self.kind} {self.loc} - {self.target}" + (" VIA" if self.via else "")
        elif t == "SH":
            s = f"{self.kind} {self.loc} S {self.skind} {self.sloc}"
        elif t == "SM":
            s = f"{self.kind} {self.loc} S {self.skind} {self.sloc} - {self.target}"
        elif t == "C":
            s = f"{self.kind} {self.loc} C {self.skind} {self.sloc} - {self.target}"
        elif t == "R":
            s = f"{self.kind} {self.loc} R {self.target}"
        elif t == "B":
            s = f"{self.kind} {self.loc} B"
        elif t == "D":
            s = f"{self.kind} {self.loc} D"
        else:
            raise ValueError(t)
        return f"{self.power}: {s}"


@dataclass
class Case:
    cid: str                  # "6.A.1"
    suffix: str = ""          # "" or ".old", ".mod", ...
    source: str = ""
    title: str = ""
    phase: str = "Spring 1901 Movement"
    units: list[Unit] = field(default_factory=list)
    centers: dict[str, str] | None = None          # province -> power (adjustment cases)
    dislodged: list[tuple[Unit, str | None]] = field(default_factory=list)
    standoffs: list[str] = field(default_factory=list)
    orders: list[Order] = field(default_factory=list)
    exp_units: list[Unit] = field(default_factory=list)
    exp_dislodged: list[Unit] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)       # header comments
    results: list[str] = field(default_factory=list)     # preceding movement phase
    exp_notes: list[str] = field(default_factory=list)   # comments in the expected half

    @property
    def file_id(self) -> str:
        sec, num = self.cid.split(".")[1:]
        return f"6.{sec}.{int(num):02d}{self.suffix}"

    @property
    def key(self) -> str:
        return self.cid + self.suffix


def loc(text: str) -> str:
    """Canonical location for a data-file spelling ("nat", "spa/nc", "stp(nc)")."""
    t = text.strip().lower()
    if t == "nor":          # datc.json's typo for Norway (in the ignored 6.H.2 only)
        t = "nwy"
    out = MAP.location(t)
    if out is None:
        raise ValueError(f"unknown location {text!r}")
    return out


def prov(location: str) -> str:
    return location.split("/")[0]


def kind_of(text: str) -> str:
    k = text.strip().upper()
    if k not in ("A", "F"):
        raise ValueError(f"unit kind {text!r}")
    return k


def convoyed(o: Order) -> bool:
    """Whether an army's move goes by convoy in these cases: explicit, or not adjacent."""
    return o.kind == "A" and (o.via or not MAP.can_move("A", o.loc, prov(o.target)))


def arrival(o: Order) -> str | None:
    """Where a successful move ends: an army drops a coast; a fleet ordered to a bicoastal
    province without coast goes to the only coast it can reach (None: no single one)."""
    if o.kind == "A":
        return prov(o.target)
    if o.target in MAP.fleet_moves:
        return o.target
    coasts = [c for c in MAP.fleet_locations[o.target] if MAP.can_move("F", o.loc, c)]
    return coasts[0] if len(coasts) == 1 else None


def direct(o: Order) -> bool:
    """Whether a move can be made without a convoy (so a failure can be a bounce)."""
    dest = arrival(o)
    return dest is not None and not convoyed(o) and MAP.can_move(o.kind, o.loc, dest)


def civil_disorder(units: list[Unit], centers: dict[str, str], power: str, n: int) -> list[Unit]:
    """The n units the 2023 rule removes: farthest from the nearest owned center (any unit
    over land and sea), fleets before armies, then alphabetical by province name."""
    owned = [p for p, o in centers.items() if o == power]
    dist = {p: 0 for p in owned}
    todo = deque(owned)
    while todo:
        p = todo.popleft()
        for q in sorted(MAP.neighbours[p]):
            if q not in dist:
                dist[q] = dist[p] + 1
                todo.append(q)
    mine = [u for u in units if u.power == power]
    mine.sort(key=lambda u: (-dist.get(prov(u.location), 99), u.kind != "F",
                             MAP.provinces[prov(u.location)].name))
    return mine[:n]
