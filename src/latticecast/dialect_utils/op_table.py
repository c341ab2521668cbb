"""Which StableHLO ops the ``implicit-cast`` pass legalises, and how weakness flows through the rest.

Every op listed in :data:`PROMOTABLE` requires its *value* operands to share an
element type; the pass joins their types on the policy's lattice. Ops in
:data:`WEAK_TRANSPARENT` pass weakness from operand to result (the negation of a
Python scalar is still weakly typed, as in JAX); of those, :data:`RETYPABLE`
are pure data movement, so a weak constant seen through them can be rebuilt at
its target type instead of being converted.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..dtypes import DType

__all__ = ["PromotableOp", "PROMOTABLE", "WEAK_TRANSPARENT", "RETYPABLE", "WEAK_ATTR"]

WEAK_ATTR = "latticecast.weak"
"""The unit attribute that marks a weakly typed value's defining op (or function argument)."""


@dataclass(frozen=True)
class PromotableOp:
    """An op whose value operands must share an element type.

    ``values``: indices of the operands that take part in promotion (``None``: all).
    ``result``: ``"same"`` (the promoted type), ``"bool"`` (``i1``: compare),
    ``"complex"`` (complex of the promoted float type) or ``"accumulate"`` (the promoted
    type or any type above it on the lattice: a dot's accumulation type, as JAX emits
    ``bf16 x bf16 -> f32``).
    ``needs``: the kinds the promoted type must have for the op to exist in StableHLO.
    """

    name: str
    values: tuple[int, ...] | None = None
    result: str = "same"
    needs: str = "any"  # any | numeric | float | integer | integer_or_bool | real_float

    def admits(self, dtype: DType) -> bool:
        if self.needs == "any":
            return True
        if self.needs == "numeric":
            return not dtype.is_bool
        if self.needs == "float":
            return dtype.is_inexact
        if self.needs == "real_float":
            return dtype in (DType.float32, DType.float64)
        if self.needs == "integer":
            return dtype.is_integral
        if self.needs == "integer_or_bool":
            return dtype.is_integral or dtype.is_bool
        raise AssertionError(self.needs)

    @property
    def requirement(self) -> str:
        return {"numeric": "numbers (not bool)", "float": "floating-point or complex operands",
                "real_float": "f32 or f64 operands", "integer": "integer operands (not bool or float)",
                "integer_or_bool": "integer or bool operands"}.get(self.needs, "operands")


def _ops(*ops: PromotableOp) -> dict[str, PromotableOp]:
    return {op.name: op for op in ops}


PROMOTABLE: dict[str, PromotableOp] = _ops(
    PromotableOp("stablehlo.add"),
    PromotableOp("stablehlo.subtract", needs="numeric"),
    PromotableOp("stablehlo.multiply"),
    PromotableOp("stablehlo.divide", needs="numeric"),
    PromotableOp("stablehlo.remainder", needs="numeric"),
    PromotableOp("stablehlo.power", needs="numeric"),
    PromotableOp("stablehlo.maximum"),
    PromotableOp("stablehlo.minimum"),
    PromotableOp("stablehlo.atan2", needs="float"),
    PromotableOp("stablehlo.and", needs="integer_or_bool"),
    PromotableOp("stablehlo.or", needs="integer_or_bool"),
    PromotableOp("stablehlo.xor", needs="integer_or_bool"),
    PromotableOp("stablehlo.shift_left", needs="integer"),
    PromotableOp("stablehlo.shift_right_arithmetic", needs="integer"),
    PromotableOp("stablehlo.shift_right_logical", needs="integer"),
    PromotableOp("stablehlo.compare", result="bool"),
    PromotableOp("stablehlo.select", values=(1, 2)),
    PromotableOp("stablehlo.clamp"),
    PromotableOp("stablehlo.dot_general", result="accumulate", needs="numeric"),
    PromotableOp("stablehlo.dot", result="accumulate", needs="numeric"),
    PromotableOp("stablehlo.complex", result="complex", needs="real_float"),
)

RETYPABLE = frozenset({
    "stablehlo.broadcast_in_dim", "stablehlo.reshape", "stablehlo.transpose", "stablehlo.slice",
    "stablehlo.reverse",
})

WEAK_TRANSPARENT = RETYPABLE | frozenset({
    "stablehlo.negate", "stablehlo.abs", "stablehlo.exponential", "stablehlo.log", "stablehlo.sqrt",
    "stablehlo.rsqrt", "stablehlo.tanh", "stablehlo.sine", "stablehlo.cosine", "stablehlo.floor",
    "stablehlo.ceil", "stablehlo.round_nearest_afz", "stablehlo.round_nearest_even", "stablehlo.sign",
    "stablehlo.not", "stablehlo.exponential_minus_one", "stablehlo.log_plus_one", "stablehlo.logistic",
    "stablehlo.concatenate", "stablehlo.pad",
})
