"""The motor charts' words in the active language (the charts are pure: they take them)."""

from django.utils.translation import gettext, pgettext


def map_texts() -> dict[str, str]:
    return {
        "no_track": gettext("No track file for this round"),
        "description": gettext(
            "Map of {name}: {corners} corners, {length} squares a lane, {direction}"
        ),
        "clockwise": gettext("clockwise"),
        "anticlockwise": gettext("anticlockwise"),
        "corner": gettext("{name}: max gear {gear}"),
        "max_gear_square": gettext("max-gear square"),
        "racing_line": gettext("racing line"),
        "pit_lane": gettext("pit lane"),
        "grid": gettext("grid slot"),
        "green": gettext("green square"),
        "start_lanes": gettext("start lanes"),
        "line": gettext("start/finish"),
        "card": gettext("Card {index}: {tokens}"),
        "cards_description": gettext("Map of {name}: {count} cards, {circuit} circuit"),
        "closed": pgettext("circuit", "closed"),
        "open": pgettext("circuit", "open"),
        "car": gettext("Car {label}"),
    }


def lap_texts() -> dict[str, str]:
    return {
        "no_laps": gettext("No lap data"),
        "grid": gettext("Grid"),
        "finish": gettext("Finish"),
        "lap_axis": gettext("Lap"),
        "position_axis": gettext("Position"),
        "description": gettext("Lap chart, {cars} cars over {columns} columns: {order}"),
        "point": gettext("{name}: {position} at {column}"),
        "lap": gettext("lap {lap}"),
        "out": gettext("{name}: out after {column}"),
    }


def points_texts() -> dict[str, str]:
    return {
        "no_points": gettext("No standings yet"),
        "round_axis": gettext("Round"),
        "points_axis": gettext("Points"),
        "description": gettext("Points after rounds {first} to {last}: {lines}"),
        "line": gettext("{name} {points}"),
        "point": gettext("{name}, round {round}: {points} points"),
    }
