"""Each player's running total over the rounds, as a small inline SVG.

Drawn on the server so the page needs no chart script and no CDN: one polyline
per player over a zero line, scaled to its own viewBox so it fits a 360-px
phone at any width.  A chart library (pygal) would bring its own script and
style for what is a few lines here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

# One color per seat, told apart by lightness too (and by the labels at the line ends).
COLORS = ("#0b6e4f", "#c0392b", "#1f5fae", "#b7791f", "#6b3fa0", "#4a5568")
WIDTH, HEIGHT, PAD_X, PAD_Y, LABEL_W = 320, 150, 6, 10, 58


@dataclass(frozen=True)
class Series:
    name: str
    points: tuple[int, ...]  # the running total after each round, 0 before the first


def running_totals(deltas: Sequence[Sequence[int]], players: int) -> list[tuple[int, ...]]:
    """Per seat: 0, then the total after each round's deltas."""
    out = [[0] for _ in range(players)]
    for d in deltas:
        for seat in range(players):
            out[seat].append(out[seat][-1] + int(d[seat]))
    return [tuple(s) for s in out]


@dataclass(frozen=True)
class Mark:
    """A step of the chart that is no hand (an adjustment, a penalty): drawn as a dashed
    upright line with its words, so a jump there reads as what it was."""

    step: int  # the point after it (1 for the first round)
    text: str


def line_chart(
    series: Sequence[Series], title: str, *, labels: bool = True, marks: Sequence[Mark] = ()
) -> str:
    """The SVG markup (safe to mark safe: every text is escaped here).

    ``labels=False`` for a page: the names and totals go in ``chart_legend``'s HTML
    list under it instead. Text inside the SVG is scaled with the chart's width, so
    on a 360-px phone it was 10 px, ignored the large-text mode, and two players
    ending close collided; the picture (final.svg, drawn 3x) keeps them."""
    values = [v for s in series for v in s.points] or [0]
    lo, hi = min(min(values), 0), max(max(values), 0)
    if lo == hi:
        hi = lo + 1
    steps = max(max((len(s.points) for s in series), default=1) - 1, 1)
    plot_w = WIDTH - 2 * PAD_X - (LABEL_W if labels else 0)

    def x(i: int) -> float:
        return PAD_X + plot_w * i / steps

    def y(v: int) -> float:
        return PAD_Y + (HEIGHT - 2 * PAD_Y) * (hi - v) / (hi - lo)

    parts = [
        f'<svg class="chart" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'role="img" '
        f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
        f'<line class="chart-zero" x1="{PAD_X}" x2="{PAD_X + plot_w}" y1="{y(0):.1f}" '
        f'y2="{y(0):.1f}" stroke="#999" stroke-dasharray="3 3" stroke-width="1"/>',
    ]
    for m in marks:
        parts.append(
            f'<line class="chart-mark" x1="{x(m.step):.1f}" x2="{x(m.step):.1f}" y1="{PAD_Y}" '
            f'y2="{HEIGHT - PAD_Y}" stroke="#6b3fa0" stroke-dasharray="2 2" stroke-width="1">'
            f"<title>{escape(m.text)}</title></line>"
        )
    # End labels, nudged apart so two players ending close stay readable.
    ends = sorted(
        ((y(s.points[-1]) if s.points else y(0), i) for i, s in enumerate(series)),
        key=lambda t: t[0],
    )
    label_y: dict[int, float] = {}
    last = -100.0
    for yy, i in ends:
        yy = max(yy, last + 11)
        label_y[i] = yy
        last = yy
    overflow = last - (HEIGHT - 4)
    if overflow > 0:  # pushed off the bottom: move the whole column up
        label_y = {i: v - overflow for i, v in label_y.items()}
    for i, s in enumerate(series):
        color = COLORS[i % len(COLORS)]
        pts = " ".join(f"{x(k):.1f},{y(v):.1f}" for k, v in enumerate(s.points))
        parts.append(
            f'<polyline class="chart-line" data-seat="{i}" fill="none" stroke="{color}" '
            f'stroke-width="2" stroke-linejoin="round" points="{pts}"/>'
        )
        total = s.points[-1] if s.points else 0
        if not labels:
            continue
        parts.append(
            f'<text x="{PAD_X + plot_w + 4}" y="{label_y[i]:.1f}" fill="{color}" '
            f'font-size="10" dominant-baseline="middle">{escape(s.name[:6])} '
            f"{'+' if total > 0 else ''}{total}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


_SIGN = {1: "+", 0: "", -1: "\u2212"}  # the minus sign the tallies print


def chart_legend(series: Sequence[Series]) -> str:
    """The chart's key as HTML, highest total first: each player's line colour (a
    swatch, site.css's chart-key-<seat>), whole name and total, in the page's text
    size and colour, so it is legible in both colour schemes and scales with the
    large-text mode."""
    rows = sorted(
        ((s.points[-1] if s.points else 0, i, s.name) for i, s in enumerate(series)),
        key=lambda t: (-t[0], t[1]),
    )
    items = [
        f'<li><span class="chart-key chart-key-{i % len(COLORS)}" aria-hidden="true"></span>'
        f'<span class="chart-name">{escape(name)}</span> '
        f'<b class="chart-total">{_SIGN[(total > 0) - (total < 0)]}{abs(total)}</b></li>'
        for total, i, name in rows
    ]
    return '<ul class="chart-legend">' + "".join(items) + "</ul>"


__all__ = ["Mark", "Series", "chart_legend", "line_chart", "running_totals"]
