"""TensorFlow's (lack of) promotion: equal dtypes only, and Python scalars converted to the tensor's dtype.

TensorFlow's ops take one type attribute ``T`` for all their operands, so two
tensors of different dtypes never meet: ``int8 + int16`` is an error, and the
program must cast. A Python scalar is converted to a tensor of the *other
operand's* dtype when its value kind fits (``tf.convert_to_tensor(0, tf.uint8)``):

* a Python ``int`` converts to any integer, float or complex dtype, not to bool;
* a Python ``float`` to any float or complex dtype;
* a Python ``complex`` to a complex dtype only.

With two Python scalars, TensorFlow converts the first on its own (``int`` ->
``int32``, ``float`` -> ``float32``, ``complex`` -> ``complex128``) and the second
to that dtype, so ``1.0 * 2`` is ``float32`` but ``2 * 1.0`` is an error: the one
asymmetry left, kept here because it is what every TensorFlow op does with two
scalars (the three pairs show up as the policy's non-commutative cells).

The 2021 appendix table was measured with ``tf.add``, which differs from every
other op (see :mod:`latticecast.evidence.tensorflow`).

Not modelled: a Python ``bool`` converts to some numeric dtypes and not to others,
an artifact of TensorFlow's conversion fast path rather than a rule; the policy
treats it as ``tf.constant(True)``, a bool tensor. Out-of-range ints, which
TensorFlow wraps silently (``int8 tensor * 1000`` multiplies by -24), are refused.
The opt-in NumPy-style promotion of ``tf.experimental.numpy`` is a different system.

TensorFlow 2.21 has ten of the low-precision dtypes (:data:`.lattices.TF_STORAGE_ONLY`:
five float8 types, ``float4_e2m1fn``, ``int4``, ``uint4``, ``int2``, ``uint2``) for
storage only: no arithmetic op takes them, not even two of the same dtype (``AddV2``
and ``Mul`` exclude them from their type lists), a Python scalar cannot meet them,
and TensorFlow's own promotion function (``flexible_dtypes.result_type``) refuses
them even paired with themselves. The policy refuses every promotion involving one;
the other seven (``float8_e3m4``, ``float8_e4m3``, ``float8_e8m0fnu``, the float6
types, ``int1``, ``uint1``) TensorFlow does not have.
"""

from __future__ import annotations

import functools

from ..promotion.dtypes import DType, Kind
from ..errors import DomainError
from ..promotion.weak import PType, Weak, dtype_of
from .base import Decision, Policy
from .components import LiteralRules, OpTypeRules
from .lattices import TF_DTYPES, TF_STORAGE_ONLY

__all__ = ["TensorflowPolicy", "default_of"]

CONVERTS_TO: dict[Kind, frozenset[Kind]] = {
    Kind.SIGNED: frozenset({Kind.SIGNED, Kind.UNSIGNED, Kind.FLOAT, Kind.COMPLEX}),
    Kind.FLOAT: frozenset({Kind.FLOAT, Kind.COMPLEX}),
    Kind.COMPLEX: frozenset({Kind.COMPLEX}),
}
"""Which dtype kinds ``tf.convert_to_tensor`` accepts a Python scalar of each kind for."""

_PY = {Kind.SIGNED: "int", Kind.FLOAT: "float", Kind.COMPLEX: "complex"}


_STORAGE_ONLY = frozenset(TF_STORAGE_ONLY)


def _storage_why(d: DType) -> str:
    return (f"TensorFlow 2.21 holds {d.name} for storage only: no arithmetic op accepts it, even with itself "
            f"(AddV2: \"Value for attr 'T' of {d.name} is not in the list of allowed values\"), and "
            "flexible_dtypes.result_type refuses it")


def default_of(kind: Kind) -> DType:
    """The dtype TensorFlow gives a lone Python scalar of ``kind`` (``tf.constant(1)`` is int32)."""
    return {Kind.SIGNED: DType.int32, Kind.UNSIGNED: DType.int32, Kind.FLOAT: DType.float32,
            Kind.COMPLEX: DType.complex128, Kind.BOOL: DType.bool}[kind]


class TensorflowPolicy(Policy):
    name = "tensorflow"
    title = "TensorFlow 2 (no implicit promotion; Python scalars convert)"
    source = "jax-type-promotion-design.md, appendix, tensorflow table; measured with TensorFlow 2.21"
    dtypes = TF_DTYPES
    weak_types = (Weak(DType.int32), Weak(DType.float32), Weak(DType.complex128))
    default_int = DType.int32
    default_float = DType.float32
    default_complex = DType.complex128
    weak_uint_is_int = True

    def missing_dtype_reason(self, d: DType) -> str:
        return f": TensorFlow 2.21 has no {d.name}" if d.is_low_precision else ""

    def two_strong(self, a: DType, b: DType) -> Decision:
        storage = [d for d in (a, b) if d in _STORAGE_ONLY]
        if storage:
            return Decision(None, "low-precision dtypes are storage-only in TensorFlow", _storage_why(storage[0]))
        return Decision(a if a == b else None, "equal dtypes (TensorFlow does no implicit promotion)",
                        "TensorFlow does no implicit promotion: both operands of an op must have the same dtype")

    def weak_and_strong(self, w: Weak, d: DType) -> Decision:
        if d in _STORAGE_ONLY:
            return Decision(None, "low-precision dtypes are storage-only in TensorFlow", _storage_why(d))
        return Decision(d if d.kind in CONVERTS_TO[w.dtype.kind] else None,
                        "a Python scalar converts to the dtype of the tensor",
                        f"TensorFlow cannot convert a Python {_PY[w.dtype.kind]} to the tensor's dtype {d.name} "
                        f"(TypeError: Cannot convert ... to EagerTensor of dtype {d.name})")

    def two_weak(self, a: Weak, b: Weak) -> Decision:
        # the first scalar becomes a tensor of its default dtype; the second must convert to it
        return Decision(a.dtype if a.dtype.kind in CONVERTS_TO[b.dtype.kind] else None,
                        "the first Python scalar takes its default dtype; the second converts to it",
                        f"TensorFlow makes the first Python scalar a tensor of dtype {a.dtype.name} and cannot "
                        f"convert the second, a Python {_PY[b.dtype.kind]}, to {a.dtype.name}")

    @functools.cached_property
    def literals(self) -> LiteralRules:
        """TensorFlow gives inf for a float literal too large."""
        return LiteralRules(self, overflow_to_inf=True)

    @functools.cached_property
    def op_types(self) -> OpTypeRules:
        return TensorflowOpTypes(self)


class TensorflowOpTypes(OpTypeRules):
    """``tf.math.truediv`` (sums as the default)."""

    def true_divide(self, t: "PType | str") -> PType | None:
        """``tf.math.truediv``: 8- and 16-bit integers divide in float32, 32- and 64-bit ones
        in float64 (a weak int is an int32, so float64); bool is refused ("Invalid dtype
        tf.bool in __truediv__"); floats and complex keep their type."""
        policy = self.policy
        t = policy.canonical(t)
        d = dtype_of(t)
        if d.is_inexact:
            return t
        if d.is_bool:
            raise DomainError(
                f"no true division of {policy.type_name(t)} under policy {policy.name!r}: tf.math.truediv "
                "rejects bool operands; make it explicit: cast bool to float32 (x.cast(DType.float32) in a "
                "graph, stablehlo.convert to f32 in IR)",
                lhs=t, policy=policy.name, cast_to=DType.float32)
        if isinstance(t, Weak):
            d = policy.materialize(t)
        return DType.float32 if d.bitwidth <= 16 else DType.float64
