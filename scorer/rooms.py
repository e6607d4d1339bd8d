"""Room configurations (房间规则): a ruleset, a name and its parameter values, kept in
the database and edited by the room's staff in the admin.

A table started from one snapshots its values (GameSession.params): editing a
configuration later changes no recorded round, correction or undo.  Values are
checked against the ruleset's own declarations on every save, whatever the entry
point — the admin's form, the shell, an API, a fixture loaded raw — so an
invalid configuration can never be stored.  Every change is kept with who and
when by django-simple-history (a maintained package, shown in the admin).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.signals import pre_save
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from rules import REGISTRY, RuleError
from rules.registry import Ruleset
from scorer.views import by_language


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
                errors[name] = by_language(e.message_zh, e.message)
    if errors:
        raise ValidationError({"params": [f"{k}: {v}" for k, v in errors.items()]})
    try:
        return dict(rs.resolve_params(dict(params)))
    except RuleError as e:  # values fine one by one, not together
        raise ValidationError({"params": by_language(e.message_zh, e.message)}) from None


class RoomConfig(models.Model):
    ruleset = models.CharField(_("ruleset"), max_length=32)
    name = models.CharField(_("name"), max_length=60)
    # Every parameter's value (resolved): what a table started from it plays with.
    params = models.JSONField(_("values"), default=dict, blank=True)
    enabled = models.BooleanField(_("offered on the start page"), default=True)
    order = models.PositiveIntegerField(_("order"), default=0)
    # The code preset it was made from by `load_presets` ("" for the admin's own).
    preset = models.CharField(_("from preset"), max_length=32, blank=True, editable=False)
    updated_at = models.DateTimeField(_("last change"), default=timezone.now)
    history = HistoricalRecords()

    class Meta:
        ordering = ["order", "pk"]
        verbose_name = _("room configuration")
        verbose_name_plural = _("room configurations")
        constraints = [
            # load_presets creates one configuration per code preset, once.
            models.UniqueConstraint(
                fields=["ruleset", "preset"],
                condition=~models.Q(preset=""),
                name="one_config_per_code_preset",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def rules(self) -> Ruleset | None:
        return REGISTRY.get(self.ruleset)

    def clean(self) -> None:
        self.params = checked_params(self.ruleset, self.params)

    def clone(self, name: str) -> RoomConfig:
        """A copy to edit: the admin's own (no preset), placed right after this one."""
        return RoomConfig.objects.create(
            ruleset=self.ruleset,
            name=name[:60],
            params=dict(self.params),
            enabled=False,
            order=self.order,
        )


@receiver(pre_save, sender=RoomConfig)
def _check_before_saving(
    sender: Any, instance: RoomConfig, raw: bool = False, **kwargs: Any
) -> None:
    """The last word for every entry point (a fixture is saved raw, past clean())."""
    instance.params = checked_params(instance.ruleset, instance.params)
    if not raw:
        instance.updated_at = timezone.now()


__all__ = ["RoomConfig", "checked_params"]
