"""Calendar feeds (issue 34): a member subscribes to his deadlines at a private address, a
season's rounds at the season's; a moved deadline moves the same event (same UID, higher
SEQUENCE); a renewed address stops the old one; nobody reads what he may not see."""

from datetime import timedelta

import icalendar
import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.calendar_tokens import calendar_token_get, calendar_token_renew
from accounts.models import Profile
from season.leagues import calendar_update
from season.models import Round
from season.services.deadlines import deadlines_shift
from tests.season import builders, motor_builders
from tests.season.builders import league, template_race

pytestmark = pytest.mark.django_db


def cycling(organiser, **settings):
    return league(organiser=organiser, **settings)


def motor(organiser, **settings):
    return motor_builders.motor_league(organiser=organiser, **settings)


def join(season, *users):
    joiner = builders.joined if season.ruleset == "moreno" else motor_builders.joined
    return joiner(season, *users)


BOTH = pytest.mark.parametrize("make", [cycling, motor], ids=["cycling", "motor"])


def member_url(user):
    return reverse("member-calendar", args=[calendar_token_get(user=user)])


def fetch(client, url):
    response = client.get(url)
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    return icalendar.Calendar.from_ical(response.content)


def events(calendar):
    return {str(event["UID"]): event for event in calendar.walk("VEVENT")}


def to_the_second(moment):
    """A deadline as iCalendar writes it: to the second."""
    return moment.replace(microsecond=0)


def uid_of(round_):
    return f"round-{round_.pk}@testserver"


@pytest.fixture(autouse=True)
def _site_url(settings):
    settings.SITE_URL = "https://testserver"


# --- a member's feed ----------------------------------------------------------------------


@BOTH
def test_a_moved_deadline_moves_the_same_event_of_the_members_calendar(
    make, client, alice, charlie
):
    season = make(charlie)
    (team,) = join(season, alice)
    first = season.rounds.get(number=1)
    url = member_url(alice)

    event = events(fetch(client, url))[uid_of(first)]
    assert to_the_second(first.orders_deadline) == event.DTSTART
    assert event["SEQUENCE"] == 0
    orders = reverse("player-orders", args=[season.slug, team.pk])
    assert str(event["URL"]) == f"https://testserver{orders}"
    assert team.name in event["DESCRIPTION"]
    assert season.name in event["SUMMARY"]

    # The organiser shifts every deadline a day later (his "Shift all deadlines" page's service).
    deadlines_shift(season=season, delta=timedelta(days=1))
    moved = season.rounds.get(number=1).orders_deadline
    assert moved == first.orders_deadline + timedelta(days=1)

    found = events(fetch(client, url))
    assert to_the_second(moved) == found[uid_of(first)].DTSTART
    assert found[uid_of(first)]["SEQUENCE"] == 1
    assert len(found) == season.rounds.count()  # the same events, none added


def test_a_deadline_edited_on_the_calendar_page_moves_the_event(client, alice, charlie):
    season = cycling(charlie)
    join(season, alice)
    second = season.rounds.get(number=2)
    url = member_url(alice)
    before = events(fetch(client, url))[uid_of(second)]
    new = second.orders_deadline + timedelta(hours=3)
    # A few seconds on: LAST-MODIFIED is written to the second.
    calendar_update(season=season, deadlines={2: new}, now=timezone.now() + timedelta(seconds=2))
    after = events(fetch(client, url))[uid_of(second)]
    assert to_the_second(new) == after.DTSTART
    assert after["SEQUENCE"] > before["SEQUENCE"]
    assert after["LAST-MODIFIED"].dt > before["LAST-MODIFIED"].dt


def test_the_members_feed_holds_every_season_he_plays_or_organises(client, alice, bob, charlie):
    played = cycling(charlie)
    join(played, alice)
    organised = motor(alice)
    elsewhere = cycling(bob, slug="bobs")
    found = events(fetch(client, member_url(alice)))
    for round_ in played.rounds.all():
        assert uid_of(round_) in found
    for round_ in organised.rounds.all():
        event = found[uid_of(round_)]
        organise = reverse("organiser-season", args=[organised.slug])
        assert str(event["URL"]) == f"https://testserver{organise}"
    assert not any(uid_of(r) in found for r in elsewhere.rounds.all())


def test_a_round_without_a_deadline_is_left_out(client, alice, charlie):
    season = cycling(charlie)
    join(season, alice)
    third = season.rounds.get(number=3)
    Round.objects.filter(pk=third.pk).update(orders_deadline=None)
    found = events(fetch(client, member_url(alice)))
    assert uid_of(third) not in found
    assert len(found) == 2


def test_the_feed_says_what_a_calendar_needs(client, alice, charlie):
    season = cycling(charlie)
    join(season, alice)
    response = client.get(member_url(alice))
    assert response["Content-Disposition"].startswith("inline; filename=")
    assert "private" in response["Cache-Control"]
    calendar = icalendar.Calendar.from_ical(response.content)
    assert calendar["METHOD"] == "PUBLISH"
    assert calendar["PRODID"]
    assert calendar["X-WR-CALNAME"]
    assert calendar["REFRESH-INTERVAL"].dt == timedelta(hours=1)
    assert calendar["X-PUBLISHED-TTL"]
    event = calendar.walk("VEVENT")[0]
    assert event["DTSTART"].dt.utcoffset() == timedelta(0)  # UTC
    assert event["DTSTAMP"]
    assert event["LAST-MODIFIED"]
    assert event.walk("VALARM")


def test_a_calendar_app_may_ask_with_head_but_never_post(client, alice, charlie):
    join(cycling(charlie), alice)
    url = member_url(alice)
    head = client.head(url)
    assert head.status_code == 200
    assert head["Content-Type"] == "text/calendar; charset=utf-8"
    assert client.post(url).status_code == 405


def test_an_unchanged_feed_answers_304(client, alice, charlie):
    join(cycling(charlie), alice)
    url = member_url(alice)
    first = client.get(url)
    again = client.get(url, headers={"if-none-match": first["ETag"]})
    assert again.status_code == 304


def test_the_feed_costs_the_same_few_queries_whatever_the_number_of_seasons(
    client, alice, bob, charlie, django_assert_max_num_queries
):
    join(cycling(charlie), alice)
    url = member_url(alice)
    with django_assert_max_num_queries(5):
        fetch(client, url)
    join(cycling(bob, slug="bobs", template=template_race(stages=4)), alice)
    championship = motor_builders.real_championship()
    join(motor(charlie, slug="f1", championship=championship), alice)
    motor(alice, slug="alices-f1", championship=championship)
    with django_assert_max_num_queries(5):
        calendar = fetch(client, url)
    assert len(events(calendar)) == 3 + 4 + 3 + 3


def test_a_renewed_address_stops_the_old_one(client, alice, charlie):
    join(cycling(charlie), alice)
    old = member_url(alice)
    assert client.get(old).status_code == 200
    calendar_token_renew(user=alice)
    assert client.get(old).status_code == 404
    assert client.get(member_url(alice)).status_code == 200


def test_the_renew_button_asks_then_renews(client, alice, charlie):
    join(cycling(charlie), alice)
    old = member_url(alice)
    client.force_login(alice)
    page = client.get(reverse("my-seasons")).content.decode()
    assert f"https://testserver{old}" in page
    assert f"webcal://testserver{old}" in page
    assert reverse("calendar-renew") in page
    assert "stops working" in client.get(reverse("calendar-renew")).content.decode()
    assert client.get(old).status_code == 200  # asking changes nothing
    response = client.post(reverse("calendar-renew"), follow=True)
    new = member_url(alice)
    assert new != old
    assert new in response.content.decode()
    assert client.get(old).status_code == 404


def test_renewing_needs_a_login_and_a_csrf_token(alice):
    from django.test import Client

    anonymous = Client()
    assert anonymous.post(reverse("calendar-renew")).status_code == 302  # to the login
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(alice)
    token = calendar_token_get(user=alice)
    assert strict.post(reverse("calendar-renew")).status_code == 403
    assert calendar_token_get(user=alice) == token


def test_another_members_token_never_shows_your_seasons(client, alice, bob, charlie):
    mine = cycling(charlie)
    join(mine, alice)
    found = events(fetch(client, member_url(bob)))
    assert not any(uid_of(r) in found for r in mine.rounds.all())


@pytest.mark.parametrize(
    "token",
    ["nothing", "0" * 16, "0" * 16 + "x" * 43],
)
def test_a_bad_token_is_a_404(client, alice, charlie, token):
    join(cycling(charlie), alice)
    assert client.get(reverse("member-calendar", args=[token])).status_code == 404


def test_a_token_with_the_right_selector_and_a_wrong_secret_is_a_404(client, alice, charlie):
    join(cycling(charlie), alice)
    token = calendar_token_get(user=alice)
    wrong = token[:16] + ("A" if token[16] != "A" else "B") + token[17:]
    assert client.get(reverse("member-calendar", args=[wrong])).status_code == 404


def test_the_feed_speaks_the_members_language(client, alice, charlie):
    season = cycling(charlie)
    join(season, alice)
    Profile.objects.update_or_create(user=alice, defaults={"language": "fr"})
    first = season.rounds.get(number=1)
    event = events(fetch(client, member_url(alice)))[uid_of(first)]
    assert "l'étape 1" in event["SUMMARY"]
    assert "stage 1" not in event["SUMMARY"]


def test_a_motor_feed_names_rounds_not_stages(client, alice, charlie):
    season = motor(charlie)
    join(season, alice)
    first = season.rounds.get(number=1)
    event = events(fetch(client, member_url(alice)))[uid_of(first)]
    assert "round 1" in event["SUMMARY"]
    assert "stage" not in event["SUMMARY"].lower()
    assert "Grand Prix" in event["DESCRIPTION"]


# --- a season's feed ----------------------------------------------------------------------


def season_url(season, token=None):
    url = reverse("season-calendar", args=[season.slug])
    return f"{url}?token={token}" if token else url


def season_uid(round_):
    return f"round-{round_.pk}.season@testserver"


@BOTH
def test_a_public_seasons_feed_lists_its_rounds(make, client, charlie):
    season = make(charlie)
    found = events(fetch(client, season_url(season)))
    assert set(found) == {season_uid(r) for r in season.rounds.all()}
    first = season.rounds.get(number=1)
    assert to_the_second(first.orders_deadline) == found[season_uid(first)].DTSTART


def test_a_seasons_feed_costs_the_same_few_queries(client, charlie, django_assert_max_num_queries):
    season = cycling(charlie, template=template_race(stages=6))
    with django_assert_max_num_queries(2):
        assert len(events(fetch(client, season_url(season)))) == 6


def test_the_season_feed_never_shows_unpublished_results(client, alice, charlie):
    season = cycling(charlie, auto_publish=False)
    join(season, alice)
    first = season.rounds.get(number=1)
    Round.objects.filter(pk=first.pk).update(
        status=Round.Status.RESOLVED, resolved_at=timezone.now()
    )
    # Not the public, nor the organiser's own token: an address is shared.
    for token in (None, calendar_token_get(user=charlie)):
        event = events(fetch(client, season_url(season, token)))[season_uid(first)]
        assert "results" not in event["DESCRIPTION"]
    Round.objects.filter(pk=first.pk).update(status=Round.Status.PUBLISHED)
    event = events(fetch(client, season_url(season)))[season_uid(first)]
    assert "The results are out" in event["DESCRIPTION"]


def test_a_private_seasons_feed_needs_a_members_token(client, alice, bob, charlie):
    season = cycling(charlie, is_public=False)
    join(season, alice)
    assert client.get(season_url(season)).status_code == 404
    assert client.get(season_url(season, calendar_token_get(user=bob))).status_code == 404
    assert client.get(season_url(season, "bad")).status_code == 404
    response = client.get(season_url(season, calendar_token_get(user=alice)))
    assert response.status_code == 200
    assert "private" in response["Cache-Control"]
    assert client.get(season_url(season, calendar_token_get(user=charlie))).status_code == 200


def test_a_private_seasons_feed_is_never_kept_for_anonymous_visitors(client, alice, charlie):
    season = cycling(charlie, is_public=False)
    join(season, alice)
    token = calendar_token_get(user=alice)
    assert client.get(season_url(season, token)).status_code == 200
    assert client.get(season_url(season)).status_code == 404
    calendar_token_renew(user=alice)
    assert client.get(season_url(season, token)).status_code == 404


def test_the_season_page_links_its_feed(client, alice, charlie):
    public = cycling(charlie)
    page = client.get(reverse("season-detail", args=[public.slug])).content.decode()
    assert f"webcal://testserver{season_url(public)}" in page
    assert f"https://testserver{season_url(public)}" in page

    private = motor(charlie, slug="hidden", is_public=False)
    join(private, alice)
    client.force_login(alice)
    page = client.get(reverse("season-detail", args=[private.slug])).content.decode()
    token = calendar_token_get(user=alice)
    assert f"webcal://testserver{season_url(private, token)}" in page
    # Another member reads his own key on the same cached page, never alice's.
    client.force_login(charlie)
    page = client.get(reverse("season-detail", args=[private.slug])).content.decode()
    assert token not in page
    assert calendar_token_get(user=charlie) in page


def test_a_deadline_moved_in_the_admin_moves_the_event_too(client, charlie):
    from tests.factories import UserFactory

    season = cycling(charlie)
    second = season.rounds.get(number=2)
    staff = UserFactory(username="sam", is_staff=True, is_superuser=True)
    client.force_login(staff)
    url = reverse("admin:season_round_change", args=[second.pk])
    new = timezone.localtime(second.orders_deadline + timedelta(hours=2))
    response = client.post(
        url,
        {
            "orders_deadline_0": new.strftime("%Y-%m-%d"),
            "orders_deadline_1": new.strftime("%H:%M:%S"),
        },
    )
    assert response.status_code == 302
    second.refresh_from_db()
    assert second.orders_deadline == new.replace(microsecond=0)
    assert second.deadline_sequence == 1
    client.logout()
    event = events(fetch(client, season_url(season)))[season_uid(second)]
    assert event["SEQUENCE"] == 1


def test_a_calendar_of_several_races_names_each_round_with_its_race(client, alice, charlie):
    from tests.season.test_calendar import three_races

    season = three_races(charlie, stages=(2, 2, 2))
    found = events(fetch(client, season_url(season)))
    fourth = season.rounds.get(number=4)
    summary = str(found[season_uid(fourth)]["SUMMARY"])
    assert summary.startswith(f"{season.name}: orders deadline of stage 2 of ")
