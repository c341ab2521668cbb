"""DType <-> MLIR types: element types, ranked tensor types, and dense constants.

Looking a type up by ``str`` or rebuilding it per op is slow at a million ops, so
each context gets one :class:`TypeCache` that builds each type it is asked for once
and maps MLIR types back to dtypes by identity (MLIR types are uniqued, so ``==``
and ``hash`` are pointer operations). Nothing is built before it is needed: in
particular the ``!latticecast.address`` type, which only a context that allows
unregistered dialects can hold, exists only where a module uses MAX's ``address``.

Shapes may be dynamic: a dimension of ``None`` (or a symbolic one, ``"batch"``) is MLIR's ``?``.
"""

from __future__ import annotations

import weakref
from typing import Callable, Sequence, cast

import numpy as np
from jaxlib.mlir import ir

from ..promotion.dtypes import DType, NoStableHLOTypeError, UnknownDTypeError

__all__ = ["TypeCache", "type_cache", "Shape", "static_shape"]

Shape = tuple["int | None", ...]
"""A tensor shape; ``None`` is a dynamic dimension."""


def static_shape(shape: Shape) -> tuple[int, ...] | None:
    """``shape`` if every dimension is static, else ``None``."""
    sizes = tuple(d for d in shape if d is not None)
    return sizes if len(sizes) == len(shape) else None

_DYNAMIC = ir.ShapedType.get_dynamic_size()


def dense_elements(array: np.ndarray, **kwargs: object) -> ir.DenseElementsAttr:
    """``ir.DenseElementsAttr.get`` of a NumPy array. jaxlib's stubs type the buffer argument as
    ``collections.abc.Buffer`` (which an ``ndarray`` is only to Python 3.12's typing) and, before
    jaxlib 0.12, the result as ``Any``; typed here once, the same on every supported stack."""
    get = cast(Callable[..., object], ir.DenseElementsAttr.get)
    return cast(ir.DenseElementsAttr, get(array, **kwargs))


class TypeCache:
    """Element and tensor types of one context, built once and looked up both ways."""

    def __init__(self, context: ir.Context) -> None:
        self.context = context
        self._elements: dict[DType, ir.Type] = {}
        self._dtype_of_element: dict[ir.Type, DType | None] = {}
        self._tensors: dict[tuple[DType, tuple[object, ...]], ir.RankedTensorType] = {}
        self._tensor_info: dict[ir.Type, tuple[DType, Shape]] = {}
        self._retyped: dict[tuple[ir.Type, DType], ir.Type] = {}

    def element(self, dtype: DType) -> ir.Type:
        """The MLIR element type of ``dtype``.

        Raises :class:`~latticecast.promotion.dtypes.NoStableHLOTypeError` (a ``TypeError``) for ``int1`` and
        ``uint1``, which StableHLO cannot hold: every IR layer builds its types here, so each
        refuses them with the reason and the dtype to use instead.
        """
        t = self._elements.get(dtype)
        if t is None:
            if not dtype.in_stablehlo:
                raise NoStableHLOTypeError(dtype.stablehlo_gap)
            with self.context, ir.Location.unknown():
                try:
                    t = ir.Type.parse(dtype.mlir_name)
                except ir.MLIRError:
                    raise TypeError(f"this MLIR context cannot hold {dtype.name} ({dtype.mlir_name}): "
                                    "it needs a context that allows unregistered dialects") from None
            self._elements[dtype] = t
            self._dtype_of_element[t] = dtype
        return t

    @property
    def built_elements(self) -> frozenset[DType]:
        """The dtypes whose element type this cache has built in its context so far."""
        return frozenset(self._elements)

    def tensor(self, dtype: DType, shape: Sequence[object]) -> ir.RankedTensorType:
        """The ranked tensor type of ``dtype`` and ``shape``: a dimension that is not an integer
        (``None``, or a graph's symbolic dimension such as ``"batch"``) is dynamic, MLIR's ``?``."""
        key = (dtype, tuple(shape))
        t = self._tensors.get(key)
        if t is None:
            dims = [int(d) if isinstance(d, (int, np.integer)) else _DYNAMIC for d in key[1]]
            with self.context, ir.Location.unknown():
                t = ir.RankedTensorType.get(dims, self.element(dtype))
            self._tensors[key] = t
            self._tensor_info.setdefault(t, (dtype, tuple(None if d == _DYNAMIC else d for d in dims)))
        return t

    def dtype_of_element(self, element: ir.Type) -> DType:
        try:
            found = self._dtype_of_element[element]
        except KeyError:
            try:
                found = DType.from_mlir(str(element))
            except UnknownDTypeError:
                found = None
            self._dtype_of_element[element] = found
        if found is None:
            raise TypeError(f"element type {element} has no latticecast dtype; supported: "
                            + ", ".join(d.mlir_name for d in DType if d.in_stablehlo))
        return found

    def tensor_info(self, t: ir.Type) -> tuple[DType, Shape]:
        """(dtype, shape) of a ranked tensor type (``None`` for dynamic dimensions); raises TypeError
        for anything else."""
        found = self._tensor_info.get(t)
        if found is not None:
            return found
        if t.typeid != ir.RankedTensorType.static_typeid:
            raise TypeError(f"{t} is not a ranked tensor type")
        rt = ir.RankedTensorType(t)
        shape = tuple(None if rt.is_dynamic_dim(i) else rt.get_dim_size(i) for i in range(rt.rank))
        info = (self.dtype_of_element(rt.element_type), shape)
        self._tensor_info[t] = info
        return info

    def with_element(self, t: ir.Type, dtype: DType) -> ir.Type:
        """``t`` (a ranked tensor type) with ``dtype`` as its element type, keeping its shape,
        dynamic dimensions and encoding."""
        key = (t, dtype)
        found = self._retyped.get(key)
        if found is None:
            rt = ir.RankedTensorType(t)
            with self.context, ir.Location.unknown():
                found = ir.RankedTensorType.get(rt.shape, self.element(dtype), rt.encoding)
            self._retyped[key] = found
        return found

    def dense_attr(self, values: "np.ndarray | np.generic", dtype: DType, shape: Sequence[int]) -> ir.Attribute:
        """A dense elements attribute of ``dtype`` and ``shape``: ``values`` has that shape, or one
        element, which becomes a splat (as MLIR stores broadcast literals).

        Dtypes without dense constants (:attr:`DType.has_dense_constants`) are refused: their
        constants are built in :attr:`DType.stored_as` and converted.
        """
        if not dtype.has_dense_constants:
            raise TypeError(f"MLIR has no dense constants of {dtype.name}; build it as "
                            f"{dtype.stored_as.name} and convert")
        array = np.ascontiguousarray(values, dtype=dtype.np_dtype)
        with self.context, ir.Location.unknown():
            if array.size == 1:  # a one-element buffer with a shape is a splat
                return dense_elements(array.reshape(1), type=self.element(dtype), shape=list(shape))
            if array.shape != tuple(shape):
                raise ValueError(f"constant of shape {array.shape} does not have shape {tuple(shape)}")
            return dense_elements(array, type=self.element(dtype), shape=list(shape))


_CACHES: "weakref.WeakKeyDictionary[ir.Context, TypeCache]" = weakref.WeakKeyDictionary()


def type_cache(context: ir.Context) -> TypeCache:
    """The type cache of ``context`` (kept as long as the context lives)."""
    cache = _CACHES.get(context)
    if cache is None:
        cache = _CACHES[context] = TypeCache(context)
    return cache
