"""Flash messages said once: a second press of the same button adds no second line."""

from django.contrib import messages
from django.contrib.messages.storage.base import BaseStorage
from django.http import HttpRequest


def message_once(request: HttpRequest, level: int, text: str) -> None:
    """Add ``text`` unless the same text is already waiting to be shown."""
    storage = messages.get_messages(request)
    waiting = [str(message.message) for message in storage]
    # Reading the storage marks it as shown; what was waiting must still be shown.
    if isinstance(storage, BaseStorage):
        storage.used = False
    if text not in waiting:
        messages.add_message(request, level, text)
