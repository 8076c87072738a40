from django.urls import path
from django.views.generic import RedirectView

from season.views import (
    calendar_feeds,
    chat,
    community,
    event_pages,
    odds,
    organiser,
    player,
    public,
    rules,
    sheets,
    stages,
    verify,
)
from season.views import results as results_views

urlpatterns = [
    # Public pages of a season (readable without an account unless the season is private).
    path("", public.home, name="home"),
    path("seasons/<slug:slug>/", public.season_detail, name="season-detail"),
    # The calendar feeds (season/views/calendar_feeds.py): a season's, a member's own.
    path(
        "seasons/<slug:slug>/calendar.ics", calendar_feeds.season_calendar, name="season-calendar"
    ),
    path("calendar/<str:token>.ics", calendar_feeds.member_calendar, name="member-calendar"),
    # How a ruleset works, from its adapter (linked from the orders forms and the dice codes).
    path("rules/<str:ruleset>/", rules.ruleset_rules, name="ruleset-rules"),
    path(
        "seasons/<slug:slug>/standings/<str:classification>/",
        public.standings,
        name="season-standings",
    ),
    path("seasons/<slug:slug>/stages/<int:number>/", public.stage_detail, name="season-stage"),
    # One event of the calendar: its own part of the season page (a race's stages, jerseys).
    path("seasons/<slug:slug>/races/<int:number>/", public.season_event, name="season-event"),
    # Comments on a season and its stages (season/views/community.py), before the stage actions.
    path("seasons/<slug:slug>/comments/", community.season_comment, name="season-comment"),
    path(
        "seasons/<slug:slug>/stages/<int:number>/comments/",
        community.stage_comment,
        name="season-stage-comment",
    ),
    path(
        "seasons/<slug:slug>/comments/<int:comment_id>/hide/",
        community.comment_hide,
        name="season-comment-hide",
    ),
    path(
        "seasons/<slug:slug>/stages/<int:number>/dice/", public.stage_dice, name="season-stage-dice"
    ),
    # The printed sheets (issue 34): a round's communiqué and the season's sheet, as PDF.
    path(
        "seasons/<slug:slug>/stages/<int:number>/sheet.pdf",
        sheets.round_sheet,
        name="season-round-sheet",
    ),
    path("seasons/<slug:slug>/sheet.pdf", sheets.season_sheet, name="season-sheet"),
    # A resolved round's inputs, seed and nonces, for `python -m engine replay` (issue 19).
    path(
        "seasons/<slug:slug>/stages/<int:number>/round.json",
        verify.round_json,
        name="season-round-json",
    ),
    # The odds of an open stage (season/views/odds.py), before the stage actions.
    path(
        "seasons/<slug:slug>/stages/<int:number>/odds/", odds.round_odds, name="season-round-odds"
    ),
    path(
        "seasons/<slug:slug>/stages/<int:number>/odds/<str:key>/",
        odds.round_odds_progress,
        name="season-round-odds-progress",
    ),
    path("seasons/<slug:slug>/riders/<int:rider_id>/", public.rider_detail, name="season-rider"),
    path("seasons/<slug:slug>/teams/<int:team_id>/", public.team_detail, name="season-team"),
    # The end of the race (issue 17): which player wins the league, and who left the race.
    path("seasons/<slug:slug>/players/", results_views.players_ranking, name="season-players"),
    path("seasons/<slug:slug>/abandons/", results_views.abandons, name="season-abandons"),
    # The standings across the season's calendar (issue 30): the players' teams, the riders.
    path(
        "seasons/<slug:slug>/season-standings/<str:table>/",
        results_views.season_table,
        name="season-table",
    ),
    # The pages of its own event a game serves under the season (season/views/event_pages.py).
    path(
        "seasons/<slug:slug>/grands-prix/<int:number>/",
        event_pages.round_event,
        name="season-grand-prix",
    ),
    path(
        "seasons/<slug:slug>/championship/standings/<str:table>/",
        event_pages.event_standings,
        name="season-motor-standings",
    ),
    path(
        "seasons/<slug:slug>/championship/what-if/<str:table>/",
        event_pages.what_if,
        name="season-motor-what-if",
    ),
    path(
        "seasons/<slug:slug>/championship/drivers/<slug:driver>/",
        event_pages.driver_detail,
        name="season-motor-driver",
    ),
    path(
        "seasons/<slug:slug>/championship/constructors/<slug:constructor>/",
        event_pages.constructor_detail,
        name="season-motor-constructor",
    ),
    # The organiser's stage actions and the progress of a resolution.
    path("seasons/<slug:slug>/stages/<int:number>/job/", stages.stage_job, name="season-stage-job"),
    path(
        "seasons/<slug:slug>/stages/<int:number>/<str:action>/confirm/",
        stages.stage_action_confirm,
        name="season-stage-action-confirm",
    ),
    path(
        "seasons/<slug:slug>/stages/<int:number>/<str:action>/",
        stages.stage_action,
        name="season-stage-action",
    ),
    path(
        "seasons/<slug:slug>/stages/<int:number>/reinstate/<int:rider_id>/",
        stages.rider_reinstate,
        name="season-stage-reinstate",
    ),
    # --- Organiser and player flows (season/views/organiser.py, season/views/player.py) ---
    path("my/", player.my_seasons, name="my-seasons"),
    path("my/calendar/renew/", calendar_feeds.calendar_renew, name="calendar-renew"),
    path("my/notifications/", community.notifications, name="notifications"),
    path("my/notifications/read/", community.notifications_read_all, name="notifications-read-all"),
    path(
        "my/notifications/<int:notice_id>/", community.notification_open, name="notification-open"
    ),
    path("my/new-season/", organiser.season_create, name="season-create"),
    # The old address of the motor season's create page: one page creates every season now.
    path(
        "my/new-season/championship/",
        RedirectView.as_view(pattern_name="season-create", permanent=True),
    ),
    path("join/", player.join_code, name="season-join-code"),
    path("join/<str:code>/", player.join, name="season-join"),
    path("seasons/<slug:slug>/organise/", organiser.dashboard, name="organiser-season"),
    path(
        "seasons/<slug:slug>/organise/settings/",
        organiser.settings_edit,
        name="organiser-settings",
    ),
    path(
        "seasons/<slug:slug>/organise/game-settings/",
        organiser.game_settings_edit,
        name="organiser-game-settings",
    ),
    path(
        "seasons/<slug:slug>/organise/races/",
        organiser.races_edit,
        name="organiser-races",
    ),
    path(
        "seasons/<slug:slug>/organise/races/<int:number>/remove/confirm/",
        organiser.race_remove_confirm,
        name="organiser-race-remove-confirm",
    ),
    path(
        "seasons/<slug:slug>/organise/races/<int:number>/remove/",
        organiser.race_remove,
        name="organiser-race-remove",
    ),
    path(
        "seasons/<slug:slug>/organise/races/<int:number>/starters/",
        organiser.race_starters,
        name="organiser-race-starters",
    ),
    path(
        "seasons/<slug:slug>/organise/calendar/",
        organiser.calendar_edit,
        name="organiser-calendar",
    ),
    path(
        "seasons/<slug:slug>/organise/invitation/",
        organiser.invite_regenerate,
        name="organiser-invite-regenerate",
    ),
    path(
        "seasons/<slug:slug>/organise/invite/",
        organiser.invite_send,
        name="organiser-invite-send",
    ),
    path(
        "seasons/<slug:slug>/organise/calendar/shift/",
        organiser.deadlines_shift_view,
        name="organiser-deadlines-shift",
    ),
    path(
        "seasons/<slug:slug>/organise/invitation/confirm/",
        organiser.invite_regenerate_confirm,
        name="organiser-invite-regenerate-confirm",
    ),
    path(
        "seasons/<slug:slug>/organise/draft/start/confirm/",
        organiser.draft_start_confirm,
        name="organiser-draft-start-confirm",
    ),
    path(
        "seasons/<slug:slug>/organise/draft/start/",
        organiser.draft_start,
        name="organiser-draft-start",
    ),
    path(
        "seasons/<slug:slug>/organise/draft/autopick/",
        organiser.draft_autopick,
        name="organiser-draft-autopick",
    ),
    # The season's chat channels (webhooks to Discord and Slack, issue 34).
    path("seasons/<slug:slug>/organise/chat/", chat.chat_hooks_page, name="organiser-chat"),
    path(
        "seasons/<slug:slug>/organise/chat/<int:pk>/test/",
        chat.chat_hook_test,
        name="organiser-chat-test",
    ),
    path(
        "seasons/<slug:slug>/organise/chat/<int:pk>/enable/",
        chat.chat_hook_enable,
        name="organiser-chat-enable",
    ),
    path(
        "seasons/<slug:slug>/organise/chat/<int:pk>/delete/",
        chat.chat_hook_delete,
        name="organiser-chat-delete",
    ),
    path("seasons/<slug:slug>/teams/<int:team_id>/manage/", player.team_page, name="player-team"),
    path(
        "seasons/<slug:slug>/teams/<int:team_id>/manage/pick/",
        player.draft_pick,
        name="player-draft-pick",
    ),
    path(
        "seasons/<slug:slug>/teams/<int:team_id>/manage/wishlist/",
        player.wishlist_change,
        name="player-wishlist",
    ),
    path("seasons/<slug:slug>/teams/<int:team_id>/orders/", player.orders, name="player-orders"),
    path(
        "seasons/<slug:slug>/teams/<int:team_id>/selection/<int:number>/",
        player.selection,
        name="player-selection",
    ),
    path(
        "seasons/<slug:slug>/teams/<int:team_id>/orders/odds/",
        odds.orders_odds,
        name="player-orders-odds",
    ),
    # --- end of the organiser and player flows ---
]
