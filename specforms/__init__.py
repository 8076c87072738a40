"""Form fields generated from an engine spec (engine/spec.py): one source of every default,
bound, choice and help text. A package of its own (Django forms, no app): the cycling adapters
(races) and the motor adapters (motor) both use it and may not import each other. The spec's
words are English; each adapter lists them for the
French catalogue (``WORDS``: labels and help with gettext_noop, choices' labels with
pgettext_lazy in the "orders" context), and the fields say them in the active language."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from engine.spec import BOOL, CHOICE, FLOAT, INT, INT_PAIRS, Field, Spec

_NUMBER_STYLE = "width: 5em"


#: The translation context of every choice's label (a role and an event share English words).
CHOICE_CONTEXT = "orders"


def _choices(spec_field: Field) -> list[tuple[str, str]]:
    return [(value, pgettext(CHOICE_CONTEXT, label)) for value, label in spec_field.choices]


#: Turns a help text into its HTML (the adapter's: the rules it cites linked to its rules page).
HelpHtml = Callable[[str], str]


def field_from_spec(
    spec_field: Field,
    initial: Any,
    *,
    help_text: bool = False,
    float_step: str = "any",
    help_html: HelpHtml | None = None,
) -> forms.Field:
    """One Django field of a spec field: its kind, its bounds as the field's bounds (a value
    past a bound is refused naming the bound), None allowed when the spec allows it; its help
    through ``help_html`` when given."""
    label = _(spec_field.label)
    helps = _(spec_field.help) if help_text and spec_field.help else ""
    if helps and help_html is not None:
        helps = help_html(helps)
    required = not spec_field.nullable
    kind = spec_field.kind
    if kind == BOOL:
        return forms.BooleanField(
            label=label, required=False, initial=bool(initial), help_text=helps
        )
    if kind == CHOICE:
        return forms.ChoiceField(
            label=label, choices=_choices(spec_field), initial=initial, help_text=helps
        )
    if kind in (INT, FLOAT):
        attrs = {"style": _NUMBER_STYLE}
        bounds: dict[str, Any] = {"min_value": spec_field.minimum, "max_value": spec_field.maximum}
        if kind == INT:
            return forms.IntegerField(
                label=label,
                required=required,
                initial=initial,
                help_text=helps,
                widget=forms.NumberInput(attrs=attrs),
                **bounds,
            )
        return forms.FloatField(
            label=label,
            required=required,
            initial=initial,
            help_text=helps,
            widget=forms.NumberInput(attrs=attrs | {"step": float_step}),
            **bounds,
        )
    if kind == INT_PAIRS:
        return IntPairsField(spec_field, label=label, initial=initial, help_text=helps)
    raise ValueError(f"{spec_field.name}: no form field for kind {kind!r}")


class IntPairsField(forms.CharField):
    """A list of ``[int, int]`` rows typed as ``4:1, 5:2``, each number within the spec's
    bounds."""

    def __init__(self, spec_field: Field, *, initial: Any, **kwargs: Any) -> None:
        self.spec_field = spec_field
        shown = ", ".join(f"{a}:{b}" for a, b in initial) if initial else ""
        super().__init__(initial=shown, **kwargs)

    def to_python(self, value: Any) -> Any:
        text = super().to_python(value) or ""
        rows = []
        for part in (p.strip() for p in text.split(",")):
            if not part:
                continue
            left, sep, right = part.partition(":")
            try:
                if not sep:
                    raise ValueError
                rows.append([int(left), int(right)])
            except ValueError:
                raise ValidationError(
                    _("%(part)r is not a pair of whole numbers such as 4:1.") % {"part": part}
                ) from None
        why = self.spec_field.error(rows)
        if why:
            raise ValidationError(why)
        return rows


def rider_fields_from_spec(spec: Spec, given: Mapping[str, Any]) -> dict[str, forms.Field]:
    """One rider's row of an orders form: a field per orders-spec field, showing his stored
    order (or the spec's default)."""
    return {
        f.name: field_from_spec(f, given.get(f.name, f.default), float_step="0.5") for f in spec
    }


def car_fields_from_spec(
    spec: Spec, given: Mapping[str, Any], *, help_html: HelpHtml | None = None
) -> dict[str, forms.Field]:
    """One car's row of a motor orders form: a field per orders-spec field, with its help."""
    return {
        f.name: field_from_spec(
            f, given.get(f.name, f.default), help_text=True, help_html=help_html
        )
        for f in spec
    }


def settings_fields_from_spec(
    spec: Spec, values: Mapping[str, Any], *, help_html: HelpHtml | None = None
) -> dict[str, forms.Field]:
    """A ruleset's settings form: every setting of its spec, with its help text, showing
    ``values`` (the spec's default for a missing one)."""
    return {
        f.name: field_from_spec(
            f, values.get(f.name, f.default), help_text=True, help_html=help_html
        )
        for f in spec
    }


def fields_still_valid(
    spec: Spec, values: Mapping[str, Any], *, offered: Mapping[str, forms.Field]
) -> tuple[dict[str, Any], dict[str, str]]:
    """An entrant's stored orders of an earlier round, checked field by field as they would be
    given now (orders carried over to another round): the fields that still apply, and why each
    of the others does not, {field name: why}. A field applies when the spec still takes its
    value (its kind, its bounds) and, when the form offers it, its choice is still offered; a
    field the form does not offer (a game's fixed order) is left to its default, silently."""
    kept: dict[str, Any] = {}
    dropped: dict[str, str] = {}
    for spec_field in spec:
        name = spec_field.name
        if name not in values or name not in offered:
            continue
        value = values[name]
        why = spec_field.error(value)
        field = offered[name]
        if why is None and isinstance(field, forms.ChoiceField) and value is not None:
            # After the form field's __init__ its choices are a plain list of pairs.
            choices = {str(v) for v, _label in field.choices}  # type: ignore[union-attr,misc]
            if str(value) not in choices:
                why = _("%(value)s is no longer offered") % {"value": value}
        if why is None:
            kept[name] = value
        else:
            dropped[name] = why
    return kept, dropped


def orders_carried(
    spec: Spec,
    previous: Mapping[str, Mapping[str, Any]],
    *,
    racing: Mapping[str, str],
    labels: Mapping[str, str],
    offered: Callable[[Mapping[str, Any]], Mapping[str, forms.Field]],
    seat_clean: Callable[[dict[str, Any]], Mapping[str, Any]],
    seat_errors: Callable[[str, dict[str, Any]], list[str]],
) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """A team's orders of an earlier round, ``{seat key: fields}``, as far as they apply to
    another round, and a note for each seat or field that does not carry (naming it, and why).

    ``racing``: the seats still in the race (key -> how a note names it), ``labels``: every
    seat of the team; ``offered``: the form's fields of a seat's orders; ``seat_clean``: the
    game's checks across one seat's fields on the round ({field: why}, e.g. an attack window
    past this stage's finish): a field named is dropped, and the check asked again (so that an
    attack window losing one end loses the other); ``seat_errors``: the engine's check of one
    seat's complete orders (messages): a seat it refuses carries nothing."""
    field_labels = {f.name: _(f.label) for f in spec}
    defaults = spec.defaults()
    data: dict[str, dict[str, Any]] = {}
    notes: list[str] = []
    for key, values in previous.items():
        if key not in racing:
            notes.append(
                _("%(seat)s no longer races: his orders do not carry.")
                % {"seat": labels.get(key, key)}
            )
            continue
        seat = racing[key]
        kept, dropped = fields_still_valid(spec, values, offered=offered(values))
        problems = {name: str(why) for name, why in seat_clean({**defaults, **kept}).items()}
        while problems and set(problems) & set(kept):
            for name in set(problems) & set(kept):
                del kept[name]
                dropped[name] = problems[name]
            problems = {name: str(why) for name, why in seat_clean({**defaults, **kept}).items()}
        notes += [
            _("%(seat)s, %(field)s: not carried (%(why)s).")
            % {"seat": seat, "field": field_labels.get(name, name), "why": why}
            for name, why in dropped.items()
        ]
        # What dropping fields cannot mend, and the engine's own check of the whole seat.
        refused = list(problems.values()) or seat_errors(key, {**defaults, **kept})
        if refused:
            notes.append(
                _("%(seat)s: his orders do not carry (%(why)s).")
                % {"seat": seat, "why": " ".join(refused)}
            )
            continue
        if kept:
            data[key] = kept
    return data, notes
