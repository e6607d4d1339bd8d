"""The running-totals chart on generated tables: one line per player, a point per
round (and the start), each point's height the player's running total on one scale."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.present.chart import (
    COLORS,
    SIGN_COLORS,
    TIE_GAP,
    Series,
    chart_legend,
    line_chart,
    running_totals,
)

deltas_st = st.integers(2, 4).flatmap(
    lambda n: st.lists(
        st.lists(st.integers(-50, 50), min_size=n - 1, max_size=n - 1).map(lambda d: [*d, -sum(d)]),
        min_size=0, max_size=30,
    )
)  # fmt: skip


@given(deltas_st)
@settings(max_examples=150, deadline=None)
def test_lines_follow_the_running_totals(deltas: list[list[int]]) -> None:
    n = len(deltas[0]) if deltas else 4
    totals = running_totals(deltas, n)
    for seat in range(n):
        want = 0
        for k, d in enumerate(deltas, start=1):
            want += d[seat]
            assert totals[seat][k] == want
    svg = line_chart([Series(f"<p{i}>", t) for i, t in enumerate(totals)], "走势 & <x>")
    assert "<p0>" not in svg and "&lt;p0&gt;" in svg and "&amp; &lt;x&gt;" in svg
    lines = re.findall(r'data-seat="(\d+)"[^>]*points="([^"]*)"', svg)
    assert [int(s) for s, _ in lines] == list(range(n))
    zero = float(re.search(r'class="chart-zero"[^>]*y1="([-\d.]+)"', svg).group(1))  # type: ignore[union-attr]
    pairs = []
    for seat, pts in lines:
        ys = [float(p.split(",")[1]) for p in pts.split()]
        assert len(ys) == len(deltas) + 1
        pairs += list(zip(totals[int(seat)], ys, strict=True))
    # One scale: a higher total is drawn higher (smaller y), zero on the zero line;
    # players level at a point are moved apart there, by at most half their spread.
    slack = TIE_GAP * (n - 1) / 2 + 0.11
    for v, y in pairs:
        if v == 0:
            assert abs(y - zero) < slack
    for v1, y1 in pairs:
        for v2, y2 in pairs[:40]:
            if v1 > v2:
                assert y1 < y2 + 2 * slack


def _labels(svg: str) -> list[tuple[str, float, str]]:
    """(name, y, score) of each end label of the picture."""
    names = re.findall(r'class="chart-label"[^>]*y="([-\d.]+)"[^>]*>([^<]*)</text>', svg)
    scores = re.findall(r'class="chart-score"[^>]*>([^<]*)</text>', svg)
    return [(n, float(y), s) for (y, n), s in zip(names, scores, strict=True)]


def test_the_leaders_label_stays_inside_when_the_three_losers_tie() -> None:
    """A first round won by self-draw: three equal losers push their labels down,
    and the column used to be moved up as a whole, the leader's above the top."""
    svg = line_chart([Series("甲", (0, 24)), *(Series(n, (0, -8)) for n in "乙丙丁")], "t")
    labels = _labels(svg)
    assert [(n, s) for n, _, s in labels] == [
        ("甲", "+24"),
        ("乙", "−8"),
        ("丙", "−8"),
        ("丁", "−8"),
    ]
    ys = [y for _, y, _ in labels]
    assert all(5 <= y <= 150 - 5 for y in ys), ys
    assert sorted(ys) == ys and all(b - a >= 10 for a, b in zip(ys, ys[1:], strict=False)), ys


def test_a_long_name_is_whole_and_the_score_never_falls_off_the_right_edge() -> None:
    names = ["欧阳娜娜娜娜娜", "Alexander", "司马", "诸葛"]
    svg = line_chart(
        [Series(n, (0, t)) for n, t in zip(names, (-1350, 450, 450, 450), strict=True)], "t"
    )
    labels = _labels(svg)
    assert [n for n, _, _ in labels] == names  # not cut to 6 characters
    assert labels[0][2] == "−1350"  # the cards' minus, whole
    # The score is anchored at the right edge, inside the 320-wide picture.
    assert re.findall(r'class="chart-score" x="([\d.]+)"[^>]*text-anchor="end"', svg) == ["319"] * 4


@given(st.lists(st.tuples(st.text(min_size=1, max_size=30), st.integers(-99999, 99999)),
                min_size=2, max_size=6))  # fmt: skip
@settings(max_examples=100, deadline=None)
def test_every_label_fits_the_picture(ends: list[tuple[str, int]]) -> None:
    svg = line_chart([Series(n, (0, t)) for n, t in ends], "t")
    labels = _labels(svg)
    ys = sorted(y for _, y, _ in labels)
    assert all(5 <= y <= 145 for y in ys) and all(
        b - a >= 10 for a, b in zip(ys, ys[1:], strict=False)
    )
    xs = [float(x) for x in re.findall(r'class="chart-label" x="([\d.]+)"', svg)]
    assert all(x >= 160 - 12 for x in xs)  # the labels take at most half the picture


def _lines(svg: str) -> dict[int, list[float]]:
    """Each seat's line: the y of its points."""
    return {
        int(seat): [float(p.split(",")[1]) for p in pts.split()]
        for seat, pts in re.findall(r'data-seat="(\d+)"[^>]*points="([^"]*)"', svg)
    }


def test_players_level_are_drawn_side_by_side_not_one_over_the_other() -> None:
    # 乙 and 丙 lose the same every round: one line hid the other.  丁 is level with
    # them only at the start, 甲 only at the start.
    deltas = [[24, -8, -8, -8], [12, -4, -4, -4], [-30, 5, 5, 20]]
    totals = running_totals(deltas, 4)
    assert totals[1] == totals[2]
    ys = _lines(line_chart([Series(n, t) for n, t in zip("甲乙丙丁", totals, strict=True)], "t"))
    # Apart at every point, by the gap, 乙 (the lower seat) above 丙.
    assert all(b - a >= TIE_GAP - 0.11 for a, b in zip(ys[1], ys[2], strict=True))
    # At the start all four are level (0): four lines a gap apart, none on another.
    starts = sorted(line[0] for line in ys.values())
    assert all(b - a >= TIE_GAP - 0.11 for a, b in zip(starts, starts[1:], strict=False))
    # Totals far apart are drawn where they are: 甲 leads by 36 after round 2.
    alone = _lines(
        line_chart([Series(n, t) for n, t in zip("甲丁", totals[::3], strict=True)], "t")
    )
    assert abs(alone[0][2] - ys[0][2]) < 0.11


def test_players_near_level_keep_their_order() -> None:
    # 1 point apart on a scale of 100000: drawn apart, the higher one higher.
    ys = _lines(line_chart([Series("甲", (0, 100000)), Series("乙", (0, 1)),
                            Series("丙", (0, 2))], "t"))  # fmt: skip
    assert ys[2][1] <= ys[1][1] - TIE_GAP + 0.11


def test_a_total_is_drawn_in_its_signs_colour_never_in_a_green_or_red_line() -> None:
    # Seat 0's line was green: a loss of 472 was drawn in green in the saved picture.
    svg = line_chart([Series("甲", (0, -472)), Series("乙", (0, 472)), Series("丙", (0, 0))], "t")
    fills = re.findall(r'class="chart-score"[^>]*fill="([^"]+)"[^>]*>([^<]*)<', svg)
    assert fills == [(SIGN_COLORS[-1], "−472"), (SIGN_COLORS[1], "+472"), (SIGN_COLORS[0], "0")]
    # No line in the colour of a gain or a loss.
    assert not set(COLORS) & {"#0b6e4f", "#0b7a3b", "#c0392b", "#c0262d"}
    legend = chart_legend([Series("甲", (0, -472)), Series("乙", (0, 472))])
    assert '<b class="chart-total neg">−472</b>' in legend
    assert '<b class="chart-total pos">+472</b>' in legend
