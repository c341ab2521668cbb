"""PyTorch's promotion: ``c10::promoteTypes`` for tensors, and categories for Python scalars.

Tensors of the classic dtypes promote on a lattice (:data:`.lattices.TORCH_EDGES`)
close to JAX's: integers defer to floats of any width (``int64 . float16 = float16``),
``bfloat16`` and ``float16`` meet at ``float32``, and ``uint8 . int8 = int16``.

``uint16``, ``uint32`` and ``uint64`` are "barebones" unsigned types (PyTorch 2.3+):
``promoteTypes`` relates them only to themselves and to the real floating types,
and refuses everything else ("Promotion for uint16, uint32, uint64 types is not
supported"). That is a rule, not a lattice: ``uint16`` sits below both ``bfloat16``
and ``float16``, yet ``uint16 . complex64`` is refused although ``complex64`` is
above both.

Operands fall in three priority classes (``at::native::result_type``'s
``ResultTypeState``): dimensioned tensors, 0-d tensors, and Python scalars ("wrapped
numbers", the weak types here). Inside a class dtypes combine with ``promoteTypes``;
a lower class only counts when its category (bool < integer < float < complex) is
higher than the higher class's result (:func:`combine`). So a Python scalar of a
category no higher than the tensor's takes the tensor's dtype, and a higher one
brings its default type (``int64``, the default float ``float32``, ``complex64``),
except that a complex scalar keeps a float tensor's precision (``float64 + 1j`` is
``complex128``); a 0-d tensor does the same with its own dtype (``int8`` n-d
``+ torch.tensor(5)`` is ``int8``, ``bfloat16`` n-d ``+`` a float64 0-d tensor is
``bfloat16``). Two Python scalars make a tensor of the promotion of their default
types (``torch.add(1, 2.0)`` is a ``float32`` tensor, strong). A Python ``bool`` is a
weak bool: it defers to every tensor, ``uint16`` included, where a bool tensor is
refused. Rank is static in StableHLO, so the builder and the pass apply the 0-d rule
exactly (:attr:`TorchPolicy.rank_sensitive`).

The float8 dtypes (``float8_e4m3fn``, ``float8_e5m2``, their ``fnuz`` variants and
``float8_e8m0fnu``) promote with nothing but themselves: ``promoteTypes`` refuses
them with any other dtype, float8 or not ("Promotion for Float8 Types is not
supported"). A Python bool, int or float takes their dtype (a float8 tensor is
floating); a Python complex is refused, PyTorch having no complex type of them
("Unknown Complex ScalarType for Float8_e4m3fn"). ``torch.int1``/``int2``/``int4``
promote with nothing but themselves (a Python float meeting one brings float32,
which they cannot meet either); ``torch.uint1``/``uint2``/``uint4`` follow the
barebones unsigned rule. PyTorch's ``float4_e2m1fn_x2`` packs two values per byte
and is not latticecast's ``float4_e2m1fn``; PyTorch has no float6 type.

``float16`` with a Python complex is ``complex32`` in PyTorch, a dtype latticecast
does not have; the policy answers ``complex64`` there, the narrowest latticecast
dtype that holds every complex32 value (see :mod:`latticecast.evidence.torch`).
"""

from __future__ import annotations

import functools
from typing import Sequence

import numpy as np

from ..promotion.dtypes import DType, Kind
from ..errors import LiteralRangeError, PromotionError
from ..promotion.lattice import Lattice
from ..promotion.value_fit import Scalar
from ..promotion.weak import PType, Weak, dtype_of
from .base import Decision, Policy
from .components import LiteralRules, NumpyValueRules, OpTypeRules
from .lattices import (TORCH_BAREBONES_UNSIGNED, TORCH_BITS_SIGNED, TORCH_BITS_UNSIGNED, TORCH_DTYPES,
                       TORCH_EDGES, TORCH_FLOAT8)

__all__ = ["TorchPolicy"]

_CATEGORY = {Kind.BOOL: 0, Kind.UNSIGNED: 1, Kind.SIGNED: 1, Kind.FLOAT: 2, Kind.COMPLEX: 3}
_FLOAT8 = frozenset(TORCH_FLOAT8)
_SHELL_SIGNED = frozenset(TORCH_BITS_SIGNED)
_UNSIGNED_RULE = frozenset(TORCH_BAREBONES_UNSIGNED) | frozenset(TORCH_BITS_UNSIGNED)
_SHELL_WHY = ("PyTorch promotes int1, int2 and int4 with nothing but themselves (c10::promoteTypes has no "
              "entry for them: 'ix_a != -1 INTERNAL ASSERT FAILED')")
_FLOAT8_WHY = ("PyTorch promotes a float8 dtype with nothing but itself (c10::promoteTypes: 'Promotion for "
               "Float8 Types is not supported')")
_BAREBONES_WHY = ("PyTorch promotes uint16, uint32 and uint64 only with themselves and with floating types "
                  "(c10::promoteTypes: 'Promotion for uint16, uint32, uint64 types is not supported')")


class TorchPolicy(Policy):
    name = "torch"
    title = "PyTorch 2 (torch.result_type)"
    source = ("jax-type-promotion-design.md, appendix, torch table; c10::promoteTypes and "
              "at::native::result_type (PyTorch 2.13)")
    dtypes = TORCH_DTYPES
    weak_types = (Weak(DType.int64), Weak(DType.float32), Weak(DType.complex64), Weak(DType.bool))
    default_int = DType.int64
    default_float = DType.float32
    default_complex = DType.complex64
    weak_bool = True
    weak_uint_is_int = True
    rank_sensitive = True

    @functools.cached_property
    def _classic(self) -> Lattice[DType]:
        return Lattice(TORCH_EDGES, name="torch")

    def missing_dtype_reason(self, d: DType) -> str:
        return f": PyTorch 2.13 has no {d.name}" if d.is_low_precision else ""

    def _promote(self, a: DType, b: DType) -> DType | None:
        """``c10::promoteTypes``."""
        if a == b:
            return a
        if a in _FLOAT8 or b in _FLOAT8 or a in _SHELL_SIGNED or b in _SHELL_SIGNED:
            return None
        if a in _UNSIGNED_RULE or b in _UNSIGNED_RULE:
            floats = [d for d in (a, b) if d.is_float()]
            return floats[0] if floats else None
        return self._classic.join(a, b)

    def two_strong(self, a: DType, b: DType) -> Decision:
        if a in _FLOAT8 or b in _FLOAT8:
            return Decision(self._promote(a, b), "float8 dtypes promote only with themselves", _FLOAT8_WHY)
        if a in _SHELL_SIGNED or b in _SHELL_SIGNED:
            return Decision(self._promote(a, b), "int1/int2/int4 promote only with themselves", _SHELL_WHY)
        rule = ("uint1..uint4 and uint16/uint32/uint64 promote only with themselves and with floating types"
                if a in _UNSIGNED_RULE or b in _UNSIGNED_RULE
                else "join on PyTorch's promoteTypes lattice")
        return Decision(self._promote(a, b), rule, _BAREBONES_WHY)

    def weak_and_strong(self, w: Weak, d: DType) -> Decision:
        """A Python scalar: ``combine(tensor dtype, scalar's default dtype)``."""
        if _CATEGORY[w.dtype.kind] <= _CATEGORY[d.kind]:
            return Decision(d, f"a Python scalar of a category no higher than the tensor's takes its "
                               f"dtype ({d.name})")
        return Decision(self.combine(d, w.dtype),
                        "a Python scalar of a higher category brings its default type (result_type's categories)",
                        self._why_not(d, w.dtype))

    def decide_ranked(self, a: PType, a_zero_dim: bool, b: PType, b_zero_dim: bool) -> Decision:
        """A 0-d tensor beside a dimensioned one is a class lower, as ``result_type`` ranks them."""
        if a_zero_dim == b_zero_dim or isinstance(a, Weak) or isinstance(b, Weak):
            return self.decide(a, b)
        ca, cb = self.canonical(a), self.canonical(b)
        dimensioned, zero = (cb, ca) if a_zero_dim else (ca, cb)
        assert isinstance(dimensioned, DType) and isinstance(zero, DType)
        if _CATEGORY[zero.kind] <= _CATEGORY[dimensioned.kind]:
            return Decision(dimensioned, f"a 0-d tensor of a category no higher than the dimensioned tensor's "
                                         f"takes its dtype ({dimensioned.name})")
        return Decision(self.combine(dimensioned, zero),
                        "a 0-d tensor of a higher category joins with its own dtype (result_type's categories)",
                        self._why_not(dimensioned, zero))

    def combine(self, higher: DType, lower: DType) -> DType | None:
        """``combine_categories(higher, lower)`` for a lower class of a higher category."""
        if lower.is_complex and higher in _FLOAT8:
            return None  # PyTorch has no complex type of a float8 dtype
        if lower.is_complex and higher.is_float():
            # toComplexType: float64 -> complex128, float32/bfloat16 -> complex64, float16 -> complex32,
            # which latticecast lacks: complex64 holds all its values
            return DType.complex128 if higher is DType.float64 else DType.complex64
        if lower.is_complex:
            return lower
        return self._promote(higher, lower)

    @staticmethod
    def _why_not(higher: DType, lower: DType) -> str:
        if lower.is_complex and higher in _FLOAT8:
            return (f"PyTorch has no complex type of {higher.name} for a complex value to join "
                    f"(RuntimeError: Unknown Complex ScalarType for {higher.name})")
        return _SHELL_WHY if higher in _SHELL_SIGNED else _BAREBONES_WHY

    def two_weak(self, a: Weak, b: Weak) -> Decision:
        return Decision(self._promote(a.dtype, b.dtype),
                        f"two Python scalars: a tensor of the promotion of their default types "
                        f"({a.dtype.name}, {b.dtype.name})", _BAREBONES_WHY)

    def nary(self, types: Sequence["PType | str"], zero_dim: Sequence[bool]) -> PType:
        """``at::native::result_type`` over a list: dimensioned tensors, 0-d tensors and Python scalars
        ("wrapped numbers", at their default dtypes) each promote within their class, then
        ``combine_categories(dim, combine_categories(zero, wrapped))``: a lower class counts only where
        its category is higher. A dtype given as a type stands for a dimensioned tensor."""
        given = [self.canonical(t) for t in types]
        classes: dict[str, DType | None] = {"dim": None, "zero": None, "wrapped": None}
        for t, zero in zip(given, zero_dim):
            key = "wrapped" if isinstance(t, Weak) else "zero" if zero else "dim"
            d = dtype_of(t)
            held = classes[key]
            if held is not None:
                joined = self._promote(held, d)
                if joined is None:
                    raise self.error(held, d)
                d = joined
            classes[key] = d
        lower = self._combine_categories(classes["zero"], classes["wrapped"], given)
        found = self._combine_categories(classes["dim"], lower, given)
        assert found is not None
        return found

    def _combine_categories(self, higher: DType | None, lower: DType | None, given: Sequence[PType]) -> DType | None:
        """``combine_categories``, with ``None`` for an empty class (``ScalarType::Undefined``)."""
        if higher is None:
            return lower
        if lower is None or _CATEGORY[lower.kind] <= _CATEGORY[higher.kind] and not (
                higher.is_bool and lower.is_bool):
            return higher
        found = self.combine(higher, lower)
        if found is None:
            raise PromotionError(
                f"no implicit promotion of {', '.join(self.type_name(t) for t in given)} under policy "
                f"{self.name!r}: {self._why_not(higher, lower)}", lhs=higher, rhs=lower, policy=self.name)
        return found

    @functools.cached_property
    def literals(self) -> LiteralRules:
        """PyTorch gives inf for a float literal too large; it wraps out-of-range ints, which we refuse."""
        return LiteralRules(self, overflow_to_inf=True)

    @functools.cached_property
    def op_types(self) -> OpTypeRules:
        return TorchOpTypes(self)

    @functools.cached_property
    def numpy_values(self) -> NumpyValueRules:
        """PyTorch reads a NumPy scalar as a Python number (:class:`TorchNumpyValues`)."""
        return TorchNumpyValues(self)


class TorchOpTypes(OpTypeRules):
    """``torch.true_divide`` (sums as the default: ``torch.sum`` widens bool and integers to int64)."""

    def true_divide(self, t: "PType | str") -> PType | None:
        """``torch.true_divide``: bool and every integer (``int64`` too) divide in the default
        float dtype, float32; floats and complex keep their type."""
        t = self.policy.canonical(t)
        return t if dtype_of(t).is_inexact else DType.float32


class TorchNumpyValues(NumpyValueRules):
    """PyTorch takes a NumPy scalar as a Python number, a "wrapped number" (measured, torch 2.13: ``int8
    tensor + np.float64(1)`` is float32, as ``+ 1.0`` is; a 0-d float64 tensor would give float64): a
    NumPy integer is a Python ``int``; ``np.bool_``, a NumPy float and ``np.complex64`` are a Python
    ``float`` (``bool tensor + np.bool_(True)`` is float32, and ``np.complex64`` loses its imaginary part
    with a ``ComplexWarning``); ``np.complex128``, a ``complex`` subclass, is a Python ``complex``. NumPy
    arrays stay strongly typed."""

    @property
    def scalars_are_python(self) -> bool:
        return True

    def scalar(self, value: np.generic) -> Scalar:
        """The Python number PyTorch makes of ``value``. A ``np.complex64`` with a non-zero imaginary part
        is refused here rather than silently made real as PyTorch makes it."""
        if isinstance(value, np.integer):
            return int(value)
        if isinstance(value, np.complex128):
            return complex(value)
        if isinstance(value, np.complexfloating):
            if value.imag != 0:
                raise LiteralRangeError(
                    f"PyTorch reads the NumPy scalar {value!r} as a Python float and drops its imaginary part "
                    "(ComplexWarning); write complex(x) for a complex operand, or x.real for a real one",
                    policy=self.policy.name)
            return float(value.real)
        if isinstance(value, (np.bool_, np.floating)):
            return float(value)
        return super().scalar(value)

    def scalar_type(self, value: np.generic, *, in_result_type: bool = False) -> PType:
        if isinstance(value, np.complexfloating) and not isinstance(value, np.complex128):
            return self.policy.literals.type_of(0.0)  # the type PyTorch gives it, whatever its imaginary part
        return super().scalar_type(value, in_result_type=in_result_type)
