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

__all__ = ["Scalar", "scalar_problem", "misfit", "array_problem", "candidates", "literal_fix", "magnitude_loss", "precision_loss",
           "convert_array"]

Scalar = Union[bool, int, float, complex]
"""A Python number: what a literal in a program, or a value passed to a model, can be."""


def scalar_problem(value: Scalar, target: DType, *, underflow: bool = False,
                   overflow_to_inf: bool = False) -> str | None:
    """Why ``target`` cannot represent the Python number ``value`` (``None`` if it can).

    With ``underflow``, a non-zero float that would round to zero in ``target`` is a
    problem too (the runtime's rule for inputs: ``1e-10`` is not a ``float16``). A
    literal in a program may underflow, as in JAX and NumPy. With ``overflow_to_inf``
    (NumPy's, PyTorch's and TensorFlow's rule), a number too large for a target that
    has infinities becomes one; a target without them (``float8_e4m3fn`` makes it NaN,
    ``float4_e2m1fn`` saturates) still refuses it.

    Values a dtype does not have at all are refused whatever their size: 0 and
    negative numbers for ``float8_e8m0fnu`` (JAX silently makes them NaN), infinities
    for the float8 types without them (they become NaN), NaN for the float6/float4
    types (they have none).
    """
    if isinstance(value, complex):
        if not target.is_complex:
            return f"can't represent the complex literal {value!r} as {target.name}"
        for part in (value.real, value.imag):
            problem = _float_problem(part, target, underflow, overflow_to_inf, shown=value)
            if problem:
                return problem
        return None
    if isinstance(value, float):
        if not target.is_inexact:
            return f"can't promote the float literal {value!r} to {target.name}"
        return _float_problem(value, target, underflow, overflow_to_inf, shown=value)
    v = int(value)  # bool and int
    if target.is_inexact:
        if abs(v) > target.info.max_finite and not (overflow_to_inf and target.has_inf):
            return f"{v} out of range for {target.name} (largest finite {target.info.max_finite:g})"
        if v < target.min_value:
            return _no_such_value(v, target)
        return None
    lo, hi = target.min_value, target.max_value
    if not lo <= v <= hi:
        return f"{v} out of range for {target.name} [{lo}, {hi}]"
    return None


def _no_such_value(shown: Scalar, target: DType) -> str:
    """The message for a value below the smallest of a dtype without zero (``float8_e8m0fnu``)."""
    return (f"{shown!r} is not a value of {target.name}: it has no zero and no negative values (smallest "
            f"{target.min_value:g}; JAX turns such values into NaN)")


def _float_problem(part: float, target: DType, underflow: bool, overflow_to_inf: bool,
                   shown: Scalar) -> str | None:
    info = target.info
    if math.isnan(part):
        return None if target.has_nan else (
            f"{shown!r} is not a value of {target.name}: it has no NaN (XLA makes NaN -0.0 there)")
    if math.isinf(part):
        return None if target.has_inf else (
            f"{shown!r} is not a value of {target.name}: it has no infinities (it would become "
            f"{'NaN' if target.overflow == 'nan' else f'{info.max_finite:g}'})")
    if abs(part) > info.max_finite and not (overflow_to_inf and target.has_inf):
        return f"{shown!r} out of range for {target.name} (largest finite {info.max_finite:g})"
    if part < target.min_value:
        return _no_such_value(shown, target)
    if underflow and part != 0 and abs(part) < info.smallest_subnormal / 2:
        return (f"{shown!r} underflows to 0 in {target.name} (smallest non-zero magnitude "
                f"{info.smallest_subnormal:g})")
    return None


def misfit(values: np.ndarray, target: DType, *, underflow: bool = False) -> tuple[Scalar, str] | None:
    """The first element of ``values`` that ``target`` cannot represent, and why (``None``: all fit).

    Looks at :func:`candidates` only, so it costs a few NumPy reductions and no per-element
    Python work: a million-element constant is checked as quickly as NumPy scans it.
    """
    values = _plain(values)
    if values.size and values.dtype.kind not in "biufcO":
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


def _plain(values: np.ndarray) -> np.ndarray:
    """``values`` with an ``ml_dtypes`` dtype (NumPy kind ``V``, or ``f`` for float8_e5m2) as the
    NumPy dtype that holds every value exactly: int64 for the narrow integers, float64 for the floats."""
    if values.dtype.kind not in "Vf" or values.dtype.type.__module__ == "numpy":
        return values
    try:
        source = DType.parse(values.dtype)
    except ValueError:
        return values
    return values.astype(np.int64 if source.is_integral() else np.float64)


def candidates(values: np.ndarray, target: DType | None = None, *, underflow: bool = False) -> list[Scalar]:
    """The elements whose fit decides whether every element fits, as Python numbers.

    Every rule of :func:`scalar_problem` (and of the policies' literal rules, which only add
    limits on magnitude) is monotone in magnitude or sign, so the smallest and largest
    integer; the float of largest magnitude, the smallest float (for a target without zero
    or negative values, ``float8_e8m0fnu``), the first NaN and the first infinity (for the
    float8/float6/float4 types without them) and, for ``underflow``, the float of smallest
    non-zero magnitude; and the complex made of the largest real and imaginary magnitudes
    stand for the whole array. Floats given for an integer ``target`` stand as integers when
    every one is whole (an explicit constant ``[1.0, 2.0]`` of ``int8`` is fine), else the
    first that is not. A bool array's elements are Python bools; ``ml_dtypes`` arrays are read as
    int64 or float64 first.
    """
    if values.size == 0:
        return []
    values = _plain(values)
    kind = values.dtype.kind
    if kind == "b":  # Python bools, as the elements are (MAX names a refused one: "value (False)")
        return [bool(values.min()), bool(values.max())]
    if kind in "iu":
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
    finite = as_float[np.isfinite(as_float)]
    if finite.size:
        out.append(float(finite.min()))
    for nonfinite in (np.isnan(as_float), np.isinf(as_float)):
        if nonfinite.any():
            out.append(float(as_float[np.argmax(nonfinite)]))
    if underflow:
        magnitudes = np.abs(finite[finite != 0])
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
    above 65504, ``int16 -> float8_e4m3fn`` becomes NaN above 448 (it has no
    infinities), ``float32 -> float4_e2m1fn`` saturates at 6, and ``complex64 ->
    float32`` drops the imaginary part. A target without zero (``float8_e8m0fnu``)
    loses every value at or below zero.
    """
    if source.is_complex and not target.is_complex:
        return "drops the imaginary part"
    lo, hi = source.min_value, source.max_value
    tlo, thi = target.min_value, target.max_value
    src, dst = _ir_spelling(source), _ir_spelling(target)
    if target.is_inexact:
        largest = max(abs(lo), abs(hi))
        if largest > thi:
            becomes = {"inf": "they become inf", "nan": "they become NaN: it has no infinities",
                       "max": f"they saturate to +-{float(thi):g}"}[target.overflow]
            return (f"can lose magnitude: {src} values up to {float(largest):.3g} exceed {dst}'s largest "
                    f"finite value {float(thi):.5g} ({becomes})")
        if lo < tlo:
            return (f"can lose magnitude: {dst} has no zero and no negative values, and {src} values "
                    f"below {float(tlo):.3g} become NaN")
        return None
    if hi > thi or lo < tlo:
        return (f"can lose magnitude: {src} values in [{lo}, {hi}] do not fit "
                f"{dst} [{tlo}, {thi}]")
    return None


def precision_loss(source: DType, target: DType) -> str | None:
    """Why converting ``source`` to ``target`` can round values (``None`` if every value converts exactly,
    or if the loss is one of magnitude, :func:`magnitude_loss`).

    ``int32 -> float32`` rounds integers above 2**24 (float32's significand has 24 bits), ``int64 ->
    float64`` those above 2**53, and ``float16 -> bfloat16`` keeps 8 of float16's 11 significant bits.

    Args:
        source: The dtype converted from.
        target: The dtype converted to.

    Returns:
        The reason as a phrase, or ``None``.

    Example:
        >>> from latticecast import DType
        >>> from latticecast.promotion.value_fit import precision_loss
        >>> precision_loss(DType.int32, DType.float32)
        "can lose precision: i32 values above 2**24 round (f32's significand has 24 bits)"
        >>> precision_loss(DType.int16, DType.float32) is None
        True
    """
    if not target.is_inexact or source == target or source.is_bool:
        return None
    kept = target.mantissa_bits + 1
    src, dst = _ir_spelling(source), _ir_spelling(target)
    if source.is_inexact:
        if source.mantissa_bits <= target.mantissa_bits:
            return None
        return (f"can lose precision: {dst} keeps {kept} of {src}'s {source.mantissa_bits + 1} significant bits")
    magnitude_bits = max(abs(int(source.min_value)), int(source.max_value)).bit_length()
    if magnitude_bits <= kept:
        return None
    return f"can lose precision: {src} values above 2**{kept} round ({dst}'s significand has {kept} bits)"


def _ir_spelling(d: DType) -> str:
    """The MLIR spelling of ``d`` where StableHLO has one, else its name (``int1``)."""
    return d.mlir_name if d.in_stablehlo else d.name


def convert_array(values: np.ndarray, target: DType) -> np.ndarray:
    """``values`` as ``target``'s host dtype, for values already known to fit (see :func:`array_problem`)."""
    if target.is_bool:
        nonzero: np.ndarray = values != 0
        return nonzero
    if not target.is_complex and values.dtype.kind == "c":
        values = values.real
    return values.astype(target.np_dtype)
