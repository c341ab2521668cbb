"""The main job of the README: ``latticecast demo``.

Builds a small mixed-dtype program with the graph builder, shows its StableHLO
before and after ``implicit-cast``, compiles it with PJRT and runs it on the CPU,
then builds the same program under a second policy and shows both side by side.
The program holds MAX's opening question (``int16 + float32``), a weak Python
literal, and a pair the policies disagree on (``int8 + uint64``); a last line adds
``int16 + float8_e4m3fn`` (a float8 under JAX, refused by NumPy) and the lossy
warning it earns. A program written for MAX runs with only its import changed
(:data:`MAX_PROGRAM`). Where the platform has more than one device (on a laptop:
``XLA_FLAGS=--xla_force_host_platform_device_count=8 latticecast demo``), it also builds
a mixed-precision layer sharded over a mesh of them, runs it through XLA's SPMD
partitioner and compares it with ``jax.jit`` bit for bit.
"""

from __future__ import annotations

import argparse
import re
import sys
import textwrap
from typing import TYPE_CHECKING, Any, Callable, Sequence

import numpy as np

from .promotion.dtypes import DType
from .errors import PromotionError

if TYPE_CHECKING:
    from jax.sharding import Mesh

    from .graph import Graph, Value

__all__ = ["main", "build_program", "INPUTS", "OUTPUTS", "fp8_lines", "FP8_INPUTS", "MAX_PROGRAM", "run_max_program",
           "fit_ir", "WIDTH", "NOTATION"]

INPUTS: dict[str, tuple[DType, np.ndarray]] = {
    "x": (DType.int16, np.array([1, 2, 3, 4], np.int16)),
    "y": (DType.float32, np.array([0.5, 0.25, -1.0, 8.0], np.float32)),
    "a": (DType.int8, np.array([-1, 2, -3, 4], np.int8)),
    "b": (DType.uint64, np.array([10, 20, 30, 2**40], np.uint64)),
}


OUTPUTS = ("x * one + y - 2", "a + b")
"""The program's outputs, as the demo prints them."""


def build_program(policy: str, diagnose_lossy: str = "off", *, refused: list[str] | None = None) -> Graph:
    """``(x * one + y - 2, a + b)`` under ``policy``: MAX's example, a weak literal, and the pair
    ``int8 + uint64`` on which JAX, MAX and NumPy disagree (and the Array API refuses).

    A policy's refusal is raised, or, given a ``refused`` list, recorded there (``"a + b: ..."``)
    and the output left out, so that the walk-through can go on with what the policy accepts."""
    from .graph import Graph, TensorType

    g = Graph("demo", input_types=[TensorType(dt, v.shape) for dt, v in INPUTS.values()], policy=policy,
              input_names=list(INPUTS), diagnose_lossy=diagnose_lossy)
    with g:
        x, y, a, b = g.inputs
        one = g.scalar[DType.int16](1)      # a typed scalar, MAX's g.scalar[DType.int16](1)
        outputs = []
        makers: tuple[Callable[[], Value], ...] = (lambda: x * one + y - 2, lambda: a + b)
        for label, make in zip(OUTPUTS, makers):  # 2 is weakly typed
            try:
                outputs.append(make())
            except PromotionError as e:
                if refused is None:
                    raise
                refused.append(f"{label}: {e}")
        g.output(*outputs)
    return g


MAX_PROGRAM = """\
from latticecast.max import DType, DeviceRef, Graph, TensorType, ops   # MAX: from max.graph ...

device = DeviceRef.CPU()
input_types = [TensorType(DType.float32, [4, 8], device),
               TensorType(DType.float32, [8, 3], device),
               TensorType(DType.float32, [3], device)]
with Graph("classifier", input_types=input_types) as graph:
    x, w, b = (value.tensor for value in graph.inputs)
    logits = ops.relu(x @ w + b)
    graph.output(ops.softmax(logits), logits.argmax())   # argmax keeps its axis, as in MAX
"""
"""A classifier written as MAX's documentation writes graphs; the demo runs exactly this text."""


def run_max_program(device: str = "cpu") -> tuple[list[np.ndarray], list[np.ndarray]]:
    """:data:`MAX_PROGRAM` built, compiled and run on seeded inputs: (latticecast's outputs, NumPy's)."""
    namespace: dict[str, Any] = {}
    exec(MAX_PROGRAM, namespace)
    rng = np.random.default_rng(0)
    x, w, b = (rng.standard_normal(s, dtype=np.float32) for s in ((4, 8), (8, 3), (3,)))
    outs = namespace["graph"].compile(device)(x, w, b)
    logits = np.maximum(x @ w + b, 0)
    e = np.exp(logits - logits.max(-1, keepdims=True))
    return outs, [e / e.sum(-1, keepdims=True), logits.argmax(-1)[:, None]]


WIDTH = 100
"""The demo reads well in a terminal of this many columns: every line it prints fits."""

NOTATION = """\
How to read this demo (the notation of JAX's type promotion design note, which latticecast's
tables and messages use throughout):
  i8 u64 f16 bf16 c64   int8, uint64, float16, bfloat16, complex64: a letter for the kind
                        (b bool, i signed, u unsigned, f float, c complex), then the bits
  i* f* c*              weakly typed: a Python int, float or complex (a literal such as the 2
                        below), whose type gives way to the other operand's where the rules allow
  a . b = r             a promotes with b to r: the type an op on a and b computes in
  policy                one system's promotion rules (jax, max, numpy, torch, array-api, ...:
                        latticecast policies lists them); implicit-cast applies one to a program
  diagnostics           MLIR's format, where: severity: message (a graph's ops are located at
                        the graph's name)"""
"""Printed once, at the top: every notation the demo uses."""


def _section(title: str) -> None:
    print(f"\n{'=' * 78}\n{title}\n{'=' * 78}")


def _say(text: str, indent: int = 4, hang: int = 6) -> None:
    """``text`` wrapped to :data:`WIDTH` columns, its first line indented by ``indent``, the rest by ``hang``."""
    print(textwrap.fill(text, WIDTH, initial_indent=" " * indent, subsequent_indent=" " * hang,
                        break_on_hyphens=False, break_long_words=False))


_BREAK = re.compile(r", | -> | : ")


def fit_ir(text: str, width: int = WIDTH) -> str:
    """MLIR text with each line longer than ``width`` broken after a ``,`` (or before a ``->`` or
    ``:``) outside quoted strings, the rest indented four more columns: still valid MLIR, which
    allows whitespace between any two tokens.

    Example:
        >>> print(fit_ir("func.func @f(%a: tensor<4xi16>, %b: tensor<4xf32>) -> tensor<4xf32>", 40))
        func.func @f(%a: tensor<4xi16>,
            %b: tensor<4xf32>) -> tensor<4xf32>
    """
    out = []
    for line in text.splitlines():
        indent = " " * (len(line) - len(line.lstrip()) + 4)
        while len(line) > width:
            cut = None
            for m in _BREAK.finditer(line):
                at = m.start() + (1 if m.group() == ", " else 0)
                if at > width:
                    break
                if line[:at].count('"') % 2 == 0 and at > len(indent):
                    cut = at
            if cut is None:
                break
            out.append(line[:cut].rstrip())
            line = indent + line[cut:].lstrip()
        out.append(line)
    return "\n".join(out)


def _values(array: np.ndarray) -> str:
    """An array's values, short: six significant digits for floats."""
    if array.dtype.kind == "f" or array.dtype.kind == "V":
        return np.array2string(array.astype(np.float64), separator=", ",
                               formatter={"float_kind": lambda v: f"{v:.6g}"})
    return np.array2string(array, separator=", ")


def _format(array: np.ndarray) -> str:
    return f"{np.array2string(array, separator=', ')}  ({array.dtype})"


def _run(policy: str, device: str) -> tuple[list[str], list[str]]:
    """(dtypes, values) of the program's outputs under ``policy``; ``error`` and the reason for each
    output the policy refuses."""
    refused: list[str] = []
    g = build_program(policy, refused=refused)
    outs = iter(g.compile(device)(*(v for _, v in INPUTS.values())))
    dtypes, values = [], []
    for label in OUTPUTS:
        why = next((r.split(": ", 1)[1] for r in refused if r.startswith(label + ":")), None)
        if why is not None:
            dtypes.append("error")
            values.append(textwrap.shorten(why.split(": ", 1)[-1], 40, placeholder=" ..."))
            continue
        out = next(outs)
        dtypes.append(str(out.dtype))
        values.append(_values(out))
    return dtypes, values


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="latticecast demo", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--policy", default="jax", help="the policy of the main walk-through (default: jax)")
    parser.add_argument("--vs", default="max", help="the policy shown side by side (default: max)")
    parser.add_argument("--device", default="cpu", help="where to run it (default: cpu)")
    args = parser.parse_args(argv)

    from .runtime import LatticecastRuntimeError, resolve_device

    try:
        resolve_device(args.device)
    except (LatticecastRuntimeError, TypeError) as e:
        print(f"latticecast demo: error: {' '.join(str(e).split())}", file=sys.stderr)
        return 2

    print(NOTATION)
    _walk_through(args.policy, args.device)
    _side_by_side(args.policy, args.vs, args.device)
    _max_program_section(args.device)
    _sharded_section(args.policy, args.device)
    return 0


def _walk_through(policy: str, device: str) -> None:
    """Sections 1 to 4: the program as written, as built, after implicit-cast, and run on ``device``."""
    _section(f"1. A mixed-dtype program, built with the MAX-style graph API (policy {policy})")
    print("""    with Graph("demo", input_types=[TensorType(DType.int16, [4]), TensorType(DType.float32, [4]),
                        TensorType(DType.int8, [4]), TensorType(DType.uint64, [4])]) as g:
        x, y, a, b = g.inputs
        one = g.scalar[DType.int16](1)
        g.output(x * one + y - 2, a + b)""")
    refused: list[str] = []
    g = build_program(policy, refused=refused)
    for line in refused:
        print()
        _say(f"refused under {policy}, left out of the program: {line}")
    kept = [label for label in OUTPUTS if not any(r.startswith(label + ":") for r in refused)]

    _section("2. StableHLO as built: binary ops mix element types; the literal 2 is weak")
    print(fit_ir(g.mlir(before_passes=True)))

    _section(f"3. After implicit-cast{{policy={policy}}}: converts inserted, legal StableHLO")
    print(fit_ir(g.mlir()))

    _section(f"4. Compiled with PJRT and run on {device}")
    model = g.compile(device)
    arrays = [v for _, v in INPUTS.values()]
    for name, (_, v) in INPUTS.items():
        print(f"    {name} = {_format(v)}")
    outs = model(*arrays)
    for label, out in zip(kept, outs):
        print(f"    {label:15s} = {_format(out)}")


def _side_by_side(policy: str, vs: str, device: str) -> None:
    """Section 5: the program's results under two policies, their explanations, and the lossy promotions."""
    from . import policy as get_policy

    _section(f"5. The same program under {policy} and {vs}, side by side")
    left, right = _run(policy, device), _run(vs, device)
    rows = [("", policy, vs)]
    for i, label in enumerate(OUTPUTS):
        for what, (lt, rt) in (("dtype", (left[0], right[0])), ("value", (left[1], right[1]))):
            rows.append((f"{label} [{what}]", lt[i], rt[i]))
    width = [max(len(r[k]) for r in rows) for k in range(3)]
    for r in rows:
        print("    " + "  ".join(c.ljust(w) for c, w in zip(r, width)).rstrip())
    pa, pb = get_policy(policy), get_policy(vs)
    print()
    for p in (pa, pb):
        _say(p.explain(DType.int8, DType.uint64).splitlines()[0])
    _say("array-api: " + _refusal())
    print()
    for line in fp8_lines(("jax", "numpy"), device):
        _say(line)
    _lossy_promotions(policy, vs)


def _lossy_promotions(*policies: str) -> None:
    """What ``diagnose-lossy`` reports for the program under each policy that accepts it."""
    print()
    _say("JAX, MAX, NumPy and PyTorch promote without a word when the result cannot hold the operand's "
         "values; implicit-cast can say so (diagnose-lossy=warning):")
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in policies:
            try:
                g2 = build_program(name, diagnose_lossy="warning")
                g2.mlir()
            except PromotionError:
                continue  # the program is illegal under this policy (shown above)
            for d in g2.diagnostics or ["no promotion in the program can lose magnitude"]:
                _say(f"under {name}: {d}")


def _max_program_section(device: str) -> None:
    """Section 6: MAX's program, with only its import changed, run and checked against NumPy."""
    _section("6. A program written for MAX, with only its import changed")
    print("\n".join(f"    {line}" if line else "" for line in MAX_PROGRAM.rstrip().splitlines()))
    (probs, labels), (want_probs, want_labels) = run_max_program(device)
    print(f"\n    probabilities {probs.dtype}{list(probs.shape)}, labels {labels.dtype}{list(labels.shape)}: "
          f"{labels.ravel().tolist()}")
    print(f"    against NumPy: labels {'equal' if np.array_equal(labels, want_labels) else 'DIFFER'}, "
          f"largest probability difference {np.abs(probs - want_probs).max():.1e}")


FP8_INPUTS = (np.array([1, 2, 300, -7], np.int16),
              np.array([0.5, 1.0, 2.0, 448.0], np.float32).astype(DType.float8_e4m3fn.np_dtype))


def fp8_lines(policies: Sequence[str], device: str = "cpu") -> list[str]:
    """One low-precision line per policy: ``int16 + float8_e4m3fn`` (JAX: float8_e4m3fn, through its
    f* node; NumPy: refused), run where it builds, and the lossy warning it earns (448 is the
    largest float8_e4m3fn)."""
    import warnings

    from .graph import Graph, TensorType

    lines, warned = [], []
    for name in dict.fromkeys(policies):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                with Graph("fp8", input_types=[TensorType(DType.int16, [4]), TensorType(DType.float8_e4m3fn, [4])],
                           policy=name, diagnose_lossy="warning") as g:
                    a, b = g.inputs
                    g.output(a + b)
                g.mlir()
            except PromotionError as e:
                from . import policy as get_policy

                why = get_policy(name).decide(DType.int16, DType.float8_e4m3fn).why_not.split(":")[0]
                fix = f"; cast both to {e.cast_to.name}" if e.cast_to is not None else ""
                lines.append(f"fp8: int16 + float8_e4m3fn under {name}: refused, {why}{fix}")
                continue
        (out,) = g.compile(device)(*FP8_INPUTS)
        lines.append(f"fp8: int16 + float8_e4m3fn under {name} = {out.dtype} "
                     f"{np.array2string(out.astype(np.float32), separator=', ')}")
        warned += [f"under {name}: {d}" for d in g.diagnostics]
    return lines + warned


SHARDED_SNIPPET = """    mesh = jax.make_mesh(({data}, {model}), ("data", "model"), axis_types=(AxisType.Auto,) * 2)
    layer_types = [TensorType(DType.bfloat16, [{b}, {k}], sharding=P("data", "model")),
                   TensorType(DType.int8, [{k}, 8], sharding=P("model", None)),
                   TensorType(DType.float32, [{k}, 8], sharding=P("model", None)),
                   TensorType(DType.float16, [{b}, 8], sharding=P("data", None))]
    with Graph("layer", input_types=layer_types, mesh=mesh) as g:
        x, w_q, scale, bias = g.inputs
        y = ops.shard(x @ (w_q * scale), P("data", None))   # bf16 @ (int8 * f32) -> f32
        g.output(ops.maximum(y + bias, 0), shardings=[P("data", None)])"""


def build_sharded_layer(policy: str, mesh: Mesh) -> Graph:
    """The mixed-precision layer of :data:`SHARDED_SNIPPET` over ``mesh`` (axes ``data`` and ``model``)."""
    from jax.sharding import PartitionSpec as P

    from . import ops
    from .graph import Graph, TensorType

    data, model = mesh.axis_sizes
    b, k = 2 * data, 16 * model
    with Graph("layer", input_types=[TensorType(DType.bfloat16, [b, k], sharding=P("data", "model")),
                         TensorType(DType.int8, [k, 8], sharding=P("model", None)),
                         TensorType(DType.float32, [k, 8], sharding=P("model", None)),
                         TensorType(DType.float16, [b, 8], sharding=P("data", None))],
               policy=policy, mesh=mesh) as g:
        x, w_q, scale, bias = g.inputs
        y = ops.shard(x @ (w_q * scale), P("data", None))
        g.output(ops.maximum(y + bias, 0), shardings=[P("data", None)])
    return g


def _sharded_section(policy: str, device: str) -> None:
    """Section 6: the layer on every device of the platform (a mesh of them), against ``jax.jit``."""
    import jax
    import jax.numpy as jnp
    import ml_dtypes
    from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

    from .runtime import Model, resolve_device
    from .runtime.partitioning import DEVICE_COUNT_FLAG

    platform = resolve_device(device).client.platform
    devices = jax.devices(platform)
    n = len(devices)
    if n < 2:
        _section(f"7. Sharded over several devices: skipped, {platform} has one device here")
        print(f"    On a laptop, make the CPU look like 8 devices and run it again:\n"
              f"        XLA_FLAGS={DEVICE_COUNT_FLAG}=8 latticecast demo")
        return
    shape = (n // 2, 2) if n % 2 == 0 else (n, 1)
    mesh = jax.make_mesh(shape, ("data", "model"), axis_types=(AxisType.Auto,) * 2, devices=devices)
    _section(f"7. A mixed-precision layer sharded over {n} {platform} devices (a {shape[0]}x{shape[1]} mesh)")
    print(SHARDED_SNIPPET.format(data=shape[0], model=shape[1], b=2 * shape[0], k=16 * shape[1]))
    g = build_sharded_layer(policy, mesh)
    print("\n    After implicit-cast: Shardy shardings, mhlo.num_partitions; converts keep their operand's layout\n")
    print(fit_ir(g.mlir()))
    model = g.compile()
    print()
    _say(repr(model))
    rng = np.random.default_rng(0)
    b, k = 2 * shape[0], 16 * shape[1]
    args = (rng.standard_normal((b, k)).astype(ml_dtypes.bfloat16), rng.integers(-127, 128, (k, 8)).astype(np.int8),
            (rng.random((k, 8)) / k).astype(np.float32), rng.standard_normal((b, 8)).astype(np.float16))
    (out,) = model(*args)
    sh = [NamedSharding(mesh, P(*s)) for s in (("data", "model"), ("model", None), ("model", None), ("data", None))]
    want = np.asarray(jax.jit(lambda x, w_q, scale, bias: jnp.maximum(x @ (w_q * scale) + bias, 0),
                              in_shardings=sh, out_shardings=NamedSharding(mesh, P("data", None)))(*args))
    assert isinstance(model, Model)  # static shapes: one compiled model
    hlo = model.executable.hlo_modules()[0].to_string()
    collectives = {c: hlo.count(f" {c}(") for c in ("all-reduce", "all-gather", "all-to-all", "collective-permute")}
    print(f"    per-device parameters in the compiled HLO: {', '.join(_parameters(hlo))}")
    why = " (the dot contracts over the sharded 'model' axis: its partial sums are added up)" \
        if collectives["all-reduce"] else ""
    _say(f"collectives XLA's partitioner inserted: "
         f"{', '.join(f'{n} {c}' for c, n in collectives.items() if n) or 'none'}{why}")
    _say(f"row 0 of the output: {np.array2string(out[0], precision=4, separator=', ', max_line_width=WIDTH - 30)}")
    print(f"    jax.jit with the same shardings, bit for bit: {out.tobytes() == want.tobytes()}")


def _parameters(hlo: str) -> list[str]:
    """The per-device shapes of the entry computation's parameters in compiled HLO text."""
    entry = hlo[hlo.index("ENTRY"):]
    header = entry[:entry.index("{")]
    return [p.split(": ")[1] for p in header[header.index("(") + 1:header.rindex(")")].split(", ") if ": " in p]


def _refusal() -> str:
    from . import policy
    try:
        policy("array-api").promote_types(DType.int8, DType.uint64)
    except PromotionError as e:
        return str(e)
    return "defined"  # pragma: no cover - the Array API leaves it undefined
