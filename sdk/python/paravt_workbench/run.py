"""``paravt_workbench.init`` and the ``Run`` it returns: the SDK's public API."""

from __future__ import annotations

import atexit
import hashlib
import logging
import os
import sys
import threading
import time
import traceback
import uuid
import weakref
from datetime import datetime
from pathlib import Path
from typing import Any, Dict, Iterable, List, Mapping, Optional

from ._clock import Clock
from ._env import default_name, env_rank, resolve
from ._http import Api, ApiError
from ._items import coerce_number, json_safe
from ._problems import Problems
from ._send import new_counts
from ._spool import SpoolWriter
from ._sync import sync_directory
from ._uploader import RunTarget, Uploader, project_of, run_of

logger = logging.getLogger("paravt_workbench")

KINDS = ("rl", "sft")
STATUSES = ("SUCCEEDED", "FAILED", "CANCELLED")


def _env_number(name: str, default: float) -> float:
    try:
        value = float(os.environ.get(name, ""))
    except ValueError:
        return default
    return value if value > 0 and value == value else default


def _init_timeout() -> float:
    """How long init() waits for the server before it goes on without it (the uploader keeps trying)."""
    return _env_number("PARAVT_INIT_TIMEOUT", 10.0)


def _finish_timeout() -> float:
    """How long finish() waits for the upload before the rest goes to the spool."""
    return _env_number("PARAVT_FINISH_TIMEOUT", 60.0)

# A forked child (a DataLoader worker) inherits the run but not its threads: it logs nothing.
_forked_child = False


def _after_fork() -> None:
    global _forked_child
    _forked_child = True


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)


class _Exit:
    """Remembers an uncaught exception of the main thread, so the exit hook can mark runs failed."""

    installed = False
    uncaught: Optional[BaseException] = None

    @classmethod
    def install(cls) -> None:
        if cls.installed:
            return
        cls.installed = True
        previous = sys.excepthook

        def hook(kind, value, tb):
            cls.uncaught = value
            previous(kind, value, tb)

        sys.excepthook = hook


def _storable(text: str, limit: int) -> str:
    """Without NUL and unpaired surrogates (the API refuses them in names), at most ``limit``."""
    clean = text.replace("\x00", "").encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return clean.replace("\ufffd", "")[:limit]


def _client_id(value: str) -> str:
    value = value.strip()
    if len(value) <= 200:
        return value
    return f"{value[:150]}-{hashlib.sha256(value.encode('utf-8', 'surrogatepass')).hexdigest()[:16]}"


def _timestamp(at: Any, problems: Problems) -> float:
    if at is None:
        return time.time()
    if isinstance(at, datetime):
        return at.timestamp()  # a naive datetime is the machine's local time, as Python reads it
    if isinstance(at, (int, float)) and not isinstance(at, bool):
        return float(at)
    problems.report(("at-type", type(at).__name__), f"at={at!r} is not a datetime; the time of the call is used")
    return time.time()


class Run:
    """One external run of the workbench, as a trainer logs it.

    Every method returns at once and never raises for what it was given or what the server
    answers: problems become one ``ParavtWarning`` each (also listed in ``problems``).
    """

    def __init__(
        self,
        *,
        name: Optional[str],
        client_id: Optional[str],
        kind: str,
        rank: int,
        api_url: Optional[str],
        target: Optional[RunTarget],
        spool: Optional[SpoolWriter],
        problems: Problems,
        queue_size: int = 20_000,
        flush_interval: float = 2.0,
    ) -> None:
        self.name = name
        self.client_id = client_id
        self.kind = kind
        self.rank = rank
        self.api_url = api_url
        self._target = target
        self._spool = spool
        self._problems = problems
        self.counts: Dict[str, int] = new_counts()
        self.finished = False
        #: The spool file this run left behind unsent (after finish), if any.
        self.spool_path: Optional[Path] = None
        self._lock = threading.Lock()
        self._uploader: Optional[Uploader] = None
        if target is not None and spool is not None:
            self._uploader = Uploader(target, spool, problems, self.counts, queue_size, flush_interval)
            _Exit.install()
            atexit.register(_finish_at_exit, weakref.ref(self))

    # ----- what the run is -------------------------------------------------------------------

    @property
    def enabled(self) -> bool:
        """False on a non-zero rank (and with PARAVT_MODE=disabled): nothing is logged."""
        return self._uploader is not None

    @property
    def id(self) -> Optional[str]:
        """The run's id on the server; None until the server made it (offline, or down at init)."""
        return self._target.run_id if self._target else None

    @property
    def project(self) -> Optional[str]:
        return self._target.project if self._target else None

    @property
    def url(self) -> Optional[str]:
        """The run's page in the workbench, once its id is known."""
        if not (self.api_url and self.project and self.id):
            return None
        return f"{self.api_url}/projects/{self.project}/runs/{self.id}"

    @property
    def resumed(self) -> Optional[bool]:
        """True when init() found the run made earlier with the same client id."""
        created = self._target.created if self._target else None
        return None if created is None else not created

    @property
    def problems(self) -> List[str]:
        """Every problem surfaced so far (each once), in order."""
        return list(self._problems.messages)

    @property
    def problem_count(self) -> int:
        """Distinct problems so far, those beyond the reported ones included."""
        return self._problems.count

    def __repr__(self) -> str:
        state = "disabled" if not self.enabled else ("finished" if self.finished else "running")
        return f"<paravt_workbench.Run {self.name!r} id={self.id} {state}>"

    # ----- logging ---------------------------------------------------------------------------

    def _usable(self) -> bool:
        if self._uploader is None or _forked_child:
            return False
        if self.finished:
            self._problems.report(("after-finish",), "this run is finished; later log calls are ignored")
            return False
        return True

    def log(self, values: Mapping[str, float], step: int, at: Optional[datetime] = None) -> None:
        """Metric values of one step. Non-finite values and unusable names are dropped with one
        warning each; ``at`` (default: now) is the point's wall time."""
        if not self._usable():
            return
        try:
            t = _timestamp(at, self._problems)
            # Floats now, in the trainer's thread: a tensor changed in place later does not move the point.
            vals = {k: (v if type(v) is float else coerce_number(v)) for k, v in values.items()}
            self._uploader.put_metrics(step, vals, t)
        except Exception as e:
            self._problems.report(("log", type(e).__name__), f"log() could not take its values: {e!r}")

    def log_eval(
        self, values: Mapping[str, float], step: int, at: Optional[datetime] = None, prefix: str = "val_"
    ) -> None:
        """Evaluation results at a training step, as metrics named ``<prefix><name>`` (``val_``:
        the run page's "Validation" group); a name that already has the prefix keeps it."""
        if not self._usable():
            return
        try:
            named = {(k if str(k).startswith(prefix) else f"{prefix}{k}"): v for k, v in values.items()}
        except Exception as e:
            self._problems.report(("log_eval", type(e).__name__), f"log_eval() could not take its values: {e!r}")
            return
        self.log(named, step, at)

    def log_rollouts(self, step: int, rollouts: Iterable[Mapping[str, Any]]) -> None:
        """Rollouts of one step in the ingestion ``rollout`` format (docs/ingestion-format.md)
        without ``type``/``step``, plus optional ``group`` (any hashable: the GRPO group) and
        ``advantage``. The dicts are read in the background: do not change them afterwards."""
        if not self._usable():
            return
        try:
            batch = [rollouts] if isinstance(rollouts, Mapping) else list(rollouts)
            self._uploader.put_rollouts(step, batch, time.time())
        except Exception as e:
            self._problems.report(
                ("log_rollouts", type(e).__name__), f"log_rollouts() could not take its rollouts: {e!r}"
            )

    # ----- ending ----------------------------------------------------------------------------

    def flush(self, timeout: Optional[float] = 30.0) -> bool:
        """Waits until everything logged so far was answered by the server or kept in the spool."""
        if self._uploader is None or self.finished or _forked_child:
            return True
        return self._uploader.control("flush", timeout=timeout)

    def finish(
        self,
        status: str = "SUCCEEDED",
        message: Optional[str] = None,
        error: Optional[str] = None,
        timeout: Optional[float] = None,
    ) -> None:
        """Sends what is left, then the run's final status (SUCCEEDED, FAILED or CANCELLED). What
        the server does not take within ``timeout`` seconds stays in the spool for a sync."""
        status = str(status).upper()
        if status not in STATUSES:
            raise ValueError(f"status must be one of {', '.join(STATUSES)}, not {status!r}")
        with self._lock:
            if self._uploader is None or self.finished or _forked_child:
                return
            self.finished = True
        body: Dict[str, Any] = {"status": status}
        if message is not None:
            body["message"] = _storable(str(message), 500)
        if error is not None:
            body["error"] = _storable(str(error), 4000)
        up = self._uploader
        wait = _finish_timeout() if timeout is None else timeout
        done = up.control("status", body, timeout=wait)
        if not done:
            # Out of time: no more requests; what is still queued goes to the spool.
            up.spill_only = True
            done = up.control("status", body, timeout=15)
        up.control("stop", timeout=15)
        up.join(5)
        if not up.alive():
            self.spool_path = self._spool.close()
        if self.spool_path:
            self._problems.report(
                ("kept", str(self.spool_path)),
                f"what the server did not take ({len(self._spool.pending())} record(s): batches and the "
                f"final status) is kept in {self.spool_path}; upload it with "
                f"`python -m paravt_workbench sync --spool-dir {self._spool.directory}`",
            )

    def __enter__(self) -> "Run":
        return self

    def __exit__(self, kind, value, tb) -> None:
        if value is None:
            self.finish()
        elif isinstance(value, KeyboardInterrupt):
            self.finish("CANCELLED", message="interrupted")
        else:
            self.finish("FAILED", error="".join(traceback.format_exception(kind, value, tb))[-4000:])


def _finish_at_exit(ref: "weakref.ref[Run]") -> None:
    """At interpreter exit, a run not finished yet is: FAILED after an uncaught exception,
    CANCELLED after Ctrl-C, SUCCEEDED otherwise (as W&B does)."""
    run = ref()
    if run is None or run.finished or not run.enabled or _forked_child:
        return
    value = _Exit.uncaught
    try:
        if value is None:
            run.finish()
        elif isinstance(value, KeyboardInterrupt):
            run.finish("CANCELLED", message="interrupted")
        else:
            run.finish(
                "FAILED",
                error="".join(traceback.format_exception(type(value), value, value.__traceback__))[-4000:],
            )
    except Exception:
        logger.exception("finishing the run at exit failed")


def _disabled(name: Optional[str], client_id: Optional[str], kind: str, rank: int) -> Run:
    return Run(
        name=name, client_id=client_id, kind=kind, rank=rank, api_url=None, target=None, spool=None, problems=Problems()
    )


def init(
    project: Optional[str] = None,
    name: Optional[str] = None,
    config: Optional[Mapping[str, Any]] = None,
    tags: Optional[Iterable[str]] = None,
    kind: str = "rl",
    client_id: Optional[str] = None,
    api_url: Optional[str] = None,
    api_token: Optional[str] = None,
    spool_dir: Optional[str] = None,
    rank: Optional[int] = None,
) -> Run:
    """Creates the run on the workbench, or continues the one made before with the same client id.

    project: the project id (default: PARAVT_PROJECT, else the token's own project).
    name: shown in the workbench; also the default client id, so a restarted trainer with the
        same name continues the same run.
    config: the trainer's settings (kept verbatim, shown in the runs table and config diff).
    tags: kept in the config as ``tags``.
    kind: "rl" or "sft".
    client_id: the idempotency key of the run (default: PARAVT_RUN_ID, else ``name``).
    api_url / api_token: default PARAVT_API_URL / PARAVT_API_TOKEN (or the CLI's login).
    spool_dir: where batches wait while the server is down (default PARAVT_SPOOL_DIR, else
        ~/.cache/paravt/spool).
    rank: this process's rank (default RANK, else LOCAL_RANK, else 0); only rank 0 logs.
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    rank = env_rank() if rank is None else int(rank)
    if client_id is None and os.environ.get("PARAVT_RUN_ID", "").strip():
        client_id = os.environ["PARAVT_RUN_ID"]
    if name is None:
        name = client_id if client_id else default_name()
    name = _storable(str(name), 200).strip() or "run"
    # Without a name or a client id, a restart cannot be recognised: the run gets a fresh one.
    cid = _client_id(str(client_id) if client_id else name) or uuid.uuid4().hex
    if rank != 0:
        return _disabled(name, cid, kind, rank)
    settings = resolve(api_url, api_token, project, spool_dir)
    if settings.mode == "disabled":
        return _disabled(name, cid, kind, rank)

    problems = Problems()
    run_config = json_safe(dict(config) if isinstance(config, Mapping) else ({} if config is None else {"config": config}))
    if tags is not None:
        tag_list = [str(t) for t in ([tags] if isinstance(tags, str) else tags)]
        run_config["tags" if "tags" not in run_config else "paravt_tags"] = tag_list
    create_body = {"clientId": cid, "name": name, "kind": kind, "config": run_config}

    api: Optional[Api] = None
    if settings.mode == "online" and settings.api_url and settings.api_token:
        # Its clock measures the workbench's time from every answer, init's first: `at` is corrected by it.
        api = Api(settings.api_url, settings.api_token, clock=Clock(problems))
    elif settings.mode == "online":
        missing = " and ".join(
            n for n, v in (("PARAVT_API_URL", settings.api_url), ("PARAVT_API_TOKEN", settings.api_token)) if not v
        )
        problems.report(
            ("not-configured",),
            f"no {missing} (or api_url= / api_token=); logging to the spool in {settings.spool_dir}, "
            "upload it later with `python -m paravt_workbench sync`",
        )
    target = RunTarget(api, settings.project, create_body)
    if api is not None:
        _create_now(target, problems, settings.api_url)
    header = {
        "apiUrl": settings.api_url,
        "projectId": target.project,
        "clientId": cid,
        "name": name,
        "kind": kind,
        "config": run_config,
    }
    spool = SpoolWriter(settings.spool_dir, header)
    run = Run(
        name=name,
        client_id=cid,
        kind=kind,
        rank=rank,
        api_url=settings.api_url,
        target=target,
        spool=spool,
        problems=problems,
        queue_size=int(_env_number("PARAVT_QUEUE_SIZE", 20_000)),
        flush_interval=_env_number("PARAVT_FLUSH_INTERVAL", 2.0),
    )
    if api is not None and target.refused is None:
        # Batches an earlier process left in the spool (the server was down, a crash): uploaded in
        # the background; files still held by a live process are skipped.
        threading.Thread(
            target=_resync, args=(settings.spool_dir, settings.api_url, settings.api_token), daemon=True,
            name="paravt-resync",
        ).start()
    return run


def _create_now(target: RunTarget, problems: Problems, api_url: Optional[str]) -> None:
    """Makes (or finds) the run within PARAVT_INIT_TIMEOUT; on failure the uploader keeps trying."""
    api = target.api
    assert api is not None
    try:
        if not target.project:
            who = api.whoami(timeout=_init_timeout())
            target.project = project_of(who)
        out = api.create_run(target.project, target.create_body, timeout=_init_timeout())
        target.run_id, target.created = run_of(out)
    except ApiError as e:
        if e.retryable:
            problems.report(
                ("init-down",),
                f"{e.message}; the run is created when the workbench answers, "
                "and batches wait in the spool meanwhile",
            )
        else:
            target.refused = e.message
            problems.report(
                ("refused-run", e.message),
                f"the workbench at {api_url} refused this run: {e.message}. Nothing is sent; "
                "everything is kept in the spool: upload it with `python -m paravt_workbench sync` (and the right "
                "--api-token / --project)",
            )


def _resync(directory: Path, api_url: str, api_token: str) -> None:
    try:
        sync_directory(directory, api_url=api_url, api_token=api_token, only_api_url=api_url, quiet=True)
    except Exception:
        logger.exception("uploading the spool of earlier runs failed")


__all__ = ["Run", "init"]
