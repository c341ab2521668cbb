"""No implicit promotion between distinct strong types: JAX's strict mode and ``jax.lax``.

* ``jax-strict`` is ``jax_numpy_dtype_promotion='strict'``: weak values (Python
  scalars) still defer to any dtype of their kind or a higher one (``i* -> f* -> c*``),
  but two different strong dtypes never meet (JAX's strict lattice).
* ``jax-lax`` is ``jax.lax``, which does no promotion at all: operands must have
  equal dtypes, and a Python scalar is only accepted by an operand of its own
  default dtype (``i*`` with ``int64``), as the design note's ``jax.lax`` table shows.

Both error messages name the explicit cast to write.
"""

from __future__ import annotations

from ..dtypes import DType
from ..weak import PType, Weak
from .base import LatticePolicy
from .jax import JAX_DTYPES, JaxPolicy, jax_weak_node

__all__ = ["JaxStrictPolicy", "JaxLaxPolicy"]

_INTS = [d for d in JAX_DTYPES if d.is_integral]
_FLOATS = [d for d in JAX_DTYPES if d.is_float]
_COMPLEX = [d for d in JAX_DTYPES if d.is_complex]
_I, _F, _C = Weak(DType.int64), Weak(DType.float64), Weak(DType.complex128)


class JaxStrictPolicy(JaxPolicy):
    name = "jax-strict"
    title = "JAX with jax_numpy_dtype_promotion='strict'"
    published_table_name = None  # no seed table; tests compare with live JAX in strict mode
    source = "jax._src.dtypes._type_promotion_lattice(strict=True); jax-type-promotion-design.md"

    @property
    def edges(self) -> dict[PType, list[PType]]:  # type: ignore[override]
        return {_I: [_F, *_INTS], _F: [_C, *_FLOATS], _C: list(_COMPLEX)}

    def why_undefined(self, a: PType, b: PType) -> str:
        if isinstance(a, DType) and isinstance(b, DType):
            return "strict promotion allows no implicit conversion between distinct dtypes"
        return "a weak value only defers to dtypes of its own kind or a higher one (i* -> f* -> c*)"


class JaxLaxPolicy(LatticePolicy):
    name = "jax-lax"
    title = "jax.lax: no implicit promotion"
    source = "jax-type-promotion-design.md, appendix, jax.lax table"
    dtypes = JAX_DTYPES
    weak_types = (_I, _F, _C)
    edges = {_I: [DType.int64], _F: [DType.float64], _C: [DType.complex128]}
    published_table_name = "design_jax_lax"

    def errata(self) -> dict[tuple[PType, PType], str]:
        return {(DType.bool, DType.bool): "the seed table was made with lax.add, which rejects bool "
                "operands; that is add's domain, not promotion: bool with bool is bool (lax.max, "
                "lax.bitwise_and accept it)"}

    def _canonical_weak(self, t: Weak) -> PType:
        return jax_weak_node(self.weak_types, t)

    def why_undefined(self, a: PType, b: PType) -> str:
        return ("jax.lax requires operands of the same dtype (a Python scalar only matches its "
                "default dtype: int64, float64, complex128)")

    def sum_type(self, dtype: DType) -> DType:
        """``lax.reduce_sum`` keeps the dtype."""
        return dtype

    def true_divide_type(self, t: PType) -> PType | None:
        # lax.div divides integers as integers (StableHLO divide truncates toward zero).
        return None

    def rule(self, a: PType, b: PType) -> str:
        return "jax.lax: equal dtypes only"
