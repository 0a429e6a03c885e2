"""Fixtures of the SDK's tests.

``workbench``: the real workbench `node scripts/test.mjs python` starts (a production build of
the web app and a worker, on Postgres and Redis; scripts/lib/workbench.mjs) with a fresh user, a
project and a READ+WRITE token of it, and a second project with its own WRITE token
(scripts/sdk-python-fixture.ts). It reads back what the SDK sent through the REST API. Tests that
use it are skipped when PARAVT_TEST_URL is not set (pytest run by hand without the workbench).

``spool_dir``: an empty spool directory per test. ``proxy``: a TCP forwarder to the workbench
that can refuse connections (``down()``) and accept them again (``up()``): the server
"unreachable mid-run". ``stub``: a local stand-in of the ingestion API answering what a test
scripts (429 with Retry-After, 5xx, 422), for what the real server cannot be made to do on cue.
``run_python``: runs code in a fresh interpreter (another trainer process) with the SDK importable.
"""

from __future__ import annotations

import email.utils
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

import pytest

SDK_DIR = Path(__file__).resolve().parent.parent
if str(SDK_DIR) not in sys.path:
    sys.path.insert(0, str(SDK_DIR))

# The SDK's settings come from the environment too: tests set them explicitly, nothing leaks in
# from the developer's shell (a real token, a rank of a launcher).
_LEAKY = (
    "PARAVT_API_URL",
    "PARAVT_API_TOKEN",
    "PARAVT_URL",
    "PARAVT_TOKEN",
    "PARAVT_PROJECT",
    "PARAVT_RUN_ID",
    "PARAVT_SPOOL_DIR",
    "PARAVT_MODE",
    "RANK",
    "LOCAL_RANK",
)


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch, tmp_path):
    for var in _LEAKY:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("PARAVT_CONFIG", str(tmp_path / "no-login.json"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def unique(prefix: str = "run") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


class Workbench:
    def __init__(self, url: str, project: str, token: str, other_project: str, other_token: str) -> None:
        self.url = url
        self.project = project
        self.token = token
        self.other_project = other_project
        self.other_token = other_token

    def get(self, path: str, query: Optional[List[Tuple[str, Any]]] = None) -> Any:
        q = f"?{urllib.parse.urlencode(query)}" if query else ""
        req = urllib.request.Request(
            f"{self.url}/api/v1{path}{q}", headers={"authorization": f"Bearer {self.token}"}
        )
        with urllib.request.urlopen(req, timeout=60) as res:
            return json.load(res)

    def run(self, run_id: str) -> dict:
        return self.get(f"/projects/{self.project}/runs/{run_id}")

    def runs_named(self, name: str) -> List[dict]:
        return [r for r in self.get(f"/projects/{self.project}/runs", [("limit", 200)]) if r["name"] == name]

    def metric_counts(self, run_id: str) -> Dict[str, int]:
        return {m["name"]: m["count"] for m in self.get(f"/projects/{self.project}/runs/{run_id}/metric-names")}

    def metric_points(self, run_id: str, names: List[str]) -> Dict[str, Dict[int, float]]:
        """name -> step -> value, every page of the JSON export."""
        out: Dict[str, Dict[int, float]] = {n: {} for n in names}
        after: Optional[int] = None
        while True:
            query = [("names", n) for n in names] + [("format", "json")]
            if after is not None:
                query.append(("afterStep", after))
            page = self.get(f"/projects/{self.project}/runs/{run_id}/metrics/export", query)
            for row in json.loads(page["content"] or "[]"):
                for n in names:
                    if n in row:
                        out[n][row["step"]] = row[n]
            if page["nextAfterStep"] is None:
                return out
            after = page["nextAfterStep"]

    def episodes(self, run_id: str) -> List[dict]:
        """Every episode of the run with its full trajectory."""
        out: List[dict] = []
        cursor: Optional[str] = None
        while True:
            query: List[Tuple[str, Any]] = [("limit", 100)] + ([("cursor", cursor)] if cursor else [])
            page = self.get(f"/projects/{self.project}/runs/{run_id}/episodes", query)
            out.extend(page["items"])
            cursor = page["nextCursor"]
            if not cursor:
                return out

    def step_rollouts(self, run_id: str, step: int) -> List[dict]:
        return self.get(f"/projects/{self.project}/runs/{run_id}/steps/{step}/rollouts")["items"]


@pytest.fixture(scope="session")
def workbench() -> Workbench:
    env = os.environ
    if not env.get("PARAVT_TEST_URL"):
        pytest.skip("no workbench: run `node scripts/test.mjs python` (PARAVT_TEST_URL is not set)")
    return Workbench(
        env["PARAVT_TEST_URL"],
        env["PARAVT_TEST_PROJECT"],
        env["PARAVT_TEST_TOKEN"],
        env["PARAVT_TEST_OTHER_PROJECT"],
        env["PARAVT_TEST_OTHER_TOKEN"],
    )


@pytest.fixture
def spool_dir(tmp_path) -> Path:
    d = tmp_path / "spool"
    d.mkdir()
    return d


def spool_files(directory: Path) -> List[Path]:
    return sorted(p for p in directory.iterdir() if p.name.endswith(".jsonl"))


# ----- another trainer process ---------------------------------------------------------------------


@pytest.fixture
def run_python(tmp_path) -> Callable[..., subprocess.CompletedProcess]:
    def run(
        code: str, env: Optional[Dict[str, str]] = None, args: Optional[List[str]] = None, timeout: float = 180
    ) -> subprocess.CompletedProcess:
        full_env = {k: v for k, v in os.environ.items() if k not in _LEAKY}
        full_env.update(
            {
                "PYTHONPATH": os.pathsep.join([str(SDK_DIR), full_env.get("PYTHONPATH", "")]).rstrip(os.pathsep),
                "PARAVT_CONFIG": str(tmp_path / "no-login.json"),
                "XDG_CACHE_HOME": str(tmp_path / "cache"),
            }
        )
        full_env.update(env or {})
        return subprocess.run(
            [sys.executable, "-c", code, *(args or [])], env=full_env, capture_output=True, text=True, timeout=timeout
        )

    return run


# ----- a workbench that can be made unreachable --------------------------------------------------


class Proxy:
    """Forwards TCP connections from its own port to the workbench. ``down()`` closes the port
    (new connections are refused, open ones cut), ``up()`` listens on the same port again."""

    def __init__(self, target_url: str) -> None:
        u = urllib.parse.urlsplit(target_url)
        self.target = (u.hostname or "127.0.0.1", u.port or 80)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._listener: Optional[socket.socket] = None
        self._open: set = set()
        self._lock = threading.Lock()
        self.up()

    def up(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def down(self) -> None:
        if self._listener is not None:
            # shutdown() first: close() alone leaves a listener blocked in accept() accepting.
            try:
                self._listener.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            self._listener.close()
            self._listener = None
        with self._lock:
            for s in list(self._open):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()
            self._open.clear()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.target, timeout=10)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self._lock:
                self._open.update((client, upstream))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
            with self._lock:
                self._open.discard(src)
                self._open.discard(dst)


@pytest.fixture
def proxy(workbench):
    p = Proxy(workbench.url)
    yield p
    p.down()


# ----- a scripted stand-in of the ingestion API ---------------------------------------------------


class Stub:
    """Answers the ingestion calls; ``script`` holds (status, headers, body) answers to give to the
    next metric/rollout batches before falling back to accepting everything as stored.
    ``clock_offset``: seconds its ``Date`` header is ahead of this machine's clock (a workbench
    whose clock differs from the trainer's). ``answer_item(kind, item)``: the per-item result of
    a stored item instead of a plain "stored" (a reason the real server gives)."""

    def __init__(self) -> None:
        self.script: List[Tuple[int, Dict[str, str], Any]] = []
        self.clock_offset = 0.0
        self.answer_item: Optional[Callable[[str, dict], dict]] = None
        #: (monotonic time, method, path, parsed body) of every request.
        self.requests: List[Tuple[float, str, str, Any]] = []
        self.statuses: List[dict] = []
        self.stored: Dict[str, dict] = {}
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def date_time_string(self, timestamp: Optional[float] = None) -> str:
                # The Date header send_response() writes: the stub's own clock.
                return email.utils.formatdate((timestamp or time.time()) + stub.clock_offset, usegmt=True)

            def _answer(self, status: int, body: Any, headers: Optional[Dict[str, str]] = None) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                stub.requests.append((time.monotonic(), "GET", self.path, None))
                if self.path.endswith("/whoami"):
                    self._answer(200, {"userId": "u", "token": {"id": "t", "projectId": "p1", "scopes": ["WRITE"]}})
                else:
                    self._answer(404, {"message": "Not found"})

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = json.loads(self.rfile.read(length) or b"null")
                stub.requests.append((time.monotonic(), "POST", self.path, body))
                if self.path.endswith("/external-runs"):
                    self._answer(200, {"run": {"id": "run1"}, "datasetId": "d1", "created": True})
                    return
                if self.path.endswith("/status"):
                    stub.statuses.append(body)
                    self._answer(200, {"id": "run1", "status": body["status"]})
                    return
                if stub.script:
                    status, headers, answer = stub.script.pop(0)
                    self._answer(status, answer, headers)
                    return
                results = []
                kind = self.path.rsplit("/", 1)[-1]
                for item in body["items"]:
                    seen = item["id"] in stub.stored
                    stub.stored[item["id"]] = item
                    if seen:
                        results.append({"id": item["id"], "status": "duplicate"})
                    elif stub.answer_item is not None:
                        results.append({"id": item["id"], **stub.answer_item(kind, item)})
                    else:
                        results.append({"id": item["id"], "status": "stored"})
                counts = {s: sum(r["status"] == s for r in results) for s in ("stored", "duplicate", "conflict", "invalid")}
                self._answer(200, {"counts": counts, "items": results})

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def batches(self) -> List[Tuple[float, str, Any]]:
        return [(t, p, b) for t, m, p, b in self.requests if m == "POST" and p.endswith(("/metrics", "/rollouts"))]


@pytest.fixture
def stub():
    s = Stub()
    yield s
    s.server.shutdown()
    s.server.server_close()
