"""The French translation: a complete catalogue, in step with the code, and pages in French.

The catalogue is read with the small PO parser below (no polib): every entry translated, none
fuzzy, placeholders kept. The compiled .mo is committed, so it must hold exactly the .po's
translations (checked without gettext tools); with them, msgfmt --check and a fresh
makemessages run confirm the .po is valid and lists exactly the strings the code marks.
"""

import ast
import gettext
import html
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation

from races.charts.gc import gc_gaps_svg
from races.charts.profile import stage_profile_svg
from season.demo import demo_load

MESSAGES = Path(settings.BASE_DIR) / "locale" / "fr" / "LC_MESSAGES"
PO_FILE = MESSAGES / "django.po"
MO_FILE = MESSAGES / "django.mo"
# The makemessages call that produced the catalogue (README / the brief of the translation).
MAKEMESSAGES_IGNORES = [".venv", "tests", "docs", "bench", "staticfiles", "var"]

# %(name)s and its variants (%(total).1f, %(value)r, %(n)d), and {name} of str.format.
PERCENT_PLACEHOLDER = re.compile(r"%\(\w+\)[#0 +-]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]")
BRACE_PLACEHOLDER = re.compile(r"\{\w+\}")


@pytest.fixture(autouse=True)
def _back_to_the_default_language():
    """A French request leaves French active in this thread: the next tests expect English."""
    yield
    translation.deactivate()


# --- a minimal PO parser ---------------------------------------------------------------------


@dataclass
class Entry:
    msgid: str = ""
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    line: int = 0

    @property
    def is_header(self) -> bool:
        return self.msgid == "" and self.msgctxt is None

    def __str__(self) -> str:
        context = f"[{self.msgctxt}] " if self.msgctxt else ""
        return f"line {self.line}: {context}{self.msgid!r}"


KEYWORD = re.compile(r"^(msgctxt|msgid_plural|msgid|msgstr)(?:\[(\d+)\])?\s+(\".*\")\s*$")


def po_entries(path: Path) -> list[Entry]:
    """The entries of a PO file, header included, obsolete (#~) entries left out."""
    entries: list[Entry] = []
    entry: Entry | None = None
    target: tuple[str, int] | None = None
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, raw in enumerate([*lines, ""], start=1):
        line = raw.strip()
        if not line or line.startswith("#~"):
            if entry is not None and not line:
                entries.append(entry)
                entry, target = None, None
            continue
        if entry is None:
            entry = Entry(line=number)
        if line.startswith("#,"):
            entry.flags.update(flag.strip() for flag in line[2:].split(","))
            continue
        if line.startswith("#"):
            continue
        match = KEYWORD.match(line)
        if match:
            keyword, index, text = match.groups()
            value = ast.literal_eval(text)
            if keyword == "msgstr":
                target = ("msgstr", int(index or 0))
                entry.msgstr[target[1]] = value
            else:
                target = (keyword, 0)
                setattr(entry, keyword, value)
        elif line.startswith('"') and target is not None:
            value = ast.literal_eval(line)
            if target[0] == "msgstr":
                entry.msgstr[target[1]] += value
            else:
                setattr(entry, target[0], getattr(entry, target[0]) + value)
        else:
            raise AssertionError(f"{path.name}:{number}: cannot read {raw!r}")
    return entries


def placeholders(text: str) -> set[str]:
    return set(PERCENT_PLACEHOLDER.findall(text)) | set(BRACE_PLACEHOLDER.findall(text))


def messages(entries: list[Entry]) -> list[Entry]:
    return [entry for entry in entries if not entry.is_header]


def test_the_parser_reads_plurals_contexts_flags_and_continued_lines(tmp_path):
    po = tmp_path / "sample.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Language: fr\\n"\n\n'
        '#: a.py:1\n#, python-format\nmsgid "%(n)d day"\nmsgid_plural "%(n)d days"\n'
        'msgstr[0] "%(n)d jour"\nmsgstr[1] "%(n)d jours"\n\n'
        'msgctxt "rider role"\nmsgid ""\n"break"\n"away"\nmsgstr "baroudeur"\n\n'
        '#~ msgid "gone"\n#~ msgstr "parti"\n',
        encoding="utf-8",
    )
    header, day, role = po_entries(po)
    assert header.is_header
    assert header.msgstr[0] == "Language: fr\n"
    assert (day.msgid_plural, day.msgstr, day.flags) == (
        "%(n)d days",
        {0: "%(n)d jour", 1: "%(n)d jours"},
        {"python-format"},
    )
    assert (role.msgctxt, role.msgid, role.msgstr[0]) == ("rider role", "breakaway", "baroudeur")


# --- the catalogue ---------------------------------------------------------------------------


def test_the_french_catalogue_has_a_usable_header():
    header = po_entries(PO_FILE)[0]
    assert header.is_header
    assert "fuzzy" not in header.flags
    assert "Language: fr\n" in header.msgstr[0]
    assert "charset=UTF-8" in header.msgstr[0]
    assert "Plural-Forms: nplurals=2; plural=(n > 1);" in header.msgstr[0]


def test_every_french_message_is_translated_and_none_is_fuzzy():
    entries = messages(po_entries(PO_FILE))
    assert len(entries) > 500
    fuzzy = [str(entry) for entry in entries if "fuzzy" in entry.flags]
    assert not fuzzy, fuzzy
    empty = [
        str(entry)
        for entry in entries
        if not entry.msgstr or any(not text for text in entry.msgstr.values())
    ]
    assert not empty, empty
    plurals = [entry for entry in entries if entry.msgid_plural is not None]
    assert plurals
    wrong_forms = [str(entry) for entry in plurals if sorted(entry.msgstr) != [0, 1]]
    assert not wrong_forms, wrong_forms


def test_every_translation_keeps_the_placeholders_of_its_message():
    broken = []
    for entry in messages(po_entries(PO_FILE)):
        sources = {0: entry.msgid, 1: entry.msgid_plural or entry.msgid}
        for index, text in entry.msgstr.items():
            expected = placeholders(sources[min(index, 1)])
            if placeholders(text) != expected:
                broken.append(f"{entry} msgstr[{index}] {text!r}: expected {sorted(expected)}")
    assert not broken, broken


def test_the_compiled_catalogue_holds_exactly_the_po_translations():
    """The committed .mo (a fresh machine needs no gettext tools) is the .po compiled."""
    with MO_FILE.open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)._catalog  # type: ignore[attr-defined]
    expected: dict[object, str] = {}
    for entry in messages(po_entries(PO_FILE)):
        key = f"{entry.msgctxt}\x04{entry.msgid}" if entry.msgctxt else entry.msgid
        if entry.msgid_plural is None:
            expected[key] = entry.msgstr[0]
        else:
            expected.update({(key, index): text for index, text in entry.msgstr.items()})
    compiled = {key: text for key, text in compiled.items() if key != ""}
    missing = sorted(str(key) for key in expected.keys() - compiled.keys())
    extra = sorted(str(key) for key in compiled.keys() - expected.keys())
    assert not missing, f"in the .po, not in the .mo (run compilemessages -l fr): {missing}"
    assert not extra, f"in the .mo, not in the .po (run compilemessages -l fr): {extra}"
    stale = sorted(str(key) for key, text in expected.items() if compiled[key] != text)
    assert not stale, f"the .mo is older than the .po (run compilemessages -l fr): {stale}"


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="needs msgfmt (gettext)")
def test_msgfmt_accepts_the_catalogue():
    result = subprocess.run(
        ["msgfmt", "--check", "--statistics", "-o", "-", str(PO_FILE)],
        capture_output=True,
        text=False,
        check=False,
    )
    assert result.returncode == 0, result.stderr.decode()
    assert b"fuzzy" not in result.stderr
    assert b"untranslated" not in result.stderr


@pytest.mark.skipif(
    shutil.which("xgettext") is None or shutil.which("msgmerge") is None,
    reason="needs xgettext and msgmerge (gettext)",
)
def test_the_catalogue_lists_exactly_the_strings_the_code_marks(tmp_path):
    """makemessages on a copy of the project finds the same messages as the committed .po."""
    base = Path(settings.BASE_DIR)
    skipped = {*MAKEMESSAGES_IGNORES, "db.sqlite3", "test-artifacts", "grandtour.egg-info"}
    copy = tmp_path / "project"
    copy.mkdir()
    for item in base.iterdir():
        if item.name.startswith(".") or item.name in skipped:
            continue
        if item.is_dir():
            shutil.copytree(item, copy / item.name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(item, copy / item.name)
    command = [sys.executable, "manage.py", "makemessages", "-l", "fr", "--no-obsolete"]
    command += [f"--ignore={name}" for name in MAKEMESSAGES_IGNORES]
    result = subprocess.run(
        command,
        cwd=copy,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings_test"},
    )
    assert result.returncode == 0, result.stderr

    def keys(path: Path) -> set[tuple[str | None, str, str | None]]:
        return {(e.msgctxt, e.msgid, e.msgid_plural) for e in messages(po_entries(path))}

    fresh = keys(copy / "locale" / "fr" / "LC_MESSAGES" / "django.po")
    committed = keys(PO_FILE)
    assert not fresh - committed, f"marked in the code, missing in the .po: {fresh - committed}"
    assert not committed - fresh, f"in the .po, no longer in the code: {committed - fresh}"


# --- the charts' words ----------------------------------------------------------------------

COURSE = [
    {"terrain": "plain", "km": 100, "name": ""},
    {"terrain": "col1", "km": 10, "name": "Col du Galibier"},
    {"terrain": "descent", "km": 10, "name": ""},
]


def test_chart_texts_override_the_english_words_by_key():
    svg = stage_profile_svg(
        COURSE,
        title="Briançon – Valloire",
        texts={
            "legend_plain": "Plat",
            "category_col1": "1re cat.",
            "description_titled": "Profil de l'étape : {title}, {summary}",
            "climbs_one": "{count} ascension répertoriée : {climbs}",
            "climb_at": "{climb} au km {km}",
            "unknown key": "ignored",
        },
    )
    assert ">Plat<" in svg
    assert "Col du Galibier (1re cat.)" in svg
    assert "Profil de l&#x27;étape : Briançon – Valloire, 120 km, 1 ascension répertoriée" in svg
    assert ">Descent<" in svg  # an untranslated key keeps its English word


def test_a_translation_with_a_wrong_placeholder_falls_back_to_english():
    svg = gc_gaps_svg(
        [("Jonas", [0, 0]), ("Tadej", [30, 90])],
        stage_numbers=[1, 2],
        texts={"stage_axis": "Étape", "rider_gap": "{nom} à {gap}", "more": ""},
    )
    assert ">Étape<" in svg
    assert "Tadej 1:30 after stage 2" in svg
    empty = gc_gaps_svg([], stage_numbers=[], texts={"no_standings": "Rien"})
    assert ">Rien<" in empty


# --- the pages -------------------------------------------------------------------------------


@pytest.fixture
def resolved_demo(db):
    """The demo season with its first two stages resolved."""
    season = demo_load()
    call_command("simulate_season", "demo", "--stages", "1-2", "--in-process", verbosity=0)
    return season


def french_page(client, url: str) -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 200, url
    assert response["Content-Language"] == "fr", url
    page = response.content.decode()
    assert '<html lang="fr">' in page, url
    return html.unescape(page)


def assert_french(page: str, url: str, *, present: list[str], absent: list[str]) -> None:
    missing = [text for text in present if text not in page]
    english = [text for text in absent if text in page]
    assert not missing, f"{url}: French missing: {missing}"
    assert not english, f"{url}: English left: {english}"


# English labels of the layout, absent from every French page.
LAYOUT_ENGLISH = ["My seasons", "Log in", "Sign up", "Log out", "Download CSV"]


def test_the_public_pages_come_out_in_french(client, resolved_demo):
    pages = {
        reverse("home"): (
            ["Saisons de course", "Organisée par", "étapes", "Connexion", "Inscription"],
            ["Racing seasons", "Organised by", "No public season"],
        ),
        reverse("season-detail", args=["demo"]): (
            ["Classements", "Calendrier", "Équipes", "Maillot jaune", "Dernière étape (2)"],
            ["Classifications", "Calendar", "Latest stage", "Yellow", "Orders deadline"],
        ),
        reverse("season-stage", args=["demo", 1]): (
            ["Étape 1 :", "Résultats", "Profil de l'étape", "Le film de l'étape", "Écart"],
            ["Results", "Stage profile", "What happened", "categorised climb", "Dice log"],
        ),
        reverse("season-standings", args=["demo", "general"]): (
            ["Classements", "Général", "Montagne", "Jeunes", "après l'étape 2"],
            ["Classifications", "After stage", "Gap to leader", "GC gaps", "No standings"],
        ),
        reverse("login"): (
            ["Connexion", "Mot de passe oublié ?", "Créer un compte"],
            ["Forgotten your password", "Create an account"],
        ),
    }
    for url, (present, absent) in pages.items():
        page = french_page(client, url)
        assert_french(page, url, present=present, absent=[*absent, *LAYOUT_ENGLISH])


def test_the_charts_speak_french(client, resolved_demo):
    stage = french_page(client, reverse("season-stage", args=["demo", 1]))
    assert "ascensions répertoriées" in stage
    assert "(3e cat.)" in stage
    assert "(cat. 3)" not in stage
    standings = french_page(client, reverse("season-standings", args=["demo", "general"]))
    assert "Retard sur le leader" in standings
    assert "Gap to leader" not in standings
    assert "Écarts au classement général" in standings
    rider = resolved_demo.teams.get(owner__username="alice").seats.first().rider
    radar = french_page(client, reverse("season-rider", args=["demo", rider.pk]))
    assert "Profil du coureur" in radar
    assert "Grimpeur" in radar
    assert "Climber" not in radar


def test_the_orders_page_of_a_player_comes_out_in_french(client, resolved_demo):
    team = resolved_demo.teams.get(owner__username="alice")
    assert client.login(username="alice", password="alice-demo")
    client.post(reverse("set_language"), {"language": "fr", "next": "/"})  # her language now
    url = reverse("player-orders", args=["demo", team.pk])
    page = french_page(client, url)
    assert_french(
        page,
        url,
        present=["Ordres", "Mes saisons", "Équipe", "Coureur", "Déconnexion", "étape 3"],
        absent=["Orders", "Team</a>", "Rider</th>", "Save my orders", "Deadline", *LAYOUT_ENGLISH],
    )


def test_english_stays_the_default(client, resolved_demo):
    response = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en")
    page = response.content.decode()
    assert response["Content-Language"] == "en"
    assert "Racing seasons" in page
    assert "Saisons de course" not in page


def test_the_language_switcher_turns_a_visitor_to_french(client, db):
    assert "Racing seasons" in client.get(reverse("home")).content.decode()
    response = client.post(reverse("set_language"), {"language": "fr", "next": reverse("home")})
    assert response.status_code == 302
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fr"
    # No Accept-Language header: the choice alone makes the next pages French.
    page = client.get(reverse("home")).content.decode()
    assert '<html lang="fr">' in page
    assert "Saisons de course" in page
    assert "Racing seasons" not in page
    assert "Connexion" in page


def test_the_words_of_every_games_specs_are_marked_for_the_catalogue():
    """scripts/spec_words.py --check: the generated modules say every label, help and choice
    of the four games' orders and settings specs (a new one fails here until regenerated)."""
    import subprocess
    import sys

    script = Path(__file__).resolve().parent.parent / "scripts" / "spec_words.py"
    done = subprocess.run(
        [sys.executable, str(script), "--check"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_rules_pages_of_every_game_come_out_in_french(client, db):
    from plugins.registry import adapter_for, adapter_names

    for name in adapter_names():
        url = reverse("ruleset-rules", args=[name])
        page = french_page(client, url)
        english = [
            str(text)
            for field in adapter_for(name).orders_spec
            for text in (field.label, field.help)
            if text and len(str(text)) > 12 and str(text) in page
        ]
        assert not english, f"{url}: English left: {english}"
