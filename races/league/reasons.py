"""Why a rider left the race, in the reader's words: the stored reason (the engine's, an English
key: R-A2's abandon criteria, Cyclo Sim's crash; or the time cut's sentence), else what the
status says."""

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


def reason_words(*, status: str, reason: str) -> str:
    """The reason a result gives for its status, in the active language; "" for a finisher
    without one."""
    if reason:
        known = ENGINE_REASONS.get(reason)
        return str(known) if known is not None else gettext(reason)
    words = STATUS_WORDS.get(status)
    return str(words) if words is not None else ""
