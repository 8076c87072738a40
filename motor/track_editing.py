"""The admin's track editor (issue 31 item 5): a track's content as forms, one per part (the
track itself, its corners, its racing lines for a Grand Prix board; its cards for a Ludicitude
ring), turned back into content that the engine's loader validates (V1..V6, V-1..V-4).

The forms only check that a cell is a number or a text; every rule of the game is the
engine's, so a broken edit is refused with the rule the engine names, placed next to its row
(:meth:`TrackEditor.faults_place`). Keys the forms do not show (the green squares, the pit
boxes, the real lap's length...) are kept as they were.
"""

import re
from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy

from engine.motor import Fault
from engine.rulesets.grandprix.track import MAX_CORNERS, MAX_RACING_LINES
from engine.rulesets.ludicitude.track import CIRCUITS, N_CARDS
from motor.league.pages import content_svg
from motor.models import Track
from motor.track_files import TrackFaults, track_content_validate

_ROW = re.compile(r"^(\w+)\[(\d+)\]")
_SPLIT = re.compile(r"[\s,;]+")


def _number(label: Any, *, required: bool = True) -> forms.IntegerField:
    # No bounds here: the engine's rules (and their names) say what is out of range.
    field = forms.IntegerField(label=label, required=required)
    field.widget.attrs["class"] = "vIntegerField"
    return field


class GrandPrixTrackForm(forms.Form):
    """The board's own numbers (grandprix.md §3.5)."""

    name = forms.CharField(label=gettext_lazy("Name"), max_length=120)
    length = _number(gettext_lazy("Squares a lane"))
    laps = _number(gettext_lazy("Laps"))
    grid_slots = _number(gettext_lazy("Grid slots"))
    start_length = _number(gettext_lazy("Start lanes: length"))
    start_from_c = _number(gettext_lazy("Start lane C from slot"))
    start_from_d = _number(gettext_lazy("Start lane D from slot"))
    open_rounds = _number(gettext_lazy("Start lanes: open rounds"))
    pit_gate = _number(gettext_lazy("Pit gate (index)"))
    pit_exit = forms.CharField(
        label=gettext_lazy("Pit exit (square)"),
        max_length=8,
        help_text=gettext_lazy("A square of lane A or B, such as B12."),
    )

    #: The field of each engine path it edits (a fault on that path goes next to the field).
    PATHS = {
        "name": "name",
        "length": "length",
        "laps": "laps",
        "grid.slots": "grid_slots",
        "start_lanes.length": "start_length",
        "start_lanes.from_slots": "start_from_c",
        "start_lanes.open_rounds": "open_rounds",
        "pit.gate": "pit_gate",
        "pit.exit": "pit_exit",
    }

    @staticmethod
    def initial_of(content: Mapping[str, Any]) -> dict[str, Any]:
        start = content.get("start_lanes") or {}
        from_slots = start.get("from_slots") or [12, 11]
        pit = content.get("pit") or {}
        return {
            "name": content.get("name"),
            "length": content.get("length"),
            "laps": content.get("laps", 3),
            "grid_slots": (content.get("grid") or {}).get("slots", 12),
            "start_length": start.get("length", 7),
            "start_from_c": from_slots[0],
            "start_from_d": from_slots[1],
            "open_rounds": start.get("open_rounds", 2),
            "pit_gate": pit.get("gate"),
            "pit_exit": pit.get("exit"),
        }

    def content_into(self, content: dict[str, Any]) -> None:
        data = self.cleaned_data
        content["name"] = data["name"]
        content["length"] = data["length"]
        content["laps"] = data["laps"]
        content["grid"] = {**(content.get("grid") or {}), "slots": data["grid_slots"]}
        content["start_lanes"] = {
            **(content.get("start_lanes") or {}),
            "length": data["start_length"],
            "from_slots": [data["start_from_c"], data["start_from_d"]],
            "open_rounds": data["open_rounds"],
        }
        content["pit"] = {
            **(content.get("pit") or {}),
            "gate": data["pit_gate"],
            "exit": data["pit_exit"].strip().upper(),
        }


class CornerForm(forms.Form):
    """A corner (T-7): its id, name, max gear, marked square, skid zone and rejoin index."""

    id = forms.CharField(label=gettext_lazy("Id"), max_length=40)
    name = forms.CharField(label=gettext_lazy("Name"), max_length=120)
    max_gear = _number(gettext_lazy("Max gear"))
    marked = _number(gettext_lazy("Marked square"))
    zone_from = _number(gettext_lazy("Zone from"))
    zone_to = _number(gettext_lazy("Zone to"))
    rejoin = _number(gettext_lazy("Rejoin"))

    @staticmethod
    def initial_of(corner: Mapping[str, Any]) -> dict[str, Any]:
        zone = corner.get("zone") or [None, None]
        return {
            "id": corner.get("id"),
            "name": corner.get("name"),
            "max_gear": corner.get("max_gear"),
            "marked": corner.get("marked"),
            "zone_from": zone[0],
            "zone_to": zone[1],
            "rejoin": corner.get("rejoin"),
        }

    def item(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "id": data["id"],
            "name": data["name"],
            "max_gear": data["max_gear"],
            "marked": data["marked"],
            "zone": [data["zone_from"], data["zone_to"]],
            "rejoin": data["rejoin"],
        }


class RacingLineForm(forms.Form):
    """A racing line (T-8): its corner, bonus and squares in order."""

    id = forms.CharField(label=gettext_lazy("Id"), max_length=40)
    corner = forms.CharField(label=gettext_lazy("Corner"), max_length=40)
    bonus = _number(gettext_lazy("Bonus"))
    squares = forms.CharField(
        label=gettext_lazy("Squares"),
        max_length=400,
        help_text=gettext_lazy("In order, such as B6 B7 A8 A9."),
    )

    @staticmethod
    def initial_of(line: Mapping[str, Any]) -> dict[str, Any]:
        return {
            "id": line.get("id"),
            "corner": line.get("corner"),
            "bonus": line.get("bonus"),
            "squares": " ".join(str(s) for s in line.get("squares") or []),
        }

    def item(self) -> dict[str, Any]:
        data = self.cleaned_data
        squares = [s.upper() for s in _SPLIT.split(data["squares"].strip()) if s]
        return {
            "id": data["id"],
            "corner": data["corner"],
            "bonus": data["bonus"],
            "squares": squares,
        }


class LudicitudeTrackForm(forms.Form):
    """The ring's own settings (ludicitude.md §3.1)."""

    name = forms.CharField(label=gettext_lazy("Name"), max_length=120)
    circuit = forms.ChoiceField(label=gettext_lazy("Circuit"), choices=[(c, c) for c in CIRCUITS])
    laps = _number(gettext_lazy("Laps"))

    PATHS = {"name": "name", "circuit": "circuit", "laps": "laps"}

    @staticmethod
    def initial_of(content: Mapping[str, Any]) -> dict[str, Any]:
        return {k: content.get(k) for k in ("name", "circuit", "laps")}

    def content_into(self, content: dict[str, Any]) -> None:
        content.update({k: self.cleaned_data[k] for k in ("name", "circuit", "laps")})


class CardForm(forms.Form):
    """A card of the ring: its tokens (``MAX3``, ``MIN2 MAX4``, ``BRAKE+3``...)."""

    tokens = forms.CharField(label=gettext_lazy("Tokens"), max_length=80)

    @staticmethod
    def initial_of(card: object) -> dict[str, Any]:
        return {"tokens": str(card)}

    def item(self) -> str:
        return " ".join(self.cleaned_data["tokens"].split())


def _formset(form: type[forms.Form], maximum: int) -> Any:
    # One blank row to add an item; validate_max bounds what a post can make the engine read.
    return forms.formset_factory(
        form, extra=1, can_delete=True, max_num=maximum, validate_max=True, absolute_max=maximum
    )


CornerFormSet = _formset(CornerForm, MAX_CORNERS)
RacingLineFormSet = _formset(RacingLineForm, MAX_RACING_LINES)
CardFormSet = _formset(CardForm, N_CARDS + 8)

#: Per game: the main form and each list of the content with its formset.
PARTS: dict[str, tuple[type[Any], tuple[tuple[str, Any], ...]]] = {
    "grandprix": (
        GrandPrixTrackForm,
        (("corners", CornerFormSet), ("racing_lines", RacingLineFormSet)),
    ),
    "ludicitude": (LudicitudeTrackForm, (("cards", CardFormSet),)),
}


class TrackEditor:
    """The forms of one track's content, bound to a post or filled from the stored content."""

    def __init__(self, *, track: Track, data: Any = None) -> None:
        if track.game not in PARTS:
            raise ValueError(f"no editor for a {track.game} track")
        main, lists = PARTS[track.game]
        self.track = track
        content: Mapping[str, Any] = track.content if isinstance(track.content, Mapping) else {}
        self.main = main(data, initial=main.initial_of(content), prefix="track")
        self.lists: dict[str, Any] = {
            key: formset(
                data,
                prefix=key,
                initial=[formset.form.initial_of(item) for item in content.get(key) or []],
            )
            for key, formset in lists
        }
        self.faults: tuple[Fault, ...] = ()
        self._kept: dict[str, list[forms.Form]] = {}

    def is_valid(self) -> bool:
        valid = self.main.is_valid()
        return all([valid, *(formset.is_valid() for formset in self.lists.values())])

    def has_changed(self) -> bool:
        return self.main.has_changed() or any(f.has_changed() for f in self.lists.values())

    def messages(self) -> list[str]:
        """The forms' own errors (a cell that is not a number...), each naming its row."""
        out = [f"{self.main.fields[k].label}: {' '.join(v)}" for k, v in self.main.errors.items()]
        for key, formset in self.lists.items():
            for index, form in enumerate(formset.forms, start=1):
                for name, errors in form.errors.items():
                    label = form.fields[name].label if name in form.fields else ""
                    out.append(f"{key} {index} {label}: {' '.join(errors)}".replace(" :", ":"))
            out += [f"{key}: {error}" for error in formset.non_form_errors()]
        return out

    def content(self) -> dict[str, Any]:
        """The content the forms make (they are valid): the stored content with every edited
        part replaced, rows in their order, deleted and blank rows left out."""
        content = dict(self.track.content)
        self.main.content_into(content)
        self._kept = {}
        for key, formset in self.lists.items():
            kept = [
                form
                for form in formset.forms
                if form.cleaned_data and not form.cleaned_data.get("DELETE")
            ]
            self._kept[key] = kept
            if kept or key in content:
                content[key] = [form.item() for form in kept]
        return content

    def faults_place(self, faults: Sequence[Fault]) -> None:
        """Each fault of the engine next to what it is about: a row of a list (``corners[2]``),
        a field of the main form, else the whole editor (:attr:`faults` has them all)."""
        self.faults = tuple(faults)
        for fault in faults:
            text = str(fault)
            row = _ROW.match(fault.field)
            kept = self._kept.get(row.group(1), []) if row else []
            if row and int(row.group(2)) < len(kept):
                kept[int(row.group(2))].add_error(None, text)
                continue
            name = self.main.PATHS.get(fault.field)
            if name and name not in self.main.errors:
                self.main.add_error(name, text)


def track_preview(*, track: Track, data: Any) -> dict[str, Any]:
    """The map of the edit as posted, or why it cannot be drawn: the forms' own errors, then
    the engine's faults by their rule (nothing is stored)."""
    editor = TrackEditor(track=track, data=data)
    if not editor.is_valid():
        return {"svg": "", "faults": editor.messages()}
    content = editor.content()
    try:
        track_content_validate(content, name=track.file_name or track.slug)
    except TrackFaults as faults:
        return {"svg": "", "faults": list(faults.lines)}
    return {"svg": mark_safe(content_svg(content)), "faults": []}
