"""Fixtures of the season tests: the chat channels' receiver (tests/season/chat_receiver.py)."""

from tests.season.chat_receiver import receiver  # noqa: F401
