"""Validation of a stage's course: an ordered list of segments {terrain, km, name}."""

from decimal import Decimal

TERRAINS = ("plain", "hill", "col3", "col2", "col1", "colhc", "descent")
CLIMB_TERRAINS = ("hill", "col3", "col2", "col1", "colhc")
KM_TOLERANCE = 0.5


def course_errors(segments: object, distance_km: float | Decimal | None) -> list[str]:
    """Every problem of a course, each naming the segment at fault; empty when valid."""
    if not isinstance(segments, list) or not segments:
        return ["The course needs at least one segment."]
    errors = []
    total = 0.0
    for index, segment in enumerate(segments, start=1):
        if not isinstance(segment, dict):
            errors.append(f"Segment {index}: expected an object with terrain, km and name.")
            continue
        terrain = segment.get("terrain")
        if terrain not in TERRAINS:
            errors.append(
                f"Segment {index}: terrain {terrain!r} is not one of {', '.join(TERRAINS)}."
            )
        km = segment.get("km")
        if isinstance(km, bool) or not isinstance(km, int | float) or km <= 0:
            errors.append(f"Segment {index}: km {km!r} must be a positive number.")
        else:
            total += float(km)
        name = segment.get("name", "")
        if not isinstance(name, str):
            errors.append(f"Segment {index}: name must be text.")
    if not errors and distance_km is not None and abs(total - float(distance_km)) > KM_TOLERANCE:
        errors.append(
            f"The segments add up to {total:.1f} km but the stage is {float(distance_km):.1f} km."
        )
    return errors
