"""Whole season pages for anonymous visitors, answered before sessions and authentication.

A GET of a visitor without a session whose page was kept under the season's current version
(season.cache.anonymous_response: one cache read, no query) is answered here with the visitor's
own CSRF token and cookie; any other request goes through the whole stack, and a page that
every anonymous visitor sees alike is kept on its way out (season.cache.anonymous_keep).
Placed after SecurityMiddleware (its HTTPS redirect and headers apply to every answer) and
before SessionMiddleware.
"""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from season import cache as page_cache


class AnonymousPagesMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not page_cache.anonymous(request):
            return self.get_response(request)
        kept = page_cache.anonymous_response(request)
        if kept is not None:
            return kept
        response = self.get_response(request)
        page_cache.anonymous_keep(request, response)
        return response
