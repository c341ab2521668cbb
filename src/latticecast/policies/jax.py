"""JAX's promotion: ``jax.numpy`` with x64 on and off, its strict mode, and ``jax.lax``.

The four are one system seen four ways, so they share this module:

* ``jax`` (``jax_enable_x64``): the design note's final lattice (:func:`.lattices.jax_lattice`).
  Python scalars and weakly typed arrays are the nodes ``i*``, ``f*``, ``c*``; a weak
  result materialises as the default type of its kind (``int64``, ``float64``,
  ``complex128``).
* ``jax-x32`` (JAX's default): every 64-bit dtype is canonicalised to its 32-bit
  counterpart before promotion (an ``int64`` array cannot exist), weak values
  materialise as ``int32``/``float32``/``complex64``, and ``u32 . i32 = i32``.
* ``jax-strict`` (``jax_numpy_dtype_promotion='strict'``): weak values still defer to
  any dtype of their kind or a higher one, but two distinct strong dtypes never meet.
* ``jax-lax`` (``jax.lax``): no promotion at all; a Python scalar is accepted only by
  an operand of its own default dtype, as the design note's ``jax.lax`` table shows.

The low-precision dtypes (float8/6/4, int1..uint4) are sinks of JAX's lattice (see
:func:`.lattices.jax_lattice`). Two JAX gaps on them are modelled or noted: ``jnp.true_divide``
divides int1/uint1/int2/uint2 as integers (they are missing from JAX's inexact-type table,
:data:`.lattices.JAX_NO_INEXACT`), and ``jnp.sum`` of a narrow integer fails inside JAX
(``np.iinfo`` rejects ml_dtypes' kind-'V' integers); latticecast sums them in the default
integer, which is what JAX's rule for small integers intends.
"""

from __future__ import annotations

import functools
from typing import Mapping

from ..dtypes import DType
from ..weak import PType, Weak, dtype_of
from .base import Decision, LatticePolicy
from .components import OpTypeRules
from .lattices import JAX_DTYPES, JAX_NO_INEXACT, JAX_STRICT_EDGES, jax_lattice, jax_lax_edges

__all__ = ["JaxPolicy", "JaxX32Policy", "JaxStrictPolicy", "JaxLaxPolicy"]

_TO_32 = {DType.int64: DType.int32, DType.uint64: DType.uint32, DType.float64: DType.float32,
          DType.complex128: DType.complex64}


class JaxPolicy(LatticePolicy):
    name = "jax"
    title = "JAX, jax.numpy with jax_enable_x64"
    source = "jax-type-promotion-design.md (the final lattice); jax-type-promotion-table.rst"
    dtypes = JAX_DTYPES
    weak_types = (Weak(DType.int64), Weak(DType.float64), Weak(DType.complex128))
    default_int = DType.int64
    default_float = DType.float64
    default_complex = DType.complex128
    weak_uint_is_int = True  # jax._src.dtypes._jax_type: one weak node per Python scalar type
    builtin_types_are_weak = True  # jax._src.dtypes._weak_types: int, float, complex
    lattice_rule = "join on JAX's lattice"
    x64 = True

    @property
    def edges(self) -> Mapping[PType, list[PType]]:  # type: ignore[override]  # a property for a class attribute
        return jax_lattice(x64=self.x64)

    def weak_default(self, t: Weak) -> DType:
        return t.dtype

    @functools.cached_property
    def op_types(self) -> OpTypeRules:
        return JaxOpTypes(self)


class JaxX32Policy(JaxPolicy):
    name = "jax-x32"
    title = "JAX, jax.numpy with jax_enable_x64 off (the default)"
    # The 64-bit nodes stay in the lattice (JAX keeps them too: they carry the paths
    # i32 -> i64 -> f*); inputs are canonicalised to 32 bits, so no join reaches them.
    dtypes = tuple(d for d in JAX_DTYPES if d not in _TO_32)
    weak_types = (Weak(DType.int32), Weak(DType.float32), Weak(DType.complex64))
    default_int = DType.int32
    default_float = DType.float32
    default_complex = DType.complex64
    x64 = False

    def canonical(self, t: "PType | str") -> PType:
        t = super().canonical(_TO_32.get(t, t) if isinstance(t, DType) else t)
        return t



class JaxStrictPolicy(JaxPolicy):
    name = "jax-strict"
    title = "JAX with jax_numpy_dtype_promotion='strict'"
    source = "jax._src.dtypes._type_promotion_lattice(strict=True); jax-type-promotion-design.md"
    edges = JAX_STRICT_EDGES
    lattice_rule = "join on JAX's strict lattice"

    def two_strong(self, a: DType, b: DType) -> Decision:
        return self.join(a, b, "strict promotion allows no implicit conversion between distinct dtypes")

    def weak_and_strong(self, w: Weak, d: DType) -> Decision:
        return self.join(w, d, "a weak value only defers to dtypes of its own kind or a higher one "
                               "(i* -> f* -> c*)")


class JaxLaxPolicy(LatticePolicy):
    name = "jax-lax"
    title = "jax.lax: no implicit promotion"
    source = "jax-type-promotion-design.md, appendix, jax.lax table"
    dtypes = JAX_DTYPES
    weak_types = (Weak(DType.int64), Weak(DType.float64), Weak(DType.complex128))
    weak_uint_is_int = True
    builtin_types_are_weak = True  # jax.dtypes' rule, as in JaxPolicy
    edges = jax_lax_edges()
    lattice_rule = "jax.lax: equal dtypes only"
    _WHY = ("jax.lax requires operands of the same dtype (a Python scalar only matches its default "
            "dtype: int64, float64, complex128)")

    def two_strong(self, a: DType, b: DType) -> Decision:
        return self.join(a, b, self._WHY)

    def weak_and_strong(self, w: Weak, d: DType) -> Decision:
        return self.join(w, d, self._WHY)

    def two_weak(self, a: Weak, b: Weak) -> Decision:
        return self.join(a, b, self._WHY)

    @functools.cached_property
    def op_types(self) -> OpTypeRules:
        return JaxLaxOpTypes(self)


class JaxOpTypes(OpTypeRules):
    """``jnp.true_divide``: ``dtypes.to_inexact_dtype`` after promotion: integers up to 32 bits and
    bool divide in float32, 64-bit integers in float64 (float32 where x64 is off); weakness is kept.
    ``int1``, ``uint1``, ``int2`` and ``uint2`` are missing from JAX's table
    (:data:`.lattices.JAX_NO_INEXACT`), so JAX divides them as integers: ``None``. Sums as ``jnp.sum``
    (the default)."""

    def true_divide(self, t: "PType | str") -> PType | None:
        policy = self.policy
        t = policy.canonical(t)
        dtype = dtype_of(t)
        if dtype.is_inexact:
            return t
        if dtype in JAX_NO_INEXACT:
            return None
        target = DType.float64 if dtype.bitwidth == 64 and policy.default_float is DType.float64 else DType.float32
        return policy.canonical(Weak(target) if isinstance(t, Weak) else target)


class JaxLaxOpTypes(OpTypeRules):
    """``lax.div`` divides integers as integers (StableHLO ``divide`` truncates toward zero), and
    ``lax.reduce_sum`` keeps the dtype."""

    def true_divide(self, t: "PType | str") -> PType | None:
        t = self.policy.canonical(t)
        return t if dtype_of(t).is_inexact else None

    def sum(self, dtype: DType) -> DType:
        return dtype

