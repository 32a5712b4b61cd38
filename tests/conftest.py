"""The test suite's shared set-up: the slow tests, the engine loaded first, the
Hypothesis profiles.

``python -m pytest`` (the README's test command; ``-n auto --dist loadgroup`` in
pyproject.toml's addopts: every core) runs every test but those marked ``slow``: the long
differentials, the tests that start whole ``dipsolve`` processes and signal them, the
real browser, Ray, the DAIDE server, the cold compile.  ``--all`` runs those too (what CI
runs); ``-m slow`` runs only them; ``-n 0`` runs in one process.

``python -m pytest`` runs every property and fuzz test with the few examples written on
it (the whole suite stays within a few minutes).  The deep fuzz run is

    python -m pytest tests/test_fuzz_readers.py tests/test_fuzz_cli.py --hypothesis-profile=long

whose tests (those that leave their number of examples to the profile: the fuzz tests)
try ``LONG_EXAMPLES`` inputs each; see CONTRIBUTING.md.
"""

from __future__ import annotations

import os
from datetime import timedelta

from hypothesis import HealthCheck, settings


def pytest_addoption(parser) -> None:
    parser.addoption("--all", action="store_true", default=False,
                     help="run the tests marked slow too (what CI runs)")


def pytest_collection_modifyitems(config, items) -> None:
    """Leave out the tests marked ``slow`` unless ``--all`` is given or ``-m`` chooses."""
    if config.getoption("--all") or config.getoption("markexpr"):
        return
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if item.get_closest_marker("slow") is None]


def pytest_sessionstart(session) -> None:
    """The rules engine is compiled (numba, when installed) or loaded from its cache
    before any test runs: on a fresh clone compiling takes 15 to 30 s, which must not
    fall inside a test that checks a solver's time limit."""
    from dipsolve.core import kernel

    kernel.load()

#: examples a fuzz test tries under ``--hypothesis-profile=long`` (``DIPSOLVE_LONG_EXAMPLES``
#: sets another count, for a shorter deep run on a busy machine: record it with the run)
LONG_EXAMPLES = int(os.environ.get("DIPSOLVE_LONG_EXAMPLES", "20000"))

settings.register_profile(
    "long", max_examples=LONG_EXAMPLES, deadline=timedelta(seconds=10),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.filter_too_much], print_blob=True)
