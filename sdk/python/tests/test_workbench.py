"""The SDK against the real workbench (`node scripts/test.mjs python`: production build of the web
app, a worker, Postgres, Redis); what it sent is read back through the REST API."""

from __future__ import annotations

import math
import subprocess
import sys
import textwrap
import time

import paravt_workbench as pvt
from conftest import SDK_DIR, spool_files, unique

SAMPLE = {
    "key": "needle-7",
    "question": "Which shape came after the cyan triangle?",
    "answer": "green diamond",
    "questionType": "oe",
}


def stored(value: float) -> float:
    """What the workbench keeps of a metric value: 16 significant digits (paravt_workbench._items.storable_float)."""
    return float(f"{value:.16g}")


def rollout(index, group, advantage, reward, window=(10.0, 20.0)):
    return {
        "index": index,
        "k": 16,
        "group": group,
        "advantage": advantage,
        "sample": {**SAMPLE, "key": f"needle-{group}"},
        "finalText": "<answer>green diamond</answer>",
        "prediction": "green diamond",
        "correct": reward > 0,
        "score": float(reward > 0),
        "rewardTerms": {"reward": reward, "accReward": float(reward > 0), "formatReward": 1.0},
        "overviewTimestamps": [0.0, 3.75, 7.5],
        "turns": [
            {
                "index": 0,
                "rawText": "<think>look</think><tool_call>…</tool_call>",
                "toolCalls": [
                    {
                        "index": 0,
                        "startS": window[0],
                        "endS": window[1],
                        "frameTimestamps": [window[0], window[0] + 1],
                        "subAgentOutput": "A cyan triangle leaves at 18 s.",
                    }
                ],
            },
            {"index": 1, "rawText": "<answer>green diamond</answer>"},
        ],
    }


def init(workbench, spool_dir, **kw):
    kw.setdefault("api_url", workbench.url)
    kw.setdefault("api_token", workbench.token)
    return pvt.init(spool_dir=str(spool_dir), **kw)


def test_a_run_logged_from_python_appears_with_its_metrics_and_rollouts(workbench, spool_dir):
    name = unique("sdk-basic")
    run = init(workbench, spool_dir, name=name, config={"lr": 2e-6, "group_size": 2}, tags=["sdk"])
    assert run.id and run.resumed is False
    assert run.url == f"{workbench.url}/projects/{workbench.project}/runs/{run.id}"
    for step in range(50):
        run.log({"reward_mean": step / 50, "kl": 0.001 * step, "accuracy_k16": 0.5}, step=step)
    run.log_eval({"accuracy": 0.75}, step=49)
    run.log_rollouts(
        10, [rollout(0, "uid-a", 0.7, 1.5), rollout(1, "uid-a", -0.7, 0.0), rollout(2, "uid-b", 0.0, 1.0, (30.0, 45.5))]
    )
    run.finish()
    assert run.problems == [rollout_without_video_warning(run)]
    assert run.counts["stored"] == 50 + 1 + 3 and run.spool_path is None

    summary = workbench.run(run.id)
    assert summary["status"] == "SUCCEEDED" and summary["name"] == name and summary["jobName"] == "external"
    assert workbench.metric_counts(run.id) == {"reward_mean": 50, "kl": 50, "accuracy_k16": 50, "val_accuracy": 1}
    points = workbench.metric_points(run.id, ["reward_mean", "kl", "val_accuracy"])
    assert points["reward_mean"] == {s: stored(s / 50) for s in range(50)}
    assert points["kl"] == {s: stored(0.001 * s) for s in range(50)} and points["val_accuracy"] == {49: 0.75}

    rows = sorted(workbench.step_rollouts(run.id, 10), key=lambda r: r["rollout"])
    assert [r["rolloutIndex"] for r in rows] == [10_000, 10_001, 10_002]
    terms = [r["rewardTerms"] for r in rows]
    assert [(t["group"], t["groupIndex"], t["groupSize"]) for t in terms] == [(0, 0, 2), (0, 1, 2), (1, 0, 1)]
    assert [t["advantage"] for t in terms] == [0.7, -0.7, 0.0]
    assert [t["reward"] for t in terms] == [1.5, 0.0, 1.0]

    episodes = {e["rolloutIndex"]: e for e in workbench.episodes(run.id)}
    third = episodes[10_002]
    call = third["turns"][0]["toolCalls"][0]
    assert (call["startS"], call["endS"], call["subAgentOutput"]) == (30.0, 45.5, "A cyan triangle leaves at 18 s.")
    assert call["frameTimestamps"] == [30.0, 31.0]
    assert third["overviewTimestamps"] == [0.0, 3.75, 7.5] and third["k"] == 16
    assert [t["rawText"] for t in third["turns"]][1] == "<answer>green diamond</answer>"


def rollout_without_video_warning(run):
    return next(m for m in run.problems if "sample.videoId" in m)


#: `python -m paravt_workbench …` in another process.
SYNC = "import sys; from paravt_workbench._cli import main; sys.exit(main(sys.argv[1:]))"

RESTART = textwrap.dedent(
    """
    import os, sys, paravt_workbench as pvt
    run = pvt.init(name=sys.argv[1], api_url=os.environ["URL"], api_token=os.environ["TOKEN"],
                      spool_dir=os.environ["SPOOL"])
    first, last = int(sys.argv[2]), int(sys.argv[3])
    for step in range(first, last):
        run.log({"loss": 1.0 / (step + 1)}, step=step)
    print(run.id, run.resumed, flush=True)
    if sys.argv[4] == "crash":
        run.flush()
        os._exit(1)  # killed: no finish, no exit hook
    run.finish()
    print(run.counts["stored"], run.counts["duplicate"], flush=True)
    """
)


def test_a_restarted_trainer_continues_the_same_run_by_client_id(workbench, spool_dir, run_python):
    name = unique("sdk-restart")
    env = {"URL": workbench.url, "TOKEN": workbench.token, "SPOOL": str(spool_dir)}
    first = run_python(RESTART, env=env, args=[name, "0", "30", "crash"])
    assert first.returncode == 1, first.stderr
    run_id, resumed = first.stdout.split()[:2]
    assert resumed == "False"
    assert workbench.run(run_id)["status"] == "RUNNING"
    # The restart re-logs the last steps before the crash (as a resumed trainer from a checkpoint
    # does) and goes on: those come back as duplicates, nothing is stored twice.
    second = run_python(RESTART, env=env, args=[name, "25", "60", "finish"])
    assert second.returncode == 0, second.stderr
    lines = second.stdout.split("\n")
    assert lines[0].split() == [run_id, "True"]
    assert lines[1].split() == ["30", "5"]  # 30 new steps stored, 5 re-logged steps duplicate
    assert workbench.metric_counts(run_id) == {"loss": 60}
    assert workbench.metric_points(run_id, ["loss"])["loss"] == {s: stored(1.0 / (s + 1)) for s in range(60)}
    assert workbench.run(run_id)["status"] == "SUCCEEDED"
    assert len(workbench.runs_named(name)) == 1


def test_the_server_unreachable_mid_run_then_back_and_after_sync_every_point_exists_once(
    workbench, spool_dir, proxy, run_python
):
    name = unique("sdk-outage")
    run = init(workbench, spool_dir, name=name, api_url=proxy.url)
    run_id = run.id
    for step in range(100):
        if step == 40:
            run.flush()
            proxy.down()
        run.log({"loss": 100.0 - step, "reward_mean": step / 100}, step=step)
        if step in (10, 60):
            run.log_rollouts(step, [rollout(i, f"uid-{i // 2}", 0.5 - i, float(i)) for i in range(4)])
    run.finish(timeout=10)
    assert run.spool_path is not None and spool_files(spool_dir) == [run.spool_path]
    assert any("kept" in m and "sync" in m for m in run.problems)
    # Only what was sent before the outage is on the server.
    assert workbench.metric_counts(run_id)["loss"] == 40
    assert workbench.run(run_id)["status"] == "RUNNING"

    proxy.up()
    sync = run_python(SYNC, args=["sync", "--spool-dir", str(spool_dir), "--api-token", workbench.token])
    assert sync.returncode == 0, sync.stdout + sync.stderr
    assert f"/runs/{run_id}" in sync.stdout and "status SUCCEEDED" in sync.stdout
    assert spool_files(spool_dir) == []

    assert workbench.metric_counts(run_id) == {"loss": 100, "reward_mean": 100}
    points = workbench.metric_points(run_id, ["loss", "reward_mean"])
    assert points["loss"] == {s: 100.0 - s for s in range(100)}
    assert points["reward_mean"] == {s: stored(s / 100) for s in range(100)}
    indices = sorted(e["rolloutIndex"] for e in workbench.episodes(run_id))
    assert indices == [10_000, 10_001, 10_002, 10_003, 60_000, 60_001, 60_002, 60_003]
    assert workbench.run(run_id)["status"] == "SUCCEEDED"
    assert len(workbench.runs_named(name)) == 1


def test_an_outage_that_ends_while_the_run_goes_on_needs_no_sync(workbench, spool_dir, proxy):
    run = init(workbench, spool_dir, name=unique("sdk-blip"), api_url=proxy.url)
    for step in range(60):
        if step == 20:
            run.flush()
            proxy.down()
        if step == 40:
            run.flush()  # the batches of steps 20-39 fail and go to the spool
            proxy.up()
        run.log({"loss": float(step)}, step=step)
    run.finish(timeout=60)
    assert any("kept on disk" in m for m in run.problems)  # the outage happened
    assert run.spool_path is None and spool_files(spool_dir) == []
    assert workbench.metric_points(run.id, ["loss"])["loss"] == {s: float(s) for s in range(60)}
    assert workbench.run(run.id)["status"] == "SUCCEEDED"


CONCURRENT = textwrap.dedent(
    """
    import os, sys, paravt_workbench as pvt
    who = sys.argv[1]
    run = pvt.init(name=sys.argv[2], client_id=sys.argv[2], api_url=os.environ["URL"],
                      api_token=os.environ["TOKEN"], spool_dir=os.environ["SPOOL"])
    sample = {"key": "s", "question": "q", "answer": "a", "questionType": "oe"}
    offset = 0 if who == "a" else 500
    for step in range(300):
        run.log({f"{who}_loss": step * 0.5, "shared_lr": 1e-6 * step}, step=step)
        if step % 50 == 0:
            run.log_rollouts(step, [{"index": offset + i, "k": 4, "sample": sample, "group": who} for i in range(5)])
    run.finish()
    print(run.id, run.counts["stored"], run.counts["duplicate"], run.counts["conflict"], run.counts["refused"])
    """
)


def test_two_processes_logging_to_the_same_run_lose_nothing_and_double_nothing(workbench, spool_dir):
    client_id = unique("sdk-two")
    env = {"URL": workbench.url, "TOKEN": workbench.token, "SPOOL": str(spool_dir), "PYTHONPATH": str(SDK_DIR)}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", CONCURRENT, who, client_id],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for who in ("a", "b")
    ]
    outs = [p.communicate(timeout=180) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [o[1] for o in outs]
    answers = [o[0].split() for o in outs]
    run_ids = {a[0] for a in answers}
    assert len(run_ids) == 1
    run_id = run_ids.pop()
    # No conflicts, nothing refused; the processes' warnings say why when there are.
    assert all(a[3] == "0" and a[4] == "0" for a in answers), (answers, [o[1] for o in outs])
    counts = workbench.metric_counts(run_id)
    assert counts == {"a_loss": 300, "b_loss": 300, "shared_lr": 300}
    points = workbench.metric_points(run_id, ["a_loss", "b_loss", "shared_lr"])
    assert points["a_loss"] == points["b_loss"] == {s: s * 0.5 for s in range(300)}
    indices = sorted(e["rolloutIndex"] for e in workbench.episodes(run_id))
    expected = sorted(step * 1000 + off + i for step in range(0, 300, 50) for off in (0, 500) for i in range(5))
    assert indices == expected
    assert workbench.run(run_id)["status"] == "SUCCEEDED"


def test_bad_input_gives_one_warning_per_problem_and_never_raises(workbench, spool_dir):
    run = init(workbench, spool_dir, name=unique("sdk-bad"))
    # Metrics: NaN / inf / text / None / a bad name are dropped; the good values of the same call stay.
    for step in range(3):
        run.log({"loss": 1.0, "nan": math.nan, "inf": -math.inf, "text": "x", "none": None, "bad name!": 2.0}, step=step)
    run.log("not a dict", step=3)  # type: ignore[arg-type]
    run.log({"loss": 2.0}, step=-1)
    run.log({"loss": 2.0}, step="x")  # type: ignore[arg-type]
    # Rollouts: an unknown key, a huge text, no video, a video of no one, a conflict.
    huge = "x" * 300_000
    good = {"index": 0, "k": 8, "sample": dict(SAMPLE), "turns": [{"rawText": huge}], "notAField": 1}
    other_video = {"index": 1, "k": 8, "sample": {**SAMPLE, "key": "v", "videoId": "no-such-video"}}
    run.log_rollouts(0, [good, other_video])
    run.flush()
    # Same sample, step and index as `good` under another id: the slot is taken.
    clash = {"index": 0, "k": 8, "id": "another-id", "sample": dict(SAMPLE)}
    run.log_rollouts(0, [clash])
    run.log_rollouts(0, "nonsense")  # type: ignore[arg-type]
    run.finish()

    problems = run.problems
    expect = [
        "'nan' is nan",
        "'inf' is -inf",
        "'text' is a str",
        "'none' is a NoneType",
        "'bad name!' is not accepted",
        "could not take its values",
        "step -1 is not an integer",
        "step 'x' is not an integer",
        "rollout notAField: unknown key",
        "turns[].rawText: longer than 200000",
        "without sample.videoId",
        "video no-such-video is not in this project",
        "another rollout is stored for sample needle-7 at step 0, index 0",
    ]
    for fragment in expect:
        assert sum(fragment in m for m in problems) == 1, (fragment, problems)
    assert workbench.metric_counts(run.id) == {"loss": 3}
    episodes = workbench.episodes(run.id)
    assert len(episodes) == 1
    raw = episodes[0]["turns"][0]["rawText"]
    assert len(raw) <= 200_000 and raw.startswith("xxx") and raw.endswith("300000 characters in all]")
    assert run.counts["invalid"] == 1 and run.counts["conflict"] == 1


def test_clock_skew_a_point_from_the_future_is_stored_at_the_servers_time_and_warned_once(workbench, spool_dir):
    # The workbench runs on this machine: the SDK measures no offset, so the `at` given here reaches
    # the server as it is, as from a trainer whose clock the SDK could not measure.
    from datetime import datetime, timedelta, timezone

    from paravt_workbench.api import ApiClient

    run = init(workbench, spool_dir, name=unique("sdk-skew"))
    now = datetime.now(timezone.utc)
    run.log({"loss": 0.0}, step=0, at=now - timedelta(days=30))  # a log replayed later: kept
    for step in range(1, 4):
        run.log({"loss": float(step)}, step=step, at=now + timedelta(days=1))  # a clock a day ahead
    run.finish()
    assert run.counts["stored"] == 4
    assert sum("ahead of the server's clock" in m for m in run.problems) == 1, run.problems
    assert sum("before the run was created" in m for m in run.problems) == 1, run.problems
    assert not any("this machine's clock" in m for m in run.problems), run.problems

    # t: seconds since the run's first point (step 0, 30 days back). The points from the future sit
    # at the server's time of their batch, about 30 days later, not 31.
    series = ApiClient(workbench.url, workbench.token).runs_metrics(
        workbench.project, run.id, {"names": ["loss"], "x": "step"}
    )
    t = dict(zip(series[0]["steps"], series[0]["t"]))  # a series' points come as columns
    assert t[0] == 0
    for step in range(1, 4):
        assert abs(t[step] - 30 * 86_400) < 3600, t


def test_a_token_of_another_project_is_refused_with_a_warning_and_the_data_kept_for_sync(
    workbench, spool_dir, run_python
):
    name = unique("sdk-wrong-token")
    run = init(workbench, spool_dir, name=name, project=workbench.project, api_token=workbench.other_token)
    assert run.id is None
    assert any("belongs to another project" in m for m in run.problems)
    for step in range(10):
        run.log({"loss": float(step)}, step=step)  # never raises
    run.finish(timeout=10)
    assert workbench.runs_named(name) == []
    assert run.spool_path is not None

    sync = run_python(SYNC, env={"PARAVT_API_TOKEN": workbench.token}, args=["sync", "--spool-dir", str(spool_dir)])
    assert sync.returncode == 0, sync.stdout + sync.stderr
    (made,) = workbench.runs_named(name)
    assert workbench.metric_points(made["id"], ["loss"])["loss"] == {s: float(s) for s in range(10)}
    assert made["status"] == "SUCCEEDED"


def test_rank_one_logs_nothing(workbench, spool_dir, monkeypatch):
    name = unique("sdk-rank")
    explicit = init(workbench, spool_dir, name=name, rank=1)
    monkeypatch.setenv("LOCAL_RANK", "1")
    from_env = init(workbench, spool_dir, name=name)
    for run in (explicit, from_env):
        assert not run.enabled and run.id is None and run.url is None
        run.log({"loss": 1.0}, step=0)
        run.log_rollouts(0, [rollout(0, "g", 0.0, 1.0)])
        run.finish()
    assert workbench.runs_named(name) == []
    assert spool_files(spool_dir) == []


def test_the_next_init_uploads_what_a_crashed_run_left_in_the_spool(workbench, spool_dir, proxy, run_python):
    name = unique("sdk-leftover")
    env = {"URL": proxy.url, "TOKEN": workbench.token, "SPOOL": str(spool_dir)}
    crashed = run_python(RESTART, env=env, args=[name, "0", "20", "crash"])
    assert crashed.returncode == 1
    run_id = crashed.stdout.split()[0]
    # The crashed trainer had lost the server: its points are only in its spool.
    proxy.down()
    late = run_python(RESTART, env=env, args=[name, "20", "40", "crash"])
    assert late.returncode == 1 and len(spool_files(spool_dir)) == 1
    assert workbench.metric_counts(run_id) == {"loss": 20}

    proxy.up()
    other = init(workbench, spool_dir, name=unique("sdk-next"), api_url=proxy.url)
    deadline = time.monotonic() + 60
    while spool_files(spool_dir) and time.monotonic() < deadline:
        time.sleep(0.2)
    other.finish()
    assert spool_files(spool_dir) == []
    assert workbench.metric_points(run_id, ["loss"])["loss"] == {s: stored(1.0 / (s + 1)) for s in range(40)}
