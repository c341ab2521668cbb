"""Modular MAX 26.7's Python ``max.graph``: the promotion MAX users meet today.

The seed's ``max.graph.type_promotion`` (the ``max`` policy) is a lattice that widens:
``int8 + uint64`` is float16 there. MAX 26.7 promotes differently, as measured live
(``tools/measure_max_python.py``, ``evidence/measured/max_python_cells.csv``) and as its
``max/graph/dtype_promotion.py`` says: "Promotion always returns one of the input DTypes;
it never widens to a new DType."

* **Two graph values** (the RMO dialect's ``promoteDtype``). MAX ranks the operands by
  category, ``bool < unsigned < signed < float``, then by width, and aims at the highest:
  ``uint8 . int8`` aims at int8. For floats of one width bfloat16 outranks float16; an
  integer meeting a narrower float aims at the float of the integer's width, and the
  float8/float6/float4 types mixed with each other or with an 8-bit integer aim at float16
  (the one case where the result is neither operand). Then every operand must convert to
  that target exactly, or MAX refuses the op ("Unsafe cast from ui8 to si8"): an unsigned
  integer converts only to a strictly wider signed one, an integer to a float only if the
  float's significand holds it (``int16 . float16`` is refused: 16 bits do not fit 11), a
  float only to a strictly wider float (``float16 . bfloat16`` is refused). ``bool``
  converts to everything.
* **Division.** ``ops.div`` (and ``/``) converts two integer operands to float64 before
  promoting them: ``int16 / int16`` and ``int8 / uint8`` are float64, though
  ``int8 + uint8`` is refused. A bool is no integer there: ``bool / int8`` divides in int8.
  Otherwise ``/`` divides in the promoted dtype (:meth:`MaxPythonOpTypes.divide_operands`).
* **Python scalars** (``dtype_promotion._promote_to_strong``) take the graph value's dtype,
  for every op. A Python ``int`` (a ``bool`` too) must lie in MAX's table of exactly
  representable integers for that dtype (``float16 + 2049`` is refused, ``float16 + 2048``
  is not; :func:`scalar_range`); a ``float`` needs a float dtype and is not
  range-checked (``float16 + 1e300`` builds, and overflows). MAX cannot make a constant of a
  sub-byte dtype, so no scalar meets float6 or float4. Two scalars are refused: "Binary ops
  require at least one max object as input".
* **NumPy values** are "non-max objects" too (``policy.numpy_values.weak``).
  A NumPy integer or float scalar is the Python number it holds (``float16 + np.float32(0.5)`` is
  float16; ``float16 + np.int64(2049)`` is refused); ``np.bool_`` is neither, and MAX refuses it
  (:meth:`MaxPythonNumpyValues.scalar`). A NumPy array takes the graph value's dtype whatever its
  own, by rules of its own (:meth:`MaxPythonNumpyValues.array_problem`): a float array meets no
  integer dtype, an integer array's values must lie in the Python int's range, a bool array is not
  checked, and an array (converted, not made a constant of the dtype) meets float4 too.

These are rules, not a lattice: refusals make promotion depend on the bracketing
(``(int8 . uint8) . int16`` is refused, ``int8 . (uint8 . int16)`` is int16);
``latticecast verify --policy max-python`` counts where.
Sums keep the dtype (``ops.sum(int8)`` is int8, ``ops.sum(bool)`` is bool).
"""

from __future__ import annotations

import functools
import math
from typing import Sequence

import numpy as np

from ..promotion.dtypes import DType, Kind
from ..errors import PromotionError
from ..promotion.value_fit import Scalar, candidates
from ..promotion.weak import PType, Weak
from .base import Decision, DivisionOperands, Policy
from .components import LiteralRules, NumpyValueRules, OpTypeRules
from .lattices import MAX_PYTHON_DTYPES

__all__ = ["MaxPythonPolicy"]

_D = DType

_CATEGORY: tuple[Kind, ...] = (Kind.BOOL, Kind.UNSIGNED, Kind.SIGNED, Kind.FLOAT)
"""MAX's ranking of dtypes before width: signed outranks unsigned (``uint8 . int8`` aims at int8)."""

_NARROWEST_TARGET_FLOAT_BITS = 16
"""MAX aims a promotion at no float narrower than 16 bits: two different float8/float6/float4
dtypes, or one with an 8-bit integer, meet at float16."""

_INTEGER_QUOTIENT = _D.float64
"""The dtype ``ops.div`` converts two integer operands to ("Use double precision for accuracy",
``max/graph/ops/elementwise.py``)."""

_MAX_SCALAR_RANGE_QUIRKS: dict[DType, tuple[float, float]] = {
    _D.float8_e5m2: (-(1.10 * 2 ** 16), 1.10 * 2 ** 16),
}
"""Where MAX's ``_DTYPE_MIN_AND_MAX_FULL_PRECISION`` is not the dtype's finite range: it writes
``1.10 * 2**16`` (72089.6) for float8_e5m2, whose largest finite value is 57344, so a Python int
up to 72089 passes MAX's check there (measured: ``float8_e5m2 + 60000`` builds)."""

_SCALAR_RULE = ("a Python scalar takes the graph value's dtype, its value checked there "
                "(max.graph.dtype_promotion)")
_RMO_RULE = ("MAX 26.7 (RMO promoteDtype): the operand of the highest category (bool < unsigned < signed < "
             "float) and width, if every operand converts to it exactly; it never widens")
_TWO_SCALARS = ("Binary ops require at least one max object as input: MAX promotes a Python scalar only to "
                "the dtype of a graph value, and two scalars never promote (non-max objects tend to "
                "overpromote); make one an explicit constant, ops.constant(value, dtype, device)")


def _diagnostic_name(d: DType) -> str:
    """How MAX's RMO diagnostics spell a dtype: ``si8``, ``ui8``, ``f16``, ``bf16``, ``f8e4m3fn``, ``bool``."""
    if d.is_bool:
        return "bool"
    spelled = d.mlir_name.lower()
    return "s" + spelled if d.is_signed else spelled


def _number(x: float) -> str:
    """A range bound as MAX's source writes it: integers exactly, powers of two beyond that as
    ``2**-127``, other bounds as Python prints them."""
    if isinstance(x, int):
        return str(x)
    if x.is_integer() and abs(x) < 2 ** 64:
        return str(int(x))
    mantissa, exponent = math.frexp(x)
    return f"2**{exponent - 1}" if mantissa == 0.5 else repr(x)


class MaxPythonPolicy(Policy):
    name = "max-python"
    title = "Modular MAX 26.7, Python max.graph"
    source = ("max 26.7.0 measured live (tools/measure_max_python.py); max/graph/dtype_promotion.py, "
              "max/graph/ops/elementwise.py and the RMO dialect's promoteDtype")
    dtypes = MAX_PYTHON_DTYPES
    weak_types = (Weak(_D.int64), Weak(_D.float64))
    default_int = _D.int64
    default_float = _D.float64
    default_complex = None

    def missing_dtype_reason(self, d: DType) -> str:
        return ": MAX 26.7's max.dtype.DType has no such member"

    @property
    def lattice_scope(self) -> tuple[PType, ...]:
        """Only the dtypes: a Python scalar takes the graph value's dtype, a rule outside any lattice
        (two scalars never promote). Even so the dtypes form none: every refusal breaks it
        (``(int8 . uint8) . int16`` is refused, ``int8 . (uint8 . int16)`` is int16)."""
        return self.dtypes

    # -- two graph values: RMO's promoteDtype -------------------------------------------------

    @functools.cached_property
    def _by_kind_and_width(self) -> dict[tuple[Kind, int], DType]:
        """The policy's dtype of each (kind, width); for two floats of one width, the one with the
        longer significand (float16, not bfloat16: the float MAX aims an integer at)."""
        found: dict[tuple[Kind, int], DType] = {}
        for d in self.dtypes:
            key = (d.kind, d.bitwidth)
            if key not in found or d.mantissa_bits > found[key].mantissa_bits:
                found[key] = d
        return found

    def target(self, a: DType, b: DType) -> DType:
        """The dtype MAX aims ``a . b`` at, before checking that both operands convert to it exactly."""
        if a is b or b.is_bool:
            return a
        if a.is_bool:
            return b
        kind = max(a.kind, b.kind, key=_CATEGORY.index)
        width = max(a.bitwidth, b.bitwidth)
        if kind is not Kind.FLOAT:
            return self._by_kind_and_width[(kind, width)]
        widest = [d for d in (a, b) if d.is_float() and d.bitwidth == width and width >= _NARROWEST_TARGET_FLOAT_BITS]
        if widest:  # a float operand is at least as wide as the other operand: the wider float, bfloat16 over float16
            return max(widest, key=lambda d: d is _D.bfloat16)
        return self._by_kind_and_width[(Kind.FLOAT, max(width, _NARROWEST_TARGET_FLOAT_BITS))]

    @staticmethod
    def converts_exactly(x: DType, t: DType) -> bool:
        """RMO's safe cast ``x -> t``: every value of ``x`` is a value of ``t`` (by MAX's reckoning,
        which compares widths: ``float8_e8m0fnu -> float16`` counts as exact)."""
        if x is t or x.is_bool:
            return True
        if x.is_integral() and t.is_integral():
            if x.kind is t.kind:
                return t.bitwidth >= x.bitwidth
            return x.is_unsigned and t.is_signed and t.bitwidth > x.bitwidth
        if x.is_integral() and t.is_float():
            return x.bitwidth <= t.mantissa_bits + 1
        if x.is_float() and t.is_float():
            return t.bitwidth > x.bitwidth
        return False

    def two_strong(self, a: DType, b: DType) -> Decision:
        t = self.target(a, b)
        for x in (a, b):
            if not self.converts_exactly(x, t):
                return Decision(None, _RMO_RULE,
                                f"Failed to resolve valid dtype: Unsafe cast from {_diagnostic_name(x)} to "
                                f"{_diagnostic_name(t)}. Insert an explicit cast op if this conversion is wanted: "
                                "MAX 26.7 aims "
                                f"{a.name} . {b.name} at {t.name} (the operand of the highest category and width) "
                                f"and never widens, and {x.name} does not convert to {t.name} exactly")
        return Decision(t, _RMO_RULE)

    # -- Python scalars: max.graph.dtype_promotion --------------------------------------------

    def weak_and_strong(self, w: Weak, d: DType) -> Decision:
        """The scalar takes ``d``; a float scalar only a float ``d``. Whether the value fits ``d``
        (and whether MAX can make a constant of ``d`` at all) is :meth:`MaxPythonLiterals.problem`'s."""
        if w.dtype.is_float() and not d.is_float():
            return Decision(None, _SCALAR_RULE, f"Unsafe cast: Can't promote python float to dtype(DType.{d.name})")
        return Decision(d, _SCALAR_RULE)

    def nary(self, types: "Sequence[PType | str]", zero_dim: "Sequence[bool]") -> PType:
        """MAX promotes two operands at a time, and its Python scalars only ever take a value's dtype: the
        values promote, then each scalar against their result (:meth:`~.base.Policy.scalars_after_arrays`)."""
        return self.scalars_after_arrays(types)

    def two_weak(self, a: Weak, b: Weak) -> Decision:
        return Decision(None, "two Python scalars", _TWO_SCALARS)

    # -- components: MAX's literals, NumPy values, division and sums --------------------------

    @functools.cached_property
    def literals(self) -> LiteralRules:
        return MaxPythonLiterals(self)

    @functools.cached_property
    def numpy_values(self) -> NumpyValueRules:
        return MaxPythonNumpyValues(self, weak=True)

    @functools.cached_property
    def op_types(self) -> OpTypeRules:
        return MaxPythonOpTypes(self)


def scalar_range(d: DType) -> tuple[float, float]:
    """MAX's ``_DTYPE_MIN_AND_MAX_FULL_PRECISION``: the closed range a Python int must lie in to
    meet ``d``. Integers and bool: their own range. The 16-, 32- and 64-bit floats: the integers
    their significand holds exactly (+-2**11 for float16, +-2**8 for bfloat16). The
    float8/float6/float4 types: their finite range (MAX's float8_e5m2 entry aside)."""
    if d in _MAX_SCALAR_RANGE_QUIRKS:
        return _MAX_SCALAR_RANGE_QUIRKS[d]
    if d.is_float() and d.bitwidth >= _NARROWEST_TARGET_FLOAT_BITS:
        exact = 2 ** (d.mantissa_bits + 1)
        return -exact, exact
    return d.min_value, d.max_value


def is_sub_byte(d: DType) -> bool:
    """MAX cannot make a constant of a dtype narrower than a byte (float6, float4; MAX stores bool
    in a byte), so no Python scalar meets one."""
    return d.bitwidth < 8 and not d.is_bool


class MaxPythonLiterals(LiteralRules):
    """MAX 26.7's Python scalars (``max.graph.dtype_promotion._promote_to_strong``)."""

    def type_of(self, value: Scalar) -> PType:
        """A Python ``bool`` is a Python ``int`` in MAX (it is checked as one: ``bool + 2`` is refused,
        ``float8_e8m0fnu + False`` too, as 0 is no float8_e8m0fnu)."""
        if isinstance(value, bool):
            return self.policy.canonical(Weak(self.policy.default_int))
        return super().type_of(value)

    def problem(self, value: Scalar, target: DType) -> str | None:
        """MAX's checks in its order: an int against :func:`scalar_range`, a float only for a float
        ``target`` (not for its range: ``float16 + 1e300`` builds), then whether a constant of
        ``target`` can be made (:func:`is_sub_byte`)."""
        if isinstance(value, complex):
            return f"MAX has no complex dtypes for the literal {value!r}"
        if isinstance(value, float):
            if not target.is_float():
                return f"Can't promote python float to dtype(DType.{target.name})"
        else:
            lo, hi = scalar_range(target)
            if not lo <= int(value) <= hi:
                return (f"Can't promote python int with value ({value}) to dtype(DType.{target.name}). It "
                        f"would lose precision (MAX takes a Python int only within [{_number(lo)}, {_number(hi)}] "
                        f"for {target.name})")
        if is_sub_byte(target):
            return (f"Cannot create a constant of type 'DType.{target.name}' since it is a sub-byte type (MAX "
                    f"makes no constants narrower than a byte, so a Python scalar cannot meet {target.name})")
        return None


class MaxPythonNumpyValues(NumpyValueRules):
    """NumPy values as ``max.graph.dtype_promotion._promote_to_strong`` takes them: weak."""

    def scalar(self, value: np.generic) -> Scalar:
        """MAX takes ``int | np.integer`` as a Python int and ``float | np.floating`` as a Python float,
        checked as such. A NumPy bool is neither (``np.bool_`` is no ``np.integer``), nor is a NumPy
        complex, so MAX refuses them as no tensor value at all."""
        if isinstance(value, np.integer):
            return int(value)
        if isinstance(value, np.floating):
            return float(value)
        name = type(value).__name__
        fix = ("write the Python bool, bool(value) (MAX takes it as the int 0 or 1), or make a constant: "
               "ops.constant(value, DType.bool, device)" if isinstance(value, np.bool_) else
               "MAX has no complex dtypes" if isinstance(value, np.complexfloating) else
               "give a graph value, a Python number or a NumPy integer or float")
        raise PromotionError(f"_promote_weak_dtypes() argument must be a TensorValueLike, not '{name}': MAX 26.7 "
                             f"takes a NumPy integer or float scalar as the Python number it holds, and a NumPy "
                             f"{name} is neither; {fix}", policy=self.policy.name)

    def array_type(self, dtype: DType) -> PType:
        """What a Python int promotes as, whatever the array's dtype: MAX converts an external array to
        the graph value's dtype (``ops.constant(array).cast(dtype)``) and its own dtype only decides
        whether MAX refuses it (:meth:`array_problem`), never what it becomes (a float array meets
        a bool value: it is bool, True where it is not 0)."""
        return self.policy.canonical(Weak(self.policy.default_int))

    def array_problem(self, values: np.ndarray, target: DType) -> str | None:
        """MAX's checks of an external array, in its order: a float array meets no integer dtype (bool
        is none); an integer array's values must lie in :func:`scalar_range`, as a Python int's; a bool
        array is not checked. The array is converted to ``target``, not made a constant of it, so a
        sub-byte ``target`` takes it (as no Python scalar)."""
        source = DType.parse(values.dtype)
        if source.is_complex:
            return f"MAX has no complex dtypes for an array of {source.name}"
        if source.is_float() and target.is_integral():
            return (f"Refusing to implicitly promote float array to dtype(DType.{target.name}) (MAX takes a "
                    "float array only for a float or bool dtype)")
        if source.is_integral():
            lo, hi = scalar_range(target)
            for value in candidates(values):
                assert not isinstance(value, complex)  # an integer array's elements
                if not lo <= value <= hi:
                    return (f"Refusing to implicitly promote external array with precision loss for DType "
                            f"DType.{target.name} (MAX takes an integer array only with values within "
                            f"[{_number(lo)}, {_number(hi)}] for {target.name}; it holds {value})")
        return None


class MaxPythonOpTypes(OpTypeRules):
    """``ops.div`` and MAX's reductions."""

    def divide_operands(self, types: Sequence[PType]) -> DivisionOperands | None:
        """``ops.div``: a Python scalar takes the other operand's dtype (checked there), then two
        integers are converted to float64 (bool is no integer: ``bool / int8`` divides in int8)."""
        policy = self.policy
        if len(types) != 2:
            return None
        given = tuple(policy.canonical(t) for t in types)
        if all(isinstance(t, Weak) for t in given):
            return None  # two scalars: refused as for any op
        dtypes: list[DType] = []
        for t, other in zip(given, reversed(given)):
            if isinstance(t, Weak):
                taken = policy.decide(t, other).result
                if taken is None:
                    return None  # a float scalar meeting an integer: refused as for any op
                t = taken
            assert isinstance(t, DType)
            dtypes.append(t)
        if all(d.is_integral() for d in dtypes):
            return DivisionOperands(tuple(dtypes), _INTEGER_QUOTIENT)
        if tuple(dtypes) == given:
            return None  # two graph values that are not both integers: promoted as for any op
        return DivisionOperands(tuple(dtypes))

    def true_divide(self, t: "PType | str") -> PType | None:
        """What is left to ``/`` after :meth:`divide_operands`: the promoted dtype itself
        (``bool / int8`` is int8, ``bool / bool`` bool, ``float16 / float16`` float16)."""
        return self.policy.canonical(t)

    def scatter_converts_updates(self) -> bool:
        """MAX's scatters convert no updates (measured: ``ops.scatter(float32, int32 updates)`` raises
        ``The input dtype 'DType.float32' and updates dtype 'DType.int32' must match.``)."""
        return False

    def sum(self, dtype: DType) -> DType:
        """MAX's reductions keep the dtype (measured: ``ops.sum(int32)`` is int32, ``ops.sum(bool)`` bool)."""
        return dtype
