"""Every public page and every member page of a cycling league in Chromium (issue 17), in English
and in French, at 1366 px and at 390 px: none scrolls sideways (wide tables scroll inside their
own box), none logs a console error, and axe-core (WCAG 2.2 A and AA) finds no violation on it
(the conftest's gate, run again here at each width). A screenshot of each is saved under
test-artifacts/screenshots/every-<language>-<page>-<width>.png."""

import pytest
from django.core.management import call_command
from django.urls import reverse

from races.models import Race, StageResult
from season import formation
from season.demo import demo_load
from season.models import Round, Season, SeasonTeam
from season.notifications import notifications_send
from season.services.comments import comment_hide, comment_post
from season.services.lifecycle import round_open
from tests.e2e.axe import axe_flush
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.helpers import cheap_riders, log_in
from tests.season.builders import joined, league, stage

WIDTHS = (1366, 390)
LANGUAGES = ("en", "fr")


def public_pages(season: Season) -> dict[str, str]:
    slug = season.slug
    team = season.teams.order_by("pk").first()
    result = (
        StageResult.objects.filter(stage__race=season.race, rank=1, stage__number=1)
        .select_related("rider")
        .get()
    )
    abandoned = StageResult.objects.filter(stage__race=season.race).exclude(status="finished")
    pages = {
        "home": reverse("home"),
        "season": reverse("season-detail", args=[slug]),
        "stage-resolved": reverse("season-stage", args=[slug, 1]),
        "stage-open": reverse("season-stage", args=[slug, 3]),
        "dice": reverse("season-stage-dice", args=[slug, 1]),
        "rider": reverse("season-rider", args=[slug, result.rider_id]),
        "team": reverse("season-team", args=[slug, team.pk]),
        "rules-moreno": reverse("ruleset-rules", args=["moreno"]),
        "rules-cyclosim": reverse("ruleset-rules", args=["cyclosim"]),
        "invitation": reverse("season-join", args=[season.invite_code]),
        "login": reverse("login"),
        "signup": reverse("signup"),
        "password-reset": reverse("password_reset"),
        "not-found": "/no/such/page/",
        "players-ranking": reverse("season-players", args=[slug]),
        "abandons": reverse("season-abandons", args=[slug]),
    }
    for classification in ("general", "points", "mountains", "youth", "teams"):
        pages[f"standings-{classification}"] = reverse(
            "season-standings", args=[slug, classification]
        )
    if abandoned.exists():
        pages["rider-abandoned"] = reverse("season-rider", args=[slug, abandoned.first().rider_id])
    return pages


def member_pages(season: Season, drafting: Season, cyclo: Season) -> dict[str, str]:
    """Alice's pages: her seasons, her teams (formed, drafting, Cyclo Sim) and their orders."""
    slug = season.slug
    team = season.teams.get(owner__username="alice")
    draft_team = drafting.teams.get(owner__username="alice")
    cyclo_team = cyclo.teams.get(owner__username="alice")
    return {
        "my-seasons": reverse("my-seasons"),
        "notifications": reverse("notifications"),
        "notification-settings": reverse("notification-settings"),
        "join-code": reverse("season-join-code"),
        "new-season": reverse("season-create"),
        "my-team": reverse("player-team", args=[slug, team.pk]),
        "orders": reverse("player-orders", args=[slug, team.pk]),
        "draft": reverse("player-team", args=[drafting.slug, draft_team.pk]),
        "cyclosim-team": reverse("player-team", args=[cyclo.slug, cyclo_team.pk]),
        "cyclosim-orders": reverse("player-orders", args=[cyclo.slug, cyclo_team.pk]),
    }


def organiser_pages(season: Season, drafting: Season) -> dict[str, str]:
    slug = season.slug
    return {
        "organise": reverse("organiser-season", args=[slug]),
        "stage-comments": reverse("season-stage", args=[slug, 1]),
        "settings": reverse("organiser-settings", args=[slug]),
        "game-settings": reverse("organiser-game-settings", args=[slug]),
        "calendar": reverse("organiser-calendar", args=[slug]),
        "shift": reverse("organiser-deadlines-shift", args=[slug]),
        "confirm-resolve": reverse("season-stage-action-confirm", args=[slug, 3, "resolve"]),
        "confirm-code": reverse("organiser-invite-regenerate-confirm", args=[slug]),
        "organise-draft": reverse("organiser-season", args=[drafting.slug]),
        "confirm-draft": reverse("organiser-draft-start-confirm", args=[drafting.slug]),
    }


def leagues(season: Season) -> tuple[Season, Season]:
    """Beside the demo: a league still drafting (the draft board) and a Cyclo Sim league whose
    stage 1 takes orders (its wide orders table)."""
    users = {m.user.username: m.user for m in season.memberships.select_related("user")}
    template = Race.objects.get(slug="tour-de-france-2023")
    drafting = league(organiser=users["olivia"], template=template, slug="drafting", roster_size=8)
    alice_drafting, _bob_drafting = joined(drafting, users["alice"], users["bob"])
    formation.draft_start(season=drafting)
    # The draft page's pick clock and wish list (issue 17) are on the pages visited too.
    Season.objects.filter(pk=drafting.pk).update(draft_pick_minutes=30)
    formation.wish_add(team=alice_drafting, pickable=cheap_riders(1)[0])
    cyclo = league(
        organiser=users["olivia"],
        template=template,
        slug="cyclo",
        ruleset="cyclosim",
        roster_size=4,
        formation_mode=Season.FormationMode.BUDGET,
    )
    (team,) = joined(cyclo, users["alice"])
    formation.team_select(team=team, pickable_ids=[r.pk for r in cheap_riders(4)])
    assert SeasonTeam.objects.get(pk=team.pk).seats.count() == 4
    first = stage(cyclo, 1)
    if first.status != Round.Status.OPEN:
        round_open(round=first)
    return drafting, cyclo


def community(season: Season) -> None:
    """Comments on stage 1 (one hidden by the organiser) and on the season, and the players'
    notices (the bell and the notifications page)."""
    users = {m.user.username: m.user for m in season.memberships.select_related("user")}
    first = stage(season, 1)
    comment_post(
        season=season, round=first, user=users["alice"], text="What a finish!\nSee you tomorrow."
    )
    rude = comment_post(season=season, round=first, user=users["bob"], text="Rude words")
    comment_hide(comment=rude, organiser_id=season.organiser_id, user=users["olivia"])
    long_word = "https://example.org/" + "x" * 120
    comment_post(season=season, round=None, user=users["olivia"], text=f"Welcome! {long_word}")
    notifications_send()


def visit(page, base, name, url, language, screenshot, problems, errors):
    errors.clear()
    page.goto(base + url)
    page.wait_for_load_state("networkidle")
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(50)
        scroll, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        if scroll > inner:
            problems.append(f"{language} {name} at {width} px scrolls sideways: {scroll} > {inner}")
        axe_flush(page)
        screenshot(page, f"every-{language}-{name}-{width}")
        charts = page.locator("figure.chart")
        if charts.count():  # the chart alone, to read its labels and legend
            charts.first.screenshot(
                path=str(ARTIFACTS / f"every-{language}-{name}-chart-{width}.png")
            )
    page.set_viewport_size({"width": WIDTHS[0], "height": 900})
    expected = ("404 (Not Found)",) if name == "not-found" else ()
    for error in errors:
        if not any(e in error for e in expected):
            problems.append(f"{language} {name}: console error {error}")


def new_page(browser, base, language, errors):
    context = browser.new_context(viewport={"width": WIDTHS[0], "height": 900})
    context.add_cookies([{"name": "django_language", "value": language, "url": base}])
    page = context.new_page()
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return context, page


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_every_page_at_both_widths_in_both_languages(live_server, browser, screenshot):
    season = demo_load()
    call_command("simulate_season", "demo", "--stages", "1-2", "--in-process", verbosity=0)
    drafting, cyclo = leagues(season)
    community(season)
    base = live_server.url
    problems: list[str] = []
    errors: list[str] = []
    for language in LANGUAGES:
        context, visitor = new_page(browser, base, language, errors)
        for name, url in public_pages(season).items():
            visit(visitor, base, name, url, language, screenshot, problems, errors)
        context.close()
        for username, pages in (
            ("alice", member_pages(season, drafting, cyclo)),
            ("olivia", organiser_pages(season, drafting)),
        ):
            context, member = new_page(browser, base, language, errors)
            log_in(member, base, username, f"{username}-demo")
            for name, url in pages.items():
                visit(member, base, name, url, language, screenshot, problems, errors)
            context.close()
    assert not problems, "\n".join(problems)
    assert browser.axe_log.checked
