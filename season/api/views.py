"""The API's views: thin, each an access check, one read (season/api/reads) and its answer
(season/api/answers: paged, tagged, kept when everyone's)."""

from typing import Any

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from season.api import reads
from season.api import serializers as s
from season.api.answers import after_param, page, plain_answer, season_access, season_answer

PAGE_PARAMETERS = [
    OpenApiParameter(
        "limit",
        {"type": "integer", "minimum": 1, "maximum": 200},
        description="How many lines a page holds (1 to 200; 50 by default).",
    ),
    OpenApiParameter(
        "offset",
        {"type": "integer", "minimum": 0},
        description="How many lines come before the page (0 on).",
    ),
]
SLUG = OpenApiParameter(
    "slug", OpenApiTypes.STR, OpenApiParameter.PATH, pattern=r"^[-a-zA-Z0-9_]+$"
)
NUMBER = OpenApiParameter(
    "number",
    {"type": "integer", "minimum": 0},
    OpenApiParameter.PATH,
    description="The round's number.",
)
ERRORS = {
    304: OpenApiResponse(description="Not modified (If-None-Match gave the current ETag)."),
    400: OpenApiResponse(s.ErrorSerializer, description="A bad parameter, named."),
    401: OpenApiResponse(s.ErrorSerializer, description="An unknown or revoked token."),
    404: OpenApiResponse(s.ErrorSerializer, description="What was not found, named."),
    429: OpenApiResponse(s.ErrorSerializer, description="Too many requests: see Retry-After."),
}


def _responses(ok: Any) -> dict[int, Any]:
    return {200: ok, **ERRORS}


class SeasonList(APIView):
    @extend_schema(
        operation_id="seasons_list",
        summary="The seasons",
        description="The public seasons, and with a token the member's own, newest first.",
        parameters=PAGE_PARAMETERS,
        responses=_responses(s.SeasonPage),
    )
    def get(self, request: Request) -> Response:
        seasons = [reads.season_data(season) for season in reads.seasons_readable(request.user)]
        return plain_answer(
            request, page(request, seasons), shared=not request.user.is_authenticated
        )


class SeasonDetail(APIView):
    @extend_schema(
        operation_id="season_read",
        summary="A season",
        parameters=[SLUG],
        responses=_responses(s.SeasonSerializer),
    )
    def get(self, request: Request, slug: str) -> Response:
        access = season_access(request, slug)
        return season_answer(request, access, lambda: reads.season_data(reads.season_get(access)))


class SeasonCalendar(APIView):
    @extend_schema(
        operation_id="season_calendar",
        summary="A season's calendar",
        description="Its events in calendar order, each with its rounds: their deadlines and "
        "status, and whether their results are published.",
        parameters=[SLUG, *PAGE_PARAMETERS],
        responses=_responses(s.CalendarPage),
    )
    def get(self, request: Request, slug: str) -> Response:
        access = season_access(request, slug)

        def build() -> dict[str, Any]:
            season, events = reads.calendar(access)
            return {"season": season, **page(request, events)}

        return season_answer(request, access, build)


class RoundDetail(APIView):
    @extend_schema(
        operation_id="round_read",
        summary="A round",
        description="Its state, and the standings tables after it once they are published.",
        parameters=[SLUG, NUMBER],
        responses=_responses(s.RoundDetailSerializer),
    )
    def get(self, request: Request, slug: str, number: int) -> Response:
        access = season_access(request, slug)
        return season_answer(request, access, lambda: reads.round_detail(access, number))


class RoundResults(APIView):
    @extend_schema(
        operation_id="round_results",
        summary="A round's results",
        description="Every rider's (car's) result, by place; 404 until they are published.",
        parameters=[SLUG, NUMBER, *PAGE_PARAMETERS],
        responses=_responses(s.LinePage),
    )
    def get(self, request: Request, slug: str, number: int) -> Response:
        access = season_access(request, slug)
        return season_answer(
            request,
            access,
            lambda: {"round": number, **page(request, reads.round_results(access, number))},
        )


class RoundStanding(APIView):
    @extend_schema(
        operation_id="round_standing",
        summary="A standings table after a round",
        description="One of the round's tables (its key in the round's tables: general, "
        "points, mountains, youth, teams; drivers, constructors); 404 until the round and "
        "every one before it are published.",
        parameters=[
            SLUG,
            NUMBER,
            OpenApiParameter(
                "table",
                OpenApiTypes.STR,
                OpenApiParameter.PATH,
                description="A key of the round's tables.",
                enum=[
                    "general",
                    "points",
                    "mountains",
                    "youth",
                    "teams",
                    "drivers",
                    "constructors",
                ],
            ),
            *PAGE_PARAMETERS,
        ],
        responses=_responses(s.StandingPage),
    )
    def get(self, request: Request, slug: str, number: int, table: str) -> Response:
        access = season_access(request, slug)
        return season_answer(
            request,
            access,
            lambda: {
                "round": number,
                "table": table,
                **page(request, reads.round_standing(access, number, table)),
            },
        )


class RoundEvents(APIView):
    @extend_schema(
        operation_id="round_events",
        summary="What happened in a round",
        description="Its events in the engine's order; 404 until its results are published.",
        parameters=[SLUG, NUMBER, *PAGE_PARAMETERS],
        responses=_responses(s.RaceEventPage),
    )
    def get(self, request: Request, slug: str, number: int) -> Response:
        access = season_access(request, slug)
        return season_answer(
            request,
            access,
            lambda: {"round": number, **page(request, reads.round_events(access, number))},
        )


class RoundDice(APIView):
    @extend_schema(
        operation_id="round_dice",
        summary="A round's dice log",
        description="Its seed and every roll, in the order drawn; 404 until its results are "
        "published (nothing that decides an open round's dice is ever given).",
        parameters=[SLUG, NUMBER, *PAGE_PARAMETERS],
        responses=_responses(s.DicePage),
    )
    def get(self, request: Request, slug: str, number: int) -> Response:
        access = season_access(request, slug)

        def build() -> dict[str, Any]:
            about, rolls = reads.round_dice(access, number)
            return {"round": number, **about, **page(request, rolls)}

        return season_answer(request, access, build)


class SeasonTable(APIView):
    @extend_schema(
        operation_id="season_table",
        summary="A table across the season",
        description="The players' teams' or the riders' (drivers') points across the "
        "calendar, after the latest published round or after round `after`.",
        parameters=[
            SLUG,
            OpenApiParameter(
                "table", OpenApiTypes.STR, OpenApiParameter.PATH, enum=["players", "riders"]
            ),
            OpenApiParameter(
                "after", {"type": "integer", "minimum": 1}, description="A round's number."
            ),
            *PAGE_PARAMETERS,
        ],
        responses=_responses(s.SeasonTablePage),
    )
    def get(self, request: Request, slug: str, table: str) -> Response:
        access = season_access(request, slug)
        after = after_param(request, last=access.state.visible_upto(access.view))

        def build() -> dict[str, Any]:
            shown, lines = reads.season_table(access, table, after)
            return {"table": table, "after": shown, **page(request, lines)}

        return season_answer(request, access, build)


class Competitors(APIView):
    @extend_schema(
        operation_id="season_competitors",
        summary="A season's riders or cars",
        description="Team by team, with the values the season's pages show of each: a "
        "rider's ratings as the season keeps them, a car's number and engine.",
        parameters=[SLUG, *PAGE_PARAMETERS],
        responses=_responses(s.CompetitorPage),
    )
    def get(self, request: Request, slug: str) -> Response:
        access = season_access(request, slug)

        def build() -> dict[str, Any]:
            columns, lines = reads.competitors(access)
            return {"columns": columns, **page(request, lines)}

        return season_answer(request, access, build)


def not_found(request: HttpRequest, rest: str = "") -> JsonResponse:
    """Any other address under /api/: a JSON 404 naming it."""
    return JsonResponse(
        {"detail": _("No API address %(path)s.") % {"path": request.path}}, status=404
    )
