"""MAX's ``constant_external`` (a weight named in the graph) and ``assert_same_device``.

``constant_external`` is MAX's lower-level spelling of a :class:`~latticecast.graph.weight.Weight`:
the value is supplied when the graph is loaded (``weights_registry``), and two calls with one name
and one type are one weight. ``assert_same_device`` is MAX's validation helper; a latticecast graph
compiles for one device, so it only fails for values of different graphs' devices.
"""

from __future__ import annotations

from typing import Any

from ...errors import GraphError
from ...tensor_type import as_tensor_type
from ..current import current_graph
from ..value import Value
from ..weight import Weight

__all__ = ["assert_same_device", "constant_external"]


def constant_external(name: str, type: Any, align: int | None = None, is_placeholder: bool = False) -> Value:
    """A weight of the current graph named ``name``, of ``type``, whose value the engine supplies at load time.

    Two calls with the same name and type give the same value, as in MAX; the same name with
    another type is an error.

    Args:
        name: The weight's name (its key in ``weights_registry``).
        type: Its :class:`~latticecast.TensorType` (MAX's is accepted too).
        align: A byte alignment, kept with nothing to decide (as :class:`Weight`'s).
        is_placeholder: MAX resolves a placeholder's name at ``ops.call`` time; latticecast has no
            subgraph calls, so ``True`` is refused.

    Returns:
        The weight's value in the current graph.

    Raises:
        GraphError: ``is_placeholder`` is set, or the name is taken by a weight of another type.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("g") as g:
        ...     w = ops.constant_external("scale", TensorType(DType.float32, [3]))
        ...     g.output(w * 2)
        >>> g.weights
        {'scale': TensorType(dtype=DType.float32, shape=(3,), device=cpu:0)}
    """
    if is_placeholder:
        raise GraphError(f"constant_external({name!r}, ..., is_placeholder=True): a placeholder is named at "
                         "ops.call time, and latticecast has no subgraph calls; give the weight its full name")
    t = as_tensor_type(type)
    g = current_graph()
    existing = g.weight_named(name)
    if existing is not None:
        if (existing.type.dtype, tuple(existing.type.shape)) != (t.dtype, tuple(t.shape)):
            raise GraphError(f"constant_external({name!r}): the graph has a weight {name!r} of {existing.type} "
                             f"already; a second of {t} cannot share its name: rename one")
        return g.add_weight(existing)
    return g.add_weight(Weight(name, t.dtype, list(t.shape), device=t.device, align=align))


def assert_same_device(*values: Any, **named_values: Any) -> None:
    """Raise when the given values are not all on one device (MAX's check; a graph here has one).

    Args:
        *values: Graph values.
        **named_values: Graph values, named in the message.

    Raises:
        GraphError: A ``ValueError`` as MAX's, listing each value's device.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("g", input_types=[TensorType(DType.float32, [2])] * 2) as g:
        ...     ops.assert_same_device(*g.inputs)
        ...     g.output(g.inputs[0])
    """
    named = {**{str(i): v for i, v in enumerate(values)}, **named_values}
    devices = {str(getattr(v, "device", None)) for v in named.values()}
    if len(devices) > 1:
        listed = "\n".join(f"    {k}: {getattr(v, 'device', None)}" for k, v in named.items())
        raise GraphError("Input values must be on the same device\n" + listed)
