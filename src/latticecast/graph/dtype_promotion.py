"""MAX's ``max.graph.dtype_promotion`` (re-exported as :mod:`latticecast.max.dtype_promotion`): how a "non-max object" (a Python number, a NumPy value, a DLPack array)
meets a graph value.

MAX 26.7 promotes such a weakly typed object to the dtype of the graph value it meets, after checking
that its values survive the conversion; two graph values are promoted by the op itself. These are
MAX's helpers under MAX's names (``_promote_weak_dtypes``, ``_promote_to_strong``,
``_restrict_to_strong_dtypes``, ``_DTYPE_MIN_AND_MAX_FULL_PRECISION``), built on the ``max-python``
policy (:mod:`latticecast.policies.max_python`): its literal rules decide whether a Python number is
taken, its NumPy rules whether an array is, so the ops' promotion and these functions cannot disagree.

Example:
    >>> from latticecast.max import DType, DeviceRef, Graph, dtype_promotion
    >>> with Graph("g"):
    ...     dtype_promotion._promote_to_strong(3, DType.int8, DeviceRef.CPU()).dtype
    DType.int8
"""

from __future__ import annotations


import numpy as np

from ..promotion.device_ref import DeviceRefLike
from ..promotion.dims import StaticDim, SymbolicDim
from ..promotion.dtypes import DType
from ..errors import GraphError, PromotionError
from .current import current_graph
from .ops.operands import _constant, as_value, graph_of
from .value import TensorValueLike, Value
from .weight import Weight
from ..policies import policy
from ..policies.max_python import is_sub_byte, scalar_range

__all__ = ["_DTYPE_MIN_AND_MAX_FULL_PRECISION", "_promote_to_strong", "_promote_weak_dtypes",
           "_restrict_to_strong_dtypes", "is_strong"]

_POLICY = "max-python"

_DTYPE_MIN_AND_MAX_FULL_PRECISION: dict[DType, tuple[float, float]] = {
    d: scalar_range(d) for d in policy(_POLICY).dtypes}
"""For each of MAX's dtypes, the closed range a Python (or NumPy) integer must lie in to meet it
(:func:`latticecast.policies.max_python.scalar_range`)."""

_NON_MAX_FIX = "This can be done with ops.constant."


def is_strong(value: TensorValueLike) -> bool:
    """Whether ``value`` is a "max object" (a graph value, a weight, a dimension), whose dtype is its own.

    Args:
        value: Anything an op takes.

    Returns:
        ``True`` for graph values, weights and dimensions (a ``StaticDim`` object, a ``SymbolicDim``);
        ``False`` for Python and NumPy numbers and arrays.

    Example:
        >>> from latticecast.max import StaticDim
        >>> from latticecast.max.dtype_promotion import is_strong
        >>> is_strong(3), is_strong(StaticDim(3))
        (False, True)
    """
    return type(value) is StaticDim or isinstance(value, (Value, Weight, SymbolicDim))


def _strong_value(value: TensorValueLike) -> Value:
    if type(value) is StaticDim or isinstance(value, SymbolicDim):  # a dimension is an int64 scalar
        from ..graph.ops.shape import shape_to_tensor
        return shape_to_tensor([value]).reshape(())
    return as_value(value, graph_of(value))


def _restrict_to_strong_dtypes(value: TensorValueLike) -> Value:
    """``value`` as a graph value, refusing a non-max object (MAX's check for unary ops).

    Args:
        value: A graph value or weight.

    Returns:
        The graph value.

    Raises:
        TypeError: ``value`` is a Python or NumPy number or array.

    Example:
        >>> from latticecast.max.dtype_promotion import _restrict_to_strong_dtypes
        >>> from latticecast.max import DType, DeviceRef, Graph, ops
        >>> with Graph("g"):
        ...     _restrict_to_strong_dtypes(3)
        Traceback (most recent call last):
        TypeError: Unary ops do not support non-max objects as input. ...
    """
    if is_strong(value):
        return _strong_value(value)
    raise TypeError("Unary ops do not support non-max objects as input. Non-max objects tend to overpromote the "
                    "dtype, leading to significant loss of performance. Please explicitly convert the input to a "
                    f"graph.Value. {_NON_MAX_FIX} (ops.constant(value, dtype, device))")


def _promote_weak_dtypes(x: TensorValueLike, y: TensorValueLike) -> tuple[Value, Value]:
    """Two operands as graph values: a non-max object takes the other's dtype and device.

    Args:
        x: An operand: a graph value, a weight, a Python or NumPy number, an array.
        y: The other.

    Returns:
        Both as graph values (two graph values are returned as they are: the op promotes them).

    Raises:
        TypeError: Neither is a graph value.
        ValueError: The non-max object's values do not survive the conversion (``Unsafe cast``).

    Example:
        >>> from latticecast.max.dtype_promotion import _promote_weak_dtypes
        >>> from latticecast.max import DType, DeviceRef, Graph, ops
        >>> with Graph("g"):
        ...     x = ops.constant(1, DType.int8, DeviceRef.CPU())
        ...     [v.dtype for v in _promote_weak_dtypes(x, 3)]
        [DType.int8, DType.int8]
    """
    x_strong, y_strong = is_strong(x), is_strong(y)
    if x_strong and y_strong:
        return _strong_value(x), _strong_value(y)
    if not (x_strong or y_strong):
        raise TypeError("Binary ops require at least one max object as input. Non-max objects tend to overpromote "
                        "the dtype, leading to significant loss of performance. Please explicitly convert at least "
                        f"one input to a graph.Value. {_NON_MAX_FIX} (ops.constant(value, dtype, device))")
    if x_strong:
        strong = _strong_value(x)
        return strong, _promote_to_strong(y, strong.dtype, strong.device)
    strong = _strong_value(y)
    return _promote_to_strong(x, strong.dtype, strong.device), strong


def _unsafe(problem: str, fix: str) -> Exception:
    if problem.startswith("Cannot create a constant"):  # a sub-byte dtype: MAX's TypeError
        return PromotionError(f"{problem}; {fix}", policy=_POLICY)
    return GraphError(f"Unsafe cast: {problem}; {fix}")


def _scalar_constant(value: int | float, dtype: DType) -> Value:
    with np.errstate(over="ignore", invalid="ignore"):  # MAX does not range-check a float: 1e300 is inf
        host = np.asarray(float(value) if dtype.is_float() else value, dtype=dtype.np_dtype)
    return _constant(current_graph(), host, dtype, ())


def _promote_to_strong(value: TensorValueLike, strong_dtype: DType, device: DeviceRefLike) -> Value:
    """A non-max object as a constant of ``strong_dtype`` on ``device``, checked as MAX checks it.

    A Python or NumPy integer must lie in :data:`_DTYPE_MIN_AND_MAX_FULL_PRECISION` for the dtype; a
    float needs a float dtype (its range is not checked: MAX makes ``1e300`` float16's inf); an array
    (NumPy, a driver buffer, any DLPack array) is checked by the policy's array rules and converted.
    A graph value is returned as it is.

    Args:
        value: The object: a Python or NumPy number, an array, a static dimension, or a graph value.
        strong_dtype: The dtype of the graph value it meets.
        device: That value's device (the graph's).

    Returns:
        The graph value.

    Raises:
        ValueError: The values do not survive the conversion (``Unsafe cast``).
        TypeError: ``value`` is no tensor value, or ``strong_dtype`` is narrower than a byte for a scalar.

    Example:
        >>> from latticecast.max.dtype_promotion import _promote_to_strong
        >>> from latticecast.max import DType, DeviceRef, Graph
        >>> with Graph("g"):
        ...     _promote_to_strong(2.5, DType.float16, DeviceRef.CPU()).dtype
        ...     _promote_to_strong(2049, DType.float16, DeviceRef.CPU())
        Traceback (most recent call last):
        latticecast.errors.GraphError: Unsafe cast: Can't promote python int with value (2049) to dtype(DType.float16). ...
    """
    target = DType.parse(strong_dtype)
    rules = policy(_POLICY)
    if isinstance(value, StaticDim):
        value = int(value)
    if is_strong(value):
        return _strong_value(value)
    if isinstance(value, (int, float, np.integer, np.floating)):  # a bool is an int (np.bool_ is neither)
        number: int | float = int(value) if isinstance(value, (int, np.integer)) else float(value)
        problem = rules.literals.problem(number, target)
        if problem:
            raise _unsafe(problem, "give a value the graph value's dtype holds, or make the constant explicitly: "
                                   "ops.constant(value, dtype, device) (it rounds)")
        return _scalar_constant(number, target)
    if isinstance(value, np.ndarray) or hasattr(value, "__dlpack__"):
        array = value if isinstance(value, np.ndarray) else np.from_dlpack(value)
        problem = rules.numpy_values.array_problem(array, target)
        if problem:
            raise _unsafe(f"{problem}. value={value!r}" if "external array" in problem else problem,
                          "cast the array first (array.astype(...)), or make it an explicit constant: "
                          "ops.constant(array, dtype, device)")
        g = current_graph()
        result = g.constant(np.array(array), None)
        return result if result.dtype == target else result.cast(target)
    raise TypeError(f"_promote_weak_dtypes() argument must be a TensorValueLike, not '{type(value).__name__}'; "
                    "give a graph value, a Python or NumPy number, or an array")
