"""Checking and converting call arguments against ``@main``'s signature.

PJRT does not check dtypes: a ``float64`` buffer handed to an ``f32`` parameter
is either rejected deep inside XLA or, through the fast transfer path, silently
reinterpreted. So every argument is checked here first, and the rules are those
of the promotion layer: nothing is cast behind the user's back.

* A NumPy array must have the parameter's dtype and shape exactly. A different
  dtype is an error that names the explicit ``.astype(...)`` to write. (Only
  the byte order is adjusted silently: that changes no value.)
* A Python scalar or (nested) list is accepted when its values can be taken as
  the parameter's dtype without loss of kind or range: ``bool`` for ``bool``;
  ``int`` for any integer, float or complex dtype; ``float`` for float and complex
  dtypes; ``complex`` for complex dtypes, each only if every value fits (``300``
  is not a ``uint8`` and ``1e40`` is not a ``float32``: no wrap-around, no
  overflow to infinity). Scalars are not broadcast: a scalar is a rank-0 input.
* Other array-likes (``jax.Array``, anything with ``__array__`` or the buffer
  protocol) are read with ``np.asarray`` and then follow the NumPy rule.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from ..dtypes import DType
from ..values import representatives, scalar_problem
from .errors import InputDTypeError, InputError, InputRangeError, InputShapeError
from .signature import TensorSpec

__all__ = ["convert_input", "describe_input", "np_spelling"]


def np_spelling(dtype: DType) -> str:
    """How to write the host dtype in Python: ``np.int16``, ``ml_dtypes.float8_e4m3fn``, ``np.bool_``."""
    return dtype.host_spelling


def describe_input(index: int, name: str | None) -> str:
    return f"input {index} ({name!r})" if name is not None else f"input {index}"


def _shape_text(shape: tuple[int, ...]) -> str:
    return "[" + ", ".join(map(str, shape)) + "]"


def _np_dtype_name(dt: np.dtype) -> str:
    try:
        return DType.parse(dt.newbyteorder("=")).name
    except Exception:
        return str(dt)


def _check_array(arr: np.ndarray, spec: TensorSpec, where: str, var: str) -> np.ndarray:
    """The array itself (or a native-byte-order copy) if dtype and shape match, else raise."""
    expected = spec.np_dtype
    dtype_ok = arr.dtype == expected
    if not dtype_ok and not arr.dtype.isnative and arr.dtype.newbyteorder("=") == expected:
        arr = arr.astype(expected)  # byte order only: no value changes
        dtype_ok = True
    shape_ok = arr.shape == spec.shape
    if dtype_ok and shape_ok:
        return arr
    got = f"{_np_dtype_name(arr.dtype)}{_shape_text(arr.shape)}"
    if not dtype_ok:
        fix = (f"latticecast does not cast implicitly; convert explicitly with "
               f"{var}.astype({np_spelling(spec.dtype)})")
        if not shape_ok:
            fix += f" and pass an array of shape {_shape_text(spec.shape)}"
        raise InputDTypeError(
            f"{where}: expected {spec}, got a NumPy array of {got}; {fix}.",
            expected=spec, got=got)
    raise InputShapeError(
        f"{where}: expected shape {_shape_text(spec.shape)} ({spec}), got shape "
        f"{_shape_text(arr.shape)} ({got}); pass an array of shape {_shape_text(spec.shape)} "
        f"(the runtime does not broadcast).",
        expected=spec, got=got)


def _kind_error(where: str, spec: TensorSpec, what: str) -> InputDTypeError:
    return InputDTypeError(
        f"{where}: expected {spec}, got {what}; {_value_rule(spec.dtype)} Pass a NumPy array "
        f"of {spec.dtype.name} (np.array(values).astype({np_spelling(spec.dtype)}) converts "
        f"explicitly).", expected=spec, got=what)


def _value_rule(dtype: DType) -> str:
    if dtype.is_bool:
        return "a bool input takes Python bools."
    if dtype.is_integral:
        article = "an" if dtype.name.startswith("i") else "a"
        return f"{article} {dtype.name} input takes Python ints."
    if dtype.is_float:
        return f"a {dtype.name} input takes Python ints and floats."
    return f"a {dtype.name} input takes Python ints, floats and complex numbers."


def _range_error(where: str, spec: TensorSpec, value: object, detail: str) -> InputRangeError:
    if spec.dtype.is_integral:
        fix = (f"pass values in range, or wrap them explicitly with "
               f"np.array(values).astype({np_spelling(spec.dtype)})")
        rule = "latticecast does not wrap Python values around"
    else:
        fix = (f"pass values in range, or convert explicitly with "
               f"np.array(values).astype({np_spelling(spec.dtype)}) (which overflows to inf)")
        rule = ("latticecast does not turn Python values into infinities, NaN or other values the dtype "
                "rounds them to")
    return InputRangeError(
        f"{where}: the value {value!r} does not fit {spec.dtype.name} ({detail}); {rule}. "
        f"Either {fix}, or use a wider dtype in the program.",
        expected=spec, got=value)


def _int_range(dtype: DType) -> tuple[int, int]:
    return int(dtype.min_value), int(dtype.max_value)


def _from_objects(flat: list[Any], spec: TensorSpec, where: str) -> None:
    """Range- and kind-check Python numbers one by one (for values NumPy keeps as objects)."""
    dtype = spec.dtype
    for v in flat:
        if isinstance(v, (bool, np.bool_)):
            if not dtype.is_bool:
                raise _kind_error(where, spec, "Python bools")
        elif isinstance(v, numbers.Integral):
            if dtype.is_bool:
                raise _kind_error(where, spec, "Python ints")
            if dtype.is_integral:
                lo, hi = _int_range(dtype)
                if not lo <= int(v) <= hi:
                    raise _range_error(where, spec, int(v), f"range {lo}..{hi}")
            else:
                problem = scalar_problem(int(v), dtype)
                if problem:
                    raise _range_error(where, spec, int(v), problem)
        elif isinstance(v, numbers.Real):
            if not dtype.is_inexact:
                raise _kind_error(where, spec, "Python floats")
        elif isinstance(v, numbers.Complex):
            if not dtype.is_complex:
                raise _kind_error(where, spec, "Python complex numbers")
        else:
            raise _kind_error(where, spec, f"a list containing {type(v).__name__}")


def _convert_python(value: Any, spec: TensorSpec, where: str) -> np.ndarray:
    """Convert a Python scalar or nested list to ``spec``'s dtype, checking kind and range."""
    dtype = spec.dtype
    target = spec.np_dtype
    try:
        inferred = np.asarray(value)
    except (ValueError, OverflowError) as e:
        raise InputShapeError(
            f"{where}: cannot read the nested list as a {len(spec.shape)}-d array ({e}); "
            f"expected {spec}.", expected=spec, got=type(value).__name__) from None
    if inferred.shape != spec.shape:
        kind = "a Python scalar" if inferred.ndim == 0 else "a list"
        raise InputShapeError(
            f"{where}: expected shape {_shape_text(spec.shape)} ({spec}), got {kind} of shape "
            f"{_shape_text(inferred.shape)}; the runtime does not broadcast.",
            expected=spec, got=inferred.shape)
    if inferred.size == 0:
        return np.zeros(spec.shape, target)
    kind = inferred.dtype.kind
    if kind == "O":
        _from_objects(list(inferred.flat), spec, where)
        try:
            return np.array(value, dtype=target)
        except (OverflowError, ValueError, TypeError) as e:
            raise _range_error(where, spec, value, str(e)) from None
    if kind == "b":
        if not dtype.is_bool:
            raise _kind_error(where, spec, "Python bools")
        return inferred.astype(target)
    if kind in "iu":
        if dtype.is_bool:
            raise _kind_error(where, spec, "Python ints")
        if dtype.is_integral:
            lo, hi = _int_range(dtype)
            vmin, vmax = int(inferred.min()), int(inferred.max())
            if vmin < lo or vmax > hi:
                bad = vmin if vmin < lo else vmax
                raise _range_error(where, spec, bad, f"range {lo}..{hi}")
            return inferred.astype(target)
        return _finite_cast(inferred, spec, where)  # int -> float/complex: must stay finite
    if kind == "f" and not dtype.is_inexact:
        # NumPy reads ints that fit neither int64 nor uint64 together ([-1, 2**63]) as
        # floats; look at the values themselves before calling them floats.
        objects = np.asarray(value, dtype=object)
        if all(isinstance(v, numbers.Integral) for v in objects.flat):
            _from_objects(list(objects.flat), spec, where)
            return np.array(value, dtype=target)
    if kind == "f":
        if not dtype.is_inexact:
            raise _kind_error(where, spec, "Python floats")
        return _finite_cast(inferred, spec, where)
    if kind == "c":
        if not dtype.is_complex:
            raise _kind_error(where, spec, "Python complex numbers")
        return _finite_cast(inferred, spec, where)
    raise _kind_error(where, spec, f"values of NumPy kind {inferred.dtype}")


def _finite_cast(inferred: np.ndarray, spec: TensorSpec, where: str) -> np.ndarray:
    """Cast numbers to an inexact dtype, refusing values it does not have: a finite value too large
    for it (float32's 1e40, float8_e4m3fn's 1000), an infinity it lacks (float8_e4m3fn), a NaN it
    lacks (float4_e2m1fn), 0 or a negative value for float8_e8m0fnu. The rule is
    :func:`latticecast.values.scalar_problem`, applied to the elements that decide."""
    for value in representatives(inferred):
        problem = scalar_problem(value, spec.dtype)
        if problem:
            raise _range_error(where, spec, value.real if isinstance(value, complex) and not value.imag else value,
                               problem)
    with np.errstate(over="ignore", invalid="ignore"):
        return inferred.astype(spec.np_dtype)


def convert_input(value: Any, spec: TensorSpec, index: int,
                  name: str | None) -> tuple[np.ndarray, bool]:
    """Check one argument against ``spec``; return ``(array, owned)``.

    ``owned`` is true when the array was created here (from Python values, by a
    byte-order change): nobody else holds a reference to it, so the transfer may
    use its memory without copying. Errors carry ``index`` and ``name``.
    """
    try:
        return _convert_input(value, spec, describe_input(index, name),
                              name if name is not None and name.isidentifier() else "x")
    except InputError as e:
        e.index, e.name = index, name
        raise


def _convert_input(value: Any, spec: TensorSpec, where: str, var: str) -> tuple[np.ndarray, bool]:
    if isinstance(value, np.ndarray):
        if isinstance(value, np.ma.MaskedArray):
            raise InputDTypeError(
                f"{where}: got a masked array; the mask would be ignored. Pass "
                f"{var}.filled(fill_value) or {var}.data explicitly.", expected=spec, got="MaskedArray")
        arr = np.asarray(value)
        checked = _check_array(arr, spec, where, var)
        return checked, checked is not arr
    if isinstance(value, np.generic):
        arr = np.asarray(value)
        return _check_array(arr, spec, where, var), True
    if isinstance(value, (bool, int, float, complex, list, tuple)):
        return _convert_python(value, spec, where), True
    if isinstance(value, (str, bytes, dict, set)) or value is None:
        raise InputDTypeError(
            f"{where}: expected {spec}, got {type(value).__name__}; pass a NumPy array of "
            f"{spec.dtype.name}.", expected=spec, got=type(value).__name__)
    try:
        arr = np.asarray(value)
    except Exception as e:  # noqa: BLE001 - any failure means "not an array"
        raise InputDTypeError(
            f"{where}: expected {spec}, got {type(value).__name__}, which NumPy cannot read "
            f"as an array ({e}).", expected=spec, got=type(value).__name__) from None
    if arr.dtype.kind == "O":
        raise InputDTypeError(
            f"{where}: expected {spec}, got {type(value).__name__}; pass a NumPy array of "
            f"{spec.dtype.name}.", expected=spec, got=type(value).__name__)
    checked = _check_array(arr, spec, where, var)
    return checked, checked is not arr

