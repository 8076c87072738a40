"""A ruleset is one object: who it is, how it simulates, what can be set and how it is stored.

``Ruleset[I, O, S]``: its inputs type ``I``, outcome type ``O`` and settings type ``S``.

- ``name``, ``description``, ``version`` (the same inputs and seed give the same outcome
  within one version), ``discipline`` (``cycling`` or ``motor``);
- ``simulate(inputs, dice, seed) -> outcome`` (cycling: a stage; motor rulesets race through
  their ``motor`` hooks instead); ``simulate_lean``, the same with no dice log and no events
  but the summit and intermediate sprint lines (the odds' runs), the same results for the
  same seed (None: the ruleset has no lean path, ``simulate`` serves);
- ``settings_type`` and ``settings_spec``: every setting with its kind, bounds, default and
  help text (a form is generated from ``settings_spec.to_data()``), ``settings`` its codec;
- ``orders_spec``: the orders a player gives per rider (or car);
- ``inputs`` and ``outcome``: the codecs of its inputs and outcome, used by the command line,
  the golden files and the adapter alike;
- ``cycling`` or ``motor``: what the discipline adds (:class:`~engine.cycling.hooks.
  CyclingHooks`, :class:`~engine.motor.MotorHooks`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from engine.cycling.hooks import CyclingHooks
from engine.dice import DiceSource
from engine.motor import MotorHooks
from engine.spec import Codec, Spec

CYCLING, MOTOR = "cycling", "motor"
DISCIPLINES: tuple[str, ...] = (CYCLING, MOTOR)
NO_FIELDS = Spec(())

I = TypeVar("I")  # noqa: E741
O = TypeVar("O")  # noqa: E741
S = TypeVar("S")


@dataclass(frozen=True, slots=True)
class Ruleset(Generic[I, O, S]):
    """A registered ruleset (see the module's docstring)."""

    name: str
    description: str
    version: int
    discipline: str
    simulate: Callable[[I, DiceSource, int], O] | None = None
    simulate_lean: Callable[[I, DiceSource, int], O] | None = None
    settings_type: type[S] | None = None
    settings_spec: Spec = NO_FIELDS
    settings: Codec[S] | None = None
    orders_spec: Spec = NO_FIELDS
    inputs: Codec[I] | None = None
    outcome: Codec[O] | None = None
    cycling: CyclingHooks[Any] | None = None
    motor: MotorHooks | None = None

    def __post_init__(self) -> None:
        if self.discipline not in DISCIPLINES:
            raise ValueError(f"{self.name}: unknown discipline {self.discipline!r}")
        if (self.discipline == MOTOR) != (self.motor is not None):
            raise ValueError(f"{self.name}: a motor ruleset, and only one, has motor hooks")
        if self.discipline == CYCLING and (
            self.simulate is None
            or self.settings is None
            or self.inputs is None
            or self.outcome is None
            or self.cycling is None
        ):
            raise ValueError(
                f"{self.name}: a cycling ruleset needs simulate, settings, inputs, outcome "
                "and cycling hooks"
            )

    def default_settings(self) -> S:
        """The settings at their defaults."""
        if self.settings_type is None:
            raise ValueError(f"ruleset {self.name!r} has no settings type")
        return self.settings_type()
