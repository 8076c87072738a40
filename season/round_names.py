"""How a round is named in a sentence: "stage 3" in a stage race, "round 3" in a championship.

Every message about a round that both disciplines meet (orders closed, a round not open, the
job's failures, the notices and e-mails) names it with :func:`round_name`, which asks the
season's game (its adapter's ``round_label``), so that a motor league never reads "stage".
In French both are feminine ("l'étape 3", "la manche 3") and carry their article, so one
translated sentence serves both disciplines ("Les ordres de %(round)s sont clos").
"""

from __future__ import annotations

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from plugins import GameAdapter, adapter_for
from season.models import Round, Season, SeasonEvent


def event_name(season: Season, item: SeasonEvent) -> str:
    """An event of the calendar as the pages name it: the real race (or championship) its
    league copy was made from, "Tour de France 2023"."""
    return adapter_for(season.ruleset).league_source(item.event) or str(item.event)


def round_name(season: Season, number: int) -> str:
    """Round ``number`` of the season as a sentence names it: "stage 3" or "round 3"; in a
    calendar of several races, the round's number in its race and the race: "stage 3 of
    Paris-Nice" (its round 24 in the season). A race forked after stage 10 names its round
    1 "stage 11"."""
    game = adapter_for(season.ruleset)
    item, within = season.event_of_round(number)
    if item is None:
        return game.round_label(number)
    label = game.round_label(game.league_round_number(item.event, within))
    if season.single_event:
        return label
    return _("%(round)s of %(event)s") % {"round": label, "event": event_name(season, item)}


def picks_text(season: Season, teams: int) -> str:
    """What each team picks in a draft: "Each team picks 2 cars, 8 picks in all." (the seats
    of a team are the season's roster size: riders in a stage race, cars in a championship)."""
    game = adapter_for(season.ruleset)
    size = season.roster_size
    return _("Each team picks %(size)d %(noun)s, %(picks)d picks in all.") % {
        "size": size,
        "picks": size * teams,
        "noun": game.pickable_noun if size == 1 else game.pickables_noun,
    }


def round_name_start(season: Season, number: int) -> str:
    """The same at the start of a sentence: "Stage 3", "Round 3" ("L'étape 3", "La manche 3")."""
    return str(capfirst(round_name(season, number)))


def round_title(game: GameAdapter, season: Season, round: Round) -> str:
    """The round as a heading names it: "Stage 3: Nice - Antibes", "Round 2: Monaco Grand
    Prix (Monte Carlo)"."""
    event = game.event_label(game.round_event(round))
    name = round_name_start(season, round.number)
    return f"{name}: {event}" if event else name


def team_size_text(season: Season) -> str:
    """ "2 cars per team", "8 riders per team" (the season's roster size, the game's noun)."""
    game = adapter_for(season.ruleset)
    size = season.roster_size
    return ngettext("%(size)d %(noun)s per team", "%(size)d %(noun)s per team", size) % {
        "size": size,
        "noun": game.pickable_noun if size == 1 else game.pickables_noun,
    }


def round_choices(season: Season, last: int) -> list[tuple[int, str]]:
    """Rounds 1 to ``last`` as a picker lists them: (number, "Stage 3"), "Stage 1 (Tour de
    France 2023)" in a calendar of several races, "Round 2" in a championship."""
    return [(number, round_name_start(season, number)) for number in range(1, last + 1)]
