"""The ParaVT reference trainer (AReaL) with its stats in the workbench: paravt/rl/train.py of
https://github.com/EvolvingLMMs-Lab/ParaVT with one added line.

    pip install ./sdk/python          # into the ParaVT RL venv (.venv-rl)
    export PARAVT_API_URL=http://localhost:3000 PARAVT_API_TOKEN=pvt_…

then launch it as the ParaVT repository's scripts/run_rl.sh launches paravt/rl/train.py (AReaL's
local launcher, a recipe of paravt/rl/configs/), with this file in train.py's place.

`attach(trainer)` wraps `trainer.stats_logger`: W&B, SwanLab and TensorBoard get what they got
before, and every `commit(...)` reaches a workbench run named after `stats_logger.trial_name`, at
the same steps W&B shows. The run's client id is `areal/<experiment_name>/<trial_name>`, so a trial
that AReaL recovers after a crash continues the same run; `trainer.close()` finishes it (FAILED
with the error when training raised). Rollouts come from the follower of AReaL's rollout dumps
(`paravt follow`), which needs no change here.
"""

import os
import sys

from areal.api.cli_args import load_expr_config
from transformers import AutoProcessor, AutoTokenizer

from paravt_workbench.hooks.areal import attach
from paravt.rl.config import paravt_block_to_env
from paravt.rl.data.dataset import load_paravt_rl_dataset
from paravt.rl.rewards import compose_reward
from paravt.rl.trainer import HierarchicalPPOTrainer
from paravt.rl.workflow import HierarchicalAgentGRPOConfig


def main(argv: list) -> None:
    config, _ = load_expr_config(argv, HierarchicalAgentGRPOConfig)
    os.environ.update(paravt_block_to_env(config.paravt))
    processor = AutoProcessor.from_pretrained(config.tokenizer_path)
    tokenizer = AutoTokenizer.from_pretrained(config.tokenizer_path)
    train_dataset = load_paravt_rl_dataset(
        config.train_dataset.path, video_root=os.environ.get("PARAVT_VIDEO_ROOT", "./data/videos")
    )
    workflow_kwargs = dict(
        reward_fn=compose_reward,
        gconfig=config.gconfig,
        tokenizer=tokenizer,
        processor=processor,
        config=config.hierarchical_agent,
    )
    with HierarchicalPPOTrainer(config, train_dataset, None) as trainer:
        attach(trainer)  # paravt: the one line
        trainer.train(
            workflow="paravt.rl.workflow.HierarchicalAgentWorkflow",
            workflow_kwargs=workflow_kwargs,
            eval_workflow="paravt.rl.workflow.HierarchicalAgentWorkflow",
            eval_workflow_kwargs={**workflow_kwargs, "gconfig": config.gconfig.new(temperature=0.6)},
        )


if __name__ == "__main__":
    main(sys.argv[1:])
