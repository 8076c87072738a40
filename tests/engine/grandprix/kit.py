"""Shared set-ups of the Grand Prix tests: the shipped tracks and races placed by hand."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from engine.motor import CarEntry, load_document
from engine.rulesets.grandprix.board import board_for
from engine.rulesets.grandprix.orders import SPEC_EXAMPLE, CarOrders
from engine.rulesets.grandprix.race import RUNNING, GrandPrixRace
from engine.rulesets.grandprix.settings import GrandPrixSettings
from engine.rulesets.grandprix.source import ScriptedSource
from engine.rulesets.grandprix.track import Track, load_track

ROOT = Path(__file__).resolve().parents[3]
TRACKS_DIR = ROOT / "motor" / "tracks" / "grandprix"
GV_PATH = TRACKS_DIR / "gilles-villeneuve.yaml"
TRACK_PATHS = sorted(TRACKS_DIR.glob("*.yaml"))


def load(path: Path) -> Track:
    return load_track(load_document(path))


GV = load(GV_PATH)
TRACKS = [load(p) for p in TRACK_PATHS]
FIELD = tuple(CarEntry(f"car{i + 1}", f"Driver {i + 1}", f"Team {i // 2 + 1}") for i in range(12))


def placed(
    cars: Mapping[str, tuple[str, int, int]],
    dice: Iterable[int | Sequence[int]] = (),
    *,
    decks: Mapping[int, Sequence[Sequence[str]]] | None = None,
    track: Track = GV,
    round_no: int = 5,
    orders: Mapping[str, CarOrders] | None = None,
    settings: GrandPrixSettings | None = None,
) -> tuple[GrandPrixRace, dict[str, int]]:
    """A race in round ``round_no`` with each car on ``(square, crossings, gear)``; returns
    the race and the car indices by name. Piles start empty (a test puts cards in them). Cars
    without ``orders`` drive on §7.1's example orders (cards from 3rd gear, required stops
    only), which the §8 vectors are written for, not on the engine's defaults."""
    names = list(cars)
    all_orders = [(orders or {}).get(n) or CarOrders(n, **SPEC_EXAMPLE) for n in names]
    race = GrandPrixRace(
        board_for(track), all_orders, ScriptedSource(dice, decks), settings or GrandPrixSettings()
    )
    race.round = round_no
    board = race.board
    for i, name in enumerate(names):
        square, crossings, gear = cars[name]
        race.status[i] = RUNNING
        race.crossings[i] = crossings
        race.place(i, board.square(square))
        race.gear[i] = gear
    return race, {n: i for i, n in enumerate(names)}
