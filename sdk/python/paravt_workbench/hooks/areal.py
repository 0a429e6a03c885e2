"""An AReaL `StatsLogger` hook (AReaL is the ParaVT reference trainer's framework).

AReaL's trainers hold their logger as an attribute and commit each step's stats through it:
`self.stats_logger = StatsLogger(config, ft_spec)` in `__init__`, then
`self.stats_logger.commit(epoch, epoch_step, global_step, stats)` after every step and
`self.stats_logger.close()` in `close()` (areal/trainer/rl_trainer.py upstream;
paravt/rl/areal/experimental/trainer/rl.py in the ParaVT repository, whose
`HierarchicalPPOTrainer` subclasses it). `StatsLogger.commit` (areal/utils/stats_logger.py) takes a
dict or a list of dicts, logs item i at `max(global_step, last_commit_step + 1) + i`, on rank 0
only, without the `<key>__count` entries of `stats_tracker.export`.

`attach(trainer, run)` wraps that attribute: the original logger still does everything it did
(W&B, SwanLab, Trackio, TensorBoard, the recover checkpoint's `state_dict`), and the same items
go to the run at the same steps, so the workbench's step N is W&B's step N.

    with HierarchicalPPOTrainer(config, train_dataset, valid_dataset) as trainer:
        attach(trainer)        # a run named after config.trial_name, finished by trainer.close()
        trainer.train(workflow=..., workflow_kwargs=...)
"""

from __future__ import annotations

import dataclasses
import sys
from typing import Any, List, Mapping, Optional, Union

from ._common import init_run, metric_values, never_raises, without_none

__all__ = ["ParavtStatsLogger", "attach"]


def _rank() -> int:
    # torch.distributed only if the trainer already imported it: this module must not import torch.
    dist = sys.modules.get("torch.distributed")
    try:
        if dist is not None and dist.is_available() and dist.is_initialized():
            return int(dist.get_rank())
    except Exception:  # noqa: BLE001 - a half-initialised process group: act as rank 0's peer would
        return 0
    return 0


class ParavtStatsLogger:
    """Wraps a StatsLogger; anything not defined here is the wrapped logger's (`state_dict`,
    `load_state_dict`, `print_stats`, `get_log_path`, `config`, ...)."""

    def __init__(self, inner: Any, run: Any, *, owns_run: bool = False) -> None:
        self.inner = inner
        self.run = run
        #: A run the hook started is finished by `close()`; one you passed is yours to finish.
        self.owns_run = owns_run

    def __getattr__(self, name: str) -> Any:
        # Only called for names this class lacks; `inner` itself is set in __init__.
        if name == "inner":
            raise AttributeError(name)
        return getattr(self.inner, name)

    def commit(self, epoch: int, step: int, global_step: int, data: Union[Mapping[str, Any], List[Mapping[str, Any]]]):
        # The step StatsLogger.commit is about to use, read before it moves its counter.
        last = getattr(self.inner, "_last_commit_step", None)
        first_step = max(int(global_step), int(last) + 1) if isinstance(last, int) else int(global_step)
        result = self.inner.commit(epoch, step, global_step, data)
        self._send(first_step, data)
        return result

    @never_raises("areal commit")
    def _send(self, first_step: int, data: Union[Mapping[str, Any], List[Mapping[str, Any]]]) -> None:
        if _rank() != 0:
            return
        items = [data] if isinstance(data, Mapping) else list(data)
        for i, item in enumerate(items):
            values = metric_values({k: v for k, v in item.items() if not str(k).endswith("__count")})
            if values:
                self.run.log(values, step=first_step + i)

    def close(self) -> Any:
        # PPOTrainer.__exit__ calls close() before re-raising the training's exception, which is
        # then the one being handled: that is how a crashed run is told from a finished one.
        failure = sys.exc_info()[1]
        try:
            return self.inner.close()
        finally:
            self._finish(failure)

    @never_raises("areal close")
    def _finish(self, failure: Optional[BaseException]) -> None:
        if not self.owns_run or _rank() != 0:
            return
        if failure is None:
            self.run.finish("SUCCEEDED")
        else:
            self.run.finish("FAILED", error=f"{type(failure).__name__}: {failure}")


def _config_dict(config: Any) -> Optional[dict]:
    if dataclasses.is_dataclass(config) and not isinstance(config, type):
        try:
            return dataclasses.asdict(config)
        except Exception:  # noqa: BLE001 - a config that does not copy: the run goes without it
            return None
    return None


def attach(trainer: Any, run: Any = None, **init_kwargs: Any) -> ParavtStatsLogger:
    """Wraps `trainer.stats_logger` and returns the wrapper.

    Without a run, one is started as AReaL names its W&B run: named after `config.trial_name`,
    with the whole experiment config, and the client id `areal/<experiment_name>/<trial_name>`, so
    a trial AReaL recovers after a crash continues the same run.
    """
    owns_run = run is None
    if run is None:
        config = getattr(trainer, "config", None)
        stats_config = getattr(config, "stats_logger", None) or config
        experiment = getattr(stats_config, "experiment_name", None)
        trial = getattr(stats_config, "trial_name", None)
        run = init_run(
            **without_none(
                {
                    "name": trial or experiment,
                    "config": _config_dict(config),
                    "client_id": f"areal/{experiment}/{trial}" if experiment and trial else None,
                    **init_kwargs,
                }
            )
        )
    wrapper = ParavtStatsLogger(trainer.stats_logger, run, owns_run=owns_run)
    trainer.stats_logger = wrapper
    return wrapper
