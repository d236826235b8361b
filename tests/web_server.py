"""A `cloudspire serve` server for the tests: on a free port, in a thread of the test process."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from adjudicator.web.api import Limits
from adjudicator.web.server import Board, make_server


@contextmanager
def running(limits: Limits = Limits(), position: str | None = None) -> Iterator[Board]:
    server = make_server("127.0.0.1", 0, limits, position)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def send(server: Board, path: str, body: Any = None, raw: bytes | None = None) -> tuple[int, Any]:
    """The status and the JSON answer of a call; ``raw`` sends those bytes as they are."""
    data = raw if raw is not None else None if body is None else json.dumps(body).encode("utf-8")
    request = urllib.request.Request(server.url.rstrip("/") + path, data=data,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())
