"""Every system's promotion graph, as plain data: the one place to read what promotes to what.

This is latticecast's counterpart of ``jax/_src/dtypes.py``'s
``_type_promotion_lattice``: the policies in this package are rules *about* these
graphs (where weak values go, what a join that does not exist means), while the
graphs themselves are written here once, as dictionaries from a type to the types
it may implicitly promote to. To see how ``int8 + uint64`` is decided under any
policy, find the two nodes below and follow the edges to their first common
upper bound (``latticecast explain int8 uint64 --policy P`` prints that path).

Weak values (Python scalars) are nodes of their own where the system puts them on
its lattice (JAX: ``i*``, ``f*``, ``c*``); the weak node of a kind is
``Weak(default dtype of that kind)``.
"""

from __future__ import annotations

from ..dtypes import DType
from ..weak import PType, Weak

__all__ = [
    "JAX_DTYPES", "jax_lattice", "JAX_STRICT_EDGES", "jax_lax_edges",
    "MAX_DTYPES", "MAX_EDGES",
    "ARRAY_API_DTYPES", "ARRAY_API_EDGES",
    "ANVIL_DTYPES", "ANVIL_EDGES",
    "NUMPY_DTYPES", "NUMPY_SAFE_CASTS", "NUMPY_TYPE_ORDER",
    "TORCH_DTYPES", "TORCH_EDGES", "TORCH_BAREBONES_UNSIGNED",
    "TF_DTYPES",
]

_D = DType

# -- JAX (jax._src.dtypes._type_promotion_lattice) ---------------------------------------------

JAX_DTYPES: tuple[DType, ...] = (
    _D.bool, _D.uint8, _D.uint16, _D.uint32, _D.uint64, _D.int8, _D.int16, _D.int32, _D.int64,
    _D.bfloat16, _D.float16, _D.float32, _D.float64, _D.complex64, _D.complex128)


def jax_lattice(*, x64: bool = True) -> dict[PType, list[PType]]:
    """``jax.numpy``'s lattice ("Option 3" of the design note, with ``u64 -> f*`` added to close it).

    Integers defer to floats of any width, ``bf16`` and ``f16`` meet at ``f32``. With
    x64 off the weak nodes are the 32-bit ones, and ``u32 . i32`` is ``i32``: JAX avoids
    the one join that would form a 64-bit type from 32-bit inputs.
    """
    i_, f_, c_ = (Weak(_D.int64), Weak(_D.float64), Weak(_D.complex128)) if x64 else \
        (Weak(_D.int32), Weak(_D.float32), Weak(_D.complex64))
    return {
        _D.bool: [i_],
        i_: [_D.uint8, _D.int8],
        _D.uint8: [_D.int16, _D.uint16],
        _D.uint16: [_D.int32, _D.uint32],
        _D.uint32: [_D.int64, _D.uint64] if x64 else [_D.int32, _D.uint64],
        _D.uint64: [f_],
        _D.int8: [_D.int16],
        _D.int16: [_D.int32],
        _D.int32: [_D.int64],
        _D.int64: [f_],
        f_: [_D.bfloat16, _D.float16, c_],
        _D.bfloat16: [_D.float32],
        _D.float16: [_D.float32],
        _D.float32: [_D.float64, _D.complex64],
        _D.float64: [_D.complex128],
        c_: [_D.complex64],
        _D.complex64: [_D.complex128],
    }


JAX_STRICT_EDGES: dict[PType, list[PType]] = {
    Weak(_D.int64): [Weak(_D.float64), *(d for d in JAX_DTYPES if d.is_integral)],
    Weak(_D.float64): [Weak(_D.complex128), *(d for d in JAX_DTYPES if d.is_float)],
    Weak(_D.complex128): [d for d in JAX_DTYPES if d.is_complex],
}
"""``jax_numpy_dtype_promotion='strict'``: weak values defer to any dtype of their kind or a
higher one (``i* -> f* -> c*``); two distinct strong dtypes never meet."""


def jax_lax_edges() -> dict[PType, list[PType]]:
    """``jax.lax``: no promotion; a Python scalar matches only its own default dtype."""
    return {Weak(_D.int64): [_D.int64], Weak(_D.float64): [_D.float64], Weak(_D.complex128): [_D.complex128]}


# -- MAX, the seed's max.graph.type_promotion ---------------------------------------------------

MAX_DTYPES: tuple[DType, ...] = (
    _D.bool, _D.int8, _D.int16, _D.int32, _D.int64, _D.uint8, _D.uint16, _D.uint32, _D.uint64,
    _D.index, _D.address, _D.float16, _D.bfloat16, _D.float32, _D.tensor_float32, _D.float64)

MAX_EDGES: dict[PType, list[PType]] = {
    _D.bool: [_D.int8, _D.uint8],
    _D.int8: [_D.int16],
    _D.int16: [_D.int32],
    _D.int32: [_D.int64],
    _D.int64: [_D.float16],
    _D.uint8: [_D.uint16, _D.int16],
    _D.uint16: [_D.uint32, _D.int32],
    _D.uint32: [_D.uint64, _D.int64],
    _D.uint64: [_D.float16],
    _D.index: [_D.uint64],
    _D.address: [_D.uint64],
    _D.float16: [_D.bfloat16],
    _D.bfloat16: [_D.float32],
    _D.float32: [_D.tensor_float32],
    _D.tensor_float32: [_D.float64],
}
"""The seed's prose: integers of any width promote to float16; ``index`` and ``address``
"promote up to uint64 regardless of architecture" and nothing promotes to them;
``float16 -> bfloat16 -> float32 -> tensor_float32 -> float64``."""

# -- the Array API proposal --------------------------------------------------------------------

ARRAY_API_DTYPES: tuple[DType, ...] = (
    _D.bool, _D.int8, _D.int16, _D.int32, _D.int64, _D.uint8, _D.uint16, _D.uint32, _D.uint64,
    _D.float16, _D.float32, _D.float64, _D.complex64, _D.complex128)

ARRAY_API_EDGES: dict[PType, list[PType]] = {
    _D.int8: [_D.int16], _D.int16: [_D.int32], _D.int32: [_D.int64],
    _D.uint8: [_D.uint16, _D.int16], _D.uint16: [_D.uint32, _D.int32],
    _D.uint32: [_D.uint64, _D.int64],
    _D.float16: [_D.float32], _D.float32: [_D.float64],
}
"""Within a kind, and signed with unsigned where a signed type holds both; nothing else."""

# -- anvil (R) ---------------------------------------------------------------------------------

ANVIL_DTYPES: tuple[DType, ...] = (
    _D.bool, _D.int8, _D.int16, _D.int32, _D.int64, _D.uint8, _D.uint16, _D.uint32, _D.uint64,
    _D.float32, _D.float64)

ANVIL_EDGES: dict[PType, list[PType]] = {
    _D.bool: [_D.int8, _D.uint8],
    _D.int8: [_D.int16], _D.int16: [_D.int32], _D.int32: [_D.int64],
    _D.uint8: [_D.uint16, _D.int16], _D.uint16: [_D.uint32, _D.int32],
    _D.uint32: [_D.uint64, _D.int64],
    _D.uint64: [_D.int64],
    _D.int64: [_D.float32],
    _D.float32: [_D.float64],
}
"""anvil's ``common_dtype`` table for known types (its ambiguous types follow a rule)."""

# -- NumPy 2 -----------------------------------------------------------------------------------

NUMPY_DTYPES: tuple[DType, ...] = (
    _D.bool, _D.uint8, _D.uint16, _D.uint32, _D.uint64, _D.int8, _D.int16, _D.int32, _D.int64,
    _D.float16, _D.float32, _D.float64, _D.complex64, _D.complex128)

NUMPY_SAFE_CASTS: dict[DType, list[DType]] = {
    _D.bool: [_D.uint8, _D.int8],
    _D.uint8: [_D.uint16, _D.int16, _D.float16],
    _D.int8: [_D.int16, _D.float16],
    _D.uint16: [_D.uint32, _D.int32, _D.float32],
    _D.int16: [_D.int32, _D.float32],
    _D.uint32: [_D.uint64, _D.int64],
    _D.int32: [_D.int64],
    _D.uint64: [_D.float64],
    _D.int64: [_D.float64],
    _D.float16: [_D.float32],
    _D.float32: [_D.float64, _D.complex64],
    _D.float64: [_D.complex128],
    _D.complex64: [_D.complex128],
}
"""The generating edges (transitively reduced) of ``np.can_cast(a, b, "safe")``. Not a
lattice: ``int8`` and ``uint8`` both reach ``int16`` and ``float16``, which are unordered;
NumPy breaks the tie with :data:`NUMPY_TYPE_ORDER`."""

NUMPY_TYPE_ORDER: tuple[DType, ...] = (
    _D.bool, _D.int8, _D.uint8, _D.int16, _D.uint16, _D.int32, _D.uint32, _D.int64, _D.uint64,
    _D.float32, _D.float64, _D.complex64, _D.complex128, _D.float16)
"""NumPy's type numbers in increasing order (``np.dtype(t).num``; ``float16`` came later, 23)."""

# -- PyTorch -----------------------------------------------------------------------------------

TORCH_DTYPES: tuple[DType, ...] = (
    _D.bool, _D.uint8, _D.uint16, _D.uint32, _D.uint64, _D.int8, _D.int16, _D.int32, _D.int64,
    _D.bfloat16, _D.float16, _D.float32, _D.float64, _D.complex64, _D.complex128)

TORCH_EDGES: dict[PType, list[PType]] = {
    _D.bool: [_D.uint8, _D.int8],
    _D.uint8: [_D.int16],
    _D.int8: [_D.int16],
    _D.int16: [_D.int32],
    _D.int32: [_D.int64],
    _D.int64: [_D.bfloat16, _D.float16],
    _D.bfloat16: [_D.float32],
    _D.float16: [_D.float32],
    _D.float32: [_D.float64, _D.complex64],
    _D.float64: [_D.complex128],
    _D.complex64: [_D.complex128],
}
"""``c10::promoteTypes`` on the classic dtypes is the join of this DAG."""

TORCH_BAREBONES_UNSIGNED: frozenset[DType] = frozenset({_D.uint16, _D.uint32, _D.uint64})
"""PyTorch's "barebones" unsigned dtypes (2.3+): they promote only with themselves and with
the real floating types."""

# -- TensorFlow --------------------------------------------------------------------------------

TF_DTYPES: tuple[DType, ...] = TORCH_DTYPES
"""TensorFlow has no graph: two distinct dtypes never promote."""
