"""One list of adapters, one lookup, a clear error for an unknown name (like python-chess's
variants)."""

from __future__ import annotations

from typing import Any, cast

from plugins.protocol import GameAdapter


class UnknownRuleset(LookupError):
    """No adapter is registered under this name."""

    def __init__(self, name: str, known: tuple[str, ...]) -> None:
        self.name = name
        super().__init__(
            f"Unknown ruleset {name!r}: no adapter is registered under that name "
            f"(known: {', '.join(known) or 'none'})."
        )


_ADAPTERS: dict[str, GameAdapter] = {}


def register(adapter: Any) -> Any:
    """Register ``adapter`` under its ``name`` (once: a second adapter of that name is a
    mistake); returns it. An adapter that lacks a member of :class:`GameAdapter` is refused,
    naming what it lacks."""
    name = getattr(adapter, "name", None)
    if not isinstance(name, str) or not name:
        raise ValueError(f"an adapter needs a name, got {name!r}")
    missing = protocol_missing(adapter)
    if missing:
        raise TypeError(f"adapter {name!r} lacks {', '.join(missing)} (plugins.protocol)")
    if _ADAPTERS.get(name, adapter) is not adapter:
        raise ValueError(f"an adapter is already registered for ruleset {name!r}")
    _ADAPTERS[name] = adapter
    return adapter


def unregister(name: str) -> None:
    """Take an adapter off the list (tests that register a fake one)."""
    _ADAPTERS.pop(name, None)


#: Every member a GameAdapter has: its attributes and its methods and properties.
#: (GameAdapter's own and those of the protocols it is made of: plugins.formation.)
_PROTOCOLS = [klass for klass in GameAdapter.__mro__ if klass.__module__.startswith("plugins.")]
PROTOCOL_MEMBERS = sorted(
    {name for klass in _PROTOCOLS for name in getattr(klass, "__annotations__", {})}
    | {
        name
        for klass in _PROTOCOLS
        for name, value in vars(klass).items()
        if not name.startswith("_") and (callable(value) or isinstance(value, property))
    }
)


def protocol_missing(adapter: Any) -> list[str]:
    """The members of :class:`GameAdapter` that ``adapter`` does not have."""
    return [member for member in PROTOCOL_MEMBERS if not hasattr(adapter, member)]


def adapter_for(name: str) -> GameAdapter:
    """The adapter of ruleset ``name``; :class:`UnknownRuleset` names the known ones."""
    try:
        return _ADAPTERS[name]
    except KeyError:
        raise UnknownRuleset(name, adapter_names()) from None


class WrongDiscipline(TypeError):
    """A discipline's member asked of another discipline's adapter."""


def cycling_adapter(name: str) -> Any:
    """The adapter of a cycling ruleset, for what only riders on stages have (the inputs of a
    stage, its times); WrongDiscipline for a motor one. Typed ``Any`` until the last of these
    members moves behind :class:`GameAdapter`: each call is a place where the season layer
    still tells the disciplines apart."""
    return _discipline_adapter(name, CYCLING)


def motor_adapter(name: str) -> Any:
    """The adapter of a motor ruleset (cars on Grands Prix: laps, tracks, standings)."""
    return _discipline_adapter(name, MOTOR)


def _discipline_adapter(name: str, discipline: str) -> Any:
    adapter = adapter_for(name)
    if adapter.discipline != discipline:
        raise WrongDiscipline(
            f"Ruleset {name!r} is a {adapter.discipline} game, not a {discipline} one."
        )
    return cast(Any, adapter)


def adapter_names() -> tuple[str, ...]:
    """Every registered ruleset, in registration order."""
    return tuple(_ADAPTERS)


#: The disciplines an adapter's ``discipline`` names: riders on stages, cars on Grands Prix.
CYCLING, MOTOR = "cycling", "motor"


def ruleset_choices(discipline: str | None = None) -> list[tuple[str, Any]]:
    """(name, label) of every registered ruleset, or of those of one ``discipline``, for a
    choice field."""
    return [
        (name, adapter.label)
        for name, adapter in _ADAPTERS.items()
        if discipline is None or discipline_of(adapter) == discipline
    ]


def discipline_of(adapter: GameAdapter) -> str:
    """The discipline of an adapter: "cycling" (riders on stages) or "motor" (cars on Grands
    Prix)."""
    return adapter.discipline
