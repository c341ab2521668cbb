"""The ``max-python`` policy against MAX 26.7's ``max.graph``, cell by cell.

``tools/measure_max_python.py`` built one graph per cell with MAX itself
(``evidence/measured/max_python_cells.csv``). Every cell whose operands latticecast models
is reproduced here twice: by the policy (``op_rules.decide`` and the literal checks, the
decision both the builder and the pass make) and by the graph builder
(``latticecast.max``, whose default policy is ``max-python``): the same dtype, or a
refusal that carries MAX's reason. NumPy scalars and arrays (weak under ``max-python``,
as MAX's "non-max objects" are) are the builder's to turn into literals and weak arrays,
so their cells are compared with the builder. The cells where latticecast knowingly differs are
``evidence.max_python.erratum``'s, and the tests check that they are exactly the cells
that differ. With MAX installed (or ``$LATTICECAST_MAX_PYTHON`` naming an interpreter that
has it) the tool measures MAX again and every cell is compared with the live answer.
"""

from __future__ import annotations

import ast
import csv
import functools
import importlib.util
import math
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Iterable, NamedTuple

import numpy as np
import pytest

import latticecast.max as lc_max
from latticecast import DomainError, DType, GraphError, LiteralRangeError, PromotionError, audit, policies, policy
from latticecast.evidence import evidence, measured_records
from latticecast.evidence.max_python import (BOOL_DOMAIN_OPS, CONSTANT_ERRATA, MEASUREMENT, NOT_MODELLED,
                                             erratum, not_modelled, operand_label_kind)
from latticecast.promotion.op_rules import FLOOR_DIVIDE, STABLEHLO, TRUE_DIVIDE, OpRule, decide
from latticecast.policies.components import NumpyValueRules
from latticecast.promotion.weak import Weak

ROOT = Path(__file__).resolve().parents[1]
TOOL = ROOT / "tools" / "measure_max_python.py"
POL = policy("max-python")
D = DType
CPU = lc_max.DeviceRef.CPU()

# -- reading the measured cells ---------------------------------------------------------------------------------


class Cell(NamedTuple):
    op: str
    lhs: str
    rhs: str
    result: str  # a dtype name or "error"
    message: str


def read_cells(rows: Iterable[dict[str, str]]) -> list[Cell]:
    return [Cell(r["op"], r["lhs"], r["rhs"], r["result"], r["message"]) for r in rows]


STORED = read_cells(measured_records(MEASUREMENT).rows)


def scalar(label: str) -> bool | int | float:
    """The Python scalar a ``py_*`` label stands for."""
    kind, _, text = label.partition(":")
    if kind == "py_bool":
        return text == "True"
    if kind == "py_int":
        return int(text)
    assert kind == "py_float", label
    return float(text)  # 'inf', 'nan' and '1e+300' too


def is_numpy(label: str) -> bool:
    return operand_label_kind(label).startswith("np_")


def numpy_value(label: str) -> np.generic | np.ndarray:
    """The NumPy scalar or array an ``np_*`` label stands for (``np_uint8:200``, ``np_array_int64:[1, 300]``)."""
    kind, _, text = label.partition(":")
    if kind.startswith("np_array_"):
        return np.array(ast.literal_eval(text), dtype=kind[len("np_array_"):])
    return np.dtype(kind[len("np_"):]).type(ast.literal_eval(text))


def operand(label: str) -> Any:
    """A dtype for a graph value's label, else the Python scalar or the NumPy value."""
    if operand_label_kind(label) == "dtype":
        return DType(label)
    return numpy_value(label) if is_numpy(label) else scalar(label)


# -- what latticecast answers ---------------------------------------------------------------------------------

ADD, MUL, SUB = (STABLEHLO[f"stablehlo.{n}"] for n in ("add", "multiply", "subtract"))
RULES: dict[str, OpRule] = {
    "x+y": ADD, "ops.add": ADD, "x+s": ADD, "s+x": ADD, "ops.add(x,s)": ADD, "ops.add(s,x)": ADD,
    "x*y": MUL, "x*s": MUL, "ops.mul": MUL, "x-y": SUB,
    "x/y": TRUE_DIVIDE, "ops.div": TRUE_DIVIDE, "x/s": TRUE_DIVIDE, "s/x": TRUE_DIVIDE,
    "x//y": FLOOR_DIVIDE, "x%y": FLOOR_DIVIDE, "x//s": FLOOR_DIVIDE, "x%s": FLOOR_DIVIDE,
    "x**y": STABLEHLO["stablehlo.power"],
    "ops.max": STABLEHLO["stablehlo.maximum"], "ops.max(x,s)": STABLEHLO["stablehlo.maximum"],
    "ops.min": STABLEHLO["stablehlo.minimum"],
    "x==y": STABLEHLO["stablehlo.compare"], "x>y": STABLEHLO["stablehlo.compare"],
    "x&y": STABLEHLO["stablehlo.and"],
    "ops.where(c,x,y)": STABLEHLO["stablehlo.select"], "ops.where(c,x,s)": STABLEHLO["stablehlo.select"],
    "ops.matmul": STABLEHLO["stablehlo.dot_general"],
}
"""The op rule the builder decides each measured op with (concat and stack do not promote)."""

BUILDERS: dict[str, Callable[..., Any]] = {
    "x+y": lambda ops, x, y: x + y, "ops.add": lambda ops, x, y: ops.add(x, y), "x*y": lambda ops, x, y: x * y,
    "x/y": lambda ops, x, y: x / y, "ops.div": lambda ops, x, y: ops.div(x, y),
    "ops.max": lambda ops, x, y: ops.max(x, y), "x//y": lambda ops, x, y: x // y, "x%y": lambda ops, x, y: x % y,
    "x-y": lambda ops, x, y: x - y, "x**y": lambda ops, x, y: x ** y, "ops.min": lambda ops, x, y: ops.min(x, y),
    "x==y": lambda ops, x, y: x == y, "x>y": lambda ops, x, y: x > y, "x&y": lambda ops, x, y: x & y,
    "ops.where(c,x,y)": lambda ops, x, y, c: ops.where(c, x, y), "ops.matmul": lambda ops, x, y: ops.matmul(x, y),
    "ops.concat": lambda ops, x, y: ops.concat([x, y]), "ops.stack": lambda ops, x, y: ops.stack([x, y]),
    # a graph value x and a Python scalar s (the label order is the expression's)
    "x+s": lambda ops, x, s: x + s, "s+x": lambda ops, s, x: s + x,
    "ops.add(x,s)": lambda ops, x, s: ops.add(x, s), "ops.add(s,x)": lambda ops, s, x: ops.add(s, x),
    "x*s": lambda ops, x, s: x * s, "x/s": lambda ops, x, s: x / s, "s/x": lambda ops, s, x: s / x,
    "x//s": lambda ops, x, s: x // s, "x%s": lambda ops, x, s: x % s,
    "ops.max(x,s)": lambda ops, x, s: ops.max(x, s), "ops.where(c,x,s)": lambda ops, x, s, c: ops.where(c, x, s),
    "ops.mul": lambda ops, x, y: ops.mul(x, y),
}
"""Each measured op as the measuring tool wrote it, for latticecast.max's ops."""


def _constant_builder(op: str) -> Callable[[Any], Any]:
    """A measured ``ops.constant(value,dtype)`` cell (``+py_int:1`` adds a Python 1 to it)."""
    inner = op[len("ops.constant("):op.index(")")]
    if inner == "1":
        return lambda ops: ops.constant(1)
    if inner == "np.float32 arr":
        return lambda ops: ops.constant(np.array([1.0], np.float32), device=CPU)
    value, dtype = ast.literal_eval(inner.split(",")[0]), DType(inner.split(",")[1])
    if op.endswith("+py_int:1"):
        return lambda ops: ops.constant(value, dtype, CPU) + 1
    return lambda ops: ops.constant(value, dtype, CPU)


def _no_graph_value_builder(cell: Cell) -> Callable[[Any], Any] | None:
    if cell.op.startswith("ops.constant("):
        return _constant_builder(cell.op)
    if cell.op in ("ops.exp", "ops.negate"):
        return lambda ops: getattr(ops, cell.op[4:])(operand(cell.lhs))
    return None


def policy_answer(cell: Cell) -> tuple[str, str] | None:
    """The policy's answer for ``cell`` (``None`` for an op that does not promote, or a NumPy operand,
    which the builder turns into a literal or a weak array): the decision of ``op_rules.decide``, then
    each Python literal checked as the builder checks it."""
    if cell.op == "TensorType":
        return (cell.lhs, "") if DType(cell.lhs) in POL.dtypes else ("error", "not a dtype of the policy")
    rule = RULES.get(cell.op)
    if rule is None or is_numpy(cell.lhs) or is_numpy(cell.rhs):
        return None
    operands = [operand(label) for label in (cell.lhs, cell.rhs)]
    try:
        d = decide(POL, rule, [x if isinstance(x, DType) else POL.literals.type_of(x) for x in operands])
        for x, dtype in zip(operands, d.operand_dtypes or (d.target, d.target)):
            if not isinstance(x, DType):
                POL.literals.check(x, dtype)
    except (PromotionError, DomainError) as e:
        return "error", str(e)
    return d.result.name, ""


def builder_answers(cells: list[Cell]) -> dict[Cell, tuple[str, str]]:
    """Each cell built with latticecast.max's Graph (default policy: max-python) in one graph per op, its
    inputs one value of each dtype and a bool condition; the answer is the value's dtype or the refusal."""
    ops = lc_max.ops
    types = [lc_max.TensorType(d, [2], CPU) for d in POL.dtypes]
    answers: dict[Cell, tuple[str, str]] = {}
    by_op: dict[str, list[Cell]] = {}
    for cell in cells:
        by_op.setdefault(cell.op, []).append(cell)
    for op, group in by_op.items():
        with lc_max.Graph(f"cells_{len(answers)}", input_types=[*types, lc_max.TensorType(D.bool, [2], CPU)]) as g:
            assert g.policy is POL
            values = {d.name: v for d, v in zip(POL.dtypes, g.inputs)}
            condition = g.inputs[-1]
            for cell in group:
                if cell.op == "TensorType":
                    answers[cell] = (values[cell.lhs].dtype.name, "")
                    continue
                build = _no_graph_value_builder(cell)
                if build is None:
                    args = [values[x] if operand_label_kind(x) == "dtype" else operand(x) for x in (cell.lhs, cell.rhs)]
                    fn = BUILDERS[op]
                    build = (lambda ops, fn=fn, args=args: fn(ops, *args, condition)) if "where" in op else \
                        (lambda ops, fn=fn, args=args: fn(ops, *args))
                try:
                    answers[cell] = (build(ops).dtype.name, "")
                except (PromotionError, DomainError, GraphError) as e:
                    answers[cell] = ("error", str(e))
    return answers


# -- comparing with MAX ---------------------------------------------------------------------------------------

MEANINGS: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = [
    (re.compile(r"Unsafe cast from \S+ to \S+(?=\.)"), lambda m: m.group(0)),
    (re.compile(r"Can't promote python (?:int with value \(\S+\)|float) to dtype\(DType\.\w+\)"), lambda m: m.group(0)),
    (re.compile(r"Cannot create a constant of type 'DType\.\w+' since it is a sub-byte type"), lambda m: m.group(0)),
    (re.compile(r"Binary ops require at least one max object as input"), lambda m: m.group(0)),
    (re.compile(r"Refusing to implicitly promote float array to dtype\(DType\.\w+\)"), lambda m: m.group(0)),
    (re.compile(r"Refusing to implicitly promote external array with precision loss for DType DType\.\w+"),
     lambda m: m.group(0)),
    (re.compile(r"argument must be a TensorValueLike, not '\w+'"), lambda m: m.group(0)),
    (re.compile(r"Concat does not allow .* differing dtype|All inputs to stack must have the same dtype"),
     lambda m: "does not promote (as in MAX)"),
]
"""MAX's reasons for a refusal, and what latticecast's message must then say: MAX's own words for a
promotion's refusal; for concat and stack, that they do not promote. Other refusals (``&`` of
non-bools, an explicit constant out of range) are compared by result only."""


def required_phrase(max_message: str) -> str | None:
    for pattern, phrase in MEANINGS:
        found = pattern.search(max_message)
        if found:
            return phrase(found)
    return None


def agrees(cell: Cell, answer: tuple[str, str]) -> bool:
    """The same dtype as MAX, or a refusal where MAX refuses that gives MAX's reason."""
    result, message = answer
    if result != cell.result:
        return False
    phrase = required_phrase(cell.message) if result == "error" else None
    return phrase is None or phrase in message


def modelled(cells: Iterable[Cell]) -> list[Cell]:
    return [c for c in cells if not_modelled(c.op, c.lhs, c.rhs) is None]


def differing(answers: dict[Cell, tuple[str, str]]) -> set[Cell]:
    return {cell for cell, answer in answers.items() if not agrees(cell, answer)}


def errata(cells: Iterable[Cell]) -> set[Cell]:
    return {c for c in cells if erratum(c.op, c.lhs, c.rhs, c.result) is not None}


# -- the measured table ---------------------------------------------------------------------------------------


def test_the_measurement_is_max_26_7_and_the_cells_are_where_they_were_measured():
    provenance = measured_records(MEASUREMENT).provenance
    assert provenance.startswith("max==26.7.0 ") and "command: python tools/measure_max_python.py" in provenance
    assert len(STORED) == 23228
    ops = Counter(c.op for c in STORED)
    (table,) = evidence(POL).measured.values()  # what `latticecast verify` compares: x + y of every pair
    assert table.cells == POL.table(POL.dtypes).cells
    assert ops["x+y"] == ops["ops.matmul"] == 21 * 21 and ops["TensorType"] == 21
    assert ops["x/s"] == 21 * (41 + 8 + 2 + 8 + 6 + 1)  # Python ints, floats, bools; NumPy scalars, arrays; a Dim


POLICY_CELLS = {c: a for c in modelled(STORED) if (a := policy_answer(c)) is not None}


def test_the_policy_reproduces_every_modelled_cell_but_the_errata():
    differ = differing(POLICY_CELLS)
    assert differ == errata(POLICY_CELLS)
    kinds = Counter("&" if c.op == "x&y" else "bool" for c in differ)
    # & of two integers MAX's + promotes; bool - / // % ** @ bool, and bool / // % a Python int (41 + 2 values)
    assert kinds == {"&": 60, "bool": 7 + 4 * 43}
    assert len(POLICY_CELLS) == 18865


ISSUE_OPS = ["x+y", "ops.add", "x+s", "s+x", "ops.add(x,s)", "ops.add(s,x)", "x*y", "x*s", "x/y", "ops.div", "x/s",
             "s/x", "ops.max", "ops.max(x,s)"]


@pytest.mark.parametrize("op", ISSUE_OPS + ["x-y", "x//y", "x%y", "x//s", "x%s", "x**y", "ops.min", "x==y", "x>y",
                                            "x&y", "ops.where(c,x,y)", "ops.where(c,x,s)", "ops.matmul"])
def test_each_op_agrees_in_every_cell_but_its_errata(op):
    """``+``, ``ops.add``, ``*``, ``/``, ``ops.max`` and the literal range checks agree everywhere but in
    ``/`` of bools (StableHLO has no bool division)."""
    cells = {c: a for c, a in POLICY_CELLS.items() if c.op == op}
    assert len(cells) >= 21 * 21
    assert differing(cells) == errata(cells)
    if op in ISSUE_OPS:
        assert all(c.op in BOOL_DOMAIN_OPS and "bool" in (c.lhs, c.rhs) for c in differing(cells))


BUILDER_CELLS = builder_answers(modelled(STORED))


def numpy_cell(cell: Cell) -> bool:
    return is_numpy(cell.lhs) or is_numpy(cell.rhs)


def built_as_max_builds(cell: Cell) -> bool:
    """Errata of the policy that latticecast.max's Graph resolves: bool arithmetic StableHLO has no op for
    (``-``, ``/``, ``**``, ``@``, ``//``, ``%`` of two bools) builds a bool value there, as in MAX, and compiling
    refuses the graph with MAX's words; and its ``ops.constant`` refuses a Python number without dtype and device,
    as MAX's does."""
    if cell.op == "ops.constant(1)":
        return True
    return cell.op in BOOL_BUILT and cell.lhs == cell.rhs == "bool" and cell.result == "bool"


BOOL_BUILT = {"x-y", "x/y", "ops.div", "x**y", "ops.matmul", "x//y", "x%y"}
"""The measured ops of two bool tensors that MAX builds and latticecast.max's Graph builds too (refusing at compile);
a bool tensor with a Python number (``x / 1``, ``x // True``) is still refused where it is written."""


def test_the_builder_reproduces_every_modelled_cell_but_the_errata():
    answers = BUILDER_CELLS
    differ = differing(answers)
    resolved = {c for c in errata(answers) if built_as_max_builds(c)}
    assert {c.op for c in resolved} == BOOL_BUILT | {"ops.constant(1)"}
    assert differ == errata(answers) - resolved, sorted(differ ^ (errata(answers) - resolved))[:10]
    assert {c.op for c in differ if c not in POLICY_CELLS and not numpy_cell(c)} == \
        set(CONSTANT_ERRATA) - {"ops.constant(1)"}
    # the builder and the policy agree wherever both answer (the builder also builds concat, stack, constants),
    # but in bool arithmetic, which the policy refuses and the MAX graph builds (its compile refuses it)
    assert [c for c, answer in POLICY_CELLS.items() if answers[c][0] != answer[0] and not built_as_max_builds(c)] == []
    numpy_differ = len([c for c in differ if numpy_cell(c)])
    assert (len(answers), len(differ)) == (19757 + 3237, 239 + len(CONSTANT_ERRATA) + numpy_differ - len(resolved))


def test_numpy_values_agree_with_max_but_where_max_returns_numpy_object_arrays():
    """MAX's NumPy cells (8 scalars and 6 arrays with 21 dtypes under 11 ops; 3 without a graph value),
    all compared: the builder gives MAX's dtype or refusal with MAX's reason everywhere but in two
    deliberate differences, the errata's."""
    cells = {c: a for c, a in BUILDER_CELLS.items() if numpy_cell(c) and not c.op.startswith("ops.constant(")}
    assert len(cells) == 14 * 21 * 11 + 3
    differ = differing(cells)
    assert differ == errata(cells)
    why = Counter("numpy operator" if c.result.startswith("non-tensor:") else "bool domain" for c in differ)
    # MAX's result is an object array of graph values: an array on the left of + or / (NumPy's operator ran first)
    assert why["numpy operator"] == len([c for c in STORED if c.result.startswith("non-tensor:")]) == 164
    # / // % of a bool tensor: StableHLO has no bool division (as for Python ints, see the errata)
    assert why["bool domain"] == 38 and all(c.op in BOOL_DOMAIN_OPS and "bool" in (c.lhs, c.rhs)
                                            for c in differ if not c.result.startswith("non-tensor:"))
    # where MAX returned an object array, each of its graph values had the dtype MAX gives a Python scalar
    # of the array's kind (NumPy's operator hands over Python scalars): latticecast's one value has it too
    by_label = {(c.op, c.lhs, c.rhs): c for c in STORED}
    object_arrays = [c for c in differ if c.result.startswith("non-tensor:")]
    for c in object_arrays:
        if cells[c][0] == "error":  # a bool division, which StableHLO has not
            assert c.op in BOOL_DOMAIN_OPS and c.rhs == "bool" and "needs numbers (not bool)" in cells[c][1], c
            continue
        python = by_label[(c.op, python_element_label(c.lhs), c.rhs)]
        assert cells[c][0] == python.result, (c, python)
    assert len([c for c in object_arrays if cells[c][0] != "error"]) == 164 - 1


def python_element_label(label: str) -> str:
    """A measured Python scalar of the kind NumPy's object loop makes of an ``np_array_*`` label's elements."""
    dtype = DType(operand_label_kind(label)[len("np_array_"):])
    return "py_bool:True" if dtype.is_bool else "py_float:0.5" if dtype.is_float() else "py_int:1"


def test_the_cells_not_modelled_are_dims():
    skipped = [c for c in STORED if not_modelled(c.op, c.lhs, c.rhs)]
    prefixes = Counter(next(p for p in NOT_MODELLED if c.lhs.startswith(p) or c.rhs.startswith(p)) for c in skipped)
    assert prefixes == {"dim:": 21 * 11 + 3}  # 1 Dim under the 11 ops of a scalar, and 3 cells without a graph value
    assert len(STORED) == len(skipped) + 19757 + 3237


# -- rules, one by one ----------------------------------------------------------------------------------------


def test_registered_under_its_names():
    assert "max-python" in policies() and policy("max_python") is POL and policy("max-26.7") is POL
    assert POL.dtypes == tuple(DType(c.lhs) for c in STORED if c.op == "TensorType")


def test_promotion_never_widens():
    p = POL.try_promote
    assert p(D.uint8, D.int16) is D.int16 and p(D.int8, D.bfloat16) is D.bfloat16
    assert p(D.int32, D.float64) is D.float64 and p(D.bool, D.float8_e5m2) is D.float8_e5m2
    for a, b in [(D.int8, D.uint8), (D.int16, D.float16), (D.float16, D.bfloat16), (D.int64, D.float64),
                 (D.uint64, D.int64), (D.float8_e4m3fn, D.int16)]:
        assert p(a, b) is None and p(b, a) is None, (a, b)
    # the float8/6/4 types meet each other and the 8-bit integers at float16, neither operand
    assert p(D.float8_e4m3fn, D.float8_e5m2) is D.float16 and p(D.uint8, D.float4_e2m1fn) is D.float16


def test_refusals_carry_max_reason_and_the_cast_that_fixes_them():
    with pytest.raises(PromotionError) as e:
        POL.promote_types(D.int8, D.uint8)
    message = str(e.value)
    assert "Unsafe cast from ui8 to si8" in message and "never widens" in message and "'max-python'" in message
    assert e.value.cast_to is D.int16 and "cast i8 and u8 to int16" in message
    with pytest.raises(PromotionError, match=r"Unsafe cast from si16 to f16.*int16 does not convert to float16"):
        POL.promote_types(D.int16, D.float16)
    with pytest.raises(PromotionError, match=r"Can't promote python float to dtype\(DType.int8\)"):
        POL.promote_types(D.int8, POL.literals.type_of(0.5))
    with pytest.raises(PromotionError, match="Binary ops require at least one max object"):
        POL.promote_types(POL.literals.type_of(1), POL.literals.type_of(2))


def test_literal_range_checks_are_max_table():
    ok, refused = POL.literals.check, lambda v, d: pytest.raises(LiteralRangeError, match=re.escape(
        f"Can't promote python int with value ({v}) to dtype(DType.{d.name})"))
    for value, dtype in [(2048, D.float16), (256, D.bfloat16), (2 ** 24, D.float32), (2 ** 53, D.float64),
                         (448, D.float8_e4m3fn), (72089, D.float8_e5m2), (True, D.bool)]:
        ok(value, dtype)
        with refused(value + 1 if value is not True else 2, dtype):
            ok(value + 1 if value is not True else 2, dtype)
    with refused(0, D.float8_e8m0fnu):
        ok(0, D.float8_e8m0fnu)  # MAX's range for it starts at 2**-127: 0 is no float8_e8m0fnu
    with refused(False, D.float8_e8m0fnu):
        ok(False, D.float8_e8m0fnu)  # a Python bool is a Python int
    ok(1e300, D.float16)  # a float is not range-checked: it overflows, as in MAX
    ok(math.nan, D.float8_e4m3fn)
    with pytest.raises(LiteralRangeError, match=r"Unsafe cast: Can't promote python int with value \(2049\).*"
                                                r"\[-2048, 2048\] for float16\); cast the other operand"):
        ok(2049, D.float16)
    # MAX reports the range before the sub-byte refusal, as latticecast does
    with refused(7, D.float4_e2m1fn):
        ok(7, D.float4_e2m1fn)
    with pytest.raises(LiteralRangeError, match="Cannot create a constant of type 'DType.float4_e2m1fn' since it is "
                                                "a sub-byte type"):
        ok(6, D.float4_e2m1fn)


def test_division_converts_two_integers_to_float64():
    div = lambda *types: decide(POL, TRUE_DIVIDE, list(types))  # noqa: E731
    assert div(D.int16, D.int16).result is D.float64
    assert div(D.int8, D.uint8).result is D.float64  # where + refuses
    assert div(D.bool, D.int8).result is D.int8  # bool is no integer here
    assert div(D.float16, D.float16).result is D.float16
    found = div(D.int8, Weak(D.int64))
    assert found.result is D.float64 and found.operand_dtypes == (D.int8, D.int8)
    with pytest.raises(PromotionError, match="Unsafe cast from si16 to f16"):
        div(D.float8_e4m3fn, D.int16)
    # every other policy divides as before: the hook is MAX's alone
    assert decide(policy("jax"), TRUE_DIVIDE, [D.int16, D.int16]).result is D.float32
    assert decide(policy("max"), TRUE_DIVIDE, [D.int16, D.int16]).operand_dtypes is None


def test_builder_division_and_literals():
    with lc_max.Graph("div", input_types=[lc_max.TensorType(d, [2], CPU) for d in (D.int8, D.uint8, D.float16)]) as g:
        i8, u8, f16 = g.inputs
        assert (i8 / u8).dtype is D.float64 and (i8 / 2).dtype is D.float64 and (2 / i8).dtype is D.float64
        assert (f16 / 2048).dtype is D.float16
        with pytest.raises(LiteralRangeError, match=r"value \(128\) to dtype\(DType.int8\)"):
            i8 / 128  # checked in int8, as MAX does, not in the float64 the division computes in
        with pytest.raises(LiteralRangeError, match=r"value \(2049\) to dtype\(DType.float16\)"):
            f16 / 2049
        with pytest.raises(PromotionError, match=r"\+: no implicit promotion of i8 and u8 .*Unsafe cast from ui8"):
            i8 + u8
        g.output(i8 / u8, i8 / 2)
    out = g.compile()(np.array([1, -3], np.int8), np.array([2, 4], np.uint8), np.ones(2, np.float16))
    np.testing.assert_array_equal(out[0], [0.5, -0.75])
    np.testing.assert_array_equal(out[1], [0.5, -1.5])
    assert out[0].dtype == np.float64


def test_reductions_keep_the_dtype():
    with lc_max.Graph("r", input_types=[lc_max.TensorType(D.int32, [2, 3], CPU),
                                        lc_max.TensorType(D.bool, [2, 3], CPU)]) as g:
        x, b = g.inputs
        assert lc_max.ops.sum(x).dtype is D.int32 and lc_max.ops.mean(x).dtype is D.int32  # measured in MAX
        assert lc_max.ops.sum(b).dtype is D.bool
        g.output(lc_max.ops.mean(x))
    (mean,) = g.compile()(np.array([[1, 2, 4], [-1, -2, -4]], np.int32), np.ones((2, 3), bool))
    np.testing.assert_array_equal(mean, [[2], [-2]])  # MAX 26.7 (measured): 7 / 3 and -7 / 3 toward zero


def test_float_functions_of_integers_are_refused_with_the_cast():
    with lc_max.Graph("f", input_types=[lc_max.TensorType(D.int32, [2], CPU)]) as g:
        (x,) = g.inputs
        with pytest.raises(DomainError, match="exp: needs floating-point or complex operands.*cast it"):
            lc_max.ops.exp(x)


def test_the_pass_decides_as_max_does(run_tool):
    text = """
func.func @mixed(%a: tensor<4xi8>, %b: tensor<4xui8>) -> tensor<4xi8> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi8>, tensor<4xui8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}
"""
    proc = run_tool("latticecast-opt", "-", "--implicit-cast", "--policy", "max-python", input=text)
    err = proc.stderr.decode()
    assert proc.returncode != 0
    assert "'stablehlo.add' op no implicit promotion of i8 and u8 under policy 'max-python'" in err
    assert "Unsafe cast from ui8 to si8" in err and "cast i8 and u8 to int16" in err


def test_the_builder_ir_runs_through_the_pass():
    with lc_max.Graph("ir", input_types=[lc_max.TensorType(D.int16, [4], CPU),
                                         lc_max.TensorType(D.uint8, [4], CPU)]) as g:
        x, u = g.inputs
        g.output(x / x, x + u, x * 3)
    before, after = g.mlir(before_passes=True), g.mlir()
    assert "tensor<4xf64>" in before and "tensor<4xi16>" in before
    assert "stablehlo.convert %arg0 : (tensor<4xi16>) -> tensor<4xf64>" in after
    assert "stablehlo.convert %arg1 : (tensor<4xui8>) -> tensor<4xi16>" in after
    assert "dense<3> : tensor<4xi16>" in after
    outs = g.compile()(np.array([1, 2, 3, 4], np.int16), np.array([1, 1, 2, 2], np.uint8))
    assert [o.dtype.name for o in outs] == ["float64", "int16", "int16"]


# -- NumPy values ----------------------------------------------------------------------------------------------


def test_only_max_python_makes_numpy_values_weak():
    assert [name for name in policies() if policy(name).numpy_values.weak] == ["max-python"]


def test_numpy_scalars_are_the_python_numbers_they_hold_but_numpy_bools():
    assert POL.numpy_values.scalar(np.uint8(200)) == 200 and type(POL.numpy_values.scalar(np.int64(2 ** 40))) is int
    assert type(POL.numpy_values.scalar(np.float16(0.5))) is float
    for refused in (np.True_, np.complex64(1j)):
        with pytest.raises(PromotionError, match=f"argument must be a TensorValueLike, not '{type(refused).__name__}'"):
            POL.numpy_values.scalar(refused)
    with pytest.raises(PromotionError, match=r"bool\(value\).*ops.constant\(value, DType.bool, device\)"):
        POL.numpy_values.scalar(np.False_)


def test_max_array_rules():
    problem = POL.numpy_values.array_problem
    assert problem(np.array([0.5]), D.bool) is None  # a float array meets bool (bool is no integer in MAX)
    assert "Refusing to implicitly promote float array to dtype(DType.int8)" in problem(np.array([0.5]), D.int8)
    assert problem(np.array([1, 255], np.int64), D.uint8) is None
    refused = problem(np.array([1, 256]), D.uint8)
    assert "Refusing to implicitly promote external array with precision loss for DType DType.uint8" in refused
    assert "[0, 255] for uint8; it holds 256" in refused
    assert "[-2048, 2048]" in problem(np.array([2049]), D.float16)  # the Python int's range
    assert problem(np.array([True, False]), D.float8_e8m0fnu) is None  # a bool array is not checked
    assert "2**-127" in problem(np.array([0, 1]), D.float8_e8m0fnu)  # an int array is: 0 is no float8_e8m0fnu
    assert problem(np.array([1, 6]), D.float4_e2m1fn) is None  # converted, not made a constant: sub-byte is fine
    assert problem(np.array([1e300]), D.float16) is None  # a float array is not range-checked (it overflows)
    assert POL.numpy_values.array_type(D.float32) == POL.numpy_values.array_type(D.bool) == Weak(D.int64)  # it takes the value's dtype
    # elsewhere a weak array (in IR that marks one) promotes and is checked as its elements, literals, would be
    jax = policy("jax")
    assert jax.numpy_values.array_type(D.float32) == jax.literals.type_of(0.5)
    assert jax.numpy_values.array_type(D.int8) == jax.literals.type_of(1)
    assert jax.numpy_values.array_problem(np.array([1, 300]), D.int8) == jax.literals.constant_problem(np.array([1, 300]), D.int8)


def test_numpy_values_meet_graph_values_as_in_max():
    with lc_max.Graph("np", input_types=[lc_max.TensorType(d, [4], CPU) for d in (D.float16, D.int8, D.bool)]) as g:
        f16, i8, b = g.inputs
        assert (f16 + np.float32(0.5)).dtype is D.float16 and (np.float32(0.5) * f16).dtype is D.float16
        assert (i8 + np.arange(4)).dtype is D.int8 and (i8 / np.arange(1, 5)).dtype is D.float64
        assert (b + np.array([0.5, 0.0, 1.5, 0.0])).dtype is D.bool
        assert lc_max.ops.max(f16, np.array([1, 2, 3, 2048])).dtype is D.float16
        assert (np.True_ + f16).dtype is D.float16  # NumPy's operator first: a Python bool, an int to MAX
        with pytest.raises(PromotionError, match="argument must be a TensorValueLike, not 'bool'"):
            f16 + np.True_
        with pytest.raises(LiteralRangeError, match=r"Refusing to implicitly promote external array with precision "
                                                    r"loss for DType DType.int8 .*it holds 300.*ops.constant\(array"):
            i8 + np.array([1, 300, 2, 3])
        with pytest.raises(LiteralRangeError, match=r"value \(300\) to dtype\(DType.int8\)"):
            np.array([1, 300, 2, 3]) + i8  # NumPy's operator hands MAX Python ints: checked as such
        with pytest.raises(LiteralRangeError, match=r"implicitly promote float array to dtype\(DType.int8\)"):
            i8 / np.array([0.5, 1.0, 1.5, 2.0])  # checked in the dtype the array takes, before the division
        with pytest.raises(LiteralRangeError, match=r"value \(2049\) to dtype\(DType.float16\)"):
            f16 * np.int64(2049)
        with pytest.raises(PromotionError, match="Binary ops require at least one max object"):
            lc_max.ops.add(np.float32(1), np.array([1.0], np.float32))
        # where nothing promotes, a NumPy array is the constant it is (MAX's TensorValue(array))
        assert lc_max.ops.concat([i8, np.arange(2, dtype=np.int8)]).dtype is D.int8
        assert lc_max.ops.cast(np.float32(0.5), D.float16).dtype is D.float16


def test_numpy_values_end_to_end():
    with lc_max.Graph("e2e", input_types=[lc_max.TensorType(D.float16, [4], CPU),
                                          lc_max.TensorType(D.float32, [4], CPU)]) as g:
        x_f16, x_f32 = g.inputs
        g.output(x_f16 + np.float32(0.5), x_f32 + np.arange(4), np.arange(4) + x_f32, x_f32 * np.array([[1], [2]]))
    before, after = g.mlir(before_passes=True), g.mlir()
    assert '{latticecast.weak = "array"} : () -> tensor<4xi64>' in before  # arange: weak, in its own dtype
    assert "stablehlo.constant dense<[0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<4xf32>" \
        in after and "latticecast.weak" not in after and "i64" not in after  # the pass retyped it
    half, ramp, ramp_left, outer = g.compile()(np.array([1, 2, 3, 4], np.float16), np.ones(4, np.float32))
    assert half.dtype == np.float16 and ramp.dtype == ramp_left.dtype == outer.dtype == np.float32
    np.testing.assert_array_equal(half, [1.5, 2.5, 3.5, 4.5])
    np.testing.assert_array_equal(ramp, [1, 2, 3, 4])
    np.testing.assert_array_equal(ramp_left, ramp)
    np.testing.assert_array_equal(outer, [[1] * 4, [2] * 4])


def test_numpy_values_with_a_symbolic_dimension():
    with lc_max.Graph("sym", input_types=[lc_max.TensorType(D.float32, ["batch", 4], CPU),
                                          lc_max.TensorType(D.bool, ["batch", 2], CPU)]) as g:
        x, b = g.inputs
        g.output(x + np.arange(4), b & np.array([0.5, 0.0]))
    assert "dynamic_broadcast_in_dim" in g.mlir()
    y, c = g.compile()(np.ones((3, 4), np.float32), np.ones((3, 2), bool))
    assert y.dtype == np.float32 and c.dtype == np.bool_
    np.testing.assert_array_equal(y, np.ones((3, 4)) + np.arange(4))
    np.testing.assert_array_equal(c, [[True, False]] * 3)  # 0.5 is True, 0.0 False: MAX's cast


@pytest.mark.parametrize("name", ["jax", "numpy"])
def test_numpy_values_stay_strong_under_other_policies(name):
    """JAX and NumPy give a NumPy value its own dtype; only max-python makes it weak."""
    with lc_max.Graph("strong", input_types=[lc_max.TensorType(D.float16, [4], CPU),
                                             lc_max.TensorType(D.int8, [4], CPU)], policy=name) as g:
        f16, i8 = g.inputs
        assert (f16 + np.float32(0.5)).dtype is D.float32 and (np.float32(0.5) + f16).dtype is D.float32
        assert (i8 + np.arange(4)).dtype is D.int64 and (np.arange(4) + i8).dtype is D.int64
        assert (i8 + np.array([1, 300, 2, 3])).dtype is D.int64  # no range check: a strong int64
        g.output(f16 + np.float32(0.5))
    assert "latticecast.weak" not in g.mlir(before_passes=True)


def test_the_pass_checks_weak_arrays_by_the_array_rules(run_tool):
    text = """
func.func @arrays(%b: tensor<2xi1>, %e: tensor<2xf8E8M0FNU>, %i: tensor<2xi8>) -> (tensor<2xi1>, tensor<2xf8E8M0FNU>) {
  %f = stablehlo.constant {latticecast.weak = "array"} dense<[0.5, 0.0]> : tensor<2xf64>
  %0 = "stablehlo.add"(%b, %f) : (tensor<2xi1>, tensor<2xf64>) -> tensor<2xi1>
  %t = stablehlo.constant {latticecast.weak = "array"} dense<[true, false]> : tensor<2xi1>
  %1 = "stablehlo.multiply"(%e, %t) : (tensor<2xf8E8M0FNU>, tensor<2xi1>) -> tensor<2xf8E8M0FNU>
  %w = stablehlo.constant {latticecast.weak = "array"} dense<[1, 300]> : tensor<2xi64>
  %2 = "stablehlo.add"(%i, %w) : (tensor<2xi8>, tensor<2xi64>) -> tensor<2xi8>
  return %0, %1 : tensor<2xi1>, tensor<2xf8E8M0FNU>
}
"""
    proc = run_tool("latticecast-opt", "-", "--implicit-cast", "--policy", "max-python", input=text)
    err = proc.stderr.decode()
    assert proc.returncode != 0 and err.count("error:") == 1, err
    assert "'stablehlo.add' op Unsafe cast: a weakly typed array" in err
    assert "Refusing to implicitly promote external array with precision loss for DType DType.int8" in err
    ok = run_tool("latticecast-opt", "-", "--implicit-cast", "--policy", "max-python",
                  input=text.replace("[1, 300]", "[1, 3]"))
    out = ok.stdout.decode()
    assert ok.returncode == 0, ok.stderr.decode()
    assert "dense<[true, false]> : tensor<2xi1>" in out and "tensor<2xf8E8M0FNU>" in out and "f64" not in out


# -- is it a lattice? ------------------------------------------------------------------------------------------


def test_it_is_not_a_lattice_because_it_refuses():
    report = audit(POL.table(POL.dtypes))
    assert report.commutative and not report.associative and not report.is_lattice
    assert (report.non_associative, report.triples) == (548, 21 ** 3)
    assert POL.try_promote(POL.try_promote(D.uint8, D.int16), D.int8) is D.int16
    assert POL.try_promote(D.int8, D.uint8) is None  # so (int8 . uint8) . int16 has no answer
    assert "int8 . uint8 is undefined although int16 is above both" in report.lattice_problems
    # where every bracketing answers, they agree: the failures are all refusals
    t = POL.try_promote
    assert all(t(t(a, b), c) == t(a, t(b, c)) for a in POL.dtypes for b in POL.dtypes for c in POL.dtypes
               if t(a, b) is not None and t(b, c) is not None and t(t(a, b), c) and t(a, t(b, c)))


def test_verify_says_it_is_not_a_lattice_with_a_counterexample(capsys):
    from latticecast.cli.main import main

    code = main(["verify", "--policy", "max-python"])
    out = capsys.readouterr().out
    assert code == 1 and out.rstrip().endswith("result: policy max-python is NOT a (partial) lattice")
    lattice = out[out.index("== the lattice: the policy's 21 dtypes"):out.index("== measured")]
    assert "associative: no (548 of 9261 triples fail); lattice: no" in lattice
    assert "(i8 . u8) . i16 = - but i8 . (u8 . i16) = i16" in lattice
    assert "== measured: max_python_cells x+y (measured: max==26.7.0" in out
    assert "the policy gives the same dtype as this table in all 441 cells" in out


# -- live MAX ---------------------------------------------------------------------------------------------------


def max_interpreter() -> str:
    """An interpreter with MAX: this one, or ``$LATTICECAST_MAX_PYTHON`` (MAX's own virtual environment)."""
    if importlib.util.find_spec("max") is not None and importlib.util.find_spec("max.graph") is not None:
        return sys.executable
    found = os.environ.get("LATTICECAST_MAX_PYTHON")
    if not found:
        pytest.skip("MAX is not installed here; set LATTICECAST_MAX_PYTHON to an interpreter that has it "
                    "(e.g. a venv with `pip install modular`) to measure MAX again and compare every cell")
    return found


def test_matches_live_max_in_every_cell(tmp_path):
    """Measure MAX again, now, with the tool that made the table, and compare every cell (about 20 s)."""
    proc = subprocess.run([max_interpreter(), str(TOOL), str(tmp_path)], capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr
    path = tmp_path / "max_python_cells.csv"
    with path.open(encoding="utf-8") as f:
        provenance = f.readline()
        live = read_cells(csv.DictReader(f))
    assert provenance.startswith("# max==")
    cells = modelled(live)
    policy_answers = {c: a for c in cells if (a := policy_answer(c)) is not None}
    assert differing(policy_answers) == errata(policy_answers)
    answers = builder_answers(cells)
    assert differing(answers) == {c for c in errata(answers) if not built_as_max_builds(c)}
    if provenance.startswith(f"# {measured_records(MEASUREMENT).provenance.split(' ')[0]} "):
        assert live == STORED  # the same MAX measures the same table


def test_numpy_values_that_hold_no_numbers_are_refused_by_name():
    """A NumPy array of strings or objects meeting a graph value, and (under a user's policy that makes
    NumPy values weak, with the base class's rule) a NumPy scalar that is no number: each refused,
    naming what it holds and the fix."""
    from latticecast.policies.jax import JaxPolicy

    with lc_max.Graph("np_bad", input_types=[lc_max.TensorType(D.float32, [2], CPU)]) as g:
        (x,) = g.inputs
        for bad, name in ((np.array(["a", "b"]), "<U1"), (np.array([object(), 1], dtype=object), "object")):
            with pytest.raises(GraphError, match=rf"NumPy array of dtype {name} as a tensor value.*"
                                                 r"np\.asarray\(array, dtype\)"):
                x + bad

    class WeakNumPy(JaxPolicy):
        name = "jax-with-weak-numpy"

        @functools.cached_property
        def numpy_values(self) -> NumpyValueRules:
            return NumpyValueRules(self, weak=True)

    weak_numpy = WeakNumPy()
    assert weak_numpy.numpy_values.scalar(np.bool_(True)) is True and weak_numpy.numpy_values.scalar(np.float32(0.5)) == 0.5
    with pytest.raises(PromotionError, match=r"NumPy scalar .*datetime64.* is not a number; give an op a graph value"):
        weak_numpy.numpy_values.scalar(np.datetime64("2020"))
