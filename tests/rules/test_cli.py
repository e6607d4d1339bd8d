"""`python -m rules score|waits` as the spec describes: JSON lines in, same order out."""

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.support.cli import run

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "spec"
ROOT = Path(__file__).resolve().parents[2]


def test_score_lines_in_order_with_a_bad_line() -> None:
    lines = (FIXTURES / "generic-wild.jsonl").read_text(encoding="utf-8").splitlines()[:5]
    stdin = "\n".join(
        [lines[0], "{not json", lines[1], '{"id": "x", "concealed": "9z"}', *lines[2:]]
    )
    p = run("score", "--ruleset", "generic", stdin=stdin + "\n")
    assert p.returncode == 0, p.stderr
    out = [json.loads(x) for x in p.stdout.splitlines()]
    assert len(out) == 7
    expected_ids = [json.loads(lines[0])["id"], None, json.loads(lines[1])["id"], "x"]
    expected_ids += [json.loads(x)["id"] for x in lines[2:]]
    assert [r["id"] for r in out] == expected_ids
    assert out[1]["error"]["code"] == "bad_input"
    assert out[3]["error"]["code"] == "bad_tile"
    for r, line in zip([out[0], out[2], *out[4:]], lines, strict=True):
        assert r["ok"] and r["win"] is json.loads(line)["expected"]["win"]


def test_waits_command() -> None:
    lines = (FIXTURES / "generic-wild.jsonl").read_text(encoding="utf-8").splitlines()
    p = run("waits", "--ruleset", "generic", stdin="\n".join(lines) + "\n")
    assert p.returncode == 0, p.stderr
    out = [json.loads(x) for x in p.stdout.splitlines()]
    assert [r["waits"] for r in out] == [json.loads(x)["expected"]["waits"] for x in lines]
    assert all(set(r) == {"id", "ok", "ruleset", "waits"} for r in out)


def test_ruleset_from_each_line_when_no_flag() -> None:
    p = run(
        "score",
        stdin='{"ruleset": "generic", "concealed": "123m456p789s1122z", "win_tile": "2z"}\n',
    )
    assert json.loads(p.stdout)["win"] is True


def test_rulesets_listing() -> None:
    p = run("rulesets", stdin="")
    listing = json.loads(p.stdout)
    generic = next(r for r in listing if r["id"] == "generic")
    assert generic["params"][0]["name"] == "seven_pairs"
    assert generic["params"][0]["default"] is True


def test_non_finite_numbers_and_lone_surrogates_are_bad_lines() -> None:
    """NaN, infinities and lone surrogates are bad lines, never read and echoed (`"id":
    NaN` is what strict JSON readers refuse)."""
    good = '{"id": "ok", "concealed": "123m456p789s1122z", "win_tile": "2z"}'
    bad = ['{"id": NaN}', '{"id": Infinity}', '{"id": 1e400}', '{"id": "\\ud800"}']
    p = run("score", "--ruleset", "generic", stdin="\n".join([*bad, good]) + "\n")
    assert p.returncode == 0, p.stderr

    def refuse(name: str) -> None:
        raise AssertionError(f"{name} in the output")

    out = [json.loads(x, parse_constant=refuse) for x in p.stdout.splitlines()]
    assert [r["error"]["code"] for r in out[:4]] == ["bad_input"] * 4
    assert all(r["id"] is None and r["error"]["message_zh"] for r in out[:4])
    assert out[4]["ok"] is True and out[4]["id"] == "ok"


def test_a_line_that_is_not_text_is_a_bad_line() -> None:
    """Bytes that are not UTF-8 on one line: an error result for that line, the batch goes on."""
    good = b'{"id": "ok", "concealed": "123m456p789s1122z", "win_tile": "2z"}'
    p = subprocess.run(
        [sys.executable, "-m", "rules", "score", "--ruleset", "generic"],
        input=b'{"id": "\xff\xfe"}\n' + good + b"\n",
        capture_output=True,
        # Stdin read strictly, as under a user's en_US.UTF-8 or zh_CN.UTF-8 locale (the C
        # locales of this machine escape the bytes instead).
        env={**os.environ, "PYTHONIOENCODING": "utf-8:strict"},
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert p.returncode == 0, p.stderr.decode()
    out = [json.loads(x) for x in p.stdout.decode("utf-8").splitlines()]
    assert out[0]["ok"] is False and out[0]["error"]["code"] == "bad_input"
    assert out[0]["error"]["message_zh"].startswith("第 1 行")
    assert out[1]["ok"] is True and out[1]["id"] == "ok"


def test_win_lines_say_scores_win() -> None:
    """`python -m rules win`: is_win's answer per line, the win the spec fixtures expect."""
    lines = (FIXTURES / "generic-wild.jsonl").read_text(encoding="utf-8").splitlines()[:8]
    p = run("win", "--ruleset", "generic", stdin="\n".join([*lines, "{not json"]) + "\n")
    assert p.returncode == 0, p.stderr
    out = [json.loads(x) for x in p.stdout.splitlines()]
    assert len(out) == len(lines) + 1
    for r, line in zip(out, lines, strict=False):
        sit = json.loads(line)
        assert r == {
            "id": sit["id"],
            "ok": True,
            "ruleset": "generic",
            "win": sit["expected"]["win"],
        }
    assert out[-1]["error"]["code"] == "bad_input"
