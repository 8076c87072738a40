"""The webhooks' guard (season.services.webhook_guard): https to public addresses only, every
address of a host checked, the request sent to the address checked."""

import ipaddress
import socket

import pytest

from season.services import webhook_guard
from season.services.webhook_guard import Refused, address_refusal, url_check


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "10.1.2.3",
        "172.16.0.1",
        "192.168.1.10",
        "169.254.169.254",
        "169.254.1.1",
        "100.64.0.1",
        "0.0.0.0",
        "224.0.0.1",
        "240.0.0.1",
        "::1",
        "::",
        "fe80::1",
        "fc00::1",
        "fd00:ec2::254",
        "::ffff:10.0.0.1",
        "::ffff:127.0.0.1",
        "64:ff9b::a00:1",
        "ff02::1",
    ],
)
def test_it_refuses_every_address_that_is_not_public(address):
    assert address_refusal(ipaddress.ip_address(address))


@pytest.mark.parametrize("address", ["162.159.135.232", "2606:4700::6810:85e5", "8.8.8.8"])
def test_it_accepts_public_addresses(address):
    assert address_refusal(ipaddress.ip_address(address)) == ""


def resolving_to(*addresses):
    def resolve(host, port, **_kw):
        family = {4: socket.AF_INET, 6: socket.AF_INET6}
        return [
            (family[ipaddress.ip_address(a).version], socket.SOCK_STREAM, 6, "", (a, port))
            for a in addresses
        ]

    return resolve


def test_a_host_is_refused_if_any_of_its_addresses_is_private():
    resolve = resolving_to("162.159.135.232", "10.0.0.5")
    with pytest.raises(Refused) as refused:
        url_check("https://discord.com/api/webhooks/1/x", allow_private=False, resolver=resolve)
    assert refused.value.code == webhook_guard.PRIVATE
    assert "10.0.0.5" in refused.value.detail


def test_a_host_of_public_addresses_passes():
    resolve = resolving_to("162.159.135.232")
    target = url_check(
        "https://discord.com/api/webhooks/1/x", allow_private=False, resolver=resolve
    )
    assert (target.host, target.port, target.path) == ("discord.com", 443, "/api/webhooks/1/x")


@pytest.mark.parametrize(
    ("url", "code"),
    [
        ("http://discord.com/api/webhooks/1/x", webhook_guard.NOT_HTTPS),
        ("ftp://discord.com/x", webhook_guard.NOT_HTTPS),
        ("discord.com/api/webhooks/1/x", webhook_guard.NOT_HTTPS),
        ("https:///nohost", webhook_guard.BAD_URL),
        ("https://user:pw@discord.com/api/webhooks/1/x", webhook_guard.BAD_URL),
        ("https://[::1]/x", webhook_guard.PRIVATE),
        ("https://127.0.0.1/x", webhook_guard.PRIVATE),
        ("https://2130706433/x", webhook_guard.UNRESOLVED),
    ],
)
def test_it_refuses_what_is_not_an_https_address_of_a_public_host(url, code):
    def resolve(host, port, **_kw):
        raise socket.gaierror("not found")

    with pytest.raises(Refused) as refused:
        url_check(url, allow_private=False, resolver=resolve)
    assert refused.value.code == code


def test_a_post_to_a_refused_address_connects_nowhere():
    calls = []

    class Transport(webhook_guard.httpx.BaseTransport):
        def handle_request(self, request):
            calls.append(request)
            return webhook_guard.httpx.Response(204)

    answer = webhook_guard.json_post(
        "https://localhost/api/webhooks/1/x",
        {"content": "hi"},
        allow_private=False,
        resolver=resolving_to("127.0.0.1"),
        transport=Transport(),
    )
    assert not answer.ok
    assert answer.error.startswith("refused address")
    assert calls == []


def test_the_post_goes_to_the_checked_address_with_the_host_name():
    """Pinned: a second DNS answer (rebinding) is never asked; TLS is verified for the name."""
    seen = []

    class Transport(webhook_guard.httpx.BaseTransport):
        def handle_request(self, request):
            seen.append(request)
            return webhook_guard.httpx.Response(302, headers={"Location": "http://10.0.0.1/"})

    answers = iter([resolving_to("162.159.135.232"), resolving_to("10.0.0.1")])
    answer = webhook_guard.json_post(
        "https://discord.com/api/webhooks/1/x",
        {"content": "hi"},
        allow_private=False,
        resolver=lambda *a, **k: next(answers)(*a, **k),
        transport=Transport(),
    )
    [request] = seen  # the redirect is not followed
    assert answer.status == 302
    assert not answer.ok
    assert request.url.host == "162.159.135.232"
    assert request.headers["Host"] == "discord.com"
    assert request.extensions["sni_hostname"] == "discord.com"
