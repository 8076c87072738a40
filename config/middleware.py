"""Middleware of the project's own."""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed

#: Every page is read with GET (HEAD) and changed with a form's POST; nothing here answers
#: PUT, PATCH, DELETE or TRACE.
ALLOWED_METHODS = ("GET", "HEAD", "POST", "OPTIONS")


class AllowedMethodsMiddleware:
    """Answers 405 Method Not Allowed to any other method, before a view sees the request
    (a view written for GET and POST would otherwise treat PUT as GET)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method not in ALLOWED_METHODS:
            return HttpResponseNotAllowed(ALLOWED_METHODS)
        return self.get_response(request)
