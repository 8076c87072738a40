"""Why a rider left the race, in words (races/league/reasons.py)."""

from django.utils import translation

from races.league.reasons import reason_words
from races.models import StageResult

Status = StageResult.Status


def test_an_engine_reason_is_told_as_a_sentence():
    assert reason_words(status=Status.ABANDONED, reason="last on GC") == (
        "the abandon roll: the last rider on general classification"
    )
    assert reason_words(status=Status.CRASHED_OUT, reason="crash") == "a crash"


def test_a_time_cut_keeps_its_sentence():
    reason = "outside the time limit (+36:01 > 15 % of 4:00:00)"
    assert reason_words(status=Status.OUTSIDE_TIME_LIMIT, reason=reason) == reason


def test_a_status_without_a_reason_says_what_it_means():
    assert reason_words(status=Status.CRASHED_OUT, reason="") == "a crash"
    assert reason_words(status=Status.DID_NOT_START, reason="") == "did not start the stage"
    assert reason_words(status=Status.FINISHED, reason="") == ""


def test_every_status_but_finished_has_words():
    with translation.override("en"):
        for status in Status.values:
            words = reason_words(status=status, reason="")
            assert bool(words) is (status != Status.FINISHED), status


def test_the_time_cuts_sentences_keep_their_figures_in_french():
    from django.utils import translation

    with translation.override("fr"):
        words = reason_words(
            status="otl", reason="outside the time limit (+0:41:12 > 12 % of 4:02:10)"
        )
        assert words == "hors délais (+0:41:12 > 12 % de 4:02:10)"
        kept = reason_words(
            status="finished",
            reason=(
                "kept by the jury (outside the time limit: +0:41:12 > 12 % of 4:02:10; "
                "30 of 150 riders, more than 20 %)"
            ),
        )
        assert kept == (
            "repêché par le jury (hors délais : +0:41:12 > 12 % de 4:02:10 ; "
            "30 coureurs sur 150, plus de 20 %)"
        )
