"""The exported table's declared shape (JSON Schema), checked before import reads a field.

scorer/services/export.py writes this shape and `import_table` reads it; a file that does
not fit is refused whole, with the field named (`rounds[0].changes`) and what it
should be, in both languages, before anything is created.  The schema is checked
by the `jsonschema` library (a well-kept implementation of the standard) with one
change: an integer is a JSON number without a fraction that is not `true`/`false`
and not written `1.0` either (Python's json gives a float for it), as the
engine reads every count (rules/values.py).
"""

from __future__ import annotations

from typing import Any, cast

import jsonschema
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from scorer.clean.parse import MAX_SEAT
from scorer.clean.text import PLAYER_NAME

FORMAT, VERSION = "mahjong-scorer-table", 1

_TEXT = {"type": ["string", "null"]}
_WHEN = {"type": ["string", "null"], "maxLength": 64}
_SEAT = {"type": "integer", "minimum": 0, "maximum": MAX_SEAT}
_ROUND_CHANGE = {
    "type": "object",
    "properties": {"action": {"type": "string"}, "author": _TEXT, "at": _WHEN},
}
_SESSION_CHANGE = {
    "type": "object",
    "properties": {"action": {"type": "string"}, "author": _TEXT, "note": _TEXT, "at": _WHEN},
}
_TRANSFER = {
    "type": "object",
    "properties": {
        "from": _SEAT,
        "to": {"anyOf": [_SEAT, {"type": "null"}]},  # null: paid to the room (台费)
        "amount": {"type": "integer"},
        "reason": {"type": "string"},
    },  # fmt: skip
}
_REVISION = {
    "type": "object",
    "required": ["entry", "deltas"],
    "properties": {
        "number": {"type": "integer", "minimum": 1},
        "created_at": _WHEN,
        "author": _TEXT,
        "kind": {"type": "string"},
        "dealer": _SEAT,
        "prevalent_wind": {"type": "string"},
        # What was entered: its every field is the engine's to judge (scorer/scoring.py).
        "entry": {"type": "object"},
        "deltas": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 4},
        "transfers": {"type": "array", "items": _TRANSFER},
        # What the room took in this version (台费): sum(deltas) + room_take == 0.
        "room_take": {"type": "integer", "minimum": 0},
    },
}
_ROUND = {
    "type": "object",
    "required": ["number", "revisions"],
    "properties": {
        "number": {"type": "integer", "minimum": 1},
        "status": {"enum": ["active", "undone"]},
        "in_progress": {"type": "boolean"},
        "created_at": _WHEN,
        "undone_at": _WHEN,
        "undone_by": _TEXT,
        "current": {"type": ["integer", "null"], "minimum": 1},
        "revisions": {"type": "array", "minItems": 1, "items": _REVISION},
        "changes": {"type": "array", "items": _ROUND_CHANGE},
    },
}
SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "An exported table (scorer/services/export.py)",
    "type": "object",
    "required": ["format", "version", "ruleset", "players", "rounds"],
    "properties": {
        "format": {"const": FORMAT},
        "version": {"const": VERSION},
        # The table's lineage (scorer.models.origin_of_code); files exported before have none.
        "origin": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
        "ruleset": {"type": "string"},
        # A label of the room the file comes from ("room:12", or a preset's id): kept as
        # it came, never read as an id here (GameSession.config_id_of).
        "preset": {"type": ["string", "null"], "maxLength": 32},
        "params": {"type": ["object", "null"]},
        "players": {
            "type": "array",
            "minItems": 2,
            "maxItems": 4,
            "items": {
                "type": "string",
                "minLength": 1,
                "maxLength": PLAYER_NAME.max_length,
                "pattern": r"\S",
            },
        },  # fmt: skip
        "first_dealer": _SEAT,
        "money_per_point": {"type": ["string", "number", "null"], "maxLength": 32},
        "created_at": _WHEN,
        "closed_at": _WHEN,
        "changes": {"type": "array", "items": _SESSION_CHANGE},
        "rounds": {"type": "array", "items": _ROUND},
        "tallies": {"type": ["array", "null"], "items": {"type": "integer"}},
        # How the room charged the table (scorer/money/fees.py), and what it took in all.
        "fee": {"type": ["object", "null"]},
        "room_take": {"type": "integer", "minimum": 0},
        # The table's money ledger in 元 (scorer/models/money.py): its 计时 rule, its clock's
        # pauses, what each seat owed the room at its close ("18.75": exact decimals).
        "time_fee": {"type": ["object", "null"]},
        "pauses": {
            "type": "array",
            "maxItems": 500,
            "items": {"type": "array", "minItems": 2, "maxItems": 2, "items": _WHEN},
        },
        "money_charged": {
            "type": ["array", "null"],
            "maxItems": 4,
            "items": {"type": "string", "pattern": r"^[0-9]{1,9}(\.[0-9]{1,2})?$"},
        },
    },
}


def _whole(checker: Any, instance: Any) -> bool:
    return isinstance(instance, int) and not isinstance(instance, bool)


_Validator = jsonschema.validators.extend(
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _whole),
)
Draft202012Validator.check_schema(SCHEMA)  # a bad schema is a programming error
_VALIDATOR = _Validator(SCHEMA)

_TYPES = {
    "object": ("an object", "对象"), "array": ("a list", "列表"), "string": ("text", "文字"),
    "integer": ("a whole number", "整数"), "number": ("a number", "数字"),
    "boolean": ("true or false", "true 或 false"), "null": ("null", "null"),
}  # fmt: skip


def field_name(path: Any) -> str:
    """`rounds[0].revisions[1].number` from a path of keys and indexes."""
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "the file"


def _why(e: ValidationError) -> tuple[str, str]:
    """What the field should be, (en, zh)."""
    v, arg, instance = e.validator, cast(Any, e.validator_value), cast(Any, e.instance)
    if v == "type":
        kinds = [arg] if isinstance(arg, str) else list(arg)
        return ("must be " + " or ".join(_TYPES[k][0] for k in kinds if k != "null")
                + (" (or null)" if "null" in kinds else ""),
                "应为" + "或".join(_TYPES[k][1] for k in kinds if k != "null")
                + ("（或 null）" if "null" in kinds else ""))  # fmt: skip
    if v == "required":
        missing = next((k for k in arg if k not in (instance or {})), "?")
        return f"has no '{missing}'", f"缺少“{missing}”"
    if v in ("const", "enum"):
        allowed = [arg] if v == "const" else list(arg)
        shown = ", ".join(repr(a) for a in allowed)
        return f"must be {shown}", f"必须是 {shown}"
    if v in ("minimum", "maximum"):
        return (f"must be at {'least' if v == 'minimum' else 'most'} {arg}",
                f"必须{'不小于' if v == 'minimum' else '不大于'} {arg}")  # fmt: skip
    if v in ("minItems", "maxItems"):
        return (f"must have at {'least' if v == 'minItems' else 'most'} {arg} items",
                f"最{'少' if v == 'minItems' else '多'} {arg} 项")  # fmt: skip
    if v == "pattern" and arg != r"\S":
        return "is not a table's fingerprint (64 hex digits)", "不是牌桌的指纹（64 位十六进制）"
    if v in ("minLength", "pattern"):
        return "must not be empty", "不能是空的"
    if v == "maxLength":
        return f"is longer than {arg} characters", f"超过了 {arg} 个字"
    return "is not as an exported table has it", "和导出文件的格式不一样"


def problem(data: Any) -> tuple[str, str] | None:
    """The first place where `data` does not fit the schema, in words (en, zh), or None."""
    errors = sorted(
        _VALIDATOR.iter_errors(data), key=lambda e: (len(e.path), list(map(str, e.path)))
    )
    if not errors:
        return None
    e = errors[0]
    en, zh = _why(e)
    return f"{field_name(e.path)} {en}", f"{field_name(e.path) if e.path else '文件'}：{zh}"


__all__ = ["FORMAT", "SCHEMA", "VERSION", "field_name", "problem"]
