"""Production as the README runs it: DEBUG=0 on a fresh database, the security settings,
login throttling."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import override_settings
from django.urls import reverse

from tests.factories import PASSWORD

ROOT = Path(__file__).resolve().parent.parent


#: Not passed on to the production processes: the test run's own settings, and
#: DJANGO_ALLOW_ASYNC_UNSAFE, which the browser tests set in this process.
NOT_PASSED_ON = {
    "DATABASE_URL",
    "REDIS_URL",
    "DJANGO_SETTINGS_MODULE",
    "DEBUG",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
}


def production_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in NOT_PASSED_ON}
    return env | {
        "DEBUG": "0",
        "SECRET_KEY": "a-production-secret-key-for-this-test-only-0123456789-abcdefghij",
        "ALLOWED_HOSTS": "grandtour.example.org",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'prod.sqlite3'}",
        "STATIC_ROOT": str(tmp_path / "static"),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        **extra,
    }


def manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_the_readme_production_steps_work_in_their_order_on_a_fresh_database(tmp_path):
    """migrate, load_demo (which imports the URLs) before collectstatic, then collectstatic."""
    env = production_env(tmp_path)
    for step in (("migrate", "--noinput"), ("load_demo",), ("collectstatic", "--noinput")):
        done = manage(env, *step)
        assert done.returncode == 0, f"{' '.join(step)}:\n{done.stdout}\n{done.stderr}"
        assert "Traceback" not in done.stderr
    assert (tmp_path / "static" / "staticfiles.json").exists()


def test_check_deploy_is_clean_with_the_production_defaults(tmp_path):
    done = manage(production_env(tmp_path), "check", "--deploy", "--fail-level", "WARNING")
    assert done.returncode == 0, done.stdout + done.stderr


def test_each_protection_can_be_turned_off_from_the_environment(tmp_path):
    env = production_env(tmp_path, SECURE_SSL_REDIRECT="0", SECURE_HSTS_SECONDS="0")
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS, s.SESSION_COOKIE_SECURE, "
        "s.CSRF_COOKIE_SECURE, s.SECURE_PROXY_SSL_HEADER, "
        "'csp.middleware.CSPMiddleware' in s.MIDDLEWARE)"
    )
    env["SECURE_PROXY_SSL_HEADER"] = "HTTP_X_FORWARDED_PROTO"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == [
        "False",
        "0",
        "True",
        "True",
        "('HTTP_X_FORWARDED_PROTO',",
        "'https')",
        "True",
    ]


@pytest.mark.django_db
def test_pages_carry_a_content_security_policy_when_it_is_on(client):
    from django.conf import settings

    middleware = [*settings.MIDDLEWARE]
    middleware.insert(1, "csp.middleware.CSPMiddleware")
    with override_settings(MIDDLEWARE=middleware):
        response = client.get(reverse("home"))
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy
    assert "object-src 'none'" in policy
    assert "frame-ancestors 'none'" in policy


# --- login throttling ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_logins_are_locked_after_five_wrong_passwords_even_with_the_right_one(client, alice):
    url = reverse("login")
    for _attempt in range(4):
        response = client.post(url, {"username": "alice", "password": "wrong"})
        assert response.status_code == 200
        assert "Please enter a correct username and password" in response.content.decode()
    assert client.post(url, {"username": "alice", "password": "wrong"}).status_code == 429
    response = client.post(url, {"username": "alice", "password": PASSWORD})
    assert response.status_code == 429
    page = response.content.decode()
    assert "Too many failed logins" in page
    assert "after 5 wrong passwords" in page
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_four_wrong_passwords_then_the_right_one_logs_in(client, alice):
    url = reverse("login")
    for _attempt in range(4):
        client.post(url, {"username": "alice", "password": "wrong"})
    response = client.post(url, {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(alice.pk)


@pytest.mark.django_db
def test_a_lockout_of_one_user_leaves_the_others_alone(client, alice, bob):
    url = reverse("login")
    for _attempt in range(6):
        client.post(url, {"username": "alice", "password": "wrong"})
    response = client.post(url, {"username": "bob", "password": PASSWORD})
    assert response.status_code == 302
