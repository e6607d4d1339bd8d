"""The running-totals chart on generated tables: one line per player, a point per
round (and the start), each point's height the player's running total on one scale."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.present.chart import Series, line_chart, running_totals

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
    # One scale: a higher total is drawn higher (smaller y), zero on the zero line.
    for v, y in pairs:
        if v == 0:
            assert abs(y - zero) < 0.11
    for v1, y1 in pairs:
        for v2, y2 in pairs[:40]:
            if v1 > v2:
                assert y1 < y2 + 0.11
