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
* A ``jax.Array`` must have the parameter's dtype and shape exactly too, and must not
  have been deleted (donated); it stays on its devices (:func:`check_device_array`), and
  the runner uses it in place or moves it to the model's layout (:mod:`.sharded`).
* Other array-likes (anything with ``__array__`` or the buffer protocol) are read with
  ``np.asarray`` and then follow the NumPy rule.
"""

from __future__ import annotations

import numbers
from typing import TYPE_CHECKING, Sequence

import numpy as np

from ..promotion.dims import SymbolicDim
from ..promotion.dtypes import DType
from ..promotion.value_fit import misfit
from .runtime_errors import InputArrayError, InputDTypeError, InputError, InputRangeError, InputShapeError
from .signature import DONATION_ATTRS, TensorSpec

if TYPE_CHECKING:
    import jax

    from .pjrt import Argument

__all__ = ["convert_input", "check_device_array", "check_donations", "describe_input", "np_spelling"]


def np_spelling(dtype: DType) -> str:
    """How to write the host dtype in Python: ``np.int16``, ``ml_dtypes.float8_e4m3fn``, ``np.bool_``."""
    return dtype.host_spelling


def describe_input(index: int, name: str | None) -> str:
    return f"input {index} ({name!r})" if name is not None else f"input {index}"


def _shape_text(shape: "Sequence[object]") -> str:
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
    if dtype.is_integral():
        article = "an" if dtype.name.startswith("i") else "a"
        return f"{article} {dtype.name} input takes Python ints."
    if dtype.is_float():
        return f"a {dtype.name} input takes Python ints and floats."
    return f"a {dtype.name} input takes Python ints, floats and complex numbers."


def _range_error(where: str, spec: TensorSpec, value: object, problem: str) -> InputRangeError:
    if spec.dtype.is_integral():
        fix = (f"pass values in range, or wrap them explicitly with "
               f"np.array(values).astype({np_spelling(spec.dtype)})")
        rule = "latticecast does not wrap Python values around"
    else:
        fix = (f"pass values in range, or convert explicitly with "
               f"np.array(values).astype({np_spelling(spec.dtype)}) (which overflows to inf and underflows "
               f"to 0)")
        rule = ("latticecast does not turn finite Python values into infinities or non-zero ones into zeros, "
                "nor into NaN or other values the dtype lacks")
    return InputRangeError(f"{where}: {problem}; {rule}. Either {fix}, or use a wider dtype in the program.",
                           expected=spec, got=value)


def _python_kind(values: np.ndarray) -> str:
    """The Python kind of the values a list held: bool, int, float, complex, or ``other``."""
    kind = values.dtype.kind
    if kind != "O":
        return {"b": "bool", "i": "int", "u": "int", "f": "float", "c": "complex"}.get(kind, "other")
    kinds = set()
    for v in values.ravel():
        if isinstance(v, (bool, np.bool_)):
            kinds.add("bool")
        elif isinstance(v, numbers.Integral):
            kinds.add("int")
        elif isinstance(v, numbers.Real):
            kinds.add("float")
        elif isinstance(v, numbers.Complex):
            kinds.add("complex")
        else:
            return "other"
    for k in ("complex", "float", "int", "bool"):  # the highest kind present decides
        if k in kinds:
            return "int" if k == "bool" and len(kinds) > 1 else k
    return "other"


def _accepts(dtype: DType, kind: str) -> bool:
    """Which Python kinds an input of ``dtype`` takes: bools only for bool; ints for numbers; floats
    for inexact dtypes; complex numbers for complex dtypes."""
    if kind == "bool":
        return dtype.is_bool
    if kind == "int":
        return not dtype.is_bool
    if kind == "float":
        return dtype.is_inexact
    if kind == "complex":
        return dtype.is_complex
    return False


_KIND_WORDS = {"bool": "Python bools", "int": "Python ints", "float": "Python floats",
               "complex": "Python complex numbers"}


def _convert_python(value: "bool | int | float | complex | list[object] | tuple[object, ...]", spec: TensorSpec,
                    where: str) -> np.ndarray:
    """Convert a Python scalar or nested list to ``spec``'s dtype, checking kind and range
    (the range rule is :func:`latticecast.promotion.value_fit.misfit`, the one every layer uses, with underflow)."""
    dtype = spec.dtype
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
        return np.zeros(inferred.shape, spec.np_dtype)  # spec.shape, which it equals
    if inferred.dtype.kind == "f" and not dtype.is_inexact:
        # NumPy reads ints that fit neither int64 nor uint64 together ([-1, 2**63]) as floats;
        # look at the values themselves before calling them floats.
        objects = np.asarray(value, dtype=object)
        if all(isinstance(v, numbers.Integral) for v in objects.flat):
            inferred = objects
    kind = _python_kind(inferred)
    if kind == "other":
        raise _kind_error(where, spec, f"values of NumPy kind {inferred.dtype}")
    if not _accepts(dtype, kind):
        raise _kind_error(where, spec, _KIND_WORDS[kind])
    found = misfit(inferred, dtype, underflow=True)
    if found is not None:
        raise _range_error(where, spec, found[0], found[1])
    try:
        with np.errstate(over="ignore", under="ignore", invalid="ignore"):
            return np.array(inferred.tolist() if inferred.dtype == object else inferred, dtype=spec.np_dtype)
    except (OverflowError, ValueError, TypeError) as e:
        raise _range_error(where, spec, value, str(e)) from None


def convert_input(value: "Argument", spec: TensorSpec, index: int,
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


def check_device_array(value: "jax.Array", spec: TensorSpec, index: int, name: str | None) -> "jax.Array":
    """A ``jax.Array`` argument, checked against ``spec`` (dtype, shape) and alive; it is not copied.

    Checked here, before any of jaxlib's code sees it: ``execute_sharded`` crashes the process on a
    deleted buffer or a wrong dtype, and jaxlib's dispatcher raises on a deleted one mid-call."""
    where = describe_input(index, name)
    var = name if name is not None and name.isidentifier() else "x"
    if value.is_deleted():
        raise InputArrayError(
            f"{where}: the jax.Array has been deleted (donated to an earlier call whose module aliases it "
            f"to an output, or .delete()-d); pass a live array.", index=index, name=name, expected=spec,
            got="a deleted jax.Array")
    dtype_ok = value.dtype == spec.np_dtype
    if dtype_ok and value.shape == spec.shape:
        return value
    got = f"{_np_dtype_name(value.dtype)}{_shape_text(value.shape)}"
    if not dtype_ok:
        raise InputDTypeError(
            f"{where}: expected {spec}, got a jax.Array of {got}; latticecast does not cast implicitly; convert "
            f"explicitly with {var}.astype({np_spelling(spec.dtype)})"
            + (f" and pass an array of shape {_shape_text(spec.shape)}." if value.shape != spec.shape else "."),
            index=index, name=name, expected=spec, got=got)
    raise InputShapeError(
        f"{where}: expected shape {_shape_text(spec.shape)} ({spec}), got a jax.Array of shape "
        f"{_shape_text(value.shape)} ({got}); pass an array of shape {_shape_text(spec.shape)} (the runtime "
        f"does not broadcast).", index=index, name=name, expected=spec, got=got)


def check_donations(arrays: "Sequence[jax.Array | np.ndarray]", donated: Sequence[int],
                    names: Sequence[str] | None) -> None:
    """Refuse a ``jax.Array`` passed to a donated input and, in the same call, to another input: the
    executable would free its buffer while still reading it (PJRT reports that on one device, and
    crashes the process on several). ``arrays`` are the checked arguments."""
    if all(isinstance(arrays[i], np.ndarray) for i in donated):
        return  # private copies: donating them is harmless

    def buffer(a: "jax.Array | np.ndarray") -> int | None:
        return None if isinstance(a, np.ndarray) else (
            a.addressable_data(0).unsafe_buffer_pointer() if a.sharding.addressable_devices else id(a))

    keys = [buffer(a) for a in arrays]
    for i in donated:
        j = next((j for j, k in enumerate(keys) if keys[i] is not None and j != i and k == keys[i]), None)
        if j is not None:
            raise InputArrayError(
                f"{describe_input(i, names[i] if names else None)} is donated (the module gives its buffer to an "
                f"output: {'/'.join(DONATION_ATTRS)}), and the same jax.Array's buffer is also "
                f"{describe_input(j, names[j] if names else None)}; the call would free it while reading it. Pass a "
                f"copy to one of them (jnp.copy(x)).", index=i, name=names[i] if names else None)


def _convert_input(value: "Argument", spec: TensorSpec, where: str, var: str) -> tuple[np.ndarray, bool]:
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

