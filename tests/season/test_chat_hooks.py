"""Chat channels (issue 34): a season's webhooks get its news (a round opens, a reminder,
results published, the end of the race, comments) through the workers, with retries; the
address is checked by the guard when added and at every post; only the organiser sees them."""

import socket
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import Profile
from season.demo import demo_load
from season.forms import ChatHookForm
from season.models import CHAT_HOOKS_MAX, ChatDelivery, ChatHook, Round, Season
from season.notifications import notifications_send
from season.results import players_ranking
from season.services import chat_hooks, comments, lifecycle, resolution, webhook_guard
from tests.factories import UserFactory
from tests.season.builders import joined as cycling_joined
from tests.season.builders import league, only_results_due, two_race_league
from tests.season.chat_receiver import Reply
from tests.season.motor_builders import joined, motor_league, round_resolved, two_cars_each

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo():
    season = demo_load()
    Season.objects.filter(pk=season.pk).update(auto_publish=False)
    season.refresh_from_db()
    return season


@pytest.fixture
def small(db):
    """A small cycling league of the organiser olivia, alice playing (no round resolved)."""
    season = league(organiser=UserFactory(username="olivia"), slug="small")
    cycling_joined(season, UserFactory(username="alice"))
    return season


def hook_for(season, url, **events):
    return ChatHook.objects.create(
        season=season, kind=ChatHook.Kind.DISCORD, url=url, created_by=season.organiser, **events
    )


def first_round(season):
    return Round.objects.select_related("season", "stage", "grand_prix").get(
        season=season, number=1
    )


# --- the news reaches the channel ------------------------------------------------------------


def test_a_cycling_rounds_results_reach_the_channel_once_published(demo, receiver):
    hook = hook_for(demo, receiver.url)
    first = first_round(demo)
    resolution.round_resolve(round_id=first.pk)
    only_results_due(demo, at=first.orders_deadline)
    notifications_send(now=first.orders_deadline)
    chat_hooks.deliveries_send()
    assert receiver.posts == []  # resolved, not published: nothing public yet

    lifecycle.round_publish(round=first_round(demo))
    notifications_send(now=first.orders_deadline)
    assert chat_hooks.deliveries_send() == 1

    [post] = receiver.answered()
    assert post["content"].startswith("Stage 1 of Demo Tour 2023: the results are out")
    assert "http://127.0.0.1:8000/seasons/demo/stages/1/" in post["content"]
    description = post["embeds"][0]["description"]
    leader = next(line for line in players_ranking(season=demo, number=1) if line.rank == 1)
    assert f"1. {leader.team} ({leader.player})" in description
    assert "General classification after stage 1:" in description
    assert post["allowed_mentions"] == {"parse": []}
    assert receiver.hosts == [receiver.url.split("/")[2]]
    hook.refresh_from_db()
    assert hook.last_success_at is not None
    assert hook.failures == 0
    # Sent once: the next runs post nothing more.
    notifications_send(now=first.orders_deadline)
    assert chat_hooks.deliveries_send() == 0
    assert len(receiver.posts) == 1


def test_a_motor_seasons_results_and_its_end_reach_a_slack_channel(alice, bob, receiver):
    season = motor_league(organiser=alice, slug="f1-chat")
    two_cars_each(season, *joined(season, alice, bob))
    ChatHook.objects.create(season=season, kind=ChatHook.Kind.SLACK, url=receiver.url)
    numbers = list(season.rounds.order_by("number").values_list("number", flat=True))
    for number in numbers:
        round_resolved(season, number)
        lifecycle.round_publish(round=season.rounds.get(number=number))
    notifications_send(now=timezone.now())
    chat_hooks.deliveries_send()

    texts = [post["text"] for post in receiver.answered()]
    assert len(texts) == len(numbers) + 1
    assert texts[0].startswith("Round 1 of Friends' Championship: the results are out")
    blocks = receiver.answered()[0]["blocks"]
    assert "Drivers' standings after round 1:" in blocks[1]["text"]["text"]
    leader = next(line for line in players_ranking(season=season, number=numbers[-1]) if line.rank)
    assert texts[-1].startswith(
        f"Friends' Championship is over: {leader.team} ({leader.player}) wins"
    )
    assert ChatDelivery.objects.filter(key=f"season-end:{season.pk}").count() == 1


def test_the_end_of_a_race_of_the_calendar_is_posted_once_its_last_stage_is_out(
    alice, bob, charlie, receiver
):
    season, *_rest = two_race_league(organiser=charlie, players=(alice, bob))
    Season.objects.filter(pk=season.pk).update(auto_publish=True)
    season.refresh_from_db()
    ChatHook.objects.create(
        season=season, kind=ChatHook.Kind.DISCORD, url=receiver.url, on_round_open=False
    )
    lifecycle.rounds_force_lock(season=season, numbers=[1, 2])
    for number in (1, 2):
        resolution.round_resolve(round_id=season.rounds.get(number=number).pk)
    notifications_send(now=timezone.now())
    chat_hooks.deliveries_send()

    titles = [post["embeds"][0]["title"] for post in receiver.answered()]
    assert len(titles) == 3  # stage 1, stage 2, and the end of race 1 (not of the season)
    assert titles[2] == f"{season.name}: Tour de Test is over"
    first_event = season.rounds.get(number=2).season_event_id
    assert ChatDelivery.objects.filter(key=f"race-end:{first_event}").count() == 1
    assert not ChatDelivery.objects.filter(key__startswith="season-end:").exists()


def test_the_opening_a_reminder_and_a_comment_reach_the_channel(demo, receiver):
    hook_for(demo, receiver.url, on_comment=True)
    first = first_round(demo)
    notifications_send(now=first.orders_deadline - timedelta(days=3))
    notifications_send(now=first.orders_deadline - timedelta(hours=1))
    notifications_send(now=first.orders_deadline - timedelta(minutes=30))  # reminded once
    comments.comment_post(season=demo, round=first, user=demo.organiser, text="Good luck @everyone")
    chat_hooks.deliveries_send()

    contents = [post["content"] for post in receiver.answered()]
    assert contents[0].startswith("Demo Tour 2023: orders open for stage 1")
    assert contents[1].startswith("Demo Tour 2023: orders for stage 1 close at")
    assert contents[2].startswith("Demo Tour 2023: olivia on stage 1")
    assert "> Good luck @everyone" in receiver.answered()[2]["embeds"][0]["description"]
    assert len(contents) == 3


def test_a_hook_posts_only_what_it_chose(demo, receiver):
    hook_for(demo, receiver.url, on_round_open=False)
    first = first_round(demo)
    notifications_send(now=first.orders_deadline - timedelta(days=3))
    comments.comment_post(season=demo, round=None, user=demo.organiser, text="Hello")
    chat_hooks.deliveries_send()
    assert receiver.posts == []


def test_messages_are_in_the_organisers_language(small, receiver):
    Profile.objects.update_or_create(user=small.organiser, defaults={"language": "fr"})
    small.refresh_from_db()
    hook_for(small, receiver.url, on_comment=True)
    comments.comment_post(
        season=small, round=first_round(small), user=small.organiser, text="Allez"
    )
    chat_hooks.deliveries_send()
    [post] = receiver.answered()
    assert "étape 1" in post["content"]


def test_a_long_comment_stays_within_discords_limits(small, receiver):
    hook_for(small, receiver.url, on_comment=True)
    comments.comment_post(season=small, round=None, user=small.organiser, text="x" * 2000)
    delivery = ChatDelivery.objects.get()
    assert len(delivery.payload["content"]) <= chat_hooks.DISCORD_CONTENT_MAX
    assert len(delivery.payload["embeds"][0]["description"]) <= 600


# --- failures, retries and backoff -----------------------------------------------------------


def test_a_failing_receiver_is_retried_with_backoff_until_it_answers(
    small, receiver, monkeypatch, client
):
    monkeypatch.setattr(webhook_guard, "TOTAL_TIMEOUT", 1.0)
    monkeypatch.setattr(webhook_guard, "CONNECT_TIMEOUT", 0.5)
    receiver.replies[:] = [
        Reply(500, body="Internal error"),
        Reply(429, retry_after="300"),
        Reply(204, delay=2.0),  # answers too late: a timeout
    ]
    hook = hook_for(small, receiver.url)
    delivery = chat_hooks.hook_test(hook=hook)
    now = timezone.now()

    assert chat_hooks.deliveries_send(now=now) == 0
    delivery.refresh_from_db()
    assert delivery.last_error == "HTTP 500: Internal error"
    assert delivery.next_attempt_at == now + timedelta(seconds=30)
    assert chat_hooks.deliveries_send(now=now + timedelta(seconds=29)) == 0  # not due yet
    assert len(receiver.posts) == 1

    now += timedelta(seconds=30)
    chat_hooks.deliveries_send(now=now)
    delivery.refresh_from_db()
    assert delivery.last_error == "HTTP 429"
    # The receiver's Retry-After (5 min) is longer than the backoff's 2 min: it is followed.
    assert delivery.next_attempt_at == now + timedelta(seconds=300)

    now += timedelta(seconds=300)
    chat_hooks.deliveries_send(now=now)
    delivery.refresh_from_db()
    assert delivery.last_error.startswith("timeout")
    assert delivery.next_attempt_at == now + timedelta(seconds=600)

    now += timedelta(seconds=600)
    assert chat_hooks.deliveries_send(now=now) == 1
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == (ChatDelivery.Status.SENT, 4)
    assert chat_hooks.deliveries_send(now=now + timedelta(days=1)) == 0
    assert len(receiver.posts) == 4

    hook.refresh_from_db()
    assert hook.failures == 0
    assert hook.last_failure.startswith("timeout")
    client.force_login(small.organiser)
    page = client.get(reverse("organiser-chat", args=[small.slug])).content.decode()
    assert "Last failure:" in page
    assert "timeout" in page
    assert "secret-token" not in page  # the address shown masked


def test_a_delivery_gives_up_after_its_last_attempt_and_many_failures_disable_the_hook(
    small, receiver, monkeypatch
):
    monkeypatch.setattr(chat_hooks, "DISABLE_AFTER", 3)
    receiver.replies[:] = [Reply(503)] * 10
    hook = hook_for(small, receiver.url)
    delivery = chat_hooks.hook_test(hook=hook)
    now = timezone.now()
    for _attempt in range(3):
        chat_hooks.deliveries_send(now=now)
        now += timedelta(days=1)
    hook.refresh_from_db()
    assert not hook.enabled
    assert hook.failures == 3
    chat_hooks.hook_enable(hook=hook, enabled=True)
    for _attempt in range(chat_hooks.ATTEMPTS_MAX):
        chat_hooks.deliveries_send(now=now)
        now += timedelta(days=1)
        chat_hooks.hook_enable(hook=hook, enabled=True)
    delivery.refresh_from_db()
    assert delivery.status == ChatDelivery.Status.FAILED
    assert delivery.attempts == chat_hooks.ATTEMPTS_MAX
    assert len(receiver.posts) == chat_hooks.ATTEMPTS_MAX


def test_the_organisers_page_says_when_a_hook_was_disabled_by_its_failures(client, small):
    hook = hook_for(small, "https://discord.com/api/webhooks/1/x")
    client.force_login(small.organiser)
    dashboard = reverse("organiser-season", args=[small.slug])
    assert 'id="chat-failing"' not in client.get(dashboard).content.decode()
    ChatHook.objects.filter(pk=hook.pk).update(enabled=False, failures=chat_hooks.DISABLE_AFTER)
    assert 'id="chat-failing"' in client.get(dashboard).content.decode()
    page = client.get(reverse("organiser-chat", args=[small.slug])).content.decode()
    assert "Disabled after too many failures" in page


def test_a_gone_webhook_is_not_retried(small, receiver):
    receiver.replies[:] = [Reply(404, body='{"message": "Unknown Webhook"}')]
    delivery = chat_hooks.hook_test(hook=hook_for(small, receiver.url))
    chat_hooks.deliveries_send()
    delivery.refresh_from_db()
    assert delivery.status == ChatDelivery.Status.FAILED
    assert "Unknown Webhook" in delivery.last_error


# --- the guard, in the form and at send time -------------------------------------------------

PRIVATE_URLS = [
    "https://127.0.0.1/api/webhooks/1/x",
    "https://10.1.2.3/api/webhooks/1/x",
    "https://192.168.1.20/api/webhooks/1/x",
    "https://169.254.169.254/latest/meta-data",
    "https://[::1]/api/webhooks/1/x",
    "https://localhost/api/webhooks/1/x",
    "https://discord.com.evil.example/api/webhooks/1/x",
    "http://discord.com/api/webhooks/1/x",
]


def private_resolver(host, port, **_kw):
    """discord.com resolves to a private address (rebinding, or a poisoned resolver)."""
    if host == "discord.com":
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.0.0.7", port))]
    return socket.getaddrinfo(host, port)


@pytest.mark.parametrize("url", PRIVATE_URLS)
def test_the_form_refuses_an_address_that_is_not_a_public_https_one(url):
    form = ChatHookForm({"kind": "discord", "url": url, "on_results": "on"})
    assert not form.is_valid()
    [message] = form.errors["url"]
    assert message.startswith("Webhook address:")


def test_the_form_refuses_a_discord_host_that_resolves_to_a_private_address(monkeypatch):
    monkeypatch.setattr(socket, "getaddrinfo", private_resolver)
    form = ChatHookForm({"kind": "discord", "url": "https://discord.com/api/webhooks/1/x"})
    assert not form.is_valid()
    assert "10.0.0.7" in form.errors["url"][0]


def test_the_form_takes_a_discord_or_a_slack_address(monkeypatch):
    def public(host, port, **_kw):
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("162.159.135.232", port))]

    monkeypatch.setattr(socket, "getaddrinfo", public)
    for kind, url in [
        ("discord", "https://discord.com/api/webhooks/123/abc"),
        ("slack", "https://hooks.slack.com/services/T0/B0/xyz"),
    ]:
        assert ChatHookForm({"kind": kind, "url": url}).is_valid()
    form = ChatHookForm({"kind": "slack", "url": "https://discord.com/api/webhooks/123/abc"})
    assert not form.is_valid()
    assert "hooks.slack.com" in form.errors["url"][0]


@pytest.mark.parametrize("url", ["http://127.0.0.1:9/x", *PRIVATE_URLS[:6]])
def test_a_private_address_is_refused_at_send_time_too(small, url):
    """A hook stored before the check, or whose host changed its address since."""
    delivery = chat_hooks.hook_test(hook=hook_for(small, url))
    chat_hooks.deliveries_send()
    delivery.refresh_from_db()
    assert delivery.status == ChatDelivery.Status.FAILED
    assert delivery.last_error.startswith("refused address")


def test_a_host_now_resolving_to_a_private_address_is_refused_at_send_time(small, monkeypatch):
    delivery = chat_hooks.hook_test(hook=hook_for(small, "https://discord.com/api/webhooks/1/x"))
    monkeypatch.setattr(socket, "getaddrinfo", private_resolver)
    chat_hooks.deliveries_send()
    delivery.refresh_from_db()
    assert delivery.status == ChatDelivery.Status.FAILED
    assert "10.0.0.7" in delivery.last_error


def test_a_season_has_at_most_five_hooks(small, receiver):
    for index in range(CHAT_HOOKS_MAX):
        chat_hooks.hook_create(
            season=small,
            user=small.organiser,
            kind="discord",
            url=f"{receiver.url}{index}",
            events={},
        )
    with pytest.raises(chat_hooks.HookRefused, match="at most 5 webhooks"):
        chat_hooks.hook_create(
            season=small, user=small.organiser, kind="discord", url=f"{receiver.url}x", events={}
        )


def test_test_messages_are_limited(small, receiver):
    hook = hook_for(small, receiver.url)
    now = timezone.now().replace(second=1)
    for _test in range(chat_hooks.TESTS_PER_MINUTE.count):
        chat_hooks.hook_test(hook=hook, now=now)
        now += timedelta(microseconds=1)
    with pytest.raises(chat_hooks.HookRefused, match="test messages a minute"):
        chat_hooks.hook_test(hook=hook, now=now)


# --- who sees the hooks ----------------------------------------------------------------------


def test_the_organiser_adds_tests_disables_and_deletes_a_hook(client, small, receiver):
    client.force_login(small.organiser)
    url = reverse("organiser-chat", args=[small.slug])
    answer = client.post(
        url, {"kind": "discord", "url": receiver.url, "on_results": "on", "on_comment": "on"}
    )
    assert answer.status_code == 302
    hook = ChatHook.objects.get(season=small)
    assert (hook.on_results, hook.on_comment, hook.on_round_open) == (True, True, False)
    assert hook.created_by == small.organiser
    client.post(reverse("organiser-chat-test", args=[small.slug, hook.pk]))
    chat_hooks.deliveries_send()
    assert receiver.answered()[0]["content"].startswith("Friends' Tour: a test message")
    page = client.get(url).content.decode()
    assert "Test message" in page
    assert "sent" in page
    client.post(reverse("organiser-chat-enable", args=[small.slug, hook.pk]), {"enabled": "0"})
    hook.refresh_from_db()
    assert not hook.enabled
    client.post(reverse("organiser-chat-delete", args=[small.slug, hook.pk]))
    assert not ChatHook.objects.filter(pk=hook.pk).exists()


def test_the_form_names_the_field_it_refuses(client, small):
    client.force_login(small.organiser)
    answer = client.post(
        reverse("organiser-chat", args=[small.slug]),
        {"kind": "discord", "url": "http://192.168.1.2/api/webhooks/1/x"},
    )
    assert answer.status_code == 200
    assert "Webhook address: it must start with https://." in answer.content.decode()
    assert not ChatHook.objects.exists()


def test_only_the_organiser_sees_or_changes_the_hooks(client, small, receiver):
    hook = hook_for(small, receiver.url)
    staff = UserFactory(username="staffer", is_staff=True)
    superuser = UserFactory(username="root", is_staff=True, is_superuser=True)
    alice = small.teams.get(owner__username="alice").owner
    page = reverse("organiser-chat", args=[small.slug])
    actions = [
        reverse(name, args=[small.slug, hook.pk])
        for name in ("organiser-chat-test", "organiser-chat-enable", "organiser-chat-delete")
    ]
    answer = client.get(page)
    assert answer.status_code == 302
    assert "/login/" in answer["Location"]
    for user in (alice, staff, superuser):
        client.force_login(user)
        assert client.get(page).status_code == 403
        assert client.post(page, {"kind": "discord", "url": receiver.url + "2"}).status_code == 403
        for action in actions:
            assert client.post(action, {"enabled": "0"}).status_code == 403
    hook.refresh_from_db()
    assert hook.enabled
    assert ChatDelivery.objects.count() == 0
    assert ChatHook.objects.count() == 1


def test_a_hook_of_another_season_is_not_found(client, small, receiver):
    other = league(organiser=UserFactory(username="oscar"), slug="other")
    hook = hook_for(other, receiver.url)
    client.force_login(small.organiser)
    assert (
        client.post(reverse("organiser-chat-delete", args=[small.slug, hook.pk])).status_code == 404
    )
    assert ChatHook.objects.filter(pk=hook.pk).exists()


def test_the_address_never_shows_on_the_public_pages_or_in_lists(client, small, receiver):
    hook = hook_for(small, receiver.url, on_comment=True)
    comments.comment_post(season=small, round=None, user=small.organiser, text="Hi")
    for url in (
        reverse("season-detail", args=[small.slug]),
        reverse("season-stage", args=[small.slug, 1]),
    ):
        assert "secret-token" not in client.get(url).content.decode()
    assert "secret-token" not in str(hook) + repr(hook) + str(ChatDelivery.objects.get())
    client.force_login(small.organiser)
    dashboard = client.get(reverse("organiser-season", args=[small.slug])).content.decode()
    assert reverse("organiser-chat", args=[small.slug]) in dashboard
    assert "secret-token" not in dashboard
    admin = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(admin)
    for url in (
        reverse("admin:season_chathook_changelist"),
        reverse("admin:season_chathook_change", args=[hook.pk]),
        reverse("admin:season_chatdelivery_changelist"),
    ):
        answer = client.get(url)
        assert answer.status_code == 200
        assert "secret-token" not in answer.content.decode()


def test_an_address_typed_as_a_private_number_is_refused_for_what_it_is():
    form = ChatHookForm({"kind": "discord", "url": "https://10.1.2.3/api/webhooks/1/x"})
    assert not form.is_valid()
    assert "private or local network address (10.1.2.3 (private))" in form.errors["url"][0]


def test_a_disabled_hooks_news_waits_but_its_test_message_goes(small, receiver):
    hook = hook_for(small, receiver.url, on_comment=True)
    comments.comment_post(season=small, round=None, user=small.organiser, text="Hi")
    chat_hooks.hook_enable(hook=hook, enabled=False)
    # Disabled, it gets no more news.
    comments.comment_post(season=small, round=None, user=small.organiser, text="Hello?")
    chat_hooks.hook_test(hook=hook)
    assert chat_hooks.deliveries_send() == 1
    assert ChatDelivery.objects.get(event="comment").status == ChatDelivery.Status.PENDING
    chat_hooks.hook_enable(hook=hook, enabled=True)
    assert chat_hooks.deliveries_send() == 1
    assert [post["embeds"][0]["description"] for post in receiver.answered()][1] == "> Hi"
