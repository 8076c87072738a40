"""The stage race's printed sheets (issue 34; sheets): a stage's communiqué (the race, the stage
and its profile, the first of its results, the GC's top 20, the jerseys, who left the race and
the time cut) and a race's final classifications for the season's sheet. Blocks of plain text
in the active language, built from the race's own rows (CyclingAdapter.round_sheet_blocks,
event_sheet_blocks); races imports no season: a season or a round is read through its
attributes only."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils import formats, timezone
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from races.charts.profile import profile_texts, stage_profile_points
from races.formatting import clock, gap
from races.league.jerseys import jersey_holders
from races.league.reasons import reason_words
from races.models import Classification, Stage, StageResult, Standing
from races.timing import TimingRules
from sheets import Block, Heading, Profile, ProfilePiece, Table, Text

#: The stage's results printed: the first 30 (the whole list is the stage page's).
RESULTS_SHOWN = 30
#: The GC printed after a stage, and at the end of a race.
GC_SHOWN = 20
FINAL_GC_SHOWN = 30
#: Who left the race or missed the time cut, at most (a sheet's size is bounded).
OUT_SHOWN = 60


def race_name(stage: Stage) -> str:
    race = stage.race
    return race.template.name if race.template_id else race.name  # type: ignore[union-attr]


def _team(team_names: Mapping[int, str], team_id: int | None) -> str:
    return team_names.get(team_id or 0, "")


def _facts(stage: Stage, round: Any) -> str:
    """The stage in one line: its date, its route, its distance and type."""
    bits = [_("Stage %(number)s") % {"number": stage.number}]
    if stage.date:
        bits.append(formats.date_format(stage.date, "DATE_FORMAT"))
    if stage.start or stage.finish:
        bits.append(f"{stage.start} → {stage.finish}")
    bits.append(f"{formats.number_format(stage.distance_km, 1)} km")
    bits.append(str(stage.get_stage_type_display()).capitalize())
    facts = " · ".join(bits)
    deadline = getattr(round, "orders_deadline", None)
    if deadline is not None:
        when = formats.date_format(timezone.localtime(deadline), "DATETIME_FORMAT")
        facts += " · " + _("Orders deadline: %(when)s") % {"when": when}
    return facts


def profile_block(stage: Stage) -> Profile:
    pieces, labels, caption = stage_profile_points(stage.segments, texts=profile_texts())
    return Profile(
        pieces=tuple(ProfilePiece(colour, tuple(points)) for colour, points in pieces),
        labels=tuple(labels),
        caption=caption,
        km_word=_("km"),
        metres_word=_("m"),
    )


def _results_table(rows: list[StageResult], team_names: Mapping[int, str]) -> Table:
    lines = []
    previous: int | None = None
    for result in rows:
        if result.rank == 1:
            shown = clock(result.time_seconds)
        elif result.gap_seconds is not None and result.gap_seconds == previous:
            shown = _("s.t.")
        else:
            shown = gap(result.gap_seconds) or _("s.t.")
        previous = result.gap_seconds
        lines.append(
            (
                str(result.rank or ""),
                result.rider.name,
                _team(team_names, result.entry_team_id),
                shown,
                f"{result.bonus_seconds}″" if result.bonus_seconds else "",
            )
        )
    return Table(
        (_("#"), _("Rider"), _("Team"), _("Time"), _("Bonus")),
        tuple(lines),
        numeric=frozenset({0, 3, 4}),
        widths=(0.6, 4, 3.4, 1.6, 1),
    )


def _gc_table(race_id: int, number: int, team_names: Mapping[int, str], limit: int) -> Table:
    lines = (
        Standing.objects.filter(
            stage__race_id=race_id, stage__number=number, classification=Classification.GENERAL
        )
        .select_related("rider")
        .order_by("rank")[:limit]
    )
    return Table(
        (_("#"), _("Rider"), _("Team"), _("Time")),
        tuple(
            (
                str(line.rank or ""),
                line.rider.name if line.rider else "",
                _team(team_names, line.entry_team_id),
                clock(line.value) if line.rank == 1 else gap(line.gap),
            )
            for line in lines
        ),
        numeric=frozenset({0, 3}),
        widths=(0.6, 4, 3.4, 1.8),
    )


def _jerseys_blocks(race_id: int, number: int, team_names: Mapping[int, str]) -> list[Block]:
    jerseys = jersey_holders(race_id=race_id, number=number, team_names=lambda: team_names)
    if not jerseys:
        return []
    classifications = dict(Classification.choices)
    return [
        Heading(_("Jerseys after stage %(number)d") % {"number": number}),
        Table(
            (_("Jersey"), _("Classification"), _("Worn by"), _("Leader")),
            tuple(
                (
                    jersey.label,
                    str(
                        capfirst(classifications.get(jersey.classification, jersey.classification))
                    ),
                    jersey.name,
                    jersey.leader_name,
                )
                for jersey in jerseys
            ),
            widths=(1.6, 2, 3.2, 3.2),
        ),
    ]


def round_blocks(
    stage: Stage, *, round: Any, team_names: Mapping[int, str], timing: TimingRules
) -> list[Block]:
    """A stage's communiqué (see the module's docstring)."""
    results = list(
        StageResult.objects.filter(stage=stage).select_related("rider").order_by("rank", "pk")
    )
    ranked = [r for r in results if r.rank is not None]
    blocks: list[Block] = [
        Heading(race_name(stage)),
        Text(_facts(stage, round)),
        profile_block(stage),
        Heading(_("Results of stage %(number)d") % {"number": stage.number}),
    ]
    if ranked:
        blocks.append(_results_table(ranked[:RESULTS_SHOWN], team_names))
        if len(ranked) > RESULTS_SHOWN:
            blocks.append(
                Text(
                    _("The first %(shown)d of %(count)d riders; the stage's page lists them all.")
                    % {"shown": RESULTS_SHOWN, "count": len(ranked)},
                    muted=True,
                )
            )
    else:
        blocks.append(Text(_("No results yet.")))
    blocks.append(
        Heading(_("General classification after stage %(number)d") % {"number": stage.number})
    )
    blocks.append(_gc_table(stage.race_id, stage.number, team_names, GC_SHOWN))
    blocks += _jerseys_blocks(stage.race_id, stage.number, team_names)
    blocks += _out_blocks(stage, results, team_names, timing)
    return blocks


def _out_blocks(
    stage: Stage,
    results: list[StageResult],
    team_names: Mapping[int, str],
    timing: TimingRules,
) -> list[Block]:
    """Who left the race in the stage, and the time cut: its limit and who missed it."""
    status = StageResult.Status
    out = [r for r in results if r.status not in (status.FINISHED, status.OUTSIDE_TIME_LIMIT)]
    late = [r for r in results if r.status == status.OUTSIDE_TIME_LIMIT]
    blocks: list[Block] = [Heading(_("Abandons"))]

    def rows(lines: list[StageResult]) -> tuple[tuple[str, ...], ...]:
        return tuple(
            (
                r.rider.name,
                _team(team_names, r.entry_team_id),
                str(r.get_status_display()),
                reason_words(status=r.status, reason=r.status_reason),
            )
            for r in lines[:OUT_SHOWN]
        )

    columns = (_("Rider"), _("Team"), _("Status"), _("Reason"))
    widths = (3, 2.6, 1.8, 4)
    if out:
        blocks.append(Table(columns, rows(out), widths=widths))
    else:
        blocks.append(Text(_("Nobody left the race in this stage.")))
    blocks.append(Heading(_("Time cut")))
    pct = timing.time_cut_pct.get(stage.stage_type) if timing.time_cut_enabled else None
    winner = next((r.time_seconds for r in results if r.rank == 1), None)
    if pct is None:
        blocks.append(Text(_("This season has no time cut.")))
    elif winner:
        blocks.append(
            Text(
                _("Time limit: %(pct)s %% of the winner's time, %(limit)s behind him.")
                % {"pct": formats.number_format(pct), "limit": gap(int(winner * pct / 100))}
            )
        )
    if pct is not None:
        if late:
            blocks.append(Table(columns, rows(late), widths=widths))
        else:
            blocks.append(Text(_("Every finisher was within the time limit.")))
    return blocks


def event_blocks(stage: Stage | None, *, team_names: Mapping[int, str]) -> list[Block]:
    """A race's classifications after its stage ``stage`` (its last one visible) for the
    season's sheet: the GC's first 30 and the jerseys."""
    if stage is None:
        return []
    return [
        Heading(
            _("%(race)s: general classification after stage %(number)d")
            % {"race": race_name(stage), "number": stage.number}
        ),
        _gc_table(stage.race_id, stage.number, team_names, FINAL_GC_SHOWN),
        *_jerseys_blocks(stage.race_id, stage.number, team_names),
    ]
