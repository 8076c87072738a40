import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

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


def test_logging_in_from_a_french_browser_keeps_french_for_emails(client, alice):
    client.post(
        reverse("login"),
        {"username": "alice", "password": "pass-for-tests"},
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    alice.refresh_from_db()
    assert alice.profile.language == "fr"
