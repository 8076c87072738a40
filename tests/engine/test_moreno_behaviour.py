"""What a cycling fan expects of many simulated stages (176 riders, many seeds)."""

from __future__ import annotations

import statistics
from functools import cache

from engine import simulate
from engine.cycling.inputs import Entrant
from engine.cycling.outcome import Outcome
from tests.engine.factory import flat_course, mountain_course, peloton, stage

SEEDS = range(40)


@cache
def riders() -> dict[int, Entrant]:
    return {e.rider_id: e for e in peloton()}


@cache
def flat_stages() -> tuple[Outcome, ...]:
    return tuple(simulate("moreno", stage(flat_course()), seed) for seed in SEEDS)


@cache
def mountain_stages() -> tuple[Outcome, ...]:
    return tuple(simulate("moreno", stage(mountain_course()), seed) for seed in SEEDS)


def test_on_a_mountain_stage_good_climbers_finish_far_ahead_of_poor_ones() -> None:
    good, poor = [], []
    for out in mountain_stages():
        for r in out.results:
            climber = riders()[r.rider_id].profile.climber
            if climber >= 3:
                good.append(r.rank)
            elif climber <= 0:
                poor.append(r.rank)
    assert statistics.median(good) + 50 < statistics.median(poor)


def test_mountain_stages_are_won_by_climbers_or_by_riders_who_went_clear() -> None:
    for out in mountain_stages():
        winner = riders()[out.results[0].rider_id]
        away = {x for e in out.events if e.kind in ("breakaway", "attack") for x in e.rider_ids}
        assert winner.profile.climber >= 2 or winner.rider_id in away


def test_on_a_flat_stage_most_winners_are_sprinters_rated_3_or_more() -> None:
    winners = [riders()[out.results[0].rider_id] for out in flat_stages()]
    fast = sum(1 for w in winners if w.profile.sprinter >= 3)
    assert fast > len(winners) / 2


def test_crashes_are_rare_but_happen() -> None:
    outcomes = flat_stages() + mountain_stages()
    crashes = [sum(len(r.crashes) for r in out.results) for out in outcomes]
    assert sum(crashes) > 0
    per_rider_stage = sum(crashes) / (len(outcomes) * len(riders()))
    assert per_rider_stage < 0.08


def test_breakaways_sometimes_survive_but_not_always() -> None:
    survived = 0
    went = 0
    for out in flat_stages() + mountain_stages():
        away = {x for e in out.events if e.kind == "breakaway" for x in e.rider_ids}
        went += bool(away)
        survived += out.results[0].rider_id in away
    assert went > 30
    assert 0 < survived < went / 2


def test_abandons_come_in_ones_and_twos_and_more_in_the_mountains() -> None:
    flat = [sum(r.status != "finished" for r in out.results) for out in flat_stages()]
    mountain = [sum(r.status != "finished" for r in out.results) for out in mountain_stages()]
    assert statistics.mean(flat) < statistics.mean(mountain) < 4
    assert max(mountain) <= 6


def test_a_flat_stage_ends_with_most_of_the_field_in_one_group() -> None:
    for out in flat_stages():
        sizes: dict[int, int] = {}
        for r in out.results:
            sizes[r.final_group] = sizes.get(r.final_group, 0) + 1
        assert max(sizes.values()) >= 60
