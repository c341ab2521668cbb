"""Which explicit cast would make a refused promotion legal: the advice every error message ends with.

A policy that refuses ``int32 + float32`` (the Array API, TensorFlow) cannot itself say
what the program meant; the most widely used answer is JAX's lattice, whose join is
the smallest type that holds both in the common case. So the advice is JAX's join
(materialised to a concrete dtype), or the seed MAX lattice's for MAX's own dtypes,
provided the refusing policy has that dtype; otherwise the wider of the two operands.
This is advice, not promotion, so it lives apart from the policies' rules.
"""

from __future__ import annotations

import functools
from typing import Callable

from ..dtypes import DType, Kind
from ..lattice import Lattice
from ..weak import PType, Weak, dtype_of
from .lattices import JAX_DTYPES, MAX_DTYPES, MAX_EDGES, jax_lattice

__all__ = ["suggest_cast", "cast_advice"]

_KIND_ORDER = (Kind.BOOL, Kind.UNSIGNED, Kind.SIGNED, Kind.FLOAT, Kind.COMPLEX)


@functools.cache
def _references() -> tuple[tuple[Lattice, frozenset[DType]], ...]:
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
        if concrete in dtypes:
            return concrete
    mine = [d for d in (da, db) if d in dtypes]
    return max(mine, key=lambda d: (_KIND_ORDER.index(d.kind), d.bitwidth)) if mine else None


def cast_advice(a: PType, b: PType, cast_to: DType | None, name: Callable[[PType], str]) -> str:
    """``; make it explicit: cast i32 to float32 (...)``, the end of an error message (empty without
    advice); ``name`` spells the operand types as the policy does."""
    if cast_to is None:
        return ""
    casts = [t for t in (a, b) if dtype_of(t) != cast_to]
    which = " and ".join(name(t) for t in casts) or name(a)
    return (f"; make it explicit: cast {which} to {cast_to.name} (x.cast(DType.{cast_to.name}) in a graph, "
            f"stablehlo.convert to {cast_to.mlir_name} in IR)")
