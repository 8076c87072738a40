"""Who may do what (django-rules predicates); every view checks one of these permissions."""

import rules

from season.models import Membership, Season, SeasonTeam


@rules.predicate
def is_season_organiser(user: object, season: Season | None) -> bool:
    return season is not None and getattr(user, "pk", None) == season.organiser_id


@rules.predicate
def is_season_member(user: object, season: Season | None) -> bool:
    user_id = getattr(user, "pk", None)
    if season is None or user_id is None:
        return False
    return Membership.objects.filter(season=season, user_id=user_id).exists()


@rules.predicate
def is_public_season(user: object, season: Season | None) -> bool:
    return season is not None and season.is_public


@rules.predicate
def owns_team(user: object, team: SeasonTeam | None) -> bool:
    return (
        team is not None
        and team.owner_id is not None
        and getattr(user, "pk", None) == team.owner_id
    )


rules.add_perm("season.view_season", is_public_season | is_season_organiser | is_season_member)
rules.add_perm("season.manage_season", is_season_organiser)
rules.add_perm("season.manage_team", owns_team)
