"""The converts torch-mlir wrote for PyTorch's promotion, found and removed from its StableHLO.

torch-mlir lowers every mixed-dtype op with the converts that make its operands agree, so what it
writes is legal StableHLO that ``implicit-cast`` leaves as it is. To put the pass to work on real
torch-mlir output, :func:`strip_promotion_converts` removes those converts again (the Python scalars
they converted, one-element constants, are marked ``latticecast.weak`` as the builder marks them);
``implicit-cast{policy=torch}`` must then put back what PyTorch does. ``tests/test_torch_mlir.py``
runs it on the corpus and ``tools/torch_mlir_e2e.py`` on torch-mlir's own e2e suite.

What was a promotion is read from PyTorch eager (``tools/torch_mlir_corpus.py``'s ``Oracle``): a
convert is removed when its every use is a promoted operand (through ``reshape`` and
``broadcast_in_dim``), it is not a module's weight, it does not narrow a dimensioned tensor (a bf16
``Linear`` computed in f32 and cast back is torch-mlir's lowering, not a promotion), and either

- it converts to a dtype PyTorch's promotion produced (``oracle``: the ``torch.result_type`` of the
  program's mixed ops), or
- it feeds comparisons only, and PyTorch compared its source dtype with the other operand's
  (``compare_pairs``, the other operand seen through data movement and converts): torch-mlir
  compares a dimensioned tensor and a 0-d one of another dtype in the wider of the two, where
  PyTorch compares in the dimensioned tensor's, so the convert torch-mlir wrote converts to a dtype
  PyTorch never used; or
- (``zero_d_compares``) it feeds comparisons of a 0-d value with a dimensioned one only
  (:func:`zero_d_compare_sites`), on either side: torch-mlir's decompositions compare with an op's
  scalar arguments too (``hardtanh``'s bounds), which eager does not show.

A program that converts dtypes itself (``x.to(...)``) should be given neither ``compare_pairs`` nor
``zero_d_compares``: the IR does not tell its converts from torch-mlir's.
"""

from __future__ import annotations

from typing import Any, Iterable

import numpy as np
from jaxlib.mlir import ir

from latticecast import DType
from latticecast.dialect_utils.types import type_cache
from latticecast.promotion.op_rules import CONSTANT_LIKE, STABLEHLO, WEAK_ATTR

__all__ = ["strip_promotion_converts", "zero_d_compare_sites", "MOVES"]

MOVES = frozenset({"stablehlo.reshape", "stablehlo.broadcast_in_dim"})
"""The data movement torch-mlir puts between a value and the op that promotes it."""


def _uses(value: ir.Value) -> "list[tuple[ir.Operation, int]] | None":
    """The promoted operands ``value`` reaches through data movement, as (op, operand number); ``None``
    when some use is anything else (or there is none)."""
    uses = list(value.uses)
    if not uses:
        return None
    out: list[tuple[ir.Operation, int]] = []
    for use in uses:
        owner = use.owner.operation
        rule = STABLEHLO.get(owner.name)
        if rule is not None and not rule.mixed_is_legal:
            if rule.operands is not None and use.operand_number not in rule.operands:
                return None
            out.append((owner, use.operand_number))
            continue
        if owner.name not in MOVES:
            return None
        further = _uses(owner.results[0])
        if further is None:
            return None
        out.extend(further)
    return out


def _retype_moves(value: ir.Value, dtype: DType, tc: Any) -> None:
    for use in list(value.uses):
        owner = use.owner.operation
        if owner.name in MOVES:
            result = owner.results[0]
            result.set_type(tc.with_element(result.type, dtype))
            _retype_moves(result, dtype, tc)


def _through_moves(value: ir.Value, converts: bool = False) -> ir.Value:
    """``value`` seen back through data movement (and, if ``converts``, through converts)."""
    while True:
        owner = value.owner
        if isinstance(owner, ir.Block):
            return value
        op = owner.operation
        if op.name in MOVES or (converts and op.name == "stablehlo.convert"):
            value = op.operands[0]
            continue
        return value


def _constant(value: ir.Value) -> "ir.Operation | None":
    """The constant-like op that defines ``value``, seen through data movement."""
    owner = _through_moves(value).owner
    if isinstance(owner, ir.Block):
        return None
    return owner.operation if owner.operation.name in CONSTANT_LIKE else None


def _elements(op: ir.Operation) -> int:
    return int(np.prod(ir.RankedTensorType(op.results[0].type).shape))


def _zero_d(value: ir.Value) -> bool:
    """A 0-d value, or one reshaped from a one-element constant (a Python scalar)."""
    if ir.RankedTensorType(value.type).rank == 0:
        return True
    constant = _constant(value)
    return constant is not None and _elements(constant) == 1


def _narrows(source: DType, target: DType) -> bool:
    """PyTorch's promotion never converts a dimensioned tensor to a narrower type of its own
    category, nor a float to an integer: such a convert is torch-mlir's lowering (a bf16 ``Linear``
    computed in f32 and cast back), not a promotion."""
    if source.is_inexact and not target.is_inexact:
        return True
    return source.is_inexact == target.is_inexact and target.bitwidth < source.bitwidth


def _source(value: ir.Value) -> tuple[ir.Value, bool]:
    """Where ``value`` comes from, seen back through data movement and converts, and whether that is a 0-d
    value: a rank-0 tensor, or a one-element constant (a Python scalar, ``tensor<1xf64>`` reshaped)."""
    source = _through_moves(value, converts=True)
    if ir.RankedTensorType(source.type).rank == 0:
        return source, True
    constant = _constant(source)
    return source, constant is not None and _elements(constant) == 1


def zero_d_compare_sites(module: ir.Module) -> list[dict[str, Any]]:
    """The comparisons against a 0-d value in ``module``: each ``stablehlo.compare`` with a dimensioned
    result one of whose operands comes (through data movement and converts) from a 0-d value and the
    other not. Each site: ``kind`` (``constant``: a Python scalar or constant torch-mlir wrote;
    ``tensor``: a 0-d tensor the program computes or takes), the source dtypes (the 0-d value's first),
    whether they differ, and whether the operands' dtypes differ at the op (``to_decide``: what
    ``implicit-cast`` decides)."""
    tc = type_cache(module.context)
    sites: list[dict[str, Any]] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        if op.name == "stablehlo.compare" and len(op.operands) == 2 and \
                ir.RankedTensorType(op.results[0].type).rank > 0:
            (a, a_zero), (b, b_zero) = _source(op.operands[0]), _source(op.operands[1])
            if a_zero != b_zero:
                zero, other = (a, b) if a_zero else (b, a)
                dtypes = [tc.tensor_info(zero.type)[0].name, tc.tensor_info(other.type)[0].name]
                kind = "constant" if _constant(zero) is not None else "tensor"
                at_op = [tc.tensor_info(v.type)[0] for v in op.operands]
                sites.append({"kind": kind, "dtypes": dtypes, "mixed": dtypes[0] != dtypes[1],
                              "to_decide": at_op[0] is not at_op[1]})
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return sites


def _against_zero_d(uses: list[tuple[ir.Operation, int]]) -> bool:
    """Every use is an operand of a comparison of a 0-d value with a dimensioned one."""
    for op, number in uses:
        if op.name != "stablehlo.compare" or len(op.operands) != 2:
            return False
        if _source(op.operands[number])[1] == _source(op.operands[1 - number])[1]:
            return False
    return True


def _compared_as(uses: list[tuple[ir.Operation, int]], source: DType, pairs: "set[frozenset[DType]]",
                 tc: Any) -> bool:
    """Every use is a comparison operand, and PyTorch compared ``source`` with the other operand's dtype."""
    for op, number in uses:
        if op.name != "stablehlo.compare" or len(op.operands) != 2:
            return False
        other = _through_moves(op.operands[1 - number], converts=True)
        if frozenset((source, tc.tensor_info(other.type)[0])) not in pairs:
            return False
    return True


def strip_promotion_converts(module: ir.Module, oracle: Iterable[DType],
                             compare_pairs: Iterable[Iterable[DType]] = (),
                             zero_d_compares: bool = False, mark_weak: bool = True) -> tuple[int, int]:
    """Remove the converts PyTorch's promotion made in ``module`` (see the module's docstring).

    Args:
        module: torch-mlir's StableHLO, changed in place.
        oracle: The dtypes PyTorch's promotion produced (``torch.result_type`` of the mixed ops).
        compare_pairs: The pairs of dtypes PyTorch compared (a Python float as float64, an int as int64).
        zero_d_compares: Also remove every convert that only makes the operands of comparisons of a 0-d
            value with a dimensioned one agree (:func:`zero_d_compare_sites`), on either side: the ones
            torch-mlir's decompositions write too (``hardtanh``'s bounds), which eager does not show.
        mark_weak: Mark the one-element constants whose convert is removed ``latticecast.weak`` (Python
            scalars, as PyTorch has them); ``False`` leaves them strong, 0-d values of their own dtype.

    Returns:
        (converts removed, constants marked weak).
    """
    tc = type_cache(module.context)
    produced = frozenset(oracle)
    pairs = {frozenset(p) for p in compare_pairs}
    converts: list[ir.Operation] = []
    noops: list[ir.Operation] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        if op.name == "stablehlo.convert":
            source = tc.tensor_info(op.operands[0].type)[0]
            target = tc.tensor_info(op.results[0].type)[0]
            constant = _constant(op.operands[0])
            if source is target:
                if constant is not None:
                    noops.append(op)
                return ir.WalkResult.ADVANCE
            uses = _uses(op.results[0])
            if (uses is not None and (constant is None or _elements(constant) == 1)
                    and (_zero_d(op.operands[0]) or not _narrows(source, target))
                    and (target in produced or _compared_as(uses, source, pairs, tc)
                         or (zero_d_compares and _against_zero_d(uses)))):
                converts.append(op)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    for op in noops:
        op.results[0].replace_all_uses_with(op.operands[0])
        op.erase()
    marked = 0
    with module.context:
        for op in converts:
            source_value = op.operands[0]
            source = tc.tensor_info(source_value.type)[0]
            constant = _constant(source_value)
            if mark_weak and constant is not None and WEAK_ATTR not in constant.attributes:
                constant.attributes[WEAK_ATTR] = ir.UnitAttr.get()
                marked += 1
            result = op.results[0]
            _retype_moves(result, source, tc)
            result.replace_all_uses_with(source_value)
            op.erase()
    return len(converts), marked
