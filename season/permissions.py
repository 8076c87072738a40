"""Who may do what (django-rules predicates); every view checks one of these permissions."""

import rules

from season.models import Membership, Round, RoundStatus, Season, SeasonTeam


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


# --- who may see a round's results (issue 17: "Publish results" hides them until then) ------


#: What a visitor may see of a season's results: everything resolved (the organiser) or only
#: the published rounds (everyone else; every resolved round when the season auto-publishes).
ORGANISER_VIEW = "organiser"
PUBLIC_VIEW = "public"


def results_view(season: Season, user: object) -> str:
    """The visibility class of this user on this season: one of the two views above."""
    return ORGANISER_VIEW if is_season_organiser(user, season) else PUBLIC_VIEW


def status_visible(status: str, *, auto_publish: bool, view: str) -> bool:
    """Whether the results of a round in `status` are shown in `view` (no query)."""
    if status == RoundStatus.PUBLISHED:
        return True
    if status != RoundStatus.RESOLVED:
        return False
    return auto_publish or view == ORGANISER_VIEW


def round_results_visible(season: Season, round: Round, user: object) -> bool:
    """The one rule: a round's results, stage page and standings after it are shown once it is
    published, at once when resolved if the season auto-publishes, and always to the organiser."""
    return status_visible(
        round.status, auto_publish=season.auto_publish, view=results_view(season, user)
    )


def visible_upto(statuses: list[tuple[int, str]], *, auto_publish: bool, view: str) -> int:
    """The last round number N whose results and every earlier round's are visible (0: none):
    the standings after N are the latest a visitor may see, since they sum every round up to
    N. `statuses` are (number, status) pairs in round order."""
    last = 0
    for number, status in statuses:
        if not status_visible(status, auto_publish=auto_publish, view=view):
            break
        last = number
    return last
