"""Specs of what an organiser or a player may set: fields with a kind, bounds, default and help.

A ruleset describes its settings and its per-rider (per-car) orders with a :class:`Spec`; a
form can be generated from ``spec.to_data()`` and checked by ``spec.clean(data)``, which
names the field at fault. The settings' defaults are read from the settings dataclass itself
(:func:`dataclass_spec`), so each default is written once.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from engine.outcome import JsonValue

BOOL = "bool"
INT = "int"
FLOAT = "float"
CHOICE = "choice"
#: A list of ``[int, int]`` rows (Moréno's abandon table).
INT_PAIRS = "int_pairs"
KINDS: tuple[str, ...] = (BOOL, INT, FLOAT, CHOICE, INT_PAIRS)

T = TypeVar("T")


class SpecError(ValueError):
    """Values that do not fit a spec; ``errors`` maps each field at fault to why."""

    def __init__(self, errors: Mapping[str, str]) -> None:
        self.errors = dict(errors)
        super().__init__("; ".join(f"{name}: {why}" for name, why in sorted(self.errors.items())))


@dataclass(frozen=True, slots=True)
class Field:
    """One setting or order: its JSON ``kind``, ``default``, ``label``, ``help`` text, bounds
    (``minimum``/``maximum``, inclusive, for numbers and for both numbers of an int pair),
    ``choices`` (value, label) for a choice, and ``nullable`` (None allowed, e.g. "no
    shower")."""

    name: str
    kind: str
    default: JsonValue
    label: str
    help: str
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[tuple[str, str], ...] = ()
    nullable: bool = False

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"{self.name}: unknown kind {self.kind!r}")
        if self.kind == CHOICE and not self.choices:
            raise ValueError(f"{self.name}: a choice needs choices")
        why = self.error(self.default)
        if why:
            raise ValueError(f"{self.name}: the default does not fit its own spec: {why}")

    def _bounds(self, value: float) -> str | None:
        lo, hi = self.minimum, self.maximum
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            return f"{value!r} is not within {_fmt(lo)} .. {_fmt(hi)}"
        return None

    def error(self, value: object) -> str | None:
        """Why ``value`` cannot be this field's (None when it can)."""
        if value is None:
            return None if self.nullable else "a value is required"
        if self.kind == BOOL:
            return None if type(value) is bool else f"{value!r} is not true or false"
        if self.kind == INT:
            if type(value) is not int:
                return f"{value!r} is not a whole number"
            return self._bounds(value)
        if self.kind == FLOAT:
            if isinstance(value, bool) or not isinstance(value, int | float):
                return f"{value!r} is not a number"
            if not math.isfinite(value):
                return f"{value!r} is not a finite number"
            return self._bounds(value)
        if self.kind == CHOICE:
            values = [v for v, _ in self.choices]
            return None if value in values else f"{value!r} is not one of {', '.join(values)}"
        # INT_PAIRS
        if not isinstance(value, list | tuple) or not value:
            return f"{value!r} is not a non-empty list of [int, int] rows"
        for row in value:
            if (
                not isinstance(row, list | tuple)
                or len(row) != 2
                or any(type(x) is not int for x in row)
            ):
                return f"{row!r} is not an [int, int] row"
            for x in row:
                why = self._bounds(x)
                if why:
                    return why
        return None

    def to_data(self) -> dict[str, JsonValue]:
        """This field as JSON, for a form to be generated from."""
        return {
            "name": self.name,
            "kind": self.kind,
            "default": self.default,
            "label": self.label,
            "help": self.help,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "choices": [list(c) for c in self.choices],
            "nullable": self.nullable,
        }


def _fmt(bound: float | None) -> str:
    return "…" if bound is None else f"{bound:g}"


@dataclass(frozen=True, slots=True)
class Spec:
    """An ordered set of fields."""

    fields: tuple[Field, ...]

    def __post_init__(self) -> None:
        names = [f.name for f in self.fields]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate field names in {names}")

    def __iter__(self) -> Iterator[Field]:
        return iter(self.fields)

    def __getitem__(self, name: str) -> Field:
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(name)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields)

    def defaults(self) -> dict[str, JsonValue]:
        """Every field at its default."""
        return {f.name: _copy(f.default) for f in self.fields}

    def errors(self, data: Mapping[str, object]) -> dict[str, str]:
        """Each field of ``data`` at fault (unknown ones too) and why; missing ones are fine."""
        errors = {}
        for name, value in data.items():
            try:
                why = self[name].error(value)
            except KeyError:
                why = "unknown field"
            if why:
                errors[name] = why
        return errors

    def clean(self, data: Mapping[str, object] | None) -> dict[str, JsonValue]:
        """``data`` checked and completed with the defaults (from JSON); :class:`SpecError`
        names every field at fault."""
        given = dict(data or {})
        errors = self.errors(given)
        if errors:
            raise SpecError(errors)
        out = self.defaults()
        for f in self.fields:
            if f.name in given:
                value = given[f.name]
                if f.kind == INT_PAIRS and isinstance(value, list | tuple):
                    value = [list(row) for row in value]
                elif f.kind == FLOAT and isinstance(value, int):
                    value = float(value)
                out[f.name] = _json(value)
        return out

    def to_data(self) -> list[dict[str, JsonValue]]:
        """The fields as JSON, in order, for a form to be generated from."""
        return [f.to_data() for f in self.fields]


def _copy(value: JsonValue) -> JsonValue:
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def _json(value: object) -> JsonValue:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple):
        return [_json(v) for v in value]
    raise TypeError(f"not a JSON value: {value!r}")


@dataclass(frozen=True, slots=True)
class About:
    """What a spec adds to a dataclass field: label, help, bounds, choices."""

    label: str
    help: str
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[tuple[str, str], ...] = ()
    kind: str | None = None


def dataclass_spec(cls: type[Any], about: Mapping[str, About]) -> Spec:
    """The spec of a settings dataclass: every field, its default read from ``cls`` and the
    rest from ``about``. Each field must be described, and nothing else."""
    names = [f.name for f in dataclasses.fields(cls)]
    missing, extra = set(names) - set(about), set(about) - set(names)
    if missing or extra:
        raise ValueError(
            f"{cls.__name__}: spec misses {sorted(missing)} / describes unknown {sorted(extra)}"
        )
    fields = []
    for f in dataclasses.fields(cls):
        if f.default is dataclasses.MISSING:
            raise ValueError(f"{cls.__name__}.{f.name} needs a default")
        meta = about[f.name]
        default = _json(f.default)
        kind = meta.kind or _kind_of(f.default, meta)
        fields.append(
            Field(
                name=f.name,
                kind=kind,
                default=default,
                label=meta.label,
                help=meta.help,
                minimum=meta.minimum,
                maximum=meta.maximum,
                choices=meta.choices,
                nullable=f.default is None,
            )
        )
    return Spec(tuple(fields))


def _kind_of(default: object, meta: About) -> str:
    if meta.choices:
        return CHOICE
    if isinstance(default, bool):
        return BOOL
    if isinstance(default, int):
        return INT
    if isinstance(default, float):
        return FLOAT
    if isinstance(default, tuple):
        return INT_PAIRS
    raise ValueError(f"cannot tell the kind of {default!r}: give About(kind=...)")


@dataclass(frozen=True, slots=True)
class Codec(Generic[T]):
    """One serialiser of a type: to JSON-ready data and back (ValueError on bad data)."""

    to_data: Callable[[T], dict[str, JsonValue]]
    from_data: Callable[[Mapping[str, Any]], T]


def dataclass_codec(cls: type[T], spec: Spec) -> Codec[T]:
    """The codec of a settings dataclass described by ``spec``: from data, missing fields take
    their defaults, every given one is checked against the spec (:class:`SpecError`), int
    pairs become tuples of tuples; to data, every field."""

    def to_data(obj: T) -> dict[str, JsonValue]:
        return {name: _json(getattr(obj, name)) for name in spec.names}

    def from_data(data: Mapping[str, Any]) -> T:
        clean = spec.clean(data)
        values: dict[str, Any] = {}
        for f in spec:
            value: Any = clean[f.name]
            if f.kind == INT_PAIRS and isinstance(value, list):
                value = tuple(tuple(row) for row in value if isinstance(row, Sequence))
            values[f.name] = value
        return cls(**values)

    return Codec(to_data, from_data)
