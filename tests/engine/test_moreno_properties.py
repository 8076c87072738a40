"""Properties of any Moréno stage, on small random courses and fields (hypothesis)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from races.engine import simulate
from races.engine.course import TERRAINS, Course, Segment
from races.engine.dice import RandomDice
from races.engine.outcome import ROLES, Entrant, Profile, StageInputs
from races.engine.rulesets.moreno import new_race
from races.engine.rulesets.moreno.stage import Lines, end_of_turn, play_turn, start_grid

ratings = st.integers(min_value=-1, max_value=4)
profiles = st.builds(
    Profile,
    rouleur=ratings,
    sprinter=ratings,
    baroudeur=ratings,
    finisseur=ratings,
    descender=ratings,
    time_trialist=ratings,
    puncheur=ratings,
    climber=ratings,
)


@st.composite
def stage_inputs(
    draw: st.DrawFn, stage_types: tuple[str, ...] = ("flat", "hilly", "mountain")
) -> StageInputs:
    n_segments = draw(st.integers(min_value=1, max_value=4))
    segments = tuple(
        Segment(draw(st.sampled_from(TERRAINS)), draw(st.integers(min_value=1, max_value=12)))
        for _ in range(n_segments)
    )
    distance = sum(s.km for s in segments)
    sprints = draw(st.lists(st.integers(min_value=1, max_value=int(distance)), max_size=2))
    course = Course(
        "prop", draw(st.sampled_from(stage_types)), distance, segments, tuple(map(float, sprints))
    )
    n = draw(st.integers(min_value=1, max_value=14))
    entrants = tuple(
        Entrant(
            rider_id=100 + i,
            team_id=draw(st.integers(min_value=1, max_value=4)),
            bib=i + 1,
            profile=draw(profiles),
            role=draw(st.sampled_from(ROLES)),
            no_breakaway=draw(st.booleans()),
            tour_crash_count=draw(st.integers(min_value=0, max_value=3)),
        )
        for i in range(n)
    )
    return StageInputs(course, entrants)


seeds = st.integers(min_value=0, max_value=2**32)
PROPERTY = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ALL_TYPES = ("flat", "hilly", "mountain", "ITT", "TTT")


@PROPERTY
@given(stage_inputs(ALL_TYPES), seeds)
def test_same_inputs_and_seed_give_the_same_outcome(inputs: StageInputs, seed: int) -> None:
    first = simulate("moreno", inputs, seed)
    again = simulate("moreno", inputs, seed)
    assert first == again
    assert first.dice.rows == again.dice.rows


@PROPERTY
@given(stage_inputs(ALL_TYPES), seeds)
def test_every_entrant_appears_exactly_once_in_rank_order(inputs: StageInputs, seed: int) -> None:
    out = simulate("moreno", inputs, seed)
    assert sorted(r.rider_id for r in out.results) == sorted(e.rider_id for e in inputs.entrants)
    assert [r.rank for r in out.results] == list(range(1, len(inputs.entrants) + 1))


@PROPERTY
@given(stage_inputs(ALL_TYPES), seeds)
def test_gaps_are_non_negative_and_grow_with_rank(inputs: StageInputs, seed: int) -> None:
    out = simulate("moreno", inputs, seed)
    gaps = [r.gap_seconds for r in out.results]
    assert gaps[0] == 0
    assert all(g >= 0 for g in gaps)
    assert gaps == sorted(gaps)
    groups = [r.final_group for r in out.results]
    assert groups[0] == 0
    assert groups == sorted(groups)
    assert all(r.squares_behind >= 0 for r in out.results)


@PROPERTY
@given(stage_inputs(ALL_TYPES), seeds)
def test_summits_and_sprints_list_every_rider_once(inputs: StageInputs, seed: int) -> None:
    out = simulate("moreno", inputs, seed)
    ids = sorted(e.rider_id for e in inputs.entrants)
    for event in out.events:
        if event.kind in ("summit", "intermediate_sprint"):
            assert sorted(event.rider_ids) == ids


@PROPERTY
@given(stage_inputs(), seeds)
def test_nobody_moves_backwards_during_a_stage(inputs: StageInputs, seed: int) -> None:
    race = new_race(inputs, RandomDice(seed))
    start_grid(race)
    lines = Lines(race)
    order = race.race_order()
    while race.turn < 200:
        before = list(race.pos)
        play_turn(race, order)
        order = end_of_turn(race, lines)
        assert all(a >= b for a, b in zip(race.pos, before, strict=True))
        if race.pos[order[0]] >= race.N:
            break
