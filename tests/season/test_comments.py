"""Comments per stage and per season (issue 17): members post, everyone who may read the season
reads, the organiser hides; the guards (length, rate, control characters, escaping, private
seasons, anonymous posts) and the cached pages showing a new comment at once."""

import re
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from season.models import COMMENT_MAX_LENGTH, Comment, Season
from season.services import comments
from season.services.comments import CommentRefused, comment_hide, comment_post
from tests.commits import committed
from tests.factories import UserFactory
from tests.season.builders import joined, league, stage
from tests.season.motor_builders import joined as motor_joined
from tests.season.motor_builders import motor_league

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()  # the rate limit's counters of an earlier test


@pytest.fixture
def olivia(db):
    return UserFactory(username="olivia")


@pytest.fixture
def friends(olivia, alice, bob):
    season = league(organiser=olivia)
    joined(season, alice, bob)
    return season


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def stage_url(season, number=1):
    return reverse("season-stage", args=[season.slug, number])


def post_url(season, number=1):
    return reverse("season-stage-comment", args=[season.slug, number])


def test_a_player_comments_on_a_stage_and_a_visitor_reads_it(friends, alice, bob):
    client_of(alice).post(post_url(friends), {"text": "Attack on the last climb!"})
    client_of(bob).post(post_url(friends), {"text": "We'll see."})
    page = Client().get(stage_url(friends)).content.decode()
    # Newest last, with the author.
    first, second = page.index("Attack on the last climb!"), page.index("We&#x27;ll see.")
    assert first < second
    assert "<strong>alice</strong>" in page
    assert "<strong>bob</strong>" in page
    # A visitor reads but is not offered the form.
    assert 'name="text"' not in page
    assert Comment.objects.filter(season=friends, round__number=1).count() == 2


def test_the_organiser_comments_on_the_season_page(friends, olivia):
    response = client_of(olivia).post(
        reverse("season-comment", args=[friends.slug]), {"text": "Welcome to the Tour!"}
    )
    assert response.status_code == 302
    assert response["Location"].endswith(f"/seasons/{friends.slug}/#comments")
    comment = Comment.objects.get()
    assert comment.round is None
    assert "Welcome to the Tour!" in Client().get(response["Location"]).content.decode()
    # Not on a stage's page.
    assert "Welcome to the Tour!" not in Client().get(stage_url(friends)).content.decode()


def test_a_cached_page_shows_a_new_comment_at_once(friends, alice):
    season_page = reverse("season-detail", args=[friends.slug])
    visitor = Client()
    assert "First!" not in visitor.get(season_page).content.decode()
    assert "First!" not in visitor.get(season_page).content.decode()  # kept whole now
    member = client_of(alice)
    member.get(season_page)
    etag = member.get(season_page)["ETag"]
    with committed():
        member.post(reverse("season-comment", args=[friends.slug]), {"text": "First!"})
    assert "First!" in visitor.get(season_page).content.decode()
    # The member's browser holding the page before the comment gets the new page, not a 304.
    again = member.get(season_page, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 200
    assert "First!" in again.content.decode()


def test_an_anonymous_post_is_refused(friends):
    response = Client().post(post_url(friends), {"text": "spam"})
    assert response.status_code == 403
    assert "Log in to comment." in response.content.decode()
    assert not Comment.objects.exists()


def test_a_non_member_cannot_comment(friends, charlie):
    response = client_of(charlie).post(post_url(friends), {"text": "Hello"})
    assert response.status_code == 400
    assert "Only the season&#x27;s players and organiser may comment." in (
        response.content.decode()
    )
    assert not Comment.objects.exists()
    with pytest.raises(CommentRefused):
        comment_post(season=friends, round=None, user=charlie, text="Hello")


def test_the_site_admin_may_comment(friends):
    admin = UserFactory(username="root", is_staff=True, is_superuser=True)
    comment_post(season=friends, round=None, user=admin, text="Server moves tonight.")
    assert Comment.objects.get().author == admin


def test_a_private_season_shows_and_takes_no_comment_from_non_members(friends, alice, charlie):
    comment_post(season=friends, round=stage(friends, 1), user=alice, text="Secret plan")
    Season.objects.filter(pk=friends.pk).update(is_public=False)
    cache.clear()
    assert Client().get(stage_url(friends)).status_code == 404
    assert client_of(charlie).get(stage_url(friends)).status_code == 404
    assert client_of(charlie).post(post_url(friends), {"text": "Hi"}).status_code == 404
    assert Client().post(post_url(friends), {"text": "Hi"}).status_code == 404
    assert "Secret plan" in client_of(alice).get(stage_url(friends)).content.decode()
    assert Comment.objects.count() == 1


def test_html_is_escaped_and_line_breaks_kept(friends, alice):
    payload = '<script>alert("x")</script><img src=x onerror=alert(1)>\nsecond line'
    client_of(alice).post(post_url(friends), {"text": payload})
    page = Client().get(stage_url(friends)).content.decode()
    assert "<script>alert" not in page
    assert "<img src=x" not in page
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page
    assert "onerror=alert(1)&gt;<br>second line" in page


def test_a_comment_longer_than_the_limit_is_refused_naming_the_limit(friends, alice):
    response = client_of(alice).post(post_url(friends), {"text": "a" * (COMMENT_MAX_LENGTH + 1)})
    assert response.status_code == 400
    text = response.content.decode()
    assert f"at most {COMMENT_MAX_LENGTH} characters (this one has {COMMENT_MAX_LENGTH + 1})" in (
        text
    )
    # The text is kept in the form, to shorten.
    assert "a" * (COMMENT_MAX_LENGTH + 1) + "</textarea>" in text
    assert not Comment.objects.exists()
    comment_post(season=friends, round=None, user=alice, text="b" * COMMENT_MAX_LENGTH)
    assert Comment.objects.count() == 1


@pytest.mark.parametrize("char", ["\x07", "\x1b", "\u202e", "\u2066", "\u2028"])
def test_control_and_invisible_characters_are_refused(friends, alice, char):
    with pytest.raises(CommentRefused, match=f"U\\+{ord(char):04X}"):
        comment_post(season=friends, round=None, user=alice, text=f"evil{char}text")
    assert not Comment.objects.exists()


def test_emoji_tabs_and_line_breaks_are_kept(friends, alice):
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    comment = comment_post(
        season=friends, round=None, user=alice, text=f"  Go\r\n\tteam {family}  "
    )
    assert comment.text == f"Go\n\tteam {family}"


def test_an_empty_comment_is_refused(friends, alice):
    with pytest.raises(CommentRefused, match="write something"):
        comment_post(season=friends, round=None, user=alice, text="  \n ")


def test_the_rate_limit_says_when_to_retry(friends, alice, bob):
    now = timezone.now().replace(second=10, microsecond=0)
    for index in range(comments.RATE_LIMIT):
        comment_post(season=friends, round=None, user=alice, text=f"n{index}", now=now)
    with pytest.raises(CommentRefused, match="try again in 50 seconds"):
        comment_post(season=friends, round=None, user=alice, text="one more", now=now)
    # Another player is not held back, and alice may post again the next minute.
    comment_post(season=friends, round=None, user=bob, text="me too", now=now)
    comment_post(season=friends, round=None, user=alice, text="later", now=now + timedelta(60))
    assert Comment.objects.filter(author=alice).count() == comments.RATE_LIMIT + 1


def test_the_rate_limit_through_the_page(friends, alice):
    member = client_of(alice)
    for index in range(comments.RATE_LIMIT):
        member.post(post_url(friends), {"text": f"n{index}"})
    response = member.post(post_url(friends), {"text": "too many"})
    assert response.status_code == 400
    assert "try again in" in response.content.decode()
    assert Comment.objects.count() == comments.RATE_LIMIT


def test_the_organiser_hides_a_comment_and_others_see_it_hidden(friends, olivia, alice, bob):
    comment = comment_post(season=friends, round=stage(friends, 1), user=alice, text="Rude words")
    response = client_of(olivia).post(
        reverse("season-comment-hide", args=[friends.slug, comment.pk])
    )
    assert response.status_code == 302
    comment.refresh_from_db()
    assert comment.hidden_by == olivia
    assert comment.hidden_at is not None
    for reader in (Client(), client_of(bob), client_of(alice)):
        page = reader.get(stage_url(friends)).content.decode()
        assert "Rude words" not in page
        assert "comment hidden by the organiser" in page
    # The organiser still reads what was hidden.
    assert "Rude words" in client_of(olivia).get(stage_url(friends)).content.decode()


def test_a_player_cannot_hide_someone_elses_comment(friends, alice, bob, charlie):
    comment = comment_post(season=friends, round=None, user=alice, text="Mine")
    hide = reverse("season-comment-hide", args=[friends.slug, comment.pk])
    client_of(bob).post(hide)
    client_of(charlie).post(hide)
    assert Client().post(hide).status_code == 302  # to the login page
    comment.refresh_from_db()
    assert comment.hidden_at is None
    page = client_of(bob).get(reverse("season-detail", args=[friends.slug])).content.decode()
    assert "Mine" in page
    assert hide not in page  # no Hide button offered to bob


def test_the_author_withdraws_his_comment_within_minutes_only(friends, alice):
    early = comment_post(season=friends, round=None, user=alice, text="Oops")
    comment_hide(comment=early, organiser_id=friends.organiser_id, user=alice)
    early.refresh_from_db()
    assert early.hidden_by == alice
    page = Client().get(reverse("season-detail", args=[friends.slug])).content.decode()
    assert "comment withdrawn by its author" in page
    assert "Oops" not in page
    late = comment_post(season=friends, round=None, user=alice, text="Old news")
    later = late.created_at + timedelta(minutes=comments.WITHDRAW_MINUTES, seconds=1)
    with pytest.raises(CommentRefused):
        comment_hide(comment=late, organiser_id=friends.organiser_id, user=alice, now=later)


def test_posting_with_htmx_answers_the_comments_section(friends, alice):
    response = client_of(alice).post(
        post_url(friends), {"text": "Live from the htmx"}, HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert '<section class="card comments" id="comments"' in html
    assert "Live from the htmx" in html
    assert "<html" not in html
    refused = client_of(alice).post(post_url(friends), {"text": "\x07"}, HTTP_HX_REQUEST="true")
    assert "U+0007" in refused.content.decode()
    assert 'aria-invalid="true"' in refused.content.decode()


def test_comments_on_a_motor_round_and_season(olivia, alice):
    season = motor_league(organiser=olivia)
    motor_joined(season, alice)
    member = client_of(alice)
    member.post(reverse("season-stage-comment", args=[season.slug, 1]), {"text": "Box box"})
    member.post(reverse("season-comment", args=[season.slug]), {"text": "Good luck all"})
    round_page = Client().get(stage_url(season)).content.decode()
    season_page = Client().get(reverse("season-detail", args=[season.slug])).content.decode()
    assert "Box box" in round_page
    assert "Good luck all" not in round_page
    assert "Good luck all" in season_page


def _many_comments(season, author, count, *, number=None):
    """``count`` comments "comment 0" (oldest) .. "comment <count-1>", a minute apart."""
    round = season.rounds.get(number=number) if number is not None else None
    start = timezone.now() - timedelta(days=1)
    made = Comment.objects.bulk_create(
        Comment(season=season, round=round, author=author, text=f"comment {i:03d}")
        for i in range(count)
    )
    for i, comment in enumerate(made):  # auto_now_add set them all to now
        Comment.objects.filter(pk=comment.pk).update(created_at=start + timedelta(minutes=i))


def _shown(page: str) -> list[int]:
    return [int(n) for n in re.findall(r'<p class="comment-text">comment (\d+)</p>', page)]


@pytest.mark.parametrize("number", [None, 1])
def test_the_comments_are_paged_the_latest_first(friends, alice, number):
    """Issue 28: a day of comments at the allowed rate made the season page 16 MB."""
    _many_comments(friends, alice, 120, number=number)
    url = reverse("season-detail", args=[friends.slug]) if number is None else stage_url(friends)
    visitor = Client()
    first = visitor.get(url).content.decode()
    assert _shown(first) == list(range(70, 120))  # the latest 50, oldest first
    assert "(120)" in first
    assert 'href="?comments=2#comments"' in first
    second = visitor.get(url + "?comments=2").content.decode()
    assert _shown(second) == list(range(20, 70))
    assert 'href="?comments=3#comments"' in second
    assert 'href="?comments=1#comments"' in second
    third = visitor.get(url + "?comments=3").content.decode()
    assert _shown(third) == list(range(20))
    assert "?comments=4" not in third
    # Not a page number: the nearest page, never every comment.
    assert _shown(visitor.get(url + "?comments=999").content.decode()) == list(range(20))
    assert len(_shown(visitor.get(url + "?comments=x").content.decode())) == 50


def test_a_new_comment_shows_on_the_first_page(friends, alice):
    _many_comments(friends, alice, 60)
    client_of(alice).post(reverse("season-comment", args=[friends.slug]), {"text": "comment 999"})
    page = Client().get(reverse("season-detail", args=[friends.slug])).content.decode()
    assert _shown(page)[-1] == 999
    assert len(_shown(page)) == 50


def test_hiding_a_comment_on_an_older_page_answers_that_page(friends, olivia, alice):
    _many_comments(friends, alice, 60)
    season_page = reverse("season-detail", args=[friends.slug])
    organiser = client_of(olivia)
    older = organiser.get(season_page + "?comments=2").content.decode()
    assert _shown(older) == list(range(10))
    oldest = Comment.objects.get(text="comment 000")
    hide = reverse("season-comment-hide", args=[friends.slug, oldest.pk])
    assert f'action="{hide}?comments=2"' in older
    answer = organiser.post(hide + "?comments=2", HTTP_HX_REQUEST="true").content.decode()
    assert "comment hidden by the organiser" in answer
    assert _shown(answer) == list(range(10))  # the organiser still reads the hidden text
    without_js = organiser.post(
        reverse("season-comment-hide", args=[friends.slug, oldest.pk + 1]) + "?comments=2"
    )
    assert without_js["Location"] == season_page + "?comments=2#comments"
