"""``python -m paravt_workbench sync``: uploads what runs left in the spool."""

from __future__ import annotations

import argparse
import os
import sys
from typing import List, Optional

from ._env import resolve
from ._problems import Problems
from ._sync import sync_directory
from ._version import __version__


class _Printed(Problems):
    """Problems printed on stderr as they come (a person runs this command)."""

    def report(self, key, message) -> bool:  # type: ignore[override]
        with self._lock:
            if key in self._seen:
                return False
            self._seen.add(key)
            self.messages.append(message)
        print(f"paravt_workbench sync: {message}", file=sys.stderr)
        return True


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m paravt_workbench", description=__doc__)
    parser.add_argument("--version", action="version", version=f"paravt-workbench {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    sync = sub.add_parser(
        "sync",
        help="upload the batches runs kept on disk while the workbench was unreachable",
        description=(
            "Uploads every spool file no running process holds: the run is found again by its client "
            "id, batches the server already has come back as duplicates, and a file is deleted once "
            "everything in it was answered. Exit status 0 when nothing is left, 1 otherwise."
        ),
    )
    sync.add_argument("--spool-dir", help="default: PARAVT_SPOOL_DIR, else ~/.cache/paravt/spool")
    sync.add_argument("--api-url", help="default: PARAVT_API_URL, else the URL the run was logged to")
    sync.add_argument("--api-token", help="default: PARAVT_API_TOKEN (a WRITE token of the project)")
    sync.add_argument("--project", help="the project id, when the runs were logged without one")
    args = parser.parse_args(argv)

    settings = resolve(args.api_url, args.api_token, args.project, args.spool_dir)
    # An explicit URL only: otherwise each file goes to the workbench its run was logged to.
    url = settings.api_url if (args.api_url or os.environ.get("PARAVT_API_URL")) else None
    results = sync_directory(
        settings.spool_dir,
        api_url=url,
        api_token=settings.api_token,
        project=args.project,
        problems=_Printed(),
        default_api_url=settings.api_url,
    )
    if not results:
        print(f"paravt_workbench sync: nothing to upload in {settings.spool_dir}")
        return 0
    left = 0
    for r in results:
        c = r.counts
        sent = (
            f"{r.batches} batch(es): {c['stored']} stored, {c['duplicate']} duplicate, "
            f"{c['conflict']} conflict, {c['invalid'] + c['refused']} refused"
        )
        where = r.url or r.path.name
        if r.complete:
            status = f", status {r.status_sent}" if r.status_sent else ""
            print(f"run {r.client_id!r}: {sent}{status} -> {where}")
        else:
            left += 1
            print(f"run {r.client_id!r} ({r.path}): {sent}; NOT finished: {r.reason}", file=sys.stderr)
    return 1 if left else 0
