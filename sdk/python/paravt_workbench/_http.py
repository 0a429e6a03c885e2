"""The few ingestion calls of the REST API (docs/ingestion-format.md), over urllib.

Only the standard library: the SDK installs into any trainer environment without touching its
pinned packages. Every failure becomes an ``ApiError`` with the HTTP status (0 when no answer came),
the server's message, and the wait that ``Retry-After`` asked for. Every answer's ``Date`` goes to
the run's ``Clock`` (``_clock.py``), which tells how far this machine's clock is off.
"""

from __future__ import annotations

import email.utils
import http.client
import json
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, List, Optional

from ._clock import Clock
from ._version import __version__

USER_AGENT = f"paravt-python/{__version__}"


class ApiError(Exception):
    def __init__(
        self, status: int, message: str, body: Any = None, retry_after: Optional[float] = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.body = body
        #: Seconds the server asked to wait (Retry-After on 429 / 503).
        self.retry_after = retry_after

    @property
    def retryable(self) -> bool:
        """No answer, rate limited, or a server-side failure: worth trying again."""
        return self.status == 0 or self.status == 429 or self.status >= 500

    @property
    def issues(self) -> List[dict]:
        """The input problems of a 422 (zod issues with their paths), when the body names them."""
        issues = self.body.get("issues") if isinstance(self.body, dict) else None
        return [i for i in issues if isinstance(i, dict)] if isinstance(issues, list) else []


def parse_retry_after(value: Optional[str], clock_offset: float = 0.0) -> Optional[float]:
    """Seconds from a Retry-After header: a number of seconds or an HTTP date (the server's
    clock: ``clock_offset`` seconds ahead of this machine's)."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - (time.time() + clock_offset))


def _message(body: Any, status: int) -> str:
    m = body.get("message") if isinstance(body, dict) else None
    if isinstance(m, str) and m:
        # A 422 names its first problem's path, e.g. "items.3.values.bad name: Metric names use …".
        issues = body.get("issues") if isinstance(body, dict) else None
        if isinstance(issues, list) and issues and isinstance(issues[0], dict):
            first = issues[0]
            where = ".".join(str(p) for p in first.get("path", []))
            what = first.get("message", "")
            inner = first.get("issues")
            if isinstance(inner, list) and inner and isinstance(inner[0], dict) and inner[0].get("message"):
                what = f"{what}: {inner[0]['message']}"
            m = f"{m} ({where}: {what})" if where else f"{m} ({what})"
        return f"{m} (HTTP {status})"
    return f"HTTP {status}"


class Api:
    def __init__(self, base_url: str, token: str, timeout: float = 30.0, clock: Optional[Clock] = None) -> None:
        self.base_url = base_url
        self._token = token
        self.timeout = timeout
        #: The offset of the workbench's clock, measured from every answer.
        self.clock = clock if clock is not None else Clock()

    def request(self, method: str, path: str, body: Optional[bytes] = None, timeout: Optional[float] = None) -> Any:
        headers = {
            "authorization": f"Bearer {self._token}",
            "accept": "application/json",
            "user-agent": USER_AGENT,
        }
        if body is not None:
            headers["content-type"] = "application/json"
        req = urllib.request.Request(f"{self.base_url}/api/v1{path}", data=body, method=method, headers=headers)
        sent = time.time()
        try:
            with urllib.request.urlopen(req, timeout=timeout or self.timeout) as res:
                self.clock.observe(res.headers.get("date"), sent, time.time())
                raw = res.read()
        except urllib.error.HTTPError as e:
            self.clock.observe(e.headers.get("date"), sent, time.time())
            try:
                raw_error = e.read()
                parsed = json.loads(raw_error) if raw_error else None
            except (OSError, ValueError, http.client.HTTPException):
                parsed = None
            retry_after = parse_retry_after(e.headers.get("retry-after"), self.clock.offset)
            raise ApiError(e.code, _message(parsed, e.code), parsed, retry_after)
        except (urllib.error.URLError, OSError, http.client.HTTPException, socket.timeout, ValueError) as e:
            reason = getattr(e, "reason", None) or e
            raise ApiError(0, f"no answer from the workbench at {self.base_url}: {reason}") from None
        try:
            return json.loads(raw) if raw else None
        except ValueError:
            raise ApiError(0, f"the workbench at {self.base_url} answered something that is not JSON") from None

    # ----- the ingestion API -----

    def whoami(self, timeout: Optional[float] = None) -> dict:
        return self.request("GET", "/whoami", timeout=timeout)

    def create_run(self, project: str, body: dict, timeout: Optional[float] = None) -> dict:
        data = json.dumps(body, allow_nan=False).encode()
        return self.request("POST", f"/projects/{_seg(project)}/external-runs", data, timeout=timeout)

    def post_items(self, project: str, run_id: str, kind: str, items: List[str]) -> dict:
        """A batch of metric or rollout items, each already JSON text; the per-item answer."""
        assert kind in ("metrics", "rollouts")
        data = ('{"items":[' + ",".join(items) + "]}").encode()
        return self.request("POST", f"/projects/{_seg(project)}/external-runs/{_seg(run_id)}/{kind}", data)

    def set_status(self, project: str, run_id: str, body: dict) -> dict:
        data = json.dumps(body, allow_nan=False).encode()
        return self.request("POST", f"/projects/{_seg(project)}/external-runs/{_seg(run_id)}/status", data)


def _seg(value: str) -> str:
    return urllib.parse.quote(value, safe="")
