"""The background half of a run: never blocks the trainer, never loses what it was given.

    log() ──> bounded queue ──> builder thread ──> outbox ──> sender thread ──> the server
                 │ (full)            │ (outbox full)            │ (down / refused)
                 └───────────────────┴──────────> spool on disk <┘ ── replayed when it answers,
                                                      or by `python -m paravt_workbench sync`

log() only converts values to floats and enqueues. The builder turns entries into items (the
contract's bounds, one JSON text each, ``_items.py``; a metric's time moved to the workbench's
clock, ``_clock.py``) and cuts batches by size (1000 metrics or
200 rollouts per request, as the TypeScript uploader) and by time (``flush_interval``). The sender
posts them; on no answer, a 429 or a 5xx it keeps the batch in the spool (fsync'd) and retries the
spool after a back-off (Retry-After honoured, else 0.5 s doubling to 30 s), oldest first, while
new batches go to the spool as well until it answers. A token or a run the server refuses stops the
sending and keeps everything in the spool for a later sync. Network work happens in the sender
only, so the builder keeps draining the queue while a request waits.
"""

from __future__ import annotations

import collections
import itertools
import json
import logging
import queue
import threading
import time
from typing import Any, Dict, List, Optional, Tuple

from ._http import Api, ApiError
from ._items import RolloutBuilder, metric_item
from ._problems import Problems
from ._send import DROPPED, MAX_SERVER_ERROR_ATTEMPTS, OK, REFUSED, RETRY, backoff_seconds, post_batch
from ._spool import SpoolWriter

logger = logging.getLogger("paravt_workbench")

MAX_METRIC_ITEMS = 1000
MAX_ROLLOUT_ITEMS = 200
#: A batch of rollouts also ends at this many bytes of JSON (trajectories can be large).
MAX_BATCH_BYTES = 16 << 20
#: How often the builder drains what log() appended (a control entry wakes it at once).
TICK_S = 0.05
#: Batches waiting for the sender; beyond, the builder spools them (cheap: one fsync a batch).
OUTBOX_BATCHES = 16


class RunTarget:
    """What the threads need of the run; ``run_id`` is filled in once the server made the run."""

    def __init__(self, api: Optional[Api], project: Optional[str], create_body: dict) -> None:
        self.api = api
        self.project = project
        self.create_body = create_body
        self.run_id: Optional[str] = None
        self.created: Optional[bool] = None
        #: The server's refusal of the token or the run: nothing more is sent.
        self.refused: Optional[str] = None


def project_of(whoami: Any) -> str:
    """The token's project from /whoami; a refusal when the caller is not a project token."""
    token = whoami.get("token") if isinstance(whoami, dict) else None
    if not isinstance(token, dict) or not isinstance(token.get("projectId"), str):
        raise ApiError(403, "this is not a project API token (pvt_…)")
    return token["projectId"]


def run_of(answer: Any) -> Tuple[str, bool]:
    """(run id, created) from the create-run answer; a refusal when it is not one (the URL points
    at something else than a workbench)."""
    run = answer.get("run") if isinstance(answer, dict) else None
    if not isinstance(run, dict) or not isinstance(run.get("id"), str):
        raise ApiError(400, "the server's answer to creating the run is not the workbench's")
    return run["id"], bool(answer.get("created"))


class _Control:
    __slots__ = ("kind", "body", "done", "deadline")

    def __init__(self, kind: str, body: Optional[dict] = None, timeout: Optional[float] = None) -> None:
        self.kind = kind  # "flush" | "status" | "stop"
        self.body = body
        self.done = threading.Event()
        #: When the caller stops waiting (monotonic), if it does.
        self.deadline = None if timeout is None else time.monotonic() + timeout


class Uploader:
    def __init__(
        self,
        target: RunTarget,
        spool: SpoolWriter,
        problems: Problems,
        counts: Dict[str, int],
        queue_size: int = 20_000,
        flush_interval: float = 2.0,
    ) -> None:
        self.target = target
        self.spool = spool
        self.problems = problems
        self.counts = counts
        self.flush_interval = flush_interval
        self.queue_size = max(1, queue_size)
        self._entries: "collections.deque[Any]" = collections.deque()
        self._wake = threading.Event()
        self._outbox: "queue.Queue[Any]" = queue.Queue(maxsize=OUTBOX_BATCHES)
        self._rollouts = RolloutBuilder(problems)
        self._build_lock = threading.Lock()
        self._seq = itertools.count()
        # Sender state.
        self._failures = 0
        self._retry_at = 0.0
        self._last_error_status: Optional[int] = None
        self._server_errors: Dict[str, int] = {}
        self._parked: set = set()
        #: Set when the run must end now: every batch goes to the spool, no more requests.
        self.spill_only = False
        self._builder = threading.Thread(target=self._guard(self._build_loop), name="paravt-builder", daemon=True)
        self._sender = threading.Thread(target=self._guard(self._send_loop), name="paravt-sender", daemon=True)
        self._builder.start()
        self._sender.start()

    # ----- the trainer's side ---------------------------------------------------------------

    # A deque, not a queue.Queue: appending takes no lock and wakes no thread, so a log() call
    # costs the trainer a tuple and an append. The builder drains it every TICK_S (bench/sdk).

    def put_metrics(self, step: Any, values: Dict[Any, Any], t: float) -> None:
        entry = ("m", step, values, t, next(self._seq))
        if len(self._entries) < self.queue_size:
            self._entries.append(entry)
        else:
            self._overflow(entry)

    def put_rollouts(self, step: Any, rollouts: Any, t: float) -> None:
        entry = ("r", step, rollouts, t)
        if len(self._entries) < self.queue_size:
            self._entries.append(entry)
        else:
            self._overflow(entry)

    def _overflow(self, entry: tuple) -> None:
        """The builder cannot keep up: this entry goes to the spool from the trainer's thread."""
        self.problems.report(
            ("queue-full",),
            f"the in-memory queue ({self.queue_size} entries) is full; entries go to the "
            f"spool on disk ({self.spool.directory}) until it drains",
        )
        kind, items = self._build(entry)
        if items:
            self.spool.keep(kind, [j for _, j in items])

    def control(self, kind: str, body: Optional[dict] = None, timeout: Optional[float] = None) -> bool:
        """Flush, status or stop, in order after everything logged before; True once done."""
        c = _Control(kind, body, timeout)
        self._entries.append(c)
        self._wake.set()
        return c.done.wait(timeout)

    def alive(self) -> bool:
        return self._builder.is_alive() or self._sender.is_alive()

    def join(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        for t in (self._builder, self._sender):
            t.join(max(0.0, deadline - time.monotonic()))

    # ----- builder thread --------------------------------------------------------------------

    def _guard(self, loop):
        def run() -> None:
            try:
                loop()
            except Exception as e:  # a bug here must not go unnoticed, nor reach the trainer
                self.problems.report(("thread", repr(e)), f"the uploader stopped on an error: {e!r}")
                logger.exception("paravt uploader thread failed")

        return run

    def _build(self, entry: tuple) -> Tuple[str, List[Tuple[str, str]]]:
        with self._build_lock:
            if entry[0] == "m":
                _, step, values, t, seq = entry
                # This machine's time to the workbench's (0 until an answer measured it, or when
                # the clocks agree): built once, so a resent item is the same item.
                api = self.target.api
                if api is not None:
                    t = api.clock.correct(t)
                text = metric_item(f"step-{step}/log-{seq}", step, values, t, self.problems)
                return "metrics", ([("", text)] if text else [])
            _, step, rollouts, _t = entry
            return "rollouts", self._rollouts.build(step, rollouts)

    def _build_loop(self) -> None:
        pending: Dict[str, List[str]] = {"metrics": [], "rollouts": []}
        size = {"metrics": 0, "rollouts": 0}
        since: Dict[str, Optional[float]] = {"metrics": None, "rollouts": None}
        limit = {"metrics": MAX_METRIC_ITEMS, "rollouts": MAX_ROLLOUT_ITEMS}

        def cut(kind: str) -> None:
            items = pending[kind]
            while items:
                take, nbytes = 0, 0
                while take < len(items) and take < limit[kind]:
                    if take and nbytes + len(items[take]) > MAX_BATCH_BYTES:
                        break
                    nbytes += len(items[take])
                    take += 1
                self._to_outbox((kind, items[:take]))
                del items[:take]
            size[kind] = 0
            since[kind] = None

        while True:
            now = time.monotonic()
            waits = [s + self.flush_interval - now for s in since.values() if s is not None]
            self._wake.wait(max(0.0, min([TICK_S] + waits)))
            self._wake.clear()
            while True:
                try:
                    entry = self._entries.popleft()
                except IndexError:
                    break
                if isinstance(entry, _Control):
                    for kind in pending:
                        cut(kind)
                    self._outbox.put(entry)  # blocks while full: ordered after the batches before it
                    if entry.kind == "stop":
                        return
                    continue
                try:
                    kind, items = self._build(entry)
                except Exception as e:  # a bug in building one entry must not stop the others
                    self._unexpected("build", e)
                    continue
                for _, text in items:
                    if since[kind] is None:
                        since[kind] = time.monotonic()
                    pending[kind].append(text)
                    size[kind] += len(text)
                if len(pending[kind]) >= limit[kind] or size[kind] >= MAX_BATCH_BYTES:
                    cut(kind)
            now = time.monotonic()
            for kind in pending:
                if since[kind] is not None and now - since[kind] >= self.flush_interval:
                    cut(kind)

    def _unexpected(self, where: str, error: Exception) -> None:
        logger.error("paravt_workbench: unexpected error (%s)", where, exc_info=error)
        self.problems.report(("unexpected", where, repr(error)), f"unexpected error in the uploader ({where}): {error!r}")

    def _to_outbox(self, batch: Tuple[str, List[str]]) -> None:
        try:
            self._outbox.put_nowait(batch)
        except queue.Full:
            # The sender is busy or waiting for the server: the batch is safe on disk meanwhile.
            self.spool.keep(batch[0], batch[1])

    # ----- sender thread ---------------------------------------------------------------------

    def _backlog(self) -> List[str]:
        return [b for b in self.spool.pending() if b not in self._parked]

    def _down(self) -> bool:
        return time.monotonic() < self._retry_at

    def _send_loop(self) -> None:
        while True:
            backlog = bool(self._backlog()) and self._can_send()
            timeout = max(0.0, self._retry_at - time.monotonic()) if backlog else None
            try:
                item = self._outbox.get(timeout=timeout) if timeout is None or timeout > 0 else self._outbox.get_nowait()
            except queue.Empty:
                item = None
            if isinstance(item, _Control):
                try:
                    self._control(item)
                except Exception as e:
                    self._unexpected("control", e)
                item.done.set()
                if item.kind == "stop":
                    return
                continue
            try:
                if item is not None:
                    self._deliver(*item)
                if self._backlog() and self._can_send() and not self._down():
                    self._replay()
            except Exception as e:
                # A bug (or an answer of a shape never seen): the batch is kept on disk for a sync,
                # and the sender goes on with the next one.
                self._unexpected("send", e)
                if item is not None and item[0] in ("metrics", "rollouts"):
                    try:
                        self.spool.keep(*item)
                    except Exception as e2:
                        self._unexpected("spool", e2)

    def _can_send(self) -> bool:
        return self.target.api is not None and self.target.refused is None and not self.spill_only

    def _deliver(self, kind: str, items: List[str]) -> None:
        # While the spool holds a backlog, new batches queue behind it (the server is down or
        # just came back: the replay sends them oldest first).
        if not self._can_send() or self._down() or self._backlog():
            self.spool.keep(kind, items)
            return
        if not self._ensure_run():
            self.spool.keep(kind, items)
            return
        result = post_batch(
            self.target.api, self.target.project, self.target.run_id, kind, items, self.problems, self.counts
        )
        if result.outcome == OK:
            self._answered()
        elif result.outcome == RETRY:
            self.spool.keep(kind, items)
            self._failed(result.error)
        elif result.outcome == REFUSED:
            self.spool.keep(kind, items)
            self._refused(result.error)

    def _ensure_run(self) -> bool:
        t = self.target
        if t.run_id is not None:
            return True
        if not self._can_send():
            return False
        try:
            if not t.project:
                t.project = project_of(t.api.whoami())
            t.run_id, t.created = run_of(t.api.create_run(t.project, t.create_body))
            logger.info("run %s %s", t.run_id, "created" if t.created else "resumed")
            return True
        except ApiError as e:
            if e.retryable:
                self._failed(e)
            else:
                self._refused(e)
            return False

    def _answered(self) -> None:
        if self._failures:
            logger.info("the workbench answers again")
        self._failures = 0
        self._retry_at = 0.0
        self._last_error_status = None

    def _failed(self, error: Optional[ApiError]) -> None:
        self._failures += 1
        self._last_error_status = error.status if error else 0
        wait = backoff_seconds(self._failures, error.retry_after if error else None)
        self._retry_at = time.monotonic() + wait
        self.problems.report(
            ("down", error.status if error else 0),
            f"{error.message if error else 'no answer'}; batches are kept on disk in "
            f"{self.spool.directory} and sent when the workbench answers (retrying with back-off)",
        )

    def _refused(self, error: ApiError) -> None:
        self.target.refused = error.message
        self.problems.report(
            ("refused-run", error.message),
            f"the workbench refused this run: {error.message}. Nothing more is sent; "
            f"everything is kept in {self.spool.directory}: upload it with "
            f"`python -m paravt_workbench sync --spool-dir {self.spool.directory}` (and the right --api-token)",
        )

    def _replay(self, force: bool = False) -> None:
        """Sends the spool's backlog, oldest first, until it is empty or the server fails."""
        if not force and self._down():
            return
        if not self._ensure_run():
            return
        t = self.target
        for batch in self._backlog():
            try:
                rec = self.spool.read(batch)
            except (OSError, ValueError) as e:
                rec = None
                self._unexpected("spool read", e)
            if rec is None:  # unreadable: left in the file for a sync, never retried here
                self._parked.add(batch)
                continue
            if rec.get("t") == "status":
                if self._send_status(_status_body(rec)) == RETRY:
                    return
                self.spool.ack(batch)
                continue
            items = [json.dumps(i, allow_nan=False) for i in rec.get("items", [])]
            result = post_batch(t.api, t.project, t.run_id, rec["t"], items, self.problems, self.counts)
            if result.outcome in (OK, DROPPED):
                self.spool.ack(batch)
                self._answered()
                continue
            if result.outcome == REFUSED:
                self._refused(result.error)
                return
            err = result.error
            if err is not None and err.status >= 500:
                n = self._server_errors[batch] = self._server_errors.get(batch, 0) + 1
                if n >= MAX_SERVER_ERROR_ATTEMPTS:
                    self._parked.add(batch)
                    self.problems.report(
                        ("parked", batch),
                        f"the server failed {n} times on a batch ({err.message}); it stays in "
                        f"{self.spool.path} for `python -m paravt_workbench sync`",
                    )
            self._failed(err)
            return

    def _send_status(self, body: dict) -> str:
        t = self.target
        try:
            t.api.set_status(t.project, t.run_id, body)
            self._answered()
            return OK
        except ApiError as e:
            if e.retryable:
                self._failed(e)
                return RETRY
            if e.status in (401, 403, 404):
                self._refused(e)
                return RETRY
            self.problems.report(("status", e.message), f"the run's status was refused: {e.message}")
            return DROPPED

    def _control(self, c: _Control) -> None:
        if c.kind == "flush":
            if self._backlog() and self._can_send():
                self._replay()
        elif c.kind == "status":
            self._last_tries(c.deadline)
            if self._backlog() or not self._can_send() or not self._ensure_run():
                self.spool.keep_status(c.body or {})
            elif self._send_status(c.body or {}) == RETRY:
                self.spool.keep_status(c.body or {})


    def _last_tries(self, deadline: Optional[float]) -> None:
        """Before the run ends: the backlog is tried once more now if the server was unreachable
        (no waiting on a server that is not there), and again after each back-off while it
        answers 429 / 5xx (it is alive; Retry-After is honoured) and the caller still waits."""
        if not (self._backlog() and self._can_send()):
            return
        if self._last_error_status in (None, 0):
            self._replay(force=True)
            return
        while self._backlog() and self._can_send() and self._last_error_status not in (None, 0):
            wait = max(0.0, self._retry_at - time.monotonic())
            if deadline is not None and time.monotonic() + wait > deadline - 1.0:
                return
            time.sleep(wait)
            self._replay(force=True)


def _status_body(rec: dict) -> dict:
    return {k: rec[k] for k in ("status", "message", "error") if rec.get(k) is not None}
