"""The organiser's settings of the season's game: every setting of its ruleset's settings spec,
within the spec's bounds, through the ruleset's adapter (the season knows no game's settings)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from plugins import adapter_for
from season.leagues import LeagueError, rules_frozen
from season.models import DONE_STATUSES, Season
from season.rule_settings import ODDS_RUNS_MAX, ODDS_RUNS_MIN

#: The one league setting the game settings form holds beside the game's own.
ODDS_RUNS = "odds_runs"


def game_settings_defaults(season: Season) -> dict[str, Any]:
    """What each setting of the season's ruleset is when the organiser sets nothing: the
    engine's default, or the league's own where its adapter chooses another."""
    adapter = adapter_for(season.ruleset)
    return {f.name: f.default for f in adapter.settings_spec} | dict(adapter.season_defaults)


def game_settings_values(season: Season) -> dict[str, Any]:
    """Every setting of the season's ruleset as the season plays it."""
    return game_settings_defaults(season) | season.rules.engine


def _same(a: Any, b: Any) -> bool:
    return json.dumps(a) == json.dumps(b)


def game_settings_update(*, season: Season, values: Mapping[str, Any]) -> Season:
    """Store the organiser's values (only those that differ from the defaults). Refused once a
    round is resolved, and for a value the ruleset's spec refuses (LeagueError naming the
    field); nothing is written then."""
    adapter = adapter_for(season.ruleset)
    values = dict(values)
    # The league's number of odds runs rides along (docs/odds.md): never frozen, since the
    # results do not depend on it.
    odds_runs = values.pop(ODDS_RUNS, None)
    with transaction.atomic():
        locked = Season.objects.select_for_update().get(pk=season.pk)
        defaults = game_settings_defaults(locked)
        unknown = sorted(set(values) - set(defaults))
        if unknown:
            raise LeagueError(_("Unknown setting: %(name)s.") % {"name": ", ".join(unknown)})
        engine = {name: value for name, value in values.items() if not _same(value, defaults[name])}
        current = locked.rules
        if odds_runs is not None and odds_runs != current.odds_runs:
            if type(odds_runs) is not int or not ODDS_RUNS_MIN <= odds_runs <= ODDS_RUNS_MAX:
                raise LeagueError(
                    _("Runs of the odds: %(low)s to %(high)s, not %(runs)s.")
                    % {"low": ODDS_RUNS_MIN, "high": ODDS_RUNS_MAX, "runs": odds_runs}
                )
            current = replace(current, odds_runs=odds_runs)
            if engine == current.engine:
                locked.rule_settings = current.to_data()
                locked.save(update_fields=["rule_settings"])
                return locked
        if engine == current.engine:
            return locked
        if rules_frozen(locked):
            raise LeagueError(
                _("A round has been resolved: the game's settings can no longer change.")
            )
        rules = replace(current, engine=engine)
        try:
            adapter.engine_settings(rules)
        except ValueError as error:
            raise LeagueError(str(error)) from error
        locked.rule_settings = rules.to_data()
        locked.full_clean()
        locked.save(update_fields=["rule_settings"])
        # What the rounds still to race take from the game's settings (a Grand Prix's laps).
        adapter.league_settings_changed(
            season=locked, rounds=locked.rounds.exclude(status__in=DONE_STATUSES)
        )
    return locked
