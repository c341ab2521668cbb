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

from ..promotion.dtypes import DType
from ..promotion.weak import PType, Weak

__all__ = [
    "JAX_DTYPES", "JAX_LOW_FLOATS", "JAX_NARROW_INTS", "JAX_NO_INEXACT", "jax_lattice", "JAX_STRICT_EDGES",
    "jax_lax_edges",
    "MAX_DTYPES", "MAX_EDGES", "MAX_PYTHON_DTYPES",
    "ARRAY_API_DTYPES", "ARRAY_API_EDGES", "ARRAY_API_PROPOSAL_DTYPES", "ARRAY_API_PROPOSAL_EDGES",
    "ANVIL_DTYPES", "ANVIL_EDGES",
    "NUMPY_DTYPES", "NUMPY_SAFE_CASTS", "NUMPY_TYPE_ORDER", "NUMPY_ML_DTYPES", "NUMPY_ML_FLOAT_SAFE_TO",
    "NUMPY_ML_FLOAT_SAFE_FROM", "NUMPY_ML_INT_SAFE_TO", "NUMPY_ML_MISSING_CASTS",
    "TORCH_DTYPES", "TORCH_EDGES", "TORCH_BAREBONES_UNSIGNED", "TORCH_FLOAT8", "TORCH_BITS_SIGNED",
    "TORCH_BITS_UNSIGNED",
    "TF_DTYPES", "TF_STORAGE_ONLY",
]

_D = DType

# -- JAX (jax._src.dtypes._type_promotion_lattice) ---------------------------------------------

JAX_LOW_FLOATS: tuple[DType, ...] = (
    _D.float4_e2m1fn, _D.float6_e2m3fn, _D.float6_e3m2fn, _D.float8_e3m4, _D.float8_e4m3, _D.float8_e8m0fnu,
    _D.float8_e4m3b11fnuz, _D.float8_e4m3fn, _D.float8_e4m3fnuz, _D.float8_e5m2, _D.float8_e5m2fnuz)
"""JAX's floats narrower than 16 bits (``jax._src.dtypes._float_types`` before ``bfloat16``)."""

JAX_NARROW_INTS: tuple[DType, ...] = (_D.uint1, _D.uint2, _D.uint4, _D.int1, _D.int2, _D.int4)
"""JAX's integers narrower than 8 bits (ml_dtypes' ``int1``/``int2``/``int4`` and unsigned)."""

JAX_DTYPES: tuple[DType, ...] = (
    _D.bool, _D.uint8, _D.uint16, _D.uint32, _D.uint64, _D.int8, _D.int16, _D.int32, _D.int64,
    _D.bfloat16, _D.float16, _D.float32, _D.float64, _D.complex64, _D.complex128,
    *JAX_NARROW_INTS, *JAX_LOW_FLOATS)


def jax_lattice(*, x64: bool = True) -> dict[PType, list[PType]]:
    """``jax.numpy``'s lattice ("Option 3" of the design note, with ``u64 -> f*`` added to close it).

    Integers defer to floats of any width, ``bf16`` and ``f16`` meet at ``f32``. With
    x64 off the weak nodes are the 32-bit ones, and ``u32 . i32`` is ``i32``: JAX avoids
    the one join that would form a 64-bit type from 32-bit inputs.

    The low-precision types hang below the weak nodes as sinks, as in JAX 0.10's
    ``_type_promotion_lattice``: ``i* -> int4`` and ``f* -> float8_e4m3fn``, with no edge
    out of them. So a Python scalar takes their type, ``bool`` and every integer promote
    to any of the floats (``int64 . float8_e4m3fn = float8_e4m3fn``, through ``f*``), and
    nothing else meets them: ``float8_e4m3fn . float16`` and ``int4 . int8`` have no
    upper bound (JAX: "8-bit floats do not support implicit promotion").
    """
    i_, f_, c_ = (Weak(_D.int64), Weak(_D.float64), Weak(_D.complex128)) if x64 else \
        (Weak(_D.int32), Weak(_D.float32), Weak(_D.complex64))
    return {
        _D.bool: [i_],
        i_: [_D.uint8, _D.int8, *JAX_NARROW_INTS],
        _D.uint8: [_D.int16, _D.uint16],
        _D.uint16: [_D.int32, _D.uint32],
        _D.uint32: [_D.int64, _D.uint64] if x64 else [_D.int32, _D.uint64],
        _D.uint64: [f_],
        _D.int8: [_D.int16],
        _D.int16: [_D.int32],
        _D.int32: [_D.int64],
        _D.int64: [f_],
        f_: [*JAX_LOW_FLOATS, _D.bfloat16, _D.float16, c_],
        _D.bfloat16: [_D.float32],
        _D.float16: [_D.float32],
        _D.float32: [_D.float64, _D.complex64],
        _D.float64: [_D.complex128],
        c_: [_D.complex64],
        _D.complex64: [_D.complex128],
    }


JAX_NO_INEXACT: frozenset[DType] = frozenset({_D.int1, _D.uint1, _D.int2, _D.uint2})
"""Integers missing from ``jax._src.dtypes._dtype_to_inexact`` (JAX 0.10.2): ``jnp.true_divide``
leaves them as they are and divides as integers (``int2 / int2`` is ``int2``), where every other
integer divides in float32 (float64 for 64-bit ones with x64 on; int4 too is float32)."""


JAX_STRICT_EDGES: dict[PType, list[PType]] = {
    Weak(_D.int64): [Weak(_D.float64), *(d for d in JAX_DTYPES if d.is_integral())],
    Weak(_D.float64): [Weak(_D.complex128), *(d for d in JAX_DTYPES if d.is_float())],
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

# -- MAX 26.7, the Python max.graph (not a lattice: the rules are in policies/max_python.py) ----------

MAX_PYTHON_DTYPES: tuple[DType, ...] = (
    _D.bool, _D.int8, _D.int16, _D.int32, _D.int64, _D.uint8, _D.uint16, _D.uint32, _D.uint64,
    _D.float16, _D.float32, _D.float64, _D.bfloat16, _D.float4_e2m1fn, _D.float6_e2m3fn, _D.float6_e3m2fn,
    _D.float8_e8m0fnu, _D.float8_e4m3fn, _D.float8_e4m3fnuz, _D.float8_e5m2, _D.float8_e5m2fnuz)
"""Every member of MAX 26.7's ``max.dtype.DType``, in its order; ``TensorType`` accepts each one
(measured: ``tools/measure_max_python.py``). No complex, sub-byte integer, ``index`` or ``address``
dtypes: the seed's ``index``/``address`` are gone from the Python API."""

# -- the Array API: the standard as published (2024.12), and the seed's proposal ------------------

ARRAY_API_DTYPES: tuple[DType, ...] = (
    _D.bool, _D.int8, _D.int16, _D.int32, _D.int64, _D.uint8, _D.uint16, _D.uint32, _D.uint64,
    _D.float32, _D.float64, _D.complex64, _D.complex128)
"""The standard's 13 dtypes (2024.12, "Data Types"): no float16 (the proposal had one) and no bfloat16."""

ARRAY_API_EDGES: dict[PType, list[PType]] = {
    _D.int8: [_D.int16], _D.int16: [_D.int32], _D.int32: [_D.int64],
    _D.uint8: [_D.uint16, _D.int16], _D.uint16: [_D.uint32, _D.int32],
    _D.uint32: [_D.uint64, _D.int64],
    _D.float32: [_D.float64, _D.complex64], _D.float64: [_D.complex128],
    _D.complex64: [_D.complex128],
}
"""The standard's promotion lattice (2024.12, "Type Promotion Rules"): within a kind, signed with
unsigned where a signed type holds both, and a real float with a complex type (``f4 . c8 = c8``,
``f8 . c8 = c16``); nothing between booleans, integers and floats, and no ``uint64`` with a signed type."""

ARRAY_API_PROPOSAL_DTYPES: tuple[DType, ...] = (
    _D.bool, _D.int8, _D.int16, _D.int32, _D.int64, _D.uint8, _D.uint16, _D.uint32, _D.uint64,
    _D.float16, _D.float32, _D.float64, _D.complex64, _D.complex128)

ARRAY_API_PROPOSAL_EDGES: dict[PType, list[PType]] = {
    _D.int8: [_D.int16], _D.int16: [_D.int32], _D.int32: [_D.int64],
    _D.uint8: [_D.uint16, _D.int16], _D.uint16: [_D.uint32, _D.int32],
    _D.uint32: [_D.uint64, _D.int64],
    _D.float16: [_D.float32], _D.float32: [_D.float64],
}
"""The seed's proposal (it predates complex dtypes): within a kind, and signed with unsigned where a
signed type holds both; nothing else."""

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

# -- ml_dtypes' types registered with NumPy ---------------------------------------------------

NUMPY_ML_DTYPES: tuple[DType, ...] = (
    _D.bfloat16, _D.float8_e3m4, _D.float8_e4m3, _D.float8_e4m3b11fnuz, _D.float8_e4m3fn, _D.float8_e4m3fnuz,
    _D.float8_e5m2, _D.float8_e5m2fnuz, _D.float6_e2m3fn, _D.float6_e3m2fn, _D.float4_e2m1fn, _D.float8_e8m0fnu,
    _D.int1, _D.uint1, _D.int2, _D.uint2, _D.int4, _D.uint4)
"""ml_dtypes' types in the order ml_dtypes 0.6 registers them with NumPy (type numbers 256 on). The
order decides promotion where two of them cast safely to each other: NumPy asks the one registered
later, which answers with the one registered first (``float8_e4m3fn . float8_e4m3 = float8_e4m3``)."""

NUMPY_ML_FLOAT_SAFE_TO: tuple[DType, ...] = (_D.float32, _D.float64, _D.complex64, _D.complex128)
NUMPY_ML_FLOAT_SAFE_FROM: tuple[DType, ...] = (_D.bool, _D.uint8, _D.int8)
"""The safe casts ml_dtypes registers for each of its floats (``RegisterCanCast``): a custom float
casts safely to float32 and wider, and bool, uint8 and int8 cast safely to it."""

NUMPY_ML_INT_SAFE_TO: dict[bool, tuple[DType, ...]] = {
    True: (_D.int8, _D.int16, _D.int32, _D.int64, _D.float16, _D.float32, _D.float64, _D.complex64,
           _D.complex128),
    False: (_D.uint8, _D.uint16, _D.uint32, _D.uint64, _D.int8, _D.int16, _D.int32, _D.int64, _D.float16,
            _D.float32, _D.float64, _D.complex64, _D.complex128),
}
"""The safe casts ml_dtypes registers for its narrow integers, signed (``True``) and unsigned: to every
NumPy integer that holds them, and to every float and complex type; only bool casts safely to them."""

NUMPY_ML_MISSING_CASTS: frozenset[frozenset[DType]] = frozenset({
    frozenset({_D.int4, _D.float6_e2m3fn}), frozenset({_D.uint4, _D.float6_e2m3fn})})
"""Pairs of ml_dtypes types that ml_dtypes 0.6 registers no cast function for, beyond its two rules
(``float8_e8m0fnu`` casts only to and from bfloat16 among them; narrow integers cast only to wider
ones of the same signedness)."""

# -- PyTorch -----------------------------------------------------------------------------------

TORCH_FLOAT8: tuple[DType, ...] = (
    _D.float8_e4m3fn, _D.float8_e5m2, _D.float8_e4m3fnuz, _D.float8_e5m2fnuz, _D.float8_e8m0fnu)
"""PyTorch's float8 dtypes (2.13): ``promoteTypes`` refuses every pair of distinct dtypes involving one
("Promotion for Float8 Types is not supported")."""

TORCH_BITS_SIGNED: tuple[DType, ...] = (_D.int1, _D.int2, _D.int4)
"""PyTorch's ``torch.int1``/``int2``/``int4`` (2.13): ``promoteTypes`` has no entry for them, so they promote
with nothing but themselves (it fails an internal assertion, ``ix_a != -1``)."""

TORCH_BITS_UNSIGNED: tuple[DType, ...] = (_D.uint1, _D.uint2, _D.uint4)
"""PyTorch's ``torch.uint1``/``uint2``/``uint4`` (2.13): promoted like the barebones unsigned dtypes
(:data:`TORCH_BAREBONES_UNSIGNED`), with themselves and with the real floats only."""

TORCH_DTYPES: tuple[DType, ...] = (
    _D.bool, _D.uint8, _D.uint16, _D.uint32, _D.uint64, _D.int8, _D.int16, _D.int32, _D.int64,
    _D.bfloat16, _D.float16, _D.float32, _D.float64, _D.complex64, _D.complex128, *TORCH_FLOAT8,
    *TORCH_BITS_SIGNED, *TORCH_BITS_UNSIGNED)

TORCH_EDGES: dict[DType, list[DType]] = {
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

TF_STORAGE_ONLY: tuple[DType, ...] = (
    _D.float8_e5m2, _D.float8_e4m3fn, _D.float8_e4m3fnuz, _D.float8_e4m3b11fnuz, _D.float8_e5m2fnuz,
    _D.float4_e2m1fn, _D.int4, _D.uint4, _D.int2, _D.uint2)
"""TensorFlow 2.21's low-precision dtypes (``tf.dtypes.experimental``): tensors can hold them and some
casts exist, but no arithmetic op accepts them (AddV2's and Mul's type lists exclude them) and
``flexible_dtypes.result_type`` refuses them even paired with themselves."""

TF_DTYPES: tuple[DType, ...] = (
    _D.bool, _D.uint8, _D.uint16, _D.uint32, _D.uint64, _D.int8, _D.int16, _D.int32, _D.int64,
    _D.bfloat16, _D.float16, _D.float32, _D.float64, _D.complex64, _D.complex128, *TF_STORAGE_ONLY)
"""TensorFlow has no graph: two distinct dtypes never promote."""
