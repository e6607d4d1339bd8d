import pytest

from rules.errors import RuleError
from rules.tiles import parse_tile, parse_tiles, tile_en, tile_str, tile_zh, tiles_str


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("123m456p11z", [0, 1, 2, 12, 13, 14, 27, 27]),
        ("19m19p19s1234567z", [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]),
        ("1f8f", [34, 41]),
        ("", []),
        ("1 2 3m", [0, 1, 2]),
    ],
)
def test_compact_strings(text: str, expected: list[int]) -> None:
    assert parse_tiles(text) == expected


def test_round_trip_every_tile() -> None:
    for t in range(42):
        assert parse_tile(tile_str(t)) == t
        assert parse_tile(tile_zh(t)) == t
        assert parse_tiles(tiles_str([t, t])) == [t, t]


@pytest.mark.parametrize(
    ("zh", "code"),
    [
        ("一万", "1m"),
        ("九萬", "9m"),
        ("五筒", "5p"),
        ("五饼", "5p"),
        ("三条", "3s"),
        ("三索", "3s"),
        ("东", "1z"),
        ("東", "1z"),
        ("北", "4z"),
        ("白", "5z"),
        ("白板", "5z"),
        ("发", "6z"),
        ("發", "6z"),
        ("中", "7z"),
        ("红中", "7z"),
        ("春", "1f"),
        ("菊", "8f"),
    ],
)
def test_chinese_names(zh: str, code: str) -> None:
    assert tile_str(parse_tile(zh)) == code


def test_chinese_list_and_names_back() -> None:
    assert tiles_str(parse_tiles("一万 二万、三万，中")) == "123m7z"
    assert [tile_zh(t) for t in parse_tiles("159m5z")] == ["一万", "五万", "九万", "白"]
    assert tile_en(31) == "White" and tile_en(4) == "5 Characters"


@pytest.mark.parametrize("bad", ["8z", "0m", "9f", "x", "12", "123q", "1m2", 5, None, ["1m", 3]])
def test_bad_tiles(bad: object) -> None:
    with pytest.raises(RuleError) as e:
        if isinstance(bad, list) or not isinstance(bad, str) or len(bad) > 2 or bad in ("x", "12"):
            parse_tiles(bad)
        else:
            parse_tile(bad)
    assert e.value.code == "bad_tile"
    assert e.value.message and e.value.message_zh


def test_5z_is_white_and_7z_is_red() -> None:
    """The spec warns that some software swaps these; here 5z is always 白."""
    assert tile_zh(parse_tile("5z")) == "白"
    assert tile_zh(parse_tile("7z")) == "中"
