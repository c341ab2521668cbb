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

Low-precision dtypes (JAX, MAX, StableHLO, ``ml_dtypes``): eight 8-bit floats
(``float8_e4m3fn``, ``float8_e5m2``, ...), two 6-bit and one 4-bit float, and
integers of 1, 2 and 4 bits (``int4``, ``uint2``, ...). Their host dtypes are
``ml_dtypes``'s, and their width, range and precision are read from
``ml_dtypes.finfo``/``iinfo`` when this table is built, never copied by hand. Two of
them have no StableHLO type (:attr:`DType.stablehlo_gap`): ``int1``, because MLIR's
``i1`` *is* StableHLO's bool, and ``uint1``, because StableHLO's verifier accepts
integers of 2 to 64 bits only. They exist for promotion (JAX's lattice has them),
and the IR layers refuse them with that reason.

Table notation. A code of a kind letter and a number means different things in
different seeds: JAX's table codes and the Array API count *bytes* (``i1`` is int8,
``i4`` int32, ``u8`` uint64), while MLIR, the design note and anvil count *bits*
(``i1`` is bool, ``i4`` int4, ``u8`` uint8). :meth:`DType.parse` reads such codes as
bit counts (``notation="bits"``, the default), so ``DType.parse("i4")`` is ``int4``,
as MLIR spells it; ``notation="bytes"`` reads JAX's and the Array API's tables
(``DType.parse("i4", notation="bytes")`` is ``int32``), and the seed tables declare
which notation they use. The codes whose meaning depends on the notation are
``i1 i2 i4 i8 u1 u2 u4 u8``; a byte code with no bit reading (``s2``, ``f4``,
``c8``, ``bf``) means the same in both. An MLIR type string
(:meth:`DType.from_mlir`) always means the MLIR type: ``i4`` is int4, ``i1`` is bool.

The module imports nothing from MLIR: MLIR spellings are plain strings.
"""

from __future__ import annotations

import builtins
import enum
import functools
import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import LatticecastError
from .dtype_facts import FACTS

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["DType", "DTypeInfo", "Kind", "UnknownDTypeError", "NoStableHLOTypeError", "DTypeLike",
           "valid_dtype_names", "host_dtype"]


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


class UnknownDTypeError(LatticecastError, ValueError, TypeError):
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
    ``exponent_bits``, ``max_finite``, ``min_finite`` and ``smallest_subnormal`` are
    ``ml_dtypes.finfo``'s (``min_finite`` is positive for ``float8_e8m0fnu``, which
    has no zero and no sign), and for integers ``min_finite``/``max_finite`` are
    ``iinfo``'s, so range checks and lossy-promotion diagnostics need no tables of their
    own. ``overflow`` is what converting a too-large value gives (``"inf"``, ``"nan"``
    for the float8 types without infinities, ``"max"`` for the float6/float4 types,
    which saturate; empty for integers), found by converting an infinity; ``has_nan``
    likewise, by converting a NaN. All of these are measured from the live libraries
    (:mod:`.dtype_facts`). ``host_name`` names the host dtype; :attr:`host` is that
    dtype itself, which loads ``ml_dtypes`` where it is one of its. ``stablehlo_gap`` says why StableHLO has no element type for the dtype
    (empty where it has one).
    """

    name: str
    kind: Kind
    bits: int
    host_name: str
    mlir: str
    bytes_code: str  # JAX / NumPy / Array API code: kind letter and byte count ("i2", "f4", "c8", "bf")
    bits_code: str  # design-note / anvil / MLIR-ish code: kind letter and bit count ("i16", "ui16", "f32")
    short: str  # the design note's table label ("b", "i16", "u8", "bf16", "c64", "i4", "f8e4m3fn")
    stored_as: str
    dense_constants: bool = True
    mantissa_bits: int = 0
    exponent_bits: int = 0
    max_finite: float = 0.0
    min_finite: float = 0.0
    smallest_subnormal: float = 0.0
    overflow: str = ""
    has_nan: bool = False
    stablehlo_gap: str = ""

    @property
    def host(self) -> np.dtype:
        """The NumPy (or ``ml_dtypes``) dtype that stores this one on the host."""
        return host_dtype(self.host_name)


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
    # low precision (ml_dtypes; JAX's order)
    float8_e3m4 = "float8_e3m4"
    float8_e4m3 = "float8_e4m3"
    float8_e8m0fnu = "float8_e8m0fnu"
    float8_e4m3b11fnuz = "float8_e4m3b11fnuz"
    float8_e4m3fn = "float8_e4m3fn"
    float8_e4m3fnuz = "float8_e4m3fnuz"
    float8_e5m2 = "float8_e5m2"
    float8_e5m2fnuz = "float8_e5m2fnuz"
    float6_e2m3fn = "float6_e2m3fn"
    float6_e3m2fn = "float6_e3m2fn"
    float4_e2m1fn = "float4_e2m1fn"
    int1 = "int1"
    int2 = "int2"
    int4 = "int4"
    uint1 = "uint1"
    uint2 = "uint2"
    uint4 = "uint4"

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
        return FACTS[_INFO[self].host_name].itemsize

    @property
    def is_bool(self) -> builtins.bool:
        return _INFO[self].kind is Kind.BOOL

    def is_integral(self) -> builtins.bool:
        """Whether this is an integer type, signed or not (``bool`` is not), as MAX's ``DType.is_integral()``.

        Returns:
            ``True`` for ``int*``, ``uint*``, ``index`` and ``address``.

        Example:
            >>> DType.int8.is_integral(), DType.bool.is_integral(), DType.float32.is_integral()
            (True, False, False)
        """
        return _INFO[self].kind.is_integer

    def is_signed_integral(self) -> builtins.bool:
        """Whether this is a signed integer type (MAX's ``DType.is_signed_integral()``).

        Returns:
            ``True`` for ``int1`` .. ``int64``.

        Example:
            >>> DType.int8.is_signed_integral(), DType.uint8.is_signed_integral()
            (True, False)
        """
        return _INFO[self].kind is Kind.SIGNED

    def is_unsigned_integral(self) -> builtins.bool:
        """Whether this is an unsigned integer type (MAX's ``DType.is_unsigned_integral()``).

        Returns:
            ``True`` for ``uint1`` .. ``uint64``, ``index`` and ``address``.

        Example:
            >>> DType.uint8.is_unsigned_integral(), DType.int8.is_unsigned_integral()
            (True, False)
        """
        return _INFO[self].kind is Kind.UNSIGNED

    @property
    def is_signed(self) -> builtins.bool:
        """A signed *integer* (``int1`` .. ``int64``); floats are not counted, as in NumPy's kinds."""
        return _INFO[self].kind is Kind.SIGNED

    @property
    def is_unsigned(self) -> builtins.bool:
        """An unsigned integer (``uint1`` .. ``uint64``, ``index``, ``address``)."""
        return _INFO[self].kind is Kind.UNSIGNED

    def is_float(self) -> builtins.bool:
        """Whether this is a real floating-point type (MAX's ``DType.is_float()``; complex is not).

        Returns:
            ``True`` for ``float64`` down to ``float4_e2m1fn``.

        Example:
            >>> DType.bfloat16.is_float(), DType.int32.is_float()
            (True, False)
        """
        return _INFO[self].kind is Kind.FLOAT

    def is_float8(self) -> builtins.bool:
        """Whether this is an 8-bit float (MAX's ``DType.is_float8()``).

        Returns:
            ``True`` for the ``float8_*`` types.

        Example:
            >>> DType.float8_e4m3fn.is_float8(), DType.float16.is_float8()
            (True, False)
        """
        return _INFO[self].kind is Kind.FLOAT and _INFO[self].bits == 8

    def is_half(self) -> builtins.bool:
        """Whether this is a 16-bit float, ``float16`` or ``bfloat16`` (MAX's ``DType.is_half()``).

        Returns:
            ``True`` for the two 16-bit floats.

        Example:
            >>> DType.bfloat16.is_half(), DType.float32.is_half()
            (True, False)
        """
        return _INFO[self].kind is Kind.FLOAT and _INFO[self].bits == 16

    @property
    def size_in_bits(self) -> int:
        """Bits per element, as MAX counts them (``float4_e2m1fn`` is 4, ``bool`` is 8: a byte each).

        Example:
            >>> DType.float32.size_in_bits, DType.bool.size_in_bits
            (32, 8)
        """
        return 8 if _INFO[self].kind is Kind.BOOL else _INFO[self].bits

    @property
    def size_in_bytes(self) -> int:
        """Bytes per element, at least one (MAX's ``DType.size_in_bytes``).

        Example:
            >>> DType.float16.size_in_bytes, DType.float4_e2m1fn.size_in_bytes
            (2, 1)
        """
        return max(1, (self.size_in_bits + 7) // 8)

    @property
    def align(self) -> int:
        """The alignment of one element in bytes, its size (MAX's ``DType.align``).

        Example:
            >>> DType.int64.align
            8
        """
        return self.size_in_bytes

    def to_numpy(self) -> np.dtype:
        """The NumPy (or ``ml_dtypes``) dtype of this dtype's host values (MAX's ``DType.to_numpy()``).

        MAX refuses ``bfloat16`` and the float8 types here; latticecast gives their ``ml_dtypes`` dtype.

        Returns:
            :attr:`np_dtype`.

        Example:
            >>> DType.float32.to_numpy()
            dtype('float32')
        """
        return self.np_dtype

    @classmethod
    def from_numpy(cls, dtype: "npt.DTypeLike") -> "DType":
        """The dtype of NumPy dtype ``dtype`` (MAX's ``DType.from_numpy``).

        Args:
            dtype: a NumPy dtype, or anything ``np.dtype`` takes (``np.float16``).

        Returns:
            The matching :class:`DType`.

        Raises:
            UnknownDTypeError: ``dtype`` is not a dtype, or has no latticecast dtype.

        Example:
            >>> DType.from_numpy(np.dtype("int8"))
            DType.int8
        """
        return cls._from_numpy(dtype)

    @property
    def is_complex(self) -> builtins.bool:
        return _INFO[self].kind is Kind.COMPLEX

    @property
    def is_inexact(self) -> builtins.bool:
        return _INFO[self].kind.is_inexact

    @property
    def is_low_precision(self) -> builtins.bool:
        """A float narrower than 16 bits (float8/6/4) or an integer narrower than 8 bits (int1..uint4):
        the types JAX, MAX and StableHLO added for quantised models, which older systems lack."""
        info = _INFO[self]
        return (info.kind is Kind.FLOAT and info.bits < 16) or (info.kind.is_integer and info.bits < 8)

    # -- storage ------------------------------------------------------------------------

    @property
    def stored_as(self) -> "DType":
        """The dtype that holds this one on the host and in PJRT (itself for all but three)."""
        return _STORED_AS[self]

    @property
    def needs_lowering(self) -> builtins.bool:
        """True for ``index``, ``address`` and ``tensor_float32``: PJRT has no buffers of them,
        so the ``lower-dtypes`` pass rewrites them to :attr:`stored_as`."""
        return _STORED_AS[self] is not self

    @property
    def has_dense_constants(self) -> builtins.bool:
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
    def has_exact_host_dtype(self) -> builtins.bool:
        return not self.needs_lowering

    @property
    def mlir_name(self) -> str:
        """The MLIR element type as text: ``i1``, ``i16``, ``ui16``, ``index``, ``tf32``, ``complex<f32>``,
        ``f8E4M3FN``, ``i4``.

        Raises :class:`NoStableHLOTypeError` for ``int1`` and ``uint1``, which StableHLO cannot
        hold (:attr:`stablehlo_gap`): the IR layers ask here, so each refuses them with the reason.
        """
        info = _INFO[self]
        if info.stablehlo_gap:
            raise NoStableHLOTypeError(info.stablehlo_gap)
        return info.mlir

    @property
    def in_stablehlo(self) -> builtins.bool:
        """Whether StableHLO has an element type for this dtype (all but ``int1`` and ``uint1``)."""
        return not _INFO[self].stablehlo_gap

    @property
    def stablehlo_gap(self) -> str:
        """Why StableHLO cannot hold this dtype, and what to use instead (empty where it can)."""
        return _INFO[self].stablehlo_gap

    @property
    def host_spelling(self) -> str:
        """How to write the host dtype in Python: ``np.int16``, ``np.bool_``, ``ml_dtypes.float8_e4m3fn``."""
        host = _INFO[self].host
        if host == np.bool_:
            return "np.bool_"
        module = "np" if host.type.__module__ == "numpy" else host.type.__module__
        return f"{module}.{host.name}"

    @property
    def short(self) -> str:
        """The design note's code (``b``, ``i16``, ``u8``, ``bf16``, ``c64``), used in tables."""
        return _INFO[self].short

    # -- numeric facts ------------------------------------------------------------------

    @property
    def min_value(self) -> int | float:
        """The smallest finite value (``-max_value`` for most floats; ``2**-127`` for
        ``float8_e8m0fnu``, which has no zero and no negative values)."""
        return _LIMITS[self][0]

    @property
    def max_value(self) -> int | float:
        return _LIMITS[self][1]

    @property
    def has_zero(self) -> builtins.bool:
        """Whether 0 is a value of the dtype (every dtype but ``float8_e8m0fnu``)."""
        return _LIMITS[self][0] <= 0

    @property
    def has_inf(self) -> builtins.bool:
        """Whether the dtype has infinities (floats whose overflow is ``inf``)."""
        return _INFO[self].overflow == "inf"

    @property
    def has_nan(self) -> builtins.bool:
        """Whether the dtype has a NaN (every float but float6/float4; read from ml_dtypes)."""
        return _INFO[self].has_nan

    @property
    def overflow(self) -> str:
        """What converting a too-large float gives: ``"inf"``, ``"nan"`` (the float8 types without
        infinities) or ``"max"`` (float6/float4 saturate); empty for integers and bool."""
        return _INFO[self].overflow

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
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", DeprecationWarning)  # NumPy's deprecated aliases ('a')
                    found = cls._from_numpy(np.dtype(key))
            except (TypeError, ValueError):
                found = table.get(key.lower())
        if found is None:
            raise UnknownDTypeError(f"unknown dtype {name!r}; valid names are: {', '.join(valid_dtype_names())}")
        return found

    @classmethod
    def _from_numpy(cls, obj: object) -> "DType":
        try:
            np_dtype = np.dtype(obj)  # type: ignore[call-overload]  # anything: np.dtype refuses what is not one
        except (TypeError, ValueError):
            raise UnknownDTypeError(
                f"cannot interpret {obj!r} as a dtype; valid names are: {', '.join(valid_dtype_names())}"
            ) from None
        found = _by_host().get(np_dtype.newbyteorder("=") if np_dtype.byteorder not in "=|" else np_dtype)
        if found is None:
            raise UnknownDTypeError(f"NumPy dtype {np_dtype} has no latticecast dtype; valid names are: "
                                    f"{', '.join(valid_dtype_names())}")
        return found

    @classmethod
    def from_mlir(cls, text: str) -> "DType":
        """Inverse of :attr:`mlir_name` (also accepts ``si16``). ``i4`` is MLIR's 4-bit integer and
        ``i1`` is bool, whatever the notation of a seed table; ``ui1`` is ``uint1``, which MLIR can
        spell but StableHLO cannot hold."""
        found = _MLIR_NAMES.get(text)
        if found is None:
            raise UnknownDTypeError(f"MLIR element type {text} has no latticecast dtype")
        return found


class NoStableHLOTypeError(LatticecastError, TypeError):
    """A dtype that StableHLO has no element type for (``int1``, ``uint1``) met the IR.

    The message says why and which dtype to use instead.
    """


DTypeLike = Any
"""What :meth:`DType.parse` accepts: a DType, a name, or a NumPy/JAX/ml_dtypes/MAX dtype object. ``Any``
deliberately: MAX's and JAX's dtype objects are read by duck typing (neither is a dependency here), and
:meth:`DType.parse` checks whatever it is given, naming the dtypes it knows."""


# -- the table ---------------------------------------------------------------------------------


def _measured(host: str, **overrides: int) -> dict[str, Any]:
    """The measured facts of ``host`` (:mod:`.dtype_facts`) as :class:`DTypeInfo`'s keyword arguments; for
    an integer or bool the float facts are the measurement's zeros, which are the fields' defaults."""
    f = FACTS[host]
    facts: dict[str, Any] = dict(mantissa_bits=f.mantissa_bits, exponent_bits=f.exponent_bits,
                                 max_finite=f.max_finite, min_finite=f.min_finite,
                                 smallest_subnormal=f.smallest_subnormal, overflow=f.overflow, has_nan=f.has_nan)
    facts.update(overrides)
    return facts


def _float(name: str, host: str, mlir: str, bytes_code: str, bits_code: str, short: str,
           stored_as: str | None = None, mantissa: int | None = None, dense: bool = True,
           bits: int | None = None) -> DTypeInfo:
    overrides = {} if mantissa is None else {"mantissa_bits": mantissa}
    return DTypeInfo(name, Kind.FLOAT, FACTS[host].bits if bits is None else bits, host, mlir, bytes_code, bits_code,
                     short, stored_as or name, dense, **_measured(host, **overrides))


def _low_float(name: str) -> DTypeInfo:
    """An ``ml_dtypes`` float: MLIR spells ``float8_e4m3fn`` as ``f8E4M3FN``; tables say ``f8e4m3fn``."""
    width, fmt = name[len("float"):].split("_", 1)
    mlir = f"f{width}{fmt.upper()}"
    return _float(name, name, mlir, mlir.lower(), mlir.lower(), mlir.lower())


def _complex(name: str, mlir: str, bytes_code: str, short: str) -> DTypeInfo:
    return DTypeInfo(name, Kind.COMPLEX, FACTS[name].bits, name, mlir, bytes_code, short, short, name,
                     **_measured(name))  # the real part's finfo


def _int(name: str, kind: Kind, mlir: str, bytes_code: str, bits_code: str, short: str,
         stored_as: str | None = None, dense: bool = True, stablehlo_gap: str = "") -> DTypeInfo:
    host = stored_as or name
    return DTypeInfo(name, kind, FACTS[host].bits, host, mlir, bytes_code, bits_code, short, host, dense,
                     stablehlo_gap=stablehlo_gap, **_measured(host))


_NO_I1 = ("int1 has no StableHLO element type: MLIR's i1 is StableHLO's bool (pred), so an int1 value would "
          "be read as a boolean (JAX lowers int1 to i1 and then cannot run it); use int2 or int8 (cast "
          "explicitly: x.cast(DType.int8)), or bool for 0/1 flags")
_NO_UI1 = ("uint1 has no StableHLO element type: StableHLO's integers have 2, 4, 8, 16, 32 or 64 bits (its "
           "verifier rejects ui1); use uint2 or uint8 (cast explicitly: x.cast(DType.uint8)), or bool for "
           "0/1 flags")

_S, _U = Kind.SIGNED, Kind.UNSIGNED
_INFO: dict[DType, DTypeInfo] = {
    DType.bool: DTypeInfo("bool", Kind.BOOL, FACTS["bool"].bits, "bool", "i1", "b1", "i1", "b", "bool",
                          **_measured("bool")),
    DType.int8: _int("int8", _S, "i8", "i1", "i8", "i8"),
    DType.int16: _int("int16", _S, "i16", "i2", "i16", "i16"),
    DType.int32: _int("int32", _S, "i32", "i4", "i32", "i32"),
    DType.int64: _int("int64", _S, "i64", "i8", "i64", "i64"),
    DType.uint8: _int("uint8", _U, "ui8", "u1", "ui8", "u8"),
    DType.uint16: _int("uint16", _U, "ui16", "u2", "ui16", "u16"),
    DType.uint32: _int("uint32", _U, "ui32", "u4", "ui32", "u32"),
    DType.uint64: _int("uint64", _U, "ui64", "u8", "ui64", "u64"),
    DType.index: _int("index", _U, "index", "index", "index", "index", stored_as="uint64"),
    DType.address: _int("address", _U, "!latticecast.address", "address", "address", "address",
                        stored_as="uint64", dense=False),
    DType.float16: _float("float16", "float16", "f16", "f2", "f16", "f16"),
    DType.bfloat16: _float("bfloat16", "bfloat16", "bf16", "bf", "bf16", "bf16"),
    DType.float32: _float("float32", "float32", "f32", "f4", "f32", "f32"),
    DType.tensor_float32: _float("tensor_float32", "float32", "tf32", "tf32", "tf32", "tf32",
                                 stored_as="float32", mantissa=10, dense=False, bits=19),
    DType.float64: _float("float64", "float64", "f64", "f8", "f64", "f64"),
    DType.complex64: _complex("complex64", "complex<f32>", "c4", "c64"),
    DType.complex128: _complex("complex128", "complex<f64>", "c8", "c128"),
    **{DType(n): _low_float(n) for n in (
        "float8_e3m4", "float8_e4m3", "float8_e8m0fnu", "float8_e4m3b11fnuz", "float8_e4m3fn", "float8_e4m3fnuz",
        "float8_e5m2", "float8_e5m2fnuz", "float6_e2m3fn", "float6_e3m2fn", "float4_e2m1fn")},
    # ml_dtypes' sub-byte integers: no JAX byte code exists, so the name is the bytes-notation spelling
    DType.int1: _int("int1", _S, "", "int1", "int1", "int1", stablehlo_gap=_NO_I1),
    DType.int2: _int("int2", _S, "i2", "int2", "i2", "i2"),
    DType.int4: _int("int4", _S, "i4", "int4", "i4", "i4"),
    DType.uint1: _int("uint1", _U, "ui1", "uint1", "ui1", "u1", stablehlo_gap=_NO_UI1),
    DType.uint2: _int("uint2", _U, "ui2", "uint2", "ui2", "u2"),
    DType.uint4: _int("uint4", _U, "ui4", "uint4", "ui4", "u4"),
}

_STORED_AS: dict[DType, DType] = {d: DType(info.stored_as) for d, info in _INFO.items()}


def _limits(info: DTypeInfo) -> tuple[int | float, int | float]:
    if info.kind is Kind.BOOL or info.kind.is_integer:
        return int(info.min_finite), int(info.max_finite)
    return info.min_finite, info.max_finite


_LIMITS: dict[DType, tuple[int | float, int | float]] = {d: _limits(info) for d, info in _INFO.items()}



@functools.cache
def host_dtype(name: str) -> np.dtype:
    """The NumPy dtype named ``name`` (a :class:`DTypeInfo`'s ``host_name``), from ``ml_dtypes`` where
    NumPy has none: ``ml_dtypes`` is imported here, on first use, not with the dtype table.

    Args:
        name: NumPy's name of the dtype (``"int16"``, ``"bfloat16"``, ``"float8_e4m3fn"``).

    Returns:
        The dtype.

    Example:
        >>> host_dtype("bfloat16").itemsize, host_dtype("int16") == np.int16
        (2, True)
    """
    import ml_dtypes

    return np.dtype(getattr(ml_dtypes, name, None) or name)


@functools.cache
def _by_host() -> dict[np.dtype, DType]:
    """A NumPy dtype names exactly one latticecast dtype: the one it stores exactly."""
    return {info.host: d for d, info in _INFO.items() if _STORED_AS[d] is d}


def _names() -> tuple[dict[str, DType], dict[str, DType]]:
    """Build the two name tables: bits notation (bit codes and MLIR spellings win where a code
    means two types) and bytes notation (JAX's and the Array API's byte codes win)."""
    shared: dict[str, DType] = {}
    bits_codes: dict[str, DType] = {}
    byte_codes: dict[str, DType] = {}
    for d, info in _INFO.items():
        shared[d.value] = d
        if _STORED_AS[d] is d:
            shared[info.host_name] = d
        for code in (info.mlir, info.bits_code, info.short):
            if code:
                bits_codes[code] = d
        byte_codes[info.bytes_code] = d
    # NumPy, JAX, MAX and anvil aliases.
    for names, d in ((["bool_", "b", "b1", "pred"], DType.bool), (["si8"], DType.int8), (["si16"], DType.int16),
                     (["si32"], DType.int32), (["si64"], DType.int64), (["si2"], DType.int2), (["si4"], DType.int4),
                     (["half"], DType.float16), (["single"], DType.float32), (["double"], DType.float64),
                     (["tensor_float_32"], DType.tensor_float32)):
        for n in names:
            shared[n] = d
    for names, d in ((["s1"], DType.int8), (["s2"], DType.int16), (["s4"], DType.int32), (["s8"], DType.int64)):
        for n in names:
            byte_codes[n] = d
    bits = {**byte_codes, **shared, **bits_codes}
    byte = {**bits_codes, **shared, **byte_codes}
    return bits, byte


_BITS_NAMES, _BYTES_NAMES = _names()
_MLIR_NAMES: dict[str, DType] = {info.mlir: d for d, info in _INFO.items() if info.mlir}
_MLIR_NAMES.update({f"si{DType(n).bitwidth}": DType(n) for n in ("int2", "int4", "int8", "int16", "int32", "int64")})


def valid_dtype_names() -> list[str]:
    """The canonical names, in declaration order (used in error messages)."""
    return [d.value for d in DType]
