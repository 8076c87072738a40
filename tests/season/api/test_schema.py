"""The API against its own OpenAPI schema (schemathesis): every operation, fed with generated
parameters on the leagues of conftest.py (the seasons' slugs and round numbers mixed in), as
an anonymous client and with a member's token: no server error, every answer as the schema
says (status, content type, body, headers), and nothing of a round the public may not see:
no result, event, dice or standings of an unpublished round, no seed that decides a round
still hidden."""

import json

import pytest
import schemathesis
from django.core import signals
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from config.wsgi import application
from season.models import Season
from season.permissions import PUBLIC_VIEW, status_visible, visible_upto
from tests.season.api.conftest import CYCLING, MOTOR, PRIVATE, bearer, token_of

pytestmark = pytest.mark.django_db

SLUGS = [CYCLING, MOTOR, PRIVATE, "no-such-season"]
TABLES = ["general", "points", "mountains", "youth", "teams", "drivers", "constructors"]
TABLES += ["players", "riders", "nothing"]


def _hidden(slugs):
    """What the public may not see, by season: the rounds whose results are hidden, the last
    round of visible standings, and every secret of the hidden rounds (seeds, digests)."""
    hidden = {}
    for season in Season.objects.filter(slug__in=slugs):
        rounds = list(season.rounds.order_by("number").select_related("dice_log"))
        statuses = [(r.number, r.status) for r in rounds]
        closed = [
            r
            for r in rounds
            if not status_visible(r.status, auto_publish=season.auto_publish, view=PUBLIC_VIEW)
        ]
        secrets = {str(r.seed) for r in closed if r.seed is not None}
        secrets |= {r.dice_log.sha256 for r in closed if hasattr(r, "dice_log")}
        hidden[season.slug] = {
            "rounds": {r.number for r in closed},
            "upto": visible_upto(statuses, auto_publish=season.auto_publish, view=PUBLIC_VIEW),
            "secrets": secrets,
        }
    return hidden


def _nothing_hidden(hidden, path: str, status: int, body: str) -> None:
    """The check: an answer about a season shows no hidden round's results or secrets."""
    for slug, what in hidden.items():
        for secret in what["secrets"]:
            assert secret not in body, f"{path} gives a secret of a hidden round of {slug}"
    if status != 200:
        return
    parts = path.strip("/").split("/")
    if len(parts) < 3 or parts[1] != "seasons" or parts[2] not in hidden:
        return
    what = hidden[parts[2]]
    data = json.loads(body)
    if "rounds" in parts and len(parts) > 5:
        number = int(parts[4])
        if parts[5] == "standings":
            assert number <= what["upto"], f"{path}: standings after a hidden round"
        else:
            assert number not in what["rounds"], f"{path}: results of a hidden round"
    if parts[3:4] == ["tables"]:
        assert data["after"] <= what["upto"], f"{path}: a season table after a hidden round"
    for round in _rounds_in(data):
        if round["number"] in what["rounds"]:
            assert not round["results_visible"], f"{path}: round {round['number']} shown"
            assert round["seed"] is None, f"{path}: the seed of round {round['number']}"
            assert round["resolved_at"] is None


def _rounds_in(data):
    if isinstance(data, dict):
        if "results_visible" in data:
            yield data
        for value in data.values():
            yield from _rounds_in(value)
    elif isinstance(data, list):
        for value in data:
            yield from _rounds_in(value)


def _application(environ, start_response):
    """The WSGI application in the test's transaction: its database connection stays open, as
    Django's test client keeps it (the end of a request would close it)."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        response = application(environ, start_response)
        try:
            return [b"".join(response)]
        finally:
            response.close()
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


def _operations():
    schema = schemathesis.openapi.from_wsgi("/api/schema/", _application)
    return [result.ok() for result in schema.get_all_operations()]


#: Addresses that answer with data (a round's tables, then the season's), one of which the
#: generated parameters are mixed with.
KNOWN = [
    {"slug": CYCLING, "number": 1, "table": "general"},
    {"slug": CYCLING, "number": 2, "table": "teams"},
    {"slug": MOTOR, "number": 2, "table": "drivers"},
    {"slug": MOTOR, "number": 1, "table": "constructors"},
]
KNOWN_SEASON_TABLES = [
    {"slug": CYCLING, "table": "players"},
    {"slug": MOTOR, "table": "riders"},
]


def _overrides(operation):
    """Path parameters from the leagues: a known address, or a mix of known values."""
    names = {p.name for p in operation.path_parameters}
    mixed = st.fixed_dictionaries(
        {
            "slug": st.sampled_from(SLUGS),
            "number": st.integers(min_value=0, max_value=6),
            "table": st.sampled_from(TABLES),
        }
    )
    known = KNOWN_SEASON_TABLES if "/tables/" in operation.path else KNOWN
    return st.one_of(st.sampled_from(known), mixed).map(
        lambda values: {name: value for name, value in values.items() if name in names}
    )


def test_every_operation_answers_as_its_schema_says_and_hides_what_is_not_published(leagues, api):
    hidden = _hidden([CYCLING, MOTOR])
    operations = _operations()
    assert len(operations) == 10
    seen_ok: set[str] = set()
    # Anonymous, then Alice with her token (she plays in the private season).
    for headers, examples in ((None, 20), (bearer(token_of("alice"))["HTTP_AUTHORIZATION"], 8)):
        for operation in operations:
            _run_operation(operation, hidden, headers, examples, seen_ok)
    # Every operation answered at least once with data, not only with errors.
    assert seen_ok == {operation.label for operation in operations}


def _run_operation(operation, hidden, headers, examples, seen_ok):
    """Up to ``examples`` generated requests of the operation, each answer checked."""

    @settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(
        case=operation.as_strategy(),
        path=_overrides(operation),
        real=st.booleans(),
        after=st.sampled_from([None, 1, 2]),
    )
    def run(case, path, real, after):
        if real:
            case.path_parameters = {**(case.path_parameters or {}), **path}
            if case.query and "after" in case.query:
                case.query = {k: v for k, v in case.query.items() if k != "after"}
                if after is not None:
                    case.query["after"] = after
        if headers:
            case.headers = {**(case.headers or {}), "Authorization": headers}
        response = case.call()
        case.validate_response(response)
        _nothing_hidden(hidden, case.formatted_path, response.status_code, response.text)
        if response.status_code == 200:
            seen_ok.add(operation.label)

    run()
