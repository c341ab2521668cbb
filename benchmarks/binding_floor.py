"""The binding floor: what jaxlib's MLIR Python bindings cost per op, with no latticecast code at all.

    python benchmarks/binding_floor.py [--ops 100000] [--repeats 5]

Every op the graph builder emits is at least one ``ir.Operation.create`` (a registered
``stablehlo.add`` of two operands and one result type, appended at an insertion point), and
every op ``implicit-cast`` visits costs at least reading its operands' types (``value.type``).
Neither can get cheaper from latticecast's side, so they are the floor a row of ``dev.py bench``
is shown against (``targets.py``: "x floor", a row's microseconds per op over the floor's):

* ``create``: ``Operation.create("stablehlo.add", results=[t], operands=[acc, b], ip=...)`` in a
  chain of ``--ops`` ops, microseconds per op;
* ``type``: ``v.type`` read from each of those ops' results and operands (three values per op,
  as a binary op has), microseconds per read;
* ``per op``: one create plus one type read: the least an op costs in any row (the builder creates
  it, a pass reads at least one type to decide it); the floor the rows are divided by.

The context is made as JAX makes its own (``stablehlo`` registered, multithreading off), from
jaxlib's public modules only, so the number is jaxlib's whatever latticecast's revision.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Floor:
    """Microseconds per ``Operation.create`` and per type read (medians over repeats)."""

    create_us: float
    type_us: float

    @property
    def per_op_us(self) -> float:
        """One create and one type read: the least an op costs in any row of ``dev.py bench``."""
        return self.create_us + self.type_us


def sample(ops: int) -> tuple[float, float]:
    """One measurement: (microseconds per ``Operation.create``, microseconds per ``Value.type``)."""
    from jaxlib.mlir import ir
    from jaxlib.mlir.dialects import stablehlo

    with ir.Context() as ctx, ir.Location.unknown():
        stablehlo.register_dialect(ctx)
        ctx.enable_multithreading(False)
        t = ir.RankedTensorType.get([8], ir.F32Type.get())
        module = ir.Module.create()
        func = ir.Operation.create("func.func", attributes={
            "sym_name": ir.StringAttr.get("main"),
            "function_type": ir.TypeAttr.get(ir.FunctionType.get([t, t], []))},
            regions=1, ip=ir.InsertionPoint(module.body))
        block = ir.Block.create_at_start(func.regions[0], [t, t])
        ip = ir.InsertionPoint(block)
        acc, b = block.arguments[0], block.arguments[1]
        created = []
        t0 = time.perf_counter()
        for _ in range(ops):
            op = ir.Operation.create("stablehlo.add", results=[t], operands=[acc, b], ip=ip)
            acc = op.result
            created.append(op)
        t1 = time.perf_counter()
        for op in created:
            op.result.type
            for v in op.operands:
                v.type
        t2 = time.perf_counter()
        del created, op, acc, b, block, func, module
    return (t1 - t0) / ops * 1e6, (t2 - t1) / (3 * ops) * 1e6


def measure(ops: int = 100_000, repeats: int = 5) -> Floor:
    """The floor: medians of ``repeats`` samples of ``ops`` ops each (after one small warm-up).

    Args:
        ops: ops created per sample.
        repeats: samples.

    Returns:
        The medians.

    Example:
        >>> measure(100, 1).per_op_us > 0
        True
    """
    sample(min(ops, 1000))
    creates, types = zip(*(sample(ops) for _ in range(repeats)))
    return Floor(statistics.median(creates), statistics.median(types))


def per_op_us(ops: int = 10_000) -> float:
    """One sample of the floor per op (one ``Operation.create`` and one type read), in microseconds: what
    ``targets.py`` takes beside each sample of a row, so that a row and its floor are measured moments
    apart (this machine's speed drifts by as much as half over minutes).

    Example:
        >>> per_op_us(100) > 0
        True
    """
    create, read = sample(ops)
    return create + read


def read_walk(op: "object") -> float:
    """Seconds of a walk over ``op`` (an ``ir.Operation``) that reads, for every op, what
    ``implicit-cast`` must read to decide it (its name, attributes, operands, its result and the
    result's type) and sets one operand of each binary op to what it was, deciding nothing: the least
    a Python pass over jaxlib's walk pays (``chain_parts.py``'s read floor; ``targets.py``'s floor of
    implicit-cast against ``cse``).

    Example:
        >>> from jaxlib.mlir import ir
        >>> with ir.Context() as ctx:
        ...     m = ir.Module.parse("func.func @f() { return }")
        ...     read_walk(m.operation) >= 0
        True
    """
    from jaxlib.mlir import ir

    advance = ir.WalkResult.ADVANCE

    def visit(o: ir.Operation) -> ir.WalkResult:
        o.name
        len(o.attributes)
        operands = o.operands
        if len(operands) == 2:
            b = operands[1]
            operands[0]
            try:
                o.result.type
            except ValueError:  # no single result (a return of two values): a real module has a few
                pass
            operands[1] = b
        return advance

    t0 = time.perf_counter()
    op.walk(visit, ir.WalkOrder.PRE_ORDER)  # type: ignore[attr-defined]  # an ir.Operation
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ops", type=int, default=100_000, help="ops per sample (default 100,000)")
    ap.add_argument("--repeats", type=int, default=5, help="samples (default 5)")
    args = ap.parse_args(argv)
    if args.ops < 1 or args.repeats < 1:
        ap.error("--ops and --repeats must be at least 1")
    floor = measure(args.ops, args.repeats)
    print(f"Operation.create: {floor.create_us:.2f} us/op; reading a type: {floor.type_us:.3f} us; "
          f"the floor per op (one create + one type read): {floor.per_op_us:.2f} us/op")
    return 0


if __name__ == "__main__":
    sys.exit(main())
