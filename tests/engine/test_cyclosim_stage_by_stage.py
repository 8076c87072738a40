"""Cyclo Sim choices of issue 16 ("stage by stage"): on a flat finish the groups on the road
at the start of the finishing turn finish as groups (§5 [D] ``road_groups``;
docs/rules-choices.md)."""

from __future__ import annotations

from dataclasses import replace

from engine.rulesets.cyclosim.finish import outcome
from engine.rulesets.cyclosim.sheet import FINISHED
from engine.rulesets.cyclosim.stage import end_of_turn
from tests.engine.cyclosim_kit import Kit

# A, B, C within 6 rows of each other on the road; D 8 rows behind C.
ROAD = [("A", 290, 0, 60), ("B", 289, 0, 60), ("C", 285, 1, 60), ("D", 277, 0, 60)]


def _finish(k: Kit, times: tuple[int, ...]) -> list[tuple[int, int]]:
    race = k.race
    for seq, (name, t) in enumerate(zip("ABCD", times, strict=True)):
        r = k[name]
        race.status[r] = FINISHED
        race.finish_time[r] = race.cross_time[r] = t
        race.finish_seq[r] = seq
    out = outcome([race], ruleset="cyclosim", seed=0, log=[], events=[], turns=31)
    return [(r.gap_seconds, r.final_group) for r in out.results]


def test_the_road_groups_are_numbered_until_the_first_rider_crosses() -> None:
    k = Kit(ROAD)
    end_of_turn(k.race)
    assert [k.race.road_group[k[n]] for n in "ABCD"] == [0, 0, 0, 1]
    # Once a rider has crossed, the numbering of the turn before stays.
    k.race.finished = 1
    k.race.pos[k["D"]] = k.race.pos[k["C"]] - 1
    end_of_turn(k.race)
    assert [k.race.road_group[k[n]] for n in "ABCD"] == [0, 0, 0, 1]


def test_a_bunch_sprint_is_one_group_however_the_final_spread_it() -> None:
    """turn_s 450, chain 6 rows = 270 s. B crosses 500 s after A and C 100 s after B: bunch
    gaps alone give them 230 s; from one road group they get A's time. D, another road group,
    gets the part of his 900 s hole beyond the chain."""
    k = Kit(ROAD)
    end_of_turn(k.race)
    assert _finish(k, (13000, 13500, 13600, 14500)) == [(0, 0), (0, 0), (0, 0), (630, 1)]


def test_without_road_groups_the_holes_of_the_final_count() -> None:
    k = Kit(ROAD)
    k.race.settings = replace(k.race.settings, road_groups=False)
    k.race.track_road_groups = False
    end_of_turn(k.race)
    assert _finish(k, (13000, 13500, 13600, 14500)) == [(0, 0), (230, 1), (230, 1), (860, 2)]
