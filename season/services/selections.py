"""Selections: the riders of its squad a team starts in an event of the calendar whose
``starters`` is smaller than the squad (docs/league.md "Squads and selections").

A player chooses before the event's first deadline; a team that chose none by then (a
player who forgot, a computer team) is given the default selection, written when the event's
first round is claimed for resolution, so that the stored selection is what raced.
"""

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import Count, Exists, OuterRef, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from plugins import adapter_for
from season.models import Round, SeasonEvent, SeasonTeam, Seat, Selection
from season.selectors import seats_starting, squad_default


class SelectionRefused(Exception):
    """A selection the rules refuse; the message names the rule."""


def selection_needed(item: SeasonEvent, squad_size: int) -> bool:
    """Whether a squad of ``squad_size`` picks who starts ``item`` (fewer starters than
    riders)."""
    return item.starters is not None and squad_size > item.starters


def squad_of(team: SeasonTeam) -> list[Seat]:
    """A team's squad in the game's start order, with what the selection reads of each seat."""
    game = adapter_for(team.season.ruleset)
    return list(
        team.seats.select_related("team", "rider", "entry__driver").order_by(*game.seat_order)
    )


def first_round(item: SeasonEvent) -> Round | None:
    """The event's first round (its first deadline's)."""
    return item.rounds.order_by("number").first()


def selection_open(item: SeasonEvent) -> bool:
    """Whether a selection may still be given: the event's first round is still scheduled or
    open (its deadline not passed: the round not locked nor further on)."""
    opening = first_round(item)
    return opening is not None and opening.status in (Round.Status.SCHEDULED, Round.Status.OPEN)


def selection_count(item: SeasonEvent, squad: list[Seat]) -> int:
    """How many riders a team's selection for ``item`` names: the event's ``starters``, or
    the whole squad when it has no more riders able to start (nothing carries from one race to
    the next, so every rider of the squad is able at an event's first round)."""
    return min(item.starters or len(squad), len(squad))


def default_selection(*, team: SeasonTeam, item: SeasonEvent) -> list[Seat]:
    """The selection a team that chooses none starts with: its GC leader first, then the
    dearest riders of its squad (the game's selection order, docs/league.md "Squads and
    selections"), as many as the event starts; the whole squad when it needs no selection."""
    squad = squad_of(team)
    if not selection_needed(item, len(squad)):
        return squad
    game = adapter_for(team.season.ruleset).rated_for(item.event)
    return squad_default(squad=squad, count=selection_count(item, squad), game=game)


def selection_stored(*, team: SeasonTeam, item: SeasonEvent) -> list[Selection]:
    return list(
        Selection.objects.filter(team=team, season_event=item).select_related("seat__rider")
    )


def selection_of(*, team: SeasonTeam, item: SeasonEvent) -> list[Seat]:
    """The seats that start ``item`` for ``team``: its stored selection, else its default
    selection, in the squad's order."""
    game = adapter_for(team.season.ruleset)
    return seats_starting(item=item, seats=squad_of(team), game=game)


def _errors(*, team: SeasonTeam, item: SeasonEvent, seat_ids: list[int], user: Any) -> list[str]:
    errors = []
    if user is None or team.owner_id is None or team.owner_id != user.pk:
        errors.append(_("Only the team's owner can choose who starts for it."))
    if item.season_id != team.season_id:
        errors.append(_("This event is not in the team's season."))
    squad = squad_of(team)
    if not selection_needed(item, len(squad)):
        errors.append(_("Your whole squad starts this race: there is nothing to choose."))
        return errors
    if not selection_open(item):
        errors.append(_("The selection is closed: the race's first deadline has passed."))
    squad_ids = {seat.pk for seat in squad}
    strangers = [pk for pk in seat_ids if pk not in squad_ids]
    if strangers:
        errors.append(
            ngettext(
                "Seat %(ids)s is not in the team's squad.",
                "Seats %(ids)s are not in the team's squad.",
                len(strangers),
            )
            % {"ids": ", ".join(str(pk) for pk in strangers)}
        )
    if len(set(seat_ids)) != len(seat_ids):
        errors.append(_("A rider is chosen twice."))
    count = selection_count(item, squad)
    if len(set(seat_ids)) != count:
        errors.append(
            ngettext(
                "Choose exactly %(count)d rider (%(given)d chosen).",
                "Choose exactly %(count)d riders (%(given)d chosen).",
                count,
            )
            % {"count": count, "given": len(set(seat_ids))}
        )
    return errors


def selection_save(
    *, team: SeasonTeam, item: SeasonEvent, seat_ids: Iterable[int], user: Any
) -> list[Selection]:
    """Store the player's selection of ``seat_ids`` for ``item``, replacing any earlier one;
    SelectionRefused naming each rule it breaks (not the team's owner; an event that starts
    the whole squad; the event's first deadline passed; not exactly as many riders as the
    event starts; a seat not in the team), storing nothing then."""
    ids = [int(pk) for pk in seat_ids]
    with transaction.atomic():
        # The first round's row locked: its claim (selections_fill) cannot race this save.
        list(Round.objects.select_for_update().filter(season_event=item).order_by("number")[:1])
        errors = _errors(team=team, item=item, seat_ids=ids, user=user)
        if errors:
            raise SelectionRefused(" ".join(errors))
        Selection.objects.filter(team=team, season_event=item).delete()
        now = timezone.now()
        return Selection.objects.bulk_create(
            Selection(
                team=team,
                season_event=item,
                seat_id=pk,
                source=Selection.Source.PLAYER,
                chosen_at=now,
            )
            for pk in sorted(set(ids))
        )


def selections_fill(*, item: SeasonEvent) -> list[Selection]:
    """Write the default selection of every team of the season that has none for ``item``
    (source "default" for a player's team, "computer" for a computer team): called as the
    event's first round is claimed for resolution, so that the stored selection is what
    raced. Nothing for an event that starts whole squads. Idempotent."""
    if item.starters is None:
        return []
    chosen = Selection.objects.filter(season_event=item).values("team_id")
    teams = list(
        SeasonTeam.objects.filter(season_id=item.season_id).exclude(pk__in=chosen).order_by("pk")
    )
    now = timezone.now()
    game = adapter_for(item.season.ruleset)
    # Every squad of those teams in one read, each in the game's start order.
    squads: dict[int, list[Seat]] = {}
    for seat in (
        Seat.objects.filter(team__in=teams)
        .select_related("team", "rider", "entry__driver")
        .order_by(*game.seat_order)
    ):
        squads.setdefault(seat.team_id, []).append(seat)
    rows = []
    game = game.rated_for(item.event)
    for team in teams:
        squad = squads.get(team.pk, [])
        if not selection_needed(item, len(squad)):
            continue
        source = Selection.Source.DEFAULT if team.owner_id else Selection.Source.COMPUTER
        rows += [
            Selection(team=team, season_event=item, seat=seat, source=source, chosen_at=now)
            for seat in squad_default(squad=squad, count=selection_count(item, squad), game=game)
        ]
    return Selection.objects.bulk_create(rows)


def selections_due(*, team: SeasonTeam) -> list[SeasonEvent]:
    """The events of the team's season whose selection the team can still give (starters
    fewer than its squad, the first round still scheduled or open), in calendar order, each
    annotated ``given`` (the team has stored one) (one query)."""
    squad = Seat.objects.filter(team=team).values("team").annotate(n=Count("pk")).values("n")
    opening = Round.objects.filter(season_event=OuterRef("pk")).order_by("number")
    return list(
        SeasonEvent.objects.filter(season_id=team.season_id, starters__lt=Subquery(squad))
        .annotate(
            opening_status=Subquery(opening.values("status")[:1]),
            given=Exists(Selection.objects.filter(season_event=OuterRef("pk"), team=team)),
        )
        .filter(opening_status__in=[Round.Status.SCHEDULED, Round.Status.OPEN])
        .select_related("race__template", "championship__copied_from", "season")
        .order_by("number")
    )
