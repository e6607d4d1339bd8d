"""Issue 27, item 14: what a newcomer running the two commands of the README meets.

`make run` keeps its terminal (the server runs in the foreground): the README
says to use a second one for `make test`.  `make test` took six minutes of bare
dots: it now names each test file on its line of dots and lists the slowest
tests at the end.  Checked by asking make what it would run (`make -n`), not by
running it (that would install the package)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_says_make_run_blocks_and_make_test_goes_in_a_second_terminal() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    head = readme[: readme.index("Both are safe to repeat")]
    assert "blocks the terminal" in head and "second one for `make test`" in head
    assert "--durations" in head


@pytest.mark.skipif(shutil.which("make") is None, reason="GNU make is not installed")
def test_make_test_shows_progress_per_file_and_the_slowest_tests() -> None:
    out = subprocess.run(
        ["make", "-n", "--no-print-directory", "test", "ARGS=tests/x"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    line = next(ln for ln in out.splitlines() if "-m pytest" in ln)
    assert "--verbosity=0" in line and "--durations=" in line and line.rstrip().find("tests/x") > 0
