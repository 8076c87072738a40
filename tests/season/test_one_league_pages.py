"""One set of public pages for every game (issue 27): the season's public views and templates
never ask which game a season plays; what differs is the adapter's (its league_* members and
templates, tests/test_plugins_protocol.py)."""

import re
from pathlib import Path

import pytest
from django.urls import NoReverseMatch, reverse

ROOT = Path(__file__).resolve().parents[2]
#: The questions a discipline's copy of the league used to ask.
WHICH_GAME = re.compile(r"is_motor|race_id is None|grand_prix_id|championship_id is None")
PUBLIC_PAGES = [
    "season/views/public.py",
    "season/views/results.py",
    "season/views/event_pages.py",
    "season/results.py",
    "templates/season/organiser/calendar.html",
    *sorted(
        str(path.relative_to(ROOT))
        for folder in ("templates/season/league", "templates/season/public")
        for path in (ROOT / folder).glob("*.html")
    ),
]


def test_the_public_pages_never_ask_which_game_a_season_plays():
    asked = [
        f"{name}:{number}: {line.strip()}"
        for name in PUBLIC_PAGES
        for number, line in enumerate((ROOT / name).read_text().splitlines(), start=1)
        if WHICH_GAME.search(line)
    ]
    assert asked == []


def test_the_seasons_public_templates_are_not_a_disciplines_copy():
    # The discipline's fragments are its adapter's (templates/races/league/, motor/league/).
    for name in ("season", "round", "dice", "team_public", "no_standings", "_calendar", "_tabs"):
        assert not (ROOT / f"templates/season/motor/{name}.html").exists(), name


TEAM_TEMPLATES = ["team.html", "_draft.html", "_budget_summary.html"]


def test_a_players_team_page_is_one_for_every_game():
    # One view, one pick view, one wish list view and one set of templates for riders and
    # cars: what differs is the adapter's (plugins.formation.TeamFormation).
    assert not (ROOT / "templates/season/motor/team.html").exists()
    source = (ROOT / "season/views/player.py").read_text()
    forming = source[source.index("# --- forming the team") : source.index("# --- orders ---")]
    assert not re.search(r"is_championship|motor|Rider\.objects|Entry", forming)
    with pytest.raises(NoReverseMatch):
        reverse("player-car-pick", kwargs={"slug": "s", "team_id": 1})


def test_the_team_pages_forms_post_no_disciplines_field():
    for name in TEAM_TEMPLATES:
        text = (ROOT / "templates/season/player" / name).read_text()
        assert not re.search(r'name="(rider|riders|entry|entries|car|cars)"', text), name
