"""What base.html's menu shows of the user beside their name: the bell's unread count."""

from functools import partial
from typing import Any

from django.http import HttpRequest

from season.services.notices import unread_count


def notices(request: HttpRequest) -> dict[str, Any]:
    # A callable: the template counts only where it shows the bell (a logged-in user's menu),
    # so an anonymous page costs no query.
    return {"unread_notices": partial(unread_count, request)}
