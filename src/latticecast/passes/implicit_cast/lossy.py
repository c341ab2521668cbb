"""Lossy-promotion diagnostics: report an implicit conversion that can lose magnitude.

No seed system warns when ``int64 + float16`` overflows to inf above 65504;
``implicit-cast{diagnose-lossy=...}`` can, as a remark, a warning or an error. The
arithmetic ("can this conversion lose magnitude") is :func:`latticecast.values.magnitude_loss`;
this module only turns it into a diagnostic at the op that asked for the conversion.
"""

from __future__ import annotations

from jaxlib.mlir import ir

from ...dialect_utils.diagnostics import Diagnostic
from ...dtypes import DType
from ...values import magnitude_loss
from ..base import PassResult
from ..options import LossyLevel

__all__ = ["check_lossy"]


def check_lossy(level: LossyLevel, source: DType, target: DType, user: ir.Operation, result: PassResult) -> None:
    """Report converting ``source`` to ``target`` for ``user`` at ``level``, if it can lose magnitude."""
    if level is LossyLevel.OFF:
        return
    why = magnitude_loss(source, target)
    if why is None:
        return
    message = f"implicit promotion of {source.mlir_name} to {target.mlir_name} {why}"
    if level is LossyLevel.ERROR:
        result.error(user, message)
        return
    result.diagnostics.append(Diagnostic.at(user.location, level.value, f"'{user.name}' op {message}"))
