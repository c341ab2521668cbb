"""Lower MAX's dtypes that StableHLO (and PJRT) do not have to the types that store them.

* ``index`` and ``!latticecast.address`` (unsigned word-size integers, MAX) become ``ui64``:
  MAX promotes both to uint64 "regardless of architecture", and 64 bits hold them.
* ``tf32`` (NVIDIA's TensorFloat-32: float32's exponent, a 10-bit mantissa) is computed
  in ``f32``, and every value of that type is rounded to TF32 with
  ``stablehlo.reduce_precision`` (exponent 8 bits, mantissa 10 bits) where it is
  defined, so results are those of a TF32 machine, not of float32 arithmetic.

``implicit-cast`` runs this at its end (option ``lower-dtypes``, on by default),
so its output is plain StableHLO that verifies and runs.
"""

from __future__ import annotations

from jaxlib.mlir import ir

from ..dtypes import DType
from ..dialect_utils.constants import constant_values
from ..dialect_utils.types import TypeCache

__all__ = ["lower_dtypes", "refresh_function_type", "HOST_TYPES"]

HOST_TYPES = {DType.index: DType.uint64, DType.address: DType.uint64, DType.tensor_float32: DType.float32}


def lower_dtypes(root: ir.Operation, tc: TypeCache) -> int:
    """Rewrite every index/address/tf32 type under ``root``; returns how many values changed."""
    lowered = {tc.element[d]: d for d in HOST_TYPES}
    changed = 0
    tf32_values: list[ir.Value] = []
    funcs: list[ir.Operation] = []
    ops: list[ir.Operation] = []

    def new_type(t: ir.Type) -> ir.Type | None:
        if t.typeid != ir.RankedTensorType.static_typeid:
            return None
        rt = ir.RankedTensorType(t)
        d = lowered.get(rt.element_type)
        if d is None:
            return None
        return tc.tensor(HOST_TYPES[d], rt.shape)

    def visit(op: ir.Operation) -> ir.WalkResult:
        ops.append(op)
        return ir.WalkResult.ADVANCE

    root.walk(visit, ir.WalkOrder.PRE_ORDER)
    # converts to or from a lowered type become identities (address <-> ui64, f32 <-> tf32)
    converts = [op for op in ops if op.name == "stablehlo.convert"
                and (new_type(op.operands[0].type) is not None or new_type(op.results[0].type) is not None)]
    with root.context, ir.Location.unknown():
        for op in ops:
            if op.name == "func.func":
                funcs.append(op)
            for region in op.regions:
                for block in region.blocks:
                    for arg in block.arguments:
                        t = new_type(arg.type)
                        if t is not None:
                            if _is_tf32(arg.type, tc):
                                tf32_values.append(arg)
                            arg.set_type(t)
                            changed += 1
            for res in op.results:
                t = new_type(res.type)
                if t is None:
                    continue
                if _is_tf32(res.type, tc):
                    tf32_values.append(res)
                if op.name == "stablehlo.constant":
                    d, shape = tc.tensor_info(res.type)
                    values = constant_values(op, d, shape)
                    op.attributes["value"] = tc.dense_attr(values.astype(HOST_TYPES[d].np_dtype),
                                                           HOST_TYPES[d], shape)
                res.set_type(t)
                changed += 1
        for value in tf32_values:
            _round_to_tf32(value, tc)
        for op in converts:
            # a convert between two types that now store alike is a no-op (TF32 rounding is the
            # reduce_precision placed after it, which now reads the convert's operand)
            if op.operands[0].type == op.results[0].type:
                op.results[0].replace_all_uses_with(op.operands[0])
                op.erase()
        for f in funcs:
            refresh_function_type(f)
    return changed


def _is_tf32(t: ir.Type, tc: TypeCache) -> bool:
    return ir.RankedTensorType(t).element_type == tc.element[DType.tensor_float32]


def _round_to_tf32(value: ir.Value, tc: TypeCache) -> None:
    owner = value.owner
    if isinstance(owner, ir.Block):
        ops = owner.operations
        ip = ir.InsertionPoint(ops[0]) if len(ops) else ir.InsertionPoint(owner)
        loc = value.location
    else:
        if owner.name == "stablehlo.reduce_precision":
            return
        ip = ir.InsertionPoint.after(owner)
        loc = owner.location
    i32 = ir.IntegerType.get_signless(32)
    rounded = ir.Operation.create(
        "stablehlo.reduce_precision", results=[value.type], operands=[value],
        attributes={"exponent_bits": ir.IntegerAttr.get(i32, 8), "mantissa_bits": ir.IntegerAttr.get(i32, 10)},
        loc=loc, ip=ip)
    value.replace_all_uses_except(rounded.result, rounded)


def refresh_function_type(func: ir.Operation) -> None:
    """Make a function's signature match its block arguments and its ``func.return`` again."""
    if not func.regions or not func.regions[0].blocks:
        return
    block = func.regions[0].blocks[0]
    inputs = [a.type for a in block.arguments]
    ops = block.operations
    terminator = ops[len(ops) - 1] if len(ops) else None
    old = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
    outputs = [v.type for v in terminator.operands] if terminator is not None and \
        terminator.name == "func.return" else list(old.results)
    func.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(inputs, outputs))
