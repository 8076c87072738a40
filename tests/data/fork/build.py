"""Writes this folder's ProCyclingStats-shaped files of the Tour de France 2022 (see README.md):
run once by hand, ``python tests/data/fork/build.py``; the tests only read what it wrote.

The start list and the route are the real ones (../tdf2022/riders.csv and stages.csv); the
results of stages 1 to 10 and the classifications after stage 10 are constructed, from a
seeded random.Random so the files are always the same, and kept consistent with each other:
the general classification is the sum of each rider's stage times less his bonuses, ranked as
docs/classifications.md ranks it.
"""

import csv
import random
import unicodedata
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE = HERE.parent / "tdf2022"
PREFIX = "tour-de-france-2022"
GIVEN = 10
#: Constructed abandons: stage -> (rider bib, status).
LEAVING = {3: [(75, "DNF")], 5: [(22, "DNF"), (141, "DNF")], 7: [(56, "DNS")], 9: [(118, "DNF")]}
SPEED = {"flat": 43.0, "hilly": 40.0, "mountain": 36.0, "ITT": 50.0, "TTT": 52.0}
ICON = {"flat": "p1", "hilly": "p2", "mountain": "p5", "ITT": "p1", "TTT": "p1"}
FINISH_POINTS = {
    "flat": (50, 30, 20, 18, 16, 14, 12, 10, 8, 7, 6, 5, 4, 3, 2),
    "hilly": (30, 25, 22, 19, 17, 15, 13, 11, 9, 7, 6, 5, 4, 3, 2),
    "mountain": (20, 17, 15, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1),
    "ITT": (20, 17, 15, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1),
}


def slug(name: str) -> str:
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    words = "".join(c if c.isalnum() or c == " " else " " for c in ascii_name.lower()).split()
    return "rider/" + "-".join(words)


def key(name: str) -> str:
    """A name's words, accents and case aside, in any order ("POGAČAR Tadej" = "Pogačar
    Tadej")."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return " ".join(sorted(ascii_name.lower().replace("-", " ").split()))


def real_ranks(file: str, classification: str = "") -> dict[str, int]:
    """{name key: rank} of the real final classification (../tdf2022), so that the constructed
    stages are won and lost by the riders who did so in the real race."""
    with (SOURCE / file).open(encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f) if r.get("classification", "") == classification]
    return {key(r["rider"]): int(r["rank"]) for r in rows if r["rank"]}


def clock(seconds: int) -> str:
    return f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"


def write(name: str, header: list[str], rows: list[list[object]]) -> None:
    with (HERE / f"{PREFIX}-{name}.csv").open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(header)
        writer.writerows(rows)


def main() -> None:
    rng = random.Random(2022)
    gc_rank = real_ranks("gc.csv")
    points_rank = real_ranks("classifications.csv", "points")
    with (SOURCE / "riders.csv").open(encoding="utf-8") as f:
        riders = [(int(r["bib"]), r["rider"], r["team"]) for r in csv.DictReader(f)]
    with (SOURCE / "stages.csv").open(encoding="utf-8") as f:
        stages = list(csv.DictReader(f))
    with (SOURCE / "stage_winners.csv").open(encoding="utf-8") as f:
        winners = {int(r["stage"]): r["rider"] for r in csv.DictReader(f)}
    write(
        "startlist",
        ["rider_name", "rider_url", "rider_number", "team_name"],
        [[name, slug(name), bib, team] for bib, name, team in riders],
    )
    write(
        "stages",
        ["stage_url", "date", "departure", "arrival", "distance", "stage_type", "profile_icon"],
        [
            [
                f"race/tour-de-france/2022/stage-{s['stage']}",
                s["date"],
                s["start"],
                s["finish"],
                s["distance_km"],
                s["type"] if s["type"] in ("ITT", "TTT") else "RR",
                ICON[s["type"]],
            ]
            for s in stages
        ],
    )
    by_bib = {bib: (name, team) for bib, name, team in riders}
    in_race = [bib for bib, _, _ in riders]
    total: Counter[int] = Counter()
    rank_sum: Counter[int] = Counter()
    last_rank: dict[int, int] = {}
    points: Counter[int] = Counter()
    for stage in stages[:GIVEN]:
        number, kind = int(stage["stage"]), stage["type"]
        leaving = dict(LEAVING.get(number, []))
        dns = [bib for bib, status in leaving.items() if status == "DNS"]
        riding = [bib for bib in in_race if bib not in dns]
        # The finish order: the real race's best riders in front, with chance. On flat
        # stages its points classification (the sprinters), elsewhere its final GC.
        ranks = points_rank if kind == "flat" else gc_rank
        spread = 25 if kind in ("mountain", "ITT") else 60
        order = sorted(
            riding,
            key=lambda b: ranks.get(key(by_bib[b][0]), 150) + rng.uniform(0, spread),
        )
        winner = next((b for b in order if by_bib[b][0] == winners.get(number)), None)
        if winner is not None:
            order.remove(winner)
            order.insert(0, winner)
        finishers = [b for b in order if b not in leaving]
        base = round(float(stage["distance_km"]) * 3600 / SPEED[kind])
        gap, rows = 0, []
        for rank, bib in enumerate(finishers, start=1):
            if rank > 1 and (kind == "ITT" or rng.random() < (0.5 if kind == "mountain" else 0.1)):
                gap += rng.randint(1, 40 if kind != "flat" else 8)
            bonus = (10, 6, 4)[rank - 1] if rank <= 3 and kind != "ITT" else 0
            time = base + gap
            total[bib] += time - bonus
            rank_sum[bib] += rank
            last_rank[bib] = rank
            table = FINISH_POINTS[kind]
            points[bib] += table[rank - 1] if rank <= len(table) else 0
            name, team = by_bib[bib]
            rows.append([rank, "DF", name, slug(name), bib, team, clock(time), clock(bonus)])
        for bib, status in leaving.items():
            name, team = by_bib[bib]
            rows.append(["", status, name, slug(name), bib, team, "", ""])
        write(
            f"stage-{number}",
            [
                "rank",
                "status",
                "rider_name",
                "rider_url",
                "rider_number",
                "team_name",
                "time",
                "bonus",
            ],
            rows,
        )
        in_race = [bib for bib in riding if bib not in leaving]
    gc = sorted(in_race, key=lambda b: (total[b], rank_sum[b], last_rank[b]))
    write(
        f"stage-{GIVEN}-gc",
        ["rank", "prev_rank", "rider_name", "rider_url", "team_name", "time"],
        [
            [rank, rank, by_bib[b][0], slug(by_bib[b][0]), by_bib[b][1], clock(total[b])]
            for rank, b in enumerate(gc, start=1)
        ],
    )
    # Points: the finish points of the stages above (no intermediate sprints in these files).
    green = sorted((b for b in in_race if points[b]), key=lambda b: (-points[b], gc.index(b)))
    write(
        f"stage-{GIVEN}-points",
        ["rank", "rider_name", "rider_url", "team_name", "points"],
        [
            [rank, by_bib[b][0], slug(by_bib[b][0]), by_bib[b][1], points[b]]
            for rank, b in enumerate(green, start=1)
        ],
    )
    # Mountains: constructed points for the first twelve of a shuffled peloton.
    climbers = gc[:]
    rng.shuffle(climbers)
    kom = sorted(((b, rng.randint(1, 30)) for b in climbers[:12]), key=lambda x: (-x[1], x[0]))
    write(
        f"stage-{GIVEN}-kom",
        ["rank", "rider_name", "rider_url", "team_name", "points"],
        [
            [rank, by_bib[b][0], slug(by_bib[b][0]), by_bib[b][1], pts]
            for rank, (b, pts) in enumerate(kom, start=1)
        ],
    )
    # Youth: every fifth rider of the GC stands for the riders under 26, in GC order.
    young = gc[4::5]
    write(
        f"stage-{GIVEN}-youth",
        ["rank", "rider_name", "rider_url", "team_name", "time"],
        [
            [rank, by_bib[b][0], slug(by_bib[b][0]), by_bib[b][1], clock(total[b])]
            for rank, b in enumerate(young, start=1)
        ],
    )


if __name__ == "__main__":
    main()
