"""Write a shipped variant's board, ``solver/data/NAME.map``, once, in dipsolve's declared
format (``data/standard.map``'s, with ``name=``).

Run by a developer, never at run time or in tests::

    python tests/tools/make_variant_map.py ancmed "Ancient Mediterranean (Don Hessong)"

As ``make_map.py`` did for the standard board: the facts of the board (each province's
terrain, name, supply center and home, and which locations an army and a fleet move
between) are read through the ``diplomacy`` package's engine (a dev dependency: its
``Map.abuts`` for every pair of locations) and written as dipsolve's own table; no file
of the package is copied. The variant's powers, start and victory are written by hand in
``data/NAME.variant`` from the variant's published rules; ``tests/test_shipped_variants.py``
checks both against the package's engine.
"""

from __future__ import annotations

import sys
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "solver" / "data"
TERRAIN = {"WATER": "sea", "COAST": "coast", "PORT": "coast", "LAND": "land"}


def main(name: str, title: str) -> None:
    from diplomacy.engine.map import Map as PeerMap

    peer = PeerMap(name)
    provinces = sorted({loc.upper()[:3] for loc in peer.locs if peer.area_type(loc) != "SHUT"})
    coasts = {p: sorted(loc.upper()[4:] for loc in peer.locs if loc.upper().startswith(p + "/"))
              for p in provinces}
    home = {c.upper(): power.title() for power, cs in peer.homes.items() for c in cs}
    centers = {c.upper() for c in peer.scs}
    names = {abbr.upper(): full.title() for full, abbr in peer.loc_name.items() if "/" not in abbr}
    out = [f"# {title}: the board, declared data owned by dipsolve (the variant: {name}.variant).",
           f"# Written once by tests/tools/make_variant_map.py {name}; checked by",
           "# tests/test_shipped_variants.py. The format is data/standard.map's, with name=.", ""]
    for p in provinces:
        bits = ["province", p, TERRAIN[peer.area_type(p)]]
        bits += ["center"] if p in centers else []
        bits += [f"home={home[p]}"] if p in home else []
        bits += ["coasts=" + ",".join(coasts[p])] if coasts[p] else []
        bits += ["name=" + names.get(p, p).replace(" ", "_")]
        out.append(" ".join(bits))
    out.append("")
    for p in provinces:
        if TERRAIN[peer.area_type(p)] != "sea":
            out.append(f"army {p}: " + " ".join(q for q in provinces if q != p and peer.abuts("A", p, "-", q)))
    out.append("")
    fleet_at = [loc for p in provinces if TERRAIN[peer.area_type(p)] != "land"
                for loc in ([f"{p}/{c}" for c in coasts[p]] or [p])]
    for loc in fleet_at:
        out.append(f"fleet {loc}: " + " ".join(d for d in fleet_at if d[:3] != loc[:3]
                                                and peer.abuts("F", loc, "-", d)))
    (DATA / f"{name}.map").write_text("\n".join(out) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else sys.argv[1])
