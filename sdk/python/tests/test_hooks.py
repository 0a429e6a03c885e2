"""Framework hooks (paravt_workbench.hooks), each driven with exactly what its framework passes it.

The frameworks are not installed here, so each test calls the hook the way the framework's own
code does (cited by repository, file and commit) with the values it would hand over. The hooks
talk to a run only through `log(values, step)`, `log_rollouts(step, rollouts)` and
`finish(status, ...)`; `RecordingRun` records those calls, and every payload is checked against
the ingestion API's own schemas in packages/client/openapi.json (with the `id` and `step` the SDK
adds), so what a hook produces is what the server accepts.
"""

from __future__ import annotations

import collections
import json
import math
import re
import sys
import types
import uuid
import warnings
from pathlib import Path
from typing import Any, Dict, List

import pytest

from paravt_workbench.hooks import areal as areal_hook
from paravt_workbench.hooks import trl as trl_hook
from paravt_workbench.hooks import verl as verl_hook
from paravt_workbench.hooks._common import metric_name, metric_values

OPENAPI = json.loads((Path(__file__).resolve().parents[3] / "packages" / "client" / "openapi.json").read_text("utf-8"))


def _body_item_schema(path: str) -> Dict[str, Any]:
    schema = OPENAPI["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]
    return schema["properties"]["items"]["items"]


METRIC_ITEM = _body_item_schema("/projects/{projectId}/external-runs/{runId}/metrics")
ROLLOUT_ITEM = _body_item_schema("/projects/{projectId}/external-runs/{runId}/rollouts")


def schema_problems(value: Any, schema: Dict[str, Any], where: str = "$") -> List[str]:
    """The JSON Schema keywords the API's document uses, checked (a small validator: stdlib only)."""
    problems: List[str] = []
    for key in ("anyOf", "oneOf"):
        if key in schema:
            if all(schema_problems(value, option, where) for option in schema[key]):
                problems.append(f"{where}: matches none of {key}")
            return problems
    types_ = schema.get("type")
    if types_ is not None:
        allowed = types_ if isinstance(types_, list) else [types_]
        kinds = {
            "string": isinstance(value, str),
            "integer": isinstance(value, int) and not isinstance(value, bool),
            "number": isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value),
            "boolean": isinstance(value, bool),
            "null": value is None,
            "array": isinstance(value, list),
            "object": isinstance(value, dict),
        }
        if not any(kinds[t] for t in allowed):
            return [f"{where}: {value!r} is not {allowed}"]
    if "enum" in schema and value not in schema["enum"]:
        problems.append(f"{where}: {value!r} not in {schema['enum']}")
    if isinstance(value, str):
        if len(value) > schema.get("maxLength", math.inf) or len(value) < schema.get("minLength", 0):
            problems.append(f"{where}: length {len(value)} out of range")
        if "pattern" in schema and not re.search(schema["pattern"], value):
            problems.append(f"{where}: {value!r} does not match {schema['pattern']}")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if value < schema.get("minimum", -math.inf) or value > schema.get("maximum", math.inf):
            problems.append(f"{where}: {value} out of range")
    if isinstance(value, list):
        if len(value) > schema.get("maxItems", math.inf) or len(value) < schema.get("minItems", 0):
            problems.append(f"{where}: {len(value)} items out of range")
        for i, item in enumerate(value):
            problems += schema_problems(item, schema.get("items", {}), f"{where}[{i}]")
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        for name in schema.get("required", []):
            if name not in value:
                problems.append(f"{where}: missing {name}")
        for name, item in value.items():
            if "propertyNames" in schema:
                problems += schema_problems(name, schema["propertyNames"], f"{where} key {name!r}")
            if name in properties:
                problems += schema_problems(item, properties[name], f"{where}.{name}")
            elif schema.get("additionalProperties") is False:
                problems.append(f"{where}: unknown key {name}")
            elif isinstance(schema.get("additionalProperties"), dict):
                problems += schema_problems(item, schema["additionalProperties"], f"{where}.{name}")
    return problems


class RecordingRun:
    """The run API the hooks use (paravt_workbench.init's Run), recording each call."""

    def __init__(self) -> None:
        self.logged: List[tuple] = []
        self.rollouts: List[tuple] = []
        self.finished: List[tuple] = []

    def log(self, values: Dict[str, float], step: int) -> None:
        problems = schema_problems({"id": f"step-{step}", "step": step, "values": values}, METRIC_ITEM)
        assert not problems, problems
        self.logged.append((step, dict(values)))

    def log_rollouts(self, step: int, rollouts: List[Dict[str, Any]]) -> None:
        for rollout in rollouts:
            # `group` and `advantage` are the SDK's extras (the GRPO group view), not wire fields.
            wire = {k: v for k, v in rollout.items() if k not in ("group", "advantage")}
            problems = schema_problems({"id": "x", "step": step, **wire}, ROLLOUT_ITEM)
            assert not problems, problems
        self.rollouts.append((step, rollouts))

    def finish(self, status: str = "SUCCEEDED", message: Any = None, error: Any = None) -> None:
        self.finished.append((status, error))


# ---------------------------------------------------------------------------------------------
# TRL / transformers
#
# transformers src/transformers/trainer_callback.py @ 55093b758b338fdc7903e778509523d755ae080d,
# CallbackHandler.call_event: every callback is called as
#   getattr(callback, event)(args, state, control, model=..., processing_class=..., optimizer=...,
#                            lr_scheduler=..., train_dataloader=..., eval_dataloader=..., **kwargs)
# with kwargs logs=logs for on_log and metrics=metrics for on_evaluate / on_predict.
# trl trl/trainer/grpo_trainer.py @ f2cd57710ae345ea6428ae95363267fcf38a3dc8:
#   __init__ (lines 1046-1063): self._logs = {"images": deque, "prompt": deque, "completion": deque,
#     "rewards": defaultdict(deque), "advantages": deque, "extra": defaultdict(deque)},
#     each deque(maxlen=args.generation_batch_size); self.num_generations (line 737);
#     self.reward_weights a float tensor (lines 534-536)
#   _generate_and_score_completions (lines 2741-2763): reward metrics, then _logs extended with the
#     gathered batch; log (lines 3272-3291): metrics averaged (None when all NaN) and merged into
#     logs, then super().log(logs, start_time) -> Trainer.log -> callback_handler.on_log.
# ---------------------------------------------------------------------------------------------


class TrainingArguments(types.SimpleNamespace):
    def to_dict(self) -> Dict[str, Any]:
        return dict(vars(self))


class TrainerState(types.SimpleNamespace):
    pass


class FloatTensor(list):
    """What `.tolist()` of GRPOTrainer.reward_weights gives."""

    def tolist(self) -> List[float]:
        return list(self)


class GRPOTrainerState:
    """The attributes of a GRPOTrainer the callback reads, built as GRPOTrainer.__init__ builds them."""

    def __init__(self, reward_func_names: List[str], generation_batch_size: int, num_generations: int):
        self.num_generations = num_generations
        self.reward_func_names = reward_func_names
        self.reward_weights = FloatTensor([1.0] * len(reward_func_names))
        size = generation_batch_size
        self._logs = {
            "images": collections.deque(maxlen=size),
            "prompt": collections.deque(maxlen=size),
            "completion": collections.deque(maxlen=size),
            "rewards": collections.defaultdict(lambda: collections.deque(maxlen=size)),
            "advantages": collections.deque(maxlen=size),
            "extra": collections.defaultdict(lambda: collections.deque(maxlen=size)),
        }

    def generate(self, prompts: List[str], completions: List[str], rewards: Dict[str, List[float]], advantages):
        """What _generate_and_score_completions appends (lines 2753-2757): prompts repeated
        num_generations times in a row (RepeatSampler), one completion each."""
        self._logs["prompt"].extend(prompts)
        self._logs["completion"].extend(completions)
        for name in self.reward_func_names:
            self._logs["rewards"][name].extend(rewards[name])
        self._logs["advantages"].extend(advantages)


HANDLER_KWARGS = dict(
    model=object(), processing_class=object(), optimizer=object(), lr_scheduler=object(),
    train_dataloader=None, eval_dataloader=None,
)


def call_event(callbacks, event, args, state, control, **kwargs):
    """transformers CallbackHandler.call_event, as written there."""
    for callback in callbacks:
        result = getattr(callback, event)(args, state, control, **HANDLER_KWARGS, **kwargs)
        if result is not None:
            control = result
    return control


def grpo_logs(step_reward: float) -> Dict[str, Any]:
    """A GRPOTrainer on_log dict: Trainer's loss / grad_norm / learning_rate, GRPOTrainer.log's
    averaged metrics (a None where every value was NaN), and Trainer.log's epoch."""
    return {
        "loss": 0.0123,
        "grad_norm": 0.52,
        "learning_rate": 1e-06,
        "num_tokens": 40960.0,
        "completions/mean_length": 212.5,
        "completions/clipped_ratio": 0.0,
        "rewards/accuracy_reward/mean": step_reward,
        "rewards/accuracy_reward/std": 0.5,
        "rewards/format_reward/mean": 1.0,
        "rewards/format_reward/std": 0.0,
        "reward": step_reward + 1.0,
        "reward_std": 0.5,
        "frac_reward_zero_std": 0.25,
        "kl": 0.0021,
        "entropy": 0.61,
        "clip_ratio/region_mean": 0.0,
        "tools/call_frequency": None,
        "epoch": 0.02,
    }


def make_grpo_trainer() -> GRPOTrainerState:
    trainer = GRPOTrainerState(["accuracy_reward", "format_reward"], generation_batch_size=4, num_generations=2)
    trainer.generate(
        prompts=["What is 2+2?", "What is 2+2?", "Name a prime.", "Name a prime."],
        completions=["<answer>4</answer>", "<answer>5</answer>", "<answer>7</answer>", "nine"],
        # The format reward returned None for the last completion: NaN in rewards_per_func.
        rewards={"accuracy_reward": [1.0, 0.0, 1.0, 0.0], "format_reward": [1.0, 1.0, 1.0, float("nan")]},
        advantages=[0.7071, -0.7071, 0.7071, -0.7071],
    )
    return trainer


def test_trl_callback_sends_each_log_and_each_new_generation_batch_once():
    run = RecordingRun()
    trainer = make_grpo_trainer()
    callback = trl_hook.ParavtCallback(run, trainer=trainer)
    args = TrainingArguments(run_name="grpo-qwen", output_dir="out", logging_steps=1)
    state = TrainerState(global_step=0, is_world_process_zero=True, epoch=0.0)
    control = object()

    call_event([callback], "on_init_end", args, state, control)
    call_event([callback], "on_train_begin", args, state, control)
    for event in ("on_step_begin", "on_pre_optimizer_step", "on_optimizer_step", "on_substep_end", "on_step_end"):
        call_event([callback], event, args, state, control)
    state.global_step = 1
    call_event([callback], "on_log", args, state, control, logs=grpo_logs(0.5))
    # num_iterations=2: step 2 trains on the same generation, and TRL logs the same _logs again.
    state.global_step = 2
    call_event([callback], "on_log", args, state, control, logs=grpo_logs(0.5))
    state.global_step = 3
    trainer.generate(
        prompts=["Capital of France?"] * 2 + ["Largest planet?"] * 2,
        completions=["Paris", "Lyon", "Jupiter", "Saturn"],
        rewards={"accuracy_reward": [1.0, 0.0, 1.0, 0.0], "format_reward": [0.0, 0.0, 0.0, 0.0]},
        advantages=[0.7, -0.7, 0.7, -0.7],
    )
    call_event([callback], "on_log", args, state, control, logs=grpo_logs(0.75))
    call_event([callback], "on_train_end", args, state, control)

    assert [step for step, _ in run.logged] == [1, 2, 3]
    values = run.logged[0][1]
    assert values["reward"] == 1.5 and values["rewards/accuracy_reward/mean"] == 0.5
    assert values["completions/mean_length"] == 212.5 and values["kl"] == 0.0021
    assert "tools/call_frequency" not in values  # None: nothing to chart

    assert [step for step, _ in run.rollouts] == [1, 3]
    first = run.rollouts[0][1]
    assert [r["group"] for r in first] == [0, 0, 1, 1]
    assert [r["advantage"] for r in first] == [0.7071, -0.7071, 0.7071, -0.7071]
    assert first[0]["sample"]["key"] == first[1]["sample"]["key"] != first[2]["sample"]["key"]
    assert first[0]["sample"]["question"] == "What is 2+2?"
    assert first[0]["finalText"] == "<answer>4</answer>" == first[0]["turns"][0]["rawText"]
    assert first[0]["rewardTerms"] == {"accuracy_reward": 1.0, "format_reward": 1.0, "reward": 2.0}
    # The NaN term is left out; the reward is the weighted sum of the terms that scored.
    assert first[3]["rewardTerms"] == {"accuracy_reward": 0.0, "reward": 0.0} and first[3]["score"] == 0.0
    assert [r["finalText"] for r in run.rollouts[1][1]] == ["Paris", "Lyon", "Jupiter", "Saturn"]
    # A run handed to the callback is the caller's to finish.
    assert run.finished == []


def test_trl_evaluation_logs_become_val_metrics_without_rollouts():
    run = RecordingRun()
    callback = trl_hook.ParavtCallback(run, trainer=make_grpo_trainer())
    args = TrainingArguments(run_name="grpo", output_dir="out")
    state = TrainerState(global_step=10, is_world_process_zero=True, epoch=0.5)
    # Trainer.evaluate -> GRPOTrainer.log in eval mode: every key prefixed eval_ (lines 3284-3287).
    logs = {
        "eval_loss": 0.02,
        "eval_reward": 0.8,
        "eval_rewards/accuracy_reward/mean": 0.8,
        "eval_runtime": 3.1,
        "epoch": 0.5,
    }
    call_event([callback], "on_log", args, state, object(), logs=logs)
    call_event([callback], "on_evaluate", args, state, object(), metrics=logs)
    assert run.logged == [
        (10, {"val_loss": 0.02, "val_reward": 0.8, "val_rewards/accuracy_reward/mean": 0.8, "val_runtime": 3.1})
    ]
    assert run.rollouts == []


def test_trl_only_the_world_main_process_logs():
    run = RecordingRun()
    callback = trl_hook.ParavtCallback(run, trainer=make_grpo_trainer())
    state = TrainerState(global_step=1, is_world_process_zero=False)
    call_event([callback], "on_log", TrainingArguments(run_name="x"), state, object(), logs=grpo_logs(0.5))
    assert run.logged == [] and run.rollouts == []


def test_trl_callback_without_a_run_starts_one_from_the_training_arguments_and_finishes_it(monkeypatch):
    started: List[Dict[str, Any]] = []
    run = RecordingRun()

    def fake_init(**kwargs):
        started.append(kwargs)
        return run

    monkeypatch.setattr(trl_hook, "init_run", fake_init)
    callback = trl_hook.ParavtCallback(project="proj_1")
    args = TrainingArguments(run_name="grpo-qwen", output_dir="out", learning_rate=1e-6)
    state = TrainerState(global_step=0, is_world_process_zero=True)
    call_event([callback], "on_train_begin", args, state, object())
    state.global_step = 5
    call_event([callback], "on_log", args, state, object(), logs={"loss": 0.5})
    call_event([callback], "on_train_end", args, state, object())
    assert started == [
        {
            "name": "grpo-qwen",
            "config": {"run_name": "grpo-qwen", "output_dir": "out", "learning_rate": 1e-6},
            "project": "proj_1",
        }
    ]
    assert run.logged == [(5, {"loss": 0.5})]
    assert run.finished == [("SUCCEEDED", None)]


def test_trl_callback_answers_every_trainer_event_even_without_transformers():
    callback = trl_hook.ParavtCallback(RecordingRun())
    for event in trl_hook._EVENTS + ("on_some_future_event",):
        state = TrainerState(is_world_process_zero=True)
        assert getattr(callback, event)(None, state, None, **HANDLER_KWARGS) is None
    try:
        from transformers import TrainerCallback
    except ImportError:
        return
    assert isinstance(callback, TrainerCallback)


def test_a_failing_run_never_reaches_the_trainer():
    class BrokenRun(RecordingRun):
        def log(self, values, step):
            raise ConnectionError("workbench gone")

    callback = trl_hook.ParavtCallback(BrokenRun())
    state = TrainerState(global_step=1, is_world_process_zero=True)
    with pytest.warns(RuntimeWarning, match="workbench gone"):
        assert callback.on_log(TrainingArguments(run_name="x"), state, object(), logs={"loss": 1.0}) is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the same failure is warned about once only
        callback.on_log(TrainingArguments(run_name="x"), state, object(), logs={"loss": 1.0})


def test_completions_keep_whole_groups_within_the_apis_1000_rollouts_a_step():
    n = 1030
    batch = {
        "prompt": [f"prompt {i // 6}" for i in range(n)],
        "completion": ["x" * 10] * n,
        "rewards": {"acc": [1.0] * n},
        "advantages": [0.0] * n,
    }
    rollouts = trl_hook.completions_to_rollouts(batch, num_generations=6)
    assert len(rollouts) == 996  # 166 whole groups of 6
    assert rollouts[-1]["index"] == 995 and rollouts[-1]["group"] == 165


def test_completions_pass_texts_whole_and_count_logged_images_as_k():
    long_prompt = "p" * 30_000
    batch = {
        "prompt": [long_prompt, long_prompt],
        "completion": ["c" * 250_000, "short"],
        "rewards": {"acc": [1.0, 0.0]},
        "advantages": [1.0, -1.0],
        "images": [["img"] * 8, ["img"] * 8],
        "extra": {"solution": ["42", "42"]},
    }
    rollouts = trl_hook.completions_to_rollouts(batch, num_generations=2, answer_column="solution")
    assert rollouts[0]["k"] == 8 and rollouts[0]["sample"]["answer"] == "42"
    # Whole: cutting to the API's limits is the SDK's (one place, with a warning saying so).
    assert rollouts[0]["sample"]["question"] == long_prompt and len(rollouts[0]["finalText"]) == 250_000
    other = trl_hook.completions_to_rollouts({**batch, "prompt": [long_prompt + "!", long_prompt]}, num_generations=2)
    assert other[0]["sample"]["key"] != rollouts[0]["sample"]["key"]


def test_the_sdk_takes_what_the_trl_hook_produces_without_a_problem():
    """The SDK's own item builders (paravt_workbench/_items.py), which apply the API's bounds and report
    every change as a problem: the hook's output needs none beyond the once-a-run note that text
    rollouts have no video."""
    from paravt_workbench._items import RolloutBuilder, metric_item
    from paravt_workbench._problems import ParavtWarning, Problems

    problems = Problems()
    trainer = make_grpo_trainer()
    rollouts = trl_hook.completions_to_rollouts(trainer._logs, num_generations=trainer.num_generations)
    with pytest.warns(ParavtWarning, match="videoId"):
        built = RolloutBuilder(problems).build(7, rollouts)
    assert len(built) == 4
    items = [json.loads(text) for _, text in built]
    for item in items:
        assert not schema_problems(item, ROLLOUT_ITEM)
    assert [item["rewardTerms"]["group"] for item in items] == [0, 0, 1, 1]
    assert [item["rewardTerms"]["groupSize"] for item in items] == [2, 2, 2, 2]
    assert items[1]["rewardTerms"]["advantage"] == -0.7071
    assert metric_item("m", 7, metric_values(grpo_logs(0.5)), 0.0, problems) is not None
    assert [m for m in problems.messages if "videoId" not in m] == []


# ---------------------------------------------------------------------------------------------
# verl
#
# volcengine/verl verl/utils/tracking.py @ b178a3cd56f58b2d502255daba591e92833930a7:
#   Tracking.log(self, data, step, backend=None): for each (name, logger) in self.logger.items(),
#   if backend is None or name in backend: logger.log(data=data, step=step)
# verl/trainer/ppo/ray_trainer.py (same commit), RayPPOTrainer.fit: logger.log(data=val_metrics,
#   step=self.global_steps) before training and logger.log(data=metrics, step=self.global_steps)
#   after each step, metrics holding numpy / python numbers under names such as the ones below.
# ---------------------------------------------------------------------------------------------


class VerlTracking:
    """verl's Tracking with its backends dict, logging exactly as Tracking.log does."""

    def __init__(self) -> None:
        self.logger: Dict[str, Any] = {}

    def log(self, data, step, backend=None):
        for default_backend, logger_instance in self.logger.items():
            if backend is None or default_backend in backend:
                logger_instance.log(data=data, step=step)


def verl_step_metrics(global_step: int) -> Dict[str, Any]:
    return {
        "actor/pg_loss": -0.0132,
        "actor/grad_norm": 0.41,
        "critic/score/mean": 0.61,
        "critic/advantages/max": 2.1,
        "response_length/mean": 512.25,
        "timing_s/gen": 12.5,
        "perf/throughput": 1532.0,
        "training/global_step": global_step,
        "training/epoch": 0,
        "val-core/openai/gsm8k/reward/mean@1": 0.58,
    }


def test_verl_backend_receives_every_tracking_log_with_api_valid_names():
    run = RecordingRun()
    tracking = VerlTracking()
    backend = verl_hook.attach(tracking, run)
    assert tracking.logger["paravt"] is backend
    tracking.log(data={"val-core/openai/gsm8k/reward/mean@1": 0.41}, step=0)  # val_before_train
    tracking.log(data=verl_step_metrics(1), step=1)
    tracking.log(data={"only/wandb": 1.0}, step=1, backend=["wandb"])  # another backend's data
    assert [step for step, _ in run.logged] == [0, 1]
    assert run.logged[0][1] == {"val-core/openai/gsm8k/reward/mean_at_1": 0.41}
    assert run.logged[1][1]["actor/pg_loss"] == -0.0132
    assert run.logged[1][1]["training/global_step"] == 1.0
    backend.finish()
    assert run.finished == []  # a run handed in is the caller's


def test_verl_numpy_values_and_tables_as_the_trainer_produces_them():
    np = pytest.importorskip("numpy")
    run = RecordingRun()
    tracking = VerlTracking()
    verl_hook.attach(tracking, run)
    metrics = verl_step_metrics(3)
    metrics.update({"actor/entropy": np.float32(0.5), "critic/vf_loss": np.float64(0.25), "batch/size": np.int64(256)})
    metrics["val/generations"] = np.array([1.0, 2.0])  # not a scalar: skipped, never a crash
    tracking.log(data=metrics, step=3)
    values = run.logged[0][1]
    assert values["actor/entropy"] == 0.5 and values["critic/vf_loss"] == 0.25 and values["batch/size"] == 256.0
    assert "val/generations" not in values


def test_verl_backend_without_a_run_starts_one_and_finish_ends_it(monkeypatch):
    run = RecordingRun()
    started: List[Dict[str, Any]] = []
    monkeypatch.setattr(verl_hook, "init_run", lambda **kw: started.append(kw) or run)
    backend = verl_hook.ParavtTrackingBackend(project_name="gsm8k", experiment_name="ppo-7b", config={"lr": 1e-6})
    backend.log(data={"critic/score/mean": 0.5}, step=2)
    backend.finish()
    assert started == [{"name": "ppo-7b", "config": {"lr": 1e-6}, "tags": ["verl:gsm8k"]}]
    assert run.logged == [(2, {"critic/score/mean": 0.5})] and run.finished == [("SUCCEEDED", None)]


# ---------------------------------------------------------------------------------------------
# AReaL
#
# inclusionAI/AReaL areal/utils/stats_logger.py @ 4aef98d8d818af55b43621aaadba047ae10f4e77 (and the
# copy in EvolvingLMMs-Lab/ParaVT paravt/rl/areal/utils/stats_logger.py @ cf55249e, which starts
# _last_commit_step at 0 instead of -1), StatsLogger.commit(epoch, step, global_step, data):
#   return on ranks != 0; data = [data] if dict; log_step = max(global_step, _last_commit_step + 1);
#   item i without "__count" keys goes to wandb.log(item, step=log_step + i);
#   _last_commit_step = log_step + len(data) - 1
# The trainer: self.stats_logger = StatsLogger(config, ft_spec) (ParaVT rl.py:183, AReaL
# rl_trainer.py:358), self.stats_logger.commit(epoch, epoch_step, global_step, stats) (rl.py:687,
# rl_trainer.py:1189), self.stats_logger.close() in close() (rl.py:406), close() from __exit__.
# stats come from stats_tracker.export(): "<scope>/<key>" floats, "/avg" "/min" "/max" for
# AVG_MIN_MAX keys, and "<key>__count" ints beside SCALAR keys.
# ---------------------------------------------------------------------------------------------


class AReaLStatsLogger:
    """StatsLogger.commit / close / state_dict as AReaL writes them, W&B replaced by a list."""

    def __init__(self, last_commit_step: int = -1) -> None:
        self._last_commit_step = last_commit_step
        self.wandb: List[tuple] = []
        self.closed = False

    def state_dict(self):
        return {"last_commit_step": self._last_commit_step}

    def load_state_dict(self, state_dict):
        self._last_commit_step = state_dict["last_commit_step"]

    def commit(self, epoch, step, global_step, data):
        dist = sys.modules.get("torch.distributed")
        if dist is not None and dist.is_initialized() and dist.get_rank() != 0:
            return
        if isinstance(data, dict):
            data = [data]
        log_step = max(global_step, self._last_commit_step + 1)
        for i, item in enumerate(data):
            item = {k: v for k, v in item.items() if not k.endswith("__count")}
            self.wandb.append((log_step + i, item))
        self._last_commit_step = log_step + len(data) - 1

    def close(self):
        self.closed = True


class PPOTrainer:
    """The parts of AReaL's PPOTrainer that touch the stats logger."""

    def __init__(self, stats_logger, experiment_name="paravt-8b", trial_name="trial-3") -> None:
        self.config = types.SimpleNamespace(
            experiment_name=experiment_name,
            trial_name=trial_name,
            stats_logger=types.SimpleNamespace(experiment_name=experiment_name, trial_name=trial_name),
        )
        self.stats_logger = stats_logger

    def _export_and_commit_stats(self, epoch, epoch_step, global_step, stats):
        self.stats_logger.commit(epoch, epoch_step, global_step, stats)

    def close(self):
        self.stats_logger.close()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.close()
        if exc_type is not None:
            raise exc_value


def areal_stats(reward: float) -> Dict[str, Any]:
    return {
        "ppo_actor/task_reward/avg": reward,
        "ppo_actor/task_reward/min": 0.0,
        "ppo_actor/task_reward/max": 1.5,
        "ppo_actor/update/grad_norm": 0.33,
        "reward_breakdown/accReward": reward,
        "tool_stats/tool_call_count": 2.5,
        "tool_stats/tool_call_count__count": 64,
        "timeperf/train_step": 41.2,
    }


@pytest.mark.parametrize("last_commit_step", [-1, 0])  # AReaL upstream, ParaVT's copy
def test_areal_commits_reach_the_run_at_the_steps_wandb_shows(last_commit_step):
    run = RecordingRun()
    inner = AReaLStatsLogger(last_commit_step)
    trainer = PPOTrainer(inner)
    wrapper = areal_hook.attach(trainer, run)
    assert trainer.stats_logger is wrapper
    trainer._export_and_commit_stats(0, 0, 0, areal_stats(0.5))
    trainer._export_and_commit_stats(0, 1, 1, [areal_stats(0.75), areal_stats(1.0)])
    assert run.logged == [(step, metric_values(item)) for step, item in inner.wandb]
    assert "tool_stats/tool_call_count__count" not in run.logged[0][1]
    assert run.logged[0][1]["reward_breakdown/accReward"] == 0.5
    # The recover checkpoint still reads and restores the wrapped logger's state.
    assert wrapper.state_dict() == {"last_commit_step": inner._last_commit_step}
    wrapper.load_state_dict({"last_commit_step": 7})
    assert inner._last_commit_step == 7


def test_areal_ranks_other_than_0_send_nothing(monkeypatch):
    fake_dist = types.SimpleNamespace(is_available=lambda: True, is_initialized=lambda: True, get_rank=lambda: 1)
    monkeypatch.setitem(sys.modules, "torch.distributed", fake_dist)
    run = RecordingRun()
    trainer = PPOTrainer(AReaLStatsLogger())
    areal_hook.attach(trainer, run)
    trainer._export_and_commit_stats(0, 0, 0, areal_stats(0.5))
    assert run.logged == []


def test_areal_attach_without_a_run_names_it_after_the_trial_and_finishes_it_at_close(monkeypatch):
    runs: List[RecordingRun] = []
    started: List[Dict[str, Any]] = []

    def fake_init(**kwargs):
        started.append(kwargs)
        runs.append(RecordingRun())
        return runs[-1]

    monkeypatch.setattr(areal_hook, "init_run", fake_init)
    with PPOTrainer(AReaLStatsLogger()) as trainer:
        areal_hook.attach(trainer)
        trainer._export_and_commit_stats(0, 0, 0, areal_stats(0.5))
    assert started == [{"name": "trial-3", "client_id": "areal/paravt-8b/trial-3"}]
    assert trainer.stats_logger.inner.closed
    assert runs[0].finished == [("SUCCEEDED", None)]

    with pytest.raises(RuntimeError, match="NCCL timeout"):
        with PPOTrainer(AReaLStatsLogger()) as trainer:
            areal_hook.attach(trainer)
            raise RuntimeError("NCCL timeout")
    assert runs[1].finished == [("FAILED", "RuntimeError: NCCL timeout")]


def test_areal_a_run_handed_in_is_not_finished_by_close():
    run = RecordingRun()
    with PPOTrainer(AReaLStatsLogger()) as trainer:
        areal_hook.attach(trainer, run)
    assert run.finished == []


def test_metric_names_become_what_the_api_accepts():
    assert metric_name("val-core/openai/gsm8k/reward/mean@1") == "val-core/openai/gsm8k/reward/mean_at_1"
    assert metric_name("eval accuracy (%)") == "eval_accuracy____"
    assert metric_name("x" * 150) == "x" * 100
    assert metric_name("") is None and metric_name(3) is None
    pattern = METRIC_ITEM["properties"]["values"]["propertyNames"]["pattern"]
    assert re.match(pattern, metric_name("a b@c/d:e-f.g")) is not None


# ---------------------------------------------------------------------------------------------
# Against the real workbench (conftest.py `workbench`; skipped without PARAVT_TEST_URL): each hook
# with a real paravt run, read back through the generated REST client (paravt_workbench.api).
# ---------------------------------------------------------------------------------------------


def _real_run(workbench, spool_dir, prefix: str):
    import paravt_workbench as pvt

    return pvt.init(
        project=workbench.project,
        name=f"{prefix}-{uuid.uuid4().hex[:10]}",
        api_url=workbench.url,
        api_token=workbench.token,
        spool_dir=str(spool_dir),
    )


def _api(workbench):
    from paravt_workbench.api import ApiClient

    return ApiClient(workbench.url, workbench.token, timeout=60)


def test_workbench_trl_callback_run_has_its_metrics_and_grpo_groups(workbench, spool_dir):
    run = _real_run(workbench, spool_dir, "hook-trl")
    trainer = make_grpo_trainer()
    callback = trl_hook.ParavtCallback(run, trainer=trainer)
    args = TrainingArguments(run_name=run.name, output_dir="out")
    state = TrainerState(global_step=0, is_world_process_zero=True, epoch=0.0)
    call_event([callback], "on_train_begin", args, state, object())
    for step in (1, 2):  # step 2 trains on the same generation: its rollouts are step 1's
        state.global_step = step
        call_event([callback], "on_log", args, state, object(), logs=grpo_logs(0.25 * step))
    call_event([callback], "on_train_end", args, state, object())
    run.finish()
    assert run.problems == [m for m in run.problems if "videoId" in m]

    api = _api(workbench)
    assert api.runs_by_id(workbench.project, run.id)["status"] == "SUCCEEDED"
    names = {m["name"]: m for m in api.runs_metric_names(workbench.project, run.id)}
    assert names["reward"]["count"] == 2 and names["rewards/accuracy_reward/mean"]["lastStep"] == 2
    assert "tools/call_frequency" not in names
    page = api.runs_step_rollouts(workbench.project, run.id, 1)
    items = sorted(page["items"], key=lambda r: r["rollout"])
    assert [r["rollout"] for r in items] == [0, 1, 2, 3]
    terms = [r["rewardTerms"] or {} for r in items]
    assert [(t["group"], t["groupIndex"], t["groupSize"]) for t in terms] == [(0, 0, 2), (0, 1, 2), (1, 0, 2), (1, 1, 2)]
    assert [t["advantage"] for t in terms] == [0.7071, -0.7071, 0.7071, -0.7071]
    assert items[0]["sample"]["key"] == items[1]["sample"]["key"] != items[2]["sample"]["key"]
    assert [r["score"] for r in items] == [2.0, 1.0, 2.0, 0.0]
    assert api.runs_step_rollouts(workbench.project, run.id, 2)["items"] == []


def test_workbench_verl_backend_run_has_its_metrics_under_api_names(workbench, spool_dir):
    run = _real_run(workbench, spool_dir, "hook-verl")
    tracking = VerlTracking()
    verl_hook.attach(tracking, run)
    for step in (1, 2, 3):
        tracking.log(data=verl_step_metrics(step), step=step)
    run.finish()
    points = _api(workbench).runs_metrics_export(
        workbench.project, run.id, names=["val-core/openai/gsm8k/reward/mean_at_1", "training/global_step"], format="json"
    )
    rows = json.loads(points["content"])
    assert [(r["step"], r["training/global_step"]) for r in rows] == [(1, 1), (2, 2), (3, 3)]
    assert all(r["val-core/openai/gsm8k/reward/mean_at_1"] == 0.58 for r in rows)


def test_workbench_areal_hook_run_matches_wandbs_steps_and_is_finished_by_close(workbench, spool_dir, monkeypatch):
    runs: List[Any] = []
    monkeypatch.setattr(
        areal_hook,
        "init_run",
        lambda **kwargs: runs.append(_real_run(workbench, spool_dir, kwargs["name"])) or runs[-1],
    )
    inner = AReaLStatsLogger(last_commit_step=0)  # ParaVT's copy starts at 0
    with PPOTrainer(inner, trial_name="hook-areal") as trainer:
        areal_hook.attach(trainer)
        trainer._export_and_commit_stats(0, 0, 0, areal_stats(0.5))
        trainer._export_and_commit_stats(0, 1, 1, [areal_stats(0.75), areal_stats(1.0)])
    run = runs[0]
    api = _api(workbench)
    assert api.runs_by_id(workbench.project, run.id)["status"] == "SUCCEEDED"
    export = api.runs_metrics_export(workbench.project, run.id, names=["ppo_actor/task_reward/avg"], format="json")
    got = {r["step"]: r["ppo_actor/task_reward/avg"] for r in json.loads(export["content"])}
    assert got == {step: item["ppo_actor/task_reward/avg"] for step, item in inner.wandb}
    names = {m["name"] for m in api.runs_metric_names(workbench.project, run.id)}
    assert "tool_stats/tool_call_count" in names and "tool_stats/tool_call_count__count" not in names
