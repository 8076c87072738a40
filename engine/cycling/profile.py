"""A rider's eight ratings (moreno.md §2.2), the profile both cycling rulesets read."""

from __future__ import annotations

from dataclasses import dataclass, fields

H = -1
RATING_MIN = H
RATING_MAX = 4


@dataclass(frozen=True, slots=True)
class Profile:
    """The eight ratings of a rider (moreno.md §2.2): ints, H = -1, then 0..4."""

    rouleur: int = 0
    sprinter: int = 0
    baroudeur: int = 0
    finisseur: int = 0
    descender: int = 0
    time_trialist: int = 0
    puncheur: int = 0
    climber: int = 0

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if type(value) is not int or not RATING_MIN <= value <= RATING_MAX:
                raise ValueError(f"{f.name} must be an int rating -1 (H) .. 4, got {value!r}")


#: The eight axes of a profile, in order (riders.models.RATING_AXES is the same list on the
#: other side of the engine boundary; a test keeps the two in step).
PROFILE_AXES: tuple[str, ...] = tuple(f.name for f in fields(Profile))
