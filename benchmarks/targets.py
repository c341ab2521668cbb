"""The performance targets, each measured side by side in one run: ``python3 dev.py bench``.

    python benchmarks/targets.py [--quick] [--repeats 5] [--markdown]

One row per target of the performance issue: what is measured, latticecast's value, JAX's
value for the same work with the ratio JAX / latticecast (or why there is none: JAX has no
pass, no lift), latticecast's time per op as a multiple of the binding floor, the target, and
whether it is met. ``--markdown`` prints the table in Markdown. Ratios against JAX (and MAX, where an interpreter with MAX 26.7
is given in ``$LATTICECAST_MAX_PYTHON``) are measured in the same run, alternating the
two sides, and quoted as medians over ``--repeats``: the machines are shared and noisy.
``--quick`` shrinks the million-op and 100k measurements tenfold (for a smoke test; the
ratios then say less). Every measurement runs in a fresh process where memory or
process-wide caches would otherwise blur it.

The programs:

* the *literal chain*: ``N`` ops over ``x: int16, y: float32, z: int8, w: int16``
  (``acc + y``, ``acc * z``, ``acc - 1``, ``acc + w``, repeated), a Python literal every
  fourth op as real code has them; the *plain chain* writes ``acc - x`` instead of
  ``acc - 1``;
* latticecast: build with the graph builder, run ``implicit-cast`` (and the verifier),
  print; JAX: ``jax.jit(f).lower(...).as_text()`` of the same Python (x64 on, so the
  promotions agree).

The first row is the *binding floor* (``binding_floor.py``): what jaxlib's MLIR bindings cost
per op with no latticecast code, one ``Operation.create`` and one type read. Each row that
handles ops shows its time per op as a multiple of it ("x floor"; for the JAX module, per line
of the module), each sample of a row over a sample of the floor taken right after it (this
machine's speed drifts by as much as half over minutes; the first row is a standalone sample):
where a target is below what the bindings allow, the row says so in numbers
(the build row states its target as a multiple of the floor; the JAX module's row what JAX's
ratio would be if the pass and the verifier cost nothing; the round trip's row the dispatcher
the model calls, JAX's own). Each chain row also quotes JAX / the *least Python*
(``python_floor.py``): the same chain built and legalized by a minimal builder and pass with no
policy and no checks, sampled beside each of the row's samples: about the most a builder and a
pass in Python can reach on these bindings.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import TYPE_CHECKING, Callable, NamedTuple, Sequence

import binding_floor  # noqa: E402  (the floor's one home)
from binding_floor import Floor  # noqa: E402

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

if TYPE_CHECKING:
    from latticecast import Graph

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

LITERAL_CHAIN_DTYPES = ("int16", "float32", "int8", "int16")


def chain(xs: Sequence[object], n: int, literal: bool = True) -> object:
    """The literal (or plain) chain over graph values or jax arrays."""
    x, y, z, w = xs
    acc = x
    for i in range(n):
        k = i % 4
        if k == 0:
            acc = acc + y
        elif k == 1:
            acc = acc * z
        elif k == 2:
            acc = acc - 1 if literal else acc - x
        else:
            acc = acc + w
    return acc


def every_other_literal(xs: Sequence[object], n: int, literal: bool = True) -> object:
    """A chain with a literal every other op (``acc + y``, ``acc - 1``), or ``acc - x`` instead."""
    x, y = xs[0], xs[1]
    acc = x
    for i in range(n):
        acc = acc + y if i % 2 == 0 else (acc - 1 if literal else acc - x)
    return acc


def inputs_graph(n: int) -> "Graph":
    """The many-inputs graph, built: ``n`` int8 inputs added, one after another, to a float32 one, so that
    ``implicit-cast`` converts every int8 input to float32."""
    from latticecast import DType, Graph, TensorType

    g = Graph("inputs", input_types=[TensorType(DType.float32, (2,))] + [TensorType(DType.int8, (2,))] * n)
    with g:
        acc = g.inputs[0]
        for x in g.inputs[1:]:
            acc = acc + x  # every int8 input is converted to float32
        g.output(acc)
    return g


def build_latticecast(n: int, literal: bool, program: Callable = chain) -> tuple[float, float, str]:
    """Build, pass and print; returns (build seconds, total seconds, text)."""
    from latticecast import DType, Graph, TensorType

    t0 = time.perf_counter()
    g = Graph("chain", input_types=[TensorType(DType(d), (8,)) for d in LITERAL_CHAIN_DTYPES], policy="jax")
    with g:
        g.output(program(g.inputs, n, literal))
    t1 = time.perf_counter()
    text = g.mlir()
    return t1 - t0, time.perf_counter() - t0, text


def lower_jax(n: int, literal: bool) -> tuple[float, str]:
    import jax
    import numpy as np

    def f(*xs: object) -> object:
        return chain(xs, n, literal)

    args = [jax.ShapeDtypeStruct((8,), np.dtype(d)) for d in LITERAL_CHAIN_DTYPES]
    with jax.enable_x64(True):  # so JAX's promotions are the jax policy's; scoped, as its callers may be tests
        t0 = time.perf_counter()
        text = jax.jit(f).lower(*args).as_text()
        return time.perf_counter() - t0, text


# -- rows ---------------------------------------------------------------------------------------

class Row(NamedTuple):
    """One row of the table: latticecast's measurement, JAX's beside it, and the binding floor's."""

    what: str
    value: str
    """latticecast's side: its time (or the ratio the target is about)."""
    jax: str
    """JAX's side of the same work and the ratio JAX / latticecast (above 1: latticecast is faster), or why
    the row has none."""
    floor: str
    """latticecast's time per op over the binding floor's per op, or why the row has none."""
    target: str
    met: bool


NO_FLOOR = "-"
"""The floor column of a row that handles no IR ops one by one (a process, a table)."""


FLOOR_OPS = 10_000
"""Ops per sample of the binding floor taken beside a row's samples (about 40 ms)."""


def floor_beside(floor: bool) -> float | None:
    """A sample of the binding floor per op (us), taken right after a sample of a row; ``None`` when the row
    is measured without its floor."""
    return binding_floor.per_op_us(FLOOR_OPS) if floor else None


def x_floor(seconds: Sequence[float], ops: int, floors: Sequence[float | None]) -> str:
    """``"4.2x"``: the median over a row's samples of each sample's time per op (``seconds`` over ``ops``)
    over the floor sampled beside it; ``"not measured"`` without floor samples."""
    pairs = [(s, f) for s, f in zip(seconds, floors) if f is not None]
    if not pairs:
        return "not measured"
    return f"{statistics.median(s / ops * 1e6 / f for s, f in pairs):.1f}x"


def versus_jax(jax_s: float, ours_s: float, unit: str = "s", digits: int = 3) -> str:
    """``"1.920 s (8.3x)"``: JAX's time and its ratio to latticecast's."""
    return f"{jax_s:.{digits}f} {unit} ({jax_s / ours_s:.2f}x)"


def floor_row(floor: Floor) -> Row:
    """The binding floor as a row of the table (not a target: ``main`` counts it out)."""
    return Row("binding floor: jaxlib's Operation.create + one type read per op, no latticecast code",
               f"{floor.per_op_us:.2f} us/op ({floor.create_us:.2f} + {floor.type_us:.2f})", "-", "1.0x",
               "(the floor)", True)


JAX_US_PER_OP: list[float] = []
"""JAX's trace + lower + print per op on the plain chain, once :func:`chains_vs_jax` has measured it
(the rows too large to lower with JAX quote it)."""


def chains_vs_jax(n: int, repeats: int, floor: bool = False) -> list[Row]:
    """The two chain rows and the build's: each chain's JAX / latticecast beside JAX / the least Python that
    builds and legalizes the same chain (``python_floor.py``), and the same with a pass that reads what
    ``implicit-cast`` cannot skip (its ``checked``), the four alternating."""
    import python_floor

    build_latticecast(200, True)
    lower_jax(200, True)
    python_floor.sample(200, True)
    rows = []
    build_per_op: list[float] = []
    build_floors: list[float | None] = []
    jax_per_op = []
    for literal in (True, False):
        ratios, least, checked, ours, theirs = [], [], [], [], []
        floors: list[float | None] = []
        for _ in range(repeats):
            build_s, lc_s, text = build_latticecast(n, literal)
            floors.append(floor_beside(floor))
            jax_s, _ = lower_jax(n, literal)
            least_s = python_floor.sample(n, literal).total
            ours.append(lc_s)
            theirs.append(jax_s)
            ratios.append(jax_s / lc_s)
            least.append(jax_s / least_s)
            checked.append(jax_s / python_floor.sample(n, literal, checked=True).total)
            if not literal:
                build_per_op.append(build_s / n * 1e6)
                build_floors.append(floors[-1])
                jax_per_op.append(jax_s / n * 1e6)
        r = statistics.median(ratios)
        target = 10.0  # both chains (issue 29)
        what = "with a literal every 4th op" if literal else "without literals"
        ours_s, theirs_s = statistics.median(ours), statistics.median(theirs)
        reading = statistics.median(checked)
        below = f" (below {target:g}x)" if reading < target else ""
        rows.append(Row(f"{n:,}-op chain {what}: build + implicit-cast + print vs jax.jit(f).lower().as_text()",
                        f"{ours_s:.3f} s",
                        f"{theirs_s:.3f} s ({r:.2f}x; the least Python {statistics.median(least):.2f}x, "
                        f"reading what implicit-cast must{below} {reading:.2f}x)",
                        x_floor(ours, n, floors),
                        f">= {target:g}x", r >= target))
    per_op = statistics.median(build_per_op)
    jax_us = statistics.median(jax_per_op)
    JAX_US_PER_OP[:] = [jax_us]
    versus = x_floor([t * 1e-6 for t in build_per_op], 1, build_floors)
    measured = [f for f in build_floors if f is not None]
    if measured:  # each op is at least one create and a type read
        beside = statistics.median(measured)
        versus += f"; the target is {BUILD_TARGET_US / beside:.2f}x the floor of {beside:.2f} us"
        if beside > BUILD_TARGET_US:
            versus += ": below what the bindings allow"
    rows.append(Row("per-op build cost, chain without literals (JAX: its trace + lower + print per op)",
                    f"{per_op:.2f} us/op", versus_jax(jax_us, per_op, "us/op", 1), versus,
                    f"<= {BUILD_TARGET_US:g} us", per_op <= BUILD_TARGET_US))
    return rows


BUILD_TARGET_US = 3.0
"""The per-op build cost to reach (issue 29), in microseconds."""


def max_builder(n: int, repeats: int, floor: bool = False) -> list[Row]:
    """MAX 26.7's own graph builder on the literal chain (build only: MAX's graph is MLIR already),
    against latticecast's build + pass + print, where an interpreter with MAX is given."""
    python = os.environ.get("LATTICECAST_MAX_PYTHON")
    if not python:
        return [Row("MAX 26.7's graph builder on the literal chain", "not measured", "-", NO_FLOOR,
                    "set LATTICECAST_MAX_PYTHON to a python with max==26.7", True)]
    code = textwrap.dedent(f"""
        import json, statistics, sys, time
        sys.path.insert(0, {str(HERE)!r})
        from targets import chain, LITERAL_CHAIN_DTYPES
        from max.dtype import DType
        from max.graph import DeviceRef, Graph, TensorType
        def build():
            types = [TensorType(getattr(DType, d), [8], DeviceRef.CPU()) for d in LITERAL_CHAIN_DTYPES]
            t0 = time.perf_counter()
            with Graph("chain", input_types=types) as g:
                g.output(chain([v.tensor for v in g.inputs], {n}, True))
            return time.perf_counter() - t0
        build()
        print(json.dumps(statistics.median(build() for _ in range({repeats}))))
    """)
    proc = subprocess.run([python, "-c", code], capture_output=True, text=True)
    if proc.returncode:
        return [Row("MAX 26.7's graph builder", "failed: " + proc.stderr.strip().splitlines()[-1], "-", NO_FLOOR, "",
                    False)]
    max_s = json.loads(proc.stdout)
    samples, floors = [], []
    for _ in range(repeats):
        samples.append(build_latticecast(n, True)[1])
        floors.append(floor_beside(floor))
    ours = statistics.median(samples)
    r = max_s / ours
    return [Row(f"MAX 26.7's builder on the {n:,}-op literal chain vs latticecast's build + pass + print",
                f"{ours:.3f} s; MAX {max_s:.3f} s ({r:.2f}x)", "the literal chain's row", x_floor(samples, n, floors),
                "keep the lead (> 1x)", r > 1)]


def _child(code: str) -> dict:
    """Run ``code`` in a fresh interpreter; it prints one JSON object (with its peak RSS)."""
    prelude = textwrap.dedent(f"""
        import json, resource, sys, time
        sys.path.insert(0, {str(HERE)!r})
        def done(**kw):
            kw["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            print(json.dumps(kw))
    """)
    proc = subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)], capture_output=True, text=True,
                          env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"))
    if proc.returncode:
        raise SystemExit(f"benchmark child failed:\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def million_literals(n: int, floor: bool = False) -> list[Row]:
    runs = {}
    floors: dict[bool, float | None] = {}
    for literal in (True, False):
        runs[literal] = _child(f"""
            from targets import build_latticecast, every_other_literal
            import latticecast
            build_latticecast(100, {literal}, every_other_literal)
            t0 = time.perf_counter()
            _, total, text = build_latticecast({n}, {literal}, every_other_literal)
            done(seconds=total, lines=text.count(chr(10)))
        """)
        floors[literal] = floor_beside(floor)
    per_op = runs[True]["seconds"] / runs[False]["seconds"]
    memory = runs[True]["rss_mb"] / runs[False]["rss_mb"]
    jax = (f"not run: {JAX_US_PER_OP[0]:.0f} us/op (its 10,000-op rate) is {n * JAX_US_PER_OP[0] * 1e-6:.0f} s; "
           f"{n * JAX_US_PER_OP[0] * 1e-6 / runs[True]['seconds']:.0f}x" if JAX_US_PER_OP else "not run")
    return [Row(f"{n:,}-op chain, a literal every other op, vs the plain one: time per op",
                f"{per_op:.2f}x ({runs[True]['seconds']:.1f} s vs {runs[False]['seconds']:.1f} s)", jax,
                x_floor([runs[True]["seconds"]], n, [floors[True]]), "<= 1.5x", per_op <= 1.5),
            Row(f"{n:,}-op chain, a literal every other op, vs the plain one: peak memory",
                f"{memory:.2f}x ({runs[True]['rss_mb']:.0f} MB vs {runs[False]['rss_mb']:.0f} MB)", "not run",
                NO_FLOOR, "<= 1.2x", memory <= 1.2)]


def pass_vs_cse(n: int, repeats: int, floor: bool = False) -> list[Row]:
    """implicit-cast alone against MLIR's ``cse`` on the literal chain as built, beside a walk that reads what the
    pass reads (``binding_floor.read_walk``) and the least Python's pass (``python_floor.legalize``), also
    reading what implicit-cast cannot skip (its ``checked``)."""
    from jaxlib.mlir import passmanager

    import python_floor

    from latticecast.passes import ImplicitCastOptions, run_implicit_cast
    from latticecast import DType, Graph, TensorType

    g = Graph("chain", input_types=[TensorType(DType(d), (8,)) for d in LITERAL_CHAIN_DTYPES], policy="jax")
    with g:
        g.output(chain(g.inputs, n, True))
    module = g._module  # as built, before the pass: the same module for both
    with g.context:
        ranks = python_floor.chain_ranks()
    ratios, ours, cse, walks, least, checked = [], [], [], [], [], []
    floors: list[float | None] = []
    for _ in range(repeats):
        op = module.operation.clone()
        t0 = time.perf_counter()
        run_implicit_cast(op, ImplicitCastOptions(policy="jax"))
        t1 = time.perf_counter()
        floors.append(floor_beside(floor))
        op.erase()
        op = module.operation.clone()
        walks.append(binding_floor.read_walk(op))  # the least a Python pass pays on this module
        op.erase()
        op = module.operation.clone()
        t4 = time.perf_counter()
        python_floor.legalize(op, ranks)  # the least Python that legalizes it
        least.append(time.perf_counter() - t4)
        op.erase()
        op = module.operation.clone()
        t5 = time.perf_counter()
        python_floor.legalize(op, ranks, checked=True)  # the same, reading what implicit-cast must
        checked.append(time.perf_counter() - t5)
        op.erase()
        op = module.operation.clone()
        with g.context:
            pm = passmanager.PassManager.parse("builtin.module(cse)")
        pm.enable_verifier(False)
        t2 = time.perf_counter()
        pm.run(op)
        t3 = time.perf_counter()
        op.erase()
        ours.append(t1 - t0)
        cse.append(t3 - t2)
        ratios.append((t1 - t0) / (t3 - t2))
    r = statistics.median(ratios)
    walk = statistics.median(walks) / statistics.median(cse)
    least_x = statistics.median(least) / statistics.median(cse)  # python_floor.py's legalize
    checked_x = statistics.median(checked) / statistics.median(cse)
    below = ("; 2x cse is below the walk" if walk > 2 else "; 2x cse is below the least Python" if least_x > 2
             else "; 2x cse is below the least Python reading what implicit-cast must" if checked_x > 2 else "")
    return [Row(f"implicit-cast alone vs builtin.module(cse), {n:,}-op literal chain",
                f"{r:.2f}x ({statistics.median(ours):.3f} s vs {statistics.median(cse):.3f} s)",
                "none: JAX promotes while it traces, in no pass",
                f"{x_floor(ours, n, floors)}; a walk reading what the pass reads: {walk:.2f}x cse; the least Python's "
                f"pass: {least_x:.2f}x cse, reading what implicit-cast must: {checked_x:.2f}x cse{below}", "<= 2x",
                r <= 2)]


def many_inputs(small: int, large: int, floor: bool = False, repeats: int = 3) -> list[Row]:
    samples: dict[int, list[float]] = {small: [], large: []}
    verifier: dict[int, list[float]] = {small: [], large: []}
    printer: dict[int, list[float]] = {small: [], large: []}
    floors: list[float | None] = []
    for _ in range(repeats):  # alternating, each in a fresh process; the medians are compared
        for n in (small, large):
            seconds, verify, printed = _one_input_graph(n)
            samples[n].append(seconds)
            verifier[n].append(verify)
            printer[n].append(printed)
        floors.append(floor_beside(floor))
    times = {n: statistics.median(s) for n, s in samples.items()}
    growth = times[large] / times[small]

    def grows(seconds: dict[int, list[float]]) -> float:
        return statistics.median(seconds[large]) / statistics.median(seconds[small])

    # MLIR's own C++ verifier and printer on the same two modules: how their time grows on this machine
    # (cache misses grow faster than the work), with no latticecast code in them
    limit = large / small
    mlir = f"MLIR's verifier on the same modules: {grows(verifier):.1f}x, its printer: {grows(printer):.1f}x"
    if grows(verifier) > limit and grows(printer) > limit:
        mlir += f"; {limit:g}x is below MLIR's own growth"
    return [Row(f"implicit-cast + print, graph with {large:,} inputs each converted, vs {small:,}",
                f"{growth:.1f}x ({times[large]:.2f} s vs {times[small]:.3f} s)",
                "none: JAX promotes while it traces, in no pass",
                # per op: a convert and an add per input
                f"{x_floor(samples[large], 2 * large, floors)}; {mlir}",
                f"<= {limit:g}x (linear)", growth <= limit)]


def _one_input_graph(n: int) -> tuple[float, float, float]:
    """Seconds of ``g.mlir()`` (implicit-cast, the verifier, the print) on a graph of ``n`` int8 inputs added
    to a float32 one, in a fresh process; and seconds of MLIR's verifier alone, and of its printer alone, on
    the module after it."""
    found = _child(f"""
            from latticecast.dialect_utils.printing import asm
            from targets import inputs_graph
            g = inputs_graph({n})
            t0 = time.perf_counter()
            text = g.mlir()
            t1 = time.perf_counter()
            with g.context:
                g.module.operation.verify()
            t2 = time.perf_counter()
            again = asm(g.module, assume_verified=True)  # g.mlir()'s print, once more
            t3 = time.perf_counter()
            done(seconds=t1 - t0, verify=t2 - t1, print=t3 - t2, converts=text.count("stablehlo.convert"),
                 same=again == text)
        """)
    assert found["converts"] == n and found["same"]
    return float(found["seconds"]), float(found["verify"]), float(found["print"])


def audit_thousand(types: int) -> list[Row]:
    from latticecast import PromotionTable, audit

    side = 40
    cells = [(i // side, i % side) for i in range(types)]  # a product of two chains: a lattice
    table = PromotionTable.from_function(cells, None, lambda a, b: (max(a[0], b[0]), max(a[1], b[1])),
                                         name="grid")
    t0 = time.perf_counter()
    report = audit(table)
    seconds = time.perf_counter() - t0
    return [Row(f"audit of a {types:,}-type table (a lattice: {report.is_lattice})", f"{seconds:.1f} s",
                "none: JAX proves no lattice laws", NO_FLOOR, "<= 10 s", seconds <= 10)]


def round_trip(rounds: int, calls: int) -> list[Row]:
    import jax
    import jax.numpy as jnp
    import numpy as np

    from bench_runtime import SMALL_PROGRAM, alternate, per_call_us, ratio
    from latticecast.runtime import compile

    model = compile(SMALL_PROGRAM)
    x, y = np.arange(4, dtype=np.int16), np.ones(4, np.float32)
    jitted = jax.jit(lambda a, b: a.astype(jnp.float32) + b)
    np.testing.assert_array_equal(model(x, y)[0], np.asarray(jitted(x, y)))
    # The floor: JAX's dispatcher that the model's fast path calls (a jax.jit function holding the
    # compiled module), with its one result turned into a list of NumPy arrays as the model returns it
    # and nothing else; what the model adds is its Python (the call of an instance, the dtype guards).
    dispatcher = model._direct
    assert dispatcher is not None, "the small program runs on one device through jax.jit"
    ours, theirs, floor = alternate([lambda: per_call_us(lambda: model(x, y), calls),
                                     lambda: per_call_us(lambda: np.asarray(jitted(x, y)), calls),
                                     lambda: per_call_us(lambda: [np.asarray(dispatcher(x, y))], calls)], rounds)
    r = ratio(ours, theirs)
    return [Row("round trip NumPy -> result, small program, vs np.asarray(jax.jit(f)(x, y))",
                f"{statistics.median(ours):.1f} us", f"{statistics.median(theirs):.1f} us ({1 / r:.2f}x)",
                f"{ratio(ours, floor):.2f}x the dispatcher it calls ({statistics.median(floor):.1f} us)",
                "latticecast <= 1.0x JAX's time",
                r <= 1.0)]


def jax_module(layers: int, repeats: int, floor: bool = False) -> list[Row]:
    import jax
    import numpy as np

    from bench_jax_module import T, D, make_step, parameters
    from latticecast.dialect_utils.context import make_context
    from latticecast.dialect_utils.parsing import parse_checked
    from latticecast.dialect_utils.printing import asm
    from latticecast.passes import Pipeline, PipelineRunner

    ps, x = parameters(layers), np.ones((T, D), np.float32)
    text = jax.jit(make_step()).lower(ps, x).as_text()
    ctx = make_context(lenient=True)
    runner = PipelineRunner(Pipeline.parse("implicit-cast"), ctx)  # as latticecast-opt runs it: built once
    ratios, ours, theirs = [], [], []
    parts: dict[str, list[float]] = {"parse": [], "pass + verify": [], "print": []}
    floors: list[float | None] = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        jax.jit(make_step()).lower(ps, x).as_text()
        t1 = time.perf_counter()
        parsed = parse_checked(text, ctx, lenient=True, source_name="step.mlir")
        module = parsed.module
        t_parsed = time.perf_counter()
        # as latticecast-opt runs it: the parser verified the module and it has no marker, so the
        # pass has nothing to do and does not walk it (run_implicit_cast's unmarked)
        runner.run(module.operation, verified=parsed.verified, unmarked=parsed.unmarked)
        t_passed = time.perf_counter()
        out = asm(module, assume_verified=True)  # as latticecast-opt prints
        t2 = time.perf_counter()
        theirs.append(t1 - t0)
        ours.append(t2 - t1)
        ratios.append((t1 - t0) / (t2 - t1))
        for key, dt in zip(parts, (t_parsed - t1, t_passed - t_parsed, t2 - t_passed)):
            parts[key].append(dt)
        floors.append(floor_beside(floor))
    assert out == text, "implicit-cast changed JAX's legal module"
    r = statistics.median(ratios)
    part = {key: statistics.median(v) for key, v in parts.items()}
    mlir_only = part["parse"] + part["print"]  # MLIR's own parser and printer: no latticecast code runs in them
    return [Row(f"{text.count(chr(10)):,}-line JAX module ({layers}-layer transformer): parse + pass + print "
                f"in process vs JAX's trace + lower",
                f"{statistics.median(ours):.3f} s (" + ", ".join(f"{k} {v:.3f}" for k, v in part.items()) + ")",
                f"{statistics.median(theirs):.3f} s ({r:.2f}x; {statistics.median(theirs) / mlir_only:.1f}x if the "
                "pass and verifier cost nothing)", x_floor(ours, text.count(chr(10)), floors),
                ">= 10x", r >= 10)]


def lift_and_compare(layers: int, repeats: int, floor: bool = False) -> list[Row]:
    """``compare --from`` (lift + compare) against implicit-cast alone on the JAX module, as commands and
    in process (:mod:`bench_lift`)."""
    from bench_lift import commands, in_process, module_text

    text = module_text(layers)
    opt_s, compare_s = commands(text, max(2, repeats // 2))
    parts = in_process(text, repeats)
    beside = floor_beside(floor)  # after the in-process medians: one sample
    lines = f"{text.count(chr(10)):,}-line"
    per_line = text.count(chr(10))
    return [Row(f"{lines} JAX module: latticecast compare --from jax-x32 --vs torch vs latticecast-opt "
                "--implicit-cast", f"{compare_s / opt_s:.2f}x ({compare_s:.2f} s vs {opt_s:.2f} s)",
                "none: JAX has no lift", NO_FLOOR, "<= 2x", compare_s / opt_s <= 2),  # processes: start-up, no floor
            Row(f"{lines} JAX module in process: lift + compare vs implicit-cast (lift {parts['lift']:.3f} s, "
                f"compare {parts['compare']:.3f} s)",
                f"{parts['ratio']:.2f}x ({parts['lift'] + parts['compare']:.3f} s vs {parts['implicit-cast']:.3f} s)",
                f"none: JAX has no lift; the least Python {parts['least ratio']:.2f}x, checking what lift must "
                f"{parts['checked ratio']:.2f}x; against implicit-cast deciding the lifted program's promotions: "
                f"{parts['ratio (mixed)']:.2f}x",
                x_floor([parts["lift"] + parts["compare"]], per_line, [beside]), "<= 2x", parts["ratio"] <= 2)]


def text_row(row: Row, met: str) -> str:
    """A row for a terminal: what is measured on one line, the columns on the next (each fits 100 columns)."""
    return (f"{row.what}\n    latticecast {row.value} | JAX {row.jax} | x floor {row.floor} | target {row.target}"
            f" | {met}")


def markdown_row(row: Row, met: str) -> str:
    """A row of the Markdown table (``--markdown``)."""
    return f"| {row.what} | {row.value} | {row.jax} | {row.floor} | {row.target} | {met} |"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="the large measurements at a tenth of their size")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--markdown", action="store_true", help="print the table in Markdown")
    args = ap.parse_args()
    if args.repeats < 1:
        ap.error("--repeats must be at least 1")
    scale = 10 if args.quick else 1
    show = markdown_row if args.markdown else text_row
    if args.markdown:
        print("| measure | latticecast | JAX (JAX / latticecast) | x binding floor | target | met |\n"
              "|---|---|---|---|---|---|")
    floor = binding_floor.measure(100_000 // scale, args.repeats)
    print(show(floor_row(floor), "-"), flush=True)
    measurements: list[tuple[str, Callable[[], list[Row]]]] = [
        ("chains", lambda: chains_vs_jax(10_000, args.repeats, True)),
        ("MAX", lambda: max_builder(10_000, args.repeats, True)),
        ("million", lambda: million_literals(1_000_000 // scale, True)),
        ("pass vs cse", lambda: [row for n in sorted({10_000, 100_000 // scale})  # at 10k and at 100k ops
                                 for row in pass_vs_cse(n, max(3, args.repeats // 2), True)]),
        ("inputs", lambda: many_inputs(10_000 // scale, 100_000 // scale, True, max(3, args.repeats // 2))),
        ("audit", lambda: audit_thousand(1_000)),
        ("round trip", lambda: round_trip(max(5, args.repeats * 2), 2000)),
        ("JAX module", lambda: jax_module(32, args.repeats, True)),
        ("lift", lambda: lift_and_compare(32 // scale if scale > 1 else 32, args.repeats, True)),
    ]
    rows: list[Row] = []
    for name, measure in measurements:
        for row in measure():
            rows.append(row)
            print(show(row, "yes" if row.met else "NO"), flush=True)
    missed = [r.what for r in rows if not r.met]
    print(f"\n{len(rows) - len(missed)} of {len(rows)} targets met" + (f"; missed: {'; '.join(missed)}" if missed
                                                                     else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
