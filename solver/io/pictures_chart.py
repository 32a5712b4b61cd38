"""A game's supply-center counts per power over its phases, drawn as a strip chart (SVG; PNG through `dipsolve.io.pictures.picture_bytes`).

One line per power in its board colour (`dipsolve.io.pictures_board.POWER_COLOURS`), the
phases along the bottom (a tick and label at every Spring movement phase, the year),
the count up the side (0 to 18 or the largest count), the line of 18 (a solo) dashed,
each power's final count at the line's end.  Every line carries a ``<title>``
(``France: 3 5 5 6 ...``) for a browser's tooltip and for a test to read.

`threats_chart_svg` draws a game's solo threats the same way (`dipsolve.analysis.Threats`):
at every Fall, each power's fewest game years to a solo, fewer years higher up; a
proven answer a filled dot, a plan not proven fewest a hollow one, no plan within the
years looked at a gap in the line.
"""

from __future__ import annotations

from html import escape
from typing import Mapping, Sequence

from .pictures_board import FONT, POWER_COLOURS

__all__ = ["centers_chart_svg", "chart_x", "threats_chart_svg"]

_W, _H = 900, 360
_LEFT, _RIGHT, _TOP, _BOTTOM = 48, 120, 36, 40
#: each power's line is drawn this far (pixels) above or below its place, by its order,
#: so that powers with equal counts show side by side instead of one hiding the others
_SPREAD = 1.6


def chart_x(i: int, phases: int) -> float:
    """Where the chart draws phase ``i`` of ``phases``."""
    return _LEFT + (_W - _LEFT - _RIGHT) * i / max(1, phases - 1)


def _frame(title: str) -> list[str]:
    """A chart's opening: the SVG element, its title, the white ground, the heading."""
    return [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_W}" height="{_H}" '
            f'viewBox="0 0 {_W} {_H}" font-family="{FONT}" font-size="12">',
            f"<title>{escape(title)}</title>",
            f'<rect x="0" y="0" width="{_W}" height="{_H}" fill="#ffffff"/>',
            f'<text x="{_LEFT}" y="22" font-size="15" font-weight="bold">{escape(title)}</text>']


def _grid_line(y: float, label: int) -> list[str]:
    """A light line across the plot at ``y``, its value at the left."""
    return [f'<line x1="{_LEFT}" y1="{y:.1f}" x2="{_W - _RIGHT}" y2="{y:.1f}" stroke="#e4e4e4" stroke-width="1"/>',
            f'<text x="{_LEFT - 8}" y="{y + 4:.1f}" text-anchor="end" fill="#555555">{label}</text>']


def centers_chart_svg(phases: Sequence[str], counts: Mapping[str, Sequence[int]],
                      title: str = "Supply centers") -> str:
    """The chart as SVG text: ``phases`` the phase names (``S1901M``, ...), ``counts``
    power -> its center count at each phase."""
    n = max(1, len(phases) - 1)
    top = max([18] + [c for cs in counts.values() for c in cs])
    plot_w, plot_h = _W - _LEFT - _RIGHT, _H - _TOP - _BOTTOM

    def x(i: int) -> float:
        return _LEFT + plot_w * i / n

    def y(c: float) -> float:
        return _TOP + plot_h * (1 - c / top)

    out = _frame(title)
    for c in range(0, top + 1, 2):
        out += _grid_line(y(c), c)
    out.append(f'<line x1="{_LEFT}" y1="{y(18):.1f}" x2="{_LEFT + plot_w}" y2="{y(18):.1f}" '
               f'stroke="#888888" stroke-width="1.2" stroke-dasharray="6,4"><title>18: a solo win</title></line>')
    for i, name in enumerate(phases):
        if name.startswith("S") and name.endswith("M"):
            out.append(f'<line x1="{x(i):.1f}" y1="{_TOP + plot_h}" x2="{x(i):.1f}" y2="{_TOP + plot_h + 5}" '
                       f'stroke="#555555"/>')
            out.append(f'<text x="{x(i):.1f}" y="{_TOP + plot_h + 18}" text-anchor="middle" '
                       f'fill="#555555">{escape(name[1:-1])}</text>')
    out.append(f'<rect x="{_LEFT}" y="{_TOP}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#999999"/>')
    ends: list[tuple[float, str, int]] = []
    middle = (len(counts) - 1) / 2
    for k, (power, cs) in enumerate(counts.items()):
        if not cs:
            continue
        colour = POWER_COLOURS.get(power, "#999999")
        lift = (k - middle) * _SPREAD
        points = " ".join(f"{x(i):.1f},{y(c) + lift:.1f}" for i, c in enumerate(cs))
        out.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2" '
                   f'stroke-linejoin="round"><title>{escape(power)}: {" ".join(map(str, cs))}</title></polyline>')
        ends.append((y(cs[-1]), power, cs[-1]))
    # the labels at the right, moved apart where lines end close together
    last = -1e9
    for ly, power, c in sorted(ends):
        ly = max(ly, last + 13)
        last = ly
        out.append(f'<text x="{_LEFT + plot_w + 8}" y="{ly + 4:.1f}" fill="{POWER_COLOURS.get(power, "#999999")}" '
                   f'font-weight="bold">{escape(power)} {c}</text>')
    out.append("</svg>")
    return "\n".join(out)


def threats_chart_svg(phases: Sequence[str], rows: Sequence[tuple[str, Mapping[str, tuple[int | None, bool]]]],
                      years: int, title: str = "Years to a solo") -> str:
    """The solo-threat chart as SVG text: ``phases`` the game's phase names (the x axis,
    as `centers_chart_svg`'s), ``rows`` each Fall's name with power -> (fewest years or
    None, proven), ``years`` the most looked at."""
    n = len(phases)
    plot_w, plot_h = _W - _LEFT - _RIGHT, _H - _TOP - _BOTTOM
    where = {name: i for i, name in enumerate(phases)}

    def y(v: float) -> float:              # one year at the top, the most looked at below
        return _TOP + plot_h * (v - 0.5) / max(1, years)

    out = _frame(title)
    for v in range(1, years + 1):
        out += _grid_line(y(v), v)
    for i, name in enumerate(phases):
        if name.startswith("S") and name.endswith("M"):
            out.append(f'<text x="{chart_x(i, n):.1f}" y="{_TOP + plot_h + 18}" text-anchor="middle" '
                       f'fill="#555555">{escape(name[1:-1])}</text>')
    out.append(f'<rect x="{_LEFT}" y="{_TOP}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#999999"/>')
    powers: dict[str, None] = {}
    for _, cells in rows:
        powers.update(dict.fromkeys(cells))
    middle = (len(powers) - 1) / 2
    for k, power in enumerate(powers):
        colour = POWER_COLOURS.get(power, "#999999")
        lift = (k - middle) * _SPREAD
        said = " ".join(f"{ph} {'-' if cells.get(power, (None, False))[0] is None else cells[power][0]}"
                        for ph, cells in rows)
        out.append(f'<g class="threat"><title>{escape(power)}: {escape(said)}</title>')
        run: list[str] = []
        for ph, cells in [*rows, ("", {})]:
            fewest, proven = cells.get(power, (None, False))
            if fewest is None or ph not in where:
                if len(run) > 1:
                    out.append(f'<polyline points="{" ".join(run)}" fill="none" stroke="{colour}" '
                               f'stroke-width="2" stroke-linejoin="round"/>')
                run = []
                continue
            px, py = chart_x(where[ph], n), y(fewest) + lift
            run.append(f"{px:.1f},{py:.1f}")
            out.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3.5" stroke="{colour}" stroke-width="1.5" '
                       f'fill="{colour if proven else "#ffffff"}"/>')
        out.append("</g>")
        out.append(f'<text x="{_LEFT + plot_w + 8}" y="{_TOP + 14 + 14 * k}" fill="{colour}" '
                   f'font-weight="bold">{escape(power)}</text>')
    out.append("</svg>")
    return "\n".join(out)
