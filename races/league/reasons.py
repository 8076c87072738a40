"""Why a rider left the race, in the reader's words: the stored reason (the engine's, an English
key: R-A2's abandon criteria, Cyclo Sim's crash; or the time cut's sentence), else what the
status says."""

import re

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy

from races.models import StageResult

Status = StageResult.Status

#: The engines' reasons (engine/rulesets/moreno/finish.py ABANDON_REASONS, R-A2; Cyclo Sim's
#: finish), told as a sentence.
ENGINE_REASONS: dict[str, Promise] = {
    "last arrived": gettext_lazy("the abandon roll: the last rider to finish"),
    "last on GC": gettext_lazy("the abandon roll: the last rider on general classification"),
    "worst crash of the stage": gettext_lazy("the abandon roll: the worst crash of the stage"),
    "most crashes in the tour": gettext_lazy("the abandon roll: the most crashes of the race"),
    "most GC places lost": gettext_lazy(
        "the abandon roll: the most places lost on general classification"
    ),
    "second-to-last arrived": gettext_lazy("the abandon roll: the second-to-last to finish"),
    "crash": gettext_lazy("a crash"),
    "stage not finished": gettext_lazy("did not finish the stage"),
}

#: The words of a status without a stored reason (rows written before reasons were kept, or
#: imported from real results).
STATUS_WORDS: dict[str, Promise] = {
    Status.CRASHED_OUT: gettext_lazy("a crash"),
    Status.ABANDONED: gettext_lazy("gave up during the stage"),
    Status.OUTSIDE_TIME_LIMIT: gettext_lazy("finished outside the time limit"),
    Status.DID_NOT_FINISH: gettext_lazy("did not finish the stage"),
    Status.DID_NOT_START: gettext_lazy("did not start the stage"),
    Status.DISQUALIFIED: gettext_lazy("disqualified by the jury"),
}


#: The time cut's sentences (races/timing.py), with their figures: the limit ("+0:41:12 > 12 %
#: of 4:02:10"), and for a field the jury kept, how many riders were out.
_LIMIT = r"\+(?P<gap>[\d:]+) > (?P<pct>[\d.]+) % of (?P<winner>[\d:]+)"
TIME_CUT = (
    (
        re.compile(rf"^outside the time limit \({_LIMIT}\)$"),
        gettext_lazy("outside the time limit (+%(gap)s > %(pct)s %% of %(winner)s)"),
    ),
    (
        re.compile(rf"^reinstated by the organiser \(outside the time limit: {_LIMIT}\)$"),
        gettext_lazy(
            "reinstated by the organiser (outside the time limit: +%(gap)s > %(pct)s %% of "
            "%(winner)s)"
        ),
    ),
    (
        re.compile(
            rf"^kept by the jury \(outside the time limit: {_LIMIT}; (?P<out>\d+) of "
            r"(?P<riders>\d+) riders, more than (?P<max>[\d.]+) %\)$"
        ),
        gettext_lazy(
            "kept by the jury (outside the time limit: +%(gap)s > %(pct)s %% of %(winner)s; "
            "%(out)s of %(riders)s riders, more than %(max)s %%)"
        ),
    ),
)


def reason_words(*, status: str, reason: str) -> str:
    """The reason a result gives for its status, in the active language; "" for a finisher
    without one."""
    if reason:
        known = ENGINE_REASONS.get(reason)
        if known is not None:
            return str(known)
        for pattern, sentence in TIME_CUT:
            if found := pattern.match(reason):
                return str(sentence) % found.groupdict()
        return gettext(reason)
    words = STATUS_WORDS.get(status)
    return str(words) if words is not None else ""
