"""Evidence for ``max-python``: MAX 26.7's ``max.graph`` measured cell by cell, and where latticecast differs.

``tools/measure_max_python.py`` builds one small graph per cell with MAX itself and records
the dtype of the result, or MAX's refusal and its message
(``measured/max_python_cells.csv``; :func:`latticecast.evidence.measured_records`). The
policy computes every cell from MAX's rules (``latticecast.policies.max_python``) and
never reads this file; the tests hold the policy and the graph builder to it.

Not every measured cell is a question about promotion. Cells whose operand latticecast
does not model as MAX does are :func:`not_modelled` (MAX's ``Dim``), and the cells where
latticecast knowingly answers otherwise are :func:`erratum`, each with the reason; the tests
check that these are exactly the cells where latticecast differs. NumPy scalars and arrays are
modelled (``policy.numpy_values.weak``): they take the graph value's dtype as MAX's do.
"""

from __future__ import annotations

import functools

from ..promotion.dtypes import DType
from ..promotion.tables import PromotionTable
from . import Evidence
from .measured import measured_records

__all__ = ["MEASUREMENT", "NOT_MODELLED", "BOOL_DOMAIN_OPS", "CONSTANT_ERRATA", "NUMPY_OPERATOR_OPS",
           "not_modelled", "erratum", "operand_label_kind", "add_table", "evidence"]

MEASUREMENT = "max_python_cells"
"""The records' name: ``measured/max_python_cells.csv``."""

NOT_MODELLED: dict[str, str] = {
    "dim:": ("a dimension is a Python int (weak) in latticecast, x.shape[i]; MAX's Dim is a strong int64 "
             "(int8_tensor + x.shape[0] is int64 in MAX, int8 here)"),
}
"""Operand kinds (the label's prefix) whose cells the policy does not model, with the reason."""

BOOL_DOMAIN_OPS: dict[str, str] = {
    "x-y": "subtract", "x/y": "divide", "ops.div": "divide", "x//y": "divide", "x%y": "remainder",
    "x**y": "power", "ops.matmul": "dot_general", "x/s": "divide", "s/x": "divide", "x//s": "divide",
    "x%s": "remainder",
}
"""The measured ops whose StableHLO op has no bool form (by its verifier), with that op."""

NUMPY_OPERATOR_OPS = frozenset({"s+x", "s/x"})
"""The measured ops with the non-MAX operand on the left of a Python operator: with a NumPy value there,
NumPy's operator runs first and hands MAX each element as a Python scalar."""

_NUMPY_OPERATOR_WHY = ("NumPy's operator runs first when a NumPy array is on the left (array + x calls "
                       "ndarray.__add__), applies the op element by element and hands MAX each element as a Python "
                       "scalar, so MAX 26.7 returns a NumPy object array of graph values; latticecast checks the "
                       "elements as the Python scalars MAX receives (refusing where MAX refuses one) and builds one "
                       "graph value, of the dtype MAX gives each element")

_BOOL_DOMAIN_WHY = ("MAX 26.7 builds {op} on bool operands (its result is bool); StableHLO's {hlo} has no bool form, "
                    "so latticecast refuses the op on bool under every policy and asks for a cast (where MAX "
                    "refuses an integer or an array out of bool's range instead, latticecast names the bool "
                    "operand)")

_AND_WHY = ("latticecast's & is bitwise on integers (and bool), as in NumPy and JAX, under every policy, and "
            "promotes as + does; MAX's & is logical, on two bools only ('rmo.and: Inputs must be bools'), so "
            "where MAX's + of the pair builds, latticecast's & does and MAX's is refused")

CONSTANT_ERRATA: dict[str, str] = {
    "ops.constant(1e300,float16)": ("latticecast refuses an explicit constant that its dtype cannot hold (1e300 is "
                                    "no float16); MAX makes it inf"),
    "ops.constant(0,float8_e8m0fnu)": ("latticecast refuses an explicit constant that its dtype cannot hold "
                                       "(float8_e8m0fnu has no zero); MAX makes it NaN"),
    "ops.constant(1,float4_e2m1fn)": ("latticecast makes explicit constants of every StableHLO dtype, float4 "
                                      "included; MAX makes none narrower than a byte (a Python scalar meeting a "
                                      "float4 value is refused in both)"),
    "ops.constant(1)": ("latticecast gives ops.constant(1) the policy's default dtype (int64) on the graph's "
                        "device; MAX requires dtype and device for a Python number"),
    "ops.exp": ("latticecast makes a Python scalar given to a unary op a constant of its default dtype; MAX refuses "
                "non-MAX objects in unary ops"),
    "ops.negate": ("latticecast makes a Python scalar given to a unary op a constant of its default dtype; MAX "
                   "refuses non-MAX objects in unary ops"),
}
"""Measured cells without a graph value where latticecast's builder answers otherwise (by op)."""


def operand_label_kind(label: str) -> str:
    """``dtype`` for a graph value's dtype name, else the part of a non-MAX operand's label before
    ``:`` (``py_int``, ``np_array_int32``, ``dim``); empty for no operand."""
    if not label:
        return ""
    return label.partition(":")[0] if ":" in label else "dtype"


def _integer_or_bool(label: str) -> bool:
    return operand_label_kind(label) == "dtype" and not DType(label).is_inexact


def _integer_like(label: str, op: str) -> bool:
    """Whether MAX hands the operand ``label`` of ``op`` to the op as integers: a graph value, a Python int
    or bool, a NumPy integer, a NumPy bool that NumPy's operator made a Python bool, an external array of
    any kind (converted to the graph value's dtype), or an array of ints or bools whose elements NumPy's
    operator hands over. Not a float scalar, an array of floats handed over element by element, or a
    NumPy bool given to MAX itself (refused as no tensor value, by latticecast too)."""
    kind = operand_label_kind(label)
    if kind in ("dtype", "py_int", "py_bool"):
        return True
    if not kind.startswith("np_"):
        return False
    by_numpy = op in NUMPY_OPERATOR_OPS  # the label is the left operand
    if kind.startswith("np_array_"):
        return not (by_numpy and DType(kind[len("np_array_"):]).is_float())
    dtype = DType(kind[len("np_"):])
    return dtype.is_integral() or (dtype.is_bool and by_numpy)


def not_modelled(op: str, lhs: str, rhs: str) -> str | None:
    """Why the cell's operands are outside the policy's model (``None``: they are inside it). An explicit
    ``ops.constant`` of a NumPy array promotes nothing, so it is compared."""
    if op.startswith("ops.constant("):
        return None
    for label in (lhs, rhs):
        for prefix, why in NOT_MODELLED.items():
            if label.startswith(prefix):
                return why
    return None


def erratum(op: str, lhs: str, rhs: str, result: str = "") -> str | None:
    """Why latticecast knowingly answers otherwise than MAX 26.7 in this cell (``None``: it agrees).
    ``result``: MAX's measured result, which says where MAX gave no graph value at all."""
    if result.startswith("non-tensor:"):
        return _NUMPY_OPERATOR_WHY
    if op in CONSTANT_ERRATA:
        return CONSTANT_ERRATA[op]
    if op == "x&y" and not lhs == rhs == "bool" and _integer_or_bool(lhs) and _integer_or_bool(rhs) and \
            add_table().cells[(DType(lhs), DType(rhs))] is not None:
        return _AND_WHY
    if op in BOOL_DOMAIN_OPS:
        tensors = [x for x in (lhs, rhs) if operand_label_kind(x) == "dtype"]
        if tensors and all(t == "bool" for t in tensors) and all(_integer_like(x, op) for x in (lhs, rhs)):
            return _BOOL_DOMAIN_WHY.format(op=op, hlo=f"stablehlo.{BOOL_DOMAIN_OPS[op]}")
    return None


@functools.cache
def add_table() -> PromotionTable:
    """``x + y`` for every pair of MAX's dtypes, as measured: the table ``latticecast verify`` shows."""
    cells = {(DType(r["lhs"]), DType(r["rhs"])): None if r["result"] == "error" else DType(r["result"])
             for r in measured_records(MEASUREMENT).rows if r["op"] == "x+y"}
    return PromotionTable.from_mapping(cells, name="max_python x+y")


def evidence(policy_name: str = "max-python") -> Evidence:
    provenance = measured_records(MEASUREMENT).provenance.splitlines()[0].split(" command:")[0]
    return Evidence("max-python", measured={f"max_python_cells x+y (measured: {provenance})": add_table()})
