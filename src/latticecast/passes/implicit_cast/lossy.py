"""What a conversion the pass makes does to values, as diagnostics: lossy promotions and the promotion report.

No seed system warns when ``int64 + float16`` overflows to inf above 65504;
``implicit-cast{diagnose-lossy=...}`` can, as a remark, a warning or an error, and
``diagnose-precision=...`` does the same for conversions that round (``int32 -> float32``).
``report-promotions`` names every conversion and retyped weak literal with its kind, which is what
NumPy's ``weak_and_warn`` and JAX's strict mode give in part. The arithmetic ("can this conversion
lose magnitude, or precision") is :mod:`latticecast.promotion.value_fit`; this module turns it into diagnostics
at the op that asked for the conversion.
"""

from __future__ import annotations

from functools import cache

from jaxlib.mlir import ir

from ...dialect_utils.diagnostics import Diagnostic
from ...promotion.dtypes import DType
from ...promotion.value_fit import magnitude_loss, precision_loss
from ..base import PassResult
from ..options import ImplicitCastOptions, LossyLevel

__all__ = ["KINDS", "check_lossy", "report_conversion", "report_weak_literal", "summary"]

KINDS = ("widening", "precision loss", "magnitude loss", "weak literal")
"""The kinds of promotion the report counts, in the order its summary lists them."""


def check_lossy(level: LossyLevel, source: DType, target: DType, user: ir.Operation, result: PassResult,
                precision: LossyLevel = LossyLevel.OFF) -> None:
    """Report converting ``source`` to ``target`` for ``user``: at ``level`` if it can lose magnitude,
    at ``precision`` if it can only lose precision."""
    if level is LossyLevel.OFF and precision is LossyLevel.OFF:
        return
    why = magnitude_loss(source, target)
    if why is None:
        level, why = precision, precision_loss(source, target)
        if why is None or level is LossyLevel.OFF:
            return
    elif level is LossyLevel.OFF:
        return
    message = f"implicit promotion of {source.mlir_name} to {target.mlir_name} {why}"
    if level is LossyLevel.ERROR:
        result.error(user, message)
        return
    result.diagnostics.append(Diagnostic.at(user.location, level.value, f"'{user.name}' op {message}"))


@cache
def _kind(source: DType, target: DType) -> tuple[str, str]:
    """The kind of a conversion, and why (the reason without its "can lose ...:" lead). Decided once per
    pair of dtypes: a module with a convert per input asks the same question for each."""
    why = magnitude_loss(source, target)
    if why is not None:
        return "magnitude loss", why.split(": ", 1)[-1]
    why = precision_loss(source, target)
    if why is not None:
        return "precision loss", why.split(": ", 1)[-1]
    return "widening", "every value converts exactly"


def report_conversion(options: ImplicitCastOptions, source: DType, target: DType, user: ir.Operation,
                      operand: int | None, result: PassResult) -> None:
    """Count (and with ``report-promotions``, remark on) one inserted conversion."""
    kind, why = _kind(source, target)
    result.promotions[kind] = result.promotions.get(kind, 0) + 1
    if options.report_promotions:
        which = "a value" if operand is None else f"operand #{operand}"
        result.diagnostics.append(Diagnostic.at(
            user.location, "remark",
            f"'{user.name}' op promotes {which} from {source.mlir_name} to {target.mlir_name}: {kind}: {why}"))


def report_weak_literal(options: ImplicitCastOptions, source: DType, target: DType, user: ir.Operation,
                        operand: int | None, result: PassResult) -> None:
    """Count (and with ``report-promotions``, remark on) one weak literal rebuilt at ``target``."""
    result.promotions["weak literal"] = result.promotions.get("weak literal", 0) + 1
    if options.report_promotions:
        which = "a weak literal" if operand is None else f"weak literal operand #{operand}"
        result.diagnostics.append(Diagnostic.at(
            user.location, "remark",
            f"'{user.name}' op {which} takes type {target.mlir_name} (written as {source.mlir_name}; a weak "
            f"value takes the other side's type)"))


def summary(result: PassResult) -> str:
    """``"3 promotions: 1 widening, 1 precision loss, 0 magnitude loss, 1 weak literal"``."""
    total = sum(result.promotions.values())
    counts = ", ".join(f"{result.promotions.get(kind, 0)} {kind}" for kind in KINDS)
    return f"implicit-cast: {total} promotion{'' if total == 1 else 's'}: {counts}"
