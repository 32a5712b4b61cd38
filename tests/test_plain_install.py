"""What the README's plain install (``pip install -e .``, no test extra) meets: the
parts that need the test extra say what to install, in one line, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_example_after_a_plain_install_says_what_to_install(tmp_path):
    """README's plain install (no test extra) has no ``diplomacy`` package: the example
    says what to install in one line, exit status 2, never a traceback.  The package is
    hidden from a fresh interpreter by a stand-in that fails to import, as a missing one
    does."""
    hidden = tmp_path / "hidden"
    for name in ("diplomacy", "tornado"):
        (hidden / name).mkdir(parents=True)
        (hidden / name / "__init__.py").write_text(
            f'raise ImportError("No module named {name!r} (hidden by the test)")\n')
    env = {**os.environ, "PYTHONPATH": str(hidden)}
    out = subprocess.run([sys.executable, str(ROOT / "examples" / "daide_game.py"),
                          "--out", str(tmp_path / "game.json")],
                         capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr and out.stdout == ""
    assert out.stderr.count("\n") == 1
    assert "daide_game.py: the DAIDE server is the diplomacy package's, which is not installed" in out.stderr
    assert "pip install -e '.[test]'" in out.stderr
    assert not (tmp_path / "game.json").exists()
