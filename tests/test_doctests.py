"""Every example in the docs and the docstrings runs: the modules' doctests, and the
``>>>`` examples of README.md and docs/*.md (docs/api.md shows the whole public API)."""

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import dipsolve

ROOT = Path(__file__).resolve().parent.parent
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _modules() -> list[str]:
    names = ["dipsolve"]
    for info in pkgutil.walk_packages(dipsolve.__path__, "dipsolve."):
        if not info.name.endswith("__main__"):         # running it is `python -m`'s job
            names.append(info.name)
    return sorted(names)


def _has_examples(name: str) -> bool:
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder()
    return any(t.examples for t in finder.find(module))


MODULES = [m for m in _modules() if _has_examples(m)]
PAGES = sorted(p.relative_to(ROOT).as_posix() for p in [ROOT / "README.md", *ROOT.glob("docs/*.md")]
               if ">>>" in p.read_text(encoding="utf-8"))


def test_the_public_modules_have_examples():
    assert "dipsolve" in MODULES and "dipsolve.core.errors" in MODULES and "dipsolve.core.results" in MODULES
    assert "docs/api.md" in PAGES


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=FLAGS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


@pytest.mark.parametrize("page", PAGES)
def test_page_doctests(page, monkeypatch):
    monkeypatch.chdir(ROOT)              # pages name files relative to the checkout
    result = doctest.testfile(str(ROOT / page), module_relative=False, optionflags=FLAGS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {page}"


def test_pages_import_from_dipsolve_only():
    """The docs import from ``dipsolve`` only, never a submodule."""
    offenders = []
    for page in [ROOT / "README.md", *ROOT.glob("docs/*.md")]:
        for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            text = line.lstrip("> .").strip()
            if text.startswith(("from dipsolve.", "import dipsolve.")):
                offenders.append(f"{page.relative_to(ROOT)}:{n}: {text}")
    assert not offenders, "\n".join(offenders)
