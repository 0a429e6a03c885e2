"""One batch to the server and what its answer means, shared by the live uploader and the sync."""

from __future__ import annotations

import json
import re
from typing import Dict, List, Optional

from ._http import Api, ApiError
from ._problems import Problems

OK, RETRY, REFUSED, DROPPED = "ok", "retry", "refused", "dropped"

#: A server error (5xx) on the same batch is retried this many times (as the TypeScript uploader,
#: packages/cli/src/remote/ingest-file.ts); no answer and 429 are retried without end.
MAX_SERVER_ERROR_ATTEMPTS = 8


def backoff_seconds(attempt: int, retry_after: Optional[float]) -> float:
    """The TypeScript uploader's wait: Retry-After when given, else 0.5 s doubling up to 30 s."""
    if retry_after is not None:
        return min(retry_after, 300.0)
    return min(30.0, 0.5 * 2 ** min(max(attempt - 1, 0), 6))


def new_counts() -> Dict[str, int]:
    return {"stored": 0, "duplicate": 0, "conflict": 0, "invalid": 0, "refused": 0}


def reason_kind(item: dict) -> str:
    """The kind of an item's reason: the server's ``code`` (contracts/ingest.ts INGEST_REASON_CODES),
    else, from a server that sends none, the text without its numbers (steps, times, sizes)."""
    code = item.get("code")
    if isinstance(code, str) and code:
        return code
    return re.sub(r"\d+(\.\d+)?", "#", str(item.get("reason") or ""))


def report_answer(kind: str, answer: dict, problems: Problems, counts: Dict[str, int]) -> None:
    """Adds the per-item statuses to ``counts`` and warns once per kind of reason (a clock running
    ahead answers every item of the run alike: one warning, quoting the first item)."""
    label = "metric" if kind == "metrics" else "rollout"
    answer_counts = answer.get("counts")
    for status, n in (answer_counts if isinstance(answer_counts, dict) else {}).items():
        if status in counts and isinstance(n, int):
            counts[status] += n
    items = answer.get("items")
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict):
            continue
        status, reason, item_id = item.get("status"), item.get("reason"), item.get("id")
        if status in ("invalid", "conflict") or (status == "stored" and reason):
            what = "stored, but" if status == "stored" else status
            problems.report(
                ("answer", kind, status, reason_kind(item)),
                f"{label} item {item_id!r} {what}: {reason or 'no reason given'} (said once for all "
                f"{label} items answered {status} for this reason)",
            )


def _bad_item_indices(err: ApiError, n: int) -> Dict[int, str]:
    """Items a 422 names in its issues' paths (["items", i, ...]) with the problem."""
    out: Dict[int, str] = {}
    for issue in err.issues:
        path = issue.get("path") or []
        if len(path) >= 2 and path[0] == "items" and isinstance(path[1], int) and 0 <= path[1] < n:
            where = ".".join(str(p) for p in path[2:])
            out.setdefault(path[1], f"{where}: {issue.get('message', 'invalid')}" if where else issue.get("message", ""))
    return out


class BatchResult:
    def __init__(self, outcome: str, error: Optional[ApiError] = None) -> None:
        self.outcome = outcome
        self.error = error


def post_batch(
    api: Api, project: str, run_id: str, kind: str, items: List[str], problems: Problems, counts: Dict[str, int]
) -> BatchResult:
    """Sends one batch. A 422 that names items drops those (each reported) and sends the rest, so
    one bad item never costs the others; anything retryable is handed back to the caller."""
    label = "metric" if kind == "metrics" else "rollout"
    while items:
        try:
            answer = api.post_items(project, run_id, kind, items)
        except ApiError as e:
            if e.retryable:
                return BatchResult(RETRY, e)
            bad = _bad_item_indices(e, len(items)) if e.status == 422 else {}
            if bad:
                for i, why in bad.items():
                    counts["refused"] += 1
                    problems.report(
                        ("refused", kind, why),
                        f"{label} item {_item_id(items[i])!r} refused by the server: {why} (said once for "
                        "all items refused for this reason)",
                    )
                items = [it for i, it in enumerate(items) if i not in bad]
                continue
            if e.status in (401, 403, 404):
                return BatchResult(REFUSED, e)
            # A refusal of the whole batch (the run was cancelled, a body the server could not
            # read): sending it again would be refused again.
            counts["refused"] += len(items)
            problems.report(
                ("batch-refused", kind, e.message),
                f"a batch of {len(items)} {label} items was refused: {e.message}",
            )
            return BatchResult(DROPPED, e)
        report_answer(kind, answer if isinstance(answer, dict) else {}, problems, counts)
        return BatchResult(OK)
    return BatchResult(DROPPED)


def _item_id(item_json: str) -> str:
    try:
        return str(json.loads(item_json).get("id"))
    except (ValueError, AttributeError):
        return "?"
