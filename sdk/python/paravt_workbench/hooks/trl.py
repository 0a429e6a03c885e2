"""A transformers / TRL `TrainerCallback` that sends a trainer's logs to a paravt run and, for TRL's
GRPO-family trainers, each logged generation batch as rollouts with their GRPO groups.

    from paravt_workbench.hooks.trl import ParavtCallback

    trainer = GRPOTrainer(model=..., reward_funcs=[...], args=GRPOConfig(...), train_dataset=...)
    trainer.add_callback(ParavtCallback(trainer=trainer))   # a run named after args.run_name
    trainer.train()

What the trainer gives a callback (transformers `trainer_callback.py`, `CallbackHandler.call_event`):
`on_log(args, state, control, logs=..., model=, processing_class=, optimizer=, lr_scheduler=,
train_dataloader=, eval_dataloader=)`, called by `Trainer.log` with the dict it logs. TRL's
`GRPOTrainer.log` (trl/trainer/grpo_trainer.py) first merges its averaged metrics into `logs`
(`loss`, `grad_norm`, `learning_rate`, `num_tokens`, `completions/mean_length`, ...,
`rewards/<reward func>/mean` and `/std`, `reward`, `reward_std`, `frac_reward_zero_std`, `kl`,
`entropy`, `clip_ratio/...`; `eval_`-prefixed in evaluation; None where every value was NaN),
then calls `Trainer.log`, and only afterwards writes its completions table from `trainer._logs`:
deques of the latest generation batch (`prompt`, `completion`, `rewards[<func name>]`,
`advantages`, `extra[<column>]`, `images`), gathered from every process in generation order, so
rollouts i and j belong to the same prompt's group exactly when i // num_generations ==
j // num_generations. The callback is not handed the trainer, so it takes it at construction.

Without transformers installed the class is a plain object with every event the Trainer calls
(CallbackHandler looks events up by name), so this module always imports.
"""

from __future__ import annotations

import hashlib
import math
from typing import Any, Dict, List, Mapping, Optional, Sequence

from ._common import init_run, metric_values, never_raises, without_none

try:  # Subclass the real protocol when it is there (isinstance checks, future events as no-ops).
    from transformers import TrainerCallback as _CallbackBase
except Exception:  # noqa: BLE001 - absent, or present without what it needs (torch): duck-type
    _CallbackBase = None

__all__ = ["ParavtCallback", "completions_to_rollouts"]

#: rolloutIndex = step * 1000 + index (docs/ingestion-format.md): at most 1000 rollouts a step.
ROLLOUTS_PER_STEP = 1000

_EVENTS = (
    "on_init_end",
    "on_train_begin",
    "on_train_end",
    "on_epoch_begin",
    "on_epoch_end",
    "on_step_begin",
    "on_pre_optimizer_step",
    "on_optimizer_step",
    "on_substep_end",
    "on_step_end",
    "on_evaluate",
    "on_predict",
    "on_save",
    "on_log",
    "on_prediction_step",
)


class _NoEvents:
    """transformers.TrainerCallback's events as no-ops, for when transformers is not installed."""

    def __getattr__(self, name: str) -> Any:
        # An event a newer transformers adds is a no-op too, as in TrainerCallback.
        if name.startswith("on_"):
            return lambda *args, **kwargs: None
        raise AttributeError(name)


for _event in _EVENTS:
    setattr(_NoEvents, _event, lambda self, args, state, control, **kwargs: None)

_Base: Any = _CallbackBase if _CallbackBase is not None else _NoEvents


def _float_or_none(value: Any) -> Optional[float]:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def completions_to_rollouts(
    logs: Mapping[str, Any],
    *,
    num_generations: int,
    reward_weights: Optional[Sequence[float]] = None,
    k: Optional[int] = None,
    question_type: str = "oe",
    answer_column: Optional[str] = None,
) -> List[Dict[str, Any]]:
    """One rollout dict (the ingestion `rollout` line without type/step, plus `group` and
    `advantage`) per completion of a GRPOTrainer `_logs` batch.

    The sample key is a hash of the prompt text, so the same prompt at another step is the same
    sample. Texts go whole: the SDK cuts what is longer than the API takes, and says so. `score`
    and `rewardTerms.reward` are the weighted sum of the reward functions that scored the
    completion, as GRPOTrainer computes `reward` (NaN terms, a function that returned None, are
    left out; none left: no score). `k` is the number of overview frames: given, or the number of
    images TRL logged for the sample (log_multimodal), else 1, the API's least K, for a text-only
    rollout.
    """
    prompts = list(logs.get("prompt") or [])
    completions = list(logs.get("completion") or [])
    n = min(len(prompts), len(completions))
    rewards = {str(name): list(values) for name, values in (logs.get("rewards") or {}).items()}
    names = list(rewards)
    weights = list(reward_weights) if reward_weights is not None else [1.0] * len(names)
    advantages = list(logs.get("advantages") or [])
    extra = {str(name): list(values) for name, values in (logs.get("extra") or {}).items()}
    images = list(logs.get("images") or [])
    group_size = max(1, int(num_generations))
    # Whole groups only: a group cut at the 1000th rollout would show a wrong group in the viewer.
    n = min(n, (ROLLOUTS_PER_STEP // group_size) * group_size or ROLLOUTS_PER_STEP)

    rollouts: List[Dict[str, Any]] = []
    for i in range(n):
        prompt, completion = str(prompts[i]), str(completions[i])
        terms: Dict[str, float] = {}
        total, scored = 0.0, False
        for j, name in enumerate(names):
            value = _float_or_none(rewards[name][i]) if i < len(rewards[name]) else None
            if value is None:
                continue
            terms[name] = value
            weight = _float_or_none(weights[j]) if j < len(weights) else 1.0
            total += value * (weight if weight is not None else 1.0)
            scored = True
        score = total if scored else None
        if score is not None:
            terms["reward"] = score
        frames = k
        if frames is None:
            sample_images = images[i] if len(images) == len(prompts) and i < len(images) else None
            frames = len(sample_images) if sample_images else 1
        answer = ""
        if answer_column and answer_column in extra and i < len(extra[answer_column]):
            answer = str(extra[answer_column][i])
        rollout: Dict[str, Any] = {
            "index": i,
            "k": max(1, min(256, int(frames))),
            "sample": {
                "key": "trl-" + hashlib.sha1(prompt.encode("utf-8")).hexdigest()[:16],
                "question": prompt,
                "answer": answer,
                "questionType": question_type,
            },
            "finalText": completion,
            "score": score,
            "rewardTerms": terms,
            "turns": [{"index": 0, "rawText": completion}],
            "group": i // group_size,
        }
        advantage = _float_or_none(advantages[i]) if i < len(advantages) else None
        if advantage is not None:
            rollout["advantage"] = advantage
        rollouts.append(rollout)
    return rollouts


class ParavtCallback(_Base):  # type: ignore[misc, valid-type]
    """Sends every `on_log` to `run.log` at `state.global_step` and, with `trainer` given and
    `log_completions`, the trainer's latest generation batch to `run.log_rollouts`.

    - `run`: a `pvt.init(...)` run (`import paravt_workbench as pvt`); without one the callback
      starts one at `on_train_begin` (`pvt.init(name=args.run_name, config=args.to_dict(),
      **init_kwargs)`) and finishes it at `on_train_end`. A run you pass is yours to finish.
    - An evaluation log's `eval_…` keys become `val_…`, the names the workbench charts under
      "Validation" (its other keys, `epoch`, are left out); evaluation batches are not sent as
      rollouts (they would take the training rollouts' slots of that step).
    - A batch is sent once: with `num_iterations > 1` or `steps_per_generation` TRL logs the same
      generation at several steps, and only its first step gets it.
    - Only the world's main process logs (`state.is_world_process_zero`), as TRL writes its table.
    """

    def __init__(
        self,
        run: Any = None,
        *,
        trainer: Any = None,
        log_completions: bool = True,
        k: Optional[int] = None,
        question_type: str = "oe",
        answer_column: Optional[str] = None,
        **init_kwargs: Any,
    ) -> None:
        self.run = run
        self.trainer = trainer
        self.log_completions = log_completions
        self.k = k
        self.question_type = question_type
        self.answer_column = answer_column
        self._init_kwargs = init_kwargs
        self._owns_run = False
        self._last_batch: Optional[str] = None

    def _ensure_run(self, args: Any) -> Any:
        if self.run is None:
            to_dict = getattr(args, "to_dict", None)
            self.run = init_run(
                **without_none(
                    {
                        "name": getattr(args, "run_name", None),
                        "config": to_dict() if callable(to_dict) else None,
                        **self._init_kwargs,
                    }
                )
            )
            self._owns_run = True
        return self.run

    @never_raises("trl on_train_begin")
    def on_train_begin(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        if getattr(state, "is_world_process_zero", True):
            self._ensure_run(args)

    @never_raises("trl on_log")
    def on_log(self, args: Any, state: Any, control: Any, logs: Optional[Dict[str, Any]] = None, **kwargs: Any) -> None:
        if not getattr(state, "is_world_process_zero", True) or not logs:
            return
        run = self._ensure_run(args)
        step = int(getattr(state, "global_step", 0))
        evaluation = any(isinstance(key, str) and key.startswith("eval_") for key in logs)
        if evaluation:
            # Only the evaluation's own values: the `epoch` Trainer.log adds was sent with the
            # training log of this step already.
            logs = {
                "val_" + key[5:]: value
                for key, value in logs.items()
                if isinstance(key, str) and key.startswith("eval_")
            }
        values = metric_values(logs)
        if values:
            run.log(values, step=step)
        if self.log_completions and self.trainer is not None and not evaluation:
            self._send_completions(run, step)

    def _send_completions(self, run: Any, step: int) -> None:
        batch = getattr(self.trainer, "_logs", None)
        if not isinstance(batch, Mapping) or not batch.get("completion"):
            return
        fingerprint = hashlib.sha1(
            repr((list(batch.get("prompt") or []), list(batch.get("completion") or []))).encode("utf-8")
        ).hexdigest()
        if fingerprint == self._last_batch:
            return
        weights = getattr(self.trainer, "reward_weights", None)
        tolist = getattr(weights, "tolist", None)
        rollouts = completions_to_rollouts(
            batch,
            num_generations=int(getattr(self.trainer, "num_generations", 1) or 1),
            reward_weights=tolist() if callable(tolist) else weights,
            k=self.k,
            question_type=self.question_type,
            answer_column=self.answer_column,
        )
        if rollouts:
            run.log_rollouts(step, rollouts)
        self._last_batch = fingerprint

    @never_raises("trl on_train_end")
    def on_train_end(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        if self._owns_run and self.run is not None and getattr(state, "is_world_process_zero", True):
            self.run.finish("SUCCEEDED")

