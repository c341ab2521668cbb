"""MAX's ``constant_external`` (a weight named in the graph) and ``assert_same_device``.

``constant_external`` is MAX's lower-level spelling of a :class:`~latticecast.graph.weight.Weight`:
the value is supplied when the graph is loaded (``weights_registry``), and two calls with one name
and one type are one weight. ``assert_same_device`` is MAX's validation helper, which the ops that
take several tensors call as MAX's do (:func:`check_same_device`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

from ...promotion.dims import SymbolicDim
from ...errors import GraphError
from ...promotion.tensor_type import TensorType, as_tensor_type
from ..current import current_graph
from ..value import BufferValue, Value
from ..weight import Weight

if TYPE_CHECKING:
    from ..graph import Graph
    from .operands import WeakArray

__all__ = ["assert_same_device", "constant_external", "check_same_device"]


def constant_external(name: str, type: "TensorType | tuple[object, ...]", align: int | None = None, is_placeholder: bool = False) -> Value:
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
        {'scale': TensorType(dtype=DType.float32, shape=[Dim(3)], device=cpu:0)}
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


def _max_type(v: "Value | BufferValue | WeakArray") -> str:
    """``v``'s type as MAX prints a ``TensorType``: ``TensorType(dtype=float32, shape=[Dim(3)], device=cpu:0)``."""
    dims = ", ".join(f"Dim({d.name!r})" if isinstance(d, SymbolicDim) else f"Dim({d})" for d in v.shape)
    dtype = getattr(v, "dtype", None)
    return f"TensorType(dtype={getattr(dtype, 'name', dtype)}, shape=[{dims}], device={getattr(v, 'device', None)})"


def _device_error(named: "Mapping[str, Value | BufferValue | WeakArray]") -> GraphError:
    listed = "\n".join(f"    {k}: {_max_type(v) if hasattr(v, 'shape') else getattr(v, 'device', None)}"
                       for k, v in named.items())
    return GraphError("Input values must be on the same device\n" + listed + "\n  (latticecast: move them to one "
                      "device first, x.to(device) or ops.transfer_to(x, device))")


def check_same_device(g: "Graph", **named: "Value | WeakArray") -> None:
    """MAX's device check of an op's tensor operands, cheap where it has nothing to decide: a graph on one
    device passes at once, and a value made from constants alone (a Python scalar's) goes with the others.

    Args:
        g: The operands' graph.
        **named: The operands by the names MAX's message gives them (``lhs``, ``rhs``, ``x``, ...).

    Raises:
        GraphError: A ``ValueError`` as MAX's: the operands are on different devices.

    Example:
        >>> from latticecast import DType, DeviceRef, Graph, TensorType, ops
        >>> from latticecast.graph.ops.external import check_same_device
        >>> with Graph("g", input_types=[TensorType(DType.float32, [2]), TensorType(DType.float32, [2], "gpu")]) as g:
        ...     check_same_device(g, lhs=g.inputs[0], rhs=ops.constant(1.0, DType.float32))
        ...     check_same_device(g, lhs=g.inputs[0], rhs=g.inputs[1])
        Traceback (most recent call last):
          ...
        latticecast.errors.GraphError: Input values must be on the same device
            lhs: TensorType(dtype=float32, shape=[Dim(2)], device=cpu:0)
            rhs: TensorType(dtype=float32, shape=[Dim(2)], device=gpu:0)
          (latticecast: move them to one device first, x.to(device) or ops.transfer_to(x, device))
    """
    if len(g.devices) == 1:
        return
    seen = None
    for v in named.values():
        if not isinstance(v, Value):  # a NumPy array, weak under the policy: a constant, which goes with the others
            continue
        here = g.device_of(v.ir)
        if here is None:
            continue
        if seen is None:
            seen = here
        elif here != seen:
            raise _device_error(named)


def assert_same_device(*values: "Value | BufferValue", **named_values: "Value | BufferValue") -> None:
    """Raise when the given values are not all on one device (MAX's check).

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
        raise _device_error(named)
