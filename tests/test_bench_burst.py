"""bench/burst.py's pure helpers (the benchmark itself is a command that prints figures, never
part of the suite)."""

from bench.burst import lag_summary, latencies_kept, lua_rotation


def test_lag_summary_gives_min_median_max():
    assert lag_summary([3.0, 1.0, 2.0]) == "min 1.0 s, median 2.0 s, max 3.0 s"
    assert lag_summary([]) == "none"


def test_the_rotation_script_quotes_what_it_sends():
    script = lua_rotation([('/a"b/', "key\\1"), ("/anonymous/", "")])
    assert '{"/a\\"b/", "key\\\\1"}' in script
    assert '{"/anonymous/", ""}' in script


def test_no_latency_is_shown_when_every_request_timed_out():
    timed_out = {"requests": "46", "errors": "46", "p50": "0.00us", "p99": "0.00us"}
    assert latencies_kept(timed_out)["p99"] == "-"
    answered = {"requests": "153", "errors": "46", "p50": "1.58s", "p99": "1.99s"}
    assert latencies_kept(answered) == answered
