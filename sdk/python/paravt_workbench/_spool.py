"""The local spool: batches the server did not take (down, unreachable, refusing the token) are
kept on disk until ``python -m paravt_workbench sync`` or the next ``init`` uploads them.

One append-only JSON Lines file per run and process, written only by that process, which holds an
exclusive lock on it (``flock``) for its lifetime; a sync skips locked files. Lines:

    {"t": "run", "v": 1, "apiUrl", "projectId", "clientId", "name", "kind", "config"}   (first)
    {"t": "metrics" | "rollouts", "b": <batch id>, "items": [...]}                    (fsync'd)
    {"t": "status", "b": <batch id>, "status", "message"?, "error"?}                   (fsync'd)
    {"t": "ack", "b": <batch id>}                                       (the server answered it)

Each data line is fsync'd before the SDK counts the batch as kept, so a crash or a kill after
that loses nothing. An ack is not fsync'd: a lost ack only means the batch is sent again, which
the server answers as ``duplicate`` (every item has a client id). A line cut by a crash
mid-write is ignored. A file whose batches are all acknowledged is deleted.
"""

from __future__ import annotations

import json
import os
import re
import threading
import uuid
from pathlib import Path
from typing import Dict, List, Optional, Tuple

try:  # POSIX; elsewhere files are not locked (a double send is still only a duplicate)
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]

SPOOL_VERSION = 1
SUFFIX = ".jsonl"


def lock(f) -> bool:
    """An exclusive lock on the open file, without waiting; True when taken."""
    if fcntl is None:  # pragma: no cover
        return True
    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError:
        return False


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text)[:60].strip("._") or "run"


class SpoolWriter:
    """This process's spool file of one run. Created on the first batch it keeps. Thread-safe:
    the uploader thread writes it, and log() itself when the in-memory queue is full."""

    def __init__(self, directory: Path, header: dict) -> None:
        self.directory = Path(directory)
        self.header = header
        self.path: Optional[Path] = None
        self._file = None
        self._lock = threading.RLock()
        #: batch id -> (offset, length) of its line, in the order written.
        self._unacked: Dict[str, Tuple[int, int]] = {}
        self.kept = 0
        self.failed: Optional[str] = None

    def _open(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        name = f"{_slug(self.header.get('clientId') or 'run')}-{os.getpid()}-{uuid.uuid4().hex[:8]}{SUFFIX}"
        path = self.directory / name
        f = open(path, "ab+")
        lock(f)
        f.write(json.dumps({"t": "run", "v": SPOOL_VERSION, **self.header}, allow_nan=False).encode() + b"\n")
        f.flush()
        os.fsync(f.fileno())
        self._file, self.path = f, path

    def _append(self, line: bytes, sync: bool) -> int:
        if self._file is None:
            self._open()
        f = self._file
        f.seek(0, os.SEEK_END)
        offset = f.tell()
        f.write(line)
        f.flush()
        if sync:
            os.fsync(f.fileno())
        return offset

    def keep(self, kind: str, items: List[str]) -> str:
        """Appends a batch of items (JSON texts); its batch id."""
        batch = uuid.uuid4().hex
        line = ('{"t":"%s","b":"%s","items":[%s]}\n' % (kind, batch, ",".join(items))).encode()
        with self._lock:
            offset = self._append(line, sync=True)
            self._unacked[batch] = (offset, len(line))
            self.kept += 1
        return batch

    def keep_status(self, body: dict) -> str:
        batch = uuid.uuid4().hex
        line = json.dumps({"t": "status", "b": batch, **body}, allow_nan=False).encode() + b"\n"
        with self._lock:
            offset = self._append(line, sync=True)
            self._unacked[batch] = (offset, len(line))
        return batch

    def ack(self, batch: str) -> None:
        with self._lock:
            if self._unacked.pop(batch, None) is not None:
                self._append(('{"t":"ack","b":"%s"}\n' % batch).encode(), sync=False)

    def pending(self) -> List[str]:
        with self._lock:
            return list(self._unacked)

    def read(self, batch: str) -> Optional[dict]:
        with self._lock:
            where = self._unacked.get(batch)
            if where is None or self._file is None:
                return None
            self._file.seek(where[0])
            data = self._file.read(where[1])
        return json.loads(data)

    def close(self) -> Optional[Path]:
        """Closes the file; deletes it when everything in it was acknowledged. The path kept, if any."""
        with self._lock:
            if self._file is None:
                return None
            kept = bool(self._unacked)
            if not kept:
                try:
                    os.unlink(self.path)
                except OSError:
                    pass
            self._file.close()  # releases the lock
            self._file = None
            return self.path if kept else None


class SpoolFile:
    """A spool file read back for a sync (another process's, or an earlier run's)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.header: Optional[dict] = None
        #: Unacknowledged data and status records, in the order written.
        self.records: List[dict] = []
        self._file = None

    def open_locked(self) -> bool:
        """Opens the file and takes its lock; False when a live process still holds it (or the
        file is gone: its writer deleted it after everything was acknowledged)."""
        try:
            f = open(self.path, "rb+")  # never "a": that would create a file deleted meanwhile
        except OSError:
            return False
        if not lock(f):
            f.close()
            return False
        self._file = f
        f.seek(0)
        acked = set()
        records = []
        for raw in f.read().split(b"\n"):
            if not raw.strip():
                continue
            try:
                rec = json.loads(raw)
            except ValueError:
                continue  # a line cut by a crash mid-write
            if not isinstance(rec, dict):
                continue
            t = rec.get("t")
            if t == "run" and self.header is None:
                self.header = rec
            elif t == "ack":
                acked.add(rec.get("b"))
            elif t in ("metrics", "rollouts", "status") and isinstance(rec.get("b"), str):
                records.append(rec)
        self.records = [r for r in records if r["b"] not in acked]
        return True

    def ack(self, batch: str) -> None:
        assert self._file is not None
        self._file.seek(0, os.SEEK_END)
        self._file.write(('{"t":"ack","b":"%s"}\n' % batch).encode())
        self._file.flush()

    def close(self, delete: bool) -> None:
        if self._file is None:
            return
        if delete:
            try:
                os.unlink(self.path)
            except OSError:
                pass
        self._file.close()
        self._file = None


def spool_files(directory: Path) -> List[Path]:
    try:
        return sorted(p for p in Path(directory).iterdir() if p.name.endswith(SUFFIX) and p.is_file())
    except OSError:
        return []
