"""A test's own transaction never commits: what a service leaves for after its commit
(transaction.on_commit: the page cache's invalidation, a task handed to the workers) runs when
the code inside ``with committed():`` is done, as it would once committed."""

from django.test import TestCase


def committed():  # type: ignore[no-untyped-def]
    return TestCase.captureOnCommitCallbacks(execute=True)
