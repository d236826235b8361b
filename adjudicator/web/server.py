"""The local web server of `cloudspire serve`: the page's static files and its JSON API (api.py).

The standard library's threading HTTP server: one thread per request, so that the page stays
responsive while a question is solved. Whole-step questions run as jobs in their own threads; the
page polls a job for its progress. Requests are bounded in size, questions in time (api.Limits),
and the jobs kept at once in number.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
import time
import uuid
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlsplit

from adjudicator.solving.solve import MARGIN, TimedOut
from adjudicator.web import api, lan

STATIC = {"/": "index.html", "/index.html": "index.html", "/board.js": "board.js", "/forms.js": "forms.js",
          "/style.css": "style.css"}
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8"}
MAX_JOBS = 8  # whole-step questions kept at once, running or answered; the oldest answered goes first
HOST = re.compile(r"[A-Za-z0-9.:\[\]-]{1,100}")  # a Host header a shared link may carry
MAX_SHARED = 64  # positions shared by a short link at once; the oldest goes first
MAX_RUNNING = 2  # questions solving at once: the solver takes a core each


@dataclass
class Job:
    """A whole-step question being answered: how many results so far, then the answer or the error.

    A question still busy MARGIN seconds past its ``seconds`` (in a grounding, which clingo cannot
    interrupt) is answered "timed out" at once; its thread works on, still counted as ``working``
    (a core is busy), and what it then finds is dropped."""

    id: str
    seconds: float
    started: float = field(default_factory=time.monotonic)
    found: int = 0
    answer: dict[str, Any] | None = None
    error: dict[str, Any] | None = None
    picture: Callable[[int | None, bool], str] | None = None  # draws outcome N (None: the summary)
    working: bool = True  # its thread has not returned
    lock: threading.Lock = field(default_factory=threading.Lock)

    def _give_up(self) -> None:
        if self.working and time.monotonic() - self.started > self.seconds + MARGIN:
            self.settle(error=api.timed_out(TimedOut(self.seconds)).as_json())

    def settle(self, answer: dict[str, Any] | None = None, error: dict[str, Any] | None = None,
               picture: Callable[[int | None, bool], str] | None = None) -> None:
        """The answer or the error, unless the job was already settled (given up for its time)."""
        with self.lock:
            if self.answer is None and self.error is None:
                self.answer, self.error, self.picture = answer, error, picture

    def as_json(self) -> dict[str, Any]:
        self._give_up()
        state = "failed" if self.error else "done" if self.answer is not None else "running"
        return {"job": self.id, "state": state, "found": self.found,
                "seconds": round(time.monotonic() - self.started, 1), "answer": self.answer, **(self.error or {})}


class Board(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], limits: api.Limits, position: str | None,
                 public: str | None) -> None:
        super().__init__(address, Handler)
        self.limits = limits
        self.position = position  # the text of the file `serve` was given, opened by the page at once
        self.public = public  # the page's address for other devices (serve --lan), else None
        self.jobs: dict[str, Job] = {}
        self.shared: dict[str, str] = {}  # short link id -> position file text
        self.overrunning: set[threading.Event] = set()  # one-off calls answered "timed out", still working
        self.lock = threading.Lock()

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{'127.0.0.1' if host == '0.0.0.0' else host}:{port}/"  # every address: this machine's

    def share(self, body: dict[str, Any], here: str) -> dict[str, Any]:
        """A valid position kept under a short id: its link (on the address phones reach, when
        serving to the network; else ``here``, where the page was opened) and the link's QR code. A
        whole file in a link is often too long for a QR code."""
        api.load(body)  # a shared position is one the loader accepts
        text = api.position_text(body)
        key = hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]
        with self.lock:
            self.shared.pop(key, None)
            self.shared[key] = text
            while len(self.shared) > MAX_SHARED:
                del self.shared[next(iter(self.shared))]
        url = f"{self.public or here}#p={key}"
        return {"id": key, "url": url, "qr": lan.qr_svg(url)}

    def answer_call(self, call: Callable[[dict[str, Any], api.Limits], dict[str, Any]],
                    body: dict[str, Any]) -> dict[str, Any]:
        """A one-off call's answer, or TimedOut once it is MARGIN seconds past its time (in a
        grounding, which clingo cannot interrupt): its thread works on, counted as busy like a job
        given up for its time, and what it then finds is dropped."""
        outcome: dict[str, Any] = {}
        done = threading.Event()

        def run() -> None:
            try:
                outcome["answer"] = call(body, self.limits)
            except Exception as error:  # raised again in the request's own thread
                outcome["error"] = error
            finally:
                with self.lock:
                    self.overrunning.discard(done)
                done.set()

        threading.Thread(target=run, daemon=True).start()
        if not done.wait(self.limits.seconds + MARGIN):
            with self.lock:
                if not done.is_set():
                    self.overrunning.add(done)
            raise TimedOut(self.limits.seconds)
        if "error" in outcome:
            raise outcome["error"]
        return outcome["answer"]  # type: ignore[no-any-return]

    def start_job(self, body: dict[str, Any]) -> Job:
        position, question, ai, limit = api.step_question(body, self.limits)
        with self.lock:
            # A job or a one-off call given up for its time still works: a core is busy.
            running = sum(j.working for j in self.jobs.values()) + len(self.overrunning)
            if running >= MAX_RUNNING:
                raise api.ApiError("busy", f"{running} questions are being answered; ask again when one is done",
                                   status=503)
            answered = [k for k, j in self.jobs.items() if not j.working]
            while len(self.jobs) >= MAX_JOBS and answered:
                del self.jobs[answered.pop(0)]
            job = Job(uuid.uuid4().hex, self.limits.seconds)
            self.jobs[job.id] = job

        def progress(found: int) -> None:
            job.found = found

        def run() -> None:
            try:
                answer, picture = api.answer_step(position, question, ai, limit, self.limits, progress)
                job.settle(answer, picture=picture)
            except TimedOut as error:
                job.settle(error=api.timed_out(error).as_json())
            except Exception as error:  # a bug: said as such, never a traceback on the page
                job.settle(error=_internal(error).as_json())
            finally:
                job.working = False

        threading.Thread(target=run, daemon=True).start()
        return job


def _internal(error: Exception) -> api.ApiError:
    detail = " ".join(f"{type(error).__name__}: {error}".split())
    return api.ApiError("internal", f"internal error, a bug in the adjudicator ({detail}); please report it "
                        "with the position file", status=500)


class Handler(BaseHTTPRequestHandler):
    server: Board
    protocol_version = "HTTP/1.1"
    timeout = 30  # seconds a connection may wait between bytes: a stalled client frees its thread

    def log_message(self, format: str, *args: Any) -> None:
        if os.environ.get("CLOUDSPIRE_DEBUG"):
            super().log_message(format, *args)

    def _send(self, status: int, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        self.wfile.write(body)

    def _json(self, status: int, data: Any) -> None:
        self._send(status, json.dumps(data, ensure_ascii=False).encode("utf-8"), "application/json")

    def do_GET(self) -> None:
        path = urlsplit(self.path).path
        if path in STATIC:
            name = STATIC[path]
            data = resources.files("adjudicator.web").joinpath("static", name).read_bytes()
            self._send(HTTPStatus.OK, data, TYPES[Path(name).suffix])
        elif path == "/api/catalogue":
            self._json(HTTPStatus.OK, api.catalogue_call({}, self.server.limits))
        elif path == "/api/start":
            self._json(HTTPStatus.OK, {"yaml": self.server.position})
        elif path.startswith("/api/shared/"):
            text = self.server.shared.get(path.removeprefix("/api/shared/"))
            if text is None:
                error = api.ApiError("link", "no such shared position (the server restarted, or shared too long ago)",
                                     status=404)
                self._json(error.status, error.as_json())
            else:
                self._json(HTTPStatus.OK, {"yaml": text})
        elif path.startswith("/api/jobs/"):
            name, _, rest = path.removeprefix("/api/jobs/").partition("/")
            job = self.server.jobs.get(name)
            if job is None:
                self._json(HTTPStatus.NOT_FOUND, api.ApiError("job", "no such question (answered long ago?)").as_json())
            elif rest:
                self._picture(job, rest)
            else:
                self._json(HTTPStatus.OK, job.as_json())
        else:
            self._json(HTTPStatus.NOT_FOUND, api.ApiError("path", f"no page {path!r}").as_json())

    def _picture(self, job: Job, rest: str) -> None:
        """GET /api/jobs/ID/outcomes/N or /summary [?narrow=1]: outcome N of the answer, or where each
        unit can end, drawn: {"svg": ...}."""
        match = re.fullmatch(r"outcomes/(\d{1,4})|summary", rest)
        if match is None or job.picture is None:
            error = api.ApiError("path", f"no picture {rest!r} of this question (answered yet?)", status=404)
            return self._json(error.status, error.as_json())
        narrow = parse_qs(urlsplit(self.path).query).get("narrow") == ["1"]
        try:
            self._json(HTTPStatus.OK, {"svg": job.picture(int(match.group(1)) if match.group(1) else None, narrow)})
        except api.ApiError as error:
            self._json(error.status, error.as_json())

    def do_POST(self) -> None:
        try:
            body = self._body()
            name = urlsplit(self.path).path.removeprefix("/api/")
            if name == "jobs":
                self._json(HTTPStatus.ACCEPTED, self.server.start_job(body).as_json())
                return
            if name == "share":
                host = self.headers.get("Host") or ""
                here = f"http://{host if HOST.fullmatch(host) else '127.0.0.1'}/"
                self._json(HTTPStatus.OK, self.server.share(body, here))
                return
            call = api.CALLS.get(name)
            if call is None:
                raise api.ApiError("path", f"no call {name!r}; calls: {', '.join([*api.CALLS, 'jobs', 'share'])}", status=404)
            self._json(HTTPStatus.OK, self.server.answer_call(call, body))
        except api.ApiError as error:
            self._json(error.status, error.as_json())
        except TimedOut as error:
            error_json = api.timed_out(error)
            self._json(error_json.status, error_json.as_json())
        except Exception as error:
            if os.environ.get("CLOUDSPIRE_DEBUG"):
                raise
            self._json(HTTPStatus.INTERNAL_SERVER_ERROR, _internal(error).as_json())

    def _body(self) -> dict[str, Any]:
        try:
            size = int(self.headers.get("Content-Length", ""))
        except ValueError:
            raise api.ApiError("request", "the request needs a Content-Length", status=411) from None
        if size < 0:
            self.close_connection = True
            raise api.ApiError("request", f"a Content-Length of {size} is no size", status=400)
        if size > self.server.limits.body:
            # Unread, the rest of the body would be taken for the next request on this connection.
            self.close_connection = True
            raise api.ApiError("request", f"the request has {size} bytes; at most {self.server.limits.body}",
                               status=413)
        # A slow or broken client is bad input, not a bug: the body must arrive, whole, in time.
        try:
            raw = self.rfile.read(size)
        except TimeoutError:
            self.close_connection = True
            raise api.ApiError("request", f"the request body stalled: nothing came for {self.timeout} s",
                               status=408) from None
        if len(raw) < size:
            self.close_connection = True
            raise api.ApiError("request", f"the request body ended after {len(raw)} of {size} bytes")
        try:
            body = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise api.ApiError("request", f"malformed JSON: {error}") from None
        except RecursionError:
            raise api.ApiError("request", "the JSON nests too deeply") from None
        if not isinstance(body, dict):
            raise api.ApiError("request", "expected a JSON object")
        return body


def make_server(host: str, port: int, limits: api.Limits, position: str | None = None,
                public: str | None = None) -> Board:
    """``public``: the page's address for other devices, which shared links carry (serve --lan)."""
    return Board((host, port), limits, position, public)
