"""Faults of a track (or entries) file: the rule broken, where, which field, on which line."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.motor.trackfile import DataDocument, PathKey


@dataclass(frozen=True, slots=True)
class Fault:
    """One thing wrong with a file: ``rule`` (spec rule id, ``FILE`` or ``SCHEMA``), ``place``
    (a corner id, a square, a card index, or ""), ``field`` (dotted path) and ``line``."""

    rule: str
    place: str
    field: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        parts = [f"line {self.line}:" if self.line is not None else ""]
        parts.append(self.rule)
        if self.place:
            parts.append(self.place)
        text = " ".join(p for p in parts if p)
        if self.field:
            text += f", field {self.field}"
        return f"{text}: {self.message}"


class TrackError(ValueError):
    """A file with faults; ``str`` gives one line per fault, each starting with the file name."""

    def __init__(self, name: str, faults: Sequence[Fault]) -> None:
        self.name = name
        self.faults: tuple[Fault, ...] = tuple(faults)
        super().__init__("\n".join(f"{name} {fault}" for fault in self.faults))


#: The longest text a track field holds (a name, an id), unless the field says otherwise.
MAX_TEXT = 200


def too_big(value: float, maximum: float) -> str:
    """The message of a number above its bound: ``40000 is more than the maximum 1500``."""
    return f"{_shown(value)} is more than the maximum {_shown(maximum)}"


def _shown(value: float) -> str:
    # A whole number as a whole number, whatever its type: the compiled engine (mypyc) hands
    # an int given for a ``float`` parameter over as a float.
    if float(value).is_integer() and abs(value) < 10**16:
        return str(int(value))
    return f"{value:g}"


def too_many(count: int, maximum: int) -> str:
    """The message of a list longer than its bound: ``500 items, more than the maximum 90``."""
    return f"{count} items, more than the maximum {maximum}"


def field_name(path: Sequence[PathKey]) -> str:
    """``("corners", 2, "zone")`` -> ``corners[2].zone``."""
    out = ""
    for key in path:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else str(key))
    return out


class Faults:
    """Collects the faults of one document; :meth:`check` raises them all at once."""

    __slots__ = ("doc", "faults")

    def __init__(self, doc: DataDocument) -> None:
        self.doc = doc
        self.faults: list[Fault] = []

    def add(
        self, rule: str, place: str, field: str, message: str, *, path: Sequence[PathKey] = ()
    ) -> None:
        """Record a fault; its line is that of ``path`` in the document."""
        line = self.doc.line(*path) if path else None
        self.faults.append(Fault(rule, place, field, message, line))

    def at(self, rule: str, place: str, path: Sequence[PathKey], message: str) -> None:
        """Record a fault whose field is ``path`` itself."""
        self.add(rule, place, field_name(path), message, path=path)

    def check(self) -> None:
        """Raise :class:`TrackError` with every fault recorded, if any."""
        if self.faults:
            raise TrackError(self.doc.name, self.faults)

    # -- typed readers: record a SCHEMA fault and return None on a wrong value -------------

    def value(self, path: Sequence[PathKey], *, required: bool = True) -> Any:
        """The value at ``path`` (None and a fault if missing and ``required``)."""
        node: Any = self.doc.data
        for key in path:
            if isinstance(key, int):
                if not isinstance(node, list) or not 0 <= key < len(node):
                    node = None
                    break
                node = node[key]
            else:
                if not isinstance(node, dict) or key not in node:
                    node = None
                    break
                node = node[key]
        else:
            return node
        if required:
            self.at("SCHEMA", "", path, "missing")
        return None

    def _typed(self, path: Sequence[PathKey], ok: bool, value: Any, what: str, place: str) -> Any:
        if ok:
            return value
        self.at("SCHEMA", place, path, f"{value!r} is not {what}")
        return None

    def mapping(self, path: Sequence[PathKey], *, place: str = "") -> dict[str, Any] | None:
        """A mapping at ``path``, or None (with a fault)."""
        value = self.value(path)
        if value is None:
            return None
        return self._typed(path, isinstance(value, dict), value, "a mapping", place)  # type: ignore[no-any-return]

    def sequence(
        self, path: Sequence[PathKey], *, place: str = "", max_items: int | None = None
    ) -> list[Any] | None:
        """A list at ``path`` of at most ``max_items`` items, or None (with a fault)."""
        value = self.value(path)
        if value is None:
            return None
        if not isinstance(value, list):
            return self._typed(path, False, value, "a list", place)  # type: ignore[no-any-return]
        if max_items is not None and len(value) > max_items:
            self.at("SCHEMA", place, path, too_many(len(value), max_items))
            return None
        return value

    def integer(
        self,
        path: Sequence[PathKey],
        *,
        place: str = "",
        required: bool = True,
        default: int | None = None,
        minimum: int | None = None,
        maximum: int | None = None,
    ) -> int | None:
        """An int at ``path`` (bools refused) within the bounds, or None (with a fault)."""
        value = self.value(path, required=required and default is None)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            self.at("SCHEMA", place, path, f"{value!r} is not a whole number")
            return None
        if minimum is not None and value < minimum:
            self.at("SCHEMA", place, path, f"{value} is below {minimum}")
            return None
        if maximum is not None and value > maximum:
            self.at("SCHEMA", place, path, too_big(value, maximum))
            return None
        return value

    def number(
        self,
        path: Sequence[PathKey],
        *,
        minimum: float,
        maximum: float,
        place: str = "",
    ) -> float | None:
        """A finite int or float at ``path`` within the bounds, or None (absent, or a fault)."""
        value = self.value(path, required=False)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
            self.at("SCHEMA", place, path, f"{value!r} is not a number")
            return None
        if value < minimum:
            self.at("SCHEMA", place, path, f"{_shown(value)} is below {_shown(minimum)}")
            return None
        if value > maximum:
            self.at("SCHEMA", place, path, too_big(value, maximum))
            return None
        return float(value)

    def text(
        self,
        path: Sequence[PathKey],
        *,
        place: str = "",
        required: bool = True,
        default: str | None = None,
        choices: Sequence[str] | None = None,
        max_length: int = MAX_TEXT,
    ) -> str | None:
        """A non-empty string at ``path`` of at most ``max_length`` characters (one of
        ``choices`` if given), or None (fault)."""
        value = self.value(path, required=required and default is None)
        if value is None:
            return default
        if not isinstance(value, str) or not value.strip():
            self.at("SCHEMA", place, path, f"{value!r} is not a non-empty text")
            return None
        if len(value) > max_length:
            self.at("SCHEMA", place, path, f"{len(value)} characters, at most {max_length}")
            return None
        if choices is not None and value not in choices:
            self.at("SCHEMA", place, path, f"{value!r} is not one of {', '.join(choices)}")
            return None
        return value

    def boolean(
        self, path: Sequence[PathKey], *, place: str = "", default: bool | None = None
    ) -> bool | None:
        """A bool at ``path``, or None (with a fault)."""
        value = self.value(path, required=default is None)
        if value is None:
            return default
        return self._typed(path, isinstance(value, bool), value, "true or false", place)  # type: ignore[no-any-return]


def check_game(faults: Faults, game: str) -> bool:
    """The document is a mapping whose ``game`` is ``game`` (a fault and False otherwise)."""
    data = faults.doc.data
    if not isinstance(data, dict):
        faults.add("SCHEMA", "", "", "expected a mapping of track fields at the top")
        return False
    found = data.get("game")
    if found != game:
        faults.at("SCHEMA", "", ("game",), f"{found!r} is not {game!r}")
        return False
    return True
