"""Top-level URL configuration."""

from django.urls import include, path

urlpatterns = [
    # Django's set_language view: POST language=<code> to /i18n/setlang/.
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("scorer.urls")),
]
