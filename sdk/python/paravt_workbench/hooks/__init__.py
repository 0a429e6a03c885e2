"""Framework hooks: a few lines in a trainer send what it logs to a paravt run.

- `paravt_workbench.hooks.trl.ParavtCallback`: a transformers / TRL `TrainerCallback` (metrics of every log,
  and the GRPO trainers' generation batches as rollouts with their groups and advantages).
- `paravt_workbench.hooks.verl.attach` / `ParavtTrackingBackend`: a backend for verl's `Tracking` (metrics;
  verl has no plug-in point, so stock `main_ppo` runs use the follower instead).
- `paravt_workbench.hooks.areal.attach` / `ParavtStatsLogger`: wraps AReaL's `StatsLogger` (metrics at the
  steps W&B shows).

Import the module of your framework; this package imports none of them (nor the frameworks). A
hook never raises into the trainer: its own failures are warned about once and skipped.
"""
