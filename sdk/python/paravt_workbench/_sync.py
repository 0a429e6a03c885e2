"""Uploads spool files (``python -m paravt_workbench sync``, and each ``init`` in the background).

For each file no live process holds: create the run again by its client id (the server answers
the existing run), send every batch not yet acknowledged, oldest first, then the final status if
the run had ended. The server's idempotency (client ids; metric values per run, name and step)
makes a batch sent twice a ``duplicate``, so a crash at any point of a sync is harmless. A file
is deleted once everything in it was answered.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional

from ._http import Api, ApiError
from ._problems import Problems
from ._send import DROPPED, OK, REFUSED, RETRY, backoff_seconds, new_counts, post_batch
from ._spool import SpoolFile, spool_files
from ._uploader import project_of, run_of

logger = logging.getLogger("paravt_workbench")

#: A sync is run by a person (or at init in the background): it gives up after this many
#: failed attempts in a row and keeps the rest for the next time.
SYNC_ATTEMPTS = 6


@dataclass
class SyncResult:
    path: Path
    client_id: Optional[str] = None
    run_id: Optional[str] = None
    url: Optional[str] = None
    batches: int = 0
    counts: Dict[str, int] = field(default_factory=new_counts)
    status_sent: Optional[str] = None
    #: Everything in the file was answered (the file is deleted).
    complete: bool = False
    #: Why not: in use by a live process, no token, refused, server down, …
    reason: Optional[str] = None


def _with_retry(call, what: str, problems: Problems):
    """Runs ``call`` again on retryable failures (honouring Retry-After), SYNC_ATTEMPTS times."""
    for attempt in range(1, SYNC_ATTEMPTS + 1):
        try:
            return call()
        except ApiError as e:
            if not e.retryable or attempt == SYNC_ATTEMPTS:
                raise
            wait = min(backoff_seconds(attempt, e.retry_after), 60.0)
            logger.info("paravt_workbench sync: %s: %s; retrying in %.1f s", what, e.message, wait)
            time.sleep(wait)


def sync_file(
    spool: SpoolFile,
    api_url: Optional[str],
    api_token: Optional[str],
    project: Optional[str],
    problems: Problems,
    default_api_url: Optional[str] = None,
) -> SyncResult:
    """Uploads one opened (locked) spool file: to ``api_url``, else the workbench its run was
    logged to, else ``default_api_url`` (a run logged offline names none)."""
    res = SyncResult(path=spool.path)
    header = spool.header
    if header is None:
        res.complete = not spool.records
        res.reason = None if res.complete else "the file has no run line"
        return res
    res.client_id = header.get("clientId")
    if not spool.records:
        res.complete = True
        return res
    url = api_url or header.get("apiUrl") or default_api_url
    if not url or not api_token:
        res.reason = "no workbench URL or token (--api-url / --api-token, or PARAVT_API_URL / PARAVT_API_TOKEN)"
        return res
    api = Api(url, api_token)
    try:
        project = project or header.get("projectId")
        if not project:
            project = project_of(_with_retry(api.whoami, "whoami", problems))
        body = {k: header[k] for k in ("clientId", "name", "kind", "config") if header.get(k) is not None}
        res.run_id, _ = run_of(_with_retry(lambda: api.create_run(project, body), "create run", problems))
    except ApiError as e:
        res.reason = e.message
        return res
    res.url = f"{url}/projects/{project}/runs/{res.run_id}"
    for rec in spool.records:
        if rec["t"] == "status":
            status_body = {k: rec[k] for k in ("status", "message", "error") if rec.get(k) is not None}
            try:
                _with_retry(lambda: api.set_status(project, res.run_id, status_body), "status", problems)
                res.status_sent = status_body.get("status")
            except ApiError as e:
                if e.retryable or e.status in (401, 403, 404):
                    res.reason = e.message
                    return res
                # e.g. "The run is already failed": final on the server, nothing to resend.
                problems.report(("sync-status", e.message), f"the run's status was refused: {e.message}")
            spool.ack(rec["b"])
            continue
        items = [json.dumps(i, allow_nan=False) for i in rec.get("items", [])]
        for attempt in range(1, SYNC_ATTEMPTS + 1):
            result = post_batch(api, project, res.run_id, rec["t"], items, problems, res.counts)
            if result.outcome != RETRY or attempt == SYNC_ATTEMPTS:
                break
            err = result.error
            time.sleep(min(backoff_seconds(attempt, err.retry_after if err else None), 60.0))
        if result.outcome in (OK, DROPPED):
            spool.ack(rec["b"])
            res.batches += 1
            continue
        res.reason = result.error.message if result.error else "not sent"
        if result.outcome == REFUSED:
            res.reason = f"refused: {res.reason}"
        return res
    res.complete = True
    return res


def sync_directory(
    directory: Path,
    api_url: Optional[str] = None,
    api_token: Optional[str] = None,
    project: Optional[str] = None,
    only_api_url: Optional[str] = None,
    problems: Optional[Problems] = None,
    quiet: bool = False,
    default_api_url: Optional[str] = None,
) -> List[SyncResult]:
    """Syncs every spool file of ``directory`` no live process holds. ``only_api_url``: leave
    files made for another workbench alone (init's background sync)."""
    problems = problems or Problems()
    results: List[SyncResult] = []
    for path in spool_files(Path(directory)):
        spool = SpoolFile(path)
        if not spool.open_locked():
            if not quiet:
                results.append(SyncResult(path=path, reason="in use by a running process"))
            continue
        res: Optional[SyncResult] = None
        try:
            header_url = (spool.header or {}).get("apiUrl")
            if only_api_url and header_url and header_url != only_api_url:
                continue
            res = sync_file(spool, api_url, api_token, project, problems, default_api_url or api_url)
            results.append(res)
            if quiet and res.batches:
                logger.info("paravt_workbench: uploaded %d spooled batch(es) of run %s", res.batches, res.client_id)
        finally:
            spool.close(delete=bool(res and res.complete))
    return results
