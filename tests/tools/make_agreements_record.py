"""Write ``tests/data/doc_commands/agreements.json``: a short game with DAIDE press, for docs/press.md.

Run by a developer::

    python tests/tools/make_agreements_record.py          # writes the record
    python tests/tools/make_agreements_record.py --check  # exits 1 if the file differs

The game of 1901, played by dipsolve (`dipsolve.Game`), its press said by hand: France and
Germany agree to keep Burgundy empty, England and France make peace, Germany refuses to
promise England its Kiel fleet's move, Russia and Turkey agree on an empty Black Sea; in
the Fall Germany promises France its Ruhr army's move to Belgium and sends it into
Burgundy instead, and Turkey sails into the Black Sea.  The record is the saved-game JSON
`Game.dumps` writes (`tests/test_agreements.py` reads it back and checks its agreements).
"""

from __future__ import annotations

import sys
from pathlib import Path

import dipsolve

OUT = Path(__file__).resolve().parents[1] / "data" / "doc_commands" / "agreements.json"

#: each phase: its press (sender, recipient, text), then its orders
PHASES = [
    ([("France", "Germany", "PRP (DMZ (FRA GER) (BUR))"),
      ("Germany", "France", "YES (PRP (DMZ (FRA GER) (BUR)))"),
      ("England", "France", "PRP (PCE (ENG FRA))"),
      ("France", "England", "YES (PRP (PCE (ENG FRA)))"),
      ("England", "Germany", "PRP (XDO ((GER FLT KIE) MTO HOL))"),
      ("Germany", "England", "REJ (PRP (XDO ((GER FLT KIE) MTO HOL)))"),
      ("Russia", "Turkey", "PRP (DMZ (RUS TUR) (BLA))"),
      ("Turkey", "Russia", "YES (PRP (DMZ (RUS TUR) (BLA)))"),
      ("Italy", "Austria", "Shall we talk about Venice?")],
     {"France": ["A PAR - PIC", "A MAR - SPA", "F BRE - MAO"],
      "Germany": ["A MUN - RUH", "A BER - KIE", "F KIE - DEN"],
      "England": ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"],
      "Russia": ["F SEV - RUM", "A MOS - UKR", "A WAR - GAL", "F STP/SC - BOT"],
      "Turkey": ["F ANK - CON", "A CON - BUL", "A SMY - ARM"],
      "Austria": ["A VIE - TRI", "A BUD - SER", "F TRI - ALB"],
      "Italy": ["F NAP - ION", "A ROM - APU", "A VEN H"]}),
    ([("Germany", "France", "PRP (XDO ((GER AMY RUH) MTO BEL))"),
      ("France", "Germany", "YES (PRP (XDO ((GER AMY RUH) MTO BEL)))")],
     {"France": ["A PIC H", "A SPA H", "F MAO - POR"],
      "Germany": ["A RUH - BUR", "A KIE - HOL", "F DEN H"],
      "England": ["F NTH - BEL", "F NWG - NWY", "A YOR H"],
      "Russia": ["F RUM H", "A UKR H", "A GAL H", "F BOT - SWE"],
      "Turkey": ["F CON - BLA", "A BUL H", "A ARM H"],
      "Austria": ["A TRI H", "A SER H", "F ALB - GRE"],
      "Italy": ["F ION - TUN", "A APU H", "A VEN H"]}),
]


def game() -> dipsolve.Game:
    g = dipsolve.Game(id="agreements-1901", rules=())
    for press, orders in PHASES:
        for sender, recipient, text in press:
            g.say(sender, recipient, text)
        g.process(orders)
    return g


def main(argv: list[str]) -> int:
    text = game().dumps()
    if "--check" in argv:
        same = OUT.read_text(encoding="utf-8") == text
        print(f"{OUT}: {'the same' if same else 'differs'}")
        return 0 if same else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
