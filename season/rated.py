"""The season's game reading its riders as the season rates them (docs/league.md "A season
keeps its ratings"): from the moment its team formation starts, a season keeps the ratings
and prices its riders had then (the game's snapshot, plugins.formation.TeamFormation.
rated_for); an admin's later edit of a rider reaches it only when applied to it
(season.services.ratings)."""

import operator
from functools import reduce
from typing import Any, cast

from plugins import GameAdapter, adapter_for
from season.models import Season

#: Where a season object keeps its bound game (read once per season object, as its calendar).
_KEY = "_rated_game"


def rated_game(season: Season) -> GameAdapter:
    """The season's game adapter, its pickables rated as the league copy of its current event
    rates them (every event of the calendar keeps the same values)."""
    held: GameAdapter | None = season.__dict__.get(_KEY)
    if held is None:
        adapter = adapter_for(season.ruleset)
        held = cast(GameAdapter, adapter.rated_for(season.event)) if season.calendar() else adapter
        season.__dict__[_KEY] = held
    return held


def rated_forget(season: Season) -> None:
    """Forget the bound game (after the season's ratings were frozen or applied)."""
    season.__dict__.pop(_KEY, None)


def pool(*, season: Season) -> Any:
    """What the season's teams are formed from (the game's: a stage race's riders, a
    championship's cars), a queryset in the pool's order: with a calendar of several events,
    what any of them holds (the union of the races' start lists, docs/league.md "Squads and
    selections")."""
    game = adapter_for(season.ruleset)
    pools = [game.pool(item.event, peloton=season.peloton) for item in season.calendar()]
    return reduce(operator.or_, pools[1:], pools[0])


def ratings_freeze(season: Season) -> int:
    """The season keeps its pool's ratings and prices as they are now, in each event of its
    calendar that keeps none yet: when its team formation starts (the draft opens, a team's
    first budget pick, computer teams seated), and for a race added to a calendar whose
    formation has started (it gets the season's values, the live ones for a rider new to the
    season). Idempotent; the number of rows written (one bulk insert, bounded by the pool)."""
    calendar = season.calendar()
    if not calendar:
        return 0
    game = adapter_for(season.ruleset)
    written = int(game.ratings_freeze([item.event for item in calendar], pool(season=season)))
    if written:
        rated_forget(season)
    return written
