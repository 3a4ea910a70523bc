"""A small TCP proxy a test puts between one game server and Redis, to fail that one link as networks fail: each
chunk held back a while (`delay`), nothing going through either way while the connections stay open (`cut`: a
partition, the peers find out only by their own timeouts), then everything going through again (`restore`).

    proxy = Proxy(redis_port)            # listens on a port of its own: give the server redis://127.0.0.1:PORT
    proxy.cut(); ...; proxy.restore()
    proxy.close()
"""

from __future__ import annotations

import selectors
import socket
import threading
import time

LOOPBACK = "127.0.0.1"


class Proxy:
    def __init__(self, target_port: int) -> None:
        self.target = (LOOPBACK, target_port)
        self._listener = socket.socket()
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind((LOOPBACK, 0))
        self._listener.listen(64)
        self._listener.setblocking(False)
        self.port = self._listener.getsockname()[1]
        self.delay = 0.0
        self._cut = False
        self._spoiled: set[socket.socket] = set()     # connections that lost bytes in a cut: closed on restore
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._listener, selectors.EVENT_READ, None)
        self._pairs: dict[socket.socket, socket.socket] = {}
        self._late: list[tuple[float, socket.socket, bytes]] = []
        self._closing: list[socket.socket] = []
        self._lock = threading.Lock()
        self._running = True
        self._thread = threading.Thread(target=self._run, name="redis-proxy", daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"redis://{LOOPBACK}:{self.port}/0"

    def cut(self) -> None:
        """Nothing goes through either way from now on (the connections stay open, as in a partition)."""
        with self._lock:
            self._cut = True

    def restore(self) -> None:
        """Everything goes through again; connections that lost bytes meanwhile are closed (as their peers would
        have, timing out), new ones work."""
        with self._lock:
            self._cut = False
            self._closing.extend(self._spoiled)
            self._spoiled = set()

    def close(self) -> None:
        self._running = False
        self._thread.join(2)
        for sock in list(self._pairs):
            self._close(sock)
        self._listener.close()

    def _run(self) -> None:
        while self._running:
            for key, _events in self._selector.select(0.01):
                if key.data is None:
                    self._accept()
                else:
                    self._pass(key.fileobj)
            now = time.monotonic()
            with self._lock:
                due = [item for item in self._late if item[0] <= now]
                self._late = [item for item in self._late if item[0] > now]
                closing, self._closing = self._closing, []
            for sock in closing:
                self._close(sock)
            for _at, sock, data in due:
                self._send(sock, data)

    def _accept(self) -> None:
        try:
            client, _ = self._listener.accept()
        except OSError:
            return
        try:
            server = socket.create_connection(self.target, timeout=2)
        except OSError:
            client.close()
            return
        for one, other in ((client, server), (server, client)):
            one.setblocking(False)
            self._pairs[one] = other
            self._selector.register(one, selectors.EVENT_READ, "link")

    def _pass(self, sock: socket.socket) -> None:
        try:
            data = sock.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self._close(sock)
            return
        other = self._pairs.get(sock)
        if other is None:
            return
        with self._lock:
            if self._cut:
                self._spoiled.update((sock, other))     # dropped on the floor
                return
            if self.delay > 0:
                self._late.append((time.monotonic() + self.delay, other, data))
                return
        self._send(other, data)

    def _send(self, sock: socket.socket, data: bytes) -> None:
        if sock not in self._pairs:
            return
        try:
            sock.setblocking(True)
            sock.settimeout(2)
            sock.sendall(data)
            sock.setblocking(False)
        except OSError:
            self._close(sock)

    def _close(self, sock: socket.socket) -> None:
        other = self._pairs.pop(sock, None)
        for one in (sock, other):
            if one is None:
                continue
            self._pairs.pop(one, None)
            try:
                self._selector.unregister(one)
            except (KeyError, ValueError):
                pass
            one.close()
