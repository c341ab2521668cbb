"""Diagnostics of latticecast's passes, in MLIR's ``file:line:col: severity: message`` form.

jaxlib's Python bindings can emit only *errors* through MLIR (``Location.emit_error``);
errors go that way, so a failing pipeline raises ``MLIRError`` with them as usual.
Remarks and warnings (``diagnose-lossy``) have no such route, so the pass records
every diagnostic here as well; ``latticecast-opt`` prints them and checks them
against ``expected-*`` comments, and Python callers read them from the pass.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass

from jaxlib.mlir import ir

__all__ = ["Diagnostic", "LossyPromotionWarning", "location_parts", "format_location"]


class LossyPromotionWarning(UserWarning):
    """An implicit promotion that can lose magnitude (``diagnose-lossy=warning``)."""


_LOC = re.compile(r'"(?P<file>[^"]*)":(?P<line>\d+):(?P<col>\d+)')


def location_parts(loc: ir.Location) -> tuple[str, int, int] | None:
    """``(file, line, col)`` of the first file location inside ``loc`` (names, call sites and
    fused locations included), or ``None`` for an unknown location."""
    m = _LOC.search(str(loc))
    if not m:
        return None
    return m["file"], int(m["line"]), int(m["col"])


_NAME = re.compile(r'loc\("(?P<name>[^"]*)"\)')


def format_location(loc: ir.Location) -> str:
    """``file:line:col``; for a named location without a file (a graph's ops), the name."""
    parts = location_parts(loc)
    if parts is None:
        m = _NAME.search(str(loc))
        return m["name"] if m else "<unknown>"
    return f"{parts[0]}:{parts[1]}:{parts[2]}"


@dataclass(frozen=True)
class Diagnostic:
    severity: str  # "error" | "warning" | "remark"
    location: str  # "file:line:col" or "<unknown>"
    message: str

    @property
    def line(self) -> int | None:
        parts = self.location.rsplit(":", 2)
        return int(parts[1]) if len(parts) == 3 and parts[1].isdigit() else None

    def __str__(self) -> str:
        return f"{self.location}: {self.severity}: {self.message}"

    def warn(self) -> None:
        """Issue a Python warning for a warning-level diagnostic (graph builders see these)."""
        warnings.warn(LossyPromotionWarning(str(self)), stacklevel=3)
