"""A ruleset's own settings object from a season's values, through the engine's settings codec.

Part of the league's door to the engine (with races/engine_adapter.py), kept free of the ORM so
that pure code (the season's rule settings, bench/realism.py) can build engine settings
without a database.
"""

from collections.abc import Mapping
from typing import Any

from engine import get_ruleset


def engine_settings(ruleset: str, values: Mapping[str, Any]) -> Any:
    """The ruleset's own settings object: its defaults, with ``values`` (checked against the
    ruleset's settings spec: ValueError naming the field out of bounds)."""
    codec = get_ruleset(ruleset).settings
    if codec is None:
        raise ValueError(f"ruleset {ruleset!r} has no settings")
    return codec.from_data(values)
