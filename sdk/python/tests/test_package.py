"""The package as a trainer gets it: `pip install ./sdk/python` with no index (the stdlib backend
of _build/ needs nothing fetched), importable from the installed copy with its PEP 561 marker, and
examples that name only what the SDK has. No server needed."""

from __future__ import annotations

import ast
import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import SDK_DIR

EXAMPLES = sorted((SDK_DIR / "examples").glob("*.py"))


def test_pip_installs_the_folder_offline_and_the_installed_copy_imports_with_its_type_marker(tmp_path):
    if subprocess.run([sys.executable, "-m", "pip", "--version"], capture_output=True).returncode != 0:
        pytest.skip("this interpreter has no pip")
    site = tmp_path / "site"
    pip = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-index", "--disable-pip-version-check"]
        + ["--target", str(site), str(SDK_DIR)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert pip.returncode == 0, pip.stdout + pip.stderr
    # Type checkers read the SDK's annotations only when the marker is installed with it.
    assert (site / "paravt" / "py.typed").is_file()
    code = "import paravt, paravt.api, paravt.hooks.trl, paravt.hooks.verl, paravt.hooks.areal; print(paravt.__file__)"
    # From outside the repository, with only the installed copy on the path.
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(site), "PYTHONDONTWRITEBYTECODE": "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert Path(out.stdout.strip()).parent == site / "paravt"


def sdk_names(tree: ast.AST):
    """(module, name) of every `from paravt[.x] import name` and `paravt.<name>` an example uses,
    leaving out the ParaVT reference trainer's own `paravt.rl` modules."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "paravt":
            if not node.module.startswith("paravt.rl"):
                yield from ((node.module, alias.name) for alias in node.names)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "paravt":
            yield ("paravt", node.attr)


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_an_example_names_only_what_the_sdk_has(example):
    tree = ast.parse(example.read_text("utf-8"), str(example))  # a syntax error fails here
    used = sorted(set(sdk_names(tree)))
    assert used, f"{example.name} uses nothing of the SDK"
    for module, name in used:
        assert hasattr(importlib.import_module(module), name), f"{example.name}: {module}.{name} does not exist"
