"""The one cleaner of free text (scorer/clean/text.py), on its own: what it refuses, what it
keeps, one length per kind used by every door, and its words in both languages."""

from __future__ import annotations

import unicodedata

import pytest
from django import forms
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from scorer.clean import text
from scorer.clean.table_schema import SCHEMA
from scorer.forms.room import ConfigForm, DisplayNameForm, NewConfigForm, RoomNameForm, SignUpForm
from scorer.forms.start import StartForm
from scorer.forms.tables import AddTablesForm, TableForm
from scorer.models import RoundRevision, SessionChange
from scorer.models.players import Player
from scorer.models.rooms import RoomConfig, RoomMember, RoomTable
from tests.factories import make_room

REFUSED_CATEGORIES = {"Cc", "Cf", "Zl", "Zp", "Cs"}
INVISIBLE = ["\x00", "\x01", "\x1f", "\x7f", "\x85", "\u200b", "\u200d", "\u200e", "\u200f",
             "\u202a", "\u202e", "\u2066", "\u2069", "\ufeff", "\u2028", "\u00ad"]  # fmt: skip


@pytest.mark.parametrize("kind", list(text.KINDS.values()), ids=list(text.KINDS))
@pytest.mark.parametrize("c", INVISIBLE, ids=[f"U+{ord(c):04X}" for c in INVISIBLE])
def test_no_kind_takes_an_invisible_character(kind: text.TextKind, c: str) -> None:
    for raw in (c, f"老{c}王", f"老王{c}", f"{c}老王"):
        with pytest.raises(text.TextRefused) as refused:
            text.clean_text(kind, raw)
        assert f"U+{ord(c):04X}" in refused.value.message


@pytest.mark.parametrize("kind", list(text.KINDS.values()), ids=list(text.KINDS))
def test_each_kind_takes_its_length_and_not_one_more(kind: text.TextKind) -> None:
    longest = "好" * kind.max_length
    assert text.clean_text(kind, f"  {longest} ") == longest
    with pytest.raises(text.TextRefused) as refused:
        text.clean_text(kind, longest + "好")
    assert refused.value.code == "too_long"


def test_a_note_has_lines_and_nothing_else_does() -> None:
    assert text.clean_text(text.NOTE, "第一行\r\n第二行\r第三行\n") == "第一行\n第二行\n第三行"
    for kind in text.KINDS.values():
        if kind is not text.NOTE:
            with pytest.raises(text.TextRefused):
                text.clean_text(kind, "第一行\n第二行")
    with pytest.raises(text.TextRefused):
        text.clean_text(text.NOTE, "第一行\t第二行")


def test_a_name_is_stored_composed() -> None:
    # "é" typed as e and a combining accent is the "é" of a name already there.
    assert text.clean_text(text.PLAYER_NAME, "Rene\u0301") == "Ren\u00e9"


# Printable, and nothing that shows as nothing (Default_Ignorable_Code_Point, U+2800).
_printable = st.text(
    alphabet=st.characters(blacklist_categories=["Cc", "Cf", "Zl", "Zp", "Cs"]).filter(
        lambda c: not text.invisible(c)
    ),
    max_size=30,
)


@given(st.text(max_size=40), st.sampled_from(list(text.KINDS.values())))
def test_what_the_cleaner_gives_holds_nothing_it_refuses(raw: str, kind: text.TextKind) -> None:
    try:
        cleaned = text.clean_text(kind, raw)
    except text.TextRefused:
        return
    assert len(cleaned) <= kind.max_length
    assert cleaned == cleaned.strip() == unicodedata.normalize("NFC", cleaned)
    for c in cleaned:
        # A joiner is kept between two emoji only (tests/scorer/test_unicode_tables.py).
        kept = (kind.newlines and c == "\n") or c == "\u200d"
        assert unicodedata.category(c) not in REFUSED_CATEGORIES or kept
        assert not text.invisible(c) or c in "\ufe0e\ufe0f\u200d"


@given(_printable)
def test_printable_text_within_its_length_is_kept(raw: str) -> None:
    kind = text.NOTE
    expected = unicodedata.normalize("NFC", raw).strip()
    if len(expected) <= kind.max_length:
        assert text.clean_text(kind, raw) == expected


def test_the_refusal_is_said_in_both_languages() -> None:
    with pytest.raises(text.TextRefused) as refused:
        text.clean_text(text.PLAYER_NAME, "老\x00王")
    with translation.override("zh-hans"):
        assert "控制字符" in refused.value.message
    with translation.override("en"):
        assert "control character" in refused.value.message
    error = refused.value.rule_error("players[0]: ", "players[0]：")
    assert error.message.startswith("players[0]: This holds an invisible control character")
    assert error.message_zh.startswith("players[0]：这里有一个看不见的控制字符")
    with pytest.raises(text.TextRefused) as refused:
        text.clean_text(text.TABLE_NAME, "\u202e包间")
    with translation.override("zh-hans"):
        assert "格式字符" in refused.value.message


# ----------------------------------------------------------------- one length per kind


def _form_field(form: forms.BaseForm, name: str) -> forms.Field:
    return form.fields[name]


@pytest.mark.django_db
def test_every_door_of_a_kind_takes_its_one_length() -> None:
    room = make_room("east")
    config = room.configs.get(ruleset="mcr", preset="")
    table = RoomTable.objects.create(room=room, number=1)
    fields = {
        text.PLAYER_NAME: [_form_field(StartForm([config], config), f"name_{i}") for i in range(4)],
        text.CONFIG_NAME: [ConfigForm(config).fields["name"], NewConfigForm(room).fields["name"]],
        text.ROOM_NAME: [RoomNameForm().fields["name"]],
        text.MEMBER_NAME: [DisplayNameForm().fields["display_name"],
                           SignUpForm().fields["display_name"]],
        text.TABLE_NAME: [AddTablesForm().fields["name"], TableForm(instance=table).fields["name"]],
    }  # fmt: skip
    for kind, found in fields.items():
        for field in found:
            assert isinstance(field, text.TextField) and field.kind is kind
            assert field.max_length == kind.max_length
            assert field.widget.attrs["maxlength"] == str(kind.max_length)
    columns = {
        text.CONFIG_NAME: [RoomConfig._meta.get_field("name")],
        text.ROOM_NAME: [room._meta.get_field("name")],
        text.MEMBER_NAME: [RoomMember._meta.get_field("display_name")],
        text.TABLE_NAME: [RoomTable._meta.get_field("name")],
        text.NOTE: [SessionChange._meta.get_field("note")],
        text.AUTHOR: [SessionChange._meta.get_field("author"),
                      RoundRevision._meta.get_field("author")],
    }  # fmt: skip
    for kind, cols in columns.items():
        assert all(c.max_length == kind.max_length for c in cols), kind
    # The registry keeps names renamed before one length held (up to 40): wider.
    assert Player._meta.get_field("name").max_length >= text.PLAYER_NAME.max_length
    players = SCHEMA["properties"]["players"]["items"]
    assert players["maxLength"] == text.PLAYER_NAME.max_length
