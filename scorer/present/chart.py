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
from unicodedata import east_asian_width

# One color per seat, told apart by lightness too (and by the labels at the line ends).
# Neither green nor red: those say a gain and a loss (the totals), and a loser's line
# in green read as a winner's.
COLORS = ("#1f5fae", "#b7791f", "#7b3fa0", "#0e7c86", "#a8326e", "#5f5f5a")
# A total's colour by its sign, as the cards (site.css --pos, --neg) and final.svg.
SIGN_COLORS = {1: "#0b6e4f", 0: "#555555", -1: "#c0392b"}
WIDTH, HEIGHT, PAD_X, PAD_Y = 320, 150, 6, 10
# Players level at a point are drawn this far apart there (in viewBox units, about a
# pixel on a phone for each), side by side rather than one line hiding the other.
TIE_GAP = 3.0


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


_SIGN = {1: "+", 0: "", -1: "\u2212"}  # the minus sign the tallies print
_SIGN_CLASS = {1: "pos", 0: "zero", -1: "neg"}  # site.css
FONT = 10  # the end labels' size in the picture, in viewBox units
GAP = FONT * 1.5  # between two labels' middles: a CJK line box is ~1.45 em
MAX_LABEL_W = WIDTH // 2  # the labels never take more than half the picture


def _text_width(text: str) -> float:
    """A label's width at FONT, for laying it out without a browser: a wide
    (CJK) character is 1 em, another about 0.62 em (digits and Latin in the
    sans-serif fonts final.svg names), on the generous side."""
    return sum(FONT if east_asian_width(ch) in "WF" else FONT * 0.62 for ch in text)


def _fit(name: str, room: float) -> str:
    """The whole name if it fits in `room`, else as much as fits and "…"."""
    if _text_width(name) <= room:
        return name
    while name and _text_width(name + "…") > room:
        name = name[:-1]
    return name + "…"


def _spread(wanted: list[float], top: float, bottom: float) -> list[float]:
    """Label middles as near `wanted` (sorted) as can be, GAP apart, all within
    [top, bottom]: pushed down past the one above, then up from the bottom."""
    out: list[float] = []
    for w in wanted:
        out.append(max(w, top, out[-1] + GAP if out else top))
    for k in range(len(out) - 1, -1, -1):
        limit = bottom if k == len(out) - 1 else out[k + 1] - GAP
        out[k] = min(out[k], limit)
    return [max(v, top) for v in out]


def text_width(text: str, size: float) -> float:
    """A text's width at font size `size`, for laying it out without a browser: a wide
    (CJK) character is 1 em, another about 0.62 em (digits and Latin in the
    sans-serif fonts final.svg names), on the generous side."""
    return sum(size if east_asian_width(ch) in "WF" else size * 0.62 for ch in text)


def fit_text(text: str, room: float, size: float) -> str:
    """The whole text if it fits in `room` at `size`, else as much as fits and "…"."""
    if text_width(text, size) <= room:
        return text
    while text and text_width(text + "…", size) > room:
        text = text[:-1]
    return text + "…"


def side_by_side(ys: Sequence[Sequence[float]]) -> list[list[float]]:
    """Per seat, its line's heights with the players drawn level at a point (equal
    totals, or closer than TIE_GAP on the chart's scale) moved apart there: each
    such group is spread TIE_GAP apart around its middle, in the order of their
    totals (then of their seats), so no line hides another and a higher total is
    never drawn lower.  A player level with nobody stays where he is; no point
    moves by more than TIE_GAP * (players - 1) / 2."""
    out = [list(p) for p in ys]
    steps = max((len(p) for p in ys), default=0)
    for i in range(steps):
        order = sorted((p[i], seat) for seat, p in enumerate(ys) if i < len(p))
        groups: list[list[tuple[float, int]]] = []
        for y, seat in order:
            if groups and y - groups[-1][-1][0] < TIE_GAP:
                groups[-1].append((y, seat))
            else:
                groups.append([(y, seat)])
        for group in groups:
            if len(group) == 1:
                continue
            middle = sum(y for y, _ in group) / len(group)
            for k, (_, seat) in enumerate(group):
                out[seat][i] = middle + (k - (len(group) - 1) / 2) * TIE_GAP
    return out


def signed_total(total: int) -> str:
    """+12, −8, 0: the minus sign the cards print."""
    return f"{_SIGN[(total > 0) - (total < 0)]}{abs(total)}"


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
    ending close collided; the picture (final.svg, drawn 3x) keeps them, laid out
    here: every label inside the picture (three losers who tie push the others
    up, never above the top), the total whole at the right edge, the name as
    long as the room the widest label needs allows (up to half the picture)."""
    values = [v for s in series for v in s.points] or [0]
    lo, hi = min(min(values), 0), max(max(values), 0)
    if lo == hi:
        hi = lo + 1
    steps = max(max((len(s.points) for s in series), default=1) - 1, 1)
    totals = [s.points[-1] if s.points else 0 for s in series]
    label_w = 0.0
    if labels and series:
        widest = max(
            _text_width(f"{s.name} {signed_total(t)}") for s, t in zip(series, totals, strict=True)
        )
        label_w = min(widest + 6, MAX_LABEL_W)
    plot_w = WIDTH - 2 * PAD_X - label_w

    def x(i: int) -> float:
        return PAD_X + plot_w * i / steps

    def y(v: int) -> float:
        return PAD_Y + (HEIGHT - 2 * PAD_Y) * (hi - v) / (hi - lo)

    parts = [
        f'<svg class="chart" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'role="img" '
        f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
        f'<line class="chart-zero" x1="{PAD_X}" x2="{PAD_X + plot_w:.1f}" y1="{y(0):.1f}" '
        f'y2="{y(0):.1f}" stroke="#999" stroke-dasharray="3 3" stroke-width="1"/>',
    ]
    for m in marks:
        parts.append(
            f'<line class="chart-mark" x1="{x(m.step):.1f}" x2="{x(m.step):.1f}" y1="{PAD_Y}" '
            f'y2="{HEIGHT - PAD_Y}" stroke="#6b3fa0" stroke-dasharray="2 2" stroke-width="1">'
            f"<title>{escape(m.text)}</title></line>"
        )
    # Where players are level their lines run side by side, not one over the other.
    drawn = side_by_side([[y(v) for v in s.points] for s in series])
    # End labels, nudged apart so two players ending close stay readable.
    ends = sorted((y(t), i) for i, t in enumerate(totals))
    half = FONT / 2 + 1
    spread = _spread([yy for yy, _ in ends], half, HEIGHT - half)
    label_y = {i: v for (_, i), v in zip(ends, spread, strict=True)}
    for i, s in enumerate(series):
        color = COLORS[i % len(COLORS)]
        pts = " ".join(f"{x(k):.1f},{yy:.1f}" for k, yy in enumerate(drawn[i]))
        parts.append(
            f'<polyline class="chart-line" data-seat="{i}" fill="none" stroke="{color}" '
            f'stroke-width="2" stroke-linejoin="round" points="{pts}"/>'
        )
        if not labels:
            continue
        score = signed_total(totals[i])
        name = _fit(s.name, label_w - 6 - _text_width(" " + score) + 0.01)
        # The total in its sign's colour (a loss in red whatever the line's colour).
        sign = SIGN_COLORS[(totals[i] > 0) - (totals[i] < 0)]
        parts.append(
            f'<text class="chart-label" x="{PAD_X + plot_w + 4:.1f}" y="{label_y[i]:.1f}" '
            f'fill="{color}" font-size="{FONT}" dominant-baseline="middle">{escape(name)}</text>'
            f'<text class="chart-score" x="{WIDTH - 1}" y="{label_y[i]:.1f}" fill="{sign}" '
            f'font-size="{FONT}" font-weight="700" text-anchor="end" '
            f'dominant-baseline="middle">{score}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


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
        f'<b class="chart-total {_SIGN_CLASS[(total > 0) - (total < 0)]}">'
        f"{signed_total(total)}</b></li>"
        for total, i, name in rows
    ]
    return '<ul class="chart-legend">' + "".join(items) + "</ul>"


__all__ = [
    "Mark",
    "Series",
    "chart_legend",
    "fit_text",
    "line_chart",
    "running_totals",
    "signed_total",
    "side_by_side",
    "text_width",
]
