"""The motor engines' codes in words: why a car retired or set no time, the incident cards,
where a skid ended, what happened to a car (the round pages, their CSV and the dice log).

The engine keeps its codes (engine/rulesets/grandprix: race.py, cards.py); the pages say
these labels. A code not listed here is shown as it is stored: the reasons of real
championships are imported as words already ("Engine", "Halfshaft")."""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

#: Why a car retired, or set no time in qualifying (grandprix.md GP-2.4, GP-9, GP-10).
REASONS: Mapping[str, Promise] = MappingProxyType(
    {
        "ENGINE": _("engine failure"),
        "ACCIDENT": _("crashed into the wall"),
        "TRACK_EXIT": _("track exit"),
        "OUT_OF_FUEL": _("out of fuel"),
        "PUNCTURE": _("puncture"),
        "TURNS": _("lap not completed in time"),
    }
)

#: The incident cards (grandprix.md §2), by their code.
INCIDENT_CARDS: Mapping[str, Promise] = MappingProxyType(
    {
        "YELLOW_FLAG": _("yellow flag"),
        "BLUE_FLAG": _("blue flag"),
        "WRONG_TYRES": _("wrong tyres"),
        "TYRE_WEAR": _("tyre wear"),
        "OIL": _("oil on the track"),
        "BRAKE_FAILURE": _("brake failure"),
        "FUEL_SAVING": _("fuel saving"),
        "OUT_OF_FUEL": _("out of fuel"),
        "PUNCTURE": _("puncture"),
        "GEARBOX_FAILURE": _("gearbox failure"),
    }
)

#: What happened to a car (the events of a Grand Prix shown as incidents).
EVENT_KINDS: Mapping[str, Promise] = MappingProxyType(
    {
        "track_exit": _("track exit"),
        "incident": _("incident card"),
        "oil_received": _("oil on the track"),
        "skid": _("skid"),
        "retired": _("retired"),
        "pit_stop": _("pit stop"),
    }
)

#: A square of the board: its lane (A, B on the track, C, D the start lanes) and its index.
_SQUARE = re.compile(r"^([A-D])(\d+)$")


#: Ludicitude's reasons, sentences with figures (engine/rulesets/ludicitude/race.py _reason).
_BRAKE_RAN_OUT = re.compile(r"^brake ran out on card (\d+) \((.*)\) in round (\d+)$")
_STILL_RACING = re.compile(r"^still racing after (\d+) rounds$")


def reason_label(code: object) -> str:
    """``OUT_OF_FUEL`` -> "out of fuel", Ludicitude's "brake ran out on card 7 (…) in round
    12" in the reader's language; a reason of real results is shown as it is."""
    text = str(code or "")
    label = REASONS.get(text)
    if label is not None:
        return str(label)
    if found := _BRAKE_RAN_OUT.match(text):
        return gettext("brake ran out on card %(card)s (%(label)s) in round %(round)s") % {
            "card": found[1],
            "label": found[2],
            "round": found[3],
        }
    if found := _STILL_RACING.match(text):
        return gettext("still racing after %(rounds)s rounds") % {"rounds": found[1]}
    return text


def card_label(code: object) -> str:
    """An incident card's name ("wrong tyres"); a speed card (``SPEED``, ``SPEED1``) says so."""
    text = str(code or "")
    if text.startswith("SPEED"):
        return gettext("speed card")
    label = INCIDENT_CARDS.get(text)
    return str(label) if label is not None else text


def skid_text(into: object) -> str:
    """Where a skid ended: the run-off, the wall, or a square ("square 46, lane B")."""
    text = str(into or "")
    if text == "runoff":
        return gettext("skid into the run-off")
    if text == "wall":
        return gettext("skid into the wall")
    square = _SQUARE.match(text)
    if square:
        return gettext("skid to square %(index)s, lane %(lane)s") % {
            "index": square[2],
            "lane": square[1],
        }
    return gettext("skid") + (f" ({text})" if text else "")


def engine_label(engine: str) -> str:
    """An engine by its maker's name: ``ford-cosworth`` -> "Ford Cosworth"."""
    return engine.replace("-", " ").title() if engine else ""


def car_engine_text(engine: str, constructor_slug: str) -> str:
    """The engine of a car, said only when it is not the constructor's own (a Ferrari is not
    "Ferrari ferrari"; a Lotus with a Ford engine says "Ford")."""
    return "" if not engine or engine == constructor_slug else engine_label(engine)


def event_label(kind: str) -> str:
    label = EVENT_KINDS.get(kind)
    return str(label) if label is not None else kind.replace("_", " ")


def event_text(kind: str, details: Mapping[str, Any]) -> str:
    """What happened, in words: "incident card: wrong tyres", "retired: out of fuel",
    "track exit at corner 3", "skid to square 46, lane B", "pit stop (box P12)"."""
    if kind == "skid":
        return skid_text(details.get("into"))
    if kind == "incident" and details.get("card"):
        return gettext("incident card: %(card)s") % {"card": card_label(details["card"])}
    if kind == "retired" and details.get("reason"):
        return gettext("retired: %(reason)s") % {"reason": reason_label(details["reason"])}
    if kind == "track_exit" and details.get("corner") not in (None, ""):
        return gettext("track exit at corner %(corner)s") % {"corner": details["corner"]}
    if kind == "pit_stop" and details.get("box"):
        return gettext("pit stop (box %(box)s)") % {"box": details["box"]}
    return event_label(kind)
