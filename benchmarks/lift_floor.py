"""The Python floor of the lift row: JAX's module lifted and compared by the least Python that can do it.

    python benchmarks/lift_floor.py [--layers 32] [--repeats 9]

``python_floor.py`` is this for the chain rows; this module is it for the in-process row of
``latticecast compare --from``: ``lift-implicit-casts`` under ``jax-x32`` and ``compare`` with
``torch`` on ``bench_jax_module.py``'s training step, against ``implicit-cast`` on the module as
JAX wrote it. The least Python that gives the same lifted program on that module:

* *lift*: one walk collecting the converts and constants; a convert whose one use is an operand of
  a promoted op whose other operand has the convert's element type, and which the source policy
  promotes back to it, is taken out (the op reads the convert's source); a splat constant whose
  one use is a promoted op, or a ``broadcast_in_dim`` whose one use is, is marked weak;
* *compare*: each op it lifted, its two operands' element types looked up in the two policies'
  tables, and the ops whose results differ counted.

The tables (element type pairs to the promoted element type) are made before the clock starts,
from latticecast's policies: the floor pays a dict lookup per decision, no policy. It checks no
placement, no location and no law (that ``implicit-cast`` writes back exactly what was lifted), and
has no weak propagation, no refusals and no report. On JAX's module it takes out the same converts
and marks the same literals as ``lift-implicit-casts`` (``tests/test_benchmarks.py`` counts them).
So latticecast's lift + compare over it is what its checks cost, and it over ``implicit-cast`` is
about the least a Python lift + compare on these bindings can reach.

``checked=True`` makes the same sketch read what ``lift-implicit-casts`` and ``compare`` cannot skip
on that module, still deciding by table lookups:

* the walk keeps the place of every promoted op (the readings go in program order) and the op after
  each convert (where the convert sits);
* a convert is taken out only where it sits right before its op (or before the op's other converts
  and broadcasts), with the op's location (a plain position in the text says nothing), and where
  the op's declared result type is the promoted one (the law);
* a literal only where its op's other operand and declared result type give the promoted type;
* each op that had a convert taken out is marked ``latticecast.convert_at_use``, as the lift marks it;
* *compare* reads each operand's rank and, for a dimensioned one, its definition (PyTorch ranks a
  broadcast 0-d tensor as a 0-d tensor) and each op's declared result type.

That is the floor of any Python lift + compare that checks what these two must.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from jaxlib.mlir import ir

    Table = dict[tuple[ir.Type, ir.Type], ir.Type]
    """A policy's promotions by element type: the pair to the promoted element type."""

sys.path.insert(0, str(Path(__file__).resolve().parent))

SOURCE, OTHER = "jax-x32", "torch"
"""The policies of the row: the lift's, and the one compared with."""

@dataclass(frozen=True)
class Sample:
    """Seconds of the least Python's lift and compare on one parse of the module, and what it did."""

    lift: float
    compare: float
    lifted: int
    literals: int
    differ: int


def tables(context: "ir.Context") -> "tuple[Table, Table]":
    """The promotions of :data:`SOURCE` and :data:`OTHER` by element type, for every pair of dtypes that
    StableHLO has an element type for and the policy promotes.

    Example:
        >>> from latticecast.dialect_utils.context import make_context
        >>> source, other = tables(make_context())
        >>> len(source) > 100 and len(other) > 100
        True
    """
    from jaxlib.mlir import ir

    import latticecast as lc
    from latticecast.errors import LatticecastError

    out = []
    with context:
        elements = {}
        for d in lc.DType:
            if d.info.mlir and not d.info.stablehlo_gap:
                try:
                    elements[d] = ir.Type.parse(d.info.mlir)
                except ir.MLIRError:
                    continue
        for name in (SOURCE, OTHER):
            policy = lc.policy(name)
            table = {}
            for a, ta in elements.items():
                for b, tb in elements.items():
                    try:
                        joined = policy.promote_types(a, b)
                    except LatticecastError:
                        continue
                    if joined in elements:
                        table[ta, tb] = elements[joined]
            out.append(table)
    return out[0], out[1]


def lift(root: "ir.Operation", source: "Table", checked: bool = False) -> "tuple[int, int, list[ir.Operation]]":
    """Lift ``root`` in place as the least Python does (the module's docstring; ``checked``: reading what
    ``lift-implicit-casts`` must); returns how many converts it took out, how many literals it marked
    weak, and the ops it lifted."""
    from jaxlib.mlir import ir

    from latticecast.dialect_utils.placement import PROLOGUE_OPS
    from latticecast.promotion.op_rules import CONVERT_AT_USE_ATTR, STABLEHLO

    promoted = STABLEHLO
    before_an_op = PROLOGUE_OPS | {"stablehlo.convert"}  # what may sit between an op's own convert and the op
    converts: list[ir.Operation] = []
    constants: list[ir.Operation] = []
    position: dict[ir.Operation, int] = {}  # checked: the place of each promoted op
    after: dict[ir.Operation, ir.Operation] = {}  # checked: the op right after each convert
    pending: list[ir.Operation] = []
    advance = ir.WalkResult.ADVANCE

    def visit(op: ir.Operation) -> ir.WalkResult:
        name = op.name
        if name == "stablehlo.convert":
            converts.append(op)
        elif name == "stablehlo.constant":
            constants.append(op)
        return advance

    def visit_checked(op: ir.Operation) -> ir.WalkResult:
        if pending:
            after[pending.pop()] = op
        name = op.name
        if name in promoted:
            position[op] = len(position)
        elif name == "stablehlo.convert":
            converts.append(op)
            pending.append(op)
        elif name == "stablehlo.constant":
            constants.append(op)
        return advance

    root.walk(visit_checked if checked else visit, ir.WalkOrder.PRE_ORDER)
    sites: list[ir.Operation] = []
    places: list[int] = []  # checked: each site's place, read before the op is rewritten (an op hashes by its operands)
    unit = ir.UnitAttr.get(root.context)
    literals = 0
    for k in constants:
        uses = list(k.result.uses)
        if len(uses) != 1:
            continue
        user = uses[0].owner
        n = uses[0].operand_number
        if user.name == "stablehlo.broadcast_in_dim":
            further = list(user.result.uses)
            if len(further) != 1:
                continue
            user = further[0].owner
            n = further[0].operand_number
        if user.name not in promoted or not ir.DenseElementsAttr(k.attributes["value"]).is_splat:
            continue
        if checked:
            operands = user.operands
            pair = promoted[user.name].operands or (0, 1)  # the promoted operands (select: 1 and 2)
            if len(pair) != 2 or len(operands) <= pair[1] or n not in pair:
                continue
            other = ir.ShapedType(operands[pair[1] if n == pair[0] else pair[0]].type).element_type
            if ir.ShapedType(user.result.type).element_type != other:
                continue  # a weak literal defers to the other operand: the op keeps its dtype
            places.append(position[user.operation])
        k.attributes["latticecast.weak"] = unit
        literals += 1
        sites.append(user.operation)
    lifted = 0
    for c in converts:
        value = c.operands[0]
        result = c.result
        ts, tr = value.type, result.type
        if ts == tr:
            continue
        uses = list(result.uses)
        if len(uses) != 1:
            continue
        user = uses[0].owner
        operands = user.operands
        if user.name not in promoted or len(operands) != 2:
            continue
        es, et = ir.ShapedType(ts).element_type, ir.ShapedType(tr).element_type
        n = uses[0].operand_number
        if ir.ShapedType(operands[1 - n].type).element_type != et or source.get((es, et)) != et:
            continue
        if checked:
            op = user.operation
            nxt = after.get(c)
            if nxt is None or (nxt != op and nxt.name not in before_an_op):
                continue  # not where a frontend (or the pass) puts an op's own convert
            loc = c.location
            if not isinstance(loc, (ir.FileLineColLoc, ir.UnknownLoc)) and loc != op.location:
                continue  # written elsewhere: the author's
            if ir.ShapedType(op.result.type).element_type != et:
                continue  # the pass would not write this op back so
            places.append(position.get(op, -1))  # -1: rewritten already, for a convert of its other operand
            op.attributes[CONVERT_AT_USE_ATTR] = unit
        operands[n] = value
        c.erase()
        lifted += 1
        sites.append(user.operation)
    if checked:  # in program order, as the readings go
        sites = [op for _, op in sorted(zip(places, sites), key=lambda pair: pair[0])]
    return lifted, literals, sites


def compare(sites: "list[ir.Operation]", source: "Table", other: "Table", checked: bool = False) -> int:
    """How many of the lifted ops promote their two operands differently under the two tables
    (``checked``: reading each operand's rank and definition, and each op's declared result type, as
    an inference under a rank-sensitive policy must)."""
    from jaxlib.mlir import ir

    differ = 0
    for op in sites:
        operands = op.operands
        a, b = operands[0].type, operands[1].type
        pair = (ir.ShapedType(a).element_type, ir.ShapedType(b).element_type)
        if checked:
            for value, t in ((operands[0], a), (operands[1], b)):
                if ir.RankedTensorType(t).rank:
                    owner = value.owner
                    if not isinstance(owner, ir.Block) and owner.name == "stablehlo.broadcast_in_dim":
                        ir.RankedTensorType(owner.operands[0].type).rank  # a broadcast 0-d tensor?
            ir.ShapedType(op.result.type).element_type  # the declared type, beside the inferred one
        if source.get(pair) != other.get(pair):
            differ += 1
    return differ


def sample(text: str, context: "ir.Context", made: "tuple[Table, Table] | None" = None,
           checked: bool = False) -> Sample:
    """The least Python's lift and compare on one parse of ``text`` (parsed as latticecast parses it,
    outside the clock); ``checked``: reading what ``lift-implicit-casts`` and ``compare`` must.

    Example:
        >>> from latticecast.dialect_utils.context import make_context
        >>> s = sample('''func.func @f(%a: tensor<2xbf16>, %b: tensor<2xf32>) -> tensor<2xf32> {
        ...   %0 = stablehlo.convert %a : (tensor<2xbf16>) -> tensor<2xf32>
        ...   %1 = stablehlo.add %0, %b : tensor<2xf32>
        ...   return %1 : tensor<2xf32>
        ... }''', make_context(lenient=True))
        >>> s.lifted, s.literals, s.differ
        (1, 0, 0)
    """
    from latticecast.dialect_utils.parsing import parse_module

    source, other = made or tables(context)
    module = parse_module(text, context, lenient=True, source_name="step.mlir")
    with context:
        t0 = time.perf_counter()
        lifted, literals, sites = lift(module.operation, source, checked)
        t1 = time.perf_counter()
        differ = compare(sites, source, other, checked)
        t2 = time.perf_counter()
    return Sample(t1 - t0, t2 - t1, lifted, literals, differ)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--layers", type=int, default=32)
    ap.add_argument("--repeats", type=int, default=9)
    args = ap.parse_args(argv)
    if args.layers < 1 or args.repeats < 1:
        ap.error("--layers and --repeats must be at least 1")
    from bench_lift import in_process, module_text

    text = module_text(args.layers)
    parts = in_process(text, args.repeats)
    print(f"module: {text.count(chr(10)):,} lines")
    for key in ("implicit-cast", "lift", "compare", "least lift", "least compare", "checked lift", "checked compare"):
        print(f"  {key:40s} {parts[key]:8.4f} s")
    print(f"lift + compare over implicit-cast: latticecast {parts['ratio']:.2f}x, the least Python "
          f"{parts['least ratio']:.2f}x, checking what lift must {parts['checked ratio']:.2f}x (the row's target: 2x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
