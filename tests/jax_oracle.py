"""Ask live JAX what it promotes to, the way the design note's appendix code does.

Shared by the policy tests and the differential tests: one place that knows how
to turn a latticecast type into a JAX operand and a JAX result back into a type.
"""

from __future__ import annotations

import warnings

import jax
import numpy as np

from latticecast import DType
from latticecast.promotion.weak import PType, Weak

_PY = {"i": 0, "u": 0, "f": 0.0, "c": 0j}


def jax_operand(t: PType):
    """A stand-in of type ``t``: a Python scalar for a weak type, an abstract 0-d array otherwise
    (``jax.ShapeDtypeStruct``: nothing is built, so dtypes XLA:CPU cannot hold, float6, work too)."""
    if isinstance(t, Weak):
        return _PY[t.dtype.kind.code]
    return jax.ShapeDtypeStruct((), t.np_dtype)


def jax_result_type(value) -> PType:
    dtype = DType.parse(np.dtype(value.dtype))
    if getattr(value, "weak_type", False) or getattr(getattr(value, "aval", None), "weak_type", False):
        return Weak(dtype)
    return dtype


def jax_promote(op, a: PType, b: PType) -> PType | None:
    """``op(a, b)``'s result type in live JAX (traced abstractly with ``jax.eval_shape``, so
    nothing compiles), ``None`` when JAX refuses the promotion."""
    x, y = jax_operand(a), jax_operand(b)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # x64-off truncation warnings are what we measure
            out = jax.eval_shape(op, x, y)
    except (TypeError, jax.dtypes.TypePromotionError):
        return None
    return jax_result_type(out)
