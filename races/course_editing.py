"""The admin's course editor: a stage's segments as an editable table, the profile redrawn as
the admin types (an htmx preview), the engine's own checks (`course_errors`) on save.

An edited course is the admin's: saving a course that differs from the stored one clears the
"generated" flag, so that a re-import no longer replaces it (races.course_generation).
"""

from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from races.charts.profile import profile_texts, stage_profile_svg
from races.course_validation import TERRAINS, course_errors, stage_label
from races.models import Stage

TERRAIN_LABELS = {
    "plain": gettext_lazy("plain"),
    "hill": gettext_lazy("hill (cat. 4)"),
    "col3": gettext_lazy("climb cat. 3"),
    "col2": gettext_lazy("climb cat. 2"),
    "col1": gettext_lazy("climb cat. 1"),
    "colhc": gettext_lazy("climb HC"),
    "descent": gettext_lazy("descent"),
}
SEGMENT_PREFIX = "segment"
BLANK_ROWS = 3


class SegmentForm(forms.Form):
    """One row of the table: what the engine reads of a segment (moreno.md §2.6)."""

    terrain = forms.ChoiceField(
        label=gettext_lazy("Terrain"),
        # A blank choice first: a row left blank must post nothing, to be left out.
        choices=[("", "---------"), *((t, TERRAIN_LABELS[t]) for t in TERRAINS)],
    )
    km = forms.DecimalField(
        label=gettext_lazy("km"), max_digits=6, decimal_places=1, min_value=Decimal("0.1")
    )
    name = forms.CharField(label=gettext_lazy("Name"), max_length=120, required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["km"].widget.attrs.update({"step": "0.1", "class": "vIntegerField"})
        self.fields["name"].widget.attrs.update(
            {"class": "vTextField", "placeholder": _("Name (optional)")}
        )


SegmentFormSet = forms.formset_factory(SegmentForm, extra=BLANK_ROWS, can_delete=True)


def segment_formset(*, data: Any = None, segments: list[dict[str, Any]] | None = None) -> Any:
    """The table bound to posted rows, or filled with a stored course."""
    if data is not None:
        return SegmentFormSet(data, prefix=SEGMENT_PREFIX)
    initial = [
        {"terrain": s.get("terrain"), "km": s.get("km"), "name": s.get("name", "")}
        for s in segments or []
        if isinstance(s, dict)
    ]
    return SegmentFormSet(initial=initial, prefix=SEGMENT_PREFIX)


def segments_of(formset: Any) -> list[dict[str, Any]]:
    """The rows of a valid table as a course, in order: blank and deleted rows left out."""
    segments = []
    for form in formset.forms:
        data = form.cleaned_data
        if not data or data.get("DELETE"):
            continue
        segments.append(
            {"terrain": data["terrain"], "km": float(data["km"]), "name": data.get("name", "")}
        )
    return segments


def formset_messages(formset: Any) -> list[str]:
    """A table's field errors, each naming its row (row 1 is the first segment)."""
    messages = []
    for index, form in enumerate(formset.forms, start=1):
        for field, errors in form.errors.items():
            label = form.fields[field].label if field in form.fields else field
            messages += [
                _("Row %(row)s, %(field)s: %(error)s")
                % {"row": index, "field": label, "error": error}
                for error in errors
            ]
    messages += [str(error) for error in formset.non_form_errors()]
    return messages


def distance_of(text: object) -> Decimal | None:
    try:
        distance = Decimal(str(text).strip().replace(",", "."))
    except ArithmeticError:
        return None
    return distance if distance.is_finite() and distance > 0 else None


def course_preview(*, data: Any, stage: Stage) -> dict[str, Any]:
    """What the editor shows beside the table: the profile of the rows as typed, their total,
    and what the engine would refuse (the checks of saving, before saving)."""
    formset = segment_formset(data=data)
    distance = distance_of(data.get("distance_km", stage.distance_km))
    if not formset.is_valid():
        return {"svg": "", "errors": formset_messages(formset), "total": None, "distance": distance}
    segments = segments_of(formset)
    stage.distance_km = distance or stage.distance_km
    label = stage_label(stage)
    return {
        "svg": stage_profile_svg(segments, title=label, texts=profile_texts()),
        "errors": course_errors(segments, distance, stage=label),
        "total": sum(s["km"] for s in segments),
        "distance": distance,
    }


def stored_course_preview(*, stage: Stage) -> dict[str, Any]:
    """The editor's first drawing: the stored course and what is wrong with it, if anything."""
    label = stage_label(stage) if stage.number else ""
    segments = stage.segments or []
    return {
        "svg": stage_profile_svg(segments, title=label, texts=profile_texts()),
        "errors": course_errors(segments, stage.distance_km, stage=label) if segments else [],
        "total": sum(charts_km(s) for s in segments) if segments else None,
        "distance": stage.distance_km,
    }


def charts_km(segment: object) -> float:
    try:
        return float(segment.get("km") or 0) if isinstance(segment, dict) else 0.0
    except (TypeError, ValueError):
        return 0.0


class StageCourseForm(forms.ModelForm):
    """The admin's stage form: the stage's fields, and its course as the table of segments."""

    class Meta:
        model = Stage
        fields = [
            "race",
            "number",
            "date",
            "start",
            "finish",
            "distance_km",
            "stage_type",
            "intermediate_sprints_km",
            "profile_icon",
            "profile_score",
            "vertical_meters",
        ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.stored_course = list(self.instance.segments or [])
        self.course: list[dict[str, Any]] = self.stored_course
        self.segment_formset = segment_formset(
            data=self.data if self.is_bound else None, segments=self.stored_course
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        # The model's own check (Stage.clean) sees the course as typed, or none while the
        # table is wrong: its message would only repeat the one below without the stage.
        self.instance.segments = []
        if not self.segment_formset.is_valid():
            raise forms.ValidationError(formset_messages(self.segment_formset))
        segments = segments_of(self.segment_formset)
        distance = data.get("distance_km")
        if distance is not None:
            self.instance.number = data.get("number", self.instance.number)
            self.instance.start = data.get("start", "")
            self.instance.finish = data.get("finish", "")
            errors = course_errors(segments, distance, stage=stage_label(self.instance))
            if errors:
                raise forms.ValidationError(errors)
        self.instance.segments = self.course = segments
        return data

    def save(self, commit: bool = True) -> Stage:
        stage: Stage = super().save(commit=False)
        stage.segments = self.course
        if _normal(self.course) != _normal(self.stored_course):
            # The admin's course now: a re-import leaves it alone.
            stage.course_generated = False
        if commit:
            stage.save()
        return stage


def _normal(segments: list[dict[str, Any]]) -> list[tuple[object, float, str]]:
    return [(s.get("terrain"), float(s.get("km") or 0), s.get("name") or "") for s in segments]
