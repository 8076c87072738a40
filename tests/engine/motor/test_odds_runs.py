"""The odds' lean runs (``LeagueHooks.odds``, issue 33): a run that keeps no events, dice log
nor trace gives the classification of the whole outcome, seed by seed, for both motor games."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.motor import LeagueHooks, load_document
from engine.rulesets.grandprix.league import LEAGUE as GRANDPRIX
from engine.rulesets.ludicitude.league import LEAGUE as LUDICITUDE

TRACKS = Path(__file__).resolve().parents[3] / "motor" / "tracks"
RISKS = ("safe", "normal", "aggressive")
SEEDS = range(1, 9)


def stored(game: str, track: str, settings: dict[str, Any], laps: int | None) -> dict[str, Any]:
    """A round's inputs as the league stores them (motor/adapters/base.py, inputs_build), 12
    cars in teams of two, each with a risk of its own."""
    cars = [
        {
            "car": f"c{i + 1}",
            "entry": i + 1,
            "driver": f"Driver {i + 1}",
            "team": f"Team {i // 2 + 1}",
            "team_id": i // 2 + 1,
            "standing": None if i % 5 == 0 else 12 - i,
        }
        for i in range(12)
    ]
    return {
        "track": {"slug": track, "content": load_document(TRACKS / game / f"{track}.yaml").data},
        "laps": laps,
        "settings": settings,
        "cars": cars,
        "orders": {c["car"]: {"risk": RISKS[i % 3]} for i, c in enumerate(cars)},
    }


CASES = {
    "grandprix monaco": (GRANDPRIX, stored("grandprix", "monaco", {}, None)),
    "grandprix monza, exits retire, printed cards": (
        GRANDPRIX,
        stored(
            "grandprix",
            "monza",
            {"track_exit_mode": "retire", "speed_card_mode": "printed"},
            4,
        ),
    ),
    "ludicitude anneau-exemple": (
        LUDICITUDE,
        stored("ludicitude", "anneau-exemple", {}, 2),
    ),
    "ludicitude lacets, by the standings": (
        LUDICITUDE,
        stored("ludicitude", "lacets", {"first_round_order": "reverse_standings"}, 1),
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_lean_run_gives_the_whole_outcomes_classification(case: str) -> None:
    league, inputs = CASES[case]
    assert league.odds is not None
    run = league.odds(inputs)
    for seed in SEEDS:
        whole = league.outcome_json(league.run(inputs, seed))
        assert whole["events"]
        assert whole["dice"]
        assert whole["trace"]
        assert run(seed) == whole["results"], f"{case}, seed {seed}"


@pytest.mark.parametrize("league", [GRANDPRIX, LUDICITUDE], ids=["grandprix", "ludicitude"])
def test_the_seeds_give_other_classifications(league: LeagueHooks) -> None:
    """The comparison above compares something: the lean runs differ from seed to seed."""
    inputs = next(i for lg, i in CASES.values() if lg is league)
    assert league.odds is not None
    run = league.odds(inputs)
    orders = {tuple(r["car"] for r in run(seed)) for seed in SEEDS}
    assert len(orders) > 1
