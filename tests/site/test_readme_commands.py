"""What a newcomer running the two commands of the README meets.

`make run` keeps its terminal (the server runs in the foreground): the README says
to use a second one for `make test`.  `make test` spreads the suite over the
machine's cores (pytest-xdist: `-n auto`, or WORKERS) and lists the slowest tests
at the end.  Checked by asking make what it would run (`make -n`), not by running
it (that would install the package)."""

from __future__ import annotations

import os
import re
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


def outside_make() -> dict[str, str]:
    """The environment as a newcomer's shell has it: under `make test WORKERS=0` (CI)
    make hands its variables down through MAKEFLAGS, and `make -n` would print those."""
    drop = {"MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "WORKERS"}
    return {k: v for k, v in os.environ.items() if k not in drop}


@pytest.mark.skipif(shutil.which("make") is None, reason="GNU make is not installed")
def test_make_test_spreads_over_the_cores_and_lists_the_slowest_tests() -> None:
    def pytest_line(*args: str) -> str:
        out = subprocess.run(
            ["make", "-n", "--no-print-directory", "test", "ARGS=tests/x", *args],
            cwd=ROOT, capture_output=True, text=True, check=True, env=outside_make(),
        ).stdout  # fmt: skip
        return next(ln for ln in out.splitlines() if "-m pytest" in ln)

    line = pytest_line()
    assert "--verbosity=0" in line and "--durations=" in line and line.rstrip().find("tests/x") > 0
    assert " -n auto " in line  # one worker per core
    assert " -n 0 " in pytest_line("WORKERS=0")  # or as many as asked, 0: this process
    # Bytecode kept between runs, whatever the shell says (the Makefile says why).
    assert re.search(r"\bPYTHONDONTWRITEBYTECODE= \S+ -m pytest ", line), line
