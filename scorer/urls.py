from django.urls import path, register_converter

from scorer import views
from scorer.clean.parse import NumberConverter
from scorer.views import (
    accounts,
    adjust,
    api,
    appearance,
    export,
    fan_help,
    final,
    league,
    ledger,
    live,
    manage_configs,
    manage_day,
    manage_league,
    manage_log,
    manage_people,
    manage_tables,
    manage_till,
    my_tables,
    players,
    record,
    record_edit,
    session,
    start,
)

app_name = "scorer"

# Every number in a URL is read by scorer/clean/parse.py (its range too): `<num:…>`, never `<int:…>`.
register_converter(NumberConverter, "num")

urlpatterns = [
    path("", start.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("metrics", views.metrics_text, name="metrics"),
    path("text-size", appearance.text_size, name="text_size"),
    path("manifest.webmanifest", appearance.manifest, name="manifest"),
    path("favicon.ico", appearance.favicon, name="favicon"),
    path("s/new", start.create, name="create"),
    path("r/<slug:slug>/", start.room_home, name="room"),
    path("r/<slug:slug>/new", start.room_create, name="room_create"),
    # The room's league (public when its owner says so, else its admins only).
    path("r/<slug:slug>/league/", league.league, name="league"),
    path("r/<slug:slug>/league/rating", league.rating_help, name="league_rating"),
    path("r/<slug:slug>/league/events", live.league_events, name="league_events"),
    path("r/<slug:slug>/league/<num:pk>/standings.svg", league.league_svg, name="league_svg"),
    path("r/<slug:slug>/league/<num:pk>/standings.csv", league.league_csv, name="league_csv"),
    path("r/<slug:slug>/league/<num:pk>/tables.csv", league.tables_csv, name="league_tables_csv"),
    path("r/<slug:slug>/manage/league/", manage_league.manage_league, name="manage_league"),
    path(
        "r/<slug:slug>/manage/league/public", manage_league.set_public, name="manage_league_public"
    ),
    path(
        "r/<slug:slug>/manage/league/seasons/<num:pk>/",
        manage_league.season_edit,
        name="manage_season",
    ),
    path(
        "r/<slug:slug>/manage/league/seasons/<num:pk>/close",
        manage_league.season_close,
        name="manage_season_close",
    ),
    path(
        "r/<slug:slug>/manage/league/players/<num:pk>",
        manage_league.set_left_out,
        name="manage_league_left_out",
    ),
    path("r/<slug:slug>/t/<str:code>/", start.table, name="table"),
    # The room's admins (signed in, members of the room): the day and the tables.
    path("r/<slug:slug>/manage/", manage_day.manage, name="manage"),
    # The room's admin pages hear of changes here (and the table's phones below);
    # a deployment serves both from mahjong_site/asgi.py ahead of Django.
    path("r/<slug:slug>/manage/events", live.room_events, name="manage_events"),
    path("r/<slug:slug>/manage/close/<str:code>", manage_day.manage_close, name="manage_close"),
    path("r/<slug:slug>/manage/clock/<str:code>", manage_day.manage_clock, name="manage_clock"),
    path("r/<slug:slug>/manage/report.csv", manage_day.manage_report, name="manage_report"),
    path(
        "r/<slug:slug>/manage/take-in/<str:code>",
        manage_day.manage_take_in,
        name="manage_take_in",
    ),
    path(
        "r/<slug:slug>/manage/send-back/<str:code>",
        manage_day.manage_send_back,
        name="manage_send_back",
    ),
    path("r/<slug:slug>/manage/tables/", manage_tables.manage_tables, name="manage_tables"),
    path("r/<slug:slug>/manage/tables/qr-sheet", manage_tables.qr_sheet, name="manage_qr_sheet"),
    path(
        "r/<slug:slug>/manage/tables/<num:number>/",
        manage_tables.manage_table,
        name="manage_table",
    ),
    path(
        "r/<slug:slug>/manage/tables/<num:number>/qr.svg",
        manage_tables.manage_table_qr,
        name="manage_table_qr",
    ),
    path(
        "r/<slug:slug>/manage/tables/<num:number>/qr-<str:version>.svg",
        manage_tables.manage_table_qr_versioned,
        name="manage_table_qr_versioned",
    ),
    path(
        "r/<slug:slug>/manage/tables/<num:number>/retire",
        manage_tables.manage_table_retire,
        name="manage_table_retire",
    ),
    path(
        "r/<slug:slug>/manage/tables/<num:number>/new-code",
        manage_tables.manage_table_new_code,
        name="manage_table_new_code",
    ),
    path(
        "r/<slug:slug>/manage/tables/<num:number>/bring-back",
        manage_tables.manage_table_bring_back,
        name="manage_table_bring_back",
    ),
    path("r/<slug:slug>/manage/log/", manage_log.room_log, name="manage_log"),
    # The till (收银): money in 元, never points.
    path("r/<slug:slug>/manage/till/", manage_till.till_day, name="manage_till"),
    path("r/<slug:slug>/manage/till/report", manage_till.till_report, name="manage_till_report"),
    path(
        "r/<slug:slug>/manage/till/t/<str:code>", manage_till.till_table, name="manage_till_table"
    ),
    path("r/<slug:slug>/manage/till/members/", manage_till.balances, name="manage_balances"),
    path(
        "r/<slug:slug>/manage/till/players/<num:pk>/",
        manage_till.statement,
        name="manage_statement",
    ),
    path("s/import", export.import_view, name="import"),
    path("r/<slug:slug>/import", export.room_import, name="room_import"),
    path("s/<str:code>/", session.detail, name="session"),
    path("s/<str:code>/tallies", session.tallies, name="tallies"),
    path("s/<str:code>/events", live.table_events, name="events"),
    path("s/<str:code>/qr.svg", session.qr, name="qr"),
    path("s/<str:code>/undo", session.undo, name="undo"),
    path("s/<str:code>/undo-event", session.undo_event, name="undo_event"),
    path("s/<str:code>/me", session.whoami, name="whoami"),
    path("s/<str:code>/hide", my_tables.hide, name="hide_table"),
    path("s/<str:code>/rounds/<num:number>/restore", session.restore, name="restore"),
    path("s/<str:code>/ledger", ledger.ledger, name="ledger"),
    path("s/<str:code>/final", final.final, name="final"),
    path("s/<str:code>/final.svg", final.final_svg, name="final_svg"),
    path("s/<str:code>/picture", final.picture_page, name="picture"),
    path("s/<str:code>/close", final.close, name="close"),
    path("s/<str:code>/reopen", final.reopen, name="reopen"),
    path("s/<str:code>/export.<str:fmt>", export.export, name="export"),
    path("s/<str:code>/rounds/<num:number>/", ledger.round_detail, name="round"),
    path("s/<str:code>/record", record.record, name="record"),
    path("s/<str:code>/record/preview", record.preview, name="preview"),
    path("s/<str:code>/record/confirm", record.confirm, name="confirm"),
    path("s/<str:code>/rounds/<num:number>/edit", record_edit.edit, name="edit"),
    path("s/<str:code>/adjust", adjust.adjust, name="adjust"),
    path("s/<str:code>/rounds/<num:number>/adjust", adjust.adjust_edit, name="adjust_edit"),
    path("p/<str:slug>/", players.player, name="player"),
    path("rules/<str:ruleset>/fans/<num:fid>/", fan_help.fan_help, name="fan_help"),
    # Accounts: room owners and admins (Django auth on the app's own pages).
    path("accounts/login/", accounts.sign_in, name="login"),
    path("accounts/logout/", accounts.sign_out, name="logout"),
    path("accounts/rooms/", accounts.my_rooms, name="my_rooms"),
    path("invite/<str:token>", accounts.invite, name="invite"),
    # A room's admin pages (every one a @room_admin view, rows through scorer.services.access).
    path("r/<slug:slug>/manage/configs/", manage_configs.configs, name="manage_configs"),
    path("r/<slug:slug>/manage/configs/new", manage_configs.config_new, name="manage_config_new"),
    path(
        "r/<slug:slug>/manage/configs/<num:pk>/", manage_configs.config_edit, name="manage_config"
    ),
    path(
        "r/<slug:slug>/manage/configs/<num:pk>/history",
        manage_configs.config_history_page,
        name="manage_config_history",
    ),
    path(
        "r/<slug:slug>/manage/configs/<num:pk>/<str:action>",
        manage_configs.config_action,
        name="manage_config_do",
    ),
    path("r/<slug:slug>/manage/players/", manage_people.players, name="manage_players"),
    path(
        "r/<slug:slug>/manage/players/merge",
        manage_people.players_merge,
        name="manage_players_merge",
    ),
    path(
        "r/<slug:slug>/manage/players/<num:pk>/rename",
        manage_people.player_rename,
        name="manage_player_rename",
    ),
    path("r/<slug:slug>/manage/members/", manage_people.members, name="manage_members"),
    path("r/<slug:slug>/manage/members/invite", manage_people.invite_new, name="manage_invite"),
    path(
        "r/<slug:slug>/manage/members/invites/<num:pk>/withdraw",
        manage_people.invite_withdraw,
        name="manage_invite_withdraw",
    ),
    path("r/<slug:slug>/manage/members/name", manage_people.member_name, name="manage_member_name"),
    path("r/<slug:slug>/manage/room-name", manage_people.room_name, name="manage_room_name"),
    path(
        "r/<slug:slug>/manage/members/<num:pk>/remove",
        manage_people.member_remove,
        name="manage_member_remove",
    ),
    path("api/score", api.score, name="api_score"),
    path("api/win", api.win, name="api_win"),
    path("api/settle", api.settle, name="api_settle"),
    path("api/sessions/<str:code>", api.session, name="api_session"),
]
