"""JAX's promotion lattice (``jax.numpy`` with ``jax_enable_x64``), weak types included.

The lattice is the one the JAX design note settles on ("Option 3", with
``u64 -> f*`` added to close it) and that ``jax._src.dtypes`` builds:
Python scalars and weakly typed arrays are the nodes ``i*``, ``f*``, ``c*``;
integers defer to floats of any width; ``bf16`` and ``f16`` are unordered and
meet at ``f32``. A weak result materialises as the default type of its kind
(``int64``, ``float64``, ``complex128`` with x64).
"""

from __future__ import annotations

from typing import ClassVar

from ..dtypes import DType, Kind
from ..weak import PType, Weak
from .base import LatticePolicy, by_name

__all__ = ["JaxPolicy", "jax_edges", "jax_weak_node"]

JAX_DTYPES = by_name(["bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
                      "bfloat16", "float16", "float32", "float64", "complex64", "complex128"])


def jax_edges(i_: Weak, f_: Weak, c_: Weak, *, x64: bool = True) -> dict[PType, list[PType]]:
    """The DAG of ``jax._src.dtypes._type_promotion_lattice(strict=False, x64)``."""
    d = DType
    edges: dict[PType, list[PType]] = {
        d.bool: [i_],
        i_: [d.uint8, d.int8],
        d.uint8: [d.int16, d.uint16],
        d.uint16: [d.int32, d.uint32],
        d.uint32: [d.int64, d.uint64],
        d.uint64: [f_],
        d.int8: [d.int16],
        d.int16: [d.int32],
        d.int32: [d.int64],
        d.int64: [f_],
        f_: [d.bfloat16, d.float16, c_],
        d.bfloat16: [d.float32],
        d.float16: [d.float32],
        d.float32: [d.float64, d.complex64],
        d.float64: [d.complex128],
        c_: [d.complex64],
        d.complex64: [d.complex128],
    }
    if not x64:
        # JAX avoids the one join that forms a 64-bit type from 32-bit inputs: u32 . i32 = i32.
        edges[d.uint32] = [d.int32, d.uint64]
    return edges


def jax_weak_node(weak_types: tuple[Weak, Weak, Weak], t: Weak) -> PType:
    """JAX keeps one weak node per kind (``jax._src.dtypes._jax_type``): a weak int16 or a
    weak uint8 is ``i*`` like any Python int, a weak bool is plain bool."""
    i_, f_, c_ = weak_types
    return {Kind.BOOL: DType.bool, Kind.SIGNED: i_, Kind.UNSIGNED: i_, Kind.FLOAT: f_,
            Kind.COMPLEX: c_}[t.dtype.kind]


class JaxPolicy(LatticePolicy):
    name = "jax"
    title = "JAX, jax.numpy with jax_enable_x64"
    source = "jax-type-promotion-design.md (the final lattice); jax-type-promotion-table.rst"
    dtypes = JAX_DTYPES
    weak_types = (Weak(DType.int64), Weak(DType.float64), Weak(DType.complex128))
    default_int = DType.int64
    default_float = DType.float64
    default_complex = DType.complex128
    published_table_name = "design_jax_numpy"

    @property
    def edges(self) -> dict[PType, list[PType]]:  # type: ignore[override]
        return jax_edges(*self.weak_types)

    def _canonical_weak(self, t: Weak) -> PType:
        return jax_weak_node(self.weak_types, t)

    def true_divide_type(self, t: PType) -> PType | None:
        """``jnp.true_divide``: ``dtypes.to_inexact_dtype`` after promotion: integers up to
        32 bits and bool divide in float32, 64-bit integers in float64; weakness is kept."""
        dtype = t.dtype if isinstance(t, Weak) else t
        if dtype.is_inexact:
            return t
        target = DType.float64 if dtype.bitwidth == 64 else DType.float32
        if isinstance(t, Weak):
            return self.canonical(Weak(target))
        return self.canonical(target)

    def rule(self, a: PType, b: PType) -> str:
        return "join on JAX's lattice"
