"""Seat buttons tell names alike apart: the part of each name that no other name starts
with, and how many seats a line then takes.  What the buttons really show is read in
a browser: tests/browser/test_long_names.py."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scorer.present.seats import seat_columns, telling_part

NAME = st.text(alphabet="欧阳长风云AaBbm-", min_size=1, max_size=16)


@given(st.lists(NAME, min_size=2, max_size=4, unique=True))
def test_each_name_has_a_start_no_other_name_shares(names: list[str]) -> None:
    for name in names:
        part = telling_part(name, names)
        assert name.startswith(part)
        # Another name may begin with all of it only when it is the whole name.
        assert part == name or not any(o.startswith(part) for o in names if o != name)
    assert seat_columns(names) in (None, 2, 1)


def test_short_or_unlike_names_keep_four_seats_on_a_line() -> None:
    assert seat_columns(["大刘", "小王", "老张", "阿强"]) is None
    assert seat_columns(["欧阳长风", "欧阳长云", "欧阳明", "司马懿"]) is None  # 欧阳/长…
    assert seat_columns(["Alexander", "Alexandra", "Alex", "Bob"]) == 2
    assert (
        seat_columns(["欧阳长风慕容雪上官云飞司马懿然君", "欧阳长风慕容雪上官云飞司马懿然臣"]) == 1
    )
