"""Phone first for the pages players use every round (issue 29 item 5), in Chromium at 1366 and
390 px, for a classic cycling league (the demo), a Cyclo Sim league and two motor leagues (Grand
Prix dice, Ludicitude): the orders page is a card per rider or car and neither the page nor any
box on it scrolls sideways; the results and standings show the rank, the name, the time or
points and the gap inside the screen; the stage profile shows the whole stage, km 0 to the
finish, inside its figure. Screenshots: test-artifacts/screenshots/phone-<page>-<width>.png."""

import pytest
from django.core.management import call_command
from django.urls import reverse

from season.demo import MOTOR_DEMO_SLUG, demo_load, motor_demo_load
from season.models import Round, Season, SeasonTeam
from season.services.lifecycle import round_open, round_publish
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.helpers import WIDTHS, demo_cyclosim_team, log_in, new_page
from tests.season import motor_builders
from tests.season.builders import stage

#: What scrolls sideways: the page, and every element whose overflow lets it scroll (a table's
#: box, a chart's figure) and whose content is wider than it.
SIDEWAYS = """() => {
  const wide = [];
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth) {
    wide.push(`the page: ${root.scrollWidth} > ${root.clientWidth}`);
  }
  for (const element of document.querySelectorAll("body *")) {
    if (!["auto", "scroll"].includes(getComputedStyle(element).overflowX)) continue;
    if (element.scrollWidth > element.clientWidth) {
      const name = element.tagName.toLowerCase() + (element.id ? "#" + element.id : "")
        + (element.className ? "." + String(element.className).replace(/ /g, ".") : "");
      wide.push(`${name}: ${element.scrollWidth} > ${element.clientWidth}`);
    }
  }
  return wide;
}"""

#: The heading and the first rows' cells of each named column of a table that are not wholly
#: on screen (hidden, or cut by the window's edge), as "heading: why".
CELLS_OFF_SCREEN = """([selector, headings]) => {
  const table = document.querySelector(selector);
  if (!table) return [`no table ${selector}`];
  const heads = [...table.querySelectorAll("thead th")];
  const rows = [...table.querySelectorAll("tbody tr")].slice(0, 3);
  const off = [];
  for (const heading of headings) {
    const index = heads.findIndex((th) => th.textContent.trim() === heading);
    if (index < 0) { off.push(`${heading}: no such column`); continue; }
    for (const cell of [heads[index], ...rows.map((row) => row.children[index])]) {
      const box = cell ? cell.getBoundingClientRect() : null;
      if (!box || box.width === 0) off.push(`${heading}: hidden`);
      else if (box.left < 0 || box.right > window.innerWidth + 0.5) {
        off.push(`${heading}: ${box.left}..${box.right} of ${window.innerWidth}`);
      }
    }
  }
  return off;
}"""

#: The stage profile as drawn at this width (the desktop's or the phone's drawing): its box, its
#: figure's and its finish label's; null when the page draws none.
PROFILE = """() => {
  const shown = [...document.querySelectorAll("figure.chart svg.chart-profile")]
    .filter((svg) => svg.getBoundingClientRect().width > 0);
  if (shown.length !== 1) return {shown: shown.length};
  const svg = shown[0];
  const box = (element) => {
    const r = element.getBoundingClientRect();
    return [r.left, r.right];
  };
  const finish = svg.querySelector(".profile-finish-km");
  return {shown: 1, svg: box(svg), figure: box(svg.closest("figure")),
          finish: box(finish), text: finish.textContent, window: window.innerWidth};
}"""


def cyclosim_league(season: Season) -> SeasonTeam:
    """Beside the demo, a Cyclo Sim league of alice's whose stage 1 is resolved: stage 2's
    orders show each rider's energy, the widest of the orders (11 columns as a table)."""
    team = demo_cyclosim_team(season)
    cyclo = team.season
    call_command("simulate_season", "cyclo", "--stages", "1", "--in-process", verbosity=0)
    round_publish(round=stage(cyclo, 1))  # its results are the organiser's until then
    second = stage(cyclo, 2)
    if second.status != Round.Status.OPEN:
        round_open(round=second)
    return team


def ludicitude_league(season: Season) -> SeasonTeam:
    """A Ludicitude league whose round 1 takes alice's orders."""
    users = {m.user.username: m.user for m in season.memberships.select_related("user")}
    ludi = motor_builders.motor_league(
        organiser=users["olivia"], ruleset="ludicitude", points_system="ludicitude", slug="ludi"
    )
    (team,) = motor_builders.joined(ludi, users["alice"])
    motor_builders.two_cars_each(ludi, team)
    round_open(round=ludi.rounds.get(number=1))
    return team


def orders_url(team: SeasonTeam) -> str:
    return reverse("player-orders", args=[team.season.slug, team.pk])


def look(page, url, name, screenshot, problems, *, check):
    """``url`` at each width: ``check(page, width)`` appends what is wrong to ``problems``; a
    screenshot of each width."""
    page.goto(url)
    page.wait_for_load_state("networkidle")
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(50)
        problems.extend(f"{name} at {width} px: {problem}" for problem in check(page, width))
        screenshot(page, f"phone-{name}-{width}")
        chart = page.locator("figure.chart").first
        if chart.count():  # the chart alone, to read its labels at this width
            chart.screenshot(path=str(ARTIFACTS / f"phone-{name}-chart-{width}.png"))
    page.set_viewport_size({"width": WIDTHS[0], "height": 900})


def orders_check(seats):
    """The orders page: a card per seat (``seats`` of them), nothing scrolls sideways."""

    def check(page, width):
        cards = page.locator("form#seat-orders fieldset.seat-orders").count()
        wrong = [] if cards == seats else [f"{cards} cards for {seats} seats"]
        return wrong + page.evaluate(SIDEWAYS)

    return check


def page_width(page) -> list[str]:
    scroll, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    return [f"the page scrolls sideways ({scroll} > {inner})"] if scroll > inner else []


def table_check(selector, headings):
    """A results or standings page: ``headings``' cells on screen (the table itself does not
    need to scroll), and the page does not scroll sideways (a chart of it may, in its figure)."""

    def check(page, width):
        return page.evaluate(CELLS_OFF_SCREEN, [selector, list(headings)]) + page_width(page)

    return check


def profile_check(*, then=None):
    """The stage profile whole: the finish's km label inside the drawing, the drawing inside its
    figure and the window; then ``then``'s checks."""

    def check(page, width):
        drawn = page.evaluate(PROFILE)
        if drawn["shown"] != 1:
            wrong = [f"{drawn['shown']} profiles shown"]
        else:
            left, right = drawn["svg"]
            wrong = [
                f"{what} {box} outside {inside}"
                for what, box, inside in (
                    ("the drawing", drawn["svg"], drawn["figure"]),
                    ("the drawing", drawn["svg"], [0, drawn["window"]]),
                    (f"the finish ({drawn['text']})", drawn["finish"], [left, right]),
                )
                if box[0] < inside[0] - 0.5 or box[1] > inside[1] + 0.5
            ]
        return wrong + (then(page, width) if then else [])

    return check


def pages_check(browser, base, screenshot, pages):
    """Alice looks at ``pages`` ({name: (url, check)}) at both widths; nothing is wrong with
    them and no page logs an error."""
    errors: list[str] = []
    problems: list[str] = []
    page = new_page(browser, errors)
    log_in(page, base, "alice", "alice-demo")
    for name, (url, check) in pages.items():
        look(page, base + url, name, screenshot, problems, check=check)
    assert not problems, "\n".join(problems)
    assert not errors, errors


RESULTS = "table.data"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_cycling_rounds_pages_fit_a_phone(live_server, browser, screenshot):
    season = demo_load()
    call_command("simulate_season", "demo", "--stages", "1-2", "--in-process", verbosity=0)
    cyclo_team = cyclosim_league(season)
    alice_team = season.teams.get(owner__username="alice")
    assert stage(season, 3).status == Round.Status.OPEN
    full = ("#", "Rider", "Time", "Gap")
    pages = {
        "orders-classic": (orders_url(alice_team), profile_check(then=orders_check(8))),
        "orders-cyclosim": (
            orders_url(cyclo_team),
            profile_check(then=orders_check(cyclo_team.seats.count())),
        ),
        "stage-classic": (
            reverse("season-stage", args=["demo", 1]),
            profile_check(then=table_check(RESULTS, full)),
        ),
        "stage-gc-top": (
            reverse("season-stage", args=["demo", 2]),
            table_check("#gc-top", ("#", "Rider", "Time")),
        ),
        "stage-cyclosim": (
            reverse("season-stage", args=["cyclo", 1]),
            table_check(RESULTS, full),
        ),
    }
    for classification, value in (
        ("general", "Total"),
        ("youth", "Total"),
        ("points", "Points"),
        ("mountains", "Points"),
    ):
        pages[f"standings-{classification}"] = (
            reverse("season-standings", args=["demo", classification]),
            table_check(RESULTS, ("#", "Rider", value, "Gap")),
        )
    pages["standings-teams"] = (
        reverse("season-standings", args=["demo", "teams"]),
        table_check(RESULTS, ("#", "Team", "Total", "Gap")),
    )
    pages_check(browser, live_server.url, screenshot, pages)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_grand_prix_rounds_pages_fit_a_phone(live_server, browser, screenshot):
    motor = motor_demo_load()
    call_command("simulate_season", MOTOR_DEMO_SLUG, "--stages", "1", "--in-process", verbosity=0)
    assert stage(motor, 2).status == Round.Status.OPEN
    root = f"/seasons/{MOTOR_DEMO_SLUG}"
    pages = {
        "orders-grandprix": (
            orders_url(motor.teams.get(owner__username="alice")),
            orders_check(2),
        ),
        "grand-prix-results": (
            f"{root}/grands-prix/1/",
            table_check(RESULTS, ("Pos.", "Driver", "Time / gap", "Points")),
        ),
        "grand-prix-round": (f"{root}/stages/1/", lambda page, width: page_width(page)),
        "championship-drivers": (
            f"{root}/championship/standings/drivers/",
            table_check(RESULTS, ("Pos.", "Driver", "Points", "Gap")),
        ),
        "championship-constructors": (
            f"{root}/championship/standings/constructors/",
            table_check(RESULTS, ("Pos.", "Constructor", "Points", "Gap")),
        ),
    }
    pages_check(browser, live_server.url, screenshot, pages)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_ludicitude_orders_page_fits_a_phone(live_server, browser, screenshot):
    season = demo_load()
    team = ludicitude_league(season)
    pages = {"orders-ludicitude": (orders_url(team), orders_check(2))}
    pages_check(browser, live_server.url, screenshot, pages)
