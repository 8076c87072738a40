"""Two workers posting the chat webhooks' due deliveries at once never post one twice: each
claims its row under select_for_update(skip_locked=True) (PostgreSQL;
season.services.chat_hooks)."""

import threading

import pytest
from django.db import connection

from season.models import ChatDelivery, ChatHook
from season.services import chat_hooks
from tests.factories import UserFactory
from tests.season.builders import league
from tests.season.chat_receiver import Reply

DELIVERIES = 12


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_senders_at_once_post_each_delivery_once(receiver, monkeypatch):
    monkeypatch.setattr(chat_hooks, "TESTS_PER_MINUTE", chat_hooks.Limit(count=100, seconds=60))
    # The deliveries wait for the two senders (no task queued after each, eager in the tests).
    monkeypatch.setattr(chat_hooks, "deliveries_kick", lambda: None)
    season = league(organiser=UserFactory(username="olivia"), slug="busy")
    hook = ChatHook.objects.create(season=season, kind="discord", url=receiver.url)
    # Each post takes a while, so that the two senders overlap.
    receiver.replies[:] = [Reply(204, delay=0.1)] * DELIVERIES
    for _index in range(DELIVERIES):
        chat_hooks.hook_test(hook=hook)
    start = threading.Barrier(2)
    sent: list[int] = []
    failures: list[BaseException] = []

    def sender() -> None:
        try:
            start.wait()
            sent.append(chat_hooks.deliveries_send())
        except BaseException as error:
            failures.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=sender) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert failures == []
    assert sum(sent) == DELIVERIES
    assert all(count > 0 for count in sent), sent  # both worked, neither posted one twice
    assert len(receiver.posts) == DELIVERIES
    assert ChatDelivery.objects.filter(status="sent", attempts=1).count() == DELIVERIES
