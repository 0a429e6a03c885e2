"""verl's Tracking with a paravt backend added: everything `tracking.log(data, step)` sends to its
backends reaches the workbench run too.

    pip install ./sdk/python verl
    export PARAVT_API_URL=http://localhost:3000 PARAVT_API_TOKEN=pvt_…
    python sdk/python/examples/verl_tracking.py

verl builds its Tracking inside its trainers' `fit()` and has no plug-in point for new backends,
so this is for loops that hold their own Tracking (your training loop, a trainer you subclass or
copy). For a stock `python -m verl.trainer.main_ppo` run, change nothing in verl and use the
follower instead: `paravt follow verl` with `trainer.rollout_data_dir=…` (or verl's `trackio`
backend and the Trackio follower).

The values below stand in for a PPO step's metrics under the names RayPPOTrainer.fit logs; in a
real loop they are that dict.
"""

import math

from verl.utils.tracking import Tracking

import paravt_workbench as pvt
from paravt_workbench.hooks.verl import attach


def main() -> None:
    run = pvt.init(name="verl-tracking-example", config={"algorithm": "grpo", "lr": 1e-6}, tags=["example"])
    tracking = Tracking(
        project_name="paravt-examples", experiment_name="verl-tracking-example", default_backend=["console"]
    )
    attach(tracking, run)  # paravt: the one line

    for step in range(1, 21):
        score = 1 - math.exp(-step / 8)
        tracking.log(
            data={
                "critic/score/mean": score,
                "actor/pg_loss": -0.01 * score,
                "actor/entropy": 1.2 - 0.02 * step,
                "response_length/mean": 300 + 5 * step,
                "val-core/openai/gsm8k/reward/mean@1": score * 0.9,  # sent as …/mean_at_1
            },
            step=step,
        )
    run.finish()
    print(run.url)


if __name__ == "__main__":
    main()
