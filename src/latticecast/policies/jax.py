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
from typing import Mapping, Sequence

from ..promotion.dtypes import DType, Kind
from ..errors import PromotionError
from ..promotion.weak import PType, Weak, dtype_of, parse_ptype
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
    weak_widths_keep = True
    """A weakly typed array keeps its width (a weak int8 stays int8 where only weak values meet: JAX's
    ``lattice_result_type`` joins the strong counterparts of all-weak operands, then makes the result
    weak). Strict mode joins weak values on their Python-type nodes instead."""

    @property
    def edges(self) -> Mapping[PType, list[PType]]:  # type: ignore[override]  # a property for a class attribute
        return jax_lattice(x64=self.x64)

    def canonical(self, t: "PType | str") -> PType:
        """A weakly typed value keeps its width (``Weak(int8)``: a weakly typed int8 array); ``bool`` is
        never weak (JAX: "no boolean weak types")."""
        t = parse_ptype(t)
        if isinstance(t, Weak):
            d = self._strong(t.dtype)
            if d is DType.bool:
                return DType.bool
            if d not in self._dtype_set:
                return super().canonical(t)  # the error, naming the dtypes
            return Weak(d)
        return super().canonical(self._strong(t))

    def _strong(self, d: DType) -> DType:
        """A dtype as JAX canonicalises it (with x64 off, 64-bit dtypes become 32-bit ones)."""
        return d

    def _node(self, t: PType) -> PType:
        """Where a type sits on the lattice: a weak value of any width at its Python type's node
        (``jax._src.dtypes._jax_type``: ``i*``, ``f*``, ``c*``; ml_dtypes' floats are ``float`` too)."""
        if isinstance(t, Weak):
            found = self.weak_nodes.get(t.dtype.kind)
            assert found is not None, t
            return found
        return t

    def weak_and_strong(self, w: Weak, d: DType) -> Decision:
        return self.join(self._node(w), d)

    def two_weak(self, a: Weak, b: Weak) -> Decision:
        """Two weak values: the join of their strong counterparts, made weak (``weak int8 . weak int16 =
        weak int16``); for two Python scalars, the join of their nodes."""
        if a == self._node(a) and b == self._node(b) or not self.weak_widths_keep:
            return self.join(self._node(a), self._node(b))
        found = self.join(a.dtype, b.dtype)
        if found.result is None or isinstance(found.result, Weak):
            return found
        return Decision(Weak(found.result), "two weak values: the join of their dtypes, weakly typed")

    def lattice_result_type(self, *types: "PType | str") -> PType:
        """JAX's ``lattice_result_type``, the type ``jax.numpy``'s ops give their operands: one operand
        is itself; operands of one dtype not all weak are that dtype; all-weak operands join their
        strong counterparts, weakly typed (outside strict mode: ``weak int8 . weak int16`` is a weak
        int16); otherwise the join of every operand's lattice node (a weak value of any width at its
        Python type's node).

        Args:
            *types: The operands' types (weak for Python scalars and weakly typed arrays).

        Returns:
            The promoted type, weak where JAX's result is weakly typed.

        Raises:
            PromotionError: No type lies above them all on JAX's lattice.

        Example:
            >>> import latticecast as lc
            >>> lc.policy("jax").lattice_result_type(lc.weak("int8"), lc.weak("int16"))
            weak(DType.int16)
            >>> lc.policy("jax").lattice_result_type(lc.weak("int8"), lc.DType.uint8)
            DType.uint8
        """
        given = [self.canonical(t) for t in types]
        dtypes = {dtype_of(t) for t in given}
        all_weak = all(isinstance(t, Weak) for t in given)
        if len(given) == 1:
            return given[0]
        if len(dtypes) == 1 and not all_weak:
            return dtype_of(given[0])
        if all_weak and self.weak_widths_keep:
            strong: PType = dtype_of(given[0])
            for t in given[1:]:
                strong = self._join_or_raise(strong, dtype_of(t), given)
            return strong if isinstance(strong, Weak) else Weak(strong)
        out = self._node(given[0])
        for t in given[1:]:
            out = self._join_or_raise(out, self._node(t), given)
        return out

    def nary(self, types: Sequence["PType | str"], zero_dim: Sequence[bool]) -> PType:
        """``jnp.result_type``: :meth:`lattice_result_type`, with a weak result made the default type of
        its kind (``float`` for ml_dtypes' floats), still weak: ``jnp.result_type`` of two weak int8
        arrays is a weak int64 with x64 on, where their sum is a weak int8."""
        out = self.lattice_result_type(*types)
        if isinstance(out, Weak):
            kind = out.dtype.kind
            default = {Kind.SIGNED: self.default_int, Kind.UNSIGNED: _UNSIGNED[self.default_int],
                       Kind.FLOAT: self.default_float, Kind.COMPLEX: self.default_complex}[kind]
            assert default is not None
            return Weak(default)
        return out

    def _join_or_raise(self, a: PType, b: PType, given: Sequence[PType]) -> PType:
        found = self.join(a, b)
        if found.result is None:
            raise PromotionError(
                f"no implicit promotion of {', '.join(self.type_name(t) for t in given)} under policy "
                f"{self.name!r}: {found.why_not}", lhs=a, rhs=b, policy=self.name)
        return found.result

    def weak_default(self, t: Weak) -> DType:
        return t.dtype

    @functools.cached_property
    def op_types(self) -> OpTypeRules:
        return JaxOpTypes(self)


_UNSIGNED = {DType.int64: DType.uint64, DType.int32: DType.uint32}
"""``jax.dtypes.default_types['u']``: the default unsigned type of a weak unsigned result."""


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

    def _strong(self, d: DType) -> DType:
        return _TO_32.get(d, d)


class JaxStrictPolicy(JaxPolicy):
    name = "jax-strict"
    title = "JAX with jax_numpy_dtype_promotion='strict'"
    source = "jax._src.dtypes._type_promotion_lattice(strict=True); jax-type-promotion-design.md"
    edges = JAX_STRICT_EDGES
    lattice_rule = "join on JAX's strict lattice"
    weak_widths_keep = False  # strict mode joins weak values on their Python-type nodes

    def two_strong(self, a: DType, b: DType) -> Decision:
        return self.join(a, b, "strict promotion allows no implicit conversion between distinct dtypes")

    def weak_and_strong(self, w: Weak, d: DType) -> Decision:
        return self.join(self._node(w), d, "a weak value only defers to dtypes of its own kind or a higher one "
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

    def canonical(self, t: "PType | str") -> PType:
        """A weakly typed array keeps its width (``lax.add`` of a weak int8 array and an int8 array is
        int8); ``bool`` is never weak."""
        t = parse_ptype(t)
        if isinstance(t, Weak) and t.dtype in self._dtype_set:
            return DType.bool if t.dtype is DType.bool else t
        return super().canonical(t)

    def two_strong(self, a: DType, b: DType) -> Decision:
        return self.join(a, b, self._WHY)

    def weak_and_strong(self, w: Weak, d: DType) -> Decision:
        if w.dtype is d:
            return Decision(d, self.lattice_rule)
        return Decision(None, self.lattice_rule, self._WHY)

    def two_weak(self, a: Weak, b: Weak) -> Decision:
        if a == b:
            return Decision(a, self.lattice_rule)
        return Decision(None, self.lattice_rule, self._WHY)

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

