"""Worker "hosts" for the integration tests: each one a network namespace of this machine, with
a veth pair to the root namespace, where a TCP forwarder of the test hands its connections to
PostgreSQL and Redis (both listen on 127.0.0.1 only; pg_hba sees a local connection). A process
started in the namespace reaches the database and the broker at the host side's address, as a
worker on another machine reaches them over the network; killing every process of the namespace
and taking its link down is that machine lost.

Network namespaces need root and iproute2's `ip netns`: `netns_missing()` says what is absent.
"""

import asyncio
import contextlib
import ipaddress
import os
import random
import shutil
import signal
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator

# 10.231.0.0/16, cut in /30 links: the host side gets .1 of its link, the namespace .2.
LINKS = ipaddress.ip_network("10.231.0.0/16")


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], capture_output=True, text=True, timeout=30, check=check)


def netns_missing() -> str | None:
    """What network namespaces lack here (completes "needs ..."), or None."""
    if os.geteuid() != 0:
        return "root (the worker hosts are network namespaces of this machine)"
    if shutil.which("ip") is None:
        return "iproute2's `ip netns` (apt-get install iproute2)"
    probe = f"gtprobe-{uuid.uuid4().hex[:8]}"
    made = _ip("netns", "add", probe, check=False)
    if made.returncode != 0:
        return f"`ip netns add` to work (it says: {made.stderr.strip()})"
    _ip("netns", "del", probe, check=False)
    return None


def _addresses_in_use() -> set[str]:
    listing = _ip("-o", "-4", "addr", "show").stdout
    return {word.split("/")[0] for line in listing.splitlines() for word in line.split()[3:4]}


def free_link() -> tuple[str, str]:
    """(host side, namespace side) addresses of a /30 no interface of this machine uses: each
    test run (and each pytest-xdist worker) picks its own at random."""
    used = _addresses_in_use()
    while True:
        link = random.randrange(1, LINKS.num_addresses // 4 - 1)
        base = LINKS.network_address + 4 * link
        outside, inside = str(base + 1), str(base + 2)
        if outside not in used and inside not in used:
            return outside, inside


class Forwarder:
    """TCP forwarders in a thread of their own: (listen address, port) -> 127.0.0.1:port."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.servers: list[asyncio.Server] = []
        self.writers: set[asyncio.StreamWriter] = set()

    def listen(self, address: str, port: int) -> None:
        async def serve() -> asyncio.Server:
            return await asyncio.start_server(
                lambda reader, writer: self._pipe_both(reader, writer, port), address, port
            )

        self.servers.append(asyncio.run_coroutine_threadsafe(serve(), self.loop).result(10))

    async def _pipe_both(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, port: int
    ) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            writer.close()
            return
        self.writers |= {writer, up_writer}
        with contextlib.suppress(asyncio.CancelledError):  # the forwarder closing
            await asyncio.gather(
                self._pipe(reader, up_writer), self._pipe(up_reader, writer), return_exceptions=True
            )

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            self.writers.discard(writer)
            with contextlib.suppress(Exception):
                writer.close()

    def close(self) -> None:
        async def shut() -> None:
            for server in self.servers:
                server.close()
            for writer in list(self.writers):
                writer.close()
            pipes = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
            for task in pipes:
                task.cancel()
            await asyncio.gather(*pipes, return_exceptions=True)

        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(shut(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        if not self.thread.is_alive():
            self.loop.close()


class Host:
    """A network namespace with its veth pair; the forwarder listens on its host side for
    PostgreSQL (5432) and Redis (6379)."""

    def __init__(self, label: str, forwarder: Forwarder) -> None:
        tag = uuid.uuid4().hex[:6]
        self.label = label
        self.namespace = f"gt-{label}-{tag}"
        self.outside_link = f"gt{label}{tag}"[:15]  # interface names: 15 characters at most
        self.inside_link = f"gt{label}{tag}n"[:15]
        self.outside, self.inside = free_link()
        _ip("netns", "add", self.namespace)
        try:
            _ip("link", "add", self.outside_link, "type", "veth", "peer", "name", self.inside_link)
            _ip("link", "set", self.inside_link, "netns", self.namespace)
            _ip("addr", "add", f"{self.outside}/30", "dev", self.outside_link)
            _ip("link", "set", self.outside_link, "up")
            _ip("-n", self.namespace, "addr", "add", f"{self.inside}/30", "dev", self.inside_link)
            _ip("-n", self.namespace, "link", "set", self.inside_link, "up")
            _ip("-n", self.namespace, "link", "set", "lo", "up")
            for port in (5432, 6379):
                forwarder.listen(self.outside, port)
        except BaseException:
            self.remove()
            raise

    def command(self, *command: str) -> list[str]:
        """The command run inside this host's namespace."""
        return ["ip", "netns", "exec", self.namespace, *command]

    def url(self, url: str) -> str:
        """A 127.0.0.1 address of this machine as this host reaches it."""
        return url.replace("127.0.0.1", self.outside).replace("localhost", self.outside)

    def pids(self) -> list[int]:
        listing = _ip("netns", "pids", self.namespace, check=False).stdout
        return [int(pid) for pid in listing.split()]

    def unplug(self) -> None:
        """The host's link goes down: what it sends from now on reaches nobody."""
        _ip("link", "set", self.outside_link, "down", check=False)

    def kill(self, timeout: float = 30) -> list[int]:
        """SIGKILL every process of the namespace, until none is left; their pids."""
        killed: list[int] = []
        deadline = time.monotonic() + timeout
        while (pids := self.pids()) and time.monotonic() < deadline:
            for pid in pids:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                killed.append(pid)
            time.sleep(0.1)
        assert not self.pids(), f"processes of {self.namespace} outlived SIGKILL"
        return sorted(set(killed))

    def remove(self) -> None:
        """Kill whatever still runs in it and delete the namespace and both ends of the veth."""
        with contextlib.suppress(Exception):
            self.kill()
        _ip("netns", "del", self.namespace, check=False)
        _ip("link", "del", self.outside_link, check=False)


@contextlib.contextmanager
def hosts(*labels: str) -> Iterator[dict[str, Host]]:
    """Hosts named by ``labels``, removed afterwards whatever happened (namespaces, veths,
    processes, the forwarder)."""
    forwarder = Forwarder()
    made: dict[str, Host] = {}
    try:
        for label in labels:
            made[label] = Host(label, forwarder)
        yield made
    finally:
        for host in made.values():
            host.remove()
        forwarder.close()
