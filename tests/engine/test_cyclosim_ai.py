"""The tuned default AI of Cyclo Sim (docs/rules-choices.md, "Cyclo Sim engine"): the [D]
"move up" windows, the "chase" of the domestiques and the advanced-game modifiers."""

from __future__ import annotations

from races.engine.course import board_from_cases
from races.engine.dice import ScriptedDice
from races.engine.outcome import CyclosimSettings, Entrant, Profile
from races.engine.rulesets.cyclosim import orders as ai
from races.engine.rulesets.cyclosim.race import Race
from races.engine.rulesets.cyclosim.sheet import mod
from races.engine.rulesets.cyclosim.stage import chase_flags, leader_cap


def test_a_rating_of_3_gets_the_modifier_of_a_4() -> None:
    assert [mod(r) for r in (-1, 0, 1, 2, 3, 4)] == [-1, 0, 0, 1, 2, 2]


def test_protected_riders_move_up_before_the_decisive_part() -> None:
    sprinter = ai.default_orders("sprinter", n_rows=300, last_climb=None, flat_finish=True)
    (window,) = sprinter.attacks
    assert window.to_row == 300 - ai.SPRINT_FINAL_ROWS
    assert window.from_row == window.to_row - ai.MOVE_UP_ROWS
    assert (window.mode, window.pace) == ("any", ai.MOVE_UP_PACE)
    gc = ai.default_orders("gc_leader", n_rows=300, last_climb=(240, 280), flat_finish=False)
    move_up, attack = gc.attacks
    assert (move_up.from_row, move_up.to_row) == (240 - ai.MOVE_UP_ROWS, 240)
    assert (attack.from_row, attack.to_row, attack.pace) == (240, 280, ai.GC_ATTACK_PACE)
    # No window before the start line.
    short = ai.default_orders("gc_leader", n_rows=300, last_climb=(20, 40), flat_finish=False)
    assert len(short.attacks) == 1


def _race(riders: list[tuple[str, int, int, int]]) -> Race:
    """Riders as (role, team, row, lane) on a flat road of 300 rows, profiles off."""
    entrants = [
        Entrant(rider_id=i + 1, team_id=team, bib=i + 1, profile=Profile(), role=role)
        for i, (role, team, _, _) in enumerate(riders)
    ]
    settings = CyclosimSettings(lanes=3, profiles=False, overnight_recovery=0)
    race = Race(
        board_from_cases([("plain", 300)]),
        entrants,
        settings=settings,
        dice=ScriptedDice(()),
        distance_km=150.0,
    )
    race.turn = 1
    for i, (_, _, row, lane) in enumerate(riders):
        race.place(i, row + race.off, lane)
    return race


def test_domestiques_chase_for_a_sprinter_far_behind_the_head_of_the_race() -> None:
    race = _race(
        [
            ("breakaway", 2, 100, 0),  # the head of the race
            ("sprinter", 1, 60, 0),
            ("domestique", 1, 55, 1),  # behind his sprinter: chases
            ("domestique", 1, 62, 1),  # 2 rows ahead of him: chases
            ("domestique", 1, 90, 1),  # far ahead of him: no
            ("domestique", 2, 55, 2),  # no protected rider in his team: no
        ]
    )
    chase_flags(race)
    assert race.chase == [False, False, True, True, False, False]
    cap, _ = leader_cap(race, 2)
    assert cap == 7 + race.pi(2, race.pos[2] + 1)  # CHASE_PACE "expected" (§4.2)
    # Close enough to the head of the race: nobody chases.
    race = _race([("breakaway", 2, 70, 0), ("sprinter", 1, 60, 0), ("domestique", 1, 55, 1)])
    chase_flags(race)
    assert not any(race.chase)


def test_a_tired_domestique_does_not_chase() -> None:
    race = _race([("breakaway", 2, 100, 0), ("sprinter", 1, 60, 0), ("domestique", 1, 55, 1)])
    race.consumed[2] = race.pe_max[2] * (100 - ai.CHASE_MIN_PE) // 100 + 1
    chase_flags(race)
    assert not race.chase[2]
