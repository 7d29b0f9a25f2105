"""A real HTTP server on loopback for the tests of notify's channels (webhooks, Alertmanager, ntfy, the ping): it
records every request and answers as the test says (a status, a redirect, or not at all until released)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Request:
    method: str
    path: str
    headers: Message  # looked up case-insensitively, as HTTP's header names are
    body: bytes


@dataclass
class Server:
    url: str
    requests: list[Request] = field(default_factory=list)
    status: int = 200  # what every request is answered with
    location: str | None = None  # with a 3xx status: where it points
    hold: threading.Event | None = None  # set: answer; unset: keep the request waiting
    arrived: threading.Event = field(default_factory=threading.Event)  # a request came in

    def bodies(self) -> list[bytes]:
        return [r.body for r in self.requests]


@contextmanager
def serve() -> Iterator[Server]:
    """A server on 127.0.0.1 and a free port, for the duration of the block."""
    state: list[Server] = []

    class Handler(BaseHTTPRequestHandler):
        def _answer(self) -> None:
            server = state[0]
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            server.requests.append(Request(self.command, self.path, self.headers, body))
            server.arrived.set()
            if server.hold is not None:
                server.hold.wait(60)
            self.send_response(server.status)
            if server.location:
                self.send_header("Location", server.location)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        do_GET = do_POST = do_PUT = _answer

        def log_message(self, format: str, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    state.append(Server(f"http://127.0.0.1:{httpd.server_address[1]}"))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield state[0]
    finally:
        if state[0].hold is not None:
            state[0].hold.set()
        httpd.shutdown()
        httpd.server_close()
        thread.join(10)
