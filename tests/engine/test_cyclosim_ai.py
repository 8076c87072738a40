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
from engine.rulesets.cyclosim.settings import CyclosimRider, CyclosimSettings, lanes_for
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
    assert (gc.pace_climb, attack.then) == ("tempo", "tempo")
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
    stage_type: str = "",
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
        stage_type=stage_type,
    )
    race.turn = 1
    for i, (_, _, row, lane) in enumerate(riders):
        race.place(i, row + race.off, lane)
    return race


#: A hilly stage: 100 flat rows, a hill of 10 rows, 190 flat rows (a flat finish).
HILLY = board_from_cases([("plain", 100), ("hill", 10), ("plain", 190)])


def _bunch(head: int) -> list[tuple[str, int, int, int]]:
    """A breakaway rider of team 2 at row ``head``, a bunch on rows 58-62 (one group: its rows
    chain) and a straggler far behind."""
    return [
        ("breakaway", 2, head, 0),  # the head of the race
        ("sprinter", 1, 60, 0),
        ("domestique", 1, 59, 1),  # in his sprinter's group: chases
        ("domestique", 1, 62, 1),  # at the front of that group: chases too
        ("domestique", 2, 58, 2),  # his team has nobody to bring back: lets the break go
        ("domestique", 1, 61, 2),
        ("domestique", 1, 30, 0),  # in another group: lets the break go
    ]


def test_domestiques_chase_a_breakaway_beyond_what_their_team_allows() -> None:
    # Flat stage, 200 rows to go: a sprinter's team allows 5 % of them (10 rows); the break
    # is 38 rows ahead of the bunch.
    race = _race(_bunch(100))
    chase_flags(race)
    assert race.chase == [False, False, True, True, False, True, False]
    # A group that chases rides its pace; the group behind it lets the break go: easy.
    assert race.easy == [False, False, False, False, False, False, True]
    cap, _ = leader_cap(race, 3)
    assert cap == 7 + race.pi(3, race.pos[3] + 1)  # CHASE_PACE "expected" (§4.2)
    assert leader_cap(race, 6)[0] == 7  # EASY_PACE "rows:7": 7 flat rows
    # The break 8 rows ahead: within what the team allows, so nobody chases and the whole
    # bunch lets it go.
    race = _race(_bunch(70))
    chase_flags(race)
    assert not any(race.chase)
    assert race.easy == [False, True, True, True, True, True, True]


def test_no_breakaway_no_chase_and_no_easy_bunch() -> None:
    race = _race([("sprinter", 1, 60, 0), ("domestique", 1, 61, 1), ("domestique", 2, 59, 0)])
    chase_flags(race)
    assert not any(race.chase)
    assert not any(race.easy)
    # One empty row ahead of his group is a breakaway (more than BREAK_GAP rows).
    race = _race([("sprinter", 1, 60, 0), ("domestique", 2, 62, 1)])
    chase_flags(race)
    assert race.easy == [True, False]


def test_on_a_hilly_stage_the_gc_teams_let_a_break_take_its_chance() -> None:
    # Hilly: the GC leader is protected, and his team lets a break go up to 24 rows.
    riders = [
        ("breakaway", 2, 80, 0),
        ("gc_leader", 1, 60, 0),
        ("domestique", 1, 59, 1),
    ]
    race = _race(riders, board=HILLY, stage_type="hilly")
    chase_flags(race)
    assert race.chase == [False, False, False]
    assert race.easy == [False, True, True]
    race = _race([("breakaway", 2, 90, 0), *riders[1:]], board=HILLY, stage_type="hilly")
    chase_flags(race)
    assert race.chase == [False, False, True]


def test_a_mountain_stage_has_no_easy_bunch() -> None:
    race = _race(
        [("breakaway", 2, 15, 0), ("gc_leader", 1, 5, 0), ("domestique", 1, 4, 1)],
        board=MOUNTAIN,
    )
    chase_flags(race)
    assert not any(race.easy)


def test_a_tired_domestique_does_not_chase() -> None:
    race = _race(_bunch(100))
    race.consumed[2] = race.pe_max[2] * (100 - ai.CHASE_MIN_PE) // 100 + 1
    chase_flags(race)
    assert not race.chase[2]
    assert race.chase[3]


def test_the_break_of_the_day_goes_from_the_front_of_its_group() -> None:
    o = ai.default_orders("breakaway", n_rows=300, last_climb=None, flat_finish=True)
    (window,) = o.attacks
    assert (window.from_row, window.to_row) == (15, 198)  # 5 % .. 66 % of the course
    assert (window.max, window.min_pe_pct) == (ai.BREAK_ATTACKS, ai.BREAK_MIN_PE)
    riders = [
        ("domestique", 1, 40, 0),
        ("domestique", 1, 39, 0),
        ("breakaway", 2, 36, 1),  # 4 rows behind the front of his group: he may attack
        ("domestique", 1, 38, 0),
        ("domestique", 1, 37, 0),
        ("domestique", 1, 36, 0),
        ("domestique", 1, 35, 0),
        ("breakaway", 3, 35, 1),  # 5 rows behind it: not from there
    ]
    race = _race(riders)
    chase_flags(race)
    assert leader_cap(race, 2)[1] == 0
    assert leader_cap(race, 7)[1] == -1


def test_on_a_mountain_stage_only_climbers_go_in_the_break() -> None:
    def attacks(climber: int) -> int:
        return len(
            ai.default_orders(
                "breakaway",
                n_rows=300,
                last_climb=(240, 280),
                flat_finish=False,
                stage_type="mountain",
                profile=Profile(climber=climber),
            ).attacks
        )

    assert attacks(ai.BREAK_MIN_CLIMBER - 1) == 0
    assert attacks(ai.BREAK_MIN_CLIMBER) == 1


def test_a_strong_climber_rides_for_himself_on_a_mountain_stage() -> None:
    def plan(stage_type: str, climber: int) -> RiderOrders:
        return ai.default_orders(
            "domestique",
            n_rows=300,
            last_climb=(240, 280),
            flat_finish=False,
            stage_type=stage_type,
            profile=Profile(climber=climber),
        )

    leader = ai.default_orders("gc_leader", n_rows=300, last_climb=(240, 280), flat_finish=False)
    assert plan("mountain", ai.FREE_CLIMBER).attacks == leader.attacks
    assert plan("mountain", ai.FREE_CLIMBER - 1).attacks == ()
    assert plan("hilly", ai.FREE_CLIMBER).attacks == ()


def test_no_sprint_final_on_a_mountain_stage() -> None:
    def final_rows(stage_type: str) -> int:
        return ai.default_orders(
            "sprinter", n_rows=300, last_climb=None, flat_finish=True, stage_type=stage_type
        ).final.rows

    assert final_rows("flat") == ai.SPRINT_FINAL_ROWS
    assert final_rows("hilly") == ai.SPRINT_FINAL_ROWS
    assert final_rows("mountain") == 0


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


def test_the_road_has_a_lane_for_every_eight_riders_from_3_to_16() -> None:
    auto = CyclosimSettings()
    assert [lanes_for(auto, n) for n in (1, 16, 25, 32, 120, 121, 176)] == [3, 3, 4, 4, 15, 16, 16]
    assert lanes_for(CyclosimSettings(lanes=8), 176) == 8
    # The grid of a Grand Tour field (R-T3) is 11 rows deep, not 22 as on 8 lanes.
    road = Race(
        FLAT,
        [
            Entrant(rider_id=i, team_id=1, bib=i, profile=Profile(), role="domestique")
            for i in range(176)
        ],
        settings=auto,
        dice=ScriptedDice(()),
        distance_km=150.0,
    )
    assert road.W == 16
    assert road.off == 176 // 16 + 2
