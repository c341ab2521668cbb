"""Element types: one table of facts per dtype, and every spelling the seed systems use.

This module is the vocabulary of the promotion layer and the single home of every
fact about a dtype: its kind and width, the NumPy / ``ml_dtypes`` dtype that holds
it on the host, its MLIR spelling, its finite range and precision, and the short
codes of the seed documents (JAX's ``s2``/``u4``/``bf``, anvil's ``i16``/``ui16``,
the Array API's ``i2``/``f4``). Nothing else in latticecast keeps a list of dtypes
with a property: it asks the table (``DType.int8.info``).

Three dtypes exist only in MAX and in latticecast's IR. PJRT has no buffers for
them and MLIR has no dense constants for two of them, so each is *stored as* the
dtype that holds all of its values (:attr:`DType.stored_as`); the ``lower-dtypes``
pass rewrites them to that dtype before anything runs:

=================  ==============  ============================================
dtype              stored as       why
=================  ==============  ============================================
``index``          ``uint64``      MAX: an unsigned word-size integer (size_t);
                                   MLIR spells it ``index``.
``address``        ``uint64``      MAX: an unsigned word-size integer used for
                                   pointers; MLIR has no builtin type for it,
                                   latticecast spells it ``!latticecast.address``.
``tensor_float32`` ``float32``     NVIDIA's TF32: float32's 8-bit exponent with a
                                   10-bit mantissa; MLIR spells it ``tf32``.
=================  ==============  ============================================

Table notation. Three short codes mean different things in different seeds:
``i1`` (bool in MLIR and anvil, int8 in JAX's byte codes), ``i8`` (int8 / int64)
and ``u8`` (uint8 / uint64). :meth:`DType.parse` reads them as *bit* counts unless
told ``notation="bytes"``; an MLIR type string (:meth:`DType.from_mlir`) always
means the MLIR type.

The module imports nothing from MLIR: MLIR spellings are plain strings.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Iterable

import ml_dtypes
import numpy as np

__all__ = ["DType", "DTypeInfo", "Kind", "UnknownDTypeError", "DTypeLike", "valid_dtype_names"]


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
        return _KIND_CODES[self]

    @property
    def is_integer(self) -> bool:
        return self is Kind.SIGNED or self is Kind.UNSIGNED

    @property
    def is_inexact(self) -> bool:
        return self is Kind.FLOAT or self is Kind.COMPLEX


_KIND_CODES = {Kind.BOOL: "b", Kind.UNSIGNED: "u", Kind.SIGNED: "i", Kind.FLOAT: "f", Kind.COMPLEX: "c"}


class UnknownDTypeError(ValueError, TypeError):
    """A name or object that is no dtype latticecast knows. The message lists the valid names.

    A ``ValueError`` for a misspelt name and a ``TypeError`` for an object that is not a
    dtype at all (``None``, ``5``): either ``except`` clause catches it.
    """


@dataclass(frozen=True)
class DTypeInfo:
    """Every fact about one dtype.

    ``bits`` is the storage width; for complex types it is the width of the pair
    (``complex64`` is 64). ``stored_as`` names the dtype that stores this one on
    the host and in PJRT (itself, except for ``index``, ``address`` and
    ``tensor_float32``). ``dense_constants`` says whether MLIR can hold a dense
    constant of the type. For floats (the real part, for complex) ``mantissa_bits``,
    ``exponent_bits`` and ``max_finite`` come from ``ml_dtypes.finfo``, so range
    checks and lossy-promotion diagnostics need no tables of their own.
    """

    name: str
    kind: Kind
    bits: int
    host: np.dtype
    mlir: str
    bytes_code: str  # JAX / NumPy / Array API code: kind letter and byte count ("i2", "f4", "c8", "bf")
    bits_code: str  # design-note / anvil / MLIR-ish code: kind letter and bit count ("i16", "ui16", "f32")
    short: str  # the design note's table label ("b", "i16", "u8", "bf16", "c64")
    stored_as: str
    dense_constants: bool = True
    mantissa_bits: int = 0
    exponent_bits: int = 0
    max_finite: float = 0.0
    smallest_subnormal: float = 0.0


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
        return _INFO[self].kind is Kind.BOOL

    @property
    def is_integral(self) -> bool:
        return _INFO[self].kind.is_integer

    @property
    def is_signed(self) -> bool:
        """A signed *integer* (``int8`` .. ``int64``); floats are not counted, as in NumPy's kinds."""
        return _INFO[self].kind is Kind.SIGNED

    @property
    def is_unsigned(self) -> bool:
        """An unsigned integer (``uint8`` .. ``uint64``, ``index``, ``address``)."""
        return _INFO[self].kind is Kind.UNSIGNED

    @property
    def is_float(self) -> bool:
        return _INFO[self].kind is Kind.FLOAT

    @property
    def is_complex(self) -> bool:
        return _INFO[self].kind is Kind.COMPLEX

    @property
    def is_inexact(self) -> bool:
        return _INFO[self].kind.is_inexact

    # -- storage ------------------------------------------------------------------------

    @property
    def stored_as(self) -> "DType":
        """The dtype that holds this one on the host and in PJRT (itself for all but three)."""
        return _STORED_AS[self]

    @property
    def needs_lowering(self) -> bool:
        """True for ``index``, ``address`` and ``tensor_float32``: PJRT has no buffers of them,
        so the ``lower-dtypes`` pass rewrites them to :attr:`stored_as`."""
        return _STORED_AS[self] is not self

    @property
    def has_dense_constants(self) -> bool:
        """Whether MLIR can hold a dense constant of this type (``tf32`` and the address type
        cannot: such constants are built in :attr:`stored_as` and converted)."""
        return _INFO[self].dense_constants

    # -- spellings ------------------------------------------------------------------

    @property
    def np_dtype(self) -> np.dtype:
        """The NumPy (or ``ml_dtypes``) dtype that stores this dtype on the host.

        Exact for every dtype that does not :attr:`need lowering <needs_lowering>`.
        """
        return _INFO[self].host

    @property
    def has_exact_host_dtype(self) -> bool:
        return not self.needs_lowering

    @property
    def mlir_name(self) -> str:
        """The MLIR element type as text: ``i1``, ``i16``, ``ui16``, ``index``, ``tf32``, ``complex<f32>``."""
        return _INFO[self].mlir

    @property
    def short(self) -> str:
        """The design note's code (``b``, ``i16``, ``u8``, ``bf16``, ``c64``), used in tables."""
        return _INFO[self].short

    # -- numeric facts ------------------------------------------------------------------

    @property
    def min_value(self) -> int | float:
        return _LIMITS[self][0]

    @property
    def max_value(self) -> int | float:
        return _LIMITS[self][1]

    @property
    def mantissa_bits(self) -> int:
        """Explicit mantissa bits of a float (of the real part for complex); 0 for others."""
        return _INFO[self].mantissa_bits

    @property
    def exponent_bits(self) -> int:
        return _INFO[self].exponent_bits

    # -- parsing ----------------------------------------------------------------------

    @classmethod
    def parse(cls, name: "DTypeLike", *, notation: str = "bits") -> "DType":
        """Return the dtype ``name`` stands for, in any seed's spelling or as an object.

        Accepted names: the canonical names (``int16``, ``tensor_float32``), NumPy's
        names and type codes (``bool_``, ``B``), MLIR types (``i16``, ``ui16``,
        ``si16``, ``f32``, ``tf32``, ``index``, ``complex<f32>``), JAX's table codes
        (``b1``, ``s2``, ``u4``, ``bf``, ``f2``, ``c8``), anvil's (``i1``, ``ui8``,
        ``f64``) and the design note's (``b``, ``u16``, ``bf16``, ``c128``).
        Accepted objects: a :class:`DType`, NumPy dtypes and scalar types
        (``np.int16``), ``ml_dtypes`` types, JAX's (``jnp.int16``), and any dtype enum
        whose member names are dtype names (``max.dtype.DType.int16``).

        ``notation`` settles the three codes that differ between seeds (see the
        module's docstring): ``"bits"`` (the default) or ``"bytes"``.
        """
        if isinstance(name, DType):
            return name
        if notation not in ("bits", "bytes"):
            raise ValueError(f"notation must be 'bits' or 'bytes', not {notation!r}")
        if isinstance(name, str):
            return cls._from_name(name, notation)
        if name is None or isinstance(name, (bool, int, float, complex, bytes)):
            raise UnknownDTypeError(
                f"{name!r} is not a dtype; pass a DType, a dtype name such as 'int16', or a NumPy "
                f"or JAX dtype; valid names are: {', '.join(valid_dtype_names())}")
        if isinstance(name, enum.Enum) and not isinstance(name, np.dtype):
            # another library's dtype enum (MAX's max.dtype.DType): its member names are ours
            return cls._from_name(str(name.name), notation)
        return cls._from_numpy(name)

    @classmethod
    def _from_name(cls, name: str, notation: str) -> "DType":
        key = name.strip()
        if key.startswith("DType."):
            key = key[len("DType."):]
        table = _BYTES_NAMES if notation == "bytes" else _BITS_NAMES
        found = table.get(key)
        if found is None and key:
            try:  # NumPy's own names and type codes ('B' is uint8, '<f4' float32)
                found = cls._from_numpy(np.dtype(key))
            except (TypeError, ValueError):
                found = table.get(key.lower())
        if found is None:
            raise UnknownDTypeError(f"unknown dtype {name!r}; valid names are: {', '.join(valid_dtype_names())}")
        return found

    @classmethod
    def _from_numpy(cls, obj: object) -> "DType":
        try:
            np_dtype = np.dtype(obj)  # type: ignore[call-overload]
        except (TypeError, ValueError):
            raise UnknownDTypeError(
                f"cannot interpret {obj!r} as a dtype; valid names are: {', '.join(valid_dtype_names())}"
            ) from None
        found = _BY_HOST.get(np_dtype.newbyteorder("=") if np_dtype.byteorder not in "=|" else np_dtype)
        if found is None:
            raise UnknownDTypeError(f"NumPy dtype {np_dtype} has no latticecast dtype; valid names are: "
                                    f"{', '.join(valid_dtype_names())}")
        return found

    @classmethod
    def from_mlir(cls, text: str) -> "DType":
        """Inverse of :attr:`mlir_name` (also accepts ``si16``). ``i4`` is MLIR's 4-bit integer."""
        found = _MLIR_NAMES.get(text)
        if found is None:
            raise UnknownDTypeError(f"MLIR element type {text} has no latticecast dtype")
        return found


DTypeLike = Any
"""What :meth:`DType.parse` accepts: a DType, a name, or a NumPy/JAX/ml_dtypes/MAX dtype object."""


# -- the table ---------------------------------------------------------------------------------


def _float(name: str, bits: int, host: Any, mlir: str, bytes_code: str, bits_code: str, short: str,
           stored_as: str | None = None, mantissa: int | None = None, dense: bool = True) -> DTypeInfo:
    finfo = ml_dtypes.finfo(host)
    return DTypeInfo(name, Kind.FLOAT, bits, np.dtype(host), mlir, bytes_code, bits_code, short,
                     stored_as or name, dense, mantissa_bits=int(finfo.nmant if mantissa is None else mantissa),
                     exponent_bits=int(finfo.nexp), max_finite=float(finfo.max),
                     smallest_subnormal=float(finfo.smallest_subnormal))


def _complex(name: str, bits: int, host: Any, part: Any, mlir: str, bytes_code: str, short: str) -> DTypeInfo:
    finfo = np.finfo(part)
    return DTypeInfo(name, Kind.COMPLEX, bits, np.dtype(host), mlir, bytes_code, short, short, name,
                     mantissa_bits=int(finfo.nmant), exponent_bits=int(finfo.nexp), max_finite=float(finfo.max),
                     smallest_subnormal=float(finfo.smallest_subnormal))


def _int(name: str, kind: Kind, bits: int, mlir: str, bytes_code: str, bits_code: str, short: str,
         stored_as: str | None = None, dense: bool = True) -> DTypeInfo:
    host = np.dtype(stored_as or name)
    return DTypeInfo(name, kind, bits, host, mlir, bytes_code, bits_code, short, stored_as or name, dense)


_S, _U = Kind.SIGNED, Kind.UNSIGNED
_INFO: dict[DType, DTypeInfo] = {
    DType.bool: DTypeInfo("bool", Kind.BOOL, 1, np.dtype(np.bool_), "i1", "b1", "i1", "b", "bool"),
    DType.int8: _int("int8", _S, 8, "i8", "i1", "i8", "i8"),
    DType.int16: _int("int16", _S, 16, "i16", "i2", "i16", "i16"),
    DType.int32: _int("int32", _S, 32, "i32", "i4", "i32", "i32"),
    DType.int64: _int("int64", _S, 64, "i64", "i8", "i64", "i64"),
    DType.uint8: _int("uint8", _U, 8, "ui8", "u1", "ui8", "u8"),
    DType.uint16: _int("uint16", _U, 16, "ui16", "u2", "ui16", "u16"),
    DType.uint32: _int("uint32", _U, 32, "ui32", "u4", "ui32", "u32"),
    DType.uint64: _int("uint64", _U, 64, "ui64", "u8", "ui64", "u64"),
    DType.index: _int("index", _U, 64, "index", "index", "index", "index", stored_as="uint64"),
    DType.address: _int("address", _U, 64, "!latticecast.address", "address", "address", "address",
                        stored_as="uint64", dense=False),
    DType.float16: _float("float16", 16, np.float16, "f16", "f2", "f16", "f16"),
    DType.bfloat16: _float("bfloat16", 16, ml_dtypes.bfloat16, "bf16", "bf", "bf16", "bf16"),
    DType.float32: _float("float32", 32, np.float32, "f32", "f4", "f32", "f32"),
    DType.tensor_float32: _float("tensor_float32", 19, np.float32, "tf32", "tf32", "tf32", "tf32",
                                 stored_as="float32", mantissa=10, dense=False),
    DType.float64: _float("float64", 64, np.float64, "f64", "f8", "f64", "f64"),
    DType.complex64: _complex("complex64", 64, np.complex64, np.float32, "complex<f32>", "c4", "c64"),
    DType.complex128: _complex("complex128", 128, np.complex128, np.float64, "complex<f64>", "c8", "c128"),
}

_STORED_AS: dict[DType, DType] = {d: DType(info.stored_as) for d, info in _INFO.items()}


def _limits(info: DTypeInfo) -> tuple[int | float, int | float]:
    if info.kind is Kind.BOOL:
        return 0, 1
    if info.kind is Kind.SIGNED:
        return -(1 << (info.bits - 1)), (1 << (info.bits - 1)) - 1
    if info.kind is Kind.UNSIGNED:
        return 0, (1 << info.bits) - 1
    return -info.max_finite, info.max_finite


_LIMITS: dict[DType, tuple[int | float, int | float]] = {d: _limits(info) for d, info in _INFO.items()}

# A NumPy dtype names exactly one latticecast dtype: the one it stores exactly.
_BY_HOST: dict[np.dtype, DType] = {info.host: d for d, info in _INFO.items() if _STORED_AS[d] is d}


def _names() -> tuple[dict[str, DType], dict[str, DType]]:
    """Build the two name tables. Only ``i1``, ``i8`` and ``u8`` differ between them."""
    common: dict[str, DType] = {}

    def add(names: Iterable[str], dtype: DType) -> None:
        for n in names:
            common[n] = dtype

    for d, info in _INFO.items():
        add([d.value, info.mlir, info.bits_code, info.bytes_code, info.short], d)
        if _STORED_AS[d] is d:
            add([info.host.name], d)
    # NumPy, JAX, MAX and anvil aliases.
    add(["bool_", "b", "b1", "pred"], DType.bool)
    add(["s1", "si8"], DType.int8)
    add(["s2", "si16"], DType.int16)
    add(["s4", "si32"], DType.int32)
    add(["s8", "si64"], DType.int64)
    add(["u1"], DType.uint8)
    add(["u2"], DType.uint16)
    add(["u4"], DType.uint32)
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
_MLIR_NAMES.update({f"si{DType(n).bitwidth}": DType(n) for n in ("int8", "int16", "int32", "int64")})


def valid_dtype_names() -> list[str]:
    """The canonical names, in declaration order (used in error messages)."""
    return [d.value for d in DType]
