"""Every public page and every member page of a cycling league and of a motor league in
Chromium (issues 17 and 29), the odds pages and the 404 included, in English and in French, at
1366 px and at 390 px: none scrolls sideways (wide tables scroll inside their own box, but no
box hides the orders or a classification's time, points or gap), none logs a console error,
axe-core (WCAG 2.2 A and AA) finds no violation on it (the conftest's gate, run again here at
each width), and no French page holds an English sentence (names aside). A screenshot of each
is saved under test-artifacts/screenshots/every-<language>-<page>-<width>.png."""

import re

import pytest
from django.core.management import call_command
from django.urls import reverse

from motor.models import Constructor, Driver, Track
from races.models import Race, StageResult
from riders.models import Rider, Team
from season import formation
from season.demo import demo_load, motor_demo_load
from season.models import Round, Season, SeasonTeam
from season.notifications import notifications_send
from season.services.comments import comment_hide, comment_post
from season.services.lifecycle import round_open
from tests.e2e.axe import axe_flush
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.helpers import cheap_riders, demo_cyclosim_team, log_in
from tests.season.builders import joined, league, stage

WIDTHS = (1366, 390)
LANGUAGES = ("en", "fr")


def public_pages(season: Season) -> dict[str, str]:
    slug = season.slug
    team = season.teams.order_by("pk").first()
    result = (
        StageResult.objects.filter(stage__race=season.event, rank=1, stage__number=1)
        .select_related("rider")
        .get()
    )
    abandoned = StageResult.objects.filter(stage__race=season.event).exclude(status="finished")
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
        "calendar-renew": reverse("calendar-renew"),
        "api-token": reverse("api-token"),
        "join-code": reverse("season-join-code"),
        "new-season": reverse("season-create"),
        "my-team": reverse("player-team", args=[slug, team.pk]),
        "orders": reverse("player-orders", args=[slug, team.pk]),
        "draft": reverse("player-team", args=[drafting.slug, draft_team.pk]),
        "cyclosim-team": reverse("player-team", args=[cyclo.slug, cyclo_team.pk]),
        "cyclosim-orders": reverse("player-orders", args=[cyclo.slug, cyclo_team.pk]),
        "round-odds": reverse("season-round-odds", args=[slug, 3]),
    }


def motor_public_pages(season: Season) -> dict[str, str]:
    """The motor league's public pages (demo-f1, rounds 1 and 2 resolved) and the real
    championship it was copied from."""
    slug = season.slug
    team = season.teams.order_by("pk").first()
    driver = Driver.objects.filter(entries__championship=season.championship).first()
    constructor = Constructor.objects.filter(entries__championship=season.championship).first()
    real = season.championship.copied_from.slug
    return {
        "f1-season": reverse("season-detail", args=[slug]),
        "f1-round-resolved": reverse("season-stage", args=[slug, 1]),
        "f1-round-open": reverse("season-stage", args=[slug, 3]),
        "f1-dice": reverse("season-stage-dice", args=[slug, 1]),
        "f1-grand-prix": reverse("season-grand-prix", args=[slug, 1]),
        "f1-team": reverse("season-team", args=[slug, team.pk]),
        "f1-players": reverse("season-players", args=[slug]),
        "f1-drivers": reverse("season-motor-standings", args=[slug, "drivers"]),
        "f1-constructors": reverse("season-motor-standings", args=[slug, "constructors"]),
        "f1-what-if": reverse("season-motor-what-if", args=[slug, "drivers"]),
        "f1-driver": reverse("season-motor-driver", args=[slug, driver.slug]),
        "f1-constructor": reverse("season-motor-constructor", args=[slug, constructor.slug]),
        "rules-grandprix": reverse("ruleset-rules", args=["grandprix"]),
        "rules-ludicitude": reverse("ruleset-rules", args=["ludicitude"]),
        "real-championship": reverse("motor-championship", args=[real]),
        "real-round": reverse("motor-round", args=[real, 1]),
        "real-standings": reverse("motor-standings", args=[real, "drivers"]),
    }


def motor_member_pages(season: Season) -> dict[str, str]:
    team = season.teams.get(owner__username="alice")
    return {
        "f1-my-team": reverse("player-team", args=[season.slug, team.pk]),
        "f1-orders": reverse("player-orders", args=[season.slug, team.pk]),
        "f1-round-odds": reverse("season-round-odds", args=[season.slug, 3]),
    }


def motor_organiser_pages(season: Season) -> dict[str, str]:
    slug = season.slug
    return {
        "f1-organise": reverse("organiser-season", args=[slug]),
        "f1-settings": reverse("organiser-settings", args=[slug]),
        "f1-game-settings": reverse("organiser-game-settings", args=[slug]),
        "f1-calendar": reverse("organiser-calendar", args=[slug]),
    }


#: English words no French sentence holds: a line with two of them is English.
ENGLISH = frozenset(
    [
        "the",
        "and",
        "your",
        "with",
        "is",
        "are",
        "this",
        "for",
        "of",
        "to",
        "has",
        "have",
        "will",
        "was",
        "which",
        "when",
        "after",
        "before",
        "from",
        "into",
        "each",
        "their",
        "they",
        "you",
        "not",
        "been",
        "be",
        "its",
        "it",
        "by",
    ]
)


def english_lines(text: str, names: list[str]) -> list[str]:
    """The lines of a French page's text that read as English, once the names (riders, teams,
    drivers, tracks, the players' comments) are taken out."""
    found = []
    for line in text.splitlines():
        bare = line
        for name in names:
            if name in bare:
                bare = bare.replace(name, " ")
        words = set(re.findall(r"[a-z']+", bare.lower()))
        if len(words & ENGLISH) >= 2:
            found.append(line.strip()[:120])
    return found


def known_names() -> list[str]:
    """Every name a page may show as it is, longest first (so a team's name goes before the
    rider's it holds)."""
    names = {
        *Rider.objects.values_list("name", flat=True),
        *Team.objects.values_list("name", flat=True),
        *SeasonTeam.objects.values_list("name", flat=True),
        *Driver.objects.values_list("name", flat=True),
        *Constructor.objects.values_list("name", flat=True),
        *Season.objects.values_list("name", flat=True),
        *COMMENTS,
    }
    for track in Track.objects.all():
        names.add(track.name.replace(" (our simplified approximation)", ""))
        names.update(str(c.get("name") or "") for c in track.content.get("corners") or [])
    return sorted((n for n in names if n), key=len, reverse=True)


#: What a box that must not hide them scrolls away: the orders, a classification's figures.
HIDDEN_FIGURES_JS = """() => {
  const figures = /^(time|gap|points|pts|time \\/ gap|temps|écart|temps \\/ écart)$/i;
  // A classification: a table with a gap or points column (a draft's pick times are not).
  const ranks = /^(gap|points|pts|time \\/ gap|écart|temps \\/ écart)$/i;
  const bad = [];
  for (const th of document.querySelectorAll("table thead th")) {
    if (!figures.test(th.innerText.trim()) || th.closest("details:not([open]), [hidden]")) continue;
    const table = th.closest("table");
    const heads = [...table.querySelectorAll("thead th")].map((h) => h.innerText.trim());
    if (!heads.some((h) => ranks.test(h))) continue;
    if (table.offsetParent === null) continue;
    const label = (table.id || table.className || "table") + ": " + th.innerText.trim();
    if (getComputedStyle(th).display === "none") { bad.push(label + " hidden"); continue; }
    const box = table.closest(".table-container") || table.parentElement;
    const edge = Math.min(box.getBoundingClientRect().right, window.innerWidth);
    if (th.getBoundingClientRect().right > edge + 1) bad.push(label + " off screen");
  }
  const orders = document.getElementById("seat-orders");
  if (orders) {
    for (const box of [orders, ...orders.querySelectorAll("*")]) {
      const style = getComputedStyle(box);
      if (/(auto|scroll)/.test(style.overflowX) && box.scrollWidth > box.clientWidth + 1)
        bad.push("orders box scrolls sideways: " + (box.id || box.className || box.tagName));
    }
  }
  return bad;
}"""


def organiser_pages(season: Season, drafting: Season) -> dict[str, str]:
    slug = season.slug
    return {
        "organise": reverse("organiser-season", args=[slug]),
        "stage-comments": reverse("season-stage", args=[slug, 1]),
        "settings": reverse("organiser-settings", args=[slug]),
        "game-settings": reverse("organiser-game-settings", args=[slug]),
        "calendar": reverse("organiser-calendar", args=[slug]),
        "shift": reverse("organiser-deadlines-shift", args=[slug]),
        "chat": reverse("organiser-chat", args=[slug]),
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
    team = demo_cyclosim_team(season)
    cyclo = team.season
    assert SeasonTeam.objects.get(pk=team.pk).seats.count() == 4
    first = stage(cyclo, 1)
    if first.status != Round.Status.OPEN:
        round_open(round=first)
    return drafting, cyclo


#: The players' comments (their words, in their language).
COMMENTS = ("What a finish!\nSee you tomorrow.", "Rude words")


def community(season: Season) -> None:
    """Comments on stage 1 (one hidden by the organiser) and on the season, and the players'
    notices (the bell and the notifications page)."""
    users = {m.user.username: m.user for m in season.memberships.select_related("user")}
    first = stage(season, 1)
    comment_post(season=season, round=first, user=users["alice"], text=COMMENTS[0])
    rude = comment_post(season=season, round=first, user=users["bob"], text=COMMENTS[1])
    comment_hide(comment=rude, organiser_id=season.organiser_id, user=users["olivia"])
    long_word = "https://example.org/" + "x" * 120
    comment_post(season=season, round=None, user=users["olivia"], text=f"Welcome! {long_word}")
    notifications_send()


def visit(page, base, name, url, language, screenshot, problems, errors, names=()):
    errors.clear()
    if isinstance(url, tuple):  # a page reached by a button: (the page holding it, the button)
        url, button = url
        page.goto(base + url)
        page.click(button)
    else:
        page.goto(base + url)
    page.wait_for_load_state("networkidle")
    if language == "fr":
        for line in english_lines(page.inner_text("body"), list(names)):
            problems.append(f"fr {name}: English on a French page: {line!r}")
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(50)
        scroll, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        if scroll > inner:
            problems.append(f"{language} {name} at {width} px scrolls sideways: {scroll} > {inner}")
        for hidden in page.evaluate(HIDDEN_FIGURES_JS):
            problems.append(f"{language} {name} at {width} px: {hidden}")
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
    motor = motor_demo_load()
    call_command("simulate_season", motor.slug, "--stages", "1-2", "--in-process", verbosity=0)
    drafting, cyclo = leagues(season)
    community(season)
    names = known_names()
    base = live_server.url
    problems: list[str] = []
    errors: list[str] = []
    for language in LANGUAGES:
        context, visitor = new_page(browser, base, language, errors)
        for name, url in (public_pages(season) | motor_public_pages(motor)).items():
            visit(visitor, base, name, url, language, screenshot, problems, errors, names)
        context.close()
        for username, pages in (
            ("alice", member_pages(season, drafting, cyclo) | motor_member_pages(motor)),
            ("olivia", organiser_pages(season, drafting) | motor_organiser_pages(motor)),
        ):
            context, member = new_page(browser, base, language, errors)
            log_in(member, base, username, f"{username}-demo")
            if language == "fr":  # the member's own choice, kept across browsers (issue 29)
                member.click("button[name='language'][value='fr']")
                member.wait_for_load_state()
            for name, url in pages.items():
                visit(member, base, name, url, language, screenshot, problems, errors, names)
            context.close()
    assert not problems, "\n".join(problems)
    assert browser.axe_log.checked
