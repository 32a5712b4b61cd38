"""Writing a DATC case file: a `Case` as two ``.dip`` documents separated by ``=== expected``.

The position with its orders (and, as comments, the case's source, notes and fixes),
then the expected position after the phase (units and dislodged units).
"""

from __future__ import annotations

from dipsolve.core.map import POWERS
from dipsolve.core.position import Unit

from datc_case import Case

# ---------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------

def _wrap(text: str, width: int = 88) -> list[str]:
    words, lines, cur = text.split(), [], ""
    for w in words:
        if cur and len(cur) + 1 + len(w) > width - 2:
            lines.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}" if cur else w
    if cur:
        lines.append(cur)
    return lines


def _comment(text: str, first: str = "# ", rest: str = "#   ") -> list[str]:
    lines = _wrap(text)
    return [first + lines[0]] + [rest + x for x in lines[1:]]


def _power_sections(units: list[Unit], centers: dict[str, str] | None) -> list[str]:
    out = []
    for power in POWERS:
        us = [u for u in units if u.power == power]
        cs = sorted(p for p, o in (centers or {}).items() if o == power)
        if not us and not cs:
            continue
        out.append(f"[{power}]")
        if us:
            out.append("units: " + ", ".join(str(u) for u in us))
        if cs:
            out.append("centers: " + ", ".join(cs))
        out.append("")
    return out


def next_phase(c: Case) -> str:
    season, year, kind = c.phase.split()
    if kind == "Movement":
        if c.exp_dislodged:
            return f"{season} {year} Retreat"
        return f"Fall {year} Movement" if season == "Spring" else f"Winter {year} Adjustment"
    if kind == "Retreat":
        return f"Fall {year} Movement" if season == "Spring" else f"Winter {year} Adjustment"
    return f"Spring {int(year) + 1} Movement"


def case_text(c: Case) -> str:
    """The text of ``c``'s case file."""
    title = c.title or "?"
    lines = [f"# DATC {c.cid}{c.suffix}: {title}", f"# source: {c.source}"]
    for n in c.notes:
        if n.startswith("fix:"):
            lines += _comment(n[4:].strip(), "# fix: ", "#      ")
        else:
            lines += _comment(n)
    if c.results:
        lines.append("# the movement phase before (from the text file's PRESTATE_RESULTS):")
        lines += [f"#   {r}" for r in c.results]
    lines += [f"phase: {c.phase}", ""]
    lines += _power_sections(c.units, c.centers)
    if c.dislodged or c.standoffs:
        lines.append("[dislodged]")
        for u, origin in c.dislodged:
            lines.append(f"{u.power}: {u}" + (f" from {origin}" if origin else ""))
        if c.standoffs:
            lines.append("standoffs: " + ", ".join(c.standoffs))
        lines.append("")
    if c.orders:
        lines.append("[orders]")
        for o in c.orders:
            lines.append(o.text() + (f"  # {o.note}" if o.note else ""))
        lines.append("")
    else:
        lines += ["# no orders", ""]
    lines.append("=== expected")
    lines.append(f"phase: {next_phase(c)}")
    lines.append("")
    lines += [f"# {n}" for n in c.exp_notes]
    lines += _power_sections(c.exp_units, None)
    if c.exp_dislodged:
        lines.append("[dislodged]")
        lines += [f"{u.power}: {u}" for u in c.exp_dislodged]
        lines.append("")
    while lines and lines[-1] == "":
        lines.pop()
    return "\n".join(lines) + "\n"
