from django.urls import path

from scorer import views
from scorer.views import (
    accounts,
    api,
    appearance,
    export,
    final,
    ledger,
    manage_configs,
    manage_day,
    manage_people,
    manage_tables,
    players,
    record,
    record_edit,
    session,
)

app_name = "scorer"

urlpatterns = [
    path("", session.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("text-size", appearance.text_size, name="text_size"),
    path("manifest.webmanifest", appearance.manifest, name="manifest"),
    path("favicon.ico", appearance.favicon, name="favicon"),
    path("s/new", session.create, name="create"),
    path("r/<slug:slug>/", session.room_home, name="room"),
    path("r/<slug:slug>/new", session.room_create, name="room_create"),
    path("r/<slug:slug>/t/<str:code>/", session.table, name="table"),
    # The room's admins (signed in, members of the room): the day and the tables.
    path("r/<slug:slug>/manage/", manage_day.manage, name="manage"),
    path("r/<slug:slug>/manage/close/<str:code>", manage_day.manage_close, name="manage_close"),
    path("r/<slug:slug>/manage/report.csv", manage_day.manage_report, name="manage_report"),
    path("r/<slug:slug>/manage/tables/", manage_tables.manage_tables, name="manage_tables"),
    path("r/<slug:slug>/manage/tables/qr-sheet", manage_tables.qr_sheet, name="manage_qr_sheet"),
    path(
        "r/<slug:slug>/manage/tables/<int:number>/",
        manage_tables.manage_table,
        name="manage_table",
    ),
    path(
        "r/<slug:slug>/manage/tables/<int:number>/qr.svg",
        manage_tables.manage_table_qr,
        name="manage_table_qr",
    ),
    path("s/import", export.import_view, name="import"),
    path("s/<str:code>/", session.detail, name="session"),
    path("s/<str:code>/tallies", session.tallies, name="tallies"),
    path("s/<str:code>/qr.svg", session.qr, name="qr"),
    path("s/<str:code>/undo", session.undo, name="undo"),
    path("s/<str:code>/undo-event", session.undo_event, name="undo_event"),
    path("s/<str:code>/me", session.whoami, name="whoami"),
    path("s/<str:code>/rounds/<int:number>/restore", session.restore, name="restore"),
    path("s/<str:code>/ledger", ledger.ledger, name="ledger"),
    path("s/<str:code>/final", final.final, name="final"),
    path("s/<str:code>/final.svg", final.final_svg, name="final_svg"),
    path("s/<str:code>/close", final.close, name="close"),
    path("s/<str:code>/reopen", final.reopen, name="reopen"),
    path("s/<str:code>/export.<str:fmt>", export.export, name="export"),
    path("s/<str:code>/rounds/<int:number>/", ledger.round_detail, name="round"),
    path("s/<str:code>/record", record.record, name="record"),
    path("s/<str:code>/record/preview", record.preview, name="preview"),
    path("s/<str:code>/record/confirm", record.confirm, name="confirm"),
    path("s/<str:code>/rounds/<int:number>/edit", record_edit.edit, name="edit"),
    path("p/<str:slug>/", players.player, name="player"),
    path("p/<str:slug>/rename", players.rename, name="player_rename"),
    # Accounts: room owners and admins (Django auth on the app's own pages).
    path("accounts/login/", accounts.sign_in, name="login"),
    path("accounts/logout/", accounts.sign_out, name="logout"),
    path("accounts/rooms/", accounts.my_rooms, name="my_rooms"),
    path("invite/<str:token>", accounts.invite, name="invite"),
    # A room's admin pages (every one a @room_admin view, rows through scorer.access).
    path("r/<slug:slug>/manage/configs/", manage_configs.configs, name="manage_configs"),
    path("r/<slug:slug>/manage/configs/new", manage_configs.config_new, name="manage_config_new"),
    path(
        "r/<slug:slug>/manage/configs/<int:pk>/", manage_configs.config_edit, name="manage_config"
    ),
    path(
        "r/<slug:slug>/manage/configs/<int:pk>/history",
        manage_configs.config_history_page,
        name="manage_config_history",
    ),
    path(
        "r/<slug:slug>/manage/configs/<int:pk>/<str:action>",
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
        "r/<slug:slug>/manage/players/<int:pk>/rename",
        manage_people.player_rename,
        name="manage_player_rename",
    ),
    path("r/<slug:slug>/manage/members/", manage_people.members, name="manage_members"),
    path("r/<slug:slug>/manage/members/invite", manage_people.invite_new, name="manage_invite"),
    path(
        "r/<slug:slug>/manage/members/invites/<int:pk>/withdraw",
        manage_people.invite_withdraw,
        name="manage_invite_withdraw",
    ),
    path("r/<slug:slug>/manage/members/name", manage_people.member_name, name="manage_member_name"),
    path(
        "r/<slug:slug>/manage/members/<int:pk>/remove",
        manage_people.member_remove,
        name="manage_member_remove",
    ),
    path("api/score", api.score, name="api_score"),
    path("api/win", api.win, name="api_win"),
    path("api/settle", api.settle, name="api_settle"),
    path("api/sessions/<str:code>", api.session, name="api_session"),
]
