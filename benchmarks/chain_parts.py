"""Where the time of the 10,000-op chain row goes, part by part, beside what MLIR's bindings cost for
the same parts with no latticecast code (medians of ``--repeats``, parts alternating).

    python benchmarks/chain_parts.py [--ops 10000] [--repeats 7] [--literal]

The parts of ``build_latticecast`` (``targets.py``): the build, the clone that keeps the module as
built (for ``g.mlir(before_passes=True)`` and ``g.compare``), ``implicit-cast``, the verifier after
it, and the print. Beside them:

* *create floor*: ``Operation.create`` of each op with its operands and result type, and reading its
  result (``binding_floor.py``'s create): the least a builder pays per op;
* *read floor*: a walk that reads, for every op, what the pass must read to decide it (its name,
  attributes, operands, its result and the result's type) and sets one operand, deciding nothing:
  the least a Python pass over jaxlib's walk pays per op;
* the verifier and the printer are MLIR's own: no latticecast code runs in them.

So the row's floor is the sum of the two floors, the verifier and the print, and the ratio JAX /
that sum is the most this row can reach on these bindings. The last column is the *least Python*
(``python_floor.py``): the same chain built and legalized by a minimal builder and pass with no
policy and no checks: about the most a Python implementation on these bindings can reach. Below
the table, the least Python's pass once more, reading also each op's name, attributes and result
type, which ``implicit-cast`` cannot skip: how much of the pass's excess over the least Python is
reading rather than its own bookkeeping.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))

import binding_floor  # noqa: E402
import python_floor  # noqa: E402
from targets import LITERAL_CHAIN_DTYPES, chain, lower_jax  # noqa: E402


def parts(n: int, literal: bool) -> dict[str, float]:
    """One sample of every part, in seconds."""
    from latticecast import DType, Graph, TensorType
    from latticecast.dialect_utils.printing import asm
    from latticecast.passes import ImplicitCastOptions, run_implicit_cast

    out: dict[str, float] = {}
    t0 = time.perf_counter()
    g = Graph("chain", input_types=[TensorType(DType(d), (8,)) for d in LITERAL_CHAIN_DTYPES], policy="jax")
    with g:
        g.output(chain(g.inputs, n, literal))
    t1 = time.perf_counter()
    before = g._module.operation.clone()  # as Graph._run_pass keeps the module as built
    t2 = time.perf_counter()
    op = g._module.operation
    t3 = time.perf_counter()
    run_implicit_cast(op, ImplicitCastOptions(policy="jax"))
    t4 = time.perf_counter()
    with g.context:
        op.verify()
    t5 = time.perf_counter()
    asm(op, assume_verified=True)
    t6 = time.perf_counter()
    out.update({"build": t1 - t0, "clone": t2 - t1, "implicit-cast": t4 - t3, "verify": t5 - t4, "print": t6 - t5})
    out["read floor"] = binding_floor.read_walk(before)
    before.erase()
    out["create floor"] = _create_floor(n)
    least = python_floor.sample(n, literal)
    out.update({"least build": least.build, "least implicit-cast": least.legalize, "least verify": least.verify,
                "least print": least.print, "least checked": python_floor.sample(n, literal, checked=True).legalize})
    return out


def _create_floor(n: int) -> float:
    create_us, _ = binding_floor.sample(n)  # each op created and its result read, as the builder does
    return create_us * n * 1e-6


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ops", type=int, default=10_000)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--literal", action="store_true", help="the literal chain (default: the plain one)")
    args = ap.parse_args(argv)
    if args.ops < 1 or args.repeats < 1:
        ap.error("--ops and --repeats must be at least 1")
    parts(200, args.literal)
    lower_jax(200, args.literal)
    samples: list[dict[str, float]] = []
    jax_s: list[float] = []
    for _ in range(args.repeats):
        samples.append(parts(args.ops, args.literal))
        jax_s.append(lower_jax(args.ops, args.literal)[0])
    med: Callable[[str], float] = lambda key: statistics.median(s[key] for s in samples)  # noqa: E731
    ours = ["build", "clone", "implicit-cast", "verify", "print"]
    total = sum(med(k) for k in ours)
    floor = med("create floor") + med("read floor") + med("verify") + med("print")
    jax = statistics.median(jax_s)
    kind = "literal" if args.literal else "plain"
    print(f"{args.ops:,}-op {kind} chain, medians of {args.repeats} (ms); JAX's trace + lower + print: {jax * 1e3:.0f} ms")
    least = sum(med(f"least {k}") for k in ("build", "implicit-cast", "verify", "print"))
    print(f"{'part':16s} {'latticecast':>12s} {'floor':>12s} {'least Python':>13s}  floor is")
    for key, floor_key, what in (("build", "create floor", "Operation.create + op.result per op"),
                                 ("clone", None, "-"),
                                 ("implicit-cast", "read floor", "a walk reading what the pass reads"),
                                 ("verify", "verify", "MLIR's verifier"),
                                 ("print", "print", "MLIR's printer")):
        f = f"{med(floor_key) * 1e3:12.1f}" if floor_key else f"{'-':>12s}"
        m = f"{med('least ' + key) * 1e3:13.1f}" if key != "clone" else f"{'-':>13s}"
        print(f"{key:16s} {med(key) * 1e3:12.1f} {f} {m}  {what}")
    print(f"{'total':16s} {total * 1e3:12.1f} {floor * 1e3:12.1f} {least * 1e3:13.1f}")
    print(f"JAX / latticecast: {jax / total:.1f}x; JAX / the floor: {jax / floor:.1f}x (the most this row can reach "
          f"on these bindings); JAX / the least Python: {jax / least:.1f}x (a builder and a pass with no policy and "
          "no checks)")
    print(f"the least Python's pass reading also what implicit-cast cannot skip (each op's name, attributes and result "
          f"type): {med('least checked') * 1e3:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
