"""The names of Grands Prix, countries, circuits and corners in the reader's language (issue 29,
"French on every page"). A Grand Prix is named by its country or place as the data names it
("Brazil", "United States West"); the names the calendars of Formula 1 have used are in the
French catalogue, any other name is shown as it is. A shipped track's name carries "(our
simplified approximation)", and a corner with no name of its own is "Turn 5" or "Turns 2-3":
both are said in the reader's language."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, pgettext, pgettext_lazy

#: The translation context of a place's name (a country, a Grand Prix named after one).
PLACE_CONTEXT = "place"

#: The places the calendars of Formula 1 name, marked for the catalogue.
PLACES = (
    pgettext_lazy("place", "Abu Dhabi"),
    pgettext_lazy("place", "Argentina"),
    pgettext_lazy("place", "Australia"),
    pgettext_lazy("place", "Austria"),
    pgettext_lazy("place", "Azerbaijan"),
    pgettext_lazy("place", "Bahrain"),
    pgettext_lazy("place", "Belgium"),
    pgettext_lazy("place", "Brazil"),
    pgettext_lazy("place", "Canada"),
    pgettext_lazy("place", "China"),
    pgettext_lazy("place", "Dallas"),
    pgettext_lazy("place", "Detroit"),
    pgettext_lazy("place", "Eifel"),
    pgettext_lazy("place", "Emilia Romagna"),
    pgettext_lazy("place", "Europe"),
    pgettext_lazy("place", "France"),
    pgettext_lazy("place", "Germany"),
    pgettext_lazy("place", "Great Britain"),
    pgettext_lazy("place", "Hungary"),
    pgettext_lazy("place", "India"),
    pgettext_lazy("place", "Italy"),
    pgettext_lazy("place", "Japan"),
    pgettext_lazy("place", "Korea"),
    pgettext_lazy("place", "Luxembourg"),
    pgettext_lazy("place", "Malaysia"),
    pgettext_lazy("place", "Mexico"),
    pgettext_lazy("place", "Miami"),
    pgettext_lazy("place", "Monaco"),
    pgettext_lazy("place", "Morocco"),
    pgettext_lazy("place", "Netherlands"),
    pgettext_lazy("place", "Pacific"),
    pgettext_lazy("place", "Portugal"),
    pgettext_lazy("place", "Qatar"),
    pgettext_lazy("place", "Russia"),
    pgettext_lazy("place", "San Marino"),
    pgettext_lazy("place", "Saudi Arabia"),
    pgettext_lazy("place", "Singapore"),
    pgettext_lazy("place", "South Africa"),
    pgettext_lazy("place", "Spain"),
    pgettext_lazy("place", "Sweden"),
    pgettext_lazy("place", "Switzerland"),
    pgettext_lazy("place", "Turkey"),
    pgettext_lazy("place", "United Kingdom"),
    pgettext_lazy("place", "United States"),
    pgettext_lazy("place", "United States East"),
    pgettext_lazy("place", "United States West"),
    pgettext_lazy("place", "United States of America"),
    pgettext_lazy("place", "Las Vegas"),
)

#: The suffix of a shipped track's name (motor/tracks/*/*.yaml).
APPROXIMATION = " (our simplified approximation)"

_TURNS = re.compile(r"^Turns? (\d+(?:\s*[-–]\s*\d+)?)$")


def place_name(name: str) -> str:
    """A Grand Prix's or a country's name in the active language ("Brazil" -> "Brésil")."""
    return pgettext(PLACE_CONTEXT, name) if name else ""


def track_title(name: str) -> str:
    """A track's name with its "(our simplified approximation)" in the active language."""
    if name.endswith(APPROXIMATION):
        return gettext("%(track)s (our simplified approximation)") % {
            "track": name[: -len(APPROXIMATION)]
        }
    return name


def corner_name(name: str) -> str:
    """A corner's name: "Turn 5" and "Turns 2-3" in the active language, a name of its own
    ("Hairpin onto Shoreline Drive") as it is."""
    found = _TURNS.match(name or "")
    if found is None:
        return name or ""
    if name.startswith("Turns"):
        return gettext("Turns %(numbers)s") % {"numbers": found.group(1)}
    return gettext("Turn %(number)s") % {"number": found.group(1)}


def content_in_words(content: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    """A track file's content with its name and its corners' names in the active language, for
    the map (the charts take words, not languages)."""
    if not isinstance(content, Mapping):
        return content
    words = dict(content)
    if isinstance(content.get("name"), str):
        words["name"] = track_title(content["name"])
    if isinstance(content.get("corners"), list):
        words["corners"] = [
            {**corner, "name": corner_name(str(corner.get("name") or ""))}
            if isinstance(corner, Mapping) and corner.get("name")
            else corner
            for corner in content["corners"]
        ]
    return words
