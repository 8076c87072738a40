"""Login throttling: django-axes' backend, for the logins that come from a web request."""

from typing import Any

from axes.backends import AxesStandaloneBackend


class LoginThrottleBackend(AxesStandaloneBackend):
    """Refuses a login while its username and address are locked out (django-axes).

    A call without a request (the test client's ``login()``, a shell) comes from someone who
    already holds the machine, not from the web: it is left to the next backends, where
    django-axes' own backend would raise an error instead.
    """

    def authenticate(self, request: Any, username: Any = None, password: Any = None, **kwargs: Any):
        if request is None:
            return None
        return super().authenticate(request, username, password, **kwargs)
