"""A whole game in the browser: one self-contained HTML page that steps through every phase.

`game_html(record, analysis=None)` writes the page: for each phase the board with the
orders given and their results (`dipsolve.io.pictures_svg.outcome_svg`), the centers chart
with the phase marked, the press messages of the phase and, where the record was
analysed (`dipsolve.analysis.Analysis`), dipsolve's suggested orders beside the played
ones with the value each power lost; once, who played each power and how the game ended
(`dipsolve.io.records.Record.players`, `Record.result`: "unknown" where the record does
not say), with each power's final centers and units.  Buttons, a phase list and the
keyboard (left and right arrows, Home, End) step through it; the address's ``#S1903M``
opens a phase.

The map zooms and moves: the buttons (+, -, the whole map), the mouse wheel and a double
click over it, the keys + - 0, a drag (a mouse, a pen, a finger; two fingers pinch), Shift
and the arrow keys.  The shown board's ``viewBox`` changes, so the picture is drawn again
at every size, sharp; the view is kept from phase to phase.  A list in the header shows
the press of one power (the messages it sent or received, and those to every power) or
all of it.

Nothing is fetched: the map's shapes are written once (``<defs>``) and each phase's
picture refers to them (``<use>``), its own ids made unique on the page (`own_ids`), so a
game of 53 phases stays near 3 MB; no script, font or style comes from the network.
`Record._repr_html_` and `Analysis._repr_html_` show the same page in a notebook (inside
an ``<iframe srcdoc>``, so that its script and ids keep to themselves).
"""

from __future__ import annotations

import html
import json
import re
from typing import Any, Callable

from ..core.adjudicator import adjudicate
from ..core.bounds import LIMITS, limit_error
from ..core.map import Map, standard_map
from .pictures_board import POWER_COLOURS, board_shapes, variant_colours
from .pictures_chart import centers_chart_svg, chart_x, threats_chart_svg
from .pictures_svg import outcome_svg, position_svg

# a `dipsolve.io.records.Record` and a `dipsolve.analysis.Analysis` (not imported: those sit
# above the pictures and call up to this module from their notebook hooks)
Record = Any
Analysis = Any
Threats = Any          # `dipsolve.analysis.Threats`

__all__ = ["game_html", "map_defs"]


def map_defs(m: Map) -> str:
    """The shapes of ``m``'s board once, as ``<path id="map-PAR">`` in a hidden SVG's ``<defs>``."""
    s = board_shapes(m)
    paths = [f'<path id="map-{sh.id.replace(" ", "_")}" d="{sh.path}"/>'
             for sh in [*s.provinces.values(), *s.neutral]]
    return ('<svg width="0" height="0" style="position:absolute" aria-hidden="true">'
            "<defs>" + "".join(paths) + "</defs></svg>")


def _phase_svg(ph: Any) -> tuple[str, list[dict[str, str]]]:
    """One phase's picture (shapes by reference) and its orders with their results."""
    if ph.orders:
        outcome = adjudicate(ph.position, ph.orders_of())
        svg = outcome_svg(outcome, refs=True)
        rows = [{"power": r.power, "order": str(r.order),
                 "result": "" if r.success else (r.reason.value if r.reason else "failed")}
                for r in outcome.results if not (r.detail == "no order")]
        return svg, rows
    return position_svg(ph.position, refs=True), []


#: the two ways a picture refers to an id: ``href="#x"`` (``xlink:href`` too), ``url(#x)``
_HREF = re.compile(r'href="#([^"]*)"')
_URL = re.compile(r'url\(#([^)]*)\)')


def own_ids(svg: str, prefix: str) -> str:
    """``svg`` with ids of its own on a page of many pictures: each ``id="x"`` it defines,
    and each reference to it, becomes ``prefix + x``; a reference to an id it does not
    define (the page's map shapes, ``href="#map-PAR"``) is left as it is.

        >>> own_ids('<g id="units"><use href="#units"/><use href="#map-PAR"/></g>', "p3-")
        '<g id="p3-units"><use href="#p3-units"/><use href="#map-PAR"/></g>'
    """
    ids: set[str] = set()
    out = svg
    for blank in " \n\t\r":          # an id attribute: found as plain text, the fastest way
        attribute = f'{blank}id="'
        if attribute in svg:
            ids.update(part.split('"', 1)[0] for part in svg.split(attribute)[1:])
            out = out.replace(attribute, attribute + prefix)
    own = {*_HREF.findall(svg), *_URL.findall(svg)} & ids
    for x in own:
        out = out.replace(f'href="#{x}"', f'href="#{prefix}{x}"').replace(f"url(#{x})", f"url(#{prefix}{x})")
    return out


def _suggestions(analysis: Analysis | None, name: str) -> list[dict[str, Any]]:
    if analysis is None:
        return []
    out = []
    for power, moves in analysis.moves.items():
        for m in moves:
            if m.phase == name:
                out.append({"power": power, "played": [str(o) for o in m.played],
                            "dipsolve": [str(o) for o in m.ours], "same": m.same,
                            "lost": round(m.lost, 1)})
    return out


def _table(rows: list[list[str]], head: list[str], cls: str, row_attrs: list[str] | None = None) -> str:
    """A table of ``rows`` (each cell HTML already), ``row_attrs`` each row's attributes."""
    if not rows:
        return ""
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    attrs = row_attrs or [""] * len(rows)
    body = "".join(f"<tr{a}>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r, a in zip(rows, attrs))
    return f'<table class="{cls}"><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>'


#: a message's recipient when it went to every power (the diplomacy package's, Meta's)
TO_ALL = ("GLOBAL", "ALL")


def _press(msgs: tuple[tuple[str, str, str], ...]) -> str:
    """A phase's press: a table whose rows say who sent and who received each message
    (``data-from``, ``data-to``: the names upper case, as the page's filter compares them)."""
    e = html.escape
    if not msgs:
        return "<p>no messages</p>"
    rows = [[e(m[0]), "all" if m[1].strip().upper() in TO_ALL else e(m[1]), e(m[2])] for m in msgs]
    attrs = [f' data-from="{e(m[0].strip().upper())}" data-to="{e(m[1].strip().upper())}"' for m in msgs]
    return (_table(rows, ["from", "to", "message"], "press", attrs)
            + '<p class="press-none" hidden>no messages of the power chosen</p>')


def _section(i: int, ph: Any, analysis: Analysis | None) -> str:
    svg, orders = _phase_svg(ph)
    svg = own_ids(svg, f"p{i}-")
    e = html.escape
    order_rows = [[e(o["power"]), e(o["order"]),
                   f'<span class="failed">{e(o["result"])}</span>' if o["result"] else "ok"]
                  for o in orders]
    sug = _suggestions(analysis, ph.name)
    sug_rows = [[e(s["power"]), e(", ".join(s["played"]) or "(all hold)"),
                 "(the same)" if s["same"] else e(", ".join(s["dipsolve"])), f'{s["lost"]:+.1f}']
                for s in sug]
    side = [f'<h3>Orders</h3>{_table(order_rows, ["power", "order", "result"], "orders") or "<p>no orders</p>"}']
    if sug_rows:
        side.append("<h3>dipsolve's suggestions</h3>"
                    + _table(sug_rows, ["power", "played", "dipsolve's", "value lost"], "suggestions"))
    elif analysis is not None and ph.position.phase.kind == "movement":
        side.append("<h3>dipsolve's suggestions</h3><p>not analysed</p>")
    side.append(f'<h3>Press</h3>{_press(getattr(ph, "messages", ()))}')
    return (f'<section class="phase" id="phase-{i}" data-name="{e(ph.name)}" hidden>'
            f'<div class="board">{svg}</div><div class="side">{"".join(side)}</div></section>')


def _standing(power: str, how: str, winners: tuple[str, ...], alive: bool) -> str:
    """A power's standing at the end, by how the game ended (`dipsolve.io.records.GameResult`)."""
    if power in winners:
        return "won" if how == "solo" else "in the draw"
    if not alive:
        return "eliminated"
    return "survived" if how in ("solo", "draw", "ended") else "in play"


def _players(record: Record) -> str:
    """Who played each power and how the game ended, with the final centers and units."""
    e = html.escape
    result = record.result
    final = record.final
    head = {"solo": f"a solo win for {', '.join(result.winners)}",
            "draw": f"a draw between {', '.join(result.winners)}",
            "ended": "over, no winner named in the record",
            "unfinished": f"unfinished: the record stops at {final.phase} ({result.phase})"}[result.how]
    rows = []
    for p in sorted(result.centers, key=lambda p: (-result.centers[p], p)):
        units = len(final.units_of(p))
        who = e(record.players[p]) if p in record.players else '<span class="unknown">unknown</span>'
        rows.append([f'<span class="swatch" style="background:{POWER_COLOURS.get(p, "#999999")}"></span>{e(p)}',
                     who, str(result.centers[p]), str(units),
                     _standing(p, result.how, result.winners, bool(result.centers[p] or units))])
    return (f'<section class="game-end" aria-label="players and result"><h2>Players and result</h2>'
            f'<p class="result">Result: {e(head)}</p>'
            f'{_table(rows, ["power", "player", "centers", "units", "at the end"], "players")}</section>')


_STYLE = """
body{font-family:"DejaVu Sans",Verdana,Arial,sans-serif;margin:0;background:#f4f2ec;color:#1a1a1a}
header{display:flex;gap:.6em;align-items:center;padding:.5em 1em;background:#2b3a4a;color:#fff;flex-wrap:wrap}
header h1{font-size:1.1em;margin:0 1em 0 0}
header button{font-size:1em;padding:.2em .7em}
#phase-name{font-weight:bold;min-width:14em}
main{padding:.5em 1em}
.map-tools{display:flex;gap:.4em;align-items:center;margin:0 0 .4em;font-size:.85em}
.map-tools button{font-size:1.1em;min-width:2.2em}
#zoom-level{min-width:3.5em}
.map-tools .hint{color:#555}
.phase{display:flex;gap:1em;align-items:flex-start;flex-wrap:wrap}
.phase[hidden]{display:none}
.board svg{width:min(100%,1260px);height:auto;max-width:1260px;background:#fff;touch-action:pan-y;user-select:none}
main.zoomed .board svg{cursor:grab;touch-action:none}
main.zoomed .board svg.dragging{cursor:grabbing}
.board{flex:1 1 800px}
.side{flex:0 1 420px;font-size:.85em;max-height:900px;overflow:auto}
table{border-collapse:collapse;width:100%;margin-bottom:.6em}
td,th{border-bottom:1px solid #ddd;padding:2px 4px;text-align:left;vertical-align:top}
.failed{color:#b00}
.game{display:flex;gap:2em;flex-wrap:wrap;align-items:flex-start;margin-top:1em}
.game-end{flex:0 1 34em;font-size:.9em}
.game-end h2{font-size:1.1em;margin:.2em 0}
.swatch{display:inline-block;width:.8em;height:.8em;margin-right:.4em;border:1px solid #333;vertical-align:-.05em}
.unknown{color:#777;font-style:italic}
#chart{flex:1 1 600px}
#chart svg{width:min(100%,900px);height:auto}
"""

_SCRIPT = """
(function(){
  var sections=document.querySelectorAll('section.phase');
  var select=document.getElementById('phase-select');
  var label=document.getElementById('phase-name');
  var cursor=document.getElementById('chart-cursor');
  var xs=JSON.parse(document.getElementById('chart-x').textContent);
  var main=document.querySelector('main');
  var current=-1;
  function show(i){
    if(i<0)i=0; if(i>=sections.length)i=sections.length-1;
    if(current>=0)sections[current].hidden=true;
    sections[i].hidden=false; current=i;
    var name=sections[i].getAttribute('data-name');
    label.textContent=(i+1)+' / '+sections.length+': '+sections[i].getAttribute('data-title');
    select.value=String(i);
    if(cursor){cursor.setAttribute('x1',xs[i]);cursor.setAttribute('x2',xs[i]);}
    if(view)applyView();
    if(history.replaceState)history.replaceState(null,'','#'+name);
  }
  // the map: zoomed and moved by the shown board's viewBox (the SVG is drawn again, sharp);
  // the same view from phase to phase
  var base=null, baseText='', view=null, MAXZ=8, level=document.getElementById('zoom-level');
  function board(){return sections[current].querySelector('.board svg');}
  function start(){
    if(view)return true;
    var svg=board(); if(!svg||!svg.viewBox||!svg.viewBox.baseVal)return false;
    var b=svg.viewBox.baseVal; baseText=svg.getAttribute('viewBox');
    base={x:b.x,y:b.y,w:b.width,h:b.height}; view={x:b.x,y:b.y,w:b.width,h:b.height};
    return true;
  }
  function whole(){return view.w>=base.w-1e-9;}
  function applyView(){
    var svg=board(); if(!svg)return;
    svg.setAttribute('viewBox',whole()?baseText:
      [view.x,view.y,view.w,view.h].map(function(v){return +v.toFixed(2);}).join(' '));
    main.classList.toggle('zoomed',!whole());
    level.textContent=Math.round(base.w/view.w*100)+'%';
  }
  function clamp(){
    view.x=Math.min(Math.max(view.x,base.x),base.x+base.w-view.w);
    view.y=Math.min(Math.max(view.y,base.y),base.y+base.h-view.h);
  }
  function zoom(factor,cx,cy){    // factor > 1 zooms in; the map's point (cx, cy) stays put
    if(!start())return;
    if(cx===undefined){cx=view.x+view.w/2;cy=view.y+view.h/2;}
    var w=Math.min(base.w,Math.max(base.w/MAXZ,view.w/factor)), h=w*base.h/base.w;
    view={x:cx-(cx-view.x)*w/view.w,y:cy-(cy-view.y)*h/view.h,w:w,h:h};
    if(whole())view={x:base.x,y:base.y,w:base.w,h:base.h};
    clamp(); applyView();
  }
  function pan(dx,dy){if(!start())return; view.x+=dx; view.y+=dy; clamp(); applyView();}
  function reset(){if(!start())return; view={x:base.x,y:base.y,w:base.w,h:base.h}; applyView();}
  function at(svg,x,y){     // a point of the window in the map's units
    var r=svg.getBoundingClientRect();
    return {x:view.x+(x-r.left)/r.width*view.w,y:view.y+(y-r.top)/r.height*view.h};
  }
  document.getElementById('zoom-in').onclick=function(){zoom(1.5)};
  document.getElementById('zoom-out').onclick=function(){zoom(1/1.5)};
  document.getElementById('zoom-reset').onclick=reset;
  function onBoard(ev){return ev.target&&ev.target.closest?ev.target.closest('.board svg'):null;}
  main.addEventListener('wheel',function(ev){
    var svg=onBoard(ev); if(!svg||!start())return;
    var dy=ev.deltaY*(ev.deltaMode===1?33:ev.deltaMode===2?800:1);
    if(dy===0||(dy>0&&whole()))return;     // the whole map shown: the page scrolls on
    ev.preventDefault();
    var p=at(svg,ev.clientX,ev.clientY);
    zoom(Math.exp(-dy*0.002),p.x,p.y);
  },{passive:false});
  main.addEventListener('dblclick',function(ev){
    var svg=onBoard(ev); if(!svg||!start())return;
    var p=at(svg,ev.clientX,ev.clientY); zoom(ev.shiftKey?1/2:2,p.x,p.y);
  });
  // dragging moves the map (a mouse, a pen or a finger); two fingers pinch to zoom
  var pointers={}, pinch=0;
  function spread(){
    var ps=Object.keys(pointers).map(function(k){return pointers[k];});
    if(ps.length<2)return null;
    return {d:Math.hypot(ps[0].x-ps[1].x,ps[0].y-ps[1].y)||1,x:(ps[0].x+ps[1].x)/2,y:(ps[0].y+ps[1].y)/2};
  }
  main.addEventListener('pointerdown',function(ev){
    var svg=onBoard(ev); if(!svg||ev.button>0||!start())return;
    pointers[ev.pointerId]={x:ev.clientX,y:ev.clientY};
    var s=spread(); pinch=s?s.d:0;
    if(svg.setPointerCapture)svg.setPointerCapture(ev.pointerId);
    svg.classList.add('dragging');
  });
  main.addEventListener('pointermove',function(ev){
    var last=pointers[ev.pointerId]; if(!last)return;
    var svg=board(), r=svg.getBoundingClientRect();
    var before=spread();
    pointers[ev.pointerId]={x:ev.clientX,y:ev.clientY};
    var after=spread();
    if(after&&before){
      var p=at(svg,after.x,after.y);
      zoom(after.d/before.d,p.x,p.y);
      pan(-(after.x-before.x)/r.width*view.w,-(after.y-before.y)/r.height*view.h);
    }else if(!whole()){
      pan(-(ev.clientX-last.x)/r.width*view.w,-(ev.clientY-last.y)/r.height*view.h);
    }
    ev.preventDefault();
  });
  function up(ev){
    if(!pointers[ev.pointerId])return;
    delete pointers[ev.pointerId];
    if(!Object.keys(pointers).length){var svg=board(); if(svg)svg.classList.remove('dragging');}
  }
  main.addEventListener('pointerup',up);
  main.addEventListener('pointercancel',up);
  // the press: all of it, or what one power sent or received (and what went to every power)
  var press=document.getElementById('press-power');
  function filterPress(){
    var p=press.value, tables=document.querySelectorAll('table.press');
    for(var i=0;i<tables.length;i++){
      var rows=tables[i].tBodies[0].rows, shown=0;
      for(var j=0;j<rows.length;j++){
        var f=rows[j].getAttribute('data-from'), t=rows[j].getAttribute('data-to');
        var on=!p||f===p||t===p||t==='GLOBAL'||t==='ALL';
        rows[j].hidden=!on; if(on)shown++;
      }
      tables[i].hidden=!shown;
      var none=tables[i].nextElementSibling; if(none)none.hidden=!!shown;
    }
  }
  press.onchange=filterPress;
  document.getElementById('first').onclick=function(){show(0)};
  document.getElementById('prev').onclick=function(){show(current-1)};
  document.getElementById('next').onclick=function(){show(current+1)};
  document.getElementById('last').onclick=function(){show(sections.length-1)};
  select.onchange=function(){show(parseInt(select.value,10))};
  var STEP=0.15;
  document.addEventListener('keydown',function(ev){
    var tag=ev.target&&ev.target.tagName;
    if(tag==='SELECT'||tag==='INPUT'||tag==='TEXTAREA'||ev.ctrlKey||ev.metaKey||ev.altKey)return;
    if(ev.shiftKey&&ev.key.indexOf('Arrow')===0){
      if(!start())return;
      var dx={ArrowLeft:-1,ArrowRight:1}[ev.key]||0, dy={ArrowUp:-1,ArrowDown:1}[ev.key]||0;
      pan(dx*STEP*view.w,dy*STEP*view.h); ev.preventDefault(); return;
    }
    if(ev.key==='+'||ev.key==='='){zoom(1.5);ev.preventDefault();}
    else if(ev.key==='-'||ev.key==='_'){zoom(1/1.5);ev.preventDefault();}
    else if(ev.key==='0'){reset();ev.preventDefault();}
    else if(ev.key==='ArrowRight'||ev.key==='PageDown'){show(current+1);ev.preventDefault();}
    else if(ev.key==='ArrowLeft'||ev.key==='PageUp'){show(current-1);ev.preventDefault();}
    else if(ev.key==='Home'){show(0);ev.preventDefault();}
    else if(ev.key==='End'){show(sections.length-1);ev.preventDefault();}
  });
  var first=0, want=decodeURIComponent(location.hash.slice(1));
  for(var i=0;i<sections.length;i++){if(sections[i].getAttribute('data-name')===want)first=i;}
  show(first);
})();
"""


_MAP_TOOLS = ('<div class="map-tools" role="toolbar" aria-label="the map">'
              '<button id="zoom-in" title="zoom in (+, the mouse wheel, a double click)" aria-label="zoom in">+</button>'
              '<button id="zoom-out" title="zoom out (-)" aria-label="zoom out">&#x2212;</button>'
              '<button id="zoom-reset" title="the whole map (0)" aria-label="the whole map">&#x2922;</button>'
              '<span id="zoom-level" aria-live="polite">100%</span>'
              '<span class="hint">drag the map to move it (or Shift and the arrow keys)</span></div>')


def _press_options(record: Record, powers: tuple[str, ...]) -> str:
    """The press filter's choices: all, and each power with how many messages it shows
    (those it sent or received, and those to every power)."""
    shown = {p.upper(): 0 for p in powers}
    total = 0
    for ph in record.phases:
        for frm, to, _ in getattr(ph, "messages", ()):
            total += 1
            ends = {frm.strip().upper(), to.strip().upper()}
            for p in shown:
                if p in ends or to.strip().upper() in TO_ALL:
                    shown[p] += 1
    e = html.escape
    return (f'<option value="">all powers ({total})</option>'
            + "".join(f'<option value="{e(p.upper())}">{e(p)} ({shown[p.upper()]})</option>' for p in powers))


def game_html(record: Record, analysis: Analysis | None = None, *, title: str | None = None,
              threats: Threats | None = None,
              on_phase: Callable[[int, int], None] | None = None) -> str:
    """The page of a whole game (see the module's text); ``analysis`` adds dipsolve's
    suggested orders to each movement phase it weighed, and ``threats`` (or the
    analysis's) the solo-threat chart.  ``on_phase(done, total)`` is called as each
    phase is drawn (a progress display)."""
    e = html.escape
    if len(record.phases) > LIMITS["max_page_phases"].value:
        raise limit_error("max_page_phases", f"a game of {len(record.phases):,} phases")
    title = title or f"Game {record.id}"
    names = record.names
    board = record.phases[0].position.map if record.phases else standard_map()
    powers = board.powers if record.phases else ()
    variant_colours(board)                  # a variant's powers coloured before the chart is drawn
    counts = {p: [len(ph.position.centers_of(p)) for ph in record.phases] for p in powers}
    chart = centers_chart_svg(names, counts, title="Supply centers")
    xs = [round(chart_x(i, len(names)), 1) for i in range(len(names))]
    cursor = (f'<line id="chart-cursor" x1="{xs[0]}" y1="36" x2="{xs[0]}" y2="320" '
              f'stroke="#222" stroke-width="1.5" stroke-dasharray="3,3"/></svg>')
    chart = chart[: chart.rindex("</svg>")] + cursor
    sections = []
    for i, ph in enumerate(record.phases):
        sec = _section(i, ph, analysis)
        phase_title = str(ph.position.phase) if ph.name != "COMPLETED" else f"{ph.position.phase} (the end)"
        sections.append(sec.replace(" hidden>", f' data-title="{e(phase_title)}" hidden>', 1))
        if on_phase is not None:
            on_phase(i + 1, len(record.phases))
    t = threats if threats is not None else getattr(analysis, "threats", None)
    threats_div = ""
    if t is not None:
        cells = [(ph, {p: (c.years, c.status == "optimal") for p, c in row.items()}) for ph, row in t.rows]
        threats_div = ('<div id="threats">' + threats_chart_svg(
            names, cells, t.years, title=f"Years to a solo against {t.opposition} (fewer is higher; "
                                         f"filled: proven; none within {t.years}: no point)") + "</div>")
    options = "".join(f'<option value="{i}">{e(n)}</option>' for i, n in enumerate(names))
    summary = ""
    if analysis is not None:
        lost = {p: round(sum(m.lost for m in ms), 1) for p, ms in analysis.moves.items()}
        summary = ("<p>Analysed: " + e(", ".join(f"{p} value lost {v:+.1f}" for p, v in lost.items()))
                   + f"; {len(analysis.differences)} phases adjudicated differently from the record.</p>")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{e(title)}</title><style>{_STYLE}</style></head><body>"
            f"<header><h1>{e(title)}</h1>"
            '<button id="first" title="first phase (Home)">&#x25C0;&#x25C0;</button>'
            '<button id="prev" title="previous phase (left arrow)">&#x25C0;</button>'
            f'<select id="phase-select" aria-label="phase">{options}</select>'
            '<button id="next" title="next phase (right arrow)">&#x25B6;</button>'
            '<button id="last" title="last phase (End)">&#x25B6;&#x25B6;</button>'
            '<span id="phase-name"></span>'
            f'<label>Press of <select id="press-power" title="the messages a power sent or received '
            f'(and those to every power)">{_press_options(record, powers)}</select></label></header>'
            f"<main>{map_defs(board)}{summary}{_MAP_TOOLS}{''.join(sections)}"
            f'<div class="game">{_players(record)}<div id="chart">{chart}</div>{threats_div}</div></main>'
            f'<script type="application/json" id="chart-x">{json.dumps(xs)}</script>'
            f"<script>{_SCRIPT}</script></body></html>\n")


def notebook_html(page: str) -> str:
    """``page`` in an iframe for a notebook's output cell (its script and ids kept apart)."""
    return (f'<iframe srcdoc="{html.escape(page, quote=True)}" '
            'style="width:100%;height:1000px;border:0" sandbox="allow-scripts"></iframe>')
