"""Read the values of a ``stablehlo.constant`` back into NumPy (to re-type weak constants)."""

from __future__ import annotations

import re

import numpy as np
from jaxlib.mlir import ir

from ..promotion.dtypes import DType

__all__ = ["dense_values", "constant_values"]

_COMPLEX = re.compile(r"\(([^,()]+),([^,()]+)\)")
_DENSE = re.compile(r"value = dense<(.*?)> :")


def constant_values(op: ir.Operation, dtype: DType, shape: tuple[int, ...]) -> np.ndarray:
    """The values of a ``stablehlo.constant`` op.

    jaxlib's bindings cannot hand out a complex dense attribute at all (reading it raises
    "Can't cast unknown element type"), so complex constants are read from the op's text.
    """
    if not dtype.is_complex:
        return dense_values(op.attributes["value"], dtype, shape)
    text = str(op.get_asm(print_generic_op_form=True))  # object in the stubs (bytes when binary)
    m = _DENSE.search(text)
    if m is None:
        raise ValueError(f"cannot read the value of {text.strip()}")
    pairs = _COMPLEX.findall(m.group(1))
    values = np.array([complex(float(re_), float(im)) for re_, im in pairs], dtype=dtype.np_dtype)
    if values.size == 1:  # a splat, for any shape (a scalar's too)
        return np.full(shape, values[0], dtype=values.dtype)
    return values.reshape(shape)


def dense_values(attr: ir.Attribute, dtype: DType, shape: tuple[int, ...]) -> np.ndarray:
    """The elements of a dense attribute as an array of ``dtype``'s host dtype and ``shape``."""
    dense = ir.DenseElementsAttr(attr)
    host = dtype.np_dtype
    if dense.is_splat:
        scalar = _scalar(dense.get_splat_value(), dtype)
        return np.full(shape, scalar, dtype=host)
    if dtype.is_complex:
        pairs = _COMPLEX.findall(str(dense))
        values = np.array([complex(float(re_), float(im)) for re_, im in pairs], dtype=host)
        return values.reshape(shape)
    if host.type.__module__ != "numpy":  # bfloat16, float8/6/4, int2/int4: the bindings cannot read them
        return _from_text(str(dense), host).reshape(shape)
    return np.array(dense).astype(host, copy=False).reshape(shape)


_HEX = re.compile(r'dense<"0x([0-9A-Fa-f]*)">')


def _from_text(text: str, host: np.dtype) -> np.ndarray:
    """The elements of a dense attribute of an ``ml_dtypes`` type, from its printed form: MLIR prints
    a large attribute as hex bytes, one element per ``host.itemsize`` bytes (as ml_dtypes stores it),
    and a small one as decimal numbers that round-trip to the element type."""
    hexed = _HEX.match(text)
    if hexed:
        return np.frombuffer(bytes.fromhex(hexed.group(1)), dtype=host).copy()
    body = text[text.index("<") + 1:text.rindex(">", 0, text.index(" : "))]
    numbers = [float(v) for v in body.replace("[", " ").replace("]", " ").replace(",", " ").split()]
    if host.kind == "V" and "int" in host.name:
        return np.array([int(v) for v in numbers], dtype=np.int64).astype(host)
    return np.array(numbers, dtype=np.float64).astype(host)


def _scalar(attr: ir.Attribute, dtype: DType) -> object:
    if dtype.is_complex:
        parts = ir.ArrayAttr(attr)
        return complex(ir.FloatAttr(parts[0]).value, ir.FloatAttr(parts[1]).value)
    if dtype is DType.bool:
        return attr.value if isinstance(attr, ir.BoolAttr) else bool(ir.IntegerAttr(attr).value)
    if dtype.is_inexact:
        return ir.FloatAttr(attr).value
    value = ir.IntegerAttr(attr).value
    if dtype.is_unsigned and value < 0:  # IntegerAttr.value reads ui64 as signed
        value += 1 << dtype.bitwidth
    return value
