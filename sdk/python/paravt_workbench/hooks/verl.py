"""A verl tracking backend: verl's `Tracking` logs each step's metrics dict to every backend in its
`logger` dict as `backend.log(data=data, step=step)` (verl/utils/tracking.py, `Tracking.log`), the
protocol of its own adapters (`_TensorboardAdapter`, `FileLogger`: `log(data, step)`, `finish()`).

verl has no plug-in point for a new backend: `Tracking.__init__` builds a fixed list
(`supported_backend`, asserted), and its trainers (`RayPPOTrainer.fit`, the SFT trainers) make
their `Tracking` inside `fit()`. So:

- stock `python -m verl.trainer.main_ppo`: change nothing in verl; use the follower
  (`paravt follow verl`, with `trainer.rollout_data_dir=…` for rollouts) or verl's `trackio`
  backend and the Trackio follower;
- your own loop, or a trainer you subclass or copy that holds a `Tracking`: `attach(tracking, run)`
  adds this backend to `tracking.logger`, and every `tracking.log(data, step)` reaches the run.

    from verl.utils.tracking import Tracking
    from paravt_workbench.hooks.verl import attach

    tracking = Tracking(project_name="gsm8k", experiment_name="ppo-7b", default_backend=["console"])
    attach(tracking, run)
    tracking.log({"critic/score/mean": 0.61, "val-core/openai/gsm8k/reward/mean@1": 0.58}, step=12)

Metric names keep verl's slashes; `@` becomes `_at_` (verl's MLflow adapter's rule) and values that
are no numbers (a pandas table for ClearML) are skipped.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional

from ._common import init_run, metric_values, never_raises, without_none

__all__ = ["ParavtTrackingBackend", "attach", "BACKEND_NAME"]

#: The key of this backend in `Tracking.logger` (also what `Tracking.log(..., backend=[...])` names).
BACKEND_NAME = "paravt"


class ParavtTrackingBackend:
    """`log(data, step)` -> `run.log(values, step)`; `finish()` finishes a run this backend started.

    Without a run, one is started from `project_name` / `experiment_name` / `config` (what verl
    passes its own backends), named after the experiment.
    """

    def __init__(
        self,
        run: Any = None,
        *,
        project_name: Optional[str] = None,
        experiment_name: Optional[str] = None,
        config: Optional[Mapping[str, Any]] = None,
        **init_kwargs: Any,
    ) -> None:
        self._owns_run = run is None
        self.run = (
            run
            if run is not None
            else init_run(
                **without_none(
                    {
                        "name": experiment_name,
                        "config": dict(config) if config is not None else None,
                        "tags": [f"verl:{project_name}"] if project_name else None,
                        **init_kwargs,
                    }
                )
            )
        )

    @never_raises("verl log")
    def log(self, data: Mapping[str, Any], step: int) -> None:
        values = metric_values(data)
        if values:
            self.run.log(values, step=int(step))

    @never_raises("verl finish")
    def finish(self) -> None:
        if self._owns_run:
            self.run.finish("SUCCEEDED")


def attach(tracking: Any, run: Any = None, **init_kwargs: Any) -> ParavtTrackingBackend:
    """Adds a ParavtTrackingBackend to a verl `Tracking` (its `logger` dict, which `Tracking.log`
    iterates) and returns it. `Tracking.__del__` finishes only the backends it knows, so finish
    the run yourself after training (`run.finish()`, or `backend.finish()` when it started it)."""
    backend = ParavtTrackingBackend(run, **init_kwargs)
    tracking.logger[BACKEND_NAME] = backend
    return backend
