"""``shard``: a sharding constraint on a value (``jax.lax.with_sharding_constraint`` over the graph's mesh)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...errors import GraphError
from ..value import TensorValueLike, Value
from .operands import unary_operand

if TYPE_CHECKING:
    from jax.sharding import PartitionSpec

__all__ = ["shard"]


def shard(x: TensorValueLike, spec: "PartitionSpec") -> Value:
    """``x`` laid out over the graph's mesh as ``spec`` says (``jax.lax.with_sharding_constraint``).

    It emits ``sdy.sharding_constraint``: the partitioner puts the value in that layout here and
    propagates it to its neighbours. The value is unchanged; a weakly typed one (a Python literal)
    takes its stored dtype, as a value leaving the promoted ops does. ``P.UNCONSTRAINED`` leaves a
    dimension to the partitioner, and dimensions need not divide evenly (XLA pads the last tile).

    Args:
        x: The value: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).
        spec: A ``jax.sharding.PartitionSpec`` over the axes of the graph's mesh.

    Returns:
        ``x``'s values, of its dtype and shape, constrained to the layout.

    Raises:
        GraphError: The graph has no mesh (``Graph(..., mesh=...)``), or ``spec`` does not fit
            ``x`` or the mesh.

    Example:
        >>> import jax
        >>> import numpy as np
        >>> from jax.sharding import Mesh, PartitionSpec as P
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> mesh = Mesh(np.array(jax.devices()[:1]), ("x",))
        >>> with Graph("shard", input_types=[TensorType(DType.float32, [4, 2])], mesh=mesh) as g:
        ...     g.output(ops.shard(g.inputs[0] * 2, P("x", None)))
        >>> g.compile()(np.ones((4, 2), np.float32))[0].shape
        (4, 2)
    """
    v = unary_operand(x, "shard")
    g = v.graph
    if g.layout is None:
        raise GraphError(f"shard: graph {g.name!r} has no mesh to shard over; pass "
                         f"Graph(..., mesh=jax.sharding.Mesh(...))")
    with g.context:
        attr = g.layout.sharding(spec, v.shape, "shard", boundary=False)
    op = g._add_op("sdy.sharding_constraint", [v.ir.type], [v.ir], {"sharding": attr})
    return Value(g, op.result, v.storage, v.shape, storage=v.storage)
