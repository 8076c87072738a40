"""Validation of a stage's course: an ordered list of segments {terrain, km, name}."""

from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _

TERRAINS = ("plain", "hill", "col3", "col2", "col1", "colhc", "descent")
CLIMB_TERRAINS = ("hill", "col3", "col2", "col1", "colhc")
KM_TOLERANCE = 0.5


def course_errors(
    segments: object, distance_km: float | Decimal | None, *, stage: str | None = None
) -> list[str]:
    """Every problem of a course, each naming the segment at fault; empty when valid.

    With `stage` (its label, e.g. "Stage 5 (Pau - Laruns)") every message names the stage too,
    and a course that does not add up to the distance says by how much.
    """
    errors = _course_errors(segments, distance_km, stage=stage)
    if stage is None:
        return errors
    return [error if error.startswith(stage) else f"{stage}: {error}" for error in errors]


def _course_errors(
    segments: object, distance_km: float | Decimal | None, *, stage: str | None
) -> list[str]:
    if not isinstance(segments, list) or not segments:
        return [_("The course needs at least one segment.")]
    errors = []
    total = 0.0
    for index, segment in enumerate(segments, start=1):
        if not isinstance(segment, dict):
            errors.append(
                _("Segment %(index)s: expected an object with terrain, km and name.")
                % {"index": index}
            )
            continue
        terrain = segment.get("terrain")
        if terrain not in TERRAINS:
            errors.append(
                _("Segment %(index)s: terrain %(terrain)s is not one of %(terrains)s.")
                % {"index": index, "terrain": repr(terrain), "terrains": ", ".join(TERRAINS)}
            )
        km = segment.get("km")
        if isinstance(km, bool) or not isinstance(km, int | float) or km <= 0:
            errors.append(
                _("Segment %(index)s: km %(km)s must be a positive number.")
                % {"index": index, "km": repr(km)}
            )
        else:
            total += float(km)
        name = segment.get("name", "")
        if not isinstance(name, str):
            errors.append(_("Segment %(index)s: name must be text.") % {"index": index})
    if not errors and distance_km is not None and abs(total - float(distance_km)) > KM_TOLERANCE:
        values = {
            "stage": stage,
            "total": total,
            "distance": float(distance_km),
            "gap": abs(float(distance_km) - total),
        }
        if stage is None:
            errors.append(
                _("The segments add up to %(total).1f km but the stage is %(distance).1f km.")
                % values
            )
        elif total < float(distance_km):
            errors.append(
                _(
                    "%(stage)s: the segments add up to %(total).1f km but the stage is "
                    "%(distance).1f km: %(gap).1f km missing."
                )
                % values
            )
        else:
            errors.append(
                _(
                    "%(stage)s: the segments add up to %(total).1f km but the stage is "
                    "%(distance).1f km: %(gap).1f km too many."
                )
                % values
            )
    return errors


def stage_label(stage: Any) -> str:
    """'Stage 5 (Pau - Laruns)' (an en dash between the places), or 'Stage 5' without them."""
    places = " – ".join(p for p in (stage.start, stage.finish) if p)
    if places:
        return _("Stage %(number)s (%(places)s)") % {"number": stage.number, "places": places}
    return _("Stage %(number)s") % {"number": stage.number}


def stage_course_errors(stage: Any) -> list[str]:
    """What the engine would refuse in a stage's course, each message naming the stage: the
    last check before a resolution (an empty course included)."""
    return course_errors(stage.segments, stage.distance_km, stage=stage_label(stage))
