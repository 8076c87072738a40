"""Track files into Track rows: the engine's loader validates them (V1..V6 / V-1..V-4), the
content hash decides whether an upload is a new version (the admin upload and the shipped files
of ``motor/tracks/`` go through :func:`track_store`)."""

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.db import transaction
from django.utils.text import slugify

from engine.motor import DataDocument, Fault, TrackError, parse_document
from engine.registry import ruleset_for_game
from motor.models import Track

MAX_TRACK_BYTES = 1024 * 1024  # a track file is a few KB; a larger one is refused unread
SHIPPED = Path(__file__).resolve().parent / "tracks"
#: Circuits (the ``circuit_id`` of races.csv) whose shipped track is named otherwise.
CIRCUIT_TRACKS = {"montreal": "gilles-villeneuve"}


@dataclass(frozen=True)
class TrackFaults(Exception):
    """Every fault of a refused file, one line each (file, line, rule, place, field), and the
    engine's faults themselves when the engine found them (the admin's editor places each next
    to its row)."""

    lines: tuple[str, ...]
    faults: tuple[Fault, ...] = ()

    def __str__(self) -> str:
        return "\n".join(self.lines)


def track_validate(text: str, file_name: str) -> tuple[str, object, object]:
    """(game, parsed document, the engine's track) or :class:`TrackFaults` with every fault."""
    try:
        doc = parse_document(text, file_name, json_format=file_name.lower().endswith(".json"))
        game = doc.data.get("game") if isinstance(doc.data, dict) else None
        ruleset = ruleset_for_game(game)
        if ruleset is None or ruleset.motor is None:
            line = doc.line("game")
            where = f"{file_name} line {line}" if line else file_name
            raise TrackFaults((f"{where}: SCHEMA, field game: {game!r} is not a motor game",))
        return str(game), doc, ruleset.motor.load_track(doc)
    except TrackError as error:
        raise TrackFaults(tuple(str(error).splitlines()), error.faults) from None


def track_content_validate(content: Mapping[str, Any], *, name: str) -> object:
    """The engine's track of a content mapping (an edit in the admin: no file, no lines), or
    :class:`TrackFaults` with every fault, each naming its rule, place and field."""
    game = content.get("game")
    ruleset = ruleset_for_game(game)
    if ruleset is None or ruleset.motor is None:
        raise TrackFaults(
            (f"{name}: SCHEMA, field game: {game!r} is not a motor game",),
            (Fault("SCHEMA", "", "game", f"{game!r} is not a motor game"),),
        )
    try:
        return ruleset.motor.load_track(DataDocument(name, dict(content), {}))
    except TrackError as error:
        raise TrackFaults(tuple(str(f) for f in error.faults), error.faults) from None


def track_store(*, content: bytes, file_name: str, slug: str = "") -> tuple[Track, bool]:
    """The Track for this file: the stored version with the same content, or a new version.

    Returns (track, created). :class:`TrackFaults` when the file is refused: nothing written.
    """
    if len(content) > MAX_TRACK_BYTES:
        raise TrackFaults((f"{file_name}: FILE: {len(content):,} bytes, at most 1 MB is read",))
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise TrackFaults((f"{file_name}: FILE: not UTF-8 text (byte {error.start})",)) from None
    game, doc, track = track_validate(text, file_name)
    data = doc.data  # type: ignore[attr-defined]
    slug = slug or slugify(str(data.get("id") or Path(file_name).stem))
    return _track_write(game=game, data=data, track=track, slug=slug, file_name=file_name)


def track_edit_store(*, track: Track, content: Mapping[str, Any]) -> tuple[Track, bool]:
    """An admin's edit of ``track``: validated by the engine as a file would be, stored as the
    next version of its slug (same file name); the same content as a stored version of the
    slug is that version, unchanged. :class:`TrackFaults` and nothing written when refused.

    Rounds keep the version they point at: a new version moves no Grand Prix (docs/grandprix.md
    "Editing a track")."""
    engine_track = track_content_validate(content, name=track.file_name or track.slug)
    return _track_write(
        game=str(content["game"]),
        data=dict(content),
        track=engine_track,
        slug=track.slug,
        file_name=track.file_name or f"{track.slug}.yaml",
    )


def _track_write(
    *, game: str, data: dict[str, Any], track: object, slug: str, file_name: str
) -> tuple[Track, bool]:
    content_hash = DataDocument(file_name, data, {}).content_hash
    summary = ruleset_for_game(game).motor.track_summary(track)  # type: ignore[union-attr]
    with transaction.atomic():
        same = Track.objects.filter(slug=slug, content_hash=content_hash).first()
        if same is not None:
            return same, False
        # Two admins saving the same track: the second waits, then takes the next version.
        last = Track.objects.select_for_update().filter(slug=slug).order_by("-version").first()
        stored = Track.objects.create(
            slug=slug,
            version=(last.version + 1) if last else 1,
            game=game,
            name=str(data.get("name") or slug),
            file_name=Path(file_name).name[:200],  # the column's length (an upload may be 255)
            content=data,
            content_hash=content_hash,
            summary=summary[:300],
        )
    return stored, True


def circuit_track_slugs(circuit_slug: str) -> list[str]:
    """The track slugs that stand for a circuit, best first: the circuit's id itself, then the
    shipped approximation of it (``monaco`` -> ``monaco-approx``; ``montreal`` ->
    ``gilles-villeneuve-approx``)."""
    if not circuit_slug:
        return []
    base = CIRCUIT_TRACKS.get(circuit_slug, circuit_slug)
    return list(dict.fromkeys([circuit_slug, base, f"{base}-approx"]))


def track_latest(*, slugs: list[str], game: str) -> Track | None:
    """The latest version of the first of ``slugs`` with a track of ``game``."""
    latest: dict[str, Track] = {}
    for track in Track.objects.filter(slug__in=slugs, game=game).order_by("-version"):
        latest.setdefault(track.slug, track)
    return next((latest[s] for s in slugs if s in latest), None)


def shipped_tracks_load() -> list[tuple[Track, bool]]:
    """Store every shipped track file of ``motor/tracks/<game>/`` (unchanged ones are kept)."""
    return [
        track_store(content=path.read_bytes(), file_name=path.name)
        for path in sorted(SHIPPED.glob("*/*.yaml"))
    ]
