"""The generated REST client (paravt_workbench.api): its table matches the OpenAPI document, its types are the
document's schemas, and its requests are what the API reads (checked on the wire against a local
HTTP server that records them and answers what the test tells it to)."""

import json
import socket
import threading
import typing
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from paravt_workbench.api import (
    OPERATIONS,
    ApiClient,
    ApiError,
    IngestCreateRunBody,
    MetricItem,
    RolloutItem,
    RunsMetricsBody,
    RunSummary,
)

OPENAPI = Path(__file__).resolve().parents[3] / "packages" / "client" / "openapi.json"


def test_every_operation_of_the_document_is_in_the_table_with_its_method_path_and_parameters():
    doc = json.loads(OPENAPI.read_text(encoding="utf-8"))
    seen = set()
    for path, item in doc["paths"].items():
        for method, op in item.items():
            if not isinstance(op, dict) or "operationId" not in op:
                continue
            entry = OPERATIONS[op["operationId"]]
            seen.add(op["operationId"])
            assert (entry.method, entry.template) == (method.upper(), path)
            assert entry.path == tuple(p["name"] for p in op.get("parameters", []) if p["in"] == "path")
            assert entry.query == tuple(p["name"] for p in op.get("parameters", []) if p["in"] == "query")
    assert seen == set(OPERATIONS)
    assert OPERATIONS["ingest-createRun"].server == "/api/v1"
    # The byte-stream upload route lives under /api, as its path-level `servers` says.
    assert OPERATIONS["videos-upload"].server == "/api"
    assert OPERATIONS["videos-upload"].body == "binary"


def test_types_carry_the_schemas_required_and_optional_keys():
    assert IngestCreateRunBody.__required_keys__ == frozenset({"clientId", "name"})
    assert {"kind", "config", "datasetId"} <= IngestCreateRunBody.__optional_keys__
    assert MetricItem.__required_keys__ == frozenset({"id", "step", "values"})
    assert RolloutItem.__required_keys__ == frozenset({"id", "k", "sample"})
    hints = typing.get_type_hints(RunSummary)
    assert typing.get_args(hints["status"]) == ("QUEUED", "RUNNING", "SUCCEEDED", "FAILED", "CANCELLED")
    # `from` is a Python keyword: the functional TypedDict form keeps the wire name.
    range_type = typing.get_type_hints(RunsMetricsBody)["range"]
    assert set(typing.get_type_hints(range_type)) == {"from", "to"}


class _Recorder(BaseHTTPRequestHandler):
    """Records each request and answers with the server's next scripted (status, headers, body)."""

    requests: typing.List[dict] = []
    answers: typing.List[tuple] = []

    def _handle(self):
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        type(self).requests.append(
            {"method": self.command, "path": self.path, "headers": dict(self.headers.items()), "body": raw}
        )
        status, headers, body = type(self).answers.pop(0)
        payload = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        headers = {"content-type": "application/json", **headers}
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("content-length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _handle

    def log_message(self, *args):  # keep pytest's output clean
        pass


@pytest.fixture
def server():
    _Recorder.requests = []
    _Recorder.answers = []
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd, _Recorder
    httpd.shutdown()
    httpd.server_close()


def _client(httpd):
    return ApiClient(f"http://127.0.0.1:{httpd.server_address[1]}/", "pvt_test", timeout=5)


def test_a_json_operation_sends_the_body_token_and_path_under_api_v1(server):
    httpd, rec = server
    answer = {"counts": {"stored": 1, "duplicate": 0, "conflict": 0, "invalid": 0}, "items": []}
    rec.answers.append((200, {}, answer))
    items = [{"id": "step-3", "step": 3, "values": {"reward": 0.5}}]
    got = _client(httpd).ingest_metrics("proj 1", "run/2", {"items": items})
    assert got == answer
    (request,) = rec.requests
    assert request["method"] == "POST"
    # Path parameters are escaped whole (a slash in an id never becomes a path segment).
    assert request["path"] == "/api/v1/projects/proj%201/external-runs/run%2F2/metrics"
    assert request["headers"]["Authorization"] == "Bearer pvt_test"
    assert request["headers"]["Content-Type"] == "application/json"
    assert json.loads(request["body"]) == {"items": items}


def test_query_lists_repeat_and_none_is_left_out_and_text_answers_come_back_as_text(server):
    httpd, rec = server
    rec.answers.append((200, {"content-type": "text/csv", "x-next-after-step": "41"}, b"step,time_s,reward\n1,0,0.5\n"))
    client = _client(httpd)
    response = client.call(
        OPERATIONS["runs-metricsExport"],
        path={"projectId": "p", "runId": "r"},
        query={"names": ["reward", "kl"], "format": "csv", "afterStep": None},
    )
    assert response.data == "step,time_s,reward\n1,0,0.5\n"
    assert response.headers["x-next-after-step"] == "41"
    assert rec.requests[0]["path"] == "/api/v1/projects/p/runs/r/metrics/export?names=reward&names=kl&format=csv"


def test_an_error_answer_is_an_api_error_with_the_servers_message_and_retry_after(server):
    httpd, rec = server
    rec.answers.append((429, {"retry-after": "7"}, {"message": "Too many requests", "code": "TOO_MANY_REQUESTS"}))
    with pytest.raises(ApiError) as caught:
        _client(httpd).runs_list("p", status="RUNNING", limit=5)
    error = caught.value
    assert (error.status, error.retry_after_s, error.retryable) == (429, 7.0, True)
    assert str(error) == "Too many requests (HTTP 429)"
    assert rec.requests[0]["path"] == "/api/v1/projects/p/runs?status=RUNNING&limit=5"

    rec.answers.append((404, {}, {"message": "Run not found", "code": "NOT_FOUND"}))
    with pytest.raises(ApiError) as caught:
        _client(httpd).runs_by_id("p", "missing")
    assert (caught.value.status, caught.value.retryable) == (404, False)


def test_from_env_reads_the_sdks_settings_and_takes_a_url_ending_in_api_v1(monkeypatch, server):
    httpd, rec = server
    monkeypatch.setenv("PARAVT_API_URL", f"http://127.0.0.1:{httpd.server_address[1]}/api/v1/")
    monkeypatch.setenv("PARAVT_API_TOKEN", "pvt_env")
    rec.answers.append((200, {}, {"userId": "u", "token": None}))
    assert ApiClient.from_env().ingest_whoami() == {"userId": "u", "token": None}
    assert rec.requests[0]["path"] == "/api/v1/whoami"
    assert rec.requests[0]["headers"]["Authorization"] == "Bearer pvt_env"


def test_no_answer_is_status_0_and_retryable():
    # A port that was just free and is closed again: the connection is refused.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    client = ApiClient(f"http://127.0.0.1:{port}", "pvt_test", timeout=2)
    with pytest.raises(ApiError) as caught:
        client.ingest_whoami()
    assert caught.value.status == 0 and caught.value.retryable


def test_nan_is_refused_before_sending_not_sent_as_invalid_json(server):
    httpd, rec = server
    with pytest.raises(ValueError):
        _client(httpd).ingest_metrics("p", "r", {"items": [{"id": "a", "step": 1, "values": {"kl": float("nan")}}]})
    assert rec.requests == []


def test_the_upload_route_sends_raw_bytes_and_the_file_name_header_under_api(server):
    httpd, rec = server
    rec.answers.append((201, {}, {"video": {"id": "v1", "name": "clip.mp4"}, "runId": "run1"}))
    got = _client(httpd).videos_upload("p", b"\x00\x01bytes", x_file_name="clip.mp4")
    assert got["runId"] == "run1"
    request = rec.requests[0]
    assert request["path"] == "/api/projects/p/videos/upload"
    assert request["headers"]["X-File-Name"] == "clip.mp4"
    assert request["body"] == b"\x00\x01bytes"


def test_the_generated_client_against_the_real_workbench(workbench):
    """conftest.py `workbench` (skipped without PARAVT_TEST_URL): a few operations end to end."""
    api = ApiClient(workbench.url, workbench.token, timeout=60)
    assert api.ingest_whoami()["token"]["projectId"] == workbench.project
    client_id = f"api-client-{uuid.uuid4().hex[:12]}"
    created = api.ingest_create_run(workbench.project, {"clientId": client_id, "name": client_id, "kind": "rl"})
    run_id = created["run"]["id"]
    again = api.ingest_create_run(workbench.project, {"clientId": client_id, "name": client_id})
    assert again["run"]["id"] == run_id and again["created"] is False
    items = [{"id": f"m{step}", "step": step, "values": {"reward": step / 10}} for step in range(1, 4)]
    answer = api.ingest_metrics(workbench.project, run_id, {"items": items})
    assert answer["counts"]["stored"] == 3
    assert [m["name"] for m in api.runs_metric_names(workbench.project, run_id)] == ["reward"]
    csv = api.call(
        OPERATIONS["runs-metricsExport"],
        path={"projectId": workbench.project, "runId": run_id},
        query={"names": ["reward"], "format": "csv"},
    )
    assert csv.data.splitlines()[0].startswith("step,") and len(csv.data.splitlines()) == 4
    assert api.runs_by_id(workbench.project, run_id)["id"] == run_id
    with pytest.raises(ApiError) as caught:
        api.runs_by_id(workbench.other_project, run_id)
    assert caught.value.status in (403, 404) and not caught.value.retryable
