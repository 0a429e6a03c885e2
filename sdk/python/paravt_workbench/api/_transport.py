"""HTTP for the generated REST client: urllib only, one request per call, failures as ApiError.

The generated ApiClient (_generated.py) describes each operation in OPERATIONS and calls
`Transport.call`; this module turns that description into a request. It does not retry: callers
decide (the SDK's uploader retries what `ApiError.retryable` says is worth it, honouring
`retry_after_s`), as the TypeScript client leaves retries to its callers.
"""

import json
import time
import urllib.error
import urllib.parse
import urllib.request
from email.utils import parsedate_to_datetime
from typing import Any, Dict, Mapping, NamedTuple, Optional, Tuple

from .._env import api_base, resolve

__all__ = ["ApiError", "ApiResponse", "Operation", "Transport"]


class Operation(NamedTuple):
    """One operation of the OpenAPI document: how to send it."""

    id: str
    method: str
    #: The path with {name} placeholders, e.g. "/projects/{projectId}/runs".
    template: str
    #: URL prefix under the workbench's origin: "/api/v1", or "/api" for byte-stream routes.
    server: str
    #: Parameter names by where they go.
    path: Tuple[str, ...] = ()
    query: Tuple[str, ...] = ()
    headers: Tuple[str, ...] = ()
    #: "json", "binary" (raw bytes) or None when the operation takes no body.
    body: Optional[str] = None


class ApiError(Exception):
    """An HTTP error answer, or a request that never got one (status 0)."""

    def __init__(self, status: int, message: str, body: Any = None, retry_after_s: Optional[float] = None):
        super().__init__(message)
        self.status = status
        self.message = message
        #: The server's JSON error ({message, code, issues} or {error}), text, or None.
        self.body = body
        #: From Retry-After on 429 / 503, in seconds.
        self.retry_after_s = retry_after_s

    @property
    def retryable(self) -> bool:
        """Worth trying again: no answer, rate limited, or a server-side failure."""
        return self.status == 0 or self.status == 429 or self.status >= 500


class ApiResponse(NamedTuple):
    status: int
    #: Header names lower-cased (e.g. "x-next-after-step" of the CSV metrics export).
    headers: Dict[str, str]
    #: Parsed JSON, text for text/* answers, bytes otherwise.
    data: Any


def _query_value(value: Any) -> str:
    # The API converts query strings to the field's type; booleans are spelled as JSON spells them.
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _message(body: Any, status: int) -> str:
    text = None
    if isinstance(body, dict):
        text = body.get("message") or body.get("error")
    return f"{text} (HTTP {status})" if isinstance(text, str) and text else f"HTTP {status}"


def _retry_after(value: Optional[str]) -> Optional[float]:
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        try:
            return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
        except (TypeError, ValueError):
            return None


def _decode(raw: bytes, content_type: str) -> Any:
    if "json" in content_type:
        return json.loads(raw.decode("utf-8")) if raw else None
    if content_type.startswith("text/"):
        return raw.decode("utf-8")
    return raw


class Transport:
    """The connection: the workbench's origin and a project API token (`pvt_…`)."""

    def __init__(self, url: str, token: Optional[str] = None, *, timeout: float = 30.0):
        #: The workbench, e.g. http://localhost:3000 (each operation adds its server, "/api/v1";
        #: a URL given with /api/v1 is taken too, as paravt_workbench.init takes it).
        self.url = api_base(url)
        self.token = token
        self.timeout = timeout

    @classmethod
    def from_env(cls, **kwargs: Any) -> "Transport":
        """Where paravt_workbench.init finds the workbench: PARAVT_API_URL / PARAVT_API_TOKEN, else the
        login `npx paravt auth login` saved."""
        settings = resolve(None, None, None, None)
        if not settings.api_url:
            raise ValueError("PARAVT_API_URL is not set (the workbench, e.g. http://localhost:3000)")
        return cls(settings.api_url, settings.api_token, **kwargs)

    def url_of(
        self, op: Operation, path: Optional[Mapping[str, Any]] = None, query: Optional[Mapping[str, Any]] = None
    ) -> str:
        template = op.template
        for name in op.path:
            value = (path or {}).get(name)
            if value is None:
                raise ValueError(f"{op.id}: path parameter {name} is required")
            template = template.replace("{" + name + "}", urllib.parse.quote(str(value), safe=""))
        pairs = []
        for name, value in (query or {}).items():
            if value is None:
                continue
            # Lists repeat the parameter (?names=a&names=b), as the document says.
            for item in value if isinstance(value, (list, tuple)) else [value]:
                pairs.append((name, _query_value(item)))
        suffix = f"?{urllib.parse.urlencode(pairs)}" if pairs else ""
        return f"{self.url}{op.server}{template}{suffix}"

    def call(
        self,
        op: Operation,
        *,
        path: Optional[Mapping[str, Any]] = None,
        query: Optional[Mapping[str, Any]] = None,
        headers: Optional[Mapping[str, Any]] = None,
        body: Any = None,
    ) -> ApiResponse:
        """Sends one operation; the answer, or ApiError for an error status or no answer."""
        send_headers = {"accept": "application/json, text/*;q=0.9"}
        if self.token:
            send_headers["authorization"] = f"Bearer {self.token}"
        for name, value in (headers or {}).items():
            if value is not None:
                send_headers[name] = str(value)
        data: Optional[bytes] = None
        if op.body == "json" and body is not None:
            # allow_nan=False: NaN is no JSON; better refused here, with its key, than by the server.
            data = json.dumps(body, allow_nan=False).encode("utf-8")
            send_headers["content-type"] = "application/json"
        elif op.body == "binary" and body is not None:
            data = bytes(body)
            send_headers["content-type"] = "application/octet-stream"
        request = urllib.request.Request(
            self.url_of(op, path, query), data=data, headers=send_headers, method=op.method
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as answer:
                answer_headers = {k.lower(): v for k, v in answer.headers.items()}
                return ApiResponse(
                    answer.status, answer_headers, _decode(answer.read(), answer_headers.get("content-type", ""))
                )
        except urllib.error.HTTPError as error:
            error_headers = {k.lower(): v for k, v in (error.headers or {}).items()}
            raw = error.read() or b""
            try:
                error_body: Any = _decode(raw, error_headers.get("content-type", ""))
            except ValueError:
                error_body = raw.decode("utf-8", "replace")
            raise ApiError(
                error.code,
                _message(error_body, error.code),
                error_body,
                _retry_after(error_headers.get("retry-after")),
            ) from None
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            raise ApiError(0, f"no answer from the workbench: {reason}") from None
