"""How far this machine's clock is from the workbench's, read from the answers' ``Date`` header.

A metric point's wall time (``at``) comes from the trainer machine's clock. On a cluster node
whose clock is wrong (no NTP, a container with a frozen clock) every point would land hours off
on the workbench's time axis, and the server stores a time ahead of its own clock at its own
time instead (docs/ingestion-format.md, CLOCK_SKEW_TOLERANCE_MS). So each answer's ``Date``
(RFC 9110: the server's time when it answered, to the second) is compared with the middle of the
request on this machine: ``offset = server time - local time``. The median of the latest samples
is the estimate; ``at`` is corrected by it once it is larger than what a ``Date`` can tell
(CORRECT_ABOVE_S), and past WARN_ABOVE_S the run says so once.
"""

from __future__ import annotations

import collections
import email.utils
import threading
from typing import Optional

from ._problems import Problems

#: Below this the estimate is within a ``Date``'s one-second resolution and a round trip: a
#: correction would add error, not remove it.
CORRECT_ABOVE_S = 2.0
#: Past this the machine's clock is wrong enough to say so (once per run).
WARN_ABOVE_S = 60.0
#: Samples the median is taken over (the latest answers).
SAMPLES = 9


def server_time(date_header: Optional[str]) -> Optional[float]:
    """The POSIX time of a ``Date`` header, at the middle of its second; None when unreadable."""
    if not date_header:
        return None
    try:
        when = email.utils.parsedate_to_datetime(date_header)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None or when.tzinfo is None:
        return None
    # The header truncates to the second: the server's time was somewhere in [t, t + 1).
    return when.timestamp() + 0.5


class Clock:
    """The offset estimate of one run's workbench; thread-safe (the sender measures, the builder
    corrects, init's request comes first)."""

    def __init__(self, problems: Optional[Problems] = None) -> None:
        self._samples: "collections.deque[float]" = collections.deque(maxlen=SAMPLES)
        self._lock = threading.Lock()
        self._offset = 0.0
        self._problems = problems

    def observe(self, date_header: Optional[str], sent: float, received: float) -> None:
        """One answer: its ``Date`` and this machine's time.time() before sending and after."""
        server = server_time(date_header)
        if server is None or received < sent:
            return
        with self._lock:
            self._samples.append(server - (sent + received) / 2)
            ordered = sorted(self._samples)
            median = ordered[len(ordered) // 2]
            self._offset = median if abs(median) > CORRECT_ABOVE_S else 0.0
            offset = self._offset
        if abs(offset) > WARN_ABOVE_S and self._problems is not None:
            way = "behind" if offset > 0 else "ahead of"
            self._problems.report(
                ("clock-skew",),
                f"this machine's clock is {_span(offset)} {way} the workbench's (from its answers' Date "
                f"header); metric times (at) are corrected by {offset:+.0f} s. Set the clock right (NTP) "
                "to keep other tools' times right too",
            )

    @property
    def offset(self) -> float:
        """Seconds to add to this machine's time to get the workbench's (0 while unknown or small)."""
        with self._lock:
            return self._offset

    def correct(self, t: float) -> float:
        return t + self.offset


def _span(seconds: float) -> str:
    s = abs(seconds)
    if s < 120:
        return f"{s:.0f} s"
    if s < 7200:
        return f"{s / 60:.0f} min"
    if s < 48 * 3600:
        return f"{s / 3600:.1f} h"
    return f"{s / 86400:.0f} days"
