"""Hypothesis strategies for the engine's property tests: small random courses and fields."""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from engine.course import TERRAINS, Course, Segment
from engine.outcome import ROLES, Entrant, Profile, StageInputs

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
