"""Does a value fit a dtype, and can a conversion lose magnitude: the one home of both answers.

Every layer asks these questions: the builder when a Python literal meets a
tensor (``x_int8 + 1000``), the pass when it rebuilds a weak constant at its
promoted type, the runtime when a call passes Python numbers, and the lossy
diagnostics when a promotion can overflow. Each asks here, so a literal that the
builder refuses is refused by the pass and the runtime with the same words.

The rules, for a value meeting a target dtype:

* an integer (or bool) must lie in an integer target's range, and within an
  inexact target's largest finite magnitude (rounding to the nearest float is
  allowed, as in JAX and NumPy; overflow to infinity is not);
* a float needs an inexact target and must be finite there, unless it was
  infinite (or NaN) to begin with;
* a complex needs a complex target, both parts finite there.
"""

from __future__ import annotations

import math
from typing import Union

import numpy as np

from .dtypes import DType

__all__ = ["Scalar", "scalar_problem", "misfit", "array_problem", "candidates", "literal_fix", "magnitude_loss",
           "convert_array"]

Scalar = Union[bool, int, float, complex]
"""A Python number: what a literal in a program, or a value passed to a model, can be."""


def scalar_problem(value: Scalar, target: DType, *, underflow: bool = False) -> str | None:
    """Why ``target`` cannot represent the Python number ``value`` (``None`` if it can).

    With ``underflow``, a non-zero float that would round to zero in ``target`` is a
    problem too (the runtime's rule for inputs: ``1e-10`` is not a ``float16``). A
    literal in a program may underflow, as in JAX and NumPy.
    """
    if isinstance(value, complex):
        if not target.is_complex:
            return f"can't represent the complex literal {value!r} as {target.name}"
        for part in (value.real, value.imag):
            problem = _float_problem(part, target, underflow, shown=value)
            if problem:
                return problem
        return None
    if isinstance(value, float):
        if not target.is_inexact:
            return f"can't promote the float literal {value!r} to {target.name}"
        return _float_problem(value, target, underflow, shown=value)
    v = int(value)  # bool and int
    if target.is_inexact:
        if abs(v) > target.info.max_finite:
            return f"{v} out of range for {target.name} (largest finite {target.info.max_finite:g})"
        return None
    lo, hi = target.min_value, target.max_value
    if not lo <= v <= hi:
        return f"{v} out of range for {target.name} [{lo}, {hi}]"
    return None


def _float_problem(part: float, target: DType, underflow: bool, shown: Scalar) -> str | None:
    info = target.info
    if not math.isfinite(part):
        return None
    if abs(part) > info.max_finite:
        return f"{shown!r} out of range for {target.name} (largest finite {info.max_finite:g})"
    if underflow and part != 0 and abs(part) < info.smallest_subnormal / 2:
        return (f"{shown!r} underflows to 0 in {target.name} (smallest non-zero magnitude "
                f"{info.smallest_subnormal:g})")
    return None


def misfit(values: np.ndarray, target: DType, *, underflow: bool = False) -> tuple[Scalar, str] | None:
    """The first element of ``values`` that ``target`` cannot represent, and why (``None``: all fit).

    Looks at :func:`candidates` only, so it costs a few NumPy reductions and no per-element
    Python work: a million-element constant is checked as quickly as NumPy scans it.
    """
    if values.size and values.dtype.kind not in "biufcOV":
        return values.ravel()[0], f"values of NumPy dtype {values.dtype} do not fit {target.name}"
    for value in candidates(values, target, underflow=underflow):
        if isinstance(value, complex) and not target.is_complex:
            return value, f"complex value {value!r} does not fit {target.name}"
        if isinstance(value, float) and not target.is_inexact:
            return value, f"non-integer value {value!r} does not fit {target.name}"
        problem = scalar_problem(value, target, underflow=underflow)
        if problem:
            return value, problem
    return None


def array_problem(values: np.ndarray, target: DType, *, underflow: bool = False) -> str | None:
    """Why ``target`` cannot represent every element of ``values`` (``None`` if it can)."""
    found = misfit(values, target, underflow=underflow)
    return None if found is None else found[1]


def candidates(values: np.ndarray, target: DType | None = None, *, underflow: bool = False) -> list[Scalar]:
    """The elements whose fit decides whether every element fits, as Python numbers.

    Every rule of :func:`scalar_problem` (and of the policies' literal rules, which only add
    limits on magnitude) is monotone in magnitude, so the smallest and largest integer, the
    float of largest magnitude (and, for ``underflow``, of smallest non-zero magnitude), and
    the complex made of the largest real and imaginary magnitudes stand for the whole array.
    Floats given for an integer ``target`` stand as integers when every one is whole (an
    explicit constant ``[1.0, 2.0]`` of ``int8`` is fine), else the first that is not.
    """
    if values.size == 0:
        return []
    kind = values.dtype.kind
    if kind in "biu":
        return [int(values.min()), int(values.max())]
    if kind == "O":
        return list(values.ravel())
    if kind == "c":
        return [complex(_largest(values.real), _largest(values.imag))]
    as_float = values.astype(np.float64).ravel()
    if target is not None and not target.is_inexact:
        whole = np.isfinite(as_float) & (as_float == np.round(as_float))
        if not whole.all():
            return [float(as_float[np.argmin(whole)])]
        return [int(as_float.min()), int(as_float.max())]
    out: list[Scalar] = [_largest(as_float)]
    if underflow:
        magnitudes = np.abs(as_float[np.isfinite(as_float) & (as_float != 0)])
        if magnitudes.size:
            out.append(float(magnitudes.min()))
    return out


def _largest(values: np.ndarray) -> float:
    """The finite element of largest magnitude (with its sign), or the first non-finite one if none is."""
    flat = values.ravel()
    finite = flat[np.isfinite(flat)]
    if finite.size == 0:
        return float(flat[0])
    return float(finite[np.argmax(np.abs(finite))])


def literal_fix(value: Scalar, target: DType) -> str:
    """What to write instead of a literal that ``target`` cannot hold (the second half of the message)."""
    if isinstance(value, (float, complex)) and not target.is_inexact:
        return "cast the other operand to a float type first, or write an integer literal"
    return ("cast the other operand to a wider dtype first (x.cast(...)), or make the literal an "
            "explicit constant of a dtype that holds it")


def magnitude_loss(source: DType, target: DType) -> str | None:
    """Why converting every value of ``source`` to ``target`` can lose magnitude (``None`` if it cannot).

    Precision is not magnitude: ``int32 -> float32`` rounds large integers but keeps
    their magnitude, so it is not reported; ``int64 -> float16`` overflows to inf
    above 65504, and ``complex64 -> float32`` drops the imaginary part.
    """
    if source.is_complex and not target.is_complex:
        return "drops the imaginary part"
    lo, hi = source.min_value, source.max_value
    tlo, thi = target.min_value, target.max_value
    if hi > thi or lo < tlo:
        if target.is_inexact:
            return (f"can lose magnitude: {source.mlir_name} values up to {float(hi):.3g} exceed "
                    f"{target.mlir_name}'s largest finite value {float(thi):.5g} (they become inf)")
        return (f"can lose magnitude: {source.mlir_name} values in [{lo}, {hi}] do not fit "
                f"{target.mlir_name} [{tlo}, {thi}]")
    return None


def convert_array(values: np.ndarray, target: DType) -> np.ndarray:
    """``values`` as ``target``'s host dtype, for values already known to fit (see :func:`array_problem`)."""
    if target.is_bool:
        return values != 0
    if not target.is_complex and values.dtype.kind == "c":
        values = values.real
    return values.astype(target.np_dtype)
