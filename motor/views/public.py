"""The public pages of the real championships (imported results) under ``/championships/``.
A league's own copy is not served here: its season's pages wrap ``motor.views.pages``, after
the season's own access checks (a private season stays private)."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from motor.models import Championship, ChampionshipKind
from motor.views import data, pages
from motor.views.links import ChampionshipLinks


def _real(slug: str) -> tuple[Championship, ChampionshipLinks]:
    championship = data.championship_get(slug)
    if championship.kind != ChampionshipKind.REAL:
        raise Http404(_("No such championship."))
    return championship, ChampionshipLinks(championship)


def championship_list(request: HttpRequest) -> HttpResponse:
    championships = Championship.objects.filter(kind=ChampionshipKind.REAL).order_by("-year")
    return render(request, "motor/index.html", {"championships": championships})


def championship_detail(request: HttpRequest, slug: str) -> HttpResponse:
    championship, links = _real(slug)
    return pages.calendar_page(request, championship=championship, links=links)


def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    championship, links = _real(slug)
    return pages.round_page(request, championship=championship, number=number, links=links)


def standings(request: HttpRequest, slug: str, table: str) -> HttpResponse:
    championship, links = _real(slug)
    return pages.standings_page(request, championship=championship, table=table, links=links)


def what_if(request: HttpRequest, slug: str, table: str) -> HttpResponse:
    championship, links = _real(slug)
    return pages.what_if_page(request, championship=championship, table=table, links=links)


def driver_detail(request: HttpRequest, slug: str, driver: str) -> HttpResponse:
    championship, links = _real(slug)
    return pages.driver_page(request, championship=championship, slug=driver, links=links)


def constructor_detail(request: HttpRequest, slug: str, constructor: str) -> HttpResponse:
    championship, links = _real(slug)
    return pages.constructor_page(request, championship=championship, slug=constructor, links=links)
