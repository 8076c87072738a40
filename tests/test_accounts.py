import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from accounts.models import Profile

pytestmark = pytest.mark.django_db


def test_a_visitor_signs_up_and_is_logged_in(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "dora",
            "email": "Dora@Example.com",
            "password1": "a-long-pass-42",
            "password2": "a-long-pass-42",
        },
    )
    assert response.status_code == 302
    user = get_user_model().objects.get(username="dora")
    assert user.email == "dora@example.com"
    assert client.get(reverse("home")).context["user"] == user


def test_signup_refuses_an_email_already_used(client, alice):
    response = client.post(
        reverse("signup"),
        {
            "username": "alice2",
            "email": alice.email.upper(),
            "password1": "a-long-pass-42",
            "password2": "a-long-pass-42",
        },
    )
    assert response.status_code == 200
    assert "An account already uses this email address." in response.content.decode()


def test_login_and_logout(client, alice):
    response = client.post(reverse("login"), {"username": "alice", "password": "pass-for-tests"})
    assert response.status_code == 302
    assert client.post(reverse("logout")).status_code == 302
    assert not client.get(reverse("home")).context["user"].is_authenticated


def test_password_reset_sends_a_link_by_email(client, alice):
    client.post(reverse("password_reset"), {"email": alice.email})
    assert len(mail.outbox) == 1
    assert "/accounts/reset/" in mail.outbox[0].body
    assert mail.outbox[0].subject == "Grand Tour: choose a new password"


def test_password_reset_emails_are_limited_per_address_alike_for_any_address(client, alice):
    from accounts.forms import RESETS_PER_ADDRESS

    url = reverse("password_reset")
    answers = []
    for email in (alice.email, "nobody.here@example.org"):
        for _ in range(RESETS_PER_ADDRESS.count):
            assert client.post(url, {"email": email}).status_code == 302
        refused = client.post(url, {"email": email})
        assert refused.status_code == 200
        answers.append(refused.content.decode().count("try again after"))
    assert answers == [1, 1]  # the same answer, an account's address or not
    assert len(mail.outbox) == RESETS_PER_ADDRESS.count  # alice's three, none beyond


def test_password_reset_emails_are_limited_per_client(client, alice):
    from accounts.forms import RESETS_PER_CLIENT

    url = reverse("password_reset")
    for n in range(RESETS_PER_CLIENT.count):
        assert client.post(url, {"email": f"someone{n}@example.org"}).status_code == 302
    refused = client.post(url, {"email": alice.email})
    assert "try again after" in refused.content.decode()
    assert not mail.outbox


def test_logging_in_from_a_french_browser_keeps_french_for_emails(client, alice):
    client.post(
        reverse("login"),
        {"username": "alice", "password": "pass-for-tests"},
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    alice.refresh_from_db()
    assert alice.profile.language == "fr"


def test_a_members_language_is_kept_across_browsers(client, alice):
    """French chosen with the switch on one browser; an English browser signing in later gets
    the pages and the e-mails in French still."""
    from django.test import Client

    client.force_login(alice)
    client.post(reverse("set_language"), {"language": "fr", "next": "/"})
    assert Profile.objects.get(user=alice).language == "fr"

    english_browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    english_browser.post(reverse("login"), {"username": "alice", "password": "pass-for-tests"})
    assert Profile.objects.get(user=alice).language == "fr"
    page = english_browser.get(reverse("my-seasons"))
    assert page.headers["Content-Language"] == "fr"
    assert '<html lang="fr"' in page.content.decode()

    english_browser.post(reverse("logout"))
    assert english_browser.get(reverse("home")).headers["Content-Language"] == "en"
