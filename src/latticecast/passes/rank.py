"""How a rank-sensitive policy (PyTorch) ranks an operand read off the IR: a 0-d tensor, a dimensioned
one, or a broadcast of a 0-d tensor that no marker explains, and the readings of such a broadcast.

The ``implicit-cast`` pass (:mod:`.implicit_cast.planning`) and the inference under another policy
(:mod:`.infer_types`) both rank operands here, so that they read a program alike.
"""

from __future__ import annotations

from itertools import product

from jaxlib.mlir import ir

from ..promotion.op_rules import EXPLICIT_BROADCAST_ATTR, IMPLICIT_BROADCAST_ATTR

__all__ = ["BROADCAST_FROM_0D", "BROADCASTS", "zero_dim_flag", "zero_dim_readings"]

BROADCAST_FROM_0D = "broadcast from 0-d"
"""A 0-d flag (:func:`zero_dim_flag`): the operand is a broadcast of a 0-d tensor that no marker
explains. torch-mlir writes one for a 0-d tensor or a Python scalar that an op broadcasts (``x == z``)
and, with the same op, for an explicit ``z.expand(n)``. A rank-sensitive policy reads it as the 0-d
tensor itself, unless the op's declared result type says it was dimensioned (``h + f.expand(4)``
declares f32 where ``h + f`` declares f16); where the declared type cannot tell (a ``compare``
declares ``i1``) and the two readings promote differently, the pass says so in a remark."""

BROADCASTS = frozenset({"stablehlo.broadcast_in_dim", "stablehlo.dynamic_broadcast_in_dim"})
"""The ops that broadcast a value; from a 0-d tensor, each is read by :func:`zero_dim_flag`."""


def zero_dim_flag(value: ir.Value[ir.Type], rank: "int | None" = None) -> "bool | str":
    """How a rank-sensitive policy (PyTorch) ranks ``value``, an operand of a promoted op.

    Args:
        value: The operand.
        rank: Its rank, when the caller has read its type (a ranked tensor's); else it is read here.

    Returns:
        ``True`` for a 0-d tensor, or a broadcast of one marked ``latticecast.implicit_broadcast`` (an
        op broadcast it, as the builder marks the broadcasts its operators make); ``False`` for a
        dimensioned tensor, including a broadcast of a 0-d tensor marked ``latticecast.explicit_broadcast``
        (``expand``, the builder's ``broadcast_to``); :data:`BROADCAST_FROM_0D` for an unmarked
        broadcast of a 0-d tensor, which the planner reads.

    Example:
        >>> from jaxlib.mlir import ir
        >>> from latticecast.dialect_utils.parsing import parse_module
        >>> from latticecast.passes.rank import zero_dim_flag
        >>> m = parse_module('''func.func @f(%x: tensor<3xf32>, %z: tensor<f64>) -> tensor<3xf64> {
        ...   %b = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f64>) -> tensor<3xf64>
        ...   return %b : tensor<3xf64>
        ... }''')
        >>> block = m.body.operations[0].regions[0].blocks[0]
        >>> x, z = block.arguments
        >>> b = list(block.operations)[0].result
        >>> zero_dim_flag(x), zero_dim_flag(z), zero_dim_flag(b)
        (False, True, 'broadcast from 0-d')
    """
    if rank is None:
        t = value.type
        if t.typeid != ir.RankedTensorType.static_typeid:
            return False
        rank = ir.RankedTensorType(t).rank
    if rank == 0:
        return True
    owner = value.owner
    if isinstance(owner, ir.Block) or owner.name not in BROADCASTS:
        return False
    source = owner.operands[0].type
    if source.typeid != ir.RankedTensorType.static_typeid or ir.RankedTensorType(source).rank != 0:
        return False
    attributes = owner.attributes
    if IMPLICIT_BROADCAST_ATTR in attributes:
        return True
    return False if EXPLICIT_BROADCAST_ATTR in attributes else BROADCAST_FROM_0D


def zero_dim_readings(zero_dim: "tuple[bool | str, ...] | None") -> "list[tuple[bool, ...] | None]":
    """The ways to rank the operands, the preferred first. Each :data:`BROADCAST_FROM_0D` operand may be
    the 0-d tensor itself or a dimensioned one; the 0-d readings come first (most 0-d operands first),
    and a reading that makes every operand 0-d is left out: the op's result has the broadcast shape, so
    some operand was dimensioned."""
    if zero_dim is None:
        return [None]
    fixed = [z is True for z in zero_dim]
    unmarked = [i for i, z in enumerate(zero_dim) if z == BROADCAST_FROM_0D]
    if not unmarked:
        return [tuple(fixed)]
    readings: list[tuple[bool, ...]] = []
    for combo in product((True, False), repeat=len(unmarked)):
        reading = list(fixed)
        for i, zero in zip(unmarked, combo):
            reading[i] = zero
        if not all(reading):
            readings.append(tuple(reading))
    readings.sort(key=lambda r: -sum(r[i] for i in unmarked))  # stable: the order of product within a count
    return list(readings)
