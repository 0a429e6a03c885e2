"""ParaVT workbench SDK: log a training run's metrics and full agentic rollouts from Python.

    import paravt_workbench as pvt
    run = pvt.init(name="qwen-8b-grpo", config={"lr": 2e-6})
    run.log({"reward_mean": 0.61, "kl": 0.002}, step=12)

Standard library only. See sdk/python/README.md. The package is ``paravt_workbench`` (the
distribution ``paravt-workbench``), not ``paravt``: that name belongs to the ParaVT reference
trainer (EvolvingLMMs-Lab/ParaVT), which must stay importable in the same environment.
"""

from ._problems import ParavtWarning
from ._version import __version__
from .run import Run, init

__all__ = ["init", "Run", "ParavtWarning", "__version__"]
