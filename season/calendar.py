"""The season's calendar as its pages and its command show it: each event with its rounds,
their names and deadlines, its state (done, now, to come), the gap since the previous event.

Reads only; the calendar's writes are season.leagues' (calendar_event_add,
calendar_event_remove, calendar_update)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from season.models import DONE_STATUSES, Round, Season, SeasonEvent
from season.round_names import event_name, round_name_start

TAKING_ORDERS = (Round.Status.SCHEDULED, Round.Status.OPEN)


class EventState:
    """Where an event of the calendar stands."""

    DONE = "done"
    NOW = "now"
    TO_COME = "to-come"

    LABELS = {DONE: _("done"), NOW: _("now"), TO_COME: _("to come")}


@dataclass(frozen=True)
class CalendarRound:
    round: Round
    #: Its number within its event (a race's stage 1 is the season's round 22).
    within: int
    name: str


@dataclass(frozen=True)
class CalendarEvent:
    item: SeasonEvent
    name: str
    rounds: list[CalendarRound]
    state: str
    #: From the previous event's last deadline to this one's first (None for the first).
    gap: timedelta | None

    @property
    def number(self) -> int:
        return self.item.number

    @property
    def first_deadline(self) -> datetime | None:
        return self.rounds[0].round.orders_deadline if self.rounds else None

    @property
    def last_deadline(self) -> datetime | None:
        return self.rounds[-1].round.orders_deadline if self.rounds else None

    @property
    def state_label(self) -> str:
        return str(EventState.LABELS[self.state])

    @property
    def started(self) -> bool:
        """One of its rounds is open or further on (season.leagues.event_started)."""
        return any(r.round.status != Round.Status.SCHEDULED for r in self.rounds)

    @property
    def gap_text(self) -> str:
        return gap_text(self.gap) if self.gap is not None else ""


def gap_text(gap: timedelta) -> str:
    """ "3 days 4 hours", "12 hours", "0 hours" (a gap between two deadlines)."""
    hours = int(gap.total_seconds() // 3600)
    days, hours = divmod(max(hours, 0), 24)
    hours_text = ngettext("%(count)d hour", "%(count)d hours", hours) % {"count": hours}
    if not days:
        return hours_text
    days_text = ngettext("%(count)d day", "%(count)d days", days) % {"count": days}
    return f"{days_text} {hours_text}" if hours else days_text


def season_calendar(season: Season, rounds: Sequence[Round] | None = None) -> list[CalendarEvent]:
    """The season's events in order, each with its rounds (``rounds``: the season's every
    round in order, read here when not given)."""
    if rounds is None:
        rounds = list(
            season.rounds.select_related("stage", "grand_prix").order_by("number")  # type: ignore[misc]
        )
    by_event: dict[int, list[Round]] = {}
    for round_ in rounds:
        by_event.setdefault(round_.season_event_id, []).append(round_)
    current = season.current_event()
    events: list[CalendarEvent] = []
    previous_last: datetime | None = None
    for item in season.calendar():
        own = by_event.get(item.pk, [])
        first = own[0].orders_deadline if own else None
        events.append(
            CalendarEvent(
                item=item,
                name=event_name(season, item),
                rounds=[
                    CalendarRound(
                        round=r,
                        within=index,
                        name=round_name_start(season, r.number),
                    )
                    for index, r in enumerate(own, start=1)
                ],
                state=_state(item, own, current=current),
                gap=first - previous_last if first and previous_last else None,
            )
        )
        if own and own[-1].orders_deadline:
            previous_last = own[-1].orders_deadline
    return events


def _state(item: SeasonEvent, rounds: Sequence[Round], *, current: SeasonEvent) -> str:
    if rounds and all(r.status in DONE_STATUSES for r in rounds):
        return EventState.DONE
    if item.pk == current.pk:
        return EventState.NOW
    return EventState.TO_COME


def next_deadline(events: Sequence[CalendarEvent]) -> datetime | None:
    """The season's next orders deadline: the first round still taking orders, or to take
    them, that has one."""
    for event in events:
        for row in event.rounds:
            if row.round.status in TAKING_ORDERS and row.round.orders_deadline:
                return row.round.orders_deadline
    return None
