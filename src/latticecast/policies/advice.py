"""Which explicit cast would make a refused promotion legal: the advice every error message ends with.

A policy that refuses ``int32 + float32`` (the Array API, TensorFlow) cannot itself say
what the program meant; the most widely used answer is JAX's lattice, whose join is
the smallest type that holds both in the common case. So the advice is JAX's join
(materialised to a concrete dtype), or the seed MAX lattice's for MAX's own dtypes,
provided the refusing policy has that dtype; otherwise the wider of the two operands.
When no reference join fits (JAX refuses ``float8_e4m3fn . float16``; TensorFlow only stores
``int4``), the advice is the narrowest dtype of the policy that holds both operands, in
magnitude (:func:`latticecast.promotion.value_fit.magnitude_loss`) and in precision, preferring the
widths programs compute in (8-bit integers, 16-bit floats and wider): ``float16`` there,
``int8`` for ``int4 . int8``. This is advice, not promotion, so it lives apart from the
policies' rules.
"""

from __future__ import annotations

import functools
from typing import Callable

from ..promotion.dtypes import DType, Kind
from ..promotion.lattice import Lattice
from ..promotion.value_fit import magnitude_loss
from ..promotion.weak import PType, Weak, dtype_of
from .lattices import JAX_DTYPES, MAX_DTYPES, MAX_EDGES, jax_lattice

__all__ = ["suggest_cast", "cast_advice"]

_KIND_ORDER = (Kind.BOOL, Kind.UNSIGNED, Kind.SIGNED, Kind.FLOAT, Kind.COMPLEX)


@functools.cache
def _references() -> tuple[tuple[Lattice[PType], frozenset[DType]], ...]:
    return ((Lattice(jax_lattice(x64=True), name="jax"), frozenset(JAX_DTYPES)),
            (Lattice(MAX_EDGES, nodes=MAX_DTYPES, name="max"), frozenset(MAX_DTYPES)))


def suggest_cast(a: PType, b: PType, dtypes: "frozenset[DType] | tuple[DType, ...]") -> DType | None:
    """The dtype to cast ``a`` and ``b`` to explicitly, among ``dtypes`` (``None``: no sensible one)."""
    da, db = dtype_of(a), dtype_of(b)
    for lattice, known in _references():
        if da not in known or db not in known:
            continue
        joined = lattice.join(da, db)
        if joined is None:
            continue
        concrete = joined.dtype if isinstance(joined, Weak) else joined
        if concrete.is_low_precision and not all(_holds(concrete, dtype_of(t)) for t in (a, b)
                                                 if not isinstance(t, Weak)):
            continue  # JAX hangs float8 below f*: int16 . float8_e4m3fn is a float8, which is no advice
        if concrete in dtypes:
            return concrete
    # a Python scalar asks only for its kind; a strong operand for all its values
    strong = tuple(dtype_of(t) for t in (a, b) if not isinstance(t, Weak)) or (da, db)
    kind = max(_KIND_ORDER.index(da.kind), _KIND_ORDER.index(db.kind))
    found = [c for c in dtypes if _KIND_ORDER.index(c.kind) >= kind and all(_holds(c, d) for d in strong)]
    # prefer a dtype that programs compute in: 8-bit integers and 16-bit floats or wider
    return min(found, key=lambda c: (_KIND_ORDER.index(c.kind), c.bitwidth < (16 if c.is_inexact else 8),
                                     c.bitwidth)) if found else None


def _holds(c: DType, d: DType) -> bool:
    """Whether every value of ``d`` converts to ``c`` keeping its magnitude and its precision."""
    if _KIND_ORDER.index(c.kind) < _KIND_ORDER.index(d.kind) or magnitude_loss(d, c) is not None:
        return False
    if d.is_inexact:
        return c.mantissa_bits >= d.mantissa_bits
    return not c.is_inexact or c.mantissa_bits + 1 >= d.bitwidth - d.is_signed


def cast_advice(a: PType, b: PType, cast_to: DType | None, name: Callable[[PType], str]) -> str:
    """``; make it explicit: cast i32 to float32 (...)``, the end of an error message (empty without
    advice); ``name`` spells the operand types as the policy does."""
    if cast_to is None:
        return ""
    casts = [t for t in (a, b) if dtype_of(t) != cast_to]
    which = " and ".join(name(t) for t in casts) or name(a)
    in_ir = f", stablehlo.convert to {cast_to.mlir_name} in IR" if cast_to.in_stablehlo else ""
    return f"; make it explicit: cast {which} to {cast_to.name} (x.cast(DType.{cast_to.name}) in a graph{in_ir})"
