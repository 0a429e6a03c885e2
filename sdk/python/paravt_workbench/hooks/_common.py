"""What the framework hooks share: turning a framework's metrics dict into values the ingestion API
takes, and never letting a hook's own failure reach the trainer."""

from __future__ import annotations

import functools
import logging
import re
import warnings
from typing import Any, Callable, Dict, Mapping, Optional, Set, TypeVar

logger = logging.getLogger("paravt_workbench.hooks")

#: docs/ingestion-format.md: metric names are letters, digits and `_ . / : -`, at most 100 long.
NAME_MAX = 100
_INVALID_NAME_CHARS = re.compile(r"[^\w./:-]")


def metric_name(key: Any) -> Optional[str]:
    """A framework's metric key as the API accepts it, or None when nothing is left of it.

    `@` becomes `_at_` as verl's own MLflow adapter spells it (verl/utils/tracking.py,
    `_MlflowLoggingAdapter.sanitize_key`), so `val-core/…/reward/mean@1` stays readable; any other
    character the API refuses becomes `_`.
    """
    if not isinstance(key, str):
        return None
    name = _INVALID_NAME_CHARS.sub("_", key.strip().replace("@", "_at_"))[:NAME_MAX]
    return name or None


def scalar(value: Any) -> Optional[float]:
    """A number from a metrics dict (float, int, bool, numpy scalar, 0-d tensor), or None for
    anything else (strings, None, tables, lists). Non-finite numbers come through: the SDK refuses
    them with a warning, which is where the issue wants that reported."""
    if value is None or isinstance(value, (str, bytes)):
        return None
    if isinstance(value, (bool, int, float)):
        return float(value)
    item = getattr(value, "item", None)
    if callable(item):
        try:
            inner = item()
        except (TypeError, ValueError, RuntimeError):  # an array of more than one element
            return None
        if isinstance(inner, (bool, int, float)):
            return float(inner)
    return None


def metric_values(data: Optional[Mapping[Any, Any]], rename: Optional[Callable[[str], str]] = None) -> Dict[str, float]:
    """The numeric entries of a metrics dict under API-valid names (first one wins on a clash)."""
    values: Dict[str, float] = {}
    for key, raw in (data or {}).items():
        number = scalar(raw)
        if number is None:
            continue
        name = metric_name(rename(key) if rename and isinstance(key, str) else key)
        if name is not None and name not in values:
            values[name] = number
    return values


_warned: Set[str] = set()

F = TypeVar("F", bound=Callable[..., Any])


def never_raises(where: str) -> Callable[[F], F]:
    """Runs a hook method; an exception is warned about once per (hook, exception type) and
    swallowed, because a hook is called from inside the trainer's loop (the issue: nothing
    crashes the trainer). The method then returns None."""

    def decorate(method: F) -> F:
        @functools.wraps(method)
        def guarded(*args: Any, **kwargs: Any) -> Any:
            try:
                return method(*args, **kwargs)
            except Exception as error:  # noqa: BLE001 - the trainer must go on
                key = f"{where}:{type(error).__name__}"
                message = f"paravt {where} hook: {type(error).__name__}: {error} (training goes on)"
                if key not in _warned:
                    _warned.add(key)
                    try:
                        warnings.warn(message, RuntimeWarning, stacklevel=2)
                    except Exception:  # -W error: still never in the trainer
                        logger.warning(message)
                return None

        return guarded  # type: ignore[return-value]

    return decorate


def without_none(kwargs: Mapping[str, Any]) -> Dict[str, Any]:
    """Keyword arguments the hook knows, so that paravt_workbench.init's own defaults apply to the rest."""
    return {k: v for k, v in kwargs.items() if v is not None}


def init_run(**kwargs: Any) -> Any:
    """`paravt_workbench.init(...)` for a hook that was given no run (imported late: the SDK's package
    imports none of the hooks)."""
    import paravt_workbench

    return paravt_workbench.init(**kwargs)
