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
other op, and TensorFlow 2.21 still does: ``tf.add`` converts its first argument
on its own before looking at the second, so ``tf.add(0, uint8 tensor)`` fails,
while ``tf.multiply``, ``tf.subtract``, ``tf.where`` and the ``+`` operator give
``uint8``; and ``tf.add`` has no bool kernel, which is its domain, not promotion
(``tf.where`` and ``tf.equal`` take two bool tensors). Those 20 cells are the
policy's errata (:data:`PUBLISHED_TABLE_ERRATA`).

Not modelled: a Python ``bool`` converts to some numeric dtypes (``uint64``,
``int32``, ``int64``, ``float16``/``32``/``64``, ``complex128``) and not to others,
an artifact of TensorFlow's conversion fast path rather than a rule; the policy
treats it as ``tf.constant(True)``, a bool tensor. Out-of-range ints, which
TensorFlow wraps silently (``int8 tensor * 1000`` multiplies by -24), are refused
by :meth:`TensorflowPolicy.check_literal`. The opt-in NumPy-style promotion of
``tf.experimental.numpy`` (``dtype_conversion_mode``) is a different system.
"""

from __future__ import annotations

from ..dtypes import DType, Kind
from ..errors import PromotionError
from ..weak import PType, Weak, dtype_of
from .base import Literal, Policy, by_name, weak_and_strong
from .numpy import check_literal_overflow_to_inf

__all__ = ["TensorflowPolicy", "PUBLISHED_TABLE_ERRATA"]

_D = DType

TF_DTYPES = by_name(["bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
                     "bfloat16", "float16", "float32", "float64", "complex64", "complex128"])

_I, _F, _C = Weak(_D.int32), Weak(_D.float32), Weak(_D.complex128)

_CONVERTS_TO: dict[Kind, frozenset[Kind]] = {
    Kind.SIGNED: frozenset({Kind.SIGNED, Kind.UNSIGNED, Kind.FLOAT, Kind.COMPLEX}),
    Kind.FLOAT: frozenset({Kind.FLOAT, Kind.COMPLEX}),
    Kind.COMPLEX: frozenset({Kind.COMPLEX}),
}
"""Which dtype kinds ``tf.convert_to_tensor`` accepts a Python scalar of each kind for."""


def _errata() -> dict[tuple[PType, PType], tuple[PType | None, PType, str]]:
    seed_i, seed_f, seed_c = Weak(_D.int64), Weak(_D.float64), Weak(_D.complex128)  # the seed's labels
    cells: dict[tuple[PType, PType], tuple[PType | None, PType, str]] = {
        (_D.bool, _D.bool): (None, _D.bool,
                             "the table was made with tf.add, which has no bool kernel; that is add's "
                             "domain, not promotion: tf.where and tf.equal take two bool tensors"),
    }
    for w in (seed_i, seed_f, seed_c):
        alone = TensorflowPolicy.default_of(w.dtype.kind)
        for d in TF_DTYPES:
            if d.kind in _CONVERTS_TO[w.dtype.kind] and d != alone:
                cells[(w, d)] = (None, d, (
                    f"tf.add converts a Python {_PY[w.dtype.kind]} first argument on its own (to {alone.name}) "
                    f"before it looks at the tensor; every other op (tf.multiply, tf.where, the + operator) "
                    f"converts it to the tensor's dtype, {d.name}, as tf.add does with a scalar second "
                    "(TensorFlow 2.21)"))
    return cells


_PY = {Kind.SIGNED: "int", Kind.FLOAT: "float", Kind.COMPLEX: "complex"}


class TensorflowPolicy(Policy):
    name = "tensorflow"
    title = "TensorFlow 2 (no implicit promotion; Python scalars convert)"
    source = "jax-type-promotion-design.md, appendix, tensorflow table; measured with TensorFlow 2.21"
    dtypes = TF_DTYPES
    weak_types = (_I, _F, _C)
    default_int = DType.int32
    default_float = DType.float32
    default_complex = DType.complex128
    published_table_name = "design_tensorflow"

    @staticmethod
    def default_of(kind: Kind) -> DType:
        """The dtype TensorFlow gives a lone Python scalar of ``kind`` (``tf.constant(1)`` is int32)."""
        return {Kind.SIGNED: _D.int32, Kind.UNSIGNED: _D.int32, Kind.FLOAT: _D.float32,
                Kind.COMPLEX: _D.complex128, Kind.BOOL: _D.bool}[kind]

    def errata(self) -> dict[tuple[PType, PType], str]:
        return {cell: why for cell, (_, _, why) in PUBLISHED_TABLE_ERRATA.items()}

    # -- the rules ------------------------------------------------------------------------

    def _join(self, a: PType, b: PType) -> PType | None:
        if isinstance(a, Weak) and isinstance(b, Weak):
            # the first scalar becomes a tensor of its default dtype; the second must convert to it
            first = a.dtype
            return first if first.kind in _CONVERTS_TO[b.dtype.kind] else None
        if isinstance(a, Weak) or isinstance(b, Weak):
            w, d = weak_and_strong(a, b)
            return d if d.kind in _CONVERTS_TO[w.dtype.kind] else None
        return a if a == b else None

    def _canonical_weak(self, t: Weak) -> PType:
        # One weak type per Python scalar type; a weak bool is a bool constant (see the module doc).
        return {Kind.BOOL: _D.bool, Kind.SIGNED: _I, Kind.UNSIGNED: _I, Kind.FLOAT: _F,
                Kind.COMPLEX: _C}[t.dtype.kind]

    def why_undefined(self, a: PType, b: PType) -> str:
        if isinstance(a, Weak) and isinstance(b, Weak):
            return (f"TensorFlow makes the first Python scalar a tensor of dtype {a.dtype.name} and cannot "
                    f"convert the second, a Python {_PY[b.dtype.kind]}, to {a.dtype.name}")
        if isinstance(a, Weak) or isinstance(b, Weak):
            w, d = weak_and_strong(a, b)
            return (f"TensorFlow cannot convert a Python {_PY[w.dtype.kind]} to the tensor's dtype {d.name} "
                    f"(TypeError: Cannot convert ... to EagerTensor of dtype {d.name})")
        return "TensorFlow does no implicit promotion: both operands of an op must have the same dtype"

    # -- literals and division ---------------------------------------------------------------

    def check_literal(self, value: Literal, target: DType) -> None:
        """A number too large for a float dtype becomes inf, as in TensorFlow. An int outside
        an integer dtype's range is refused, where TensorFlow wraps it silently."""
        check_literal_overflow_to_inf(self, value, target)

    def true_divide_type(self, t: "PType | str") -> PType | None:
        """``tf.math.truediv``: 8- and 16-bit integers divide in float32, 32- and 64-bit ones
        in float64 (a weak int is an int32, so float64); bool is refused ("Invalid dtype
        tf.bool in __truediv__"); floats and complex keep their type."""
        t = self.canonical(t)
        d = dtype_of(t)
        if d.is_inexact:
            return t
        if d.is_bool:
            raise PromotionError(
                f"no true division of {self.type_name(t)} under policy {self.name!r}: tf.math.truediv "
                "rejects bool operands; make it explicit: cast bool to float32 (x.cast(DType.float32) in a "
                "graph, stablehlo.convert to f32 in IR)",
                lhs=t, policy=self.name, cast_to=DType.float32)
        if isinstance(t, Weak):
            d = self.materialize(t)
        return DType.float32 if d.bitwidth <= 16 else DType.float64

    def rule(self, a: PType, b: PType) -> str:
        if isinstance(a, Weak) and isinstance(b, Weak):
            return "the first Python scalar takes its default dtype; the second converts to it"
        if isinstance(a, Weak) or isinstance(b, Weak):
            return "a Python scalar converts to the dtype of the tensor"
        return "equal dtypes (TensorFlow does no implicit promotion)"


PUBLISHED_TABLE_ERRATA: dict[tuple[PType, PType], tuple[PType | None, PType, str]] = _errata()
"""(row, column) in the seed table's labels -> (published, the policy's answer, why): the cells
where the tf.add table is not TensorFlow's promotion."""
