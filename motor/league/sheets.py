"""The championship's printed sheets (issue 34; sheets): a Grand Prix's communiqué (the Grand
Prix, its grid, its classification, its retirements, the drivers' and constructors' tables
after it) and the championship's tables for the season's sheet. Blocks of plain text in the
active language, from the championship's own rows (MotorAdapter.round_sheet_blocks,
event_sheet_blocks); motor imports no season: a round is read through its attributes only."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils import formats, timezone
from django.utils.translation import gettext as _

from motor.models import GrandPrix, Standing, StandingTable
from motor.place_names import place_name
from motor.tables import points_text
from motor.views import data
from motor.words import engine_label
from sheets import Block, Heading, Table, Text

#: The drivers printed in the championship's table (a grid holds at most 12 league cars, a
#: real championship's table some 40 drivers).
DRIVERS_SHOWN = 30


def _facts(grand_prix: GrandPrix, round: Any) -> str:
    bits = [_("Round %(number)d") % {"number": grand_prix.round}]
    if grand_prix.date:
        bits.append(formats.date_format(grand_prix.date, "DATE_FORMAT"))
    bits.append(grand_prix.circuit)
    bits.append(_("%(laps)d laps") % {"laps": grand_prix.laps})
    facts = " · ".join(bits)
    deadline = getattr(round, "orders_deadline", None)
    if deadline is not None:
        when = formats.date_format(timezone.localtime(deadline), "DATETIME_FORMAT")
        facts += " · " + _("Orders deadline: %(when)s") % {"when": when}
    return facts


def _teams(seats: Mapping[int, Sequence[Any]]) -> dict[int, str]:
    """Each car's (motor entry's) league team."""
    return {
        seat.entry_id: seat.team.name
        for cars in seats.values()
        for seat in cars
        if getattr(seat, "entry_id", None)
    }


def round_blocks(
    grand_prix: GrandPrix, *, round: Any, seats: Mapping[int, Sequence[Any]]
) -> list[Block]:
    """A Grand Prix's communiqué (see the module's docstring)."""
    results = data.round_results(grand_prix)
    events = data.round_events(grand_prix)
    teams = _teams(seats)
    team_of = {r.number: teams.get(r.entry_id, "") for r in results}
    blocks: list[Block] = [Heading(place_name(grand_prix.name)), Text(_facts(grand_prix, round))]
    grid = data.grid_rows(results, data.qualifying_notes(events))
    blocks.append(Heading(_("Grid")))
    blocks.append(
        Table(
            (_("Grid"), _("No."), _("Driver"), _("Constructor"), _("Team"), _("Qualifying")),
            tuple(
                (
                    str(row["grid"] or ""),
                    str(row["number"] or ""),
                    row["driver"],
                    row["constructor"],
                    team_of.get(row["number"], ""),
                    str(row["qualifying"]),
                )
                for row in grid
            ),
            numeric=frozenset({0, 1}),
            widths=(0.8, 0.7, 2.6, 1.8, 2.2, 3),
        )
    )
    rows = data.result_rows(results, pit_laps=data.pit_stop_laps(events))
    blocks.append(Heading(_("Classification")))
    blocks.append(
        Table(
            (
                _("Pos."),
                _("No."),
                _("Driver"),
                _("Constructor"),
                _("Team"),
                _("Laps"),
                _("Time / gap"),
                _("Points"),
            ),
            tuple(
                (
                    str(row["position"] or ""),
                    str(row["number"] or ""),
                    row["driver"],
                    row["constructor"],
                    team_of.get(row["number"], ""),
                    str(row["laps"] if row["laps"] is not None else ""),
                    # A retired car's reason is the retirements' table's.
                    str(row["time"] or ("" if result.position else result.get_status_display())),
                    points_text(row["points"]),
                )
                for row, result in zip(rows, results, strict=True)
            ),
            numeric=frozenset({0, 1, 5, 6, 7}),
            widths=(0.7, 0.7, 2.6, 1.8, 2.2, 0.8, 2, 0.9),
        )
    )
    retired = data.retirement_rows(results)
    blocks.append(Heading(_("Retirements")))
    if retired:
        blocks.append(
            Table(
                (_("No."), _("Driver"), _("Constructor"), _("Lap"), _("Reason")),
                tuple(
                    (
                        str(row["number"] or ""),
                        row["driver"],
                        row["constructor"],
                        str(row["lap"] or ""),
                        str(row["reason"]),
                    )
                    for row in retired
                ),
                numeric=frozenset({0, 3}),
                widths=(0.7, 2.6, 2, 0.8, 4),
            )
        )
    else:
        blocks.append(Text(_("Every car finished.")))
    return blocks + championship_blocks(grand_prix)


def championship_blocks(grand_prix: GrandPrix | None) -> list[Block]:
    """The drivers' and constructors' tables after ``grand_prix`` (none before the first)."""
    if grand_prix is None:
        return []
    lines = list(
        Standing.objects.filter(grand_prix=grand_prix)
        .select_related("driver", "constructor")
        .order_by("table", "position", "pk")
    )
    drivers = [line for line in lines if line.table == StandingTable.DRIVERS]
    constructors = [line for line in lines if line.table == StandingTable.CONSTRUCTORS]
    engines = Counter(line.constructor_id for line in constructors)
    after = {"number": grand_prix.round}
    return [
        Heading(_("Drivers' standings")),
        Text(_("After round %(number)d.") % after, muted=True),
        Table(
            (_("Pos."), _("Driver"), _("Points"), _("Wins")),
            tuple(
                (
                    str(line.position),
                    line.driver.name if line.driver else "",
                    points_text(line.points),
                    str(line.wins),
                )
                for line in drivers[:DRIVERS_SHOWN]
            ),
            numeric=frozenset({0, 2, 3}),
            widths=(0.8, 5, 1.2, 1),
        ),
        Heading(_("Constructors' standings")),
        Table(
            (_("Pos."), _("Constructor"), _("Points"), _("Wins")),
            tuple(
                (
                    str(line.position),
                    data.team_name(
                        line.constructor.name if line.constructor else "",
                        line.engine,
                        engines[line.constructor_id],
                    )
                    if line.constructor
                    else engine_label(line.engine),
                    points_text(line.points),
                    str(line.wins),
                )
                for line in constructors
            ),
            numeric=frozenset({0, 2, 3}),
            widths=(0.8, 5, 1.2, 1),
        ),
    ]
