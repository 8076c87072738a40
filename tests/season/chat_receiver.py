"""A chat channel for the tests: a real HTTP server on 127.0.0.1 in a thread, answering the
webhooks' posts as scripted (a status, a Retry-After, a delay) and keeping what it got."""

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest


@dataclass(frozen=True)
class Reply:
    status: int = 204
    retry_after: str | None = None
    #: Seconds to wait before answering (a receiver that times out).
    delay: float = 0.0
    body: str = ""


@dataclass
class Receiver:
    url: str
    #: The answers to give, in order; then 204 to every post.
    replies: list[Reply] = field(default_factory=list)
    #: Every post's JSON, in the order received (answered or not).
    posts: list[dict[str, Any]] = field(default_factory=list)
    hosts: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def answered(self) -> list[dict[str, Any]]:
        """The posts it answered 2xx to."""
        return [post for post in self.posts if post.get("_status", 0) < 300]


def _handler(receiver: Receiver) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            data = json.loads(self.rfile.read(length) or b"{}")
            with receiver.lock:
                reply = receiver.replies.pop(0) if receiver.replies else Reply()
                receiver.posts.append(data | {"_status": reply.status})
                receiver.hosts.append(self.headers.get("Host", ""))
            if reply.delay:
                time.sleep(reply.delay)
            try:
                self.send_response(reply.status)
                if reply.retry_after is not None:
                    self.send_header("Retry-After", reply.retry_after)
                body = reply.body.encode()
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


@pytest.fixture
def receiver(settings: Any) -> Iterator[Receiver]:
    """A test receiver, with the setting that lets webhooks post to it (private addresses)."""
    settings.CHAT_HOOKS_ALLOW_PRIVATE = True
    got = Receiver(url="")
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(got))
    server.daemon_threads = True
    host, port = server.server_address[:2]
    got.url = f"http://{host}:{port}/api/webhooks/1/secret-token"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield got
    finally:
        server.shutdown()
        server.server_close()
