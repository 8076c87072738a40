"""Hypothesis strategies for the engine's property tests: small random courses and fields."""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from engine.cycling.course import TERRAINS, Course, Segment
from engine.cycling.inputs import ROLES, Entrant, StageInputs
from engine.cycling.profile import Profile
from engine.rulesets.cyclosim.settings import CyclosimRider
from engine.rulesets.moreno.settings import MorenoRider

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
    draw: st.DrawFn,
    stage_types: tuple[str, ...] = ("flat", "hilly", "mountain"),
    ruleset: str | None = None,
) -> StageInputs:
    """Random inputs; with ``ruleset`` its per-rider extras are drawn too (Moréno: the
    no-breakaway order; Cyclo Sim: energy carried from a previous stage)."""
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
            tour_crash_count=draw(st.integers(min_value=0, max_value=3)),
        )
        for i in range(n)
    )
    extras: dict[int, object] = {}
    for e in entrants:
        if ruleset == "moreno" and draw(st.booleans()):
            extras[e.rider_id] = MorenoRider(no_breakaway=True)
        elif ruleset == "cyclosim":
            extras[e.rider_id] = CyclosimRider(pe_consumed=draw(st.integers(0, 60)))
    return StageInputs(course, entrants, extras=extras)


seeds = st.integers(min_value=0, max_value=2**32)
PROPERTY = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ALL_TYPES = ("flat", "hilly", "mountain", "ITT", "TTT")
