"""No import circle among dipsolve's modules: no two modules import each other, directly or
round a longer loop (what both need lives below both).  The only imports allowed to go up
are the core's lazy ones that pyproject's first layering contract lists in
``ignore_imports`` (the notebook hooks and ``Position.from_text``); every other import
counts, lazy ones inside functions too.  The folder rules themselves are the
``[tool.importlinter]`` contracts, run by ``.ci/layering``."""

from __future__ import annotations

import graphlib
import json
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# the import graph as grimp reads it (grimp comes with import-linter), over a tree of links
# that gives the package its import names (as .ci/layering does: grimp cannot follow the
# editable install's package-dir mapping)
_GRAPH = """
import json, grimp
g = grimp.build_graph("dipsolve")
print(json.dumps({m: sorted(g.find_modules_directly_imported_by(m)) for m in g.modules}))
"""


def circle(edges: dict[str, list[str]]) -> list[str]:
    """One import circle of ``edges`` (module -> the modules it imports), as the modules
    round it with the first repeated at the end; empty when there is none."""
    try:
        graphlib.TopologicalSorter(edges).prepare()
    except graphlib.CycleError as e:
        return list(e.args[1])
    return []


def test_the_circle_finder_finds_circles():
    assert sorted(set(circle({"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]}))) == ["a", "b", "c"]
    assert len(circle({"a": ["b"], "b": ["a"], "c": []})) == 3
    assert circle({"a": ["b", "c"], "b": ["c"], "c": []}) == []


def allowed_upward() -> set[tuple[str, str]]:
    """The core's lazy upward imports: the first contract's ``ignore_imports``."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    first = config["tool"]["importlinter"]["contracts"][0]
    assert first["source_modules"] == ["dipsolve.core"]
    pairs = set()
    for line in first["ignore_imports"]:
        importer, imported = (s.strip() for s in line.split("->"))
        pairs.add((importer, imported))
    return pairs


def test_no_import_circle_among_dipsolves_modules(tmp_path):
    tree = tmp_path / "dipsolve"
    tree.mkdir()
    for f in (ROOT / "solver").iterdir():
        (tree / f.name).symlink_to(f)
    (tree / "grammar").symlink_to(ROOT / "grammar")
    (tree / "models").symlink_to(ROOT / "models")
    proc = subprocess.run([sys.executable, "-c", _GRAPH], cwd=tmp_path, capture_output=True, text=True,
                          env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"}, check=True)
    graph = json.loads(proc.stdout)
    assert "dipsolve.core.adjudicator" in graph and "dipsolve.cli.main" in graph
    upward = allowed_upward()
    assert upward and all(b in graph.get(a, ()) for a, b in upward), "an allowed import is gone: drop it"
    edges = {m: [i for i in imported if (m, i) not in upward] for m, imported in graph.items()}
    assert circle(edges) == []
