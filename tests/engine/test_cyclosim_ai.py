"""The tuned default AI of Cyclo Sim (docs/rules-choices.md, "Cyclo Sim engine"): the [D]
"move up" windows, the "chase" of the domestiques, the gruppetto and the advanced-game
modifiers."""

from __future__ import annotations

from engine.cycling.course import board_from_cases
from engine.cycling.inputs import Entrant
from engine.cycling.profile import Profile
from engine.dice import ScriptedDice
from engine.rulesets.cyclosim import orders as ai
from engine.rulesets.cyclosim.orders import RiderOrders
from engine.rulesets.cyclosim.race import Race
from engine.rulesets.cyclosim.settings import CyclosimRider, CyclosimSettings
from engine.rulesets.cyclosim.sheet import mod
from engine.rulesets.cyclosim.stage import chase_flags, leader_cap, play_turn, sit_up_flags


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


FLAT = board_from_cases([("plain", 300)])
#: A mountain stage: 20 flat rows, a col1 of 100 rows (rows 20-119), 30 flat rows.
MOUNTAIN = board_from_cases([("plain", 20), ("col1", 100), ("plain", 30)])


def _race(
    riders: list[tuple[str, int, int, int]],
    *,
    board=FLAT,
    faces: tuple[int, ...] = (),
    climber: int = 0,
    orders: dict[int, RiderOrders] | None = None,
) -> Race:
    """Riders as (role, team, row, lane) on ``board`` (a flat road of 300 rows), profiles
    off (all rated ``climber`` on climbs, which only picks the gruppetto)."""
    entrants = [
        Entrant(
            rider_id=i + 1,
            team_id=team,
            bib=i + 1,
            profile=Profile(climber=climber),
            role=role,
        )
        for i, (role, team, _, _) in enumerate(riders)
    ]
    extras = [CyclosimRider(orders=(orders or {}).get(i)) for i in range(len(riders))]
    settings = CyclosimSettings(lanes=3, profiles=False, overnight_recovery=0)
    race = Race(
        board,
        entrants,
        settings=settings,
        extras=extras,
        dice=ScriptedDice(faces),
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


def test_weak_climbers_sit_up_on_the_cols_once_every_gc_leader_is_ahead() -> None:
    race = _race(
        [
            ("gc_leader", 1, 60, 0),
            ("gc_leader", 2, 50, 0),
            ("domestique", 1, 40, 1),  # on the col, both GC leaders ahead: sits up
            ("sprinter", 2, 45, 2),  # the same for a sprinter
            ("domestique", 2, 55, 1),  # a GC leader behind him: rides on
            ("breakaway", 3, 30, 0),  # not a gruppetto role
            ("domestique", 3, 10, 0),  # still on the flat before the col
        ],
        board=MOUNTAIN,
    )
    sit_up_flags(race)
    assert race.sit_up == [False, False, True, True, False, False, False]
    # He rides GRUPPETTO_PACE ("rows:3": 3 climb rows, cost 6) and takes no wheel.
    cap, _ = leader_cap(race, 2)
    assert cap == 6
    # The last GC leader drops behind him: he rides on.
    race.lift(1)
    race.place(1, 35 + race.off, 2)
    sit_up_flags(race)
    assert not race.sit_up[2]


def test_good_climbers_riders_with_orders_and_stages_without_a_big_col_have_no_gruppetto() -> None:
    riders = [("gc_leader", 1, 60, 0), ("domestique", 2, 40, 1)]
    assert _race(riders, board=MOUNTAIN).gruppetto == [1]
    assert _race(riders, board=MOUNTAIN, climber=ai.GRUPPETTO_MAX_CLIMBER + 1).gruppetto == []
    with_orders = _race(riders, board=MOUNTAIN, orders={1: RiderOrders(role="domestique")})
    assert with_orders.gruppetto == []
    hills = board_from_cases([("plain", 20), ("hill", 20), ("col3", 20), ("plain", 30)])
    assert _race(riders, board=hills).gruppetto == []


def test_a_sitting_up_follower_leaves_the_wheel_without_an_attack() -> None:
    race = _race(
        [("gc_leader", 1, 50, 1), ("domestique", 1, 49, 1)],
        board=MOUNTAIN,
        faces=(6, 6, 6, 6),  # the leader's contract, then the follower's
    )
    race.pred[1], race.fol[0] = 0, 1
    play_turn(race)
    # The GC leader attacks (his window on the last col): expected, 7 + pi = 13 -> 6 rows.
    assert race.pos[0] - race.off == 56
    # The domestique does not follow him: he rides his own 3 rows, out of the wheel.
    assert race.pos[1] - race.off == 52
    assert race.pred[1] == -1
    # Sitting up is not reported as an attack (the follower's contract is one, R-AT).
    assert not [ev for ev in race.events if ev.kind == "attack"]
