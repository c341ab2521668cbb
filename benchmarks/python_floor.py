"""The Python floor of the chain rows: the chain built and legalized by the least Python that can do it.

``python benchmarks/chain_parts.py`` shows it part by part beside latticecast's parts.

The binding floor (``binding_floor.py``) is what jaxlib's bindings cost per op with no Python around
them. Any builder with MAX's API also pays Python for each op: the operator's call, a result dtype,
a value object. Any pass also pays Python for each op it visits: a callback, a decision. This module
measures that floor on the chains of ``targets.py``, with code that is as small as it can be and
still gives the same legal program:

* *build*: a value class whose ``+``, ``-`` and ``*`` look up the result dtype in a table of the
  three dtypes of the chain (JAX's promotions among int8, int16 and float32), create the op with
  ``ir.Operation.create`` and wrap its result. A Python int becomes one constant of the other
  operand's dtype, made once.
* *legalize*: one walk over the module, reading each op's operands and their types. Where the
  types of a binary op differ, it converts the lower one to the other's type, once per value and type,
  as ``implicit-cast`` does.
* *verify* and *print*: MLIR's verifier, and the printer as ``latticecast`` calls it.

It has no policy, no weak types, no broadcasting, no checks and no error messages. So JAX / its
total is about the most that a builder and a pass written in Python on these bindings can reach
(a real one does more for each op). ``targets.py`` shows it beside each chain row, and
``chain_parts.py`` beside each part: a target near or above it is out of reach of Python.

The context is the one latticecast builds and parses in (JAX's dialects): no latticecast code runs
for any op.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from jaxlib.mlir import ir

sys.path.insert(0, str(Path(__file__).resolve().parent))

from targets import LITERAL_CHAIN_DTYPES, chain  # noqa: E402

RANKS = {"int8": 0, "int16": 1, "float32": 2}
"""The chain's dtypes in the order JAX promotes them: a pair's result is the one of higher rank."""


@dataclass(frozen=True)
class Sample:
    """Seconds of each part of one chain, built and legalized by the least Python."""

    build: float
    legalize: float
    verify: float
    print: float
    text: str

    @property
    def total(self) -> float:
        """The four parts: what ``targets.py``'s chain rows time on latticecast's side."""
        return self.build + self.legalize + self.verify + self.print


def sample(n: int, literal: bool = False, checked: bool = False) -> Sample:
    """Build the ``n``-op chain, legalize it, verify it and print it, timing each part.

    Args:
        n: ops in the chain.
        literal: the literal chain (``acc - 1`` every fourth op) instead of the plain one.
        checked: legalize reading also what ``implicit-cast`` cannot skip (:func:`legalize`).

    Returns:
        The times, and the printed module.

    Example:
        >>> s = sample(8)
        >>> s.text.count("stablehlo.convert"), s.total > 0
        (3, True)
    """
    from jaxlib.mlir import ir

    from latticecast.dialect_utils.context import make_context

    t0 = time.perf_counter()
    with make_context(), ir.Location.unknown():
        elements = _elements()
        types = {d: ir.RankedTensorType.get([8], e) for d, e in elements.items()}
        join = {(a, b): a if RANKS[a] >= RANKS[b] else b for a in RANKS for b in RANKS}
        inputs = [types[d] for d in LITERAL_CHAIN_DTYPES]
        module = ir.Module.create()
        func = ir.Operation.create("func.func", attributes={
            "sym_name": ir.StringAttr.get("main"),
            "function_type": ir.TypeAttr.get(ir.FunctionType.get(inputs, [types["float32"]]))},
            regions=1, ip=ir.InsertionPoint(module.body))
        block = ir.Block.create_at_start(func.regions[0], inputs)
        ip = ir.InsertionPoint(block)
        create = ir.Operation.create
        constants: dict[tuple[int, str], V] = {}

        class V:
            __slots__ = ("value", "dtype")

            def __init__(self, value: "ir.Value[ir.Type]", dtype: str) -> None:
                self.value, self.dtype = value, dtype

            def _binary(self, name: str, other: "V | int") -> "V":
                if other.__class__ is int:
                    other = constant(other, self.dtype)
                d = join[self.dtype, other.dtype]  # type: ignore[union-attr]
                operands = [self.value, other.value]  # type: ignore[union-attr]
                op = create(name, [types[d]], operands, None, None, 0, None, ip)
                return V(op.result, d)

            def __add__(self, other: "V | int") -> "V":
                return self._binary("stablehlo.add", other)

            def __sub__(self, other: "V | int") -> "V":
                return self._binary("stablehlo.subtract", other)

            def __mul__(self, other: "V | int") -> "V":
                return self._binary("stablehlo.multiply", other)

        def constant(k: int, dtype: str) -> V:
            found = constants.get((k, dtype))
            if found is None:
                t = types[dtype]
                e = elements[dtype]
                element = ir.FloatAttr.get(e, k) if dtype == "float32" else ir.IntegerAttr.get(e, k)
                value = ir.DenseElementsAttr.get_splat(t, element)
                op = ir.Operation.create("stablehlo.constant", [t], [], {"value": value}, ip=ip)
                found = constants[(k, dtype)] = V(op.result, dtype)
            return found

        out = chain([V(a, d) for a, d in zip(block.arguments, LITERAL_CHAIN_DTYPES)], n, literal)
        create("func.return", [], [out.value], None, None, 0, None, ip)  # type: ignore[attr-defined]
        t1 = time.perf_counter()
        legalize(module.operation, chain_ranks(), checked)
        t2 = time.perf_counter()
        module.operation.verify()  # raises MLIRError with the verifier's message if the sketch left an op illegal
        t3 = time.perf_counter()
        text = cast(bytes, module.operation.get_asm(binary=True, assume_verified=True)).decode()
        t4 = time.perf_counter()
    return Sample(t1 - t0, t2 - t1, t3 - t2, t4 - t3, text)


def chain_ranks() -> "dict[object, int]":
    """The rank :func:`legalize` gives each tensor type of the chains, in the current context: :data:`RANKS`,
    and below them the ``tensor<8xi64>`` that latticecast's builder gives a Python int (weakly typed: it
    takes the other operand's type), so that :func:`legalize` also legalizes latticecast's literal chain
    as built (``targets.py``'s pass against ``cse``).

    Example:
        >>> from jaxlib.mlir import ir
        >>> with ir.Context():
        ...     sorted(chain_ranks().values())
        [-1, 0, 1, 2]
    """
    from jaxlib.mlir import ir

    loc = ir.Location.unknown()
    return {ir.RankedTensorType.get([8], e, loc=loc): RANKS.get(d, -1) for d, e in _elements().items()}


def _elements() -> "dict[str, ir.Type]":
    """The element types of the chains by dtype name, in the current context: :data:`RANKS`' and the
    ``int64`` of latticecast's Python ints."""
    from jaxlib.mlir import ir

    return {"int8": ir.IntegerType.get_signless(8), "int16": ir.IntegerType.get_signless(16),
            "float32": ir.F32Type.get(), "int64": ir.IntegerType.get_signless(64)}


PROMOTED = frozenset({"stablehlo.add", "stablehlo.subtract", "stablehlo.multiply"})
"""The chain's ops that :func:`legalize` promotes when it reads what a real pass must (``checked``)."""


def legalize(root: "object", ranks: "dict[object, int]", checked: bool = False) -> None:
    """Convert, in each binary op of ``root`` whose operand types differ, the operand of lower rank
    (``ranks``: each tensor type's) to the other's type: one convert per value and type.

    With ``checked``, each op also has read what ``implicit-cast`` cannot skip: its name (is it an op
    that promotes: :data:`PROMOTED`), its attributes (a marker: the op is left alone) and its result's
    type. Nothing is decided from the last: the difference is the cost of the reads alone.

    Example:
        >>> "stablehlo.convert %arg0" in sample(4).text
        True
    """
    from jaxlib.mlir import ir

    create, at = ir.Operation.create, ir.InsertionPoint
    loc = ir.Location.unknown(root.context)  # type: ignore[attr-defined]  # an ir.Operation
    converted: dict[tuple[ir.Value[ir.Type], ir.Type], ir.Value[ir.Type]] = {}
    advance = ir.WalkResult.ADVANCE

    def visit(op: ir.Operation) -> ir.WalkResult:
        if checked and (op.name not in PROMOTED or len(op.attributes)):
            return advance
        operands = op.operands
        if len(operands) == 2:
            a, b = operands[0], operands[1]
            ta, tb = a.type, b.type
            if checked:
                op.result.type
            if ta != tb:
                i, v, t = (0, a, tb) if ranks[ta] < ranks[tb] else (1, b, ta)
                c = converted.get((v, t))
                if c is None:
                    c = converted[(v, t)] = create("stablehlo.convert", [t], [v], None, None, 0, loc, at(op)).result
                operands[i] = c
        return advance

    root.walk(visit, ir.WalkOrder.PRE_ORDER)  # type: ignore[attr-defined]  # an ir.Operation

