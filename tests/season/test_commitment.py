"""Dice that nobody can choose: the seed committed before any orders, a nonce per submission,
the dice from both, revealed and verified after resolution."""

import hashlib

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from engine.commitment import commitment_of, dice_seed
from season.models import DiceLog, Orders, Round
from season.replay import stage_replay
from season.services import commitment, lifecycle, resolution
from season.services.orders import orders_submit

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo():
    from season.demo import demo_load

    return demo_load()


def stage(season, number):
    return Round.objects.select_related("stage", "season").get(season=season, number=number)


def team_orders(team):
    return {rider: {"role": role} for rider, role in team.seats.values_list("rider_id", "role")}


def alice_team(season):
    return season.teams.get(owner__username="alice")


def test_the_dice_seed_is_sha256_of_the_seed_and_the_nonces_in_order():
    digest = hashlib.sha256(b"12345:aa:bb").digest()
    assert dice_seed(12345, ["aa", "bb"]) == int.from_bytes(digest[:8], "big") >> 2
    assert dice_seed(12345, ["aa", "bb"]) != dice_seed(12345, ["bb", "aa"])
    assert commitment_of(12345) == hashlib.sha256(b"12345").hexdigest()


def test_the_commitment_is_published_before_any_orders_are_accepted(demo):
    round = stage(demo, 1)
    # The demo opens stage 1 through the lifecycle, which commits its seed.
    assert round.seed is not None
    assert round.commitment == commitment_of(round.seed)
    team = alice_team(demo)
    orders_submit(team=team, round=round, orders=team_orders(team), user=team.owner)
    saved = Orders.objects.get(team=team, round=round)
    assert len(saved.nonce) == 32
    round.refresh_from_db()
    assert round.commitment == commitment_of(round.seed)


@pytest.mark.parametrize("slug", ["demo", "demo-f1"])
def test_every_round_simulate_season_resolves_verifies(slug, capsys):
    from season.demo import demo_load, motor_demo_load

    (demo_load if slug == "demo" else motor_demo_load)()
    call_command("simulate_season", slug, "--stages", "1-2", "--in-process")
    for number in (1, 2):
        call_command("verify_round", slug, str(number))
        assert f"Round {number} of {slug} verifies" in capsys.readouterr().out


def test_a_round_locked_uncommitted_is_committed_before_the_lock(demo):
    round = stage(demo, 1)
    Round.objects.filter(pk=round.pk).update(seed=None, commitment="")
    locked = lifecycle.round_lock(round=stage(demo, 1))
    assert locked.status == Round.Status.LOCKED
    assert locked.commitment == commitment_of(locked.seed)


def test_the_organisers_early_lock_commits_a_scheduled_round(demo):
    (locked,) = lifecycle.rounds_force_lock(season=demo, numbers=[2])
    locked.refresh_from_db()
    assert locked.status == Round.Status.LOCKED
    assert locked.commitment == commitment_of(locked.seed)


def test_opening_a_round_commits_its_seed(demo):
    round = stage(demo, 2)
    assert (round.status, round.commitment) == (Round.Status.SCHEDULED, "")
    Round.objects.filter(pk=stage(demo, 1).pk).update(status=Round.Status.RESOLVED)
    opened = lifecycle.round_open(round=round)
    assert opened.commitment == commitment_of(opened.seed)
    # Committed once: a second commit keeps the seed.
    assert commitment.round_seed_commit(round=opened) == opened.commitment


def test_each_submission_draws_a_new_nonce(demo):
    round = stage(demo, 1)
    team = alice_team(demo)
    orders_submit(team=team, round=round, orders=team_orders(team), user=team.owner)
    first = Orders.objects.get(team=team, round=round).nonce
    orders_submit(team=team, round=round, orders=team_orders(team), user=team.owner)
    assert Orders.objects.get(team=team, round=round).nonce != first


def test_a_changed_nonce_changes_the_dice(demo):
    round = stage(demo, 1)
    for team in demo.teams.filter(owner__isnull=False):
        orders_submit(team=team, round=round, orders=team_orders(team), user=team.owner)
    round.refresh_from_db()
    before = commitment.dice_seed_of(round)
    Orders.objects.filter(round=round, team=alice_team(demo)).update(nonce="0" * 32)
    changed = commitment.dice_seed_of(round)
    assert changed != before
    resolved = resolution.round_resolve(round_id=round.pk)
    log = DiceLog.objects.get(round=resolved)
    assert log.seed == resolved.seed  # the committed seed; the dice came from the derived one
    assert stage_replay(round=resolved) == []
    # The same round run from the seed alone (or the old nonce) draws other dice.
    from plugins import adapter_for

    adapter = adapter_for(demo.ruleset)
    inputs = adapter.inputs_from_data(resolved.engine_inputs)
    assert adapter.dice_log(adapter.simulate(inputs, seed=changed))[1] == log.sha256
    assert adapter.dice_log(adapter.simulate(inputs, seed=before))[1] != log.sha256


def test_verify_round_checks_the_commitment_and_the_replay(demo, capsys):
    round = stage(demo, 1)
    team = alice_team(demo)
    orders_submit(team=team, round=round, orders=team_orders(team), user=team.owner)
    resolution.round_resolve(round_id=round.pk)
    call_command("verify_round", "demo", "1")
    out = capsys.readouterr().out
    assert "verifies" in out
    assert "nonce of" in out
    Round.objects.filter(pk=round.pk).update(commitment="0" * 64)
    with pytest.raises(CommandError, match="does not verify"):
        call_command("verify_round", "demo", "1")
    assert "is not SHA-256 of the seed" in capsys.readouterr().err


def test_a_round_never_resolves_on_a_plain_seed(demo):
    # A seed drawn before commitments (or none at all): the claim commits a new one.
    Round.objects.filter(pk=stage(demo, 1).pk).update(seed=12345, commitment="")
    resolved = resolution.round_resolve(round_id=stage(demo, 1).pk)
    assert resolved.seed != 12345
    assert resolved.commitment == commitment_of(resolved.seed)
    assert commitment.round_verify(round=resolved) == []


def test_a_round_resolved_before_commitments_draws_from_its_seed(demo):
    resolved = resolution.round_resolve(round_id=stage(demo, 1).pk)
    Round.objects.filter(pk=resolved.pk).update(commitment="")
    resolved.refresh_from_db()
    assert commitment.dice_seed_of(resolved) == resolved.seed
    assert commitment.round_reveal(round=resolved) is None
    assert "before commitments" in commitment.round_verify(round=resolved)[0]


def test_the_stage_page_shows_the_commitment_then_the_reveal(demo, client):
    url = reverse("season-stage", args=["demo", 1])
    page = client.get(url).content.decode()
    round = stage(demo, 1)
    assert round.commitment
    assert f"<code>{round.commitment}</code>" in page
    assert str(round.seed) not in page
    team = alice_team(demo)
    orders_submit(team=team, round=round, orders=team_orders(team), user=team.owner)
    resolution.round_resolve(round_id=round.pk)
    page = client.get(url).content.decode()
    nonce = Orders.objects.get(team=team, round=round).nonce
    assert f'data-seed="{round.seed}"' in page
    assert f'data-nonces="{nonce}"' in page
    assert f'data-dice-seed="{dice_seed(round.seed, [nonce])}"' in page
    # The Verify button's verdicts come in the page's language (static/js/verify-round.js).
    assert 'data-ok="✓ The commitment and the dice seed check out."' in page
    assert 'data-bad-dice="✗ The dice seed does not match."' in page


def test_the_downloaded_round_replays_to_the_same_hash_with_no_database(demo, client, tmp_path):
    round = stage(demo, 1)
    team = alice_team(demo)
    orders_submit(team=team, round=round, orders=team_orders(team), user=team.owner)
    resolution.round_resolve(round_id=round.pk)
    page = client.get(reverse("season-stage", args=["demo", 1])).content.decode()
    log = DiceLog.objects.get(round=round)
    assert f'<code id="dice-sha256">{log.sha256}</code>' in page
    download = client.get(reverse("season-round-json", args=["demo", 1]))
    assert download.status_code == 200
    path = tmp_path / "demo-1.json"
    path.write_bytes(download.content)

    from io import StringIO

    from engine.cli import main

    out = StringIO()
    assert main(["replay", str(path)], out=out) == 0
    assert f"sha256 {log.sha256}" in out.getvalue()
    assert "the league's dice log: identical" in out.getvalue()
    # A nonce changed in the file: other dice, and the command says so.
    data = download.json()
    data["nonces"] = ["f" * 32]
    path.write_text(__import__("json").dumps(data))
    out = StringIO()
    assert main(["replay", str(path)], out=out) == 1
    assert "dice seed" in out.getvalue()
    assert "WRONG" in out.getvalue()


def test_no_round_file_before_the_reveal(demo, client):
    assert client.get(reverse("season-round-json", args=["demo", 1])).status_code == 404


# --- a Grand Prix round: the same commitment, page, download, replay and check -----------


@pytest.mark.parametrize("ruleset", ["grandprix", "ludicitude"])
def test_a_motor_round_reveals_verifies_and_replays_with_no_database(
    alice, bob, client, tmp_path, capsys, ruleset
):
    from io import StringIO

    from engine.cli import main
    from tests.season.motor_builders import joined, motor_league, round_resolved, two_cars_each

    season = motor_league(
        organiser=alice, ruleset=ruleset, points_system=ruleset, auto_publish=True
    )
    (team,) = joined(season, bob)
    two_cars_each(season, team)
    round = season.rounds.get(number=1)
    lifecycle.round_open(round=round)
    round.refresh_from_db()
    assert round.commitment
    url = reverse("season-stage", args=[season.slug, 1])
    assert f"<code>{round.commitment}</code>" in client.get(url).content.decode()
    car = str(team.seats.order_by("slot").first().number)
    orders_submit(team=team, round=round, orders={car: {"risk": "safe"}}, user=bob)
    round = round_resolved(season, 1)
    nonce = Orders.objects.get(team=team, round=round).nonce
    page = client.get(url).content.decode()
    log = DiceLog.objects.get(round=round)
    assert f'data-nonces="{nonce}"' in page
    assert f'data-dice-seed="{dice_seed(round.seed, [nonce])}"' in page
    assert f'<code id="dice-sha256">{log.sha256}</code>' in page

    download = client.get(reverse("season-round-json", args=[season.slug, 1]))
    assert download.status_code == 200
    path = tmp_path / "round.json"
    path.write_bytes(download.content)
    out = StringIO()
    assert main(["replay", str(path)], out=out) == 0, out.getvalue()
    assert f"sha256 {log.sha256}" in out.getvalue()
    assert "the league's dice log: identical" in out.getvalue()
    # Another nonce: other dice, another log.
    data = download.json() | {"nonces": ["f" * 32], "dice_seed": None}
    data.pop("dice_seed")
    path.write_text(__import__("json").dumps(data))
    out = StringIO()
    assert main(["replay", str(path)], out=out) == 1
    assert "the league's dice log: DIFFERENT" in out.getvalue()

    call_command("verify_round", season.slug, "1")
    assert "verifies" in capsys.readouterr().out
