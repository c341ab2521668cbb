"""JAX's default mode: ``jax_enable_x64`` off.

Two things change against :mod:`.jax`: every 64-bit dtype is canonicalised to
its 32-bit counterpart before promotion (an ``int64`` array cannot exist; JAX
makes it ``int32``), weak values materialise as ``int32``/``float32``/``complex64``,
and the lattice replaces ``u32 . i32 = i64`` by ``i32`` so that no promotion forms a
64-bit type from 32-bit inputs (``jax._src.dtypes._type_promotion_lattice``).
"""

from __future__ import annotations

from ..dtypes import DType
from ..weak import PType, Weak
from .base import by_name
from .jax import JaxPolicy, jax_edges

__all__ = ["JaxX32Policy"]

_TO_32 = {DType.int64: DType.int32, DType.uint64: DType.uint32, DType.float64: DType.float32,
          DType.complex128: DType.complex64}


class JaxX32Policy(JaxPolicy):
    name = "jax-x32"
    title = "JAX, jax.numpy with jax_enable_x64 off (the default)"
    dtypes = by_name(["bool", "uint8", "uint16", "uint32", "int8", "int16", "int32",
                      "bfloat16", "float16", "float32", "complex64"])
    weak_types = (Weak(DType.int32), Weak(DType.float32), Weak(DType.complex64))
    default_int = DType.int32
    default_float = DType.float32
    default_complex = DType.complex64
    published_table_name = None  # the seeds publish x64 tables only; tests compare with live JAX

    @property
    def edges(self) -> dict[PType, list[PType]]:  # type: ignore[override]
        # The 64-bit nodes stay in the lattice (JAX keeps them too: they carry the paths
        # i32 -> i64 -> f*); inputs are canonicalised to 32 bits, so no join reaches them.
        return jax_edges(*self.weak_types, x64=False)

    def canonical(self, t: "PType | str") -> PType:
        from ..weak import parse_ptype
        t = parse_ptype(t)
        if isinstance(t, DType) and t in _TO_32:
            t = _TO_32[t]
        return super().canonical(t)

    def true_divide_type(self, t: PType) -> PType | None:
        dtype = t.dtype if isinstance(t, Weak) else t
        if dtype.is_inexact:
            return t
        return self.canonical(Weak(DType.float32) if isinstance(t, Weak) else DType.float32)
