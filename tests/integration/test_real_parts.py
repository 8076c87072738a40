"""The real PostgreSQL and Redis of production and CI, where behaviour depends on them."""

import os
import threading

import pytest
from django.db import DatabaseError, connection, connections, transaction
from kombu import Connection

from riders.models import Rider
from tests.factories import RiderFactory


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_postgres_row_lock_keeps_a_second_transaction_out():
    """select_for_update is a no-op on SQLite; stage resolution relies on it on PostgreSQL."""
    assert connection.vendor == "postgresql"
    rider = RiderFactory()
    locked = threading.Event()
    release = threading.Event()

    def hold_lock() -> None:
        with transaction.atomic():
            Rider.objects.select_for_update().get(pk=rider.pk)
            locked.set()
            release.wait(10)
        connections.close_all()

    holder = threading.Thread(target=hold_lock)
    holder.start()
    try:
        assert locked.wait(10)
        with pytest.raises(DatabaseError), transaction.atomic():
            Rider.objects.select_for_update(nowait=True).get(pk=rider.pk)
    finally:
        release.set()
        holder.join()
    with transaction.atomic():
        assert Rider.objects.select_for_update(nowait=True).get(pk=rider.pk) == rider


@pytest.mark.redis
def test_redis_broker_carries_a_message_there_and_back():
    with Connection(os.environ["REDIS_URL"]) as broker:
        queue = broker.SimpleQueue("grandtour-ci-check")
        try:
            queue.put({"hello": "peloton"})
            message = queue.get(timeout=5)
            assert message.payload == {"hello": "peloton"}
            message.ack()
        finally:
            queue.clear()
            queue.close()
