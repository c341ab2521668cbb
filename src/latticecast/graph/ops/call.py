"""``call`` (MAX's ``ops.call``): a subgraph (:meth:`Graph.add_subgraph <latticecast.Graph.add_subgraph>`) called
with ``func.call``."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from ...errors import GraphError
from ..current import current_graph
from ..value import TensorValueLike, Value
from .operands import as_value
from .shape import format_shape

if TYPE_CHECKING:
    import latticecast

    from ..graph import _Subgraph

__all__ = ["call"]


def call(graph: "latticecast.Graph", *args: TensorValueLike, prefix: str = "") -> list[Value]:
    """Call the subgraph ``graph`` on ``args`` in the current graph (``func.call @name``).

    A subgraph that uses symbolic dimensions of the graph it was made in (its parameters are its inputs' and its
    parent's, as in MAX) takes their sizes as leading arguments: the call passes the current graph's.

    Args:
        graph: A subgraph made with ``add_subgraph`` of the current graph (or of a graph it is a subgraph of),
            with its output given.
        *args: One value per input of the subgraph, each of its input's dtype and shape.
        prefix: MAX's weight-name prefix for a subgraph's placeholder weights; a subgraph here has no weights,
            so it must be empty.

    Returns:
        The subgraph's outputs, as values of the current graph.

    Raises:
        GraphError: (a ``ValueError``) Another number of arguments, an argument of the wrong type, a
            subgraph without output or of another module, a ``prefix``, or a symbolic dimension of the
            subgraph's parent that the current graph has no size for.

    Example:
        >>> from latticecast.max import DType, Graph, TensorType, ops
        >>> t = TensorType(DType.int32, [3])
        >>> with Graph("main", input_types=[t]) as g:
        ...     with g.add_subgraph("double", input_types=[t]) as sub:
        ...         sub.output(sub.inputs[0] * 2)
        ...     ops.call(sub, g.inputs[0])[0].type == t
        True
    """
    g = current_graph()
    g.check_open()

    root = getattr(graph, "root", None)  # a subgraph has its root graph (Graph.add_subgraph)
    if root is None or root is not getattr(g, "root", g):
        raise GraphError(f"call: {graph!r} is not a subgraph of this graph's module; make it with "
                         f"g.add_subgraph(name, input_types=[...])")
    if prefix:
        raise GraphError(f"call: prefix={prefix!r} renames a subgraph's placeholder weights in MAX; a subgraph here "
                         "has no weights (pass them as arguments), so leave prefix out")
    types = graph.input_types
    if len(args) != len(types):
        raise GraphError(f"Expected {len(types)} args to call to {graph.name}, got {len(args)}; give one value per "
                         f"input of {graph.name}({', '.join(str(t) for t in types)})")
    values = [as_value(a, g, materialize=True) for a in args]
    for i, (v, t) in enumerate(zip(values, types)):
        if v.dtype != t.dtype or tuple(v.shape) != tuple(t.shape):
            raise GraphError(f"Subgraph {graph.name} has wrong type for argument {i} (function type: "
                             f"{t.dtype.name}{format_shape(t.shape)}, operand type: {v.dtype.name}"
                             f"{format_shape(v.shape)}); cast or reshape the argument first")
    outputs = graph.output_types
    sub = cast("_Subgraph", graph)  # a graph with this module's root is one of its subgraphs
    missing = [d for d in sub.dimension_arguments if not g.knows_dim(d)]
    if missing:
        raise GraphError(f"call: subgraph {graph.name} uses the symbolic dimension {str(missing[0])!r} of the graph it "
                         f"was made in ({sub.parent.name!r}), and graph {g.name!r} has no size for it; call it "
                         f"from a graph that has {str(missing[0])!r} (an input's dimension, or rebind to it)")
    sizes = [g.dim_value(d) for d in sub.dimension_arguments]  # the caller's: the function's leading arguments
    with g.context:
        from jaxlib.mlir import ir
        op = g._add_op("func.call", [g.tc.tensor(t.dtype, t.shape) for t in outputs], [*sizes, *(v.ir for v in values)],
                       {"callee": ir.FlatSymbolRefAttr.get(graph.name)})
    return [Value(g, r, t.dtype, tuple(t.shape)) for r, t in zip(op.results, outputs)]
