"""Element types, their kinds and widths, and every spelling the seed systems use.

This module is the vocabulary of the promotion layer. It names each dtype once,
records what it *is* (kind, bit width, signedness) and how each neighbouring system
spells it: NumPy / ``ml_dtypes`` on the host, MLIR in the IR, and the short codes
of the seed documents (JAX's ``s2``/``u4``/``bf``, anvil's ``i16``/``ui16``, the
Array API's ``i2``/``f4``).

Three dtypes have no exact NumPy counterpart; each is *stored* on the host as the
NumPy dtype that holds all of its values:

=================  ==================  ===========================================
dtype              host storage        why
=================  ==================  ===========================================
``index``          ``numpy.uint64``    MAX: an unsigned word-size integer (size_t);
                                       MLIR spells it ``index``.
``address``        ``numpy.uint64``    MAX: an unsigned word-size integer used for
                                       pointers; MLIR has no builtin type for it,
                                       latticecast spells it ``!latticecast.address``.
``tensor_float32`` ``numpy.float32``   NVIDIA's TF32: float32's 8-bit exponent with
                                       a 10-bit mantissa; MLIR spells it ``tf32``.
=================  ==================  ===========================================

The module imports nothing from MLIR: the MLIR spellings are plain strings.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Iterable

import ml_dtypes
import numpy as np

__all__ = ["DType", "DTypeInfo", "Kind", "UnknownDTypeError"]


class Kind(str, enum.Enum):
    """The category of a dtype, in the order of Python's own ``bool < int < float < complex``."""

    BOOL = "bool"
    UNSIGNED = "unsigned"
    SIGNED = "signed"
    FLOAT = "float"
    COMPLEX = "complex"

    @property
    def code(self) -> str:
        """NumPy's one-letter kind code (``b``, ``u``, ``i``, ``f``, ``c``)."""
        return {"bool": "b", "unsigned": "u", "signed": "i", "float": "f", "complex": "c"}[self.value]


class UnknownDTypeError(ValueError):
    """A dtype name that no seed system uses. The message lists the valid names."""


@dataclass(frozen=True)
class DTypeInfo:
    """Everything the promotion layer knows about one dtype.

    ``bits`` is the storage width; for complex types it is the width of the pair
    (``complex64`` is 64). ``mantissa_bits`` and ``max_finite`` describe floats
    (the real part, for complex) so that literal range checks and lossy-promotion
    diagnostics need no lookup tables of their own.
    """

    name: str
    kind: Kind
    bits: int
    host: np.dtype
    mlir: str
    bytes_code: str  # JAX / NumPy / Array API code: kind letter and byte count ("i2", "f4", "c8", "bf")
    bits_code: str  # design-note / anvil / MLIR-ish code: kind letter and bit count ("i16", "ui16", "f32")
    exact_host: bool = True
    mantissa_bits: int = 0
    exponent_bits: int = 0
    max_finite: float = 0.0


class DType(enum.Enum):
    """An element type. Member names are the MAX/NumPy names (``DType.int16``)."""

    bool = "bool"
    int8 = "int8"
    int16 = "int16"
    int32 = "int32"
    int64 = "int64"
    uint8 = "uint8"
    uint16 = "uint16"
    uint32 = "uint32"
    uint64 = "uint64"
    index = "index"
    address = "address"
    float16 = "float16"
    bfloat16 = "bfloat16"
    float32 = "float32"
    tensor_float32 = "tensor_float32"
    float64 = "float64"
    complex64 = "complex64"
    complex128 = "complex128"

    # -- identity -------------------------------------------------------------------

    def __repr__(self) -> str:
        return f"DType.{self.name}"

    # Members are singletons, so identity is equality; the C-level hash keeps the pass's
    # caches (keyed by dtype) cheap at a million ops. Enum's own hashes the name in Python.
    __hash__ = object.__hash__

    def __str__(self) -> str:
        return self.name

    @property
    def info(self) -> DTypeInfo:
        return _INFO[self]

    @property
    def kind(self) -> Kind:
        return _INFO[self].kind

    @property
    def bitwidth(self) -> int:
        return _INFO[self].bits

    @property
    def itemsize(self) -> int:
        """Bytes per element on the host (``index``/``address`` are 8, ``tensor_float32`` is 4)."""
        return _INFO[self].host.itemsize

    @property
    def is_bool(self) -> bool:
        return self.kind is Kind.BOOL

    @property
    def is_integral(self) -> bool:
        return self.kind in (Kind.SIGNED, Kind.UNSIGNED)

    @property
    def is_signed(self) -> bool:
        return self.kind in (Kind.SIGNED, Kind.FLOAT, Kind.COMPLEX)

    @property
    def is_float(self) -> bool:
        return self.kind is Kind.FLOAT

    @property
    def is_complex(self) -> bool:
        return self.kind is Kind.COMPLEX

    @property
    def is_inexact(self) -> bool:
        return self.kind in (Kind.FLOAT, Kind.COMPLEX)

    # -- spellings ------------------------------------------------------------------

    @property
    def np_dtype(self) -> np.dtype:
        """The NumPy (or ``ml_dtypes``) dtype that stores this dtype on the host.

        Exact for every dtype but ``index``/``address`` (stored as ``uint64``) and
        ``tensor_float32`` (stored as ``float32``): see :attr:`has_exact_host_dtype`.
        """
        return _INFO[self].host

    @property
    def has_exact_host_dtype(self) -> bool:
        return _INFO[self].exact_host

    @property
    def mlir_name(self) -> str:
        """The MLIR element type as text: ``i1``, ``i16``, ``ui16``, ``index``, ``tf32``, ``complex<f32>``."""
        return _INFO[self].mlir

    @property
    def short(self) -> str:
        """The design note's code (``b``, ``i16``, ``u8``, ``bf16``, ``c64``), used in tables."""
        return _SHORT[self]

    # -- numeric facts ------------------------------------------------------------------

    @property
    def min_value(self) -> int | float:
        return _limits(self)[0]

    @property
    def max_value(self) -> int | float:
        return _limits(self)[1]

    @property
    def mantissa_bits(self) -> int:
        """Explicit mantissa bits of a float (of the real part for complex); 0 for others."""
        return _INFO[self].mantissa_bits

    @property
    def exponent_bits(self) -> int:
        return _INFO[self].exponent_bits

    # -- parsing ----------------------------------------------------------------------

    @classmethod
    def parse(cls, name: "str | DType | np.dtype | type", *, notation: str = "bits") -> "DType":
        """Return the dtype a name stands for, in any seed's spelling.

        Accepted: the canonical names (``int16``, ``tensor_float32``), NumPy names
        and dtypes (``np.int16``, ``bool_``), MLIR types (``i16``, ``ui16``, ``si16``,
        ``f32``, ``tf32``, ``index``, ``complex<f32>``), JAX's table codes (``b1``,
        ``s2``, ``u4``, ``bf``, ``f2``, ``c8``), anvil's (``i1``, ``ui8``, ``f64``)
        and the design note's (``b``, ``u16``, ``bf16``, ``c128``).

        Three codes mean different things in different seeds: ``i1`` (bool in MLIR
        and anvil, int8 in JAX's byte codes), ``i8`` (int8 / int64) and ``u8``
        (uint8 / uint64). ``notation="bits"`` (the default: MLIR, anvil, the JAX
        design note) reads them as bit counts; ``notation="bytes"`` (JAX's
        promotion table, the Array API issue) as byte counts. Every other code is
        unambiguous and is accepted in both notations.
        """
        if isinstance(name, DType):
            return name
        if notation not in ("bits", "bytes"):
            raise ValueError(f"notation must be 'bits' or 'bytes', not {notation!r}")
        if not isinstance(name, str):
            return cls._from_numpy(name)
        key = name.strip()
        if key.startswith("DType."):
            key = key[len("DType."):]
        table = _BYTES_NAMES if notation == "bytes" else _BITS_NAMES
        found = table.get(key) or table.get(key.lower())
        if found is None:
            raise UnknownDTypeError(
                f"unknown dtype {name!r}; valid names are: {', '.join(valid_dtype_names())}"
            )
        return found

    @classmethod
    def _from_numpy(cls, obj: object) -> "DType":
        try:
            np_dtype = np.dtype(obj)  # type: ignore[call-overload]
        except TypeError:
            raise UnknownDTypeError(
                f"cannot interpret {obj!r} as a dtype; valid names are: {', '.join(valid_dtype_names())}"
            ) from None
        for dtype in cls:
            if _INFO[dtype].exact_host and _INFO[dtype].host == np_dtype:
                return dtype
        raise UnknownDTypeError(f"NumPy dtype {np_dtype} has no latticecast dtype")

    @classmethod
    def from_mlir(cls, text: str) -> "DType":
        """Inverse of :attr:`mlir_name` (also accepts ``si16``)."""
        found = _MLIR_NAMES.get(text)
        if found is None:
            raise UnknownDTypeError(f"MLIR element type {text} has no latticecast dtype")
        return found


def _float_info(name: str, bits: int, host: np.dtype, mlir: str, bytes_code: str, bits_code: str,
                exact_host: bool = True, mantissa: int | None = None) -> DTypeInfo:
    finfo = ml_dtypes.finfo(host)
    return DTypeInfo(
        name, Kind.FLOAT, bits, np.dtype(host), mlir, bytes_code, bits_code, exact_host,
        mantissa_bits=finfo.nmant if mantissa is None else mantissa,
        exponent_bits=finfo.nexp,
        max_finite=float(finfo.max),
    )


def _int_info(name: str, kind: Kind, bits: int, mlir: str, bytes_code: str, bits_code: str,
              host: str | None = None) -> DTypeInfo:
    return DTypeInfo(name, kind, bits, np.dtype(host or name), mlir, bytes_code, bits_code,
                     exact_host=host is None)


_INFO: dict[DType, DTypeInfo] = {
    DType.bool: DTypeInfo("bool", Kind.BOOL, 1, np.dtype(np.bool_), "i1", "b1", "i1"),
    DType.int8: _int_info("int8", Kind.SIGNED, 8, "i8", "i1", "i8"),
    DType.int16: _int_info("int16", Kind.SIGNED, 16, "i16", "i2", "i16"),
    DType.int32: _int_info("int32", Kind.SIGNED, 32, "i32", "i4", "i32"),
    DType.int64: _int_info("int64", Kind.SIGNED, 64, "i64", "i8", "i64"),
    DType.uint8: _int_info("uint8", Kind.UNSIGNED, 8, "ui8", "u1", "ui8"),
    DType.uint16: _int_info("uint16", Kind.UNSIGNED, 16, "ui16", "u2", "ui16"),
    DType.uint32: _int_info("uint32", Kind.UNSIGNED, 32, "ui32", "u4", "ui32"),
    DType.uint64: _int_info("uint64", Kind.UNSIGNED, 64, "ui64", "u8", "ui64"),
    DType.index: _int_info("index", Kind.UNSIGNED, 64, "index", "index", "index", host="uint64"),
    DType.address: _int_info("address", Kind.UNSIGNED, 64, "!latticecast.address", "address",
                             "address", host="uint64"),
    DType.float16: _float_info("float16", 16, np.float16, "f16", "f2", "f16"),
    DType.bfloat16: _float_info("bfloat16", 16, ml_dtypes.bfloat16, "bf16", "bf", "bf16"),
    DType.float32: _float_info("float32", 32, np.float32, "f32", "f4", "f32"),
    DType.tensor_float32: _float_info("tensor_float32", 19, np.float32, "tf32", "tf32", "tf32",
                                      exact_host=False, mantissa=10),
    DType.float64: _float_info("float64", 64, np.float64, "f64", "f8", "f64"),
    DType.complex64: DTypeInfo("complex64", Kind.COMPLEX, 64, np.dtype(np.complex64), "complex<f32>",
                               "c4", "c64", mantissa_bits=23, exponent_bits=8,
                               max_finite=float(np.finfo(np.float32).max)),
    DType.complex128: DTypeInfo("complex128", Kind.COMPLEX, 128, np.dtype(np.complex128),
                                "complex<f64>", "c8", "c128", mantissa_bits=52, exponent_bits=11,
                                max_finite=float(np.finfo(np.float64).max)),
}

_SHORT: dict[DType, str] = {
    DType.bool: "b", DType.int8: "i8", DType.int16: "i16", DType.int32: "i32", DType.int64: "i64",
    DType.uint8: "u8", DType.uint16: "u16", DType.uint32: "u32", DType.uint64: "u64",
    DType.index: "index", DType.address: "address", DType.float16: "f16", DType.bfloat16: "bf16",
    DType.float32: "f32", DType.tensor_float32: "tf32", DType.float64: "f64",
    DType.complex64: "c64", DType.complex128: "c128",
}


def _limits(dtype: DType) -> tuple[int | float, int | float]:
    info = _INFO[dtype]
    if info.kind is Kind.BOOL:
        return 0, 1
    if info.kind is Kind.SIGNED:
        return -(1 << (info.bits - 1)), (1 << (info.bits - 1)) - 1
    if info.kind is Kind.UNSIGNED:
        return 0, (1 << info.bits) - 1
    return -info.max_finite, info.max_finite


def _names() -> tuple[dict[str, DType], dict[str, DType]]:
    """Build the two name tables. Only ``i1``, ``i8`` and ``u8`` differ between them."""
    common: dict[str, DType] = {}

    def add(names: Iterable[str], dtype: DType) -> None:
        for n in names:
            common[n] = dtype

    for d in DType:
        info = _INFO[d]
        add([d.value, info.mlir, info.bits_code, info.bytes_code, _SHORT[d]], d)
        if info.exact_host:
            add([np.dtype(info.host).name], d)
    # NumPy, JAX, MAX and anvil aliases.
    add(["bool_", "b", "b1", "pred"], DType.bool)
    add(["s1", "si8"], DType.int8)
    add(["s2", "si16"], DType.int16)
    add(["s4", "si32"], DType.int32)
    add(["s8", "si64"], DType.int64)
    add(["u1"], DType.uint8)
    add(["u2"], DType.uint16)
    add(["u4"], DType.uint32)
    add(["!latticecast.address"], DType.address)
    add(["f2", "half"], DType.float16)
    add(["bf"], DType.bfloat16)
    add(["f4", "single"], DType.float32)
    add(["tensor_float_32"], DType.tensor_float32)
    add(["f8", "double"], DType.float64)
    add(["c4"], DType.complex64)
    add(["c8"], DType.complex128)
    bits = dict(common)
    bits.update({"i1": DType.bool, "i8": DType.int8, "u8": DType.uint8})
    byte = dict(common)
    byte.update({"i1": DType.int8, "i8": DType.int64, "u8": DType.uint64})
    return bits, byte


_BITS_NAMES, _BYTES_NAMES = _names()
_MLIR_NAMES: dict[str, DType] = {info.mlir: d for d, info in _INFO.items()}
_MLIR_NAMES.update({f"si{b}": DType.parse(f"int{b}") for b in (8, 16, 32, 64)})


def valid_dtype_names() -> list[str]:
    """The canonical names, in declaration order (used in error messages)."""
    return [d.value for d in DType]
