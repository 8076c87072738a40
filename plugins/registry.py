"""One list of adapters, one lookup, a clear error for an unknown name (like python-chess's
variants)."""

from __future__ import annotations

from typing import Any


class UnknownRuleset(LookupError):
    """No adapter is registered under this name."""

    def __init__(self, name: str, known: tuple[str, ...]) -> None:
        self.name = name
        super().__init__(
            f"Unknown ruleset {name!r}: no adapter is registered under that name "
            f"(known: {', '.join(known) or 'none'})."
        )


_ADAPTERS: dict[str, Any] = {}


def register(adapter: Any) -> Any:
    """Register ``adapter`` under its ``name`` (once: a second adapter of that name is a
    mistake); returns it."""
    name = adapter.name
    if not isinstance(name, str) or not name:
        raise ValueError(f"an adapter needs a name, got {name!r}")
    if _ADAPTERS.get(name, adapter) is not adapter:
        raise ValueError(f"an adapter is already registered for ruleset {name!r}")
    _ADAPTERS[name] = adapter
    return adapter


def unregister(name: str) -> None:
    """Take an adapter off the list (tests that register a fake one)."""
    _ADAPTERS.pop(name, None)


def adapter_for(name: str) -> Any:
    """The adapter of ruleset ``name``; :class:`UnknownRuleset` names the known ones."""
    try:
        return _ADAPTERS[name]
    except KeyError:
        raise UnknownRuleset(name, adapter_names()) from None


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


def discipline_of(adapter: Any) -> str:
    """The discipline of an adapter (an adapter that names none is a cycling one, as the
    first adapters were)."""
    return str(getattr(adapter, "discipline", CYCLING))
