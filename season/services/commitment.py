"""Dice that nobody can choose (issue 19, part 2): a round's seed is drawn and committed before
any orders are taken, every orders submission adds a random nonce of its own, and the dice are
drawn from SHA-256 of the seed and the nonces in team order.

The organiser cannot choose the dice (the seed is drawn by the server, and the nonces come after
the commitment), a player cannot (he does not know the seed, and the other teams' nonces), and
the server cannot after the deadline (the commitment is public). After resolution the seed and
the nonces are revealed: anybody recomputes the commitment and the dice seed.

A round resolved before commitments existed has no commitment: its dice come from its seed.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from plugins import GameAdapter, adapter_for
from season.models import DONE_STATUSES, Orders, Round, Season


def _protocol(season: Season) -> GameAdapter:
    # The commitment's hash and the dice seed's derivation come with the season's game adapter,
    # which shares them with the engine's replay (one definition, no exception to the boundary).
    return adapter_for(season.ruleset)


def new_nonce() -> str:
    return secrets.token_hex(16)


def round_seed_commit(*, round: Round) -> str:
    """Draw the round's seed and store its commitment, once (a conditional update: a second
    call, in this process or another, keeps the first seed). Returns the commitment.

    Every round is committed before anyone can act on its dice: as it opens, and at the latest
    as it is locked or claimed for resolution. A round not yet resolved that holds a seed but no
    commitment (drawn before commitments existed) gets a new, committed seed: a plain seed is
    never raced."""
    if round.commitment:
        return round.commitment
    protocol = _protocol(round.season)
    seed = secrets.randbits(protocol.seed_bits)
    Round.objects.filter(pk=round.pk, commitment="").exclude(status__in=DONE_STATUSES).update(
        seed=seed, commitment=protocol.commitment_of(seed)
    )
    round.refresh_from_db(fields=["seed", "commitment"])
    return round.commitment


def round_nonces(*, round: Round) -> list[tuple[int, str, str]]:
    """(team id, team name, nonce) of every submission, in team order (by team id)."""
    return [
        (team_id, name, nonce)
        for team_id, name, nonce in Orders.objects.filter(round=round)
        .exclude(nonce="")
        .order_by("team_id")
        .values_list("team_id", "team__name", "nonce")
    ]


def dice_seed_of(round: Round) -> int:
    """The seed the engine draws the round's dice from: derived from the committed seed and
    the nonces, or the seed itself for a round without a commitment."""
    assert round.seed is not None
    if not round.commitment:
        return round.seed
    nonces = [nonce for _team, _name, nonce in round_nonces(round=round)]
    return int(_protocol(round.season).dice_seed(round.seed, nonces))


@dataclass(frozen=True)
class Reveal:
    seed: int
    commitment: str
    nonces: list[tuple[int, str, str]]
    dice_seed: int


def round_reveal(*, round: Round) -> Reveal | None:
    """What the page reveals after resolution (None before, or without a commitment)."""
    if round.status not in DONE_STATUSES or not round.commitment or round.seed is None:
        return None
    return Reveal(
        seed=round.seed,
        commitment=round.commitment,
        nonces=round_nonces(round=round),
        dice_seed=dice_seed_of(round),
    )


def round_verify(*, round: Round) -> list[str]:
    """What does not hold in a resolved round's commitment and dice (empty: it all holds): the
    commitment is SHA-256 of the revealed seed, and a fresh run from the seed and the nonces
    gives the stored results and dice log (the replay)."""
    from season.replay import stage_replay

    if round.status not in DONE_STATUSES or round.seed is None:
        return [f"Round {round.number} is not resolved: nothing to verify."]
    if not round.commitment:
        return [f"Round {round.number} was resolved before commitments: no commitment to check."]
    problems = []
    if _protocol(round.season).commitment_of(round.seed) != round.commitment:
        problems.append(
            f"The commitment {round.commitment} is not SHA-256 of the seed {round.seed}."
        )
    return problems + stage_replay(round=round)
