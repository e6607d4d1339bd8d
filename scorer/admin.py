"""The room's admin (/admin/, staff only): room configurations (房间规则).

The change form is generated from the ruleset's parameter declarations (type,
choices with their labels, range, help text in the reader's language), and each
value is checked by the ruleset itself: a refused value is shown on its field
and nothing is saved.  The model checks again on every save (scorer/models/rooms.py).
History (who changed what, when) comes from django-simple-history.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from rules import REGISTRY
from rules.registry import Ruleset
from scorer.forms.start import add_param_fields, clean_params
from scorer.language import by_language
from scorer.models.roomlog import RoomLogEntry
from scorer.models.rooms import Room, RoomConfig, RoomMember
from scorer.present.words import table_rulesets


class RoomConfigForm(forms.ModelForm):
    """Name, ruleset, whether it is offered, its place, and one field per parameter."""

    rules: Ruleset | None = None

    class Meta:
        model = RoomConfig
        fields = ["name", "ruleset", "enabled", "order"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["ruleset"] = forms.ChoiceField(
            label=_("ruleset"),
            choices=[(rs.id, by_language(rs.name_zh, rs.name_en)) for rs in table_rulesets()],
        )
        if self.rules is not None:
            self.fields["ruleset"].disabled = self.instance.pk is not None
            add_param_fields(self, self.rules, self.instance.params or {})

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        rules = self.rules or REGISTRY.get(cleaned.get("ruleset") or "")
        if rules is not None and rules.id == cleaned.get("ruleset", rules.id):
            overrides = clean_params(self, rules, cleaned) if self.rules is not None else {}
            self.instance.params = dict(rules.resolve_params(overrides))
        return cleaned


@admin.register(RoomConfig)
class RoomConfigAdmin(SimpleHistoryAdmin):
    list_display = ["name", "room", "ruleset_name", "enabled", "order", "updated_at"]
    list_editable = ["enabled", "order"]
    list_filter = ["room", "ruleset", "enabled"]
    search_fields = ["name"]
    actions = ["clone", "disable", "enable"]
    history_list_display = ["enabled", "order"]

    @staticmethod
    def _rules(request: HttpRequest, obj: RoomConfig | None) -> Ruleset | None:
        """The ruleset whose parameters the form shows: the configuration's own, or on
        add the one chosen (asked first, then the form is shown again with its fields)."""
        rid = (
            obj.ruleset
            if obj is not None
            else (request.GET.get("ruleset") or request.POST.get("ruleset"))
        )
        return REGISTRY.get(rid or "")

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        kwargs["form"] = type(
            "RoomConfigRulesForm", (RoomConfigForm,), {"rules": self._rules(request, obj)}
        )
        kwargs["fields"] = ["name", "ruleset", "enabled", "order"]
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        rules = self._rules(request, obj)
        out: list[Any] = [(None, {"fields": ["name", "ruleset", "enabled", "order"]})]
        if rules is not None:
            out.append((_("Parameters"), {"fields": [f"param_{p.name}" for p in rules.params]}))
        return out

    def add_view(self, request: HttpRequest, form_url: str = "", extra_context: Any = None) -> Any:
        if self._rules(request, None) is None:
            rulesets = [
                {"id": rs.id, "name": by_language(rs.name_zh, rs.name_en)}
                for rs in table_rulesets()
            ]
            context = {**self.admin_site.each_context(request), "rulesets": rulesets,
                       "opts": self.opts, "title": gettext("Add room configuration")}  # fmt: skip
            return TemplateResponse(request, "admin/scorer/roomconfig/choose_ruleset.html", context)
        return super().add_view(request, form_url, extra_context)

    @admin.display(description=_("ruleset"), ordering="ruleset")
    def ruleset_name(self, obj: RoomConfig) -> str:
        rs = obj.rules
        return by_language(rs.name_zh, rs.name_en) if rs else obj.ruleset

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Disabled, not deleted: load_presets creates each preset's configuration once,
        # and a table started from one names it.
        return False

    @admin.action(description=_("Copy the selected configurations"))
    def clone(self, request: HttpRequest, queryset: QuerySet[RoomConfig]) -> None:
        for config in queryset:
            config.clone(gettext("%(name)s (copy)") % {"name": config.name})
        messages.success(request, gettext("Copied; the copies are not offered until enabled."))

    @admin.action(description=_("Stop offering the selected configurations"))
    def disable(self, request: HttpRequest, queryset: QuerySet[RoomConfig]) -> None:
        for config in queryset:  # one by one: each change goes into the history
            config.enabled = False
            config.save()

    @admin.action(description=_("Offer the selected configurations"))
    def enable(self, request: HttpRequest, queryset: QuerySet[RoomConfig]) -> None:
        for config in queryset:
            config.enabled = True
            config.save()


class RoomMemberInline(admin.TabularInline):
    model = RoomMember
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    """The site's staff open rooms and name their owners; each room's admins then
    manage it on its own pages (/r/<slug>/manage/)."""

    list_display = ["name", "slug", "created_at"]
    search_fields = ["name", "slug"]
    inlines = [RoomMemberInline]

    def save_model(self, request: HttpRequest, obj: Room, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if not change:
            obj.copy_presets()  # a new room can start a table at once


@admin.register(RoomLogEntry)
class RoomLogEntryAdmin(admin.ModelAdmin):
    """The rooms' logs, for the site's staff to read: append-only, so nothing here
    adds, changes or deletes an entry (the model refuses it as well)."""

    list_display = ["at", "room", "user_name", "action"]
    list_filter = ["room", "action"]
    search_fields = ["user_name", "action"]
    readonly_fields = ["room", "at", "user", "user_name", "action", "data"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
