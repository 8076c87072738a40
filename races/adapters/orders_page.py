"""A cycling team's orders page (plugins.orders_page.OrdersPage): a card per starting rider
with the ruleset's fields; above it the stage's profile and the riders'
ratings, and in a ruleset that counts one (Cyclo Sim), each rider's energy at the start."""

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext_lazy

from races.charts.profile import profile_texts, stage_profile_pair
from races.models import Stage, StageResult
from races.ratings import ratings_of
from riders.charts import radar_labels
from riders.models import RATING_AXES

#: How the riders' ratings table words a rating (H: a handicap).
RATING_LABELS = {-1: "H", 0: "0", 1: "1", 2: "2", 3: "3", 4: "4"}


def carried_states(stage: Stage) -> dict[int, dict[str, Any]]:
    """The engine state each rider carries from the previous stage (Cyclo Sim: energy)."""
    return dict(
        StageResult.objects.filter(
            stage__race_id=stage.race_id, stage__number=stage.number - 1
        ).values_list("rider_id", "state")
    )


class CyclingOrdersPage:
    orders_template = "races/league/_orders.html"
    orders_round_missing = gettext_lazy(
        "These orders do not say which stage they are for: reload the page and give them again."
    )
    orders_no_seats = gettext_lazy("Your team has no riders to give orders to.")

    #: The adapter's (races.adapters.base.CyclingAdapter).
    round_label: Callable[[int], str]

    def orders_title(self, round: Any) -> str:
        return str(self.round_label(round.number))

    def seat_clean(self, values: Mapping[str, Any], *, round: Any) -> dict[str, Any]:
        """Checks across one rider's fields, {field name: message}; none by default."""
        return {}

    def team_energy(
        self,
        *,
        rules: Any,
        starters: Sequence[Any],
        carried: Mapping[int, Mapping[str, Any]],
        ratings: Mapping[int, Mapping[str, int]],
    ) -> dict[int, tuple[int, int]]:
        """Each starter's energy at the start of the stage, ``(left, max)``, for a ruleset
        that counts one (empty otherwise); ``ratings`` as the league rates the starters."""
        return {}

    def orders_context(
        self, round: Any, *, starters: Sequence[Any], form: Any | None
    ) -> dict[str, Any]:
        stage: Stage | None = round.stage
        if form is None or stage is None:
            return {"stage": stage}
        # As the league rates them: its snapshot, taken when its team formation started.
        rated = ratings_of(race_id=stage.race_id, rider_ids=[m.rider_pk for m in starters])
        energy = self.team_energy(
            rules=round.season.rules,
            starters=starters,
            carried=carried_states(stage),
            ratings=rated,
        )
        labels = radar_labels()
        ratings = {
            member.rider_pk: [RATING_LABELS[rated[member.rider_pk][axis]] for axis in RATING_AXES]
            for member in starters
        }
        return {
            "stage": stage,
            # What the choice needs: the road, and what each rider is good at.
            "profile": stage_profile_pair(
                stage.segments, title=f"{stage.start} – {stage.finish}", texts=profile_texts()
            ),
            "axes": [(axis, labels[axis]) for axis in RATING_AXES],
            "rating_rows": [(member, ratings[member.rider_pk]) for member in starters],
            # A card per starter: his fields, his energy in a Cyclo Sim season, and his ratings
            # again (on a phone, the ratings table is out of sight of the fields).
            "order_rows": [
                (
                    member,
                    fields,
                    energy.get(member.rider_pk),
                    list(
                        zip(
                            (labels[axis] for axis in RATING_AXES),
                            ratings.get(member.rider_pk, []),
                            strict=False,
                        )
                    ),
                )
                for member, fields in form.rows()
            ],
            "show_energy": bool(energy),
        }
