from django.contrib import admin, messages
from django.db.models import QuerySet
from django.forms import ModelForm
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from riders.readonly_admin import ReadOnlyAdmin
from season.admin_ratings import rider_actions_register
from season.models import (
    DONE_STATUSES,
    ChatDelivery,
    ChatHook,
    Comment,
    DiceLog,
    Membership,
    Notification,
    Orders,
    Round,
    Season,
    SeasonEvent,
    SeasonTeam,
    Seat,
    Selection,
)
from season.services import jobs, lifecycle


def _deadline_moved(form: ModelForm) -> None:  # type: ignore[type-arg]
    """A deadline edited here moves the round's event in the calendar feeds, as the
    organiser's calendar edit does (leagues.calendar_update)."""
    if "orders_deadline" in form.changed_data and form.instance.pk is not None:
        form.instance.deadline_sequence += 1
        form.instance.deadline_moved_at = timezone.now()


# What the league's services alone may change on a round: its lifecycle, its seed and the inputs
# it was resolved with (a replay depends on both). Staff change the status through the actions
# below, which call the same services as the stage page.
ROUND_READ_ONLY = [
    "season",
    "season_event",
    "stage",
    "number",
    "status",
    "seed_shown",
    "resolved_at",
    "attempts",
    "last_error",
    "engine_inputs_shown",
    "orders_opened_notified_at",
    "missed_notified_at",
    "results_notified_at",
]


HIDDEN = _("hidden until the deadline")


def _round_done(round: Round | None) -> bool:
    return round is not None and round.status in DONE_STATUSES


def _seed_shown(obj: Round) -> object:
    # The seed decides the dice: nobody, staff included, reads it before the round is resolved
    # (with the nonces, `python -m engine` would tell the dice of orders not yet given).
    return obj.seed if _round_done(obj) else HIDDEN


class RoundInline(admin.TabularInline):
    model = Round
    fields = ["number", "season_event", "stage", "orders_deadline", "status", "seed_shown"]
    readonly_fields = ["number", "season_event", "stage", "status", "seed_shown"]
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    @admin.display(description=_("seed"))
    def seed_shown(self, obj: Round) -> object:
        return _seed_shown(obj)


class SeasonEventInline(admin.TabularInline):
    """The season's calendar: its events are added by the organiser's calendar page (the
    league copy of each race is written by the game's adapter), not here."""

    model = SeasonEvent
    fields = ["number", "race", "championship", "starters"]
    readonly_fields = ["number", "race", "championship"]
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ["user"]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "organiser", "ruleset", "is_public", "created_at"]
    list_filter = ["ruleset", "is_public"]
    search_fields = ["name", "slug", "organiser__username"]
    list_select_related = ["organiser"]
    inlines = [SeasonEventInline, RoundInline, MembershipInline]

    def save_formset(self, request, form, formset, change):  # type: ignore[no-untyped-def]
        if formset.model is Round:
            for inline_form in formset.forms:
                _deadline_moved(inline_form)
        super().save_formset(request, form, formset, change)


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["season", "number", "orders_deadline", "status", "seed_shown", "attempts"]
    list_filter = ["status", "season"]
    search_fields = ["season__name"]
    list_select_related = ["season"]
    readonly_fields = ROUND_READ_ONLY
    # Shown through seed_shown / engine_inputs_shown, which hide them until the round is resolved.
    exclude = ["seed", "engine_inputs"]

    @admin.display(description=_("seed"))
    def seed_shown(self, obj: Round) -> object:
        return _seed_shown(obj)

    def save_model(self, request, obj, form, change):  # type: ignore[no-untyped-def]
        _deadline_moved(form)
        super().save_model(request, obj, form, change)

    @admin.display(description=_("engine inputs"))
    def engine_inputs_shown(self, obj: Round) -> object:
        return obj.engine_inputs if _round_done(obj) else HIDDEN

    actions = ["open_orders", "lock_orders", "resolve_now", "publish_results"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        # Rounds come with their season (season.leagues.season_create), one per stage.
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def _each(self, request: HttpRequest, queryset: QuerySet[Round], service: object) -> None:
        done = 0
        for target in queryset.select_related("season", "stage").order_by("season", "number"):
            try:
                service(round=target)  # type: ignore[operator]
            except lifecycle.RoundError as error:
                self.message_user(request, f"{target}: {error}", messages.ERROR)
            else:
                done += 1
        if done:
            self.message_user(request, _("%(count)d round(s) done.") % {"count": done})

    @admin.action(description=_("Open orders"))
    def open_orders(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        self._each(request, queryset, lifecycle.round_open)

    @admin.action(description=_("Lock orders"))
    def lock_orders(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        self._each(request, queryset, lifecycle.round_lock)

    @admin.action(description=_("Resolve now"))
    def resolve_now(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        def request_resolution(*, round: Round) -> None:
            jobs.round_resolve_request(round=round, user=request.user)

        self._each(request, queryset, request_resolution)

    @admin.action(description=_("Publish results"))
    def publish_results(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        self._each(request, queryset, lifecycle.round_publish)


class SeatInline(admin.TabularInline):
    """A team's seats: its riders (number, role) or its cars (number, slot, place on the grid).
    The database's constraints hold each game's limits (two cars a team, a rider once)."""

    model = Seat
    fields = ["number", "rider", "role", "entry", "slot", "grid"]
    raw_id_fields = ["rider", "entry"]
    extra = 0


@admin.register(SeasonTeam)
class SeasonTeamAdmin(admin.ModelAdmin):
    list_display = ["name", "season", "owner"]
    list_filter = ["season"]
    search_fields = ["name", "owner__username"]
    list_select_related = ["season", "owner"]
    inlines = [SeatInline]

    def save_formset(self, request, form, formset, change):  # type: ignore[no-untyped-def]
        for inline_form in formset.forms:
            if hasattr(inline_form.instance, "team_id"):
                inline_form.instance.season_id = form.instance.season_id
        super().save_formset(request, form, formset, change)


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["season", "user", "role", "joined_at"]
    list_filter = ["role", "season"]
    search_fields = ["user__username", "season__name"]
    list_select_related = ["season", "user"]


@admin.register(Orders)
class OrdersAdmin(admin.ModelAdmin):
    """Read only: orders are given through season.services.orders.orders_submit, which checks
    the deadline, the starters and the ruleset's rules."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    list_display = ["team", "round", "source", "standing", "submitted_by", "updated_at"]
    list_filter = ["round__season", "source", "standing"]
    search_fields = ["team__name"]
    list_select_related = ["team", "round__season", "submitted_by"]
    # The nonce, with the seed, decides the round's dice: hidden until the round is resolved.
    exclude = ["nonce"]
    readonly_fields = ["nonce_shown"]

    @admin.display(description=_("nonce"))
    def nonce_shown(self, obj: Orders) -> object:
        return obj.nonce if _round_done(obj.round) else HIDDEN


@admin.register(Selection)
class SelectionAdmin(ReadOnlyAdmin):
    """Read only: selections are given through season.services.selections.selection_save
    (the owner, before the race's first deadline) or written at its first claim."""

    list_display = ["team", "season_event", "seat", "source", "chosen_at"]
    list_filter = ["season_event__season", "source"]
    search_fields = ["team__name"]
    list_select_related = ["team", "season_event__season", "seat__rider", "seat__entry__driver"]


@admin.register(DiceLog)
class DiceLogAdmin(ReadOnlyAdmin):
    """Written once by the round's resolution; staff read it here (the dice page shows the
    rolls), nobody edits it: a replay compares against it."""

    list_display = ["round", "ruleset", "seed", "count", "sha256"]
    list_filter = ["ruleset"]
    search_fields = ["round__season__name", "sha256"]
    list_select_related = ["round__season"]
    exclude = ["rolls"]


@admin.register(Comment)
class CommentAdmin(admin.ModelAdmin):
    """The staff read every comment and may hide or show one again (hidden_at, hidden_by);
    members post them on the pages (season.services.comments)."""

    list_display = ["season", "round", "author", "created_at", "hidden_at"]
    list_filter = ["season", ("hidden_at", admin.EmptyFieldListFilter)]
    search_fields = ["text", "author__username"]
    list_select_related = ["season", "round", "author"]
    readonly_fields = ["season", "round", "author", "text", "created_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    """Written by season.notifications beside each e-mail; read here, never edited."""

    list_display = ["user", "season", "round", "kind", "created_at", "read_at"]
    list_filter = ["kind", "season"]
    search_fields = ["user__username"]
    list_select_related = ["user", "season", "round"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(ChatHook)
class ChatHookAdmin(admin.ModelAdmin):
    """The seasons' chat webhooks. Their addresses are secrets: the staff see them masked and
    may disable a hook, never read or change its address (the organiser's page does)."""

    list_display = ["season", "kind", "url_masked", "enabled", "failures", "last_failure_at"]
    list_filter = ["kind", "enabled"]
    search_fields = ["season__name", "season__slug"]
    list_select_related = ["season"]
    exclude = ["url"]
    readonly_fields = [
        "season",
        "kind",
        "url_masked",
        "created_by",
        "last_success_at",
        "last_failure_at",
        "last_failure",
        "failures",
    ]

    @admin.display(description=_("webhook address"))
    def url_masked(self, obj: ChatHook) -> str:
        return obj.url_masked

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(ChatDelivery)
class ChatDeliveryAdmin(ReadOnlyAdmin):
    """Each message to a webhook and how its posts went (season.services.chat_hooks)."""

    list_display = ["key", "hook", "event", "status", "attempts", "next_attempt_at", "last_error"]
    list_filter = ["status", "event"]
    search_fields = ["key", "hook__season__slug"]
    list_select_related = ["hook__season"]


rider_actions_register(admin.site)
