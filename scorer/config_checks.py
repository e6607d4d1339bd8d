"""The checks of a room's configuration as its admins enter it: the ruleset's values,
the table fee and the 计时 fee, each normalized, or refused with a ValidationError
naming the field in the reader's language.  No model: RoomConfig (and the forms)
call them before saving.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from rules import REGISTRY, RuleError
from scorer.language import rule_error_text
from scorer.money.fees import checked_fee
from scorer.money.timefee import checked_time_fee


def checked_params(ruleset_id: str, params: Any) -> dict[str, Any]:
    """Every parameter's value for this ruleset, checked; ValidationError naming the
    parameter, in the reader's language, when one does not fit."""
    rs = REGISTRY.get(ruleset_id)
    if rs is None or not rs.table_play:
        raise ValidationError({"ruleset": _("Unknown ruleset: %(id)s") % {"id": ruleset_id}})
    if not isinstance(params, Mapping):
        raise ValidationError({"params": _("The values must be an object.")})
    errors: dict[str, str] = {}
    known = {p.name for p in rs.params}
    for name in params:
        if name not in known:
            errors[name] = str(
                _("%(ruleset)s has no parameter %(name)s") % {"ruleset": rs.id, "name": name}
            )
    for name, value in params.items():
        if name in known:
            try:
                rs.resolve_params({name: value})
            except RuleError as e:
                errors[name] = rule_error_text(e)
    if errors:
        raise ValidationError({"params": [f"{k}: {v}" for k, v in errors.items()]})
    try:
        return dict(rs.resolve_params(dict(params)))
    except RuleError as e:  # values fine one by one, not together
        raise ValidationError({"params": rule_error_text(e)}) from None


def checked_room_fee(fee: Any) -> dict[str, Any]:
    """A configuration's table fee, normalized; ValidationError in the reader's language."""
    try:
        return checked_fee(fee)
    except RuleError as e:
        raise ValidationError({"fee": rule_error_text(e)}) from None


def checked_room_time_fee(fee: Any) -> dict[str, Any]:
    """A 计时 fee, normalized; ValidationError in the reader's language."""
    try:
        return checked_time_fee(fee)
    except RuleError as e:
        raise ValidationError({"time_fee": rule_error_text(e)}) from None
