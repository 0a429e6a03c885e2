"""The uploader against a scripted stand-in of the ingestion API (conftest ``stub``): the answers
a real server gives only under load or failure (429 with Retry-After, 5xx, a 422 naming items),
and the spool on disk. The same behaviour against the real workbench: test_workbench.py."""

from __future__ import annotations

import email.utils
import json
import subprocess
import sys
import time
from datetime import datetime

import pytest

import paravt_workbench as pvt
from conftest import SDK_DIR, spool_files
from paravt_workbench._http import parse_retry_after
from paravt_workbench._problems import Problems
from paravt_workbench._spool import SpoolFile, SpoolWriter
from paravt_workbench._sync import sync_directory


def new_run(stub, spool_dir, **kw):
    kw.setdefault("project", "p1")
    return pvt.init(name="stub run", api_url=stub.url, api_token="pvt_x", spool_dir=str(spool_dir), **kw)


def test_init_creates_the_run_with_a_json_safe_config_and_the_tags(stub, spool_dir):
    config = {"lr": 1e-6, "betas": (0.9, 0.95), "warmup": float("inf")}
    run = new_run(stub, spool_dir, project=None, config=config, tags=["grpo", "8b"])
    run.finish()
    (who, create) = [(p, b) for _, m, p, b in stub.requests if "whoami" in p or p.endswith("/external-runs")]
    assert who[0] == "/api/v1/whoami"  # no project given: the token's own
    assert create[0] == "/api/v1/projects/p1/external-runs"
    assert create[1] == {
        "clientId": "stub run",
        "name": "stub run",
        "kind": "rl",
        "config": {"lr": 1e-6, "betas": [0.9, 0.95], "warmup": "inf", "tags": ["grpo", "8b"]},
    }
    assert run.id == "run1" and run.url == f"{stub.url}/projects/p1/runs/run1"


def sent_ids(stub):
    return {i["id"] for _, _, body in stub.batches() for i in body["items"]}


def test_429_is_retried_after_the_wait_retry_after_asks(stub, spool_dir):
    stub.script = [(429, {"Retry-After": "1"}, {"message": "Too many requests"})]
    run = new_run(stub, spool_dir)
    for step in range(5):
        run.log({"loss": float(step)}, step=step)
    run.flush()
    assert run.flush(timeout=30)
    run.finish(timeout=30)
    batches = stub.batches()
    assert len(batches) >= 2
    # The refused batch and its retry: the retry came no earlier than Retry-After said.
    assert batches[1][0] - batches[0][0] >= 0.95
    assert len(stub.stored) == 5
    assert stub.statuses == [{"status": "SUCCEEDED"}]
    assert spool_files(spool_dir) == []


def test_server_errors_are_retried_and_nothing_is_lost_or_doubled(stub, spool_dir):
    stub.script = [(503, {}, {"message": "busy"}), (500, {}, {"message": "oops"})]
    run = new_run(stub, spool_dir)
    for step in range(2500):
        run.log({"loss": float(step), "kl": 0.1}, step=step)
    run.finish(timeout=60)
    assert len(stub.stored) == 2500
    assert run.counts["stored"] == 2500 and run.counts["duplicate"] == 0
    assert spool_files(spool_dir) == []
    assert all(len(body["items"]) <= 1000 for _, _, body in stub.batches())


def test_a_422_naming_items_drops_those_and_sends_the_rest(stub, spool_dir):
    stub.script = [
        (
            422,
            {},
            {
                "message": "Input validation failed",
                "issues": [{"path": ["items", 1, "sample", "key"], "message": "Too big"}],
            },
        )
    ]
    run = new_run(stub, spool_dir)
    sample = {"key": "s", "question": "q", "answer": "a", "questionType": "oe", "videoId": "v"}
    run.log_rollouts(0, [{"index": i, "k": 4, "sample": sample} for i in range(3)])
    run.finish(timeout=30)
    assert sorted(stub.stored) == ["step-0/rollout-0", "step-0/rollout-2"]
    assert run.counts["refused"] == 1
    assert any("step-0/rollout-1" in m and "sample.key: Too big" in m for m in run.problems)


def sent_times(stub):
    return [datetime.fromisoformat(i["at"]).timestamp() for i in stub.stored.values()]


@pytest.mark.parametrize("offset", [3600.0, -7200.0], ids=["workbench-clock-ahead", "workbench-clock-behind"])
def test_a_clock_off_from_the_workbench_is_measured_from_date_and_at_corrected_with_one_warning(
    stub, spool_dir, offset
):
    stub.clock_offset = offset
    run = new_run(stub, spool_dir)
    before = time.time()
    for step in range(30):
        run.log({"loss": float(step)}, step=step)
    after = time.time()
    run.finish(timeout=30)
    times = sent_times(stub)
    assert len(times) == 30
    # Each point at the workbench's time: the call's time here moved by the offset, within what a
    # Date header (whole seconds) and a round trip on this machine can tell.
    assert all(before + offset - 2 <= t <= after + offset + 2 for t in times), (before, after, times[:3])
    clock = [m for m in run.problems if "this machine's clock" in m]
    assert len(clock) == 1, run.problems
    assert ("behind" if offset > 0 else "ahead of") in clock[0]


def test_clocks_that_agree_leave_at_as_logged_and_say_nothing(stub, spool_dir):
    run = new_run(stub, spool_dir)
    before = time.time()
    for step in range(5):
        run.log({"loss": float(step)}, step=step)
    after = time.time()
    run.finish(timeout=30)
    # Below CORRECT_ABOVE_S nothing is corrected: the Date header cannot tell better.
    assert all(before - 0.01 <= t <= after + 0.01 for t in sent_times(stub))
    assert not any("clock" in m for m in run.problems), run.problems


def test_a_reason_the_server_gives_many_items_is_warned_once_per_kind(stub, spool_dir):
    def answer(kind, item):
        if kind == "metrics":
            reason = f"at {item['at']} is 60 min ahead of the server's clock: stored at the server's time"
            return {"status": "stored", "reason": reason, "code": "clock_ahead"}
        path = item["sample"]["videoPath"]
        return {"status": "stored", "reason": f"video not linked: nothing registered at {path}", "code": "video_not_linked"}

    stub.answer_item = answer
    run = new_run(stub, spool_dir)
    for step in range(40):
        run.log({"loss": float(step)}, step=step)
        if step == 19:
            run.flush()  # the same reason in a second batch too
    sample = {"question": "q", "answer": "a", "questionType": "oe"}
    run.log_rollouts(
        0, [{"index": i, "k": 4, "sample": {**sample, "key": f"s{i}", "videoPath": f"/data/v{i}.mp4"}} for i in range(5)]
    )
    run.finish(timeout=30)
    assert len(stub.stored) == 45 and run.counts["stored"] == 45
    assert sum("ahead of the server's clock" in m for m in run.problems) == 1, run.problems
    assert sum("video not linked" in m for m in run.problems) == 1, run.problems


def test_a_retry_after_date_is_read_on_the_servers_clock():
    # The server's clock is an hour ahead; it asks to come back 30 s from its now.
    header = email.utils.formatdate(time.time() + 3600 + 30, usegmt=True)
    wait = parse_retry_after(header, clock_offset=3600)
    assert wait is not None and 28 <= wait <= 31
    assert parse_retry_after("12") == 12.0


def test_unreachable_server_keeps_everything_in_the_spool_until_a_sync(stub, spool_dir, tmp_path):
    run = pvt.init(
        project="p1", name="down", api_url="http://127.0.0.1:9", api_token="pvt_x", spool_dir=str(spool_dir)
    )
    assert run.id is None
    for step in range(30):
        run.log({"loss": float(step)}, step=step)
    run.log_rollouts(3, [{"k": 4, "sample": {"key": "s", "question": "q", "answer": "a", "questionType": "oe"}}])
    run.finish(timeout=10)  # never blocks on a server that is not there
    files = spool_files(spool_dir)
    assert len(files) == 1 and run.spool_path == files[0]
    assert any("sync" in m for m in run.problems)

    sync = subprocess.run(
        [sys.executable, "-m", "paravt_workbench", "sync", "--spool-dir", str(spool_dir)]
        + ["--api-url", stub.url, "--api-token", "pvt_x"],
        env={"PYTHONPATH": str(SDK_DIR), "PARAVT_CONFIG": str(tmp_path / "none.json"), "HOME": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert sync.returncode == 0, sync.stderr
    assert "status SUCCEEDED" in sync.stdout
    assert len(stub.stored) == 31
    assert stub.statuses == [{"status": "SUCCEEDED"}]
    assert spool_files(spool_dir) == []
    # A second sync finds nothing left.
    assert sync_directory(spool_dir, api_url=stub.url, api_token="pvt_x") == []


def test_a_spool_file_held_by_a_live_process_is_left_alone(spool_dir, stub):
    header = {"apiUrl": stub.url, "projectId": "p1", "clientId": "c", "name": "n", "kind": "rl", "config": {}}
    writer = SpoolWriter(spool_dir, header)
    writer.keep("metrics", [json.dumps({"id": "a", "step": 0, "values": {"x": 1.0}})])
    results = sync_directory(spool_dir, api_url=stub.url, api_token="pvt_x")
    assert [r.reason for r in results] == ["in use by a running process"]
    assert stub.stored == {}
    writer.close()
    assert spool_files(spool_dir) == [writer.path]  # not acknowledged: kept
    results = sync_directory(spool_dir, api_url=stub.url, api_token="pvt_x")
    assert results[0].complete and list(stub.stored) == ["a"]
    assert spool_files(spool_dir) == []


def test_acknowledged_batches_are_not_sent_again_and_a_torn_last_line_is_ignored(spool_dir):
    writer = SpoolWriter(spool_dir, {"clientId": "c", "name": "n", "kind": "rl", "config": {}})
    first = writer.keep("metrics", ['{"id":"a","step":0,"values":{"x":1}}'])
    writer.keep("metrics", ['{"id":"b","step":1,"values":{"x":2}}'])
    writer.ack(first)
    path = writer.path
    writer.close()
    with open(path, "ab") as f:
        f.write(b'{"t":"metrics","b":"torn","items":[{"id"')  # a crash mid-write
    spool = SpoolFile(path)
    assert spool.open_locked()
    assert [r["items"][0]["id"] for r in spool.records] == ["b"]
    spool.close(delete=False)


def test_a_full_queue_spills_to_disk_instead_of_blocking(stub, spool_dir, monkeypatch):
    monkeypatch.setenv("PARAVT_QUEUE_SIZE", "1")
    run = new_run(stub, spool_dir)
    for step in range(300):
        run.log({"loss": float(step)}, step=step)
    run.finish(timeout=30)
    assert len(stub.stored) == 300
    assert any("queue" in m and "full" in m for m in run.problems)


def test_rank_other_than_zero_gets_a_run_that_does_nothing(stub, spool_dir, monkeypatch):
    monkeypatch.setenv("RANK", "3")
    run = new_run(stub, spool_dir)
    assert not run.enabled and run.rank == 3 and run.id is None
    run.log({"loss": 1.0}, step=0)
    run.log_rollouts(0, [{"k": 1}])
    run.finish()
    assert stub.requests == [] and spool_files(spool_dir) == []


def test_problems_are_counted_once_beyond_the_limit():
    p = Problems(limit=3)
    for i in range(10):
        p.report(i, f"problem {i}")
    assert len(p.messages) == 3 and p.count == 10


EXITS = """
import sys, paravt_workbench as pvt
run = pvt.init(project="p1", name="exit", api_url=sys.argv[1], api_token="pvt_x", spool_dir=sys.argv[2])
run.log({"loss": 1.0}, step=0)
if sys.argv[3] == "raise":
    1 / 0
"""


def test_a_run_not_finished_is_finished_at_exit_failed_after_an_uncaught_exception(stub, spool_dir, run_python):
    ok = run_python(EXITS, env={}, args=[stub.url, str(spool_dir), "end"])
    assert ok.returncode == 0, ok.stderr
    crashed = run_python(EXITS, env={}, args=[stub.url, str(spool_dir), "raise"])
    assert crashed.returncode == 1 and "ZeroDivisionError" in crashed.stderr
    assert [s["status"] for s in stub.statuses] == ["SUCCEEDED", "FAILED"]
    assert "ZeroDivisionError: division by zero" in stub.statuses[1]["error"]
    assert len(stub.batches()) == 2  # each process's point was sent before its status


def test_the_with_block_finishes_the_run_by_how_it_ends(stub, spool_dir):
    try:
        with new_run(stub, spool_dir) as run:
            run.log({"loss": 1.0}, step=0)
            raise RuntimeError("diverged")
    except RuntimeError:
        pass
    assert run.finished
    assert stub.statuses[0]["status"] == "FAILED" and "RuntimeError: diverged" in stub.statuses[0]["error"]
