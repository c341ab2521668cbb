"""Unary ops and reductions are data (``op_rules.UNARY``), checked by the builder and the pass alike."""

from __future__ import annotations

import re
from typing import Callable

import pytest
from jaxlib.mlir import ir

from latticecast import DomainError, DType, Graph, TensorType, ops
from latticecast.dialect_utils.context import strict_context
from latticecast.promotion.op_rules import UNARY, UNARY_STABLEHLO, Needs, UnaryRule, check_unary

DTYPES = (DType.bool, DType.int8, DType.int32, DType.uint8, DType.uint32, DType.float16, DType.bfloat16,
          DType.float32, DType.float64, DType.float8_e4m3fn, DType.complex64, DType.complex128)

BUILDER: dict[str, Callable[..., object]] = {
    "unary -": ops.negative, "abs": ops.abs, "sign": ops.sign, "~": ops.invert, "floor": ops.floor,
    "ceil": ops.ceil, "round": ops.round, "trunc": ops.trunc, "is_inf": ops.is_inf,
    "max": lambda v: ops.max(v), "min": lambda v: ops.min(v), "argmax": ops.argmax, "argmin": ops.argmin,
    "reduce_max": lambda v: ops.reduce_max(v, 0), "reduce_min": lambda v: ops.reduce_min(v, 0),
    "var": lambda v: v.var(),
}


def _verifier_accepts(op: str, dtype: DType) -> bool:
    """Whether StableHLO's verifier (the one in this jaxlib) takes ``op`` with an operand of ``dtype``."""
    result = dtype.mlir_name
    if op == "stablehlo.abs" and dtype.is_complex:  # the magnitude of a complex number is real
        result = "f32" if dtype is DType.complex64 else "f64"
    text = (f'func.func @f(%a: tensor<2x{dtype.mlir_name}>) -> tensor<2x{result}> {{\n'
            f'  %0 = "{op}"(%a) : (tensor<2x{dtype.mlir_name}>) -> tensor<2x{result}>\n'
            f'  return %0 : tensor<2x{result}>\n}}')
    with strict_context():
        try:
            ir.Module.parse(text)
        except ir.MLIRError:
            return False
    return True


@pytest.mark.parametrize("rule", list(UNARY_STABLEHLO.values()), ids=lambda r: r.op)
def test_the_pass_domain_is_exactly_what_stablehlo_verifies(rule: UnaryRule) -> None:
    """The pass reports only what the verifier rejects (it never rejects a legal op), and all of it."""
    assert rule.op is not None
    disagree = [d.name for d in DTYPES if _verifier_accepts(rule.op, d) != rule.needs.admits(d)]
    assert disagree == [], f"{rule.op}: op_rules and StableHLO's verifier disagree on {disagree}"


@pytest.mark.parametrize("name", sorted(BUILDER))
def test_the_builder_refuses_exactly_outside_the_domain(name: str) -> None:
    rule = UNARY[name]
    for dtype in DTYPES:
        with Graph(f"u_{dtype.name}", input_types=[TensorType(dtype, [3])]) as g:
            (x,) = g.inputs
            if rule.domain.admits(dtype):
                BUILDER[name](x)
            else:
                with pytest.raises(DomainError, match="^" + re.escape(
                        f"{name} is not defined for {dtype.name}: it takes {rule.domain.value}; {rule.fix}")):
                    BUILDER[name](x)


def test_every_builder_rule_is_exercised_and_names_its_fix() -> None:
    assert {n for n, r in UNARY.items() if r.op is None or r.accepts is not Needs.ANY} - set(BUILDER) == \
        {"round_nearest_afz"}  # emitted by no builder op; the pass checks it
    with pytest.raises(DomainError, match=r"unary - is not defined for bool: it takes numbers \(not bool\); "
                                          r"use ~ \(logical not, stablehlo.not\) for bool, or cast first"):
        check_unary(UNARY["unary -"], DType.bool)
    assert check_unary(UNARY["abs"], DType.uint8) is False  # the builder returns it as it is
    assert check_unary(UNARY["exp"], DType.int16) is False  # the builder converts it to a float first
    assert check_unary(UNARY["exp"], DType.float16) is True
