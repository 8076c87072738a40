"""Steps the browser tests share."""

import re
from datetime import timedelta

from django.utils import timezone

from races.models import Race
from races.team_rules import rider_price
from riders.models import Rider
from season.models import Season


def logged_in_pages(browser, base, usernames, errors):
    """A page per demo user (own browser context), logged in; console and page errors are
    appended to ``errors`` as (username, text)."""
    pages = {}
    for who in usernames:
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        page.on(
            "console",
            lambda msg, who=who: errors.append((who, msg.text)) if msg.type == "error" else None,
        )
        page.on("pageerror", lambda error, who=who: errors.append((who, str(error))))
        log_in(page, base, who, f"{who}-demo")
        pages[who] = page
    return pages


def admin_log_in(page, base, username, password):
    page.goto(base + "/admin/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("input[type=submit]")
    page.wait_for_url(base + "/admin/")


def log_in(page, base, username, password):
    page.goto(base + "/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("form[action='/accounts/login/'] button[type=submit]")
    page.wait_for_url(re.compile(r".*/$"))


def cheap_riders(count, *, exclude=()):
    """`count` riders of distinct real teams, cheap enough for any budget."""
    chosen, teams = [], set()
    for rider in sorted(Rider.objects.exclude(pk__in=exclude), key=rider_price):
        if rider.team_id not in teams:
            chosen.append(rider)
            teams.add(rider.team_id)
        if len(chosen) == count:
            return chosen
    raise AssertionError("not enough riders")


def season_create(
    page,
    base,
    *,
    name,
    slug,
    roster,
    ruleset="moreno",
    screenshot=None,
    peloton=None,
    event_slug="tour-de-france-2023",
):
    """The organiser creates a season from a real race (the Tour unless ``event_slug`` names
    another), teams picked within a budget (and ``peloton``: "players" for the players' riders
    only, the form's whole start list otherwise); returns it."""
    page.goto(base + "/my/new-season/")
    page.fill("#id_name", name)
    page.fill("#id_slug", slug)
    template = Race.objects.get(slug=event_slug)
    page.select_option("#id_event", f"race-{template.pk}")
    page.select_option("#id_ruleset", ruleset)
    page.select_option("#id_formation_mode", "budget")
    page.fill("#id_roster_size", str(roster))
    if peloton:
        page.select_option("#id_peloton", peloton)
    # A month ahead: a season must end within two years (season.leagues.DEADLINE_HORIZON).
    first = timezone.localtime(timezone.now() + timedelta(days=30))
    page.fill("#id_first_deadline", first.strftime("%Y-%m-%dT20:00"))
    if screenshot:
        screenshot(page, "organiser-create-season")
    page.click("form[action='/my/new-season/'] button[type=submit]")
    page.wait_for_url(base + f"/seasons/{slug}/organise/")
    return Season.objects.get(slug=slug)


def team_join(page, base, season, *, name, riders):
    """A player follows the invitation, names his team and picks ``riders``."""
    invite = f"/join/{season.invite_code}/"
    page.goto(base + invite)
    page.fill("#id_team_name", name)
    page.click(f"form[action='{invite}'] button[type=submit]")
    page.wait_for_url(re.compile(r".*/teams/\d+/manage/$"))
    for rider in riders:
        # A long start list is folded by real team: open the rider's, as a player does.
        box = page.locator(f"#pick-{rider.pk}")
        if not box.is_visible():
            page.locator(f"details:has(#pick-{rider.pk}) > summary").click()
        box.check()
    page.click("#budget button[type=submit]")
    page.wait_for_load_state()


def stage_publish(page, base, slug, number):
    """The organiser publishes a resolved stage's results, confirming when asked."""
    page.goto(base + f"/seasons/{slug}/stages/{number}/")
    page.click("a:has-text('Publish results')")
    page.wait_for_load_state()
    page.click(".confirm form.actions button[type=submit]")
    page.wait_for_load_state()


WIDTHS = (1366, 390)


def check_widths(page, name, screenshot, errors):
    """The page at 1366 and 390 px: no sideways scroll, no console error; a screenshot of each
    (``name``-1366, ``name``-390)."""
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(100)
        scroll, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert scroll <= inner, f"{name} at {width} px scrolls sideways ({scroll} > {inner})"
        screenshot(page, f"{name}-{width}")
    page.set_viewport_size({"width": 1366, "height": 900})
    assert not errors, f"{name}: {errors}"


def close_ups(page, name, screenshot, selectors, *, width=390):
    """Screenshots of the first element of each selector at ``width`` (``name``-part-N)."""
    page.set_viewport_size({"width": width, "height": 900})
    for index, selector in enumerate(selectors):
        path = screenshot(page, f"{name}-{width}")
        page.locator(selector).first.screenshot(
            path=str(path.with_name(f"{name}-part-{index}.png"))
        )
    page.set_viewport_size({"width": 1366, "height": 900})


def new_page(browser, errors):
    """A page of its own browser context at 1366 px; console and page errors go to ``errors``."""
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page


def demo_cyclosim_team(season: Season):
    """Beside the demo ``season``, a Cyclo Sim league of olivia's on the demo's Tour ("cyclo"),
    alice's team of four cheap riders picked within the budget; returns alice's team."""
    from season import formation
    from tests.season.builders import joined, league

    users = {m.user.username: m.user for m in season.memberships.select_related("user")}
    cyclo = league(
        organiser=users["olivia"],
        template=Race.objects.get(slug="tour-de-france-2023"),
        slug="cyclo",
        ruleset="cyclosim",
        roster_size=4,
        formation_mode=Season.FormationMode.BUDGET,
    )
    (team,) = joined(cyclo, users["alice"])
    formation.team_select(team=team, pickable_ids=[r.pk for r in cheap_riders(4)])
    return team


def demo_event_key(discipline: str) -> str:
    """The create form's key of the demo's real event of a discipline: the Tour de France 2023
    ("cycling"), the 1981 championship the motor demo was copied from ("motor")."""
    from season.demo import MOTOR_DEMO_SLUG

    if discipline == "cycling":
        return f"race-{Race.objects.get(slug='tour-de-france-2023').pk}"
    demo = Season.objects.get(slug=MOTOR_DEMO_SLUG)
    return f"championship-{demo.championship.copied_from_id}"
