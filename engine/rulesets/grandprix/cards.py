"""Speed and incident cards and the three lap piles (grandprix.md §2, GP-1.3, GP-9.2).

A card is a small int: 0, 1, 2 are speed cards of printed grade k (used only by the
``printed`` variant; in the default ``range`` mode all speed cards are alike) and 10..19 the
incident cards, in the order of §2's table.
"""

from __future__ import annotations

SPEED_GRADES = (0, 1, 2)
YELLOW_FLAG, BLUE_FLAG, WRONG_TYRES, TYRE_WEAR, OIL = 10, 11, 12, 13, 14
BRAKE_FAILURE, FUEL_SAVING, OUT_OF_FUEL, PUNCTURE, GEARBOX_FAILURE = 15, 16, 17, 18, 19

INCIDENTS: dict[int, str] = {
    YELLOW_FLAG: "YELLOW_FLAG",
    BLUE_FLAG: "BLUE_FLAG",
    WRONG_TYRES: "WRONG_TYRES",
    TYRE_WEAR: "TYRE_WEAR",
    OIL: "OIL",
    BRAKE_FAILURE: "BRAKE_FAILURE",
    FUEL_SAVING: "FUEL_SAVING",
    OUT_OF_FUEL: "OUT_OF_FUEL",
    PUNCTURE: "PUNCTURE",
    GEARBOX_FAILURE: "GEARBOX_FAILURE",
}
CODES: dict[str, int] = {name: code for code, name in INCIDENTS.items()}
SPEED = "SPEED"

#: §2: copies of each incident card in piles 1, 2, 3 [RES A3].
INCIDENT_COUNTS: dict[int, tuple[int, int, int]] = {
    YELLOW_FLAG: (1, 1, 1),
    BLUE_FLAG: (1, 1, 1),
    WRONG_TYRES: (2, 0, 0),
    TYRE_WEAR: (0, 2, 0),
    OIL: (2, 2, 0),
    BRAKE_FAILURE: (0, 2, 0),
    FUEL_SAVING: (0, 1, 1),
    OUT_OF_FUEL: (0, 0, 2),
    PUNCTURE: (0, 0, 2),
    GEARBOX_FAILURE: (0, 0, 2),
}
#: §2 [RES A2]: speed cards of grade 0/1/2 per pile (24, 20, 20 cards).
SPEED_MIX: dict[int, tuple[int, int, int]] = {1: (8, 8, 8), 2: (6, 8, 6), 3: (6, 8, 6)}
#: §2: the distance range of a speed card in each gear (gear 1: no card).
SPEED_RANGE: dict[int, tuple[int, ...]] = {2: (10, 11, 12), 3: (16, 17, 18), 4: (21, 22, 23)}


def card_name(card: int) -> str:
    """``"SPEED"`` or the incident's code identifier."""
    return SPEED if card < 10 else INCIDENTS[card]


def card_code(name: str) -> int:
    """Inverse of :func:`card_name` for incidents; ``SPEED`` and ``SPEED0..2`` give a grade."""
    if name == SPEED:
        return 0
    if name.startswith(SPEED) and name[len(SPEED) :].isdigit():
        return int(name[len(SPEED) :])
    return CODES[name]


def build_pile(lap: int) -> list[int]:
    """The cards of ``pile[lap]`` in their fixed built order (speed by grade, then incidents
    in table order), before the shuffle of GP-1.3."""
    pile = [grade for grade in SPEED_GRADES for _ in range(SPEED_MIX[lap][grade])]
    for code, counts in INCIDENT_COUNTS.items():
        pile.extend([code] * counts[lap - 1])
    return pile
