"""Problems the SDK met with what the trainer gave it or what the server answered.

Each distinct problem is surfaced once per run as a ``ParavtWarning`` (``warnings.warn``), never
as an exception in the trainer, and kept in ``Run.problems`` so a script (or a test) can read
them afterwards. Warnings are raised from the SDK's background thread too; Python's warning
machinery is process-wide, so ``warnings.catch_warnings`` / ``-W error::paravt_workbench.ParavtWarning``
work as usual (the latter would still not raise in the trainer thread: the SDK catches it).
"""

from __future__ import annotations

import logging
import threading
import warnings
from typing import Hashable, List

logger = logging.getLogger("paravt_workbench")

#: After this many distinct problems a run says so once and only counts the rest.
MAX_REPORTED = 200


class ParavtWarning(UserWarning):
    """Something the SDK could not send as given, or a server refusal; the trainer goes on."""


class Problems:
    def __init__(self, limit: int = MAX_REPORTED) -> None:
        self._seen: set = set()
        self._lock = threading.Lock()
        self._limit = limit
        self.messages: List[str] = []
        #: Problems beyond the limit, counted only.
        self.suppressed = 0

    def report(self, key: Hashable, message: str) -> bool:
        """Warns once per ``key``; True when this call warned."""
        with self._lock:
            if key in self._seen:
                return False
            self._seen.add(key)
            if len(self.messages) >= self._limit:
                self.suppressed += 1
                if self.suppressed > 1:
                    return False
                message = (
                    f"more than {self._limit} distinct problems in this run; "
                    "further ones are counted in run.problem_count only"
                )
            else:
                self.messages.append(message)
        try:
            # Shown as "paravt_workbench:0: ParavtWarning: …": most problems are found in the SDK's own
            # thread, where a source line of the caller means nothing.
            warnings.warn_explicit(message, ParavtWarning, filename="paravt_workbench", lineno=0, module="paravt_workbench")
        except Exception:  # -W error turns warnings into exceptions: never in the trainer
            logger.warning("paravt_workbench: %s", message)
        return True

    @property
    def count(self) -> int:
        with self._lock:
            return len(self.messages) + self.suppressed
