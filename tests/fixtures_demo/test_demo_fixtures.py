"""Checks on the demo data in fixtures/demo (Tour de France 2023).

Pure Python (csv, json, datetime): no Django, no database. Run with
``.venv/bin/python -m pytest tests/fixtures_demo -q``; without the Django plugin, also skip the
Django-bound ``tests/conftest.py`` and the pytest-django ``--reuse-db`` addopt:
``.venv/bin/python -m pytest tests/fixtures_demo -p no:django -o addopts="" --noconftest -q``.
"""

from __future__ import annotations

import csv
import json
import re
from collections import Counter, defaultdict
from datetime import date
from functools import cache
from pathlib import Path

import pytest

from engine.cycling.profile import PROFILE_AXES

DEMO = Path(__file__).resolve().parents[2] / "fixtures" / "demo"

AXES = PROFILE_AXES
RATINGS = {"H": -1, "0": 0, "1": 1, "2": 2, "3": 3, "4": 4}
ROLES = {"gc_leader", "sprinter", "breakaway", "domestique"}
ROLE_LIMITS = {"gc_leader": 1, "sprinter": 1, "breakaway": 2}
TERRAINS = {"plain", "hill", "col3", "col2", "col1", "colhc", "descent"}
COLS = {"col3", "col2", "col1", "colhc"}
CLIMBS = COLS | {"hill"}
STAGE_TYPES = {"flat", "hilly", "mountain", "ITT", "TTT"}
MAX_FOURS_PER_AXIS = 8

# Facts: the stage winners of the Tour de France 2023 (stage -> ProCyclingStats slug).
STAGE_WINNERS_2023 = {
    1: "adam-yates",
    2: "victor-lafay",
    3: "jasper-philipsen",
    4: "jasper-philipsen",
    5: "jai-hindley",
    6: "tadej-pogacar",
    7: "jasper-philipsen",
    8: "mads-pedersen",
    9: "michael-woods",
    10: "pello-bilbao",
    11: "jasper-philipsen",
    12: "ion-izagirre",
    13: "michal-kwiatkowski",
    14: "carlos-rodriguez-cano",
    15: "wout-poels",
    16: "jonas-vingegaard",
    17: "felix-gall",
    18: "kasper-asgreen",
    19: "matej-mohoric",
    20: "tadej-pogacar",
    21: "jordi-meeus",
}
# The axis (any of) a winner of each stage type must be rated >= 3 on.
WINNING_AXES = {
    "flat": ("sprinter",),
    "hilly": ("puncheur", "finisseur", "baroudeur"),
    "mountain": ("climber", "baroudeur"),
    "ITT": ("time_trialist",),
}


@cache
def teams() -> tuple[dict[str, str], ...]:
    with (DEMO / "teams.csv").open(encoding="utf-8", newline="") as f:
        return tuple(csv.DictReader(f))


@cache
def riders() -> tuple[dict[str, str], ...]:
    with (DEMO / "riders.csv").open(encoding="utf-8", newline="") as f:
        return tuple(csv.DictReader(f))


@cache
def stages() -> tuple[dict, ...]:
    with (DEMO / "stages.json").open(encoding="utf-8") as f:
        return tuple(json.load(f))


def by_slug() -> dict[str, dict[str, str]]:
    return {r["pcs_slug"]: r for r in riders()}


def rating(rider: dict[str, str], axis: str) -> int:
    return RATINGS[rider[axis]]


# --- teams -----------------------------------------------------------------------------------


def test_teams_csv_columns() -> None:
    with (DEMO / "teams.csv").open(encoding="utf-8", newline="") as f:
        header = next(csv.reader(f))
    assert header == ["name", "code", "nationality", "year", "aliases"]


def test_22_teams_with_unique_names_and_codes() -> None:
    rows = teams()
    assert len(rows) == 22
    assert len({t["name"] for t in rows}) == 22
    assert len({t["code"] for t in rows}) == 22
    for t in rows:
        assert re.fullmatch(r"[A-Z]{3}", t["code"]), t
        assert re.fullmatch(r"[A-Z]{3}", t["nationality"]), t
        assert t["year"] == "2023", t


def test_team_aliases_are_distinct_spellings() -> None:
    seen: dict[str, str] = {}
    for t in teams():
        aliases = t["aliases"].split("|")
        assert all(a and a.strip() == a for a in aliases), t
        assert t["name"] not in aliases, t
        for alias in aliases:
            assert alias not in seen, f"{alias!r} is an alias of {seen[alias]} and {t['name']}"
            seen[alias] = t["name"]
    names = {t["name"] for t in teams()}
    assert not names & set(seen), "an alias equals another team's name"


def test_known_team_codes() -> None:
    codes = {t["name"]: t["code"] for t in teams()}
    assert codes["Jumbo-Visma"] == "TJV"
    assert codes["UAE Emirates"] == "UAD"


# --- riders ----------------------------------------------------------------------------------


def test_riders_csv_columns() -> None:
    with (DEMO / "riders.csv").open(encoding="utf-8", newline="") as f:
        header = next(csv.reader(f))
    assert header == ["id", "name", "team", "role", *AXES, "nationality", "birth_date", "pcs_slug"]


def test_176_riders_8_per_team() -> None:
    assert len(riders()) == 176
    per_team = Counter(r["team"] for r in riders())
    assert len(per_team) == 22
    assert set(per_team.values()) == {8}


def test_ids_are_unique_bib_numbers_in_bib_order() -> None:
    # id = the 2023 bib number: 1..218 with gaps (no 13, no 61, no x9/x0), so 176 distinct ids.
    ids = [int(r["id"]) for r in riders()]
    assert len(set(ids)) == 176
    assert ids == sorted(ids)
    assert all(1 <= i <= 219 for i in ids)
    blocks: dict[str, set[int]] = defaultdict(set)
    for r in riders():
        blocks[r["team"]].add((int(r["id"]) - 1) // 10)
    assert all(len(b) == 1 for b in blocks.values()), "a team's bibs span two blocks of ten"


def test_every_rider_team_is_a_known_team() -> None:
    names = {t["name"] for t in teams()}
    assert {r["team"] for r in riders()} <= names


def test_names_and_slugs() -> None:
    assert len({r["name"] for r in riders()}) == 176
    assert len({r["pcs_slug"] for r in riders()}) == 176
    for r in riders():
        assert r["name"] == r["name"].strip(), r
        assert " " in r["name"], r
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", r["pcs_slug"]), r
        assert re.fullmatch(r"[A-Z]{3}", r["nationality"]), r
    names = {r["name"] for r in riders()}
    assert {"Jonas Vingegaard", "Tadej Pogačar", "Wout van Aert", "Mathieu van der Poel"} <= names


def test_ratings_are_valid() -> None:
    for r in riders():
        for axis in AXES:
            assert r[axis] in RATINGS, (r["name"], axis, r[axis])


def test_every_rider_has_an_axis_of_at_least_1() -> None:
    for r in riders():
        assert max(rating(r, a) for a in AXES) >= 1, r["name"]


def test_birth_dates_parse() -> None:
    for r in riders():
        born = date.fromisoformat(r["birth_date"])
        assert date(1980, 1, 1) <= born <= date(2004, 12, 31), r


def test_youth_classification_eligibility() -> None:
    # Under 26 on 1 January 2023 = born on or after 1 January 1997.
    cutoff = date(1997, 1, 1)
    rider = by_slug()
    for slug in (
        "tadej-pogacar",
        "felix-gall",
        "carlos-rodriguez-cano",
        "thomas-pidcock",
        "mattias-skjelmose-jensen",
        "egan-bernal",
        "kevin-geniets",
    ):
        assert date.fromisoformat(rider[slug]["birth_date"]) >= cutoff, slug
    for slug in ("jonas-vingegaard", "adam-yates", "jai-hindley", "david-gaudu"):
        assert date.fromisoformat(rider[slug]["birth_date"]) < cutoff, slug


def test_role_limits_per_team() -> None:
    roles: dict[str, Counter[str]] = defaultdict(Counter)
    for r in riders():
        assert r["role"] in ROLES, r
        roles[r["team"]][r["role"]] += 1
    for team, counts in roles.items():
        for role, limit in ROLE_LIMITS.items():
            assert counts[role] <= limit, (team, role, counts[role])


def test_famous_ratings() -> None:
    rider = by_slug()
    assert rider["jonas-vingegaard"]["climber"] == "4"
    assert rider["tadej-pogacar"]["climber"] == "4"
    assert rating(rider["jonas-vingegaard"], "time_trialist") >= 3
    assert rating(rider["tadej-pogacar"], "time_trialist") >= 3
    assert rider["jasper-philipsen"]["sprinter"] == "4"
    assert rating(rider["wout-van-aert"], "rouleur") >= 3
    assert rating(rider["wout-van-aert"], "time_trialist") >= 3
    assert rating(rider["wout-van-aert"], "sprinter") >= 3
    assert rating(rider["mathieu-van-der-poel"], "puncheur") >= 3
    assert rating(rider["mathieu-van-der-poel"], "finisseur") >= 3
    for sprinter in (
        "jasper-philipsen",
        "fabio-jakobsen",
        "dylan-groenewegen",
        "jordi-meeus",
        "caleb-ewan",
        "mark-cavendish",
        "mads-pedersen",
    ):
        assert rating(rider[sprinter], "climber") <= 0, sprinter
    for contender in (
        "jai-hindley",
        "carlos-rodriguez-cano",
        "adam-yates",
        "simon-yates",
        "thomas-pidcock",
        "felix-gall",
        "romain-bardet",
    ):
        assert rating(rider[contender], "climber") >= 3, contender


def test_stage_winners_rated_on_the_axis_of_their_stage() -> None:
    rider = by_slug()
    stage_type = {s["number"]: s["stage_type"] for s in stages()}
    for number, slug in STAGE_WINNERS_2023.items():
        axes = WINNING_AXES[stage_type[number]]
        best = max(rating(rider[slug], a) for a in axes)
        assert best >= 3, (number, slug, {a: rider[slug][a] for a in axes})


@pytest.mark.parametrize("axis", AXES)
def test_fours_are_rare(axis: str) -> None:
    fours = [r["name"] for r in riders() if r[axis] == "4"]
    assert len(fours) <= MAX_FOURS_PER_AXIS, (axis, fours)


# --- stages ----------------------------------------------------------------------------------


def test_21_stages_in_order() -> None:
    numbers = [s["number"] for s in stages()]
    assert numbers == list(range(1, 22))
    dates = [date.fromisoformat(s["date"]) for s in stages()]
    assert dates == sorted(dates)
    assert dates[0] == date(2023, 7, 1)
    assert dates[-1] == date(2023, 7, 23)
    for s in stages():
        assert s["stage_type"] in STAGE_TYPES, s["number"]
        assert s["start"], s["number"]
        assert s["finish"], s["number"]


def test_segments_sum_to_the_distance() -> None:
    for s in stages():
        total = sum(seg["km"] for seg in s["segments"])
        assert abs(total - s["distance_km"]) <= 0.05, (s["number"], total, s["distance_km"])


def test_segments_are_valid() -> None:
    for s in stages():
        assert s["segments"], s["number"]
        for seg in s["segments"]:
            assert set(seg) == {"terrain", "km", "name"}, (s["number"], seg)
            assert seg["terrain"] in TERRAINS, (s["number"], seg)
            assert seg["km"] > 0, (s["number"], seg)
            assert round(seg["km"], 1) == seg["km"], (s["number"], seg)
            assert seg["name"], (s["number"], seg)
            if seg["terrain"] == "hill":
                assert 1 <= seg["km"] <= 5, (s["number"], seg)


def test_mountain_stages_have_a_col() -> None:
    for s in stages():
        if s["stage_type"] == "mountain":
            assert any(seg["terrain"] in COLS for seg in s["segments"]), s["number"]


def test_climb_count_is_modest() -> None:
    for s in stages():
        assert sum(seg["terrain"] in CLIMBS for seg in s["segments"]) <= 6, s["number"]


def test_flat_stages_finish_on_a_long_plain() -> None:
    for s in stages():
        if s["stage_type"] == "flat":
            last = s["segments"][-1]
            assert last["terrain"] == "plain", (s["number"], last)
            assert last["km"] >= 6, (s["number"], last)


def test_intermediate_sprints() -> None:
    for s in stages():
        sprints = s["intermediate_sprints_km"]
        if s["stage_type"] in ("ITT", "TTT"):
            assert sprints == [], s["number"]
            continue
        assert len(sprints) == 1, s["number"]
        for km in sprints:
            pos = 0.0
            for seg in s["segments"]:
                if pos <= km < pos + seg["km"]:
                    assert seg["terrain"] == "plain", (s["number"], km, seg)
                    break
                pos += seg["km"]
            else:
                pytest.fail(f"stage {s['number']}: sprint at km {km} is past the finish")


def test_famous_climbs_are_there() -> None:
    names = {(s["number"], seg["name"]) for s in stages() for seg in s["segments"]}
    for number, climb in (
        (6, "Col du Tourmalet"),
        (9, "Puy de Dôme"),
        (13, "Grand Colombier"),
        (14, "Col de Joux Plane"),
        (17, "Col de la Loze"),
    ):
        assert (number, climb) in names, (number, climb)
    summit_finishes = {6: "col1", 9: "colhc", 13: "colhc", 15: "col1"}
    for number, terrain in summit_finishes.items():
        assert stages()[number - 1]["segments"][-1]["terrain"] == terrain, number
