"""The layouts of real F1 files (``tests/data/f1/README.md``), told apart by their header.

The header is normalised by the reader (lower case, ``_`` for spaces and dashes). A table is
claimed when it holds every required column of one layout; the cycling layouts share no such
set (``driver_id``, ``constructor_id``, ``grand_prix`` name motor files only).
"""

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Layout:
    name: str
    required: frozenset[str]
    optional: frozenset[str] = frozenset()


def _layout(name: str, required: str, optional: str = "") -> Layout:
    return Layout(name, frozenset(required.split()), frozenset(optional.split()))


# In the order a call applies them: people and calendar before results, standings last.
LAYOUTS = (
    _layout(
        "f1 drivers",
        "driver_id name",
        "first_name last_name abbreviation date_of_birth nationality",
    ),
    _layout("f1 constructors", "constructor_id name", "full_name country"),
    _layout(
        "f1 races",
        "season round grand_prix circuit laps",
        "date official_name circuit_id place country circuit_type direction lap_km turns "
        "distance_km",
    ),
    _layout(
        "f1 results",
        "season round position driver_id constructor_id",
        "number engine grid laps time gap reason_retired points",
    ),
    _layout("f1 driver standings", "season position driver_id points"),
    _layout("f1 constructor standings", "season position constructor_id points", "engine"),
    # The entry list of a season (who drives which car with which number), for a season whose
    # results are not published yet: a league on it fields the real cars.
    _layout("f1 entries", "season driver_id constructor_id number", "engine rounds"),
)


def layout_for(header: Sequence[str]) -> Layout | None:
    """The motor layout of a header, or None (a table for another importer)."""
    columns = set(header)
    if LAYOUTS[6].required <= columns and not ({"round", "position"} & columns):
        return LAYOUTS[6]
    if "round" in columns and "position" in columns:
        return LAYOUTS[3] if LAYOUTS[3].required <= columns else None
    if "grand_prix" in columns:
        return LAYOUTS[2] if LAYOUTS[2].required <= columns else None
    if "season" in columns and "position" in columns:
        layout = LAYOUTS[4] if "driver_id" in columns else LAYOUTS[5]
        return layout if layout.required <= columns else None
    for layout in LAYOUTS[:2]:
        if layout.required <= columns and not ({"season", "round"} & columns):
            return layout
    return None


def claims(header: Sequence[str]) -> bool:
    """Whether a table is a motor one (races' import hands it over then)."""
    return layout_for(header) is not None
