"""The ``lower-dtypes`` pass: MAX's dtypes that StableHLO and PJRT lack become the dtypes that store them.

Only values that StableHLO cannot hold are lowered (those of ops that do not verify with them);
legal IR that uses ``index`` itself, as shape computations do, is never changed.

* ``index`` and ``!latticecast.address`` (unsigned word-size integers, MAX) become ``ui64``:
  MAX promotes both to uint64 "regardless of architecture", and 64 bits hold them.
* ``tf32`` (NVIDIA's TensorFloat-32: float32's exponent, a 10-bit mantissa) is computed
  in ``f32``, and every value of that type is rounded to TF32 with
  ``stablehlo.reduce_precision`` (exponent 8 bits, mantissa 10 bits) where it is
  defined, so results are those of a TF32 machine, not of float32 arithmetic.

Which dtypes lower, and to what, is :attr:`DType.stored_as` (the dtype table's fact).
``implicit-cast`` runs this pass at its end unless told ``lower-dtypes=false``; it is
also a pass of its own in a pipeline (``builtin.module(implicit-cast{lower-dtypes=false},
..., lower-dtypes)``).
"""

from __future__ import annotations

from typing import NamedTuple

from jaxlib.mlir import ir

from ..dialect_utils.constants import constant_values
from ..dialect_utils.placement import after_definition
from ..promotion.op_rules import CONSTANT_LIKE
from ..dialect_utils.types import TypeCache, static_shape, type_cache
from ..promotion.dtypes import DType
from .base import LatticecastPass, PassResult
from .options import LowerDTypesOptions

__all__ = ["LowerDTypesPass", "lower_dtypes", "refresh_function_type", "LOWERED"]

LOWERED: tuple[DType, ...] = tuple(d for d in DType if d.needs_lowering)


class LowerDTypesPass(LatticecastPass):
    argument = LowerDTypesOptions.pass_name
    description = LowerDTypesOptions.pass_description
    Options = LowerDTypesOptions
    options: LowerDTypesOptions

    def run(self, root: ir.Operation) -> PassResult:
        with root.context, ir.Location.unknown():
            lower_dtypes(root, type_cache(root.context), everywhere=self.options.everywhere)
        return PassResult()


def lower_dtypes(root: ir.Operation, tc: TypeCache, *, everywhere: bool = False) -> int:
    """Rewrite the ``index``/``address``/``tf32`` values under ``root`` that StableHLO cannot hold;
    returns how many values changed.

    A value is lowered when an op that defines or uses it does not verify with its type: the
    results of ops the policy promoted to those dtypes, the converts the pass inserted, the
    mixed-dtype ops of the input. Legal IR that already uses them (``tensor<2xindex>`` in a
    shape computation, the dimension operand of ``stablehlo.dynamic_reshape``) is left as it
    is, as every legal op is. ``everywhere`` lowers every such value: for a module latticecast
    wrote itself (a graph's, whose ``index`` inputs are MAX's dtype however they are used).
    A module without them costs one walk and is left as it is. The lowered dtypes are
    recognised by reading the element types the module uses, never by building theirs:
    a context that allows no unregistered dialect (JAX's) cannot hold
    ``!latticecast.address``, and one that can should not gain the type by running a pass.
    """
    ops: list[ir.Operation] = []
    funcs: list[ir.Operation] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        ops.append(op)
        if op.name == "func.func":
            funcs.append(op)
        return ir.WalkResult.ADVANCE

    root.walk(visit, ir.WalkOrder.PRE_ORDER)
    candidates = _values_of_lowered_types(ops, _LoweredTypes(tc))
    if not candidates:
        return 0
    chosen = candidates if everywhere else _values_that_do_not_verify(candidates)
    if not chosen:
        return 0
    lowered_values = {c.value for c in chosen}
    # converts to or from a lowered value become identities (address <-> ui64, f32 <-> tf32)
    converts = [op for op in ops if op.name == "stablehlo.convert"
                and (op.operands[0] in lowered_values or op.results[0] in lowered_values)]
    for value in _retype(chosen, tc):
        _round_to_tf32(value)
    _erase_identity_converts(converts)
    for f in funcs:
        refresh_function_type(f)
    return len(chosen)


class _LoweredTypes:
    """Which lowered dtype (``index``, ``address``, ``tf32``) a ranked tensor type holds, if any,
    read from the element types the module uses and remembered per element type."""

    def __init__(self, tc: TypeCache) -> None:
        self.tc = tc
        self.ranked = ir.RankedTensorType.static_typeid
        self.seen: dict[ir.Type, DType | None] = {}

    def of(self, t: ir.Type) -> DType | None:
        """The lowered dtype of tensor type ``t``'s elements; ``None`` for every other type."""
        if t.typeid != self.ranked:
            return None
        element = ir.RankedTensorType(t).element_type
        if element not in self.seen:
            try:
                d = self.tc.dtype_of_element(element)
            except TypeError:
                d = None
            self.seen[element] = d if d is not None and d.needs_lowering else None
        return self.seen[element]


class _Candidate(NamedTuple):
    """A value of a lowered dtype and the op that defines it (a block argument's: the block's parent op)."""

    value: ir.Value[ir.Type]
    owner: ir.Operation
    dtype: DType
    is_argument: bool


def _values_of_lowered_types(ops: list[ir.Operation], lowered: _LoweredTypes) -> list[_Candidate]:
    """Every block argument and op result of ``ops`` whose type holds a lowered dtype."""
    candidates: list[_Candidate] = []
    for op in ops:
        for region in op.regions:
            for block in region.blocks:
                for arg in block.arguments:
                    d = lowered.of(arg.type)
                    if d is not None:
                        candidates.append(_Candidate(arg, op, d, True))
        for res in op.results:
            d = lowered.of(res.type)
            if d is not None:
                candidates.append(_Candidate(res, op, d, False))
    return candidates


def _values_that_do_not_verify(candidates: list[_Candidate]) -> list[_Candidate]:
    """The candidates an op that defines or uses them does not verify with (the ops the policy
    produced, the converts the pass inserted, mixed-dtype ops), decided before anything changes;
    never those legal IR already uses (an index tensor of a shape computation, a dimension operand
    of ``stablehlo.dynamic_reshape``)."""
    verdict: dict[ir.Operation | ir.OpView, bool] = {}

    def accepts(op: ir.Operation | ir.OpView) -> bool:
        found = verdict.get(op)
        if found is None:
            if op.name in _SIGNATURE_OPS:
                found = True  # a signature follows its values (refreshed at the end)
            else:
                try:
                    found = bool(op.verify())
                except ir.MLIRError:
                    found = False
            verdict[op] = found
        return found

    return [c for c in candidates if not accepts(c.owner) or not all(accepts(use.owner) for use in c.value.uses)]


def _retype(chosen: list[_Candidate], tc: TypeCache) -> list[ir.Value[ir.Type]]:
    """Give each chosen value its storage dtype (a constant's payload too); returns the values that
    were ``tf32``, which are to be rounded."""
    tf32_values: list[ir.Value[ir.Type]] = []
    for value, owner, d, is_arg in chosen:
        if d is DType.tensor_float32:
            tf32_values.append(value)
        if not is_arg and owner.name in CONSTANT_LIKE:
            shape = static_shape(tc.tensor_info(value.type)[1])
            assert shape is not None  # a constant's type is static
            values = constant_values(owner, d, shape)
            owner.attributes["value"] = tc.dense_attr(values.astype(d.stored_as.np_dtype), d.stored_as, shape)
        value.set_type(tc.with_element(value.type, d.stored_as))
    return tf32_values


def _erase_identity_converts(converts: list[ir.Operation]) -> None:
    """Erase each convert between two types that now store alike (TF32 rounding is the
    ``reduce_precision`` placed after it, which now reads the convert's operand)."""
    for op in converts:
        if op.operands[0].type == op.results[0].type:
            op.results[0].replace_all_uses_with(op.operands[0])
            op.erase()


_SIGNATURE_OPS = frozenset({"func.func", "func.return"})


def _round_to_tf32(value: ir.Value[ir.Type]) -> None:
    owner = value.owner
    if not isinstance(owner, ir.Block) and owner.name == "stablehlo.reduce_precision":
        return
    ip, loc = after_definition(value)
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
    old = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
    try:
        terminator = ir.InsertionPoint.at_block_terminator(block).ref_operation
    except (ValueError, RuntimeError):
        terminator = None
    outputs = [v.type for v in terminator.operands] if terminator is not None and \
        terminator.name == "func.return" else list(old.results)
    func.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(inputs, outputs))
