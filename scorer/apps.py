from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScorerConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scorer"
    verbose_name = _("Scorer")
