"""Validation of a stage's course: an ordered list of segments {terrain, km, name}."""

from decimal import Decimal

from django.utils.translation import gettext as _

TERRAINS = ("plain", "hill", "col3", "col2", "col1", "colhc", "descent")
CLIMB_TERRAINS = ("hill", "col3", "col2", "col1", "colhc")
KM_TOLERANCE = 0.5


def course_errors(segments: object, distance_km: float | Decimal | None) -> list[str]:
    """Every problem of a course, each naming the segment at fault; empty when valid."""
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
        errors.append(
            _("The segments add up to %(total).1f km but the stage is %(distance).1f km.")
            % {"total": total, "distance": float(distance_km)}
        )
    return errors
