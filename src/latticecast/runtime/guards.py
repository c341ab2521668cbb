"""What crashes XLA instead of being reported by it: refused here, before compiling, with the fix.

XLA's CPU compiler aborts or segfaults the process, rather than returning an error, on a
few inputs that StableHLO's verifier accepts. Each is refused with the op's location:

* ``func.call`` chains nested deeper than :data:`MAX_CALL_DEPTH` (XLA recurses per call and
  crashes between 150 and 200 levels), and recursive calls;
* ordering comparisons (``LT``, ``LE``, ``GT``, ``GE``) of complex numbers ("unhandled
  direction for conversion to Comparison");
* ``stablehlo.remainder`` of complex numbers (a segmentation fault);
* ``stablehlo.convert`` to a real type of a complex constant whose elements are all equal (a
  splat or a scalar, also through ``reshape``, ``transpose``, ``broadcast_in_dim``, ``slice``,
  ``reverse``, ``concatenate`` and ``select`` of such constants): a segmentation fault when XLA
  folds it. XLA converts every other complex value (a non-splat constant, a computed value, an
  argument) to its real part, and those run;
* element types the platform's compiler cannot emit (:func:`.signature.platform_problem`:
  the 6-bit floats on CPU fail with an INTERNAL error from deep inside LLVM).

One more input crashes XLA's compiler (a floating-point exception): an integer
``stablehlo.divide`` or ``stablehlo.remainder`` by a zero that XLA finds while compiling,
from constants (``256 - 256``) or from its own simplifications (``x ^ x``), which it then
folds without the check its run-time code has. That one is not refused, since XLA defines
the answer at run time (``x / 0`` is -1, all bits set; ``x % 0`` is ``x``; as ``jax.jit``
gives): :func:`shield_divisions` writes every integer division whose divisor is not a
constant free of zeros as that answer where the divisor is zero and a division by a
non-zero divisor elsewhere, so nothing XLA folds divides by zero and every result is the
one XLA gives. (An ``optimization_barrier`` on the divisor is not enough: XLA:CPU removes
barriers before it fuses and folds.) A division by a non-zero constant, the common
``x // 2``, is left as it is.

One walk of the module finds them all; it runs once per compile (a cached compile skips it).
"""

from __future__ import annotations

import re
import numpy as np
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from ..dialect_utils.diagnostics import Diagnostic
from ..promotion.dtypes import DType
from .runtime_errors import UnsupportedModuleError
from .signature import platform_problem

__all__ = ["refuse_what_crashes_xla", "shield_divisions", "MAX_CALL_DEPTH"]

MAX_CALL_DEPTH = 128
"""The deepest chain of ``func.call`` accepted. XLA's compiler recurses per nested call and
crashes the process (a segmentation fault) somewhere between 150 and 200 levels; JAX's own
modules nest a handful."""

_ORDERING = ("LT", "LE", "GT", "GE")
_COMPLEX_CRASHES = ("stablehlo.compare", "stablehlo.remainder", "stablehlo.convert")


def refuse_what_crashes_xla(module: ir.Module, name: str, platform: str = "cpu",
                            device: str = "") -> list[ir.Operation]:
    """Raise :class:`UnsupportedModuleError` for the first input XLA would crash on (see above)
    when compiling for ``platform`` (a PJRT platform name: ``cpu``, ``cuda``, ``rocm``);
    ``device`` names the device in the message. Returns the integer divisions whose divisor may be
    zero, for :func:`shield_divisions`."""
    lacking = {d.mlir_name: lack for d in DType if (lack := platform_problem(d, platform))}
    calls: dict[str, list[str]] = {}
    divisions: list[ir.Operation] = []
    for view in module.body.operations:
        op = view.operation
        if op.name != "func.func" or "sym_name" not in op.attributes:
            continue
        callees: list[str] = []
        problem: list[str] = []
        if platform == "cpu" and _CPU_ELEMENT_LIMIT is not None:
            huge = _huge_signature_tensor(op)
            if huge:
                problem.append(f"{Diagnostic.at(op.location, 'error', '').where or name}: {huge}")
        if lacking and not problem:
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
            if kind in _DIVISIONS and len(inner.operands) == 2 and _may_divide_by_zero(inner.operands[1]):
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


def _cpu_element_limit() -> int | None:
    """The element count from which XLA's CPU compiler of this jaxlib dies with SIGFPE (measured with
    jaxlib 0.12.0: an elementwise op on a tensor of 2**36 elements of any dtype crashes the process,
    2**35 compiles; jaxlib 0.10.2 compiles both), or ``None`` where no limit was measured."""
    from ..jax_internals import JAXLIB_VERSION

    return 1 << 36 if JAXLIB_VERSION >= (0, 12) else None


_CPU_ELEMENT_LIMIT = _cpu_element_limit()


def _huge_signature_tensor(func: ir.Operation) -> str | None:
    """Why XLA's CPU compiler would crash on an argument or result of ``func`` (see
    :func:`_cpu_element_limit`), or ``None``."""
    assert _CPU_ELEMENT_LIMIT is not None
    try:
        ftype = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
    except (KeyError, ValueError):
        return None
    for t in [*ftype.inputs, *ftype.results]:
        if t.typeid != ir.RankedTensorType.static_typeid:
            continue
        shaped = ir.RankedTensorType(t)
        if shaped.has_static_shape and int(np.prod(shaped.shape, dtype=object)) >= _CPU_ELEMENT_LIMIT:
            return (f"{t} has 2**{_CPU_ELEMENT_LIMIT.bit_length() - 1} or more elements, and XLA's CPU compiler "
                    f"of this jaxlib crashes the process on such a tensor (SIGFPE, measured); no CPU holds it: "
                    f"shard it over devices, or make it smaller")
    return None


def shield_divisions(divisions: list[ir.Operation]) -> None:
    """Write each of ``divisions`` (from :func:`refuse_what_crashes_xla`) as
    ``select(d == 0, answer, x op select(d == 0, 1, d))``, where ``answer`` is XLA's at run time
    (-1 for ``divide``, ``x`` for ``remainder``): the same results, and nothing XLA can fold into a
    division by zero."""
    for op in divisions:
        x, divisor = op.operands[0], op.operands[1]
        t = ir.RankedTensorType(divisor.type)
        if not t.has_static_shape:
            continue  # no constant feeds a dynamic shape's division but through a dynamic op XLA cannot fold
        element = ir.IntegerType(t.element_type)

        def splat(value: int, t: ir.RankedTensorType = t, element: ir.IntegerType = element) -> ir.Value[ir.Type]:
            attr = ir.DenseElementsAttr.get_splat(t, ir.IntegerAttr.get(element, value))
            return ir.Operation.create("stablehlo.constant", results=[t], attributes={"value": attr},
                                       ip=ir.InsertionPoint(op)).result

        with op.location:
            compare: dict[str, ir.Attribute] = {"comparison_direction": stablehlo.ComparisonDirectionAttr.get("EQ")}
            mask_type = ir.RankedTensorType.get(t.shape, ir.IntegerType.get_signless(1))
            is_zero = ir.Operation.create("stablehlo.compare", results=[mask_type], operands=[divisor, splat(0)],
                                          attributes=compare, ip=ir.InsertionPoint(op)).result
            safe = ir.Operation.create("stablehlo.select", results=[t], operands=[is_zero, splat(1), divisor],
                                       ip=ir.InsertionPoint(op)).result
            op.operands[1] = safe
            answer = splat(-1) if op.name == "stablehlo.divide" else x  # -1: every bit set, also unsigned
            result = op.results[0]
            chosen = ir.Operation.create("stablehlo.select", results=[result.type],
                                         operands=[is_zero, answer, result], ip=ir.InsertionPoint(op))
            chosen.move_after(op)
            result.replace_all_uses_except(chosen.result, chosen)


_DIVISIONS = ("stablehlo.divide", "stablehlo.remainder")


def _may_divide_by_zero(divisor: ir.Value[ir.Type]) -> bool:
    """Whether an integer ``divisor`` may be zero: anything but a constant free of zeros (a float
    division by zero is inf or NaN, never a trap)."""
    t = divisor.type
    if t.typeid != ir.RankedTensorType.static_typeid or not isinstance(ir.RankedTensorType(t).element_type,
                                                                         ir.IntegerType):
        return False
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
    return bool(ir.RankedTensorType(t).element_type.typeid == ir.ComplexType.static_typeid)


def _complex_problem(op: ir.Operation) -> str | None:
    if op.name == "stablehlo.remainder":
        return ("stablehlo.remainder of complex numbers crashes XLA's compiler; compute it from the real and "
                "imaginary parts, or on real operands")
    if op.name == "stablehlo.convert":
        if _element_name(op.results[0].type).startswith("complex") or not _splat_constant(op.operands[0]):
            return None
        return ("stablehlo.convert to a real type of a complex constant whose elements are all equal (a splat "
                "or a scalar) crashes XLA's compiler when it folds it; write what JAX writes: stablehlo.real, "
                "then convert the real part, or, for bool, stablehlo.compare NE with a complex zero")
    direction = str(op.attributes["comparison_direction"]) if "comparison_direction" in op.attributes else ""
    for d in _ORDERING:
        if f"comparison_direction {d}" in direction or direction.endswith(f" {d}>"):
            return (f"an ordering comparison ({d}) of complex numbers aborts XLA's compiler; complex numbers "
                    "have no order: compare their real parts (stablehlo.real) or magnitudes (stablehlo.abs)")
    return None


_DENSE_LITERAL = re.compile(r"dense<(.*?)>\s*:", re.S)
_SPLAT_PRESERVING = ("stablehlo.reshape", "stablehlo.transpose", "stablehlo.broadcast_in_dim",
                     "stablehlo.broadcast", "stablehlo.slice", "stablehlo.reverse")


def _splat_constant(value: ir.Value[ir.Type], depth: int = 0) -> bool:
    """Whether XLA sees ``value`` as a constant whose elements are all equal: a splat (or
    one-element) constant, or one reshaped, transposed, broadcast, sliced, reversed,
    concatenated or selected from such constants (XLA folds those first). Measured: these
    crash XLA:CPU when converted from complex to real; a non-splat constant, ``negate`` or
    ``stablehlo.complex`` of constants, and arguments do not."""
    owner = value.owner
    if isinstance(owner, ir.Block) or depth > 32:
        return False
    name = owner.name
    if name in ("stablehlo.constant", "arith.constant"):
        # read from the text: jaxlib's bindings cannot hand out a complex dense attribute
        m = _DENSE_LITERAL.search(str(owner.get_asm(print_generic_op_form=True, large_elements_limit=1)))
        if m is None:
            return False
        body = m.group(1).strip()
        if body.startswith('"0x'):  # hex: a splat holds one element's bytes
            t = ir.RankedTensorType(value.type)
            part = ir.ComplexType(t.element_type).element_type
            return (len(body) - 3 - 1) // 2 == 2 * ir.FloatType(part).width // 8
        return "[" not in body
    if name in _SPLAT_PRESERVING:
        return len(owner.operands) > 0 and _splat_constant(owner.operands[0], depth + 1)
    if name == "stablehlo.concatenate":
        return len(owner.operands) > 0 and all(_splat_constant(v, depth + 1) for v in owner.operands)
    if name == "stablehlo.select":
        return len(owner.operands) == 3 and all(_splat_constant(v, depth + 1) for v in list(owner.operands)[1:])
    return False


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
