"""The guard of the chat webhooks (issue 34): a request to an address an organiser typed must not
reach the machine's own network (server-side request forgery). Plain Python and httpx, no
Django: the caller says whether private addresses are allowed (the test receivers only,
settings.CHAT_HOOKS_ALLOW_PRIVATE).

- only https (http too when private addresses are allowed: a test receiver on 127.0.0.1);
- the host is resolved once and refused if ANY of its addresses is loopback, private,
  link-local, multicast, reserved, unspecified, shared (CGNAT 100.64/10), an IPv4-mapped or
  NAT64 form of one, or a cloud's metadata address;
- the request goes to the address that was checked (pinned: a DNS answer that changes between
  the check and the connection cannot send it elsewhere), with the host name as the ``Host``
  header and the TLS server name, so the certificate is verified against the host name;
- no redirect is followed, the timeouts are short (connect 5 s, 10 s in all) and at most
  BODY_MAX bytes of the answer are read.
"""

from __future__ import annotations

import ipaddress
import json
import socket
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpx

CONNECT_TIMEOUT = 5.0
TOTAL_TIMEOUT = 10.0
#: The most of an answer read (a receiver's error text, to show the organiser).
BODY_MAX = 4096
URL_MAX = 500

#: The cloud metadata services (AWS, GCP, Azure: 169.254.169.254, also link-local; AWS's IPv6).
METADATA = frozenset(
    {ipaddress.ip_address("169.254.169.254"), ipaddress.ip_address("fd00:ec2::254")}
)
#: Shared address space (RFC 6598), which ``is_private`` does not cover in every Python.
CGNAT = ipaddress.ip_network("100.64.0.0/10")
#: The well-known NAT64 prefix: 64:ff9b::a.b.c.d reaches IPv4 a.b.c.d.
NAT64 = ipaddress.ip_network("64:ff9b::/96")

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[..., list[Any]]


class Refused(Exception):
    """An address the guard will not post to. ``code`` names the reason (the forms and the
    organiser's page translate it), ``detail`` says what was found."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail


# The reasons' codes.
NOT_HTTPS = "not-https"
BAD_URL = "bad-url"
UNRESOLVED = "unresolved"
PRIVATE = "private-address"


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    #: The path and query, as typed.
    path: str


@dataclass(frozen=True)
class Answer:
    """What a receiver answered (or why nothing came back: ``error``)."""

    status: int | None
    #: Seconds to wait before trying again (a 429's Retry-After), if it said.
    retry_after: float | None = None
    body: str = ""
    error: str = ""

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


def url_parse(url: str, *, allow_private: bool) -> Target:
    """The parts of ``url``; Refused when it is not https (or http with ``allow_private``), has
    no host, holds a user name or password, or is too long."""
    if len(url) > URL_MAX:
        raise Refused(BAD_URL, f"longer than {URL_MAX} characters")
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as error:
        raise Refused(BAD_URL, str(error)) from error
    schemes = ("https", "http") if allow_private else ("https",)
    if parts.scheme.lower() not in schemes:
        raise Refused(NOT_HTTPS, parts.scheme or "no scheme")
    if not parts.hostname:
        raise Refused(BAD_URL, "no host")
    if parts.username is not None or parts.password is not None:
        raise Refused(BAD_URL, "a user name or password in the address")
    scheme = parts.scheme.lower()
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return Target(
        scheme=scheme,
        host=parts.hostname.lower(),
        port=port or (443 if scheme == "https" else 80),
        path=path,
    )


def address_refusal(address: Address) -> str:
    """Why ``address`` is not a public one ("" when it is)."""
    if isinstance(address, ipaddress.IPv6Address):
        mapped = address.ipv4_mapped or address.sixtofour
        if mapped is not None:
            return address_refusal(mapped) or ""
        if address in NAT64:
            return address_refusal(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
    if address in METADATA:
        return "metadata"
    for name in (
        "is_loopback",
        "is_private",
        "is_link_local",
        "is_multicast",
        "is_reserved",
        "is_unspecified",
        "is_site_local",
    ):
        if getattr(address, name, False):
            return name.removeprefix("is_").replace("_", "-")
    if isinstance(address, ipaddress.IPv4Address) and address in CGNAT:
        return "shared"
    if not address.is_global:
        return "not-global"
    return ""


def host_resolve(
    target: Target, *, allow_private: bool, resolver: Resolver | None = None
) -> Address:
    """The address to connect to for ``target``: Refused unless every address its host
    resolves to is public (any address when ``allow_private``)."""
    resolver = resolver or socket.getaddrinfo
    try:
        literal: Address | None = ipaddress.ip_address(target.host.strip("[]"))
    except ValueError:
        literal = None
    if literal is not None:
        addresses = [literal]
    else:
        try:
            infos = resolver(target.host, target.port, type=socket.SOCK_STREAM)
        except (OSError, UnicodeError) as error:
            raise Refused(UNRESOLVED, f"{target.host}: {error}") from error
        addresses = []
        for info in infos:
            try:
                addresses.append(ipaddress.ip_address(str(info[4][0]).split("%")[0]))
            except ValueError:
                continue
        if not addresses:
            raise Refused(UNRESOLVED, target.host)
    if not allow_private:
        for address in addresses:
            why = address_refusal(address)
            if why:
                shown = str(address) if literal else f"{target.host} is {address}"
                raise Refused(PRIVATE, f"{shown} ({why})")
    return addresses[0]


def url_check(url: str, *, allow_private: bool, resolver: Resolver | None = None) -> Target:
    """``url``'s parts once the guard accepts it (Refused otherwise): what a form checks."""
    target = url_parse(url, allow_private=allow_private)
    host_resolve(target, allow_private=allow_private, resolver=resolver)
    return target


def _retry_after(value: str | None) -> float | None:
    if not value:
        return None
    try:
        return max(float(value), 0.0)
    except ValueError:
        return None


def json_post(
    url: str,
    payload: Mapping[str, Any],
    *,
    allow_private: bool,
    resolver: Resolver | None = None,
    transport: httpx.BaseTransport | None = None,
) -> Answer:
    """POST ``payload`` as JSON to ``url`` through the guard. Never raises for the network:
    a refused address, a timeout, a refused connection... come back as ``Answer.error``."""
    try:
        target = url_parse(url, allow_private=allow_private)
        address = host_resolve(target, allow_private=allow_private, resolver=resolver)
    except Refused as refused:
        return Answer(status=None, error=f"refused address ({refused})")
    shown = f"[{address}]" if address.version == 6 else str(address)
    pinned = f"{target.scheme}://{shown}:{target.port}{target.path}"
    default_port = 443 if target.scheme == "https" else 80
    host_header = target.host if target.port == default_port else f"{target.host}:{target.port}"
    body = json.dumps(payload, ensure_ascii=False).encode()
    # Each read waits at most what is left of TOTAL_TIMEOUT after the connection; the body's
    # loop below stops a receiver that trickles its answer.
    timeout = httpx.Timeout(TOTAL_TIMEOUT - CONNECT_TIMEOUT, connect=CONNECT_TIMEOUT)
    started = time.monotonic()
    try:
        with httpx.Client(
            timeout=timeout, follow_redirects=False, trust_env=False, transport=transport
        ) as client:
            request = client.build_request(
                "POST",
                pinned,
                content=body,
                headers={
                    "Host": host_header,
                    "Content-Type": "application/json",
                    "User-Agent": "GrandTour-webhooks/1",
                },
                extensions={"sni_hostname": target.host} if target.scheme == "https" else {},
            )
            response = client.send(request, stream=True)
            try:
                read = bytearray()
                for chunk in response.iter_bytes():
                    read.extend(chunk)
                    if len(read) >= BODY_MAX:
                        break
                    if time.monotonic() - started > TOTAL_TIMEOUT:
                        return Answer(status=None, error="timeout (the answer took too long)")
            finally:
                response.close()
            text = bytes(read[:BODY_MAX]).decode("utf-8", "replace")
            return Answer(
                status=response.status_code,
                retry_after=_retry_after(response.headers.get("Retry-After")),
                body=text,
            )
    except httpx.TimeoutException as error:
        return Answer(status=None, error=f"timeout ({type(error).__name__})")
    except httpx.ConnectError as error:
        return Answer(status=None, error=f"connection failed ({error})")
    except httpx.HTTPError as error:
        return Answer(status=None, error=f"{type(error).__name__} ({error})")
