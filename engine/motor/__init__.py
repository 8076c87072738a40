"""Motor racing track files and entries, shared by every motor ruleset (Grand Prix, Ludicitude).

Nothing here knows a game: a ruleset reads its own schema from a :class:`DataDocument` and
reports what is wrong as :class:`Fault` values. The API, for a ruleset's ``track.py``:

``load_document(path) -> DataDocument``
    Reads a YAML file (PyYAML ``compose`` + ``safe_load`` only, never ``yaml.load``) or a JSON
    file with the same structure (by the ``.json`` suffix). A file that cannot be read or parsed
    raises :class:`TrackError` with one fault (rule ``FILE``) carrying the line. Duplicate
    mapping keys are refused (rule ``FILE``) since YAML would silently keep the last one.
    ``parse_document(text, name)`` does the same from a text.

``DataDocument``: ``name`` (the file name, for messages), ``data`` (plain dicts, lists, str,
    int, float, bool, None), ``line(*path)`` (the 1-based line of the value at a key/index
    path, e.g. ``doc.line("corners", 2, "zone")``; the nearest known ancestor's line when the
    path is missing; None if none), ``content_hash`` (:func:`content_hash` of ``data``).

``Faults(doc)``: a collector. ``faults.add(rule, place, field, message, path=(...))`` records a
    :class:`Fault` whose line comes from ``path`` (defaults to nothing); ``faults.check()`` raises
    :class:`TrackError` carrying every fault recorded, in order, if there is any. Readers that
    record a fault and return None for a wrong value: ``faults.mapping / integer / text /
    sequence / boolean``, and ``check_game(faults, game)`` for the ``game`` field.

``Fault(rule, place, field, message, line)``: ``rule`` the spec's rule id (``V2``, ``V-3``...)
    or ``FILE`` / ``SCHEMA``; ``place`` where on the track (a corner id, a square, a card index;
    "" for the file as a whole); ``field`` the dotted field (``corners[2].zone``).
    ``str(fault)`` is one line ``line 12: V2 corner T1-T2, field corners[0].zone: ...``.

``TrackError(name, faults)``: a ``ValueError`` whose ``str`` is one line per fault, each
    starting with the file name (``monaco.yaml line 12: ...``); ``.faults`` is the tuple.

``content_hash(data) -> "sha256:<hex>"``: sha256 of the canonical JSON of the content (sorted
    keys, no spaces, UTF-8), so comments, key order, YAML vs JSON and layout do not change it;
    a league stores track versions by this hash.

``CarEntry(car_id, driver, team)``, ``read_cars(path, max_cars=12, team_size=2)``: the
    ``id, driver, team`` CSV of the command line; ``read_orders(path)``: a JSON (or YAML) list of
    objects each with a ``car`` field, returned as ``{car_id: (object, line)}``. Both raise
    :class:`EntryError` (a ``ValueError``) naming the file, line and field.

``MotorHooks`` (:mod:`engine.motor.hooks`): what a motor ruleset registers so that the command
    line (``simulate --track``, ``check-track``, ``playtest``) drives it without naming it.
"""

from __future__ import annotations

from engine.motor.entries import CarEntry, EntryError, read_cars, read_orders
from engine.motor.faults import Fault, Faults, TrackError, check_game
from engine.motor.hooks import LeagueHooks, MotorHooks, RawOrders
from engine.motor.trackfile import DataDocument, content_hash, load_document, parse_document

__all__ = [
    "CarEntry",
    "DataDocument",
    "EntryError",
    "Fault",
    "Faults",
    "LeagueHooks",
    "MotorHooks",
    "RawOrders",
    "TrackError",
    "check_game",
    "content_hash",
    "load_document",
    "parse_document",
    "read_cars",
    "read_orders",
]
