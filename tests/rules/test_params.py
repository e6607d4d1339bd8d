"""Resolved parameter values (rules/params.py): every ruleset's values are read as
the type their declaration gives them, and a read of the wrong type is refused."""

from __future__ import annotations

import json

import pytest

from rules import REGISTRY, RuleError
from rules.params import ParamValues, int_param


@pytest.mark.parametrize("rid", sorted(REGISTRY))
def test_every_declared_value_reads_as_its_type(rid: str) -> None:
    rs = REGISTRY[rid]
    values = rs.resolve_params(None)
    assert isinstance(values, ParamValues)
    read = {"int": values.whole, "bool": values.flag, "choice": values.choice,
            "float": values.number}  # fmt: skip
    for p in rs.params:
        assert read[p.type](p.name) == p.default, p.name
        wrong = values.flag if p.type != "bool" else values.whole
        with pytest.raises(TypeError):
            wrong(p.name)
    # a mapping that serializes to the same JSON as the plain values
    assert json.dumps(dict(values)) == json.dumps({p.name: p.default for p in rs.params})
    assert values == {p.name: p.default for p in rs.params}


def test_overrides_resolve_once_into_read_only_typed_values() -> None:
    rs = REGISTRY["house"]
    values = rs.resolve_params({"points": 3, "chi": False})
    assert values.whole("points") == 3 and values.flag("chi") is False
    assert rs.resolve_params({"points": 3, "chi": False}) is values  # kept per overrides
    with pytest.raises(TypeError):
        values["points"] = 4  # type: ignore[index]
    with pytest.raises(RuleError) as e:
        rs.resolve_params({"points": 1.5})
    assert e.value.code == "bad_param"


def test_int_param_declares_a_bounded_whole_number() -> None:
    p = int_param("base", 2, "底分", "Base", hi=50)
    assert (p.type, p.default, p.min, p.max) == ("int", 2, 0, 50)
    with pytest.raises(RuleError):
        p.validate(51)
