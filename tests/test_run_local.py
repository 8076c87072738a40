"""`make run` (scripts/run_local.py) builds the e-mails' links from where it serves the site."""

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "run_local.py"


def run_local():
    spec = importlib.util.spec_from_file_location("run_local", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_make_run_derives_site_url_from_host_and_port():
    assert run_local().site_url({"HOST": "192.168.1.5", "PORT": "8123"}) == (
        "http://192.168.1.5:8123"
    )
    assert run_local().site_url({}) == "http://127.0.0.1:8000"


def test_a_site_url_given_is_kept():
    given = {"HOST": "0.0.0.0", "PORT": "8123", "SITE_URL": "https://tour.example.org"}
    assert run_local().site_url(given) == "https://tour.example.org"
