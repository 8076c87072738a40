"""Dice that nobody can choose (issue 19): a round's seed is committed (SHA-256) before any
orders, every orders submission adds a nonce, and the dice are drawn from SHA-256 of the seed and
the nonces in team order. Pure: the league stores the seed and the nonces, this module derives.

``replay_round`` re-runs a round from its downloaded JSON (the round's page links it once
resolved) with no database: it checks the commitment, derives the dice seed, simulates the
stored inputs (a stage, or a Grand Prix through its ruleset's league round) and gives the dice
log's SHA-256, which the round's page also shows.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.registry import cycling_ruleset, get_ruleset, motor_ruleset, simulate

SEED_BITS = 62
#: Key of the ruleset version in a round's stored inputs (not part of the ruleset's codec).
ENGINE_VERSION_KEY = "engine_version"


def commitment_of(seed: int) -> str:
    """SHA-256 (hex) of the seed written in decimal."""
    return hashlib.sha256(str(seed).encode("ascii")).hexdigest()


def dice_seed(seed: int, nonces: Sequence[str]) -> int:
    """The first 62 bits of SHA-256("seed:nonce1:nonce2:..."), the nonces in team order."""
    text = ":".join([str(seed), *nonces])
    digest = hashlib.sha256(text.encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)


class DiceCommitment:
    """The commitment's three members as a game's adapter gives them (plugins.GameAdapter):
    both disciplines' base adapters inherit them, so the league and the replay share one
    protocol."""

    #: Bits of a round's seed.
    seed_bits = SEED_BITS
    #: The commitment published before orders: SHA-256 of the seed.
    commitment_of = staticmethod(commitment_of)
    #: The seed the dice are drawn from: the committed seed and the nonces in team order.
    dice_seed = staticmethod(dice_seed)


def dice_log_sha256(rows: Sequence[Sequence[Any]]) -> str:
    """SHA-256 of a dice log's rows as the league stores them (compact JSON)."""
    return hashlib.sha256(json.dumps(list(rows), separators=(",", ":")).encode()).hexdigest()


@dataclass(frozen=True)
class Replay:
    ruleset: str
    commitment_ok: bool
    dice_seed: int
    dice_seed_ok: bool
    rolls: int
    dice_sha256: str
    #: The SHA-256 the file says the league's dice log has ("" when it gives none).
    expected_sha256: str

    @property
    def ok(self) -> bool:
        same = not self.expected_sha256 or self.expected_sha256 == self.dice_sha256
        return self.commitment_ok and self.dice_seed_ok and same


def replay_round(data: Mapping[str, Any]) -> Replay:
    """Re-run a round from its JSON: ``ruleset``, ``inputs`` (as stored), ``seed``,
    ``commitment``, ``nonces``, and optionally ``dice_seed`` and ``dice_sha256`` to compare with.
    ValueError (naming the key) for a file that lacks one."""
    for key in ("ruleset", "inputs", "seed", "commitment", "nonces"):
        if key not in data:
            raise ValueError(f"round file: no {key!r}")
    seed = int(data["seed"])
    nonces = [str(n) for n in data["nonces"]]
    derived = dice_seed(seed, nonces) if data["commitment"] else seed
    name = str(data["ruleset"])
    rows = _motor_rows(name, data["inputs"], derived) if _is_motor(name) else None
    if rows is None:
        ruleset = cycling_ruleset(name)
        codec = ruleset.inputs
        if codec is None:
            raise ValueError(f"ruleset {ruleset.name!r} has no inputs codec")
        inputs = codec.from_data(
            {k: v for k, v in data["inputs"].items() if k != ENGINE_VERSION_KEY}
        )
        outcome = simulate(ruleset.name, inputs, derived)
        rows = [[d.turn, d.unit, d.rider_id, d.rule_id, d.die, d.face] for d in outcome.dice]
    return Replay(
        ruleset=name,
        commitment_ok=not data["commitment"] or commitment_of(seed) == data["commitment"],
        dice_seed=derived,
        dice_seed_ok=int(data.get("dice_seed", derived)) == derived,
        rolls=len(rows),
        dice_sha256=dice_log_sha256(rows),
        expected_sha256=str(data.get("dice_sha256", "")),
    )


def _is_motor(name: str) -> bool:
    return get_ruleset(name).motor is not None


def _motor_rows(name: str, inputs: Mapping[str, Any], seed: int) -> list[list[Any]]:
    """The dice log of a motor round (a Grand Prix), run from its stored inputs by its
    ruleset's league round (:class:`engine.motor.LeagueHooks`, which the league runs too); the
    outcome goes through JSON once, as the league keeps it."""
    _ruleset, hooks = motor_ruleset(name)
    league = hooks.league
    if league is None:
        raise ValueError(f"ruleset {name!r} has no league rounds to replay")
    outcome = json.loads(json.dumps(league.outcome_json(league.run(inputs, seed))))
    return league.dice_rows(outcome)
