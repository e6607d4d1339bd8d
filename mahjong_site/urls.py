"""Top-level URL configuration."""

from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _

admin.site.site_header = _("Mahjong Scorer · room administration")
admin.site.site_title = _("Mahjong Scorer")
admin.site.index_title = _("Room configurations and tables")

urlpatterns = [
    path("admin/", admin.site.urls),
    # Django's set_language view: POST language=<code> to /i18n/setlang/.
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("scorer.urls")),
]

# Under /api/ a 404 or a 500 is the JSON error object too (docs/situation.md).
handler404 = "scorer.views.api_input.not_found"
handler500 = "scorer.views.api_input.server_error"
