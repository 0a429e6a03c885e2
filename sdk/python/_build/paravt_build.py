"""The package's PEP 517 / PEP 660 build backend, standard library only.

Why not setuptools: building a wheel with setuptools before 70.1 needs the separate ``wheel``
package, which many environments lack (this project's machines have setuptools 58-65 and no
``wheel``), and without network pip cannot fetch it. The package is pure Python, so a wheel is a
zip of ``paravt_workbench/`` plus its metadata: this backend writes exactly that, and ``pip
install ./sdk/python`` (with or without ``--no-build-isolation``, ``-e`` too) works offline anywhere.

The distribution is ``paravt-workbench`` and the import package ``paravt_workbench``, not
``paravt``: the ParaVT reference trainer (EvolvingLMMs-Lab/ParaVT, pyproject.toml
``name = "paravt"``, installed editable into its ``.venv-rl`` by scripts/setup_env.sh) is itself
the distribution and package ``paravt``. Under that name, installing the SDK into the trainer's
environment would uninstall the trainer and break ``import paravt.rl``.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile
from pathlib import Path
from typing import List, Optional, Tuple

ROOT = Path(__file__).resolve().parent.parent
#: The distribution's name (PEP 508) and the import package (PACKAGE); file names use the
#: normalized form (PEP 427 / PEP 625: ``paravt_workbench-<version>-py3-none-any.whl``).
NAME = "paravt-workbench"
PACKAGE = "paravt_workbench"
FILE_NAME = re.sub(r"[-_.]+", "_", NAME).lower()
SUMMARY = "Log training runs (metrics and full agentic rollouts) to the ParaVT workbench"
REQUIRES_PYTHON = ">=3.9"
TAG = "py3-none-any"


def _version() -> str:
    text = (ROOT / PACKAGE / "_version.py").read_text(encoding="utf-8")
    m = re.search(r'__version__\s*=\s*"([^"]+)"', text)
    if not m:
        raise RuntimeError("paravt_workbench/_version.py has no __version__")
    return m.group(1)


def _metadata() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8") if (ROOT / "README.md").exists() else ""
    return (
        "Metadata-Version: 2.1\n"
        f"Name: {NAME}\n"
        f"Version: {_version()}\n"
        f"Summary: {SUMMARY}\n"
        f"Requires-Python: {REQUIRES_PYTHON}\n"
        "Classifier: Programming Language :: Python :: 3\n"
        "Description-Content-Type: text/markdown\n"
        "\n"
        f"{readme}"
    )


def _dist_info() -> str:
    return f"{FILE_NAME}-{_version()}.dist-info"


def _sources() -> List[Path]:
    out = []
    for path in sorted((ROOT / PACKAGE).rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix in (".py", ".typed"):
            out.append(path)
    return out


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def _write_wheel(wheel_directory: str, files: List[Tuple[str, bytes]]) -> str:
    dist_info = _dist_info()
    files = files + [
        (f"{dist_info}/METADATA", _metadata().encode()),
        (f"{dist_info}/WHEEL", f"Wheel-Version: 1.0\nGenerator: paravt_build\nRoot-Is-Purelib: true\nTag: {TAG}\n".encode()),
        (f"{dist_info}/top_level.txt", f"{PACKAGE}\n".encode()),
    ]
    record = [_record_line(n, d) for n, d in files] + [f"{dist_info}/RECORD,,"]
    filename = f"{FILE_NAME}-{_version()}-{TAG}.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, filename), "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files:
            z.writestr(name, data)
        z.writestr(f"{dist_info}/RECORD", "\n".join(record) + "\n")
    return filename


def _write_metadata_dir(metadata_directory: str) -> str:
    target = Path(metadata_directory) / _dist_info()
    target.mkdir(parents=True, exist_ok=True)
    (target / "METADATA").write_text(_metadata(), encoding="utf-8")
    (target / "WHEEL").write_text(f"Wheel-Version: 1.0\nGenerator: paravt_build\nRoot-Is-Purelib: true\nTag: {TAG}\n")
    (target / "top_level.txt").write_text(f"{PACKAGE}\n")
    return target.name


# ----- PEP 517 -----


def get_requires_for_build_wheel(config_settings: Optional[dict] = None) -> List[str]:
    return []


def get_requires_for_build_sdist(config_settings: Optional[dict] = None) -> List[str]:
    return []


def prepare_metadata_for_build_wheel(metadata_directory: str, config_settings: Optional[dict] = None) -> str:
    return _write_metadata_dir(metadata_directory)


def build_wheel(
    wheel_directory: str, config_settings: Optional[dict] = None, metadata_directory: Optional[str] = None
) -> str:
    files = [(p.relative_to(ROOT).as_posix(), p.read_bytes()) for p in _sources()]
    return _write_wheel(wheel_directory, files)


def build_sdist(sdist_directory: str, config_settings: Optional[dict] = None) -> str:
    base = f"{FILE_NAME}-{_version()}"
    filename = f"{base}.tar.gz"
    members = [ROOT / "pyproject.toml", ROOT / "README.md", Path(__file__)] + _sources()
    with tarfile.open(os.path.join(sdist_directory, filename), "w:gz", format=tarfile.PAX_FORMAT) as tar:
        for path in members:
            if path.exists():
                tar.add(str(path), arcname=f"{base}/{path.relative_to(ROOT).as_posix()}")
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        data = _metadata().encode()
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return filename


# ----- PEP 660 (pip install -e) -----


def get_requires_for_build_editable(config_settings: Optional[dict] = None) -> List[str]:
    return []


def prepare_metadata_for_build_editable(metadata_directory: str, config_settings: Optional[dict] = None) -> str:
    return _write_metadata_dir(metadata_directory)


def build_editable(
    wheel_directory: str, config_settings: Optional[dict] = None, metadata_directory: Optional[str] = None
) -> str:
    # A .pth file puts this folder on sys.path: edits to paravt_workbench/ take effect without
    # reinstalling.
    return _write_wheel(wheel_directory, [(f"__editable__.{FILE_NAME}.pth", f"{ROOT}\n".encode())])
