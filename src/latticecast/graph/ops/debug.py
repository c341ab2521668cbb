"""MAX's ``ops.print``: print a tensor (or a string) while the graph runs, through a PJRT host callback.

The op is the host callback JAX writes for ``jax.debug.print``: a side-effecting
``stablehlo.custom_call @xla_ffi_python_cpu_callback`` (``..._gpu_callback`` on a GPU) whose
``mhlo.backend_config = {index = i}`` names the ``i``-th of the graph's
:attr:`~latticecast.Graph.host_callbacks`. :meth:`Graph.compile <latticecast.Graph.compile>` gives
those Python functions to PJRT with the module, as ``jax.jit`` gives its lowering's, so the
callback runs in this process each time the op runs: once per call, once per iteration inside a
``while_loop`` body. Such an executable holds Python functions, so it is compiled for its graph
alone (no cache), and its module text, compiled anywhere else, is refused (it names a function
only this process has).

The text is MAX's (measured with MAX 26.7 on the CPU): ``label = tensor([[4.0000, 6.0000]],
dtype=f32, shape=[2])`` for a tensor, ``[label] text`` for a string. Floats have four decimals; an
axis longer than six shows its first and last three entries.
"""

from __future__ import annotations

import builtins
import sys
from typing import TYPE_CHECKING, Callable, SupportsFloat

import numpy as np
from jaxlib.mlir import ir

from ...promotion.dtypes import DType
from ...errors import GraphError
from ..current import current_graph
from ..value import TensorValueLike
from .operands import graph_of, unary_operand

if TYPE_CHECKING:
    from ..graph import Graph

__all__ = ["print"]

_SHOWN = 6
"""An axis longer than this shows only its first and last ``_SHOWN // 2`` entries (MAX's format)."""


def print(value: "str | TensorValueLike", label: str = "debug_tensor") -> None:
    """Print ``value`` each time the graph runs this op (MAX's ``ops.print``).

    Args:
        value: A tensor of the graph (printed with its dtype and shape) or a string.
        label: The name printed before the value.

    Returns:
        None: the op has no result; the graph prints when it runs.

    Raises:
        GraphError: ``label`` is not a string, or there is no graph to print in.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> t = TensorType(DType.float32, [2])
        >>> with Graph("print_example", input_types=[t, t]) as g:
        ...     out = ops.add(*g.inputs)
        ...     ops.print(out, label="addition_output")
        ...     g.output(out)
        >>> result = g.compile()(np.array([1, 2], np.float32), np.array([3, 4], np.float32))
        addition_output = tensor([[4.0000, 6.0000]], dtype=f32, shape=[2])
    """
    if not isinstance(label, str):
        raise GraphError(f"print's label must be a string, not {type(label).__name__} {label!r}")
    if isinstance(value, str):
        text = f"[{label}] {value}"
        _emit_callback(current_graph(), [], lambda: _write(text))
        return
    v = unary_operand(value, "print")
    name, shape = max_dtype_name(v.dtype), ",".join(str(d) for d in v.shape)
    _emit_callback(graph_of(v), [v.ir],
                   lambda array: _write(f"{label} = tensor({format_tensor(array)}, dtype={name}, shape=[{shape}])"))


def _write(text: str) -> tuple[()]:
    builtins.print(text, file=sys.stdout, flush=True)
    return ()


def _emit_callback(g: "Graph", operands: list[ir.Value[ir.Type]], callback: Callable[..., tuple[object, ...]]) -> None:
    """Append a host callback to ``g`` that calls ``callback`` with ``operands`` as NumPy arrays, after
    the block's previous host callback (a ``!stablehlo.token`` threads them, as JAX's ordered effects)."""
    g.host_callbacks.append(lambda token, *arrays: (token, *callback(*arrays)))
    index = len(g.host_callbacks) - 1
    platform = "gpu" if g.device.device_type.value == "gpu" else "cpu"
    with g.context:
        token_type = ir.Type.parse("!stablehlo.token")
        g.chain()
        scalar = _layout(0)
        layouts = [scalar] + [_layout(ir.ShapedType(o.type).rank) for o in operands]
        op = g._add_op("stablehlo.custom_call", [token_type], [g.chain(), *operands], {
            "call_target_name": ir.StringAttr.get(f"xla_ffi_python_{platform}_callback"),
            "has_side_effect": ir.BoolAttr.get(True),
            "backend_config": ir.StringAttr.get(""),
            "mhlo.backend_config": ir.DictAttr.get(
                {"index": ir.IntegerAttr.get(ir.IntegerType.get_unsigned(64), index)}),
            "operand_layouts": ir.ArrayAttr.get(layouts),
            "result_layouts": ir.ArrayAttr.get([scalar])})
        g.effect_token = op.result


def _layout(rank: int) -> ir.Attribute:
    """A row-major layout (minor-to-major dimension order) as custom calls spell it: ``dense<[1, 0]> :
    tensor<2xindex>``."""
    return ir.Attribute.parse(f"dense<[{', '.join(str(d) for d in range(rank - 1, -1, -1))}]> : tensor<{rank}xindex>"
                              if rank else "dense<> : tensor<0xindex>")


def max_dtype_name(dtype: DType) -> str:
    """The dtype as MAX's print spells it: ``f32``, ``bf16``, ``si32``, ``ui8``, ``bool``.

    Args:
        dtype: A latticecast dtype.

    Returns:
        MAX's MLIR-style name (signed integers ``si``, unsigned ``ui``, floats as MLIR writes them).

    Example:
        >>> from latticecast import DType
        >>> [max_dtype_name(d) for d in (DType.float32, DType.int64, DType.uint8, DType.bool)]
        ['f32', 'si64', 'ui8', 'bool']
    """
    if dtype.is_bool:
        return "bool"
    if dtype.is_signed_integral():
        return f"si{dtype.bitwidth}"
    if dtype.is_unsigned_integral():
        return f"ui{dtype.bitwidth}"
    return dtype.mlir_name


def format_tensor(array: np.ndarray) -> str:
    """An array in MAX's print format: rows as nested brackets (a scalar or a vector is one row),
    floats with four decimals, an axis longer than six as its first and last three entries.

    Args:
        array: The values.

    Returns:
        The text between ``tensor(`` and ``, dtype=``.

    Example:
        >>> import numpy as np
        >>> format_tensor(np.arange(8, dtype=np.int32).reshape(2, 4))
        '[[0, 1, 2, 3],\\n[4, 5, 6, 7]]'
        >>> format_tensor(np.arange(7, dtype=np.float32))
        '[[0.0000, 1.0000, 2.0000, ..., 4.0000, 5.0000, 6.0000]]'
    """
    a = np.asarray(array)
    if a.ndim < 2:
        a = a.reshape(1, -1)
    return _nested(a)


def _nested(a: np.ndarray) -> str:
    half = _SHOWN // 2
    if a.ndim == 1:
        items = [_element(x) for x in (a if len(a) <= _SHOWN else [*a[:half], *a[-half:]])]
        if len(a) > _SHOWN:
            return "[" + ", ".join(items[:half]) + ", ..., " + ", ".join(items[half:]) + "]"
        return "[" + ", ".join(items) + "]"
    separator = ",\n" + "\n" * (a.ndim - 2)
    if len(a) > _SHOWN:
        return ("[" + separator.join(_nested(x) for x in a[:half]) + ",\n ..., \n\n"
                + separator.join(_nested(x) for x in a[-half:]) + "]")
    return "[" + separator.join(_nested(x) for x in a) + "]"


def _element(x: SupportsFloat) -> str:
    if isinstance(x, (bool, np.bool_)):
        return "True" if x else "False"
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    return f"{float(x):.4f}"
