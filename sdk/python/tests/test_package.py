"""The package as a trainer gets it: `pip install ./sdk/python` with no index (the stdlib backend
of _build/ needs nothing fetched), importable from the installed copy with its PEP 561 marker,
installable beside the ParaVT reference trainer's own `paravt` package without touching it, and
examples that name only what the SDK has. No server needed."""

from __future__ import annotations

import ast
import base64
import hashlib
import importlib
import os
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Dict, Iterator, Tuple

import pytest

from conftest import SDK_DIR

EXAMPLES = sorted((SDK_DIR / "examples").glob("*.py"))
SDK = "paravt_workbench"


def pip_install(target: Path, what: str) -> subprocess.CompletedProcess:
    if subprocess.run([sys.executable, "-m", "pip", "--version"], capture_output=True).returncode != 0:
        pytest.skip("this interpreter has no pip")
    return subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-index", "--disable-pip-version-check"]
        + ["--target", str(target), what],
        capture_output=True,
        text=True,
        timeout=300,
    )


def run_in(site: Path, cwd: Path, code: str) -> subprocess.CompletedProcess:
    """`code` in a fresh interpreter from outside the repository, with only `site` on the path."""
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(site), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True, timeout=60)


def test_pip_installs_the_folder_offline_and_the_installed_copy_imports_with_its_type_marker(tmp_path):
    site = tmp_path / "site"
    pip = pip_install(site, str(SDK_DIR))
    assert pip.returncode == 0, pip.stdout + pip.stderr
    # Type checkers read the SDK's annotations only when the marker is installed with it.
    assert (site / SDK / "py.typed").is_file()
    # The distribution is paravt-workbench (file names normalized), never `paravt`.
    (dist_info,) = site.glob("*.dist-info")
    assert dist_info.name.startswith("paravt_workbench-")
    assert "Name: paravt-workbench\n" in (dist_info / "METADATA").read_text("utf-8")
    assert (dist_info / "top_level.txt").read_text("utf-8") == f"{SDK}\n"
    assert not (site / "paravt").exists()
    code = f"import {SDK}, {SDK}.api, {SDK}.hooks.trl, {SDK}.hooks.verl, {SDK}.hooks.areal; print({SDK}.__file__)"
    out = run_in(site, tmp_path, code)
    assert out.returncode == 0, out.stderr
    assert Path(out.stdout.strip()).parent == site / SDK


# ----- beside the ParaVT reference trainer ------------------------------------------------------
#
# EvolvingLMMs-Lab/ParaVT (commit cf55249) is itself the distribution `paravt` (pyproject.toml:
# `[project] name = "paravt"`, `[tool.hatch.build.targets.wheel] packages = ["paravt"]`) with the
# import package `paravt/` (paravt/__init__.py: `__version__ = "0.1.0"`, nothing re-exported;
# paravt/rl/__init__.py; paravt/rl/config.py: `paravt_block_to_env`, which the AReaL example
# imports), and scripts/setup_env.sh installs it into the RL venv with `uv pip install -e .`
# (build_rl_env, .venv-rl). The stand-in below has those files at those paths and that name, so
# a wheel of it installs exactly the top-level names the real one does.

REFERENCE_FILES = {
    "paravt/__init__.py": '"""ParaVT: Parallel Agentic Video Tools (stand-in of the reference trainer)."""\n\n'
    '__version__ = "0.1.0"\n',
    "paravt/rl/__init__.py": '"""ParaVT RL training subpackage (stand-in)."""\n',
    "paravt/rl/config.py": '"""ParaVT YAML config -> env-var bridge (stand-in)."""\n\n\n'
    "def paravt_block_to_env(cfg):\n    return {}\n",
}


def reference_wheel(directory: Path) -> Path:
    """A wheel of the stand-in, written by hand (no build backend is needed offline)."""
    dist_info = "paravt-0.1.0.dist-info"
    files: Dict[str, bytes] = {name: text.encode() for name, text in REFERENCE_FILES.items()}
    files[f"{dist_info}/METADATA"] = b"Metadata-Version: 2.1\nName: paravt\nVersion: 0.1.0\n"
    files[f"{dist_info}/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    files[f"{dist_info}/top_level.txt"] = b"paravt\n"

    def record(name: str, data: bytes) -> str:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        return f"{name},sha256={digest},{len(data)}"

    lines = [record(n, d) for n, d in files.items()] + [f"{dist_info}/RECORD,,"]
    files[f"{dist_info}/RECORD"] = ("\n".join(lines) + "\n").encode()
    path = directory / "paravt-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as z:
        for name, data in files.items():
            z.writestr(name, data)
    return path


def test_the_sdk_installs_beside_the_reference_trainers_paravt_and_both_import_in_one_interpreter(tmp_path):
    site = tmp_path / "site"
    first = pip_install(site, str(reference_wheel(tmp_path)))
    assert first.returncode == 0, first.stdout + first.stderr
    second = pip_install(site, str(SDK_DIR))
    assert second.returncode == 0, second.stdout + second.stderr
    # pip moves a --target install's top-level names into place and skips (with this warning) any
    # that exist: under the same package name the SDK would have left the trainer's or its own out.
    assert "already exists" not in second.stdout + second.stderr
    dists = sorted(p.name for p in site.glob("*.dist-info"))
    assert [d.split("-")[0] for d in dists] == ["paravt", "paravt_workbench"]
    # No file of one distribution belongs to the other.
    owned = {d: {line.split(",")[0] for line in (site / d / "RECORD").read_text("utf-8").splitlines()} for d in dists}
    assert not {f for f in owned[dists[0]] & owned[dists[1]] if not f.endswith("RECORD")}

    code = (
        "import paravt, paravt.rl, paravt_workbench as pvt\n"
        "from paravt.rl.config import paravt_block_to_env\n"
        "from paravt_workbench.hooks.areal import attach\n"
        "from importlib.metadata import version\n"
        "print(paravt.__file__); print(pvt.__file__)\n"
        "print(version('paravt'), version('paravt-workbench'), pvt.__version__)\n"
    )
    out = run_in(site, tmp_path, code)
    assert out.returncode == 0, out.stderr
    ref_file, sdk_file, versions = out.stdout.strip().splitlines()
    assert Path(ref_file) == site / "paravt" / "__init__.py"
    assert Path(sdk_file) == site / SDK / "__init__.py"
    ref_version, sdk_version, sdk_own = versions.split()
    assert ref_version == "0.1.0" and sdk_version == sdk_own


# ----- examples --------------------------------------------------------------------------------


def sdk_names(tree: ast.AST) -> Iterator[Tuple[str, str]]:
    """(module, name) of every `from paravt_workbench[.x] import name` and `<alias>.<name>` of an
    `import paravt_workbench as <alias>` an example uses."""
    aliases = {
        a.asname or a.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for a in node.names
        if a.name == SDK
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == SDK:
            yield from ((node.module, alias.name) for alias in node.names)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
            yield (SDK, node.attr)


def reference_imports(tree: ast.AST) -> Iterator[str]:
    """Modules of the `paravt` package an example imports: only the reference trainer's."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "paravt":
            yield node.module
        elif isinstance(node, ast.Import):
            yield from (a.name for a in node.names if a.name.split(".")[0] == "paravt")


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_an_example_names_only_what_the_sdk_has(example):
    tree = ast.parse(example.read_text("utf-8"), str(example))  # a syntax error fails here
    used = sorted(set(sdk_names(tree)))
    assert used, f"{example.name} uses nothing of the SDK"
    for module, name in used:
        assert hasattr(importlib.import_module(module), name), f"{example.name}: {module}.{name} does not exist"
    # `paravt` is the reference trainer's package (its `paravt.rl`), never the SDK.
    assert all(m.startswith("paravt.rl") for m in reference_imports(tree)), example.name
