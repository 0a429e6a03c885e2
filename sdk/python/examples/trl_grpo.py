"""GRPO with TRL, watched live in the workbench: metrics every step, each step's generation batch
as rollouts grouped by prompt (the run's "GRPO groups" view), rewards and advantages.

    pip install ./sdk/python trl            # transformers, torch, datasets come with trl
    export PARAVT_API_URL=http://localhost:3000 PARAVT_API_TOKEN=pvt_…
    python sdk/python/examples/trl_grpo.py

It trains TRL's own tiny test model (trl-internal-testing/tiny-Qwen2ForCausalLM-2.5, downloaded
from the Hugging Face Hub on first use) for a few steps on CPU, so the run shows up in about a
minute; swap in your model, dataset and reward functions. The paravt part is the two marked lines.
"""

from datasets import Dataset
from trl import GRPOConfig, GRPOTrainer

from paravt_workbench.hooks.trl import ParavtCallback

QUESTIONS = {"What is 2 + 2?": "4", "What is 3 * 3?": "9", "What is 10 - 7?": "3", "What is 12 / 4?": "3"}


def correct_answer(completions, answer, **kwargs):
    """1 when the completion contains the expected number (TRL passes dataset columns as kwargs)."""
    return [1.0 if expected in completion else 0.0 for completion, expected in zip(completions, answer)]


def short_answer(completions, **kwargs):
    return [1.0 if len(completion) < 40 else 0.0 for completion in completions]


def main() -> None:
    dataset = Dataset.from_dict({"prompt": list(QUESTIONS), "answer": list(QUESTIONS.values())})
    args = GRPOConfig(
        output_dir="paravt-trl-grpo-example",
        run_name="trl-grpo-example",  # the workbench run's name (and its client id)
        per_device_train_batch_size=4,
        num_generations=2,  # 2 prompts x 2 completions per step: 2 GRPO groups
        max_completion_length=24,
        max_steps=5,
        logging_steps=1,
        report_to="none",
        bf16=False,  # the example runs on CPU too
    )
    trainer = GRPOTrainer(
        model="trl-internal-testing/tiny-Qwen2ForCausalLM-2.5",
        reward_funcs=[correct_answer, short_answer],
        args=args,
        train_dataset=dataset,
    )
    # paravt: one callback; it starts the run at train begin and finishes it at train end.
    trainer.add_callback(ParavtCallback(trainer=trainer, tags=["example"]))
    trainer.train()


if __name__ == "__main__":
    main()
