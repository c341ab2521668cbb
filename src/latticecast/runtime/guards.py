"""What crashes XLA instead of being reported by it: refused here, before compiling, with the fix.

XLA's CPU compiler aborts or segfaults the process, rather than returning an error, on a
few inputs that StableHLO's verifier accepts. Each is refused with the op's location:

* ``func.call`` chains nested deeper than :data:`MAX_CALL_DEPTH` (XLA recurses per call and
  crashes between 150 and 200 levels), and recursive calls;
* ordering comparisons (``LT``, ``LE``, ``GT``, ``GE``) of complex numbers ("unhandled
  direction for conversion to Comparison");
* ``stablehlo.remainder`` of complex numbers (a segmentation fault);
* ``stablehlo.convert`` of complex numbers to a real type (a segmentation fault when XLA folds
  it on a constant; StableHLO's specification leaves it undefined, and JAX never writes it);
* element types the platform's compiler cannot emit (:func:`.signature.platform_problem`:
  the 6-bit floats on CPU fail with an INTERNAL error from deep inside LLVM).

One more input crashes XLA's compiler (a floating-point exception): an integer
``stablehlo.divide`` or ``stablehlo.remainder`` by a zero that XLA can compute while
compiling (a constant, or what only constants feed). That one is not refused, since at run
time XLA defines it (``x / 0`` is -1, ``x % 0`` is ``x``, as in ``jax.jit``): such a divisor
is passed through ``stablehlo.optimization_barrier``, which XLA does not fold through, so the
program runs as XLA runs it when the zero arrives as an input (:func:`shield_divisions`).

One walk of the module finds them all; it runs once per compile (a cached compile skips it).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from jaxlib.mlir import ir

from ..dialect_utils.diagnostics import Diagnostic
from ..dtypes import DType
from .errors import UnsupportedModuleError
from .signature import platform_problem

__all__ = ["refuse_what_crashes_xla", "shield_divisions", "MAX_CALL_DEPTH"]

MAX_CALL_DEPTH = 128
"""The deepest chain of ``func.call`` accepted. XLA's compiler recurses per nested call and
crashes the process (a segmentation fault) somewhere between 150 and 200 levels; JAX's own
modules nest a handful."""

_ORDERING = ("LT", "LE", "GT", "GE")
_COMPLEX_CRASHES = ("stablehlo.compare", "stablehlo.remainder", "stablehlo.convert")


def refuse_what_crashes_xla(module: Any, name: str, platform: str = "cpu",
                            device: str = "") -> list[ir.Operation]:
    """Raise :class:`UnsupportedModuleError` for the first input XLA would crash on (see above)
    when compiling for ``platform`` (a PJRT platform name: ``cpu``, ``cuda``, ``rocm``);
    ``device`` names the device in the message. Returns the integer divisions whose divisor XLA
    could fold to zero, for :func:`shield_divisions`."""
    lacking = {d.mlir_name: problem for d in DType if (problem := platform_problem(d, platform))}
    calls: dict[str, list[str]] = {}
    folded: set[ir.Value] = set()  # values XLA can compute while compiling: only constants feed them
    divisions: list[ir.Operation] = []
    for op in module.body.operations:
        op = op.operation
        if op.name != "func.func" or "sym_name" not in op.attributes:
            continue
        callees: list[str] = []
        problem: list[str] = []
        if lacking:
            signature = str(op.attributes["function_type"])
            for element, why in lacking.items():
                if element in signature:
                    problem.append(f"{Diagnostic.at(op.location, 'error', '').where or name}: {why}")

        def visit(inner: ir.Operation, callees: list[str] = callees, problem: list[str] = problem) -> ir.WalkResult:
            kind = inner.name
            if kind == "func.call" and "callee" in inner.attributes:
                callees.append(ir.FlatSymbolRefAttr(inner.attributes["callee"]).value)
            elif kind in _COMPLEX_CRASHES and _complex_operand(inner):
                why = _complex_problem(inner)
                if why:
                    problem.append(f"{Diagnostic.at(inner.location, 'error', '').where or name}: {why}")
                    return ir.WalkResult.INTERRUPT
            if kind == "stablehlo.constant":
                folded.update(inner.results)
            elif len(inner.operands) and not len(inner.regions) and all(v in folded for v in inner.operands):
                if kind in _DIVISIONS and _may_divide_by_zero(inner.operands[1]):
                    divisions.append(inner)
                else:
                    folded.update(inner.results)
            elif kind in _DIVISIONS and len(inner.operands) == 2 and inner.operands[1] in folded and \
                    _may_divide_by_zero(inner.operands[1]):
                divisions.append(inner)
            if lacking:
                for result in inner.results:
                    why = lacking.get(_element_name(result.type))
                    if why:
                        problem.append(f"{Diagnostic.at(inner.location, 'error', '').where or name}: {why}")
                        return ir.WalkResult.INTERRUPT
            return ir.WalkResult.ADVANCE

        if not problem:
            op.walk(visit)
        if problem:
            raise UnsupportedModuleError(f"{name} cannot run on XLA{f' for {device}' if device else ''}: "
                                         f"{problem[0]}")
        calls[ir.StringAttr(op.attributes["sym_name"]).value] = callees
    _check_call_depth(calls, name)
    return divisions


def shield_divisions(divisions: list[ir.Operation]) -> None:
    """Pass the divisor of each of ``divisions`` (from :func:`refuse_what_crashes_xla`) through
    ``stablehlo.optimization_barrier``, so that XLA divides at run time, by its rules, instead of
    crashing while folding a division by zero."""
    for op in divisions:
        divisor = op.operands[1]
        barrier = ir.Operation.create("stablehlo.optimization_barrier", results=[divisor.type], operands=[divisor],
                                      loc=op.location, ip=ir.InsertionPoint(op))
        op.operands[1] = barrier.result


_DIVISIONS = ("stablehlo.divide", "stablehlo.remainder")


def _may_divide_by_zero(divisor: ir.Value) -> bool:
    """Whether an integer ``divisor`` that only constants feed may be zero: a constant with a zero, or
    anything computed (its value is not read here; shielding it costs only that division's folding)."""
    t = divisor.type
    if t.typeid != ir.RankedTensorType.static_typeid or not isinstance(ir.RankedTensorType(t).element_type,
                                                                         ir.IntegerType):
        return False  # a float division by zero is inf or NaN, never a trap
    owner = divisor.owner
    if isinstance(owner, ir.Block) or owner.name != "stablehlo.constant":
        return True
    attr = owner.attributes["value"]
    if not isinstance(attr, ir.DenseIntElementsAttr):
        return True
    if attr.is_splat:
        return int(ir.IntegerAttr(attr.get_splat_value()).value) == 0
    return bool((np.asarray(attr) == 0).any())


def _element_name(t: ir.Type) -> str:
    """The element type of a shaped type as MLIR spells it (``""`` for other types)."""
    return str(ir.ShapedType(t).element_type) if isinstance(t, ir.ShapedType) else ""


def _complex_operand(op: ir.Operation) -> bool:
    if not len(op.operands):
        return False
    t = op.operands[0].type
    if t.typeid != ir.RankedTensorType.static_typeid:
        return False
    return ir.RankedTensorType(t).element_type.typeid == ir.ComplexType.static_typeid


def _complex_problem(op: ir.Operation) -> str | None:
    if op.name == "stablehlo.remainder":
        return ("stablehlo.remainder of complex numbers crashes XLA's compiler; compute it from the real and "
                "imaginary parts, or on real operands")
    if op.name == "stablehlo.convert":
        if _element_name(op.results[0].type).startswith("complex"):
            return None
        return ("stablehlo.convert of complex numbers to a real type crashes XLA's compiler on a constant (and "
                "StableHLO leaves it undefined); write what JAX writes: stablehlo.real, then convert the real "
                "part, or, for bool, stablehlo.compare NE with a complex zero")
    direction = str(op.attributes["comparison_direction"]) if "comparison_direction" in op.attributes else ""
    for d in _ORDERING:
        if f"comparison_direction {d}" in direction or direction.endswith(f" {d}>"):
            return (f"an ordering comparison ({d}) of complex numbers aborts XLA's compiler; complex numbers "
                    "have no order: compare their real parts (stablehlo.real) or magnitudes (stablehlo.abs)")
    return None


def _check_call_depth(calls: dict[str, list[str]], name: str) -> None:
    """Refuse calls nested deeper than :data:`MAX_CALL_DEPTH`, and recursion."""
    if not any(calls.values()):
        return
    depth: dict[str, int] = {}
    for root in calls:
        stack = [(root, iter(calls.get(root, ())))]
        on_path = {root}
        while stack:
            fn, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                stack.pop()
                on_path.discard(fn)
                depth[fn] = 1 + max((depth.get(c, 0) for c in calls.get(fn, ())), default=0)
                continue
            if nxt in on_path:
                raise UnsupportedModuleError(
                    f"{name} calls @{nxt} recursively (from @{fn}); XLA runs no recursive functions: "
                    "rewrite the recursion as a stablehlo.while loop")
            if nxt not in depth and nxt in calls:
                on_path.add(nxt)
                stack.append((nxt, iter(calls[nxt])))
            if len(stack) > MAX_CALL_DEPTH:
                raise UnsupportedModuleError(
                    f"{name} nests func.call more than {MAX_CALL_DEPTH} levels deep (@{root} -> ... -> @{nxt}); "
                    "XLA's compiler crashes on deep call chains: inline the calls (jax.jit inlines by default) "
                    "or restructure the program")
