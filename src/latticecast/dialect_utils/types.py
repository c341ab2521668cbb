"""DType <-> MLIR types: element types, ranked tensor types, and dense constants.

Looking a type up by ``str`` or rebuilding it per op is slow at a million ops,
so each context gets one :class:`TypeCache` that builds every element type once
and maps MLIR types back to dtypes by identity (MLIR types are uniqued, so
``==`` and ``hash`` are pointer operations).
"""

from __future__ import annotations

import weakref
from typing import Sequence

import numpy as np
from jaxlib.mlir import ir

from ..dtypes import DType

__all__ = ["TypeCache", "type_cache", "ADDRESS_TYPE"]

ADDRESS_TYPE = "!latticecast.address"


def _element_type(dtype: DType) -> ir.Type:
    """Build the MLIR element type of ``dtype`` in the current context."""
    info = dtype.info
    if dtype is DType.bool:
        return ir.IntegerType.get_signless(1)
    if dtype is DType.index:
        return ir.IndexType.get()
    if dtype is DType.address:
        return ir.Type.parse(ADDRESS_TYPE)
    if dtype.is_integral:
        return (ir.IntegerType.get_unsigned(info.bits) if info.mlir.startswith("ui")
                else ir.IntegerType.get_signless(info.bits))
    if dtype.is_complex:
        return ir.ComplexType.get(ir.F32Type.get() if dtype is DType.complex64 else ir.F64Type.get())
    return {
        DType.float16: ir.F16Type.get, DType.bfloat16: ir.BF16Type.get, DType.float32: ir.F32Type.get,
        DType.float64: ir.F64Type.get, DType.tensor_float32: ir.FloatTF32Type.get,
    }[dtype]()


class TypeCache:
    """Element and tensor types of one context, built once and looked up both ways."""

    def __init__(self, context: ir.Context) -> None:
        self.context = context
        with context, ir.Location.unknown():
            self.element: dict[DType, ir.Type] = {d: _element_type(d) for d in DType}
        self._dtype_of_element: dict[ir.Type, DType] = {t: d for d, t in self.element.items()}
        self._tensors: dict[tuple[DType, tuple[int, ...]], ir.RankedTensorType] = {}
        self._tensor_info: dict[ir.Type, tuple[DType, tuple[int, ...]]] = {}

    def tensor(self, dtype: DType, shape: Sequence[int]) -> ir.RankedTensorType:
        key = (dtype, tuple(shape))
        t = self._tensors.get(key)
        if t is None:
            with self.context, ir.Location.unknown():
                t = ir.RankedTensorType.get(list(key[1]), self.element[dtype])
            self._tensors[key] = t
            self._tensor_info[t] = key
        return t

    def dtype_of_element(self, element: ir.Type) -> DType:
        found = self._dtype_of_element.get(element)
        if found is None:
            raise TypeError(f"element type {element} has no latticecast dtype; supported: "
                            + ", ".join(d.mlir_name for d in DType))
        return found

    def tensor_info(self, t: ir.Type) -> tuple[DType, tuple[int, ...]]:
        """(dtype, shape) of a ranked tensor type; raises TypeError for anything else."""
        found = self._tensor_info.get(t)
        if found is not None:
            return found
        if t.typeid != ir.RankedTensorType.static_typeid:
            raise TypeError(f"{t} is not a ranked tensor type")
        rt = ir.RankedTensorType(t)
        if not rt.has_static_shape:
            raise TypeError(f"{t} has a dynamic shape; latticecast handles static shapes only")
        info = (self.dtype_of_element(rt.element_type), tuple(rt.shape))
        self._tensor_info[t] = info
        self._tensors.setdefault(info, rt)
        return info

    def dense_attr(self, values: "np.ndarray | np.generic", dtype: DType, shape: Sequence[int]) -> ir.Attribute:
        """A dense elements attribute of ``dtype`` and ``shape``: ``values`` has that shape, or one
        element, which becomes a splat (as MLIR stores broadcast literals).

        ``tensor_float32`` and ``address`` have no dense attributes in MLIR; constants of those
        dtypes are built in their host storage type and converted (see the graph builder).
        """
        if dtype in (DType.tensor_float32, DType.address):
            raise TypeError(f"MLIR has no dense constants of {dtype.name}; build it as "
                            f"{dtype.np_dtype} and convert")
        array = np.ascontiguousarray(values, dtype=dtype.np_dtype)
        with self.context, ir.Location.unknown():
            if array.size == 1:  # a one-element buffer with a shape is a splat
                return ir.DenseElementsAttr.get(array.reshape(1), type=self.element[dtype], shape=list(shape))
            if array.shape != tuple(shape):
                raise ValueError(f"constant of shape {array.shape} does not have shape {tuple(shape)}")
            return ir.DenseElementsAttr.get(array, type=self.element[dtype], shape=list(shape))


_CACHES: "weakref.WeakKeyDictionary[ir.Context, TypeCache]" = weakref.WeakKeyDictionary()


def type_cache(context: ir.Context) -> TypeCache:
    """The type cache of ``context``."""
    try:
        cache = _CACHES.get(context)
    except TypeError:  # contexts that cannot be weakly referenced
        cache = None
    if cache is None:
        cache = TypeCache(context)
        try:
            _CACHES[context] = cache
        except TypeError:
            pass
    return cache
