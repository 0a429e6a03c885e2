"""Where the SDK's settings come from: arguments first, then the environment, then the login
that ``npx paravt auth login`` saved (so one login serves the CLI and the SDK)."""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Optional

MODES = ("online", "offline", "disabled")


@dataclass
class Settings:
    api_url: Optional[str]
    api_token: Optional[str]
    project: Optional[str]
    spool_dir: Path
    mode: str


def api_base(url: str) -> str:
    """The workbench's base URL; ``…/api/v1`` given by mistake is accepted too."""
    base = url.strip().rstrip("/")
    if base.endswith("/api/v1"):
        base = base[: -len("/api/v1")]
    return base


def cli_login(environ: Mapping[str, str]) -> dict:
    """The CLI's saved login (packages/cli/src/remote/config.ts): url, token, projectId."""
    path = environ.get("PARAVT_CONFIG")
    if not path:
        base = environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
        path = str(Path(base) / "paravt" / "config.json")
    try:
        with open(path, encoding="utf-8") as f:
            saved = json.load(f)
    except (OSError, ValueError):
        return {}
    return saved if isinstance(saved, dict) else {}


def default_spool_dir(environ: Mapping[str, str]) -> Path:
    if environ.get("PARAVT_SPOOL_DIR"):
        return Path(environ["PARAVT_SPOOL_DIR"])
    cache = environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "paravt" / "spool"


def resolve(
    api_url: Optional[str],
    api_token: Optional[str],
    project: Optional[str],
    spool_dir: Optional[str],
    environ: Mapping[str, str] = os.environ,
) -> Settings:
    login = cli_login(environ)
    url = api_url or environ.get("PARAVT_API_URL") or environ.get("PARAVT_URL") or login.get("url")
    token = api_token or environ.get("PARAVT_API_TOKEN") or environ.get("PARAVT_TOKEN") or login.get("token")
    if not project:
        project = environ.get("PARAVT_PROJECT")
    # The saved project belongs to the saved token only.
    if not project and token and token == login.get("token"):
        project = login.get("projectId")
    mode = (environ.get("PARAVT_MODE") or "online").strip().lower()
    if mode not in MODES:
        mode = "online"
    return Settings(
        api_url=api_base(url) if isinstance(url, str) and url.strip() else None,
        api_token=token if isinstance(token, str) and token.strip() else None,
        project=project or None,
        spool_dir=Path(spool_dir) if spool_dir else default_spool_dir(environ),
        mode=mode,
    )


def env_rank(environ: Mapping[str, str] = os.environ) -> int:
    """This process's rank as torchrun / accelerate / deepspeed set it (RANK, else LOCAL_RANK)."""
    for var in ("RANK", "LOCAL_RANK"):
        value = environ.get(var, "").strip()
        if value:
            try:
                return int(value)
            except ValueError:
                continue
    return 0


def default_name() -> str:
    """A readable name when none is given: the script and the start time."""
    script = Path(sys.argv[0]).stem if sys.argv and sys.argv[0] else "python"
    return f"{script or 'python'} {time.strftime('%Y-%m-%d %H:%M:%S')}"
