"""``dipsolve view``: a whole game as one self-contained page, checked as text and in a real browser.

The browser tests open the page in headless Chromium (Debian's ``chromium`` and
``chromium-driver``, installed by .ci/run) through Selenium.  One steps through the phases
with the keyboard and the buttons, and checks what is shown: the phase's name, its units
drawn, an order's arrow, the chart's cursor; that the page asked for nothing over the
network and wrote no error to the console.  Another, on the longest real record with
hostile strings added, zooms and moves the map every way it offers (the board's viewBox
checked each time), filters the press by power and reads the players and the result.
A parser (`Structure`, on ``html.parser``) holds the page to HTML's nesting and unique ids.  Screenshots of the start and of a crowded
mid-game phase are kept in ``$DIPSOLVE_ARTIFACTS`` (default: the test's temporary folder).
It is skipped, saying why, where no Chromium or driver is installed.
"""

from __future__ import annotations

import dataclasses
import html
import json
import os
import pty
import random
import re
import shutil
import subprocess
import sys
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest

from dipsolve.core.results import Limits
from dipsolve.core.adjudicator import adjudicate
from dipsolve.analysis import analyze
from dipsolve.cli import main
from dipsolve.io.pictures_board import shapes
from dipsolve.io.pictures_html import game_html
from dipsolve.core.position import Position
from dipsolve.io.game import load_record
from dipsolve.io.records import dumps_records, replay
from dipsolve.testing.random_positions import random_orders

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "examples" / "records" / "dumbbot-1903.json"


def long_game(phases: int = 44, seed: int = 7):
    """A game of ``phases`` phases of random legal orders from the start (a record)."""
    rng = random.Random(seed)
    board, orders = Position.initial(), []
    while len(orders) < phases:
        o = random_orders(rng, board)
        orders.append(o)
        board = adjudicate(board, o).next
    return replay(Position.initial(), orders, id=f"random-{phases}")


#: strings a record may hold, written as an attacker would: each must show as text
HOSTILE_NAME = '<script>document.title="pwned"</script>'
HOSTILE_SENDER = 'FRANCE" data-to="ENGLAND'
HOSTILE_TEXT = '<img src=x onerror="document.title=\'pwned\'">'


def hostile_record():
    """The longest real record of the corpus (the diplomacy package's game 001ce02c: 53
    phases, 473 messages), with a hostile player name and a hostile message added."""
    from dipsolve.testing.peer import real_records
    path = real_records().get("diplomacy-001ce02c.json")
    if path is None:
        pytest.skip("the diplomacy package (the test extra) is not installed")
    record = load_record(str(path))
    first = record.phases[0]
    hostile = dataclasses.replace(first, messages=(*first.messages, (HOSTILE_SENDER, "TURKEY", HOSTILE_TEXT)))
    return dataclasses.replace(record, phases=(hostile, *record.phases[1:]), players={"Italy": HOSTILE_NAME})


def test_view_writes_one_page_with_every_phase(tmp_path, capsys):
    path = tmp_path / "long.json"
    path.write_text(dumps_records([long_game()]))
    out = tmp_path / "game.html"
    assert main(["view", str(path), "-o", str(out), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    page = out.read_text(encoding="utf-8")
    assert info["phases"] == 45 and info["bytes"] == len(page.encode("utf-8"))
    assert len(page.encode("utf-8")) < 5_000_000
    assert len(re.findall(r'<section class="phase" id="phase-\d+"', page)) == 45
    assert not re.search(r'(src|href)="(https?:)?//', page)             # nothing from the network
    assert page.count('<path id="map-') == 75 + len(shapes().neutral)      # the shapes once
    assert "<use href=\"#map-PAR\"" in page


def test_view_refuses_what_is_not_a_record(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("phase: Spring 1901 Movement\n")
    assert main(["view", str(bad), "-o", str(tmp_path / "x.html")]) == 2
    err = capsys.readouterr().err
    assert "not a game record" in err and "Traceback" not in err
    assert not (tmp_path / "x.html").exists()


def test_view_without_o_refuses_a_terminal_as_render_does(tmp_path):
    """At a terminal (a real pseudo-terminal), view asks for -o (exit 2, one line, nothing
    written) instead of pouring megabytes of HTML into it, in render's words."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "dipsolve", "view", str(RECORD)], stdout=slave,
                            stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    os.close(slave)
    try:
        # a page poured into the terminal fills its buffer and the command waits there
        err = proc.communicate(timeout=60)[1]
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail("view wrote to the terminal until it blocked, where it should have refused")
    finally:
        os.set_blocking(master, False)
        try:
            shown = os.read(master, 65536)
        except OSError:                             # nothing there, the other side closed
            shown = b""
        os.close(master)
    assert proc.returncode == 2 and shown == b""
    assert err.startswith("dipsolve: view writes an HTML page: give a file with -o OUT")
    assert "Traceback" not in err and err.count("\n") == 1


def test_view_without_o_writes_the_page_into_a_pipe_or_a_file(tmp_path, monkeypatch):
    proc = subprocess.run([sys.executable, "-m", "dipsolve", "view", str(RECORD)], capture_output=True,
                          text=True, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout.startswith("<!DOCTYPE html>") and proc.stdout.endswith("</html>\n")
    out = tmp_path / "redirected.html"
    with out.open("w", encoding="utf-8") as f:       # dipsolve view GAME.json > redirected.html
        monkeypatch.setattr(sys, "stdout", f)
        assert main(["view", str(RECORD)]) == 0
    assert out.read_text(encoding="utf-8") == proc.stdout


def test_press_and_suggestions_are_on_the_page():
    record = load_record(str(RECORD))
    first = record.phases[0]
    with_press = type(record)(record.id, (type(first)(first.name, first.position, first.orders, first.results,
                                                      (("FRANCE", "ENGLAND", "DMZ ENG <&>"),)),
                                          *record.phases[1:]))
    page = game_html(with_press)
    assert "DMZ ENG &lt;&amp;&gt;" in page                               # escaped
    analysis = analyze(record, ["France"], limits=Limits(time_limit=0.2))
    page = game_html(record, analysis)
    assert "dipsolve&#x27;s suggestions" in page or "dipsolve's suggestions" in page
    assert all(m.phase in page for m in analysis.moves["France"])
    assert record._repr_html_().startswith("<iframe srcdoc=")
    assert analysis._repr_html_().startswith("<iframe srcdoc=")


#: HTML's void elements: no end tag
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
#: elements that end an open <p> in HTML (so a </p> after them closes nothing)
BLOCKS = {"address", "article", "aside", "blockquote", "details", "div", "dl", "fieldset", "figure",
          "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "main", "nav", "ol",
          "p", "pre", "section", "table", "ul"}


class Structure(HTMLParser):
    """The page's elements as a browser nests them, checked strictly: every element but a
    void one closed by its own end tag, in order (no optional end tags left out, none
    misnested), ``<x/>`` only for void elements and inside SVG, no block inside a ``<p>``;
    every id counted.  ``problems`` lists what is wrong, with its line."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.ids: Counter[str] = Counter()
        self.problems: list[str] = []

    def _where(self) -> str:
        return f"line {self.getpos()[0]}, column {self.getpos()[1]}"

    def _ids(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = [k for k, _ in attrs]
        if len(names) != len(set(names)):
            self.problems.append(f"<{tag}> repeats an attribute at {self._where()}")
        for k, v in attrs:
            if k == "id":
                if not v or any(c.isspace() for c in v):
                    self.problems.append(f"<{tag}> has the id {v!r} at {self._where()}")
                self.ids[v or ""] += 1

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._ids(tag, attrs)
        if tag in BLOCKS and "p" in self.open:
            self.problems.append(f"<{tag}> inside a <p> at {self._where()}")
        if tag not in VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._ids(tag, attrs)
        if tag not in VOID and "svg" not in self.open and tag != "svg":
            self.problems.append(f"<{tag}/> is no empty element in HTML, at {self._where()}")

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            self.problems.append(f"</{tag}> ends a void element at {self._where()}")
        elif not self.open or self.open[-1] != tag:
            self.problems.append(f"</{tag}> at {self._where()} where <{self.open[-1] if self.open else '(none)'}> is open")
            if tag in self.open:                # go on as a browser would
                del self.open[len(self.open) - 1 - self.open[::-1].index(tag):]
        else:
            self.open.pop()

    def check(self, page: str) -> "Structure":
        assert page.startswith("<!DOCTYPE html>\n")
        self.feed(page)
        self.close()
        if self.open:
            self.problems.append(f"left open at the end: {' '.join(self.open)}")
        return self


def test_structure_finds_what_a_page_can_get_wrong():
    """The checker the page is held to finds each kind of mistake it looks for."""
    ok = "<!DOCTYPE html>\n<html><body><p>a<br>b</p><svg><path d=''/></svg></body></html>"
    assert Structure().check(ok).problems == []
    for bad, what in [("<div><span></div></span>", "</div> at"), ("<p><div></div></p>", "inside a <p>"),
                      ("<div/>", "no empty element"), ("<table><tr><td>x</table>", "where <td> is open"),
                      ("<br></br>", "ends a void element"), ("<b>", "left open"),
                      ('<a id="x"></a><a id="x y"></a>', "has the id"), ('<a id="1" id="2"></a>', "repeats")]:
        found = Structure().check("<!DOCTYPE html>\n" + bad).problems
        assert any(what in p for p in found), (bad, found)
    twice = Structure().check('<!DOCTYPE html>\n<a id="x"></a><b id="x"></b>')
    assert twice.ids["x"] == 2


def test_the_page_is_well_formed_html_with_unique_ids():
    """A real game with press (one of Meta's Cicero games, 36 phases) and a game with
    dipsolve's suggestions: every element closed in order, every id once."""
    record = load_record(str(ROOT / "tests" / "data" / "records" / "meta-game_433761_ENGLAND_AG.json"))
    small = load_record(str(RECORD))
    first = small.phases[0]
    hostile = dataclasses.replace(small, players={"France": HOSTILE_NAME, "Turkey": "</td></tr></table>"},
                                  phases=(dataclasses.replace(first, messages=(
                                      (HOSTILE_SENDER, "</p><div>", HOSTILE_TEXT),)), *small.phases[1:]))
    pages = [(game_html(record), record), (game_html(hostile), hostile),
             (game_html(small, analyze(small, ["France"], limits=Limits(time_limit=0.1))), small)]
    for page, game in pages:
        found = Structure().check(page)
        assert found.problems == []
        assert [i for i, n in found.ids.items() if n > 1] == []
        assert len(found.ids) > 90 * len(game.phases)
        assert found.ids["chart-cursor"] == 1 and found.ids["p0-prov-PAR"] == 1 and found.ids["zoom-in"] == 1


def _driver():
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not chromium or not driver:
        pytest.skip("no headless browser: install Debian's chromium and chromium-driver (.ci/run does)")
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is in the test extra")
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1700,1150"):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    from selenium.webdriver.chrome.service import Service
    return webdriver.Chrome(service=Service(driver), options=opts)


@pytest.mark.slow  # a real browser
def test_the_page_in_a_real_browser(tmp_path):
    record = long_game()
    page = tmp_path / "game.html"
    page.write_text(game_html(record), encoding="utf-8")
    artifacts = Path(os.environ.get("DIPSOLVE_ARTIFACTS", tmp_path))
    artifacts.mkdir(parents=True, exist_ok=True)
    browser = _driver()
    try:
        from selenium.webdriver.common.by import By
        from selenium.webdriver.common.keys import Keys
        browser.get(page.as_uri())
        shown = lambda: browser.find_element(By.CSS_SELECTOR, "section.phase:not([hidden])")  # noqa: E731
        assert browser.find_element(By.ID, "phase-name").text == "1 / 45: Spring 1901 Movement"
        units = shown().find_elements(By.CSS_SELECTOR, "g.unit")
        assert len(units) == 22 and all(u.is_displayed() for u in units)
        assert len(browser.find_elements(By.CSS_SELECTOR, "section.phase:not([hidden])")) == 1
        browser.save_screenshot(str(artifacts / "view-start.png"))
        body = browser.find_element(By.TAG_NAME, "body")
        body.send_keys(Keys.ARROW_RIGHT)
        assert browser.find_element(By.ID, "phase-name").text.startswith("2 / 45: Fall 1901 Movement")
        browser.find_element(By.ID, "next").click()
        browser.find_element(By.ID, "prev").click()
        assert shown().get_attribute("data-name") == "F1901M"
        # a crowded mid-game phase: its moves drawn as arrows, by keyboard from the end
        body.send_keys(Keys.END)
        assert shown().get_attribute("data-name") == record.phases[-1].name
        target = next(i for i, ph in enumerate(record.phases)
                      if ph.position.phase.kind == "movement" and len(ph.position.units) >= 24 and i > 10)
        for _ in range(len(record.phases) - 1 - target):
            body.send_keys(Keys.ARROW_LEFT)
        section = shown()
        assert section.get_attribute("data-name") == record.phases[target].name
        arrows = section.find_elements(By.CSS_SELECTOR, "g.order.move")
        assert arrows and arrows[0].is_displayed()
        assert arrows[0].find_element(By.TAG_NAME, "title").get_attribute("textContent").split(":")[0] in \
            {"Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"}
        cursor = browser.find_element(By.ID, "chart-cursor")
        assert float(cursor.get_attribute("x1")) > 48
        browser.save_screenshot(str(artifacts / "view-midgame.png"))
        browser.find_element(By.ID, "first").click()
        assert shown().get_attribute("data-name") == "S1901M"
        # every phase is reachable: stepped through one by one, each drawn with its units
        seen = []
        for i in range(len(record.phases)):
            section = shown()
            seen.append(section.get_attribute("data-name"))
            assert len(section.find_elements(By.CSS_SELECTOR, "g.unit")) >= len(record.phases[i].position.units)
            body.send_keys(Keys.ARROW_RIGHT)
        assert seen == record.names
        options = browser.find_elements(By.CSS_SELECTOR, "#phase-select option")
        assert len(options) == 45
        errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
        assert errors == []
        requests = [json.loads(e["message"])["message"] for e in browser.get_log("performance")]
        urls = {m["params"]["request"]["url"] for m in requests if m["method"] == "Network.requestWillBeSent"}
        assert all(u.startswith("file://") or u.startswith("data:") for u in urls), urls
    finally:
        browser.quit()
    assert (artifacts / "view-start.png").stat().st_size > 10_000


def test_players_and_the_result_on_the_page():
    record = hostile_record()
    page = game_html(record)
    assert HOSTILE_NAME not in page and html.escape(HOSTILE_NAME) in page
    assert HOSTILE_TEXT not in page and html.escape(HOSTILE_TEXT) in page
    end = page[page.index('<section class="game-end"'):]
    assert "Result: unfinished: the record stops at Spring 1912 Retreat (S1912R)" in end
    rows = re.findall(r"<tr><td><span class=\"swatch\"[^>]*></span>(\w+)</td><td>(.*?)</td><td>(\d+)</td>"
                      r"<td>(\d+)</td><td>([\w ]+)</td></tr>", end)
    assert [(p, c) for p, _, c, _, _ in rows] == [("Italy", "17"), ("France", "13"), ("Russia", "3"),
                                                  ("England", "1"), ("Austria", "0"), ("Germany", "0"),
                                                  ("Turkey", "0")]
    assert rows[0][1] == html.escape(HOSTILE_NAME)
    assert all(who == '<span class="unknown">unknown</span>' for _, who, _, _, _ in rows[1:])
    assert {p: s for p, _, _, _, s in rows}["Italy"] == "in play"
    assert {p: s for p, _, _, _, s in rows}["Austria"] == "eliminated"


def test_the_press_filters_choices_on_the_page():
    """Each message says who sent and who received it (as the filter compares them, the
    hostile sender escaped); the filter offers all and each power, with how many messages
    each shows (those it sent or received, and those to every power)."""
    record = hostile_record()
    page = game_html(record)
    assert f'data-from="{html.escape(HOSTILE_SENDER.upper())}" data-to="TURKEY"' in page
    messages = [m for ph in record.phases for m in ph.messages]
    france = sum(1 for f, t, _ in messages if "FRANCE" in (f, t) or t == "GLOBAL")
    assert f'<option value="">all powers ({len(messages)})</option>' in page
    assert f'<option value="FRANCE">France ({france})</option>' in page
    assert page.count(' data-from="') == len(messages) == 474


def _open(tmp_path: Path, text: str):
    """Headless Chromium showing the page ``text`` (written to a file)."""
    page = tmp_path / "game.html"
    page.write_text(text, encoding="utf-8")
    browser = _driver()
    browser.get(page.as_uri())
    return browser


def _no_errors(browser) -> None:
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_zoom_and_pan_in_a_real_browser(tmp_path):
    """On the longest real record: the map zooms (buttons, the wheel, the keyboard, a
    double click) and moves (a mouse drag, a finger, Shift and the arrows) by its viewBox,
    keeps its view from phase to phase and comes back whole; no script error."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait
    text = game_html(hostile_record())
    whole = re.search(r'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="\d+" height="\d+" '
                      r'viewBox="([^"]+)"', text).group(1)
    W, H = (float(v) for v in whole.split()[2:])
    browser = _open(tmp_path, text)
    try:
        body = browser.find_element(By.TAG_NAME, "body")
        shown = lambda: browser.find_element(By.CSS_SELECTOR, "section.phase:not([hidden])")  # noqa: E731
        board = lambda: shown().find_element(By.CSS_SELECTOR, ".board svg")  # noqa: E731

        def box() -> list[float]:
            return [float(v) for v in board().get_dom_attribute("viewBox").split()]

        def zoomed() -> bool:
            return "zoomed" in (browser.find_element(By.TAG_NAME, "main").get_attribute("class") or "")

        assert board().get_dom_attribute("viewBox") == whole and not zoomed()
        level = browser.find_element(By.ID, "zoom-level")
        # the buttons
        browser.find_element(By.ID, "zoom-in").click()
        x, y, w, h = box()
        assert w == pytest.approx(W / 1.5, abs=0.01) and h == pytest.approx(H / 1.5, abs=0.01)
        assert (x, y) == pytest.approx(((W - w) / 2, (H - h) / 2), abs=0.01)     # about the middle
        assert level.text == "150%" and zoomed()
        assert browser.execute_script("return getComputedStyle(arguments[0]).transform", board()) == "none"
        browser.find_element(By.ID, "zoom-out").click()
        assert board().get_dom_attribute("viewBox") == whole and level.text == "100%" and not zoomed()
        browser.find_element(By.ID, "zoom-out").click()                         # no further than whole
        assert board().get_dom_attribute("viewBox") == whole
        # the wheel, over the map: in about the point under the pointer
        ActionChains(browser).scroll_from_origin(ScrollOrigin.from_element(board(), -200, -100), 0, -300).perform()
        x, y, w, h = box()
        assert w < W / 1.5 and x > 0 and zoomed()
        # a drag moves the map with the pointer (what was at the left comes into view)
        ActionChains(browser).move_to_element(board()).click_and_hold().move_by_offset(80, 40) \
            .release().perform()
        x2, y2, w2, _ = box()
        assert x2 < x and y2 < y and w2 == pytest.approx(w)
        # a finger's drag does the same
        r = browser.execute_script("var r=arguments[0].getBoundingClientRect();return [r.left,r.top,r.width,r.height]",
                                   board())
        cx, cy = r[0] + r[2] / 2, r[1] + r[3] / 2
        for kind, px in (("touchStart", cx), ("touchMove", cx + 60), ("touchMove", cx + 120), ("touchEnd", None)):
            points = [] if px is None else [{"x": px, "y": cy, "id": 1}]
            browser.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})
        x3, y3, _, _ = box()
        assert x3 < x2 and y3 == pytest.approx(y2)
        # the keyboard: + zooms in, Shift and an arrow move, the view stays from phase to phase
        body.send_keys("+")
        x4, y4, w4, h4 = box()
        assert w4 == pytest.approx(w2 / 1.5, abs=0.01)
        ActionChains(browser).key_down(Keys.SHIFT).send_keys(Keys.ARROW_RIGHT).key_up(Keys.SHIFT).perform()
        assert box()[0] == pytest.approx(x4 + 0.15 * w4, abs=0.01)
        kept = board().get_dom_attribute("viewBox")
        body.send_keys(Keys.ARROW_RIGHT)
        assert shown().get_attribute("data-name") == "F1901M" and board().get_dom_attribute("viewBox") == kept
        # a double click zooms in; 0, and the button, show the whole map again
        ActionChains(browser).double_click(board()).perform()
        assert box()[2] == pytest.approx(w4 / 2, abs=0.01)
        body.send_keys("0")
        assert board().get_dom_attribute("viewBox") == whole and not zoomed()
        body.send_keys("+")
        browser.find_element(By.ID, "zoom-reset").click()
        assert board().get_dom_attribute("viewBox") == whole and level.text == "100%"
        # the wheel out over the whole map scrolls the page, as it would without the map
        before = browser.execute_script("return window.scrollY")
        ActionChains(browser).scroll_from_origin(ScrollOrigin.from_element(board()), 0, 300).perform()
        WebDriverWait(browser, 5).until(lambda b: b.execute_script("return window.scrollY") > before)  # smooth
        assert board().get_dom_attribute("viewBox") == whole
        _no_errors(browser)
    finally:
        browser.quit()


def test_the_press_by_power_and_the_players_in_a_real_browser(tmp_path):
    """On the longest real record: the press shows one power's messages (those it sent or
    received, and those to every power) or all; a phase with press but none of the power's
    says so; the players and the result are shown, the hostile strings as text."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select
    record = hostile_record()
    browser = _open(tmp_path, game_html(record))
    try:
        body = browser.find_element(By.TAG_NAME, "body")
        shown = lambda: browser.find_element(By.CSS_SELECTOR, "section.phase:not([hidden])")  # noqa: E731
        messages = [[m for m in ph.messages] for ph in record.phases]

        def visible_rows() -> list[tuple[str, str, str]]:
            rows = browser.execute_script(
                "return Array.from(document.querySelectorAll('table.press tbody tr')).filter(function(r){"
                "return !r.hidden && !r.closest('table').hidden}).map(function(r){"
                "return [r.getAttribute('data-from'), r.getAttribute('data-to'), r.cells[2].textContent]})")
            return [tuple(r) for r in rows]

        every = visible_rows()
        assert len(every) == sum(map(len, messages)) == 474
        assert (HOSTILE_SENDER.upper(), "TURKEY", HOSTILE_TEXT) in every      # text, not markup
        pick = Select(browser.find_element(By.ID, "press-power"))
        for power in ("FRANCE", "TURKEY"):
            pick.select_by_value(power)
            rows = visible_rows()
            want = [(f.strip().upper(), t.strip().upper(), m) for ph in messages for f, t, m in ph
                    if power in (f.strip().upper(), t.strip().upper()) or t.strip().upper() == "GLOBAL"]
            assert rows == want and 0 < len(rows) < len(every)
        # Turkey's: the hostile message to it is there; a phase with press but none of Turkey's says so
        assert (HOSTILE_SENDER.upper(), "TURKEY", HOSTILE_TEXT) in rows
        quiet = next(i for i, ms in enumerate(messages)
                     if ms and not any("TURKEY" in (f.upper(), t.upper()) or t.upper() == "GLOBAL" for f, t, _ in ms))
        for _ in range(quiet):
            body.send_keys(Keys.ARROW_RIGHT)
        side = shown().find_element(By.CLASS_NAME, "side")
        assert not side.find_element(By.CSS_SELECTOR, "table.press").is_displayed()
        assert side.find_element(By.CLASS_NAME, "press-none").is_displayed()
        pick.select_by_value("")
        assert visible_rows() == every
        assert side.find_element(By.CSS_SELECTOR, "table.press").is_displayed()
        assert not side.find_element(By.CLASS_NAME, "press-none").is_displayed()
        # the players and the result; the hostile name shown as text, run nowhere
        ends = browser.find_elements(By.CSS_SELECTOR, "table.players tbody tr")
        assert [r.find_elements(By.TAG_NAME, "td")[1].text for r in ends][:2] == [HOSTILE_NAME, "unknown"]
        assert browser.title == "Game 001ce02c"
        assert browser.find_elements(By.CSS_SELECTOR, "table.press img, .game-end script") == []
        _no_errors(browser)
    finally:
        browser.quit()


def test_a_game_page_past_its_bound_is_refused_and_nothing_written(tmp_path, monkeypatch, capsys):
    """A page grows with the phases (about 40-70 kB each): a record past
    ``max_page_phases`` is refused, by `game_html` and by `view`, before any page is made."""
    import dipsolve
    from dipsolve.core.bounds import LIMITS
    record = Path(__file__).parent / "data" / "records" / "meta-game_443831_GERMANY_EI.json"
    game = dipsolve.load_record(str(record))
    monkeypatch.setitem(LIMITS, "max_page_phases", dataclasses.replace(LIMITS["max_page_phases"], value=10))
    with pytest.raises(dipsolve.DipsolveLimitError, match=f"a game of {len(game.phases)} phases: past the limit"):
        dipsolve.game_html(game)
    out = tmp_path / "game.html"
    assert main(["view", str(record), "-o", str(out)]) == 2
    assert "past the limit max_page_phases" in capsys.readouterr().err and not out.exists()
