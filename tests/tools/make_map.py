"""Write ``solver/data/standard.map`` and ``solver/data/provinces.tsv`` once.

Run by a developer, never at run time or in tests::

    python tests/tools/make_map.py ../shared/provinces.tsv

Terrain, centers, homes, coasts and names come from the shared province table;
the adjacency is read from the ``diplomacy`` package's standard map (a dev
dependency).  The output is plain declared data that the project owns;
``tests/test_map.py`` checks it against both sources again.
"""

from __future__ import annotations

import csv
import shutil
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "solver" / "data"


def main(tsv_path: str) -> None:
    from diplomacy.engine.map import Map as PeerMap

    peer = PeerMap("standard")
    rows = list(csv.DictReader(open(tsv_path, encoding="utf-8"), delimiter="\t"))
    shutil.copyfile(tsv_path, DATA / "provinces.tsv")

    provinces = [r["abbr"] for r in rows]
    terrain = {r["abbr"]: r["type"] for r in rows}
    coasts = {r["abbr"]: [c.upper() for c in r["coasts"].split(",") if c] for r in rows}

    def fleet_locations(p: str) -> list[str]:
        if terrain[p] == "land":
            return []
        return [f"{p}/{c}" for c in coasts[p]] or [p]

    out = [
        "# The standard Diplomacy map (Avalon Hill rules): declared data, owned by dipsolve.",
        "# Generated once by tests/tools/make_map.py; checked by tests/test_map.py.",
        "#",
        "# province lines:  province ABBR TERRAIN [center] [home=POWER] [coasts=NC,SC]",
        "#                  (a home is a center too: center home=POWER; coasts among NC, SC, EC, WC)",
        "# army lines:      army PROVINCE: the provinces an army there can move to",
        "# fleet lines:     fleet LOCATION: the locations a fleet there can move to",
        "#                  (each coast of a bicoastal province is its own location; a place",
        "#                  never moves to its own province, each it moves to has a line too)",
        "",
    ]
    for r in rows:
        p = r["abbr"]
        bits = ["province", p, r["type"]]
        if r["supply_center"] == "yes":
            bits.append("center")
        if r["home"]:
            bits.append(f"home={r['home']}")
        if coasts[p]:
            bits.append("coasts=" + ",".join(coasts[p]))
        out.append(" ".join(bits))
    out.append("")
    for p in provinces:
        if terrain[p] == "sea":
            continue
        dests = [q for q in provinces if q != p and terrain[q] != "sea"
                 and peer.abuts("A", p, "-", q)]
        out.append(f"army {p}: " + " ".join(dests))
    out.append("")
    all_fleet_locs = [loc for p in provinces for loc in fleet_locations(p)]
    for loc in all_fleet_locs:
        dests = [d for d in all_fleet_locs if d.split("/")[0] != loc.split("/")[0]
                 and peer.abuts("F", loc, "-", d)]
        out.append(f"fleet {loc}: " + " ".join(dests))
    (DATA / "standard.map").write_text("\n".join(out) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "../shared/provinces.tsv")
