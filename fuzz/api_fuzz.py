"""A hypothesis-driven fuzzer for latticecast's Python API.

    python -m fuzz.api_fuzz --seed 1 --examples 1000 --out fuzz-api-findings

Four campaigns, each a hypothesis test that records findings instead of failing
(so one campaign reports every distinct problem it meets):

* ``promotion``: ``lc.promote_types``, ``lc.explain``, ``lc.result_type`` and
  ``lc.policy(p).promote_types`` on dtypes, weak types, dtype names, garbage (None,
  ints, bytes, NumPy and JAX dtypes, objects) and policy names (valid or not);
* ``graph``: random programs written as Python source, run line by line: graphs with
  random input dtypes and shapes, operators (reflected forms with Python scalars of
  extreme values, NumPy scalars and arrays on either side), ``lc.ops`` functions,
  reshape/transpose/broadcast/reductions with random (also invalid) axes, casts,
  a second graph, subgraphs called with ``ops.call`` (their bodies using the parent's symbolic
  dimensions), use after ``output``; then ``g.mlir()`` and ``g.compile()(*inputs)``
  with right and wrong inputs;
* ``threads``: a generated program built in 8 threads at once (the texts must agree
  with a sequential build); ``asyncio``: the program built by 4 tasks that interleave
  their ``with g:`` blocks;
* ``compile-threads``: a program compiled and run from 8 threads at once, in a fresh
  subprocess.

Oracles: only documented exceptions escape (``PromotionError``, ``LiteralRangeError``,
``DomainError``, ``GraphError``, ``PassFailure``, ``UnknownPolicyError``, ``UnknownDTypeError``, ``InputError``,
``CompileError``, ``DeviceNotFoundError``, and a ``TypeError``/``ValueError`` that a ``raise``
statement in latticecast raised with a message); no crash and no hang (the campaigns run in
a child process watched by the parent); and no silent wrong answer where it can be
checked: an operator's result dtype against ``lc.promote_types``, commutative operators
both ways round, compiled outputs against ``g.output_types``, ``result_type`` against
``promote_types``. Each finding keeps the shortest reproducer seen (a Python script),
after dropping the lines it does not need.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import linecache
import os
import re
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

__all__ = ["Finding", "run", "main", "run_campaigns"]

ROOT = Path(__file__).resolve().parent.parent
STATS: dict[str, int] = {}  # examples run per campaign (in this process)
DEADLINE: list[float] = []  # in the child: when the campaigns stop doing work (time.monotonic())


class _OutOfTime(Exception):
    """Raised inside a hypothesis test when ``--time-limit`` is up; ends the campaign."""


def _out_of_time() -> bool:
    if bool(DEADLINE) and time.monotonic() > DEADLINE[0]:
        raise _OutOfTime()
    return False


def _run_test(test: Callable[[], None]) -> None:
    """Run a campaign's hypothesis test. Once the deadline is up, whatever hypothesis makes of the
    examples that stopped early (the exception, or a complaint that they drew less data than
    before) only means that the campaign is over."""
    try:
        test()
    except BaseException:
        if DEADLINE and time.monotonic() > DEADLINE[0]:
            return
        raise
HEARTBEAT_TIMEOUT = 90.0  # a child that reports no progress for this long is hung

# --------------------------------------------------------------------------------------
# Findings and the exception oracle
# --------------------------------------------------------------------------------------


@dataclass
class Finding:
    oracle: str
    key: str
    detail: str
    reproducer: str
    campaign: str = ""
    hits: int = 1

    def summary(self) -> str:
        return f"[{self.oracle}] {self.key}  ({self.hits} hit(s), campaign {self.campaign})"


_DOCUMENTED_NAMES = ("PromotionError", "LiteralRangeError", "DomainError", "GraphError", "PassFailure",
                     "UnknownPolicyError", "UnknownDTypeError", "InputError", "CompileError", "DeviceNotFoundError")
_documented: tuple[type, ...] | None = None


def documented_errors() -> tuple[type, ...]:
    global _documented
    if _documented is None:
        import latticecast as lc
        found = []
        for name in _DOCUMENTED_NAMES:
            try:
                found.append(getattr(lc, name))
            except Exception:  # noqa: BLE001 - a name the package no longer has
                pass
        _documented = tuple(found)
    return _documented


def _is_ours(path: str) -> bool:
    return "latticecast" in path.replace("\\", "/").split("/site-packages/")[-1] and "/fuzz/" not in path


def _frames(exc: BaseException) -> list[traceback.FrameSummary]:
    return list(traceback.extract_tb(exc.__traceback__))


def _where(exc: BaseException) -> str:
    """The innermost latticecast frame (else the innermost frame), as file:function."""
    frames = _frames(exc)
    for fr in reversed(frames):
        if _is_ours(fr.filename):
            return f"{Path(fr.filename).name}:{fr.name}"
    return f"{Path(frames[-1].filename).name}:{frames[-1].name}" if frames else "?"


def _norm(msg: str) -> str:
    s = str(msg).split("\n")[0]
    s = re.sub(r"'[^']{0,80}'", "'Q'", s)
    s = re.sub(r"<[^<>]{0,80}>", "<Q>", s)
    s = re.sub(r"0x[0-9a-fA-F]+|-?\d+(\.\d+)?(e[+-]?\d+)?", "N", s)
    return s[:70]


def classify(exc: BaseException) -> tuple[str, str] | None:
    """``None`` for an exception the API may raise; else (oracle, key)."""
    if isinstance(exc, documented_errors()):
        return None
    name = type(exc).__name__
    frames = _frames(exc)
    innermost = frames[-1] if frames else None
    if innermost is not None and innermost.filename in ("<string>", "<repro>"):
        if isinstance(exc, TypeError):
            return None  # Python's own operator dispatch ("unsupported operand type(s)")
        if isinstance(exc, (NameError, SyntaxError, AssertionError)):
            return ("fuzzer-error", f"{name}: {_norm(exc)}")
    if isinstance(exc, (TypeError, ValueError)) and not isinstance(exc, (KeyError, IndexError)):
        if innermost is not None and _is_ours(innermost.filename):
            line = (innermost.line or linecache.getline(innermost.filename, innermost.lineno)).strip()
            if line.startswith("raise") and str(exc).strip():
                return None  # a deliberate TypeError/ValueError of latticecast, with a message
            return ("accidental-error", f"{name} in {_where(exc)}: {_norm(exc)}")
        return ("foreign-error", f"{name} from {_where(exc)}: {_norm(exc)}")
    return ("forbidden-exception", f"{name} in {_where(exc)}: {_norm(exc)}")


# --------------------------------------------------------------------------------------
# Source snippets the generators draw from
# --------------------------------------------------------------------------------------

DTYPE_NAMES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
               "bfloat16", "float32", "float64", "complex64", "complex128", "index", "address", "tensor_float32"]
COMMON_DTYPES = DTYPE_NAMES[:15]
POLICIES = ["jax", "jax-x32", "jax-strict", "jax-lax", "max", "array-api", "anvil", "numpy", "torch", "tensorflow"]
BAD_POLICIES = ["'jaxx'", "''", "None", "3", "'JAX'", "'max '", "b'jax'", "lc.policy('max')", "object()"]
INT_LITS = ["0", "1", "-1", "2", "3", "7", "100", "127", "128", "255", "256", "-128", "-129", "1000", "32767",
            "32768", "65535", "65536", "2**31 - 1", "2**31", "2**32", "2**53 + 1", "2**63 - 1", "2**63", "2**64 - 1",
            "2**64", "-2**63", "-2**63 - 1", "10**30", "-10**30"]
FLOAT_LITS = ["0.0", "-0.0", "0.5", "1.5", "-2.5", "65504.0", "65520.0", "1e38", "3.5e38", "1e308",
              "float('inf')", "float('-inf')", "float('nan')", "5e-324", "1e-40"]
OTHER_LITS = ["True", "False", "1j", "(1+2j)", "complex('inf')", "complex(1e300, 1)"]
NUMPY_SCALARS = ["np.int8(3)", "np.int8(-128)", "np.uint8(200)", "np.int16(300)", "np.int32(-7)", "np.int64(-1)",
                 "np.uint64(18446744073709551615)", "np.uint32(7)", "np.float16(1.5)", "np.float32(0.1)",
                 "np.float64(1e300)", "np.float64('nan')", "np.bool_(True)", "np.complex64(1j)",
                 "np.complex128(1+1j)", "ml_dtypes.bfloat16(1.5)", "np.longdouble(1.5)"]
ARRAYS = ["np.arange(4, dtype=np.int8)", "np.ones((2, 1), np.float32)", "np.array(3)",
          "np.array([1.5, 2.5, 3.5, 4.5])", "[1, 2, 3, 4]", "[[1.0], [2.0]]", "np.zeros((0,), np.int32)",
          "np.array([True, False, True, False])", "np.arange(4, dtype=np.uint64)", "np.full((4,), 300, np.int16)",
          "np.ones((2, 3), ml_dtypes.bfloat16)", "[1, 2.5]", "[[1, 2], [3]]"]
GARBAGE = ["None", "'x'", "b'1'", "object()", "jnp.ones(4)", "jnp.bfloat16(1)", "{}", "[]", "()", "print",
           "np.array(['a'])", "np.array([object()])", "slice(1)", "...", "float", "lc"]
DTYPE_ARGS = ([f"DType.{d}" for d in DTYPE_NAMES]
              + ["'int8'", "'float32'", "'bf16'", "'f32'", "'i8'", "'float'", "'int'", "'complex'", "'garbage'", "''",
                 "'ui8'", "'uint8 '", "'INT8'", "'weak int8'", "'i*'", "'f*'", "None", "np.int8", "np.dtype('float16')",
                 "jnp.bfloat16", "ml_dtypes.bfloat16", "3", "weak(DType.int8)", "weak(DType.float64)", "b'int8'",
                 "np.float128 if hasattr(np, 'float128') else np.longdouble", "object()", "DType", "[DType.int8]"])
AXES = ["None", "0", "1", "-1", "2", "-2", "3", "5", "-4", "(0, 1)", "(0, 0)", "[1]", "()", "(1, 0)", "'a'", "1.5",
        "True", "(-1, 0)", "2**40", "np.int64(0)", "(0, 1, 2)"]
SHAPES = ["(4,)", "(2, 2)", "(1, 4)", "(-1,)", "(4, -1)", "(-1, -1)", "()", "(0,)", "(5,)", "(2**40,)", "(2, -2)",
          "[4]", "(1, 1, 1, 4)", "(4, 1)", "(1,)", "(2, 3)", "(3, 2)", "4", "None", "(1.5,)", "('a',)",
          "(np.int64(4),)", "(True, 4)"]
SUBGRAPH_BODIES = ["x * 2", "x - x", "x // x", "x % x", "ops.cast(x, DType.float32)", "ops.broadcast_to(x, {other}.shape)",
                   "ops.rebind(x, {other}.shape)", "ops.broadcast_to(ops.sum(x, axis=0), {other}.shape)", "x + {other}",
                   "ops.reshape(x, [-1])"]
"""Bodies of the graph campaign's subgraphs (``x`` is the subgraph's input; ``{other}`` a value of the parent, whose
dimensions the subgraph has as parameters, and whose use in the body is an error)."""
BINARY_OPS = ["+", "-", "*", "/", "//", "%", "**", "@", "<", "<=", ">", ">=", "==", "!=", "&", "|", "^", "<<",
              ">>"]
UNARY_FUNCS = ["exp", "log", "sqrt", "rsqrt", "tanh", "sin", "cos", "floor", "ceil", "round", "sign", "negative",
               "abs", "invert", "bitwise_not"]
BINARY_FUNCS = ["add", "subtract", "multiply", "divide", "true_divide", "floor_divide", "mod", "remainder", "power",
                "matmul", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "bitwise_and",
                "bitwise_or", "bitwise_xor", "left_shift", "right_shift", "maximum", "minimum", "atan2"]
# Operators whose result dtype is the promotion of the operands' types.
JOIN_SYMBOLS = {"+", "-", "*", "&", "|", "^"}
JOIN_FUNCS = {"add", "subtract", "multiply", "maximum", "minimum", "bitwise_and", "bitwise_or", "bitwise_xor"}
COMMUTATIVE = {"+", "*", "&", "|", "^", "==", "!="}
COMPARISONS = {"<", "<=", ">", ">=", "==", "!="}
COMPARE_FUNCS = {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"}

PRELUDE = """\
import numpy as np
import ml_dtypes
import latticecast as lc
from latticecast import DType, TensorType, Graph, weak, ops
from latticecast.max import Graph as MaxGraph
"""


def _namespace() -> dict[str, Any]:
    ns: dict[str, Any] = {}
    exec(PRELUDE, ns)  # noqa: S102 - the fuzzer's own code
    return ns


class _LazyJnp:
    """``jnp`` for generated code, imported on first use (jax is slow to import)."""

    def __getattr__(self, name: str) -> Any:
        import jax.numpy as jnp
        return getattr(jnp, name)


# --------------------------------------------------------------------------------------
# Finding collection (in the child process)
# --------------------------------------------------------------------------------------


class Recorder:
    """Distinct findings by (oracle, key), keeping the shortest reproducer; appended to a
    JSON-lines file as they improve, so that the parent has them even if the child dies."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.findings: dict[tuple[str, str], Finding] = {}
        self.progress: Path | None = None

    def add(self, f: Finding) -> None:
        k = (f.oracle, f.key)
        old = self.findings.get(k)
        if old is not None:
            old.hits += 1
            if len(f.reproducer) >= len(old.reproducer):
                return
            f.hits = old.hits
        self.findings[k] = f
        if self.path is not None:
            with open(self.path, "a", encoding="utf-8") as fh:
                fh.write(json.dumps(f.__dict__) + "\n")

    def beat(self, what: str) -> None:
        """Record what is about to run (the reproducer if the process dies or hangs now)."""
        if self.progress is not None:
            tmp = self.progress.with_suffix(".tmp")
            tmp.write_text(what, encoding="utf-8")
            os.replace(tmp, self.progress)


# --------------------------------------------------------------------------------------
# Campaign 1: promotion functions
# --------------------------------------------------------------------------------------

PTYPE_ARGS = ([f"DType.{d}" for d in DTYPE_NAMES] + [f"weak(DType.{d})" for d in DTYPE_NAMES]
              + [f"'{d}'" for d in DTYPE_NAMES]
              + ["'i8'", "'f32'", "'weak int8'", "'i*'", "'f*'", "'c*'", "'u*'", "'int'", "'float'", "''", "'int9'",
                 "None", "0", "1.5", "b'int8'", "np.int8", "np.dtype('int8')", "np.dtype('float64')", "jnp.bfloat16",
                 "jnp.int8", "jnp.dtype('bfloat16')", "ml_dtypes.bfloat16", "object()", "weak(weak(DType.int8))",
                 "weak('int8')", "weak(None)", "DType", "[DType.int8]", "True", "np.float16(1)", "np.float64(1)",
                 "np.complex128(1j)", "np.complex64(1j)", "np.bool_(True)", "np.uint64(1)", "np.longdouble(1)",
                 "np.zeros((), np.int8)", "np.ones(3, np.uint8)", "np.ones(3, ml_dtypes.bfloat16)", "1j"])


def promotion_campaign(rec: Recorder, examples: int, seed: int) -> None:
    from hypothesis import HealthCheck, Phase, given, settings, strategies as st
    from hypothesis import seed as hseed

    ns = _namespace()
    ns["jnp"] = _LazyJnp()
    policy_args = [repr(p) for p in POLICIES] + BAD_POLICIES

    def ev(code: str) -> Any:
        return eval(code, ns)  # noqa: S307 - the fuzzer's own snippets

    def call(code: str) -> tuple[bool, Any]:
        rec.beat(_prelude_for(code) + code + "\n")
        try:
            return True, ev(code)
        except Exception as e:  # noqa: BLE001
            bad = classify(e)
            if bad is not None:
                rec.add(Finding(bad[0], bad[1], "".join(traceback.format_exception(e))[-3000:],
                                _prelude_for(code) + f"{code}\n", "promotion"))
            return False, e

    @settings(max_examples=examples, database=None, deadline=None, suppress_health_check=list(HealthCheck),
              phases=[Phase.generate], derandomize=False)
    @hseed(seed)
    @given(a=st.sampled_from(PTYPE_ARGS), b=st.sampled_from(PTYPE_ARGS), c=st.sampled_from(PTYPE_ARGS),
           policy=st.one_of(st.sampled_from([repr(p) for p in POLICIES]), st.sampled_from(policy_args)),
           which=st.sampled_from(["promote", "explain", "result2", "result3", "policy-obj", "ltr"]))
    def test(a: str, b: str, c: str, policy: str, which: str) -> None:
        if _out_of_time():
            return
        STATS["promotion"] = STATS.get("promotion", 0) + 1
        if which == "promote":
            ok, r1 = call(f"lc.promote_types({a}, {b}, policy={policy})")
            if ok:
                ok2, r2 = call(f"lc.promote_types({b}, {a}, policy={policy})")
                # TensorFlow converts the first of two Python scalars on its own and the second to it
                # (``1.0 * 2`` is float32, ``2 * 1.0`` an error): documented in policies/tensorflow.py
                two_scalars_in_order = "tensorflow" in policy and _shape_of(a) == _shape_of(b) == "weak"
                asymmetry = None
                if ok2 and r1 != r2:
                    asymmetry = (f"{_shape_of(a)} x {_shape_of(b)} under {policy}", f"{a} + {b} -> {r1}, {b} + {a} -> {r2}")
                elif not ok2 and isinstance(r2, documented_errors()) and "Unknown" not in type(r2).__name__ and \
                        not two_scalars_in_order:
                    asymmetry = (f"defined one way only under {policy}",
                                 f"{a} + {b} -> {r1}, {b} + {a} raises {type(r2).__name__}: {r2}")
                if asymmetry is not None:
                    rec.add(Finding("asymmetric-promotion", *asymmetry,
                                    _prelude_for(a, b, c, policy) + f"print(lc.promote_types({a}, {b}, policy={policy}))\n"
                                              f"print(lc.promote_types({b}, {a}, policy={policy}))\n", "promotion"))
                # result_type is the system's own result_type (np.result_type, jnp.result_type), which may
                # answer otherwise than its ops; folded left to right it is promote_types
                ok3, r3 = call(f"lc.result_type({a}, {b}, policy={policy}, left_to_right=True)")
                values = any(x.startswith(("np.", "True", "0", "1")) and not x.startswith("np.dtype") and
                             x not in ("np.int8",) for x in (a, b))  # promote_types reads a value as its dtype
                if ok3 and r3 != r1 and not values:
                    rec.add(Finding("inconsistent-api", f"result_type(left_to_right) != promote_types under {policy}",
                                    f"promote_types({a}, {b}) = {r1}, result_type = {r3}",
                                    _prelude_for(a, b, c, policy) + f"print(lc.promote_types({a}, {b}, policy={policy}))\n"
                                              f"print(lc.result_type({a}, {b}, policy={policy}, left_to_right=True))\n",
                                    "promotion"))
                ok4, r4 = call(f"lc.explain({a}, {b}, policy={policy})")
                if ok4 and not isinstance(r4, str):
                    rec.add(Finding("inconsistent-api", "explain returns a non-string", repr(r4)[:200],
                                    _prelude_for(a, b, c, policy) + f"print(repr(lc.explain({a}, {b}, policy={policy})))\n", "promotion"))
        elif which == "explain":
            call(f"lc.explain({a}, {b}, policy={policy})")
        elif which == "result2":
            call(f"lc.result_type({a}, {b}, policy={policy})")
        elif which == "result3":
            ok, r = call(f"lc.result_type({a}, {b}, {c}, policy={policy})")
            if ok and any(name in policy for name in ("'jax'", "'torch'", "'array-api'")):
                # these systems' result_type does not depend on the order of its operands
                okp, rp = call(f"lc.result_type({c}, {a}, {b}, policy={policy})")
                if okp and rp != r:
                    rec.add(Finding("inconsistent-api", f"result_type depends on the operands' order under {policy}",
                                    f"result_type({a}, {b}, {c}) = {r}, result_type({c}, {a}, {b}) = {rp}",
                                    _prelude_for(a, b, c, policy) + f"print(lc.result_type({a}, {b}, {c}, policy={policy}))\n"
                                              f"print(lc.result_type({c}, {a}, {b}, policy={policy}))\n", "promotion"))
            ok, r = call(f"lc.result_type({a}, {b}, {c}, policy={policy}, left_to_right=True)")
            values = any(x.startswith(("np.", "True", "0", "1")) and not x.startswith("np.dtype") and
                         x not in ("np.int8",) for x in (a, b, c))  # promote_types reads a value as its dtype
            if ok and not values:
                ok1, ab = call(f"lc.promote_types({a}, {b}, policy={policy})")
                if ok1:
                    ok2, abc = call(f"lc.promote_types(lc.promote_types({a}, {b}, policy={policy}), {c}, "
                                    f"policy={policy})")
                    if ok2 and abc != r:
                        rec.add(Finding("inconsistent-api", f"result_type of 3 (left_to_right) != left fold under {policy}",
                                        f"result_type({a}, {b}, {c}, left_to_right=True) = {r}, fold = {abc}",
                                        _prelude_for(a, b, c, policy) + f"print(lc.result_type({a}, {b}, {c}, policy={policy}, "
                                                  "left_to_right=True))\n"
                                                  f"print(lc.promote_types(lc.promote_types({a}, {b}, policy={policy}),"
                                                  f" {c}, policy={policy}))\n", "promotion"))
        elif which == "ltr":
            call(f"lc.result_type({a}, {b}, {c}, policy={policy}, left_to_right=True)")
        else:
            ok, r1 = call(f"lc.policy({policy}).promote_types({a}, {b})")
            if ok:
                ok2, r2 = call(f"lc.promote_types({a}, {b}, policy={policy})")
                if ok2 and r1 != r2:
                    rec.add(Finding("inconsistent-api", f"policy object != promote_types under {policy}",
                                    f"{r1} vs {r2}", _prelude_for(a, b, c, policy) + f"print(lc.policy({policy}).promote_types({a}, {b}))\n"
                                    f"print(lc.promote_types({a}, {b}, policy={policy}))\n", "promotion"))

    _run_test(test)


def _prelude_for(*codes: str) -> str:
    """The prelude, with ``import jax.numpy as jnp`` when the code uses it."""
    return PRELUDE + ("import jax.numpy as jnp\n" if any("jnp." in c for c in codes) else "")


def _shape_of(code: str) -> str:
    """A coarse class of a dtype argument, for keys."""
    if code.startswith("weak("):
        return "weak"
    if code.startswith("DType."):
        return code[6:]
    return "other"


# --------------------------------------------------------------------------------------
# Campaign 2: graph programs
# --------------------------------------------------------------------------------------


@dataclass
class Program:
    """Lines of Python that build (and maybe compile and run) a graph; ``body`` lines run
    inside ``with g:``, ``tail`` lines after it."""

    header: list[str] = field(default_factory=list)
    body: list[str] = field(default_factory=list)
    tail: list[str] = field(default_factory=list)

    def render(self, wrap_failed: set[int] | None = None) -> str:
        out = [PRELUDE.rstrip("\n"), "import jax.numpy as jnp" if any("jnp." in l for l in self.all()) else ""]
        out += self.header
        out.append("with g:")
        for line in self.body or ["pass"]:
            out.append("    " + line)
        out += self.tail
        return "\n".join(l for l in out if l != "") + "\n"

    def all(self) -> list[str]:
        return self.header + self.body + self.tail


class Runner:
    """Runs program lines in one namespace, keeping the program and checking exceptions."""

    def __init__(self, rec: Recorder, campaign: str) -> None:
        self.rec = rec
        self.campaign = campaign
        self.ns = _namespace()
        self.ns["jnp"] = _LazyJnp()
        self.prog = Program()
        self.section = "header"
        self.dead = False

    def _lines(self) -> list[str]:
        return getattr(self.prog, self.section)

    def exec(self, line: str, *, keep_failed: bool = True) -> tuple[bool, BaseException | None]:
        """Run ``line``; an allowed exception leaves it in the program wrapped in try/except."""
        lines = self._lines()
        lines.append(line)
        self.rec.beat(self.prog.render())
        try:
            exec(line, self.ns)  # noqa: S102 - generated from the fuzzer's own snippets
            return True, None
        except Exception as e:  # noqa: BLE001
            bad = classify(e)
            lines.pop()
            if bad is not None:
                lines.append(line)
                self.report(bad[0], bad[1], "".join(traceback.format_exception(e))[-3000:])
                lines.pop()
            if keep_failed:
                lines.append(f"try:\n        {line}\n    except Exception:\n        pass"
                             if self.section == "body" else f"try:\n    {line}\nexcept Exception:\n    pass")
            return False, e

    def report(self, oracle: str, key: str, detail: str, check: str | None = None) -> None:
        """Record a finding; ``check`` is a statement that fails (an ``assert``) where the problem
        shows, appended to the reproducer so that it demonstrates the problem by itself."""
        lines = self._lines()
        if check:
            lines.append(check)
        repro = self.prog.render()
        if check:
            lines.pop()
        repro = _shrink(repro, oracle, key)
        self.rec.add(Finding(oracle, key, detail, repro, self.campaign))

    def values(self) -> list[str]:
        import latticecast as lc
        value_type = getattr(lc, "Value", None)
        out = []
        for name, v in self.ns.items():
            if re.fullmatch(r"[xv]\d+|y0", name) and (value_type is None or isinstance(v, value_type)):
                out.append(name)
        return sorted(out, key=lambda n: (n[0], int(n[1:])))


def _operand_ptype(obj: Any, policy: Any = None) -> Any:
    """The promotion type of an operand as the README describes it, or None when unknown (a NumPy scalar
    as the graph's policy takes one: its own dtype, or the Python number it holds)."""
    import numpy as np
    import latticecast as lc
    value_type = getattr(lc, "Value", None)
    if value_type is not None and isinstance(obj, value_type):
        p = getattr(obj, "ptype", None)
        if p is not None:
            return p
        return lc.weak(obj.dtype) if obj.is_weak else obj.dtype
    if isinstance(obj, np.generic) and policy is not None:  # before int/float: np.float64 is a float
        try:
            return policy.numpy_values.scalar_type(obj)
        except Exception:  # noqa: BLE001 - a NumPy scalar the policy refuses
            return None
    if isinstance(obj, (np.generic, np.ndarray)):
        try:
            return lc.DType[np.dtype(obj.dtype).name]
        except Exception:  # noqa: BLE001
            return None
    if isinstance(obj, bool):
        return lc.weak(lc.DType.bool)  # README: Python scalars are weak
    if isinstance(obj, int):
        return lc.weak(lc.DType.int64)
    if isinstance(obj, float):
        return lc.weak(lc.DType.float64)
    if isinstance(obj, complex):
        return lc.weak(lc.DType.complex128)
    return None


def _check_binary(r: Runner, name: str, a: str, b: str, result_name: str, commutative_code: str | None) -> None:
    """Oracles on ``result_name = a <op> b``: a Value, of the promoted dtype (or bool)."""
    import latticecast as lc
    ns = r.ns
    res = ns.get(result_name)
    value_type = getattr(lc, "Value", None)
    left, right = ns.get("_a"), ns.get("_b")
    if name == "%" and isinstance(left, (str, bytes)):
        return  # printf-style formatting: Python hands the Value to str.__mod__ first, as it does a NumPy array
    if value_type is not None and not isinstance(res, value_type):
        r.report("wrong-result-kind", f"an operator with {type(left).__name__} on the left returns "
                 f"{type(res).__name__}", f"{a} {name} {b} -> {type(res).__name__}: {res!r}"[:400],
                 f"assert isinstance({result_name}, lc.Value), type({result_name})")
        return
    policy = getattr(getattr(res, "graph", None), "policy", None) or ns["g"].policy
    pa, pb = _operand_ptype(left, policy), _operand_ptype(right, policy)
    if pa is None or pb is None:
        return
    if getattr(policy, "name", "") == "torch" and any(
            not isinstance(o, value_type) or getattr(o, "rank", 1) == 0 for o in (left, right)):
        return  # PyTorch's dimension categories (0-d tensors, scalars) are not in promote_types
    if name in COMPARISONS or name in COMPARE_FUNCS:
        if res.dtype != lc.DType.bool:
            r.report("wrong-dtype", f"comparison {name} gives {res.dtype}", f"{a} {name} {b} -> {res.dtype}",
                     f"assert {result_name}.dtype == DType.bool, {result_name}.dtype")
        return
    if name not in JOIN_SYMBOLS and name not in JOIN_FUNCS:
        return
    try:
        expected = lc.promote_types(pa, pb, policy=policy)
    except Exception:  # noqa: BLE001 - the graph accepted what promote_types refuses
        r.report("inconsistent-api", f"graph {name} accepts what promote_types refuses ({_kind(left)}, "
                 f"{_kind(right)})", f"{a} {name} {b} -> {res.dtype}; promote_types({pa}, {pb}) raises")
        return
    exp_weak = isinstance(expected, lc.Weak)
    exp_dtype = getattr(expected, "dtype", expected) if exp_weak else expected
    got_weak = bool(getattr(res, "is_weak", False))
    if (not exp_weak and res.dtype != exp_dtype) or exp_weak != got_weak:
        r.report("wrong-dtype", f"{_kind(left)} (op) {_kind(right)}",
                 f"{a} {name} {b} under {getattr(policy, 'name', policy)}: operands {pa} and {pb}; got "
                 f"{'weak ' if got_weak else ''}{res.dtype}, "
                 f"lc.promote_types says {expected}",
                 f"assert ({result_name}.dtype, {result_name}.is_weak) == ({_code(exp_dtype)}, {exp_weak}), "
                 f"({result_name}.dtype, {result_name}.is_weak)  # lc.promote_types: {expected}")


def _describe(v: Any) -> str:
    if hasattr(v, "is_weak"):
        return ("weak " if v.is_weak else "") + str(v.dtype)
    return f"{type(v).__name__} of {getattr(v, 'dtype', '?')}"


def _kind(obj: Any) -> str:
    import numpy as np
    import latticecast as lc
    if isinstance(obj, getattr(lc, "Value", ())):
        return "weak Value" if obj.is_weak else "Value"
    if isinstance(obj, np.ndarray):
        return "ndarray"
    if isinstance(obj, np.generic):
        return "numpy scalar"
    return type(obj).__name__


def _shrink(repro: str, oracle: str, key: str, budget: int = 30) -> str:
    """Drop lines of a reproducer (from the end, one at a time) while it still shows (oracle, key)
    when run in this process: cheap, because the programs are small and build in milliseconds."""
    if os.environ.get("LATTICECAST_FUZZ_NO_SHRINK") or "g.compile()" in repro:
        return repro
    lines = repro.split("\n")
    # candidate lines: in the with-block, not the prelude, the graph, the inputs or the check itself
    n_prelude = PRELUDE.count("\n")
    tries = 0
    i = len(lines) - 3
    while i > n_prelude and tries < budget:
        line = lines[i]
        if line.startswith("    ") and not line.startswith("        ") and "g.output" not in line and line.strip() \
                and not line.strip().startswith(("except", "pass")):
            block_end = i + 1
            if line.strip() == "try:":
                block_end = i + 4
            cand = lines[:i] + lines[block_end:]
            tries += 1
            if _reproduces("\n".join(cand), oracle, key):
                lines = cand
        i -= 1
    return "\n".join(lines)


def _reproduces(code: str, oracle: str, key: str) -> bool:
    """Whether ``code`` (a rendered program whose last statement shows the finding) still does.
    Only exception findings are re-checked this way; others are kept as they are."""
    ns = _namespace()
    ns["jnp"] = _LazyJnp()
    try:
        exec(compile(code, "<repro>", "exec"), ns)  # noqa: S102
    except AssertionError as e:
        frames = _frames(e)
        return oracle not in _EXCEPTION_ORACLES and bool(frames) and frames[-1].filename == "<repro>"
    except Exception as e:  # noqa: BLE001
        bad = classify(e)
        return bad is not None and bad == (oracle, key)
    return False


_EXCEPTION_ORACLES = ("forbidden-exception", "accidental-error", "foreign-error")


def _code(dtype: Any) -> str:
    name = getattr(dtype, "name", None)
    return f"DType.{name}" if name else repr(dtype)


def _literal(data: Any, st: Any, *, with_garbage: bool = True) -> str:
    pools = [INT_LITS, FLOAT_LITS, OTHER_LITS, NUMPY_SCALARS, ARRAYS] + ([GARBAGE] if with_garbage else [])
    weights = [5, 4, 2, 4, 3, 1][:len(pools)]
    pool = data.draw(st.sampled_from([p for p, w in zip(pools, weights) for _ in range(w)]))
    return data.draw(st.sampled_from(pool))


def build_program(data: Any, rec: Recorder, campaign: str = "graph", *, compile_p: float = 0.25,
                  max_steps: int = 12) -> Runner:
    """Draw and run a program step by step (each step sees the values the earlier ones made)."""
    from hypothesis import strategies as st
    r = Runner(rec, campaign)
    policy = data.draw(st.sampled_from([repr(p) for p in POLICIES + ["jax"] * 4 + ["numpy", "max"]]
                                       + BAD_POLICIES[:2] + ["lc.policy('numpy')"]))
    n_in = data.draw(st.integers(0, 3))
    dims = st.sampled_from(["()", "(4,)", "(4,)", "(2, 3)", "(3, 1)", "(1, 4)", "(0,)", "(2, 1, 4)", "('n',)",
                            "(2, 'n')"])
    ins = []
    shared = data.draw(dims)
    for i in range(n_in):
        d = data.draw(st.sampled_from(COMMON_DTYPES * 3 + DTYPE_NAMES[15:] + ["'int8'", "'f32'", "'nope'"]))
        dt = d if d.startswith("'") else f"DType.{d}"
        shape = shared if data.draw(st.booleans()) else data.draw(dims)
        if data.draw(st.integers(0, 30)) == 0:
            shape = data.draw(st.sampled_from(["(-1,)", "(2**40,)", "(1.5,)", "None", "'4'", "(4, 'a')"]))
        ins.append(f"TensorType({dt}, {shape})")
    extra = ""
    if data.draw(st.integers(0, 12)) == 0:
        extra = data.draw(st.sampled_from([", diagnose_lossy='warning'", ", diagnose_lossy='error'",
                                           ", diagnose_lossy='loud'", ", input_names=['a']"]))
    graph_class = "MaxGraph" if data.draw(st.integers(0, 5)) == 0 else "Graph"  # MAX's: builds what MAX builds
    ok, _ = r.exec(f"g = {graph_class}('fuzz', input_types=[{', '.join(ins)}], policy={policy}{extra})",
                   keep_failed=False)
    if not ok:
        r.dead = True
        return r
    if n_in:
        r.exec(f"{', '.join(f'x{i}' for i in range(n_in))}, = g.inputs")
    r.section = "body"
    r.exec("g.__enter__()", keep_failed=False)
    r.prog.body.pop()  # rendered as `with g:`
    n = 0
    steps = data.draw(st.integers(1, max_steps))
    for _ in range(steps):
        vals = r.values()
        kind = data.draw(st.sampled_from(["binop"] * 8 + ["rbinop"] * 4 + ["func2"] * 3 + ["func1"] * 3 +
                                         ["scalar"] * 2 + ["shape"] * 3 + ["reduce"] * 2 + ["cast"] * 2 +
                                         ["where", "clamp", "constant", "second-graph", "subgraph"]))
        if not vals and kind not in ("scalar", "constant"):
            kind = data.draw(st.sampled_from(["scalar", "constant"]))
        name = f"v{n}"
        n += 1
        check: tuple[str, str, str] | None = None
        if kind in ("binop", "rbinop"):
            op = data.draw(st.sampled_from(BINARY_OPS))
            a = data.draw(st.sampled_from(vals))
            b = data.draw(st.sampled_from(vals)) if data.draw(st.booleans()) else _literal(data, st)
            if kind == "rbinop":
                a, b = b, a
            line = f"_a, _b = {a}, {b}; {name} = _a {op} _b"
            check = (op, a, b)
        elif kind == "func2":
            fn = data.draw(st.sampled_from(BINARY_FUNCS))
            a = data.draw(st.sampled_from(vals))
            b = data.draw(st.sampled_from(vals)) if data.draw(st.booleans()) else _literal(data, st)
            if data.draw(st.booleans()):
                a, b = b, a
            line = f"_a, _b = {a}, {b}; {name} = ops.{fn}(_a, _b)"
            check = (fn, a, b)
        elif kind == "func1":
            fn = data.draw(st.sampled_from(UNARY_FUNCS + ["-", "~", "abs"]))
            a = data.draw(st.sampled_from(vals)) if data.draw(st.integers(0, 9)) else _literal(data, st)
            line = {"-": f"{name} = -{a}", "~": f"{name} = ~{a}", "abs": f"{name} = abs({a})"}.get(
                fn, f"{name} = ops.{fn}({a})")
        elif kind == "scalar":
            dt = data.draw(st.sampled_from(DTYPE_ARGS))
            lit = _literal(data, st)
            line = data.draw(st.sampled_from([f"{name} = g.scalar[{dt}]({lit})", f"{name} = g.scalar({lit}, {dt})",
                                              f"{name} = g.scalar({lit})"]))
        elif kind == "constant":
            lit = _literal(data, st)
            dt = data.draw(st.sampled_from(DTYPE_ARGS + ["None"] * 5))
            line = data.draw(st.sampled_from([f"{name} = g.constant({lit}, {dt})", f"{name} = ops.constant({lit}, {dt})"]))
        elif kind == "shape":
            a = data.draw(st.sampled_from(vals))
            shape = data.draw(st.sampled_from(SHAPES))
            line = data.draw(st.sampled_from([
                f"{name} = {a}.reshape({shape})", f"{name} = ops.reshape({a}, {shape})",
                f"{name} = ops.broadcast_to({a}, {shape})", f"{name} = {a}.T",
                f"{name} = ops.transpose({a}, {data.draw(st.sampled_from(AXES))})",
                f"{name} = {a}.transpose({data.draw(st.sampled_from(['', '0', '1, 0', '0, 0', '2, 0, 1', '-1, 0']))})",
                f"{name} = {a} @ {data.draw(st.sampled_from(vals))}",
                f"{name} = ops.matmul({a}, {data.draw(st.sampled_from(vals))})"]))
        elif kind == "reduce":
            a = data.draw(st.sampled_from(vals))
            fn = data.draw(st.sampled_from(["sum", "max", "min", "mean"]))
            axis = data.draw(st.sampled_from(AXES))
            keep = data.draw(st.sampled_from(["", ", keepdims=True", ", keepdims=False"]))
            line = data.draw(st.sampled_from([f"{name} = {a}.{fn}({axis}{keep})",
                                              f"{name} = ops.{fn}({a}, {axis}{keep})"]))
        elif kind == "cast":
            a = data.draw(st.sampled_from(vals))
            dt = data.draw(st.sampled_from(DTYPE_ARGS))
            line = data.draw(st.sampled_from([f"{name} = {a}.cast({dt})", f"{name} = ops.cast({a}, {dt})",
                                              f"{name} = {a}.astype({dt})"]))
        elif kind == "subgraph":  # a function of g's module called on a value; its body may use g's dimensions
            a, other = data.draw(st.sampled_from(vals)), data.draw(st.sampled_from(vals))
            body = data.draw(st.sampled_from(SUBGRAPH_BODIES)).format(other=other)
            t = data.draw(st.sampled_from([f"{a}.type", f"TensorType({a}.dtype, ('k',) + tuple({a}.shape)[1:])",
                                           "TensorType(DType.float32, ('n',))"]))
            arg = a if data.draw(st.integers(0, 3)) == 0 else f"ops.rebind({a}, s{n}.input_types[0].shape)"
            line = (f"s{n} = g.add_subgraph('s{n}', forward=lambda x: {body}, input_types=[{t}]); "
                    f"{name}, = ops.call(s{n}, {arg})")
        elif kind in ("where", "clamp"):
            args = [data.draw(st.sampled_from(vals)) if data.draw(st.integers(0, 3)) else _literal(data, st)
                    for _ in range(3)]
            fn = kind if kind == "clamp" else data.draw(st.sampled_from(["where", "select"]))
            line = f"{name} = ops.{fn}({', '.join(args)})"
        else:  # a second graph: its values must not mix with g's
            if "y0" in r.ns:
                a = data.draw(st.sampled_from(vals))
                line = f"{name} = {a} + y0"
            else:
                line = "g2 = Graph('other', input_types=[TensorType(DType.float32, (4,))]); y0, = g2.inputs"
        ok, exc = r.exec(line)
        if ok and check is not None and name in r.ns:
            op, a, b = check
            _check_binary(r, op, a, b, name, None)
            if ok and op in COMMUTATIVE and data.draw(st.integers(0, 2)) == 0:
                swapped = f"{name}s"
                ok2, _ = r.exec(f"_a, _b = {b}, {a}; {swapped} = _a {op} _b")
                if ok2:
                    x, y = r.ns[name], r.ns[swapped]
                    if getattr(x, "dtype", None) != getattr(y, "dtype", None) or \
                            getattr(x, "is_weak", None) != getattr(y, "is_weak", None):
                        r.report("asymmetric-operator",
                                 f"{_kind(r.ns[a] if a in r.ns else eval(a, r.ns))} vs "
                                 f"{_kind(r.ns[b] if b in r.ns else eval(b, r.ns))}",
                                 f"{a} {op} {b} -> {_describe(x)}, {b} {op} {a} -> {_describe(y)}")
    vals = r.values()
    g_vals = [v for v in vals if v != "y0"]
    if not g_vals:
        return r
    outs = [data.draw(st.sampled_from(g_vals)) for _ in range(data.draw(st.integers(1, 3)))]
    if data.draw(st.integers(0, 10)) == 0:
        outs.append(_literal(data, st, with_garbage=False))
    ok, _ = r.exec(f"g.output({', '.join(outs)})")
    r.section = "tail"
    if not ok:
        return r
    # after output: the graph is closed
    if data.draw(st.integers(0, 8)) == 0:
        r.exec(f"_late = {outs[0]} + 1")
    ok, _ = r.exec("_text = g.mlir()")
    r.exec("_before = g.mlir(before_passes=True)")
    if ok:
        _check_outputs_declared(r, outs)
    if ok and data.draw(st.integers(0, 2)) == 0:
        check_lift(r, data)
    if data.draw(st.floats(0, 1)) < compile_p and ok:
        run_model(r, data)
    return r


def check_lift(r: Runner, data: Any) -> None:
    """The law on the program the pass just wrote (``P`` wrote ``M``): ``lc.lift(M, P)`` legalised again
    under ``P`` prints ``M``, and so does ``lc.retarget(M, from_=P, to=P)``; ``lc.retarget`` to another
    policy either legalises the program (which then compiles, and sometimes runs against the original)
    or names what the target refuses."""
    from hypothesis import strategies as st
    policy = r.ns["g"].policy.name
    ok, _ = r.exec("_lifted = lc.lift(_text, g.policy)")
    if not ok:
        return
    ok, _ = r.exec(f"_again = str(lc.run_pipeline(str(_lifted), 'implicit-cast{{policy={policy}}}'))")
    if ok and r.ns["_again"] != r.ns["_text"]:
        r.report("lift-law", f"implicit-cast(lift(M)) differs from M under {policy}",
                 _first_diff(r.ns["_text"], r.ns["_again"]), check="assert _again == _text")
    ok, _ = r.exec("_same = lc.retarget(_text, from_=g.policy, to=g.policy)")
    if ok and (r.ns["_same"].errors or str(r.ns["_same"].module) != r.ns["_text"]):
        r.report("lift-law", f"retarget to its own policy {policy} changes the program",
                 str(r.ns["_same"].errors)[:500] or _first_diff(r.ns["_text"], str(r.ns["_same"].module)))
    other = data.draw(st.sampled_from(POLICIES))
    ok, _ = r.exec(f"_rt = lc.retarget(_text, from_=g.policy, to={other!r})")
    if not ok or r.ns["_rt"].errors:
        return
    ok, _ = r.exec("_rt_model = lc.compile(_rt.module)")
    if ok and data.draw(st.integers(0, 3)) == 0:
        types = r.ns["g"].input_types
        if all(isinstance(d, int) for t in types for d in t.shape):
            r.exec("_rt_run = _rt.run()")  # inputs drawn from the seed
        else:  # a symbolic dimension: no inputs can be drawn, so the arrays are given (each name one size)
            sizes: dict[str, int] = {}
            arrays = ", ".join(
                f"np.zeros({tuple(int(d) if isinstance(d, int) else sizes.setdefault(str(d), 2) for d in t.shape)!r}, "
                f"{_np_dtype_name(t)})" for t in types)
            r.exec(f"_rt_run = _rt.run([{arrays}])")


def _check_outputs_declared(r: Runner, outs: list[str]) -> None:
    import latticecast as lc
    try:
        types = r.ns["g"].output_types
    except Exception:  # noqa: BLE001
        return
    value_type = getattr(lc, "Value", None)
    for i, (code, t) in enumerate(zip(outs, types)):
        v = r.ns.get(code)
        if value_type is not None and isinstance(v, value_type) and v.dtype != t.dtype:
            r.report("wrong-dtype", "output type differs from the value's dtype",
                     f"output {i}: value {v.dtype}, output_types {t.dtype}")


def _input_array_code(t: Any, data: Any, st: Any, sizes: dict[str, int]) -> str:
    """Code for an input of TensorType ``t`` (usually right; sometimes of a wrong dtype or shape); a
    symbolic dimension gets one size per name across the inputs (``sizes``)."""
    shape = tuple(int(d) if isinstance(d, int) else sizes.setdefault(str(d), data.draw(st.integers(0, 5)))
                  for d in t.shape)
    n = 1
    for d in shape:
        n *= max(d, 0)
    if n > 1 << 20:  # a type the graph accepted but no test machine can fill
        return "np.ones((4,), np.float32)"
    np_name = _np_dtype_name(t)
    choice = data.draw(st.integers(0, 12))
    if choice == 0:
        return data.draw(st.sampled_from(["None", "'x'", "[1, 2]", "3", "3.5", "True", "jnp.ones(4)",
                                          "np.ones((4,), np.float64)", "np.ones((7,), np.int8)",
                                          "np.zeros((2, 2), np.int32)", "2**70", "np.array([object()])"]))
    if choice == 1:
        other = data.draw(st.sampled_from(["int8", "float64", "uint64", "bool", "complex64", "float16", "int64"]))
        return f"np.ones({shape!r}, np.{other})"
    if choice == 2:
        return f"np.ones({shape + (2,)!r}, {np_name})"
    if choice == 3 and not shape:
        return data.draw(st.sampled_from(["1", "300", "-1", "1.5", "True", "2**64", "float('nan')", "1j"]))
    fill = data.draw(st.sampled_from(["np.ones", "np.zeros"]))
    return f"{fill}({shape!r}, {np_name})"


def _np_dtype_name(t: Any) -> str:
    try:
        name = t.np_dtype.name
    except Exception:  # noqa: BLE001
        name = {"bfloat16": "bfloat16"}.get(t.dtype.name, t.dtype.name)
    if name == "bfloat16":
        return "ml_dtypes.bfloat16"
    return f"np.{name}" if name != "bool" else "np.bool_"


def run_model(r: Runner, data: Any) -> None:
    from hypothesis import strategies as st
    g = r.ns["g"]
    ok, _ = r.exec("m = g.compile()")
    if not ok:
        return
    sizes: dict[str, int] = {}
    args = [_input_array_code(t, data, st, sizes) for t in g.input_types]
    if data.draw(st.integers(0, 10)) == 0:
        args = args[:-1] if args and data.draw(st.booleans()) else args + ["np.ones(4)"]
    ok, _ = r.exec(f"_outs = m({', '.join(args)})")
    if not ok:
        return
    outs = r.ns["_outs"]
    try:
        expected = g.output_types
    except Exception:  # noqa: BLE001
        return
    if not isinstance(outs, list) or len(outs) != len(expected):
        r.report("output-mismatch", "wrong number of outputs", f"{len(outs)} outputs for {len(expected)}")
        return
    for i, (arr, t) in enumerate(zip(outs, expected)):
        try:
            want = t.np_dtype
        except Exception:  # noqa: BLE001
            continue
        # a symbolic dimension has the size drawn for its name; a name no input has (rebind named it) has the size
        # it first has in an output, in every output
        declared = tuple(d if isinstance(d, int) else
                         sizes.setdefault(str(d), arr.shape[axis] if axis < arr.ndim else -1)
                         for axis, d in enumerate(t.shape))
        if arr.dtype != want or tuple(arr.shape) != declared:
            r.report("output-mismatch", f"compiled output {arr.dtype} for declared {t.dtype}",
                     f"output {i}: {arr.dtype}{tuple(arr.shape)} vs declared {t}")


def graph_campaign(rec: Recorder, examples: int, seed: int, compile_p: float = 0.25) -> None:
    from hypothesis import HealthCheck, Phase, given, settings, strategies as st
    from hypothesis import seed as hseed

    @settings(max_examples=examples, database=None, deadline=None, suppress_health_check=list(HealthCheck),
              phases=[Phase.generate])
    @hseed(seed)
    @given(st.data())
    def test(data: Any) -> None:
        if _out_of_time():
            return
        STATS["graph"] = STATS.get("graph", 0) + 1
        r = build_program(data, rec, compile_p=compile_p)
        _reset_graph_stack(r)

    _run_test(test)


def _reset_graph_stack(r: Runner) -> None:
    g = r.ns.get("g")
    if g is not None:
        try:
            g.__exit__(None, None, None)
        except Exception:  # noqa: BLE001
            pass


# --------------------------------------------------------------------------------------
# Campaign 3: threads and asyncio
# --------------------------------------------------------------------------------------


def _replay(prog: Program, ns: dict[str, Any] | None = None) -> tuple[str | None, BaseException | None]:
    """Run a recorded program (without its compile lines); returns g.mlir() or the exception."""
    ns = ns if ns is not None else _namespace()
    ns["jnp"] = _LazyJnp()
    lines = [l for l in prog.header + ["g.__enter__()"] + prog.body + ["g.__exit__(None, None, None)"]
             + prog.tail if not l.startswith(("m = ", "_outs", "try:\n    m =", "try:\n    _outs"))]
    try:
        for line in lines:
            exec(line.replace("\n        ", "\n    ").replace("\n    except", "\nexcept")
                 if line.startswith("try:\n        ") else line, ns)
        g = ns.get("g")
        return (g.mlir() if g is not None and g.closed else None), None
    except Exception as e:  # noqa: BLE001
        return None, e
    finally:  # as `with g:` would: never leave the graph current
        g = ns.get("g")
        if g is not None:
            try:
                g.__exit__(None, None, None)
            except Exception:  # noqa: BLE001
                pass


def threads_campaign(rec: Recorder, examples: int, seed: int, n_threads: int = 8) -> None:
    from hypothesis import HealthCheck, Phase, given, settings, strategies as st
    from hypothesis import seed as hseed

    quiet = Recorder(None)  # the graph campaign reports single-threaded problems

    @settings(max_examples=examples, database=None, deadline=None, suppress_health_check=list(HealthCheck),
              phases=[Phase.generate])
    @hseed(seed + 7)
    @given(st.data())
    def test(data: Any) -> None:
        if _out_of_time():
            return
        STATS["threads"] = STATS.get("threads", 0) + 1
        r = build_program(data, quiet, "threads", compile_p=0.0, max_steps=8)
        _reset_graph_stack(r)
        if r.dead:
            return
        reference, ref_exc = _replay(r.prog)
        if ref_exc is not None or reference is None:
            return
        results: list[tuple[str | None, BaseException | None]] = [(None, None)] * n_threads
        barrier = threading.Barrier(n_threads)

        def work(i: int) -> None:
            try:
                barrier.wait(timeout=30)
            except threading.BrokenBarrierError:
                pass
            results[i] = _replay(r.prog)

        script = _threads_script(r.prog, n_threads)
        rec.beat(script)
        ts = [threading.Thread(target=work, args=(i,)) for i in range(n_threads)]
        for t in ts:
            t.start()
        for t in ts:
            t.join(120)
        for text, exc in results:
            if exc is not None:
                bad = classify(exc) or ("thread-exception", f"{type(exc).__name__}: {_norm(exc)}")
                rec.add(Finding("thread-" + bad[0], bad[1], "".join(traceback.format_exception(exc))[-3000:],
                                script, "threads"))
                break
            if text != reference:
                rec.add(Finding("thread-mismatch", "a graph built in a thread prints differently",
                                _first_diff(reference, text or ""), script, "threads"))
                break
        if data.draw(st.integers(0, 1)) == 0:
            asyncio_check(r.prog, reference, rec)

    _run_test(test)


def _first_diff(a: str, b: str) -> str:
    la, lb = a.splitlines(), b.splitlines()
    for i, (x, y) in enumerate(zip(la, lb)):
        if x != y:
            return f"line {i + 1}: expected {x!r}, got {y!r}"
    return f"lengths {len(la)} vs {len(lb)}"


def _threads_script(prog: Program, n: int) -> str:
    body = textwrap.indent(prog.render(), "    ")
    return (f"import threading\n\ndef build():\n{body}    return g.mlir()\n\n"
            f"ref = build()\nresults = [None] * {n}\n"
            f"def work(i):\n    results[i] = build()\n"
            f"ts = [threading.Thread(target=work, args=(i,)) for i in range({n})]\n"
            f"[t.start() for t in ts]; [t.join() for t in ts]\n"
            f"print(all(r == ref for r in results))\n")


def _async_script(prog: Program, n: int) -> str:
    lines = []
    for line in prog.header:
        lines.append("    " + line.replace("\n", "\n    "))
    lines.append("    with g:")
    for line in prog.body:
        lines.append("        " + line.replace("\n    ", "\n        ").replace("\n        except", "\n        except"))
        lines.append("        await asyncio.sleep(0)")
    return ("import asyncio\n" + PRELUDE + "\nasync def build():\n" + "\n".join(lines)
            + "\n    return g.mlir()\n\n"
            f"async def main():\n    return await asyncio.gather(*(build() for _ in range({n})))\n\n"
            "texts = asyncio.run(main())\nprint(len(set(texts)) == 1)\n"
            "try:\n    print('still current after the tasks:', Graph.current())\nexcept Exception as e:\n"
            "    print('no current graph:', type(e).__name__)\n")


def _clear_current_graphs() -> None:
    import latticecast as lc
    for _ in range(1000):
        try:
            lc.Graph.current().__exit__(None, None, None)
        except Exception:  # noqa: BLE001 - nothing current
            return


def asyncio_check(prog: Program, reference: str, rec: Recorder, n_tasks: int = 4) -> None:
    """The program built by ``n_tasks`` asyncio tasks at once, yielding between lines: each must
    print like the sequential build, and no graph may stay current afterwards."""
    import latticecast as lc

    script = _async_script(prog, n_tasks)
    rec.beat(script)
    _clear_current_graphs()  # whatever an earlier example left is not this check's business

    async def build() -> str | None:
        ns = _namespace()
        ns["jnp"] = _LazyJnp()
        for line in prog.header + ["g.__enter__()"]:
            exec(line, ns)
        try:
            for line in prog.body:
                exec(line.replace("\n        ", "\n    ").replace("\n    except", "\nexcept")
                     if line.startswith("try:\n        ") else line, ns)
                await asyncio.sleep(0)
        finally:  # as `with g:` would
            ns["g"].__exit__(None, None, None)
        for line in prog.tail:
            if line.startswith(("m = ", "_outs", "try:\n    m =", "try:\n    _outs")):
                continue
            exec(line, ns)
        return ns["g"].mlir()

    async def main() -> list:
        return await asyncio.gather(*(build() for _ in range(n_tasks)), return_exceptions=True)

    results = asyncio.run(main())
    for res in results:
        if isinstance(res, BaseException):
            bad = classify(res) or ("exception", f"{type(res).__name__} in {_where(res)}: {_norm(res)}")
            rec.add(Finding("asyncio-" + bad[0], bad[1], "".join(traceback.format_exception(res))[-3000:], script,
                            "asyncio"))
            break
        if res != reference:
            rec.add(Finding("asyncio-mismatch", "interleaved tasks build different graphs",
                            _first_diff(reference, res or ""), script, "asyncio"))
            break
    try:
        leaked = lc.Graph.current()
    except Exception:  # noqa: BLE001 - nothing current: right
        leaked = None
    if leaked is not None:
        rec.add(Finding("asyncio-leak", "a graph stays current after every with-block has exited",
                        f"Graph.current() is {leaked!r}", script, "asyncio"))
        # clean the thread's stack so that later examples are not affected
        for _ in range(1000):
            try:
                lc.Graph.current().__exit__(None, None, None)
                lc.Graph.current()
            except Exception:  # noqa: BLE001
                break


# --------------------------------------------------------------------------------------
# Campaign 4: compile and run from 8 threads, in a fresh subprocess
# --------------------------------------------------------------------------------------

COMPILE_THREADS_SCRIPT = PRELUDE + """\
import threading, sys
{build}
def inputs():
    return [np.ones(tuple(t.shape), t.np_dtype) for t in g.input_types]
ref = g.compile()(*inputs())
results = [None] * 8
errors = []
barrier = threading.Barrier(8)
def work(i):
    try:
        barrier.wait()
        m = g.compile()
        results[i] = m(*inputs())
    except Exception as e:
        errors.append(repr(e))
ts = [threading.Thread(target=work, args=(i,)) for i in range(8)]
[t.start() for t in ts]; [t.join() for t in ts]
same = all(r is not None and len(r) == len(ref) and all(
    a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b, equal_nan=True) for a, b in zip(r, ref))
    for r in results)
print("errors:", errors)
print("OK" if same and not errors else "MISMATCH")
"""


def compile_threads_campaign(rec: Recorder, programs: Sequence[str], timeout: float = 120.0) -> None:
    for build in programs:
        if DEADLINE and time.monotonic() > DEADLINE[0]:
            return
        STATS["compile-threads"] = STATS.get("compile-threads", 0) + 1
        script = COMPILE_THREADS_SCRIPT.format(build=build)
        rec.beat(script)
        with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as fh:
            fh.write(script)
            path = fh.name
        env = dict(os.environ, PYTHONFAULTHANDLER="1", JAX_PLATFORMS="cpu")
        env.pop("TF_CPP_MIN_LOG_LEVEL", None)  # the library promises quiet logs by itself
        try:
            proc = subprocess.run([sys.executable, path], capture_output=True, text=True, timeout=timeout, env=env)
        except subprocess.TimeoutExpired:
            rec.add(Finding("compile-threads-hang", "compiling from 8 threads does not finish",
                            f"no answer in {timeout} s", script, "compile-threads"))
            continue
        finally:
            os.unlink(path)
        if proc.returncode < 0:
            rec.add(Finding("compile-threads-crash", f"signal {-proc.returncode}", proc.stderr[-3000:], script,
                            "compile-threads"))
        elif proc.returncode != 0:
            last = proc.stderr.strip().splitlines()[-1:] or [""]
            rec.add(Finding("compile-threads-exception", _norm(last[0]), proc.stderr[-3000:], script,
                            "compile-threads"))
        elif "OK" not in proc.stdout:
            rec.add(Finding("compile-threads-mismatch", "threads disagree", proc.stdout[-2000:], script,
                            "compile-threads"))
        logs = [l for l in proc.stderr.splitlines() if re.match(r"^[IW]\d{4} ", l)]
        if logs:
            rec.add(Finding("log-noise", "XLA INFO/WARNING log lines on stderr when compiling",
                            "\n".join(logs[:5]), script, "compile-threads"))


COMPILE_THREAD_PROGRAMS = [
    "with Graph('t', input_types=[TensorType(DType.int16, (4,)), TensorType(DType.float32, (4,))]) as g:\n"
    "    x, y = g.inputs\n    g.output(x * 3 + y - 2, (x // 2) % 3)",
    "with Graph('t2', input_types=[TensorType(DType.uint8, (2, 3)), TensorType(DType.float16, (3,))],"
    " policy='numpy') as g:\n    x, y = g.inputs\n    g.output((x + y).sum(0), ops.maximum(x, 7), x.T)",
    "with Graph('t3', input_types=[TensorType(DType.int8, (4,))], policy='max') as g:\n"
    "    (x,) = g.inputs\n    g.output(x * 2, ops.where(x > 0, x, 0))",
]


# --------------------------------------------------------------------------------------
# Driving the campaigns: a child process watched by the parent
# --------------------------------------------------------------------------------------


def run_campaigns(seed: int, examples: int, findings_path: Path | None, progress_path: Path | None,
                  campaigns: Sequence[str] = ("promotion", "graph", "threads", "compile-threads")) -> Recorder:
    """Run the campaigns in this process (the child). ``examples`` sizes the graph campaign;
    promotion gets 3x, threads/asyncio a twentieth, compile-threads one program per 400."""
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    import warnings
    warnings.simplefilter("ignore")  # lossy-promotion warnings are the API working
    rec = Recorder(findings_path)
    rec.progress = progress_path
    if "promotion" in campaigns:
        promotion_campaign(rec, 3 * examples, seed)
    if "graph" in campaigns:
        graph_campaign(rec, examples, seed)
    if "threads" in campaigns:
        threads_campaign(rec, max(2, examples // 20), seed)
    if "compile-threads" in campaigns:
        n = max(1, min(len(COMPILE_THREAD_PROGRAMS), examples // 400))
        compile_threads_campaign(rec, COMPILE_THREAD_PROGRAMS[:n])
    rec.beat("")
    return rec


def run(seed: int = 0, examples: int = 200, *, out: str | Path | None = None, time_limit: float | None = None,
        campaigns: Sequence[str] = ("promotion", "graph", "threads", "compile-threads"),
        log: Callable[[str], None] | None = None, shrink: bool = True, show_progress: bool = False) -> list[Finding]:
    """Run the campaigns in a child process (a crash or hang is a finding, not the end of the
    run); returns the distinct findings, saved under ``out`` when given. ``show_progress`` draws a
    tqdm bar of the campaigns the child has finished (its ETA from their pace; the time limit,
    where there is one, in its postfix); ``log`` lines go above it."""
    from tqdm import tqdm

    bar = tqdm(total=len(campaigns), desc="api_fuzz", unit="campaign", file=sys.stderr, disable=not show_progress,
               dynamic_ncols=True, mininterval=0.5 if sys.stderr.isatty() else 15.0)
    user_log = log or (lambda s: None)

    def log(message: str) -> None:
        if show_progress:
            bar.write(message, file=sys.stderr)
        else:
            user_log(message)

    work = Path(tempfile.mkdtemp(prefix="latticecast-api-fuzz-"))
    findings_path, progress_path = work / "findings.jsonl", work / "progress.py"
    all_findings: dict[tuple[str, str], Finding] = {}
    start = time.monotonic()
    attempt = 0
    remaining = list(campaigns)
    crashes: dict[str, int] = {}
    while remaining and attempt < 8:
        progress_path.write_text("", encoding="utf-8")
        cmd = [sys.executable, "-m", "fuzz.api_fuzz", "--child", "--seed", str(seed + 1000 * attempt), "--examples",
               str(examples), "--findings", str(findings_path), "--progress", str(progress_path),
               "--campaigns", ",".join(remaining)]
        if time_limit is not None:
            cmd += ["--deadline", str(max(1.0, time_limit - (time.monotonic() - start)))]
        env = dict(os.environ, PYTHONFAULTHANDLER="1", JAX_PLATFORMS="cpu", TF_CPP_MIN_LOG_LEVEL="1")
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in [env.get("PYTHONPATH")] if p])
        if not shrink:
            env["LATTICECAST_FUZZ_NO_SHRINK"] = "1"
        proc = subprocess.Popen(cmd, cwd=str(ROOT), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                start_new_session=True)
        err_chunks: list[bytes] = []
        reader = threading.Thread(target=lambda: err_chunks.append(proc.stderr.read()), daemon=True)  # type: ignore
        reader.start()
        hung = over = False
        while proc.poll() is None:
            time.sleep(0.5)
            finished = len(_done_campaigns(findings_path.with_suffix(".done")) & set(campaigns))
            if finished > bar.n:
                bar.update(finished - bar.n)
            elapsed = time.monotonic() - start
            bar.set_postfix_str(f"{len(all_findings)} findings" + (
                f", time limit in {max(time_limit - elapsed, 0):.0f} s" if time_limit is not None else ""),
                refresh=False)
            idle = time.time() - progress_path.stat().st_mtime
            over = time_limit is not None and time.monotonic() - start > time_limit + 120
            if idle > HEARTBEAT_TIMEOUT or over:
                hung = idle > HEARTBEAT_TIMEOUT
                proc.send_signal(signal.SIGABRT)  # faulthandler prints the stacks
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
                break
        reader.join(10)
        stderr = b"".join(err_chunks).decode("utf-8", "replace")
        current = progress_path.read_text(encoding="utf-8")
        _load(findings_path, all_findings)
        campaign_now = _campaign_of(stderr, current)
        if proc.returncode == 0:
            break
        if over and not hung:
            log("time limit reached: the child was stopped")
            break
        if hung:
            f = Finding("hang", f"no progress for {HEARTBEAT_TIMEOUT:.0f} s in {campaign_now}",
                        stderr[-4000:], current, campaign_now)
        elif proc.returncode is not None and proc.returncode < 0:
            f = Finding("crash", f"{signal.Signals(-proc.returncode).name} in {campaign_now}: "
                        f"{_fault_frame(stderr)}", stderr[-4000:], current, campaign_now)
        else:
            last = stderr.strip().splitlines()[-1:] or ["?"]
            f = Finding("fuzzer-error", _norm(last[0]), stderr[-4000:], current, campaign_now)
            log(stderr[-3000:])
        if shrink and (f.oracle, f.key) not in all_findings and f.oracle in ("crash", "hang") and current.strip():
            log(f"child stopped: [{f.oracle}] {f.key}; shrinking the reproducer")
            f.reproducer = shrink_script(current, proc.returncode if not hung else None,
                                         budget_s=min(120.0, max(30.0, (time_limit or 600) / 5)))
        if (f.oracle, f.key) in all_findings:
            all_findings[(f.oracle, f.key)].hits += 1
        else:
            all_findings[(f.oracle, f.key)] = f
        log(f"child stopped: [{f.oracle}] {f.key}; restarting the remaining campaigns")
        done = _done_campaigns(findings_path.with_suffix(".done"))
        crashes[campaign_now] = crashes.get(campaign_now, 0) + 1
        if crashes[campaign_now] >= 3:
            done.add(campaign_now)  # it keeps crashing: go on with the others
        remaining = [c for c in remaining if c not in done]
        attempt += 1
    bar.close()
    result = list(all_findings.values())
    if out is not None:
        save(Path(out), result, seed, examples, time.monotonic() - start)
    run.last_seconds = time.monotonic() - start  # type: ignore[attr-defined]
    return result


def shrink_script(code: str, returncode: int | None, budget_s: float = 90.0) -> str:
    """Drop statements of a crashing (or hanging) reproducer one at a time, from the end, while a
    fresh interpreter still dies the same way (same negative exit code; for a hang: still no
    exit in 60 s). Statements are the lines of the ``with g:`` block (a ``try:`` block is one)."""
    deadline = time.monotonic() + budget_s

    def still(candidate: str) -> bool:
        with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as fh:
            fh.write(candidate)
            path = fh.name
        try:
            env = dict(os.environ, JAX_PLATFORMS="cpu", TF_CPP_MIN_LOG_LEVEL="3")
            env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in [env.get("PYTHONPATH")] if p])
            proc = subprocess.run([sys.executable, path], capture_output=True, timeout=60 if returncode is None else 120,
                                  env=env)
            return returncode is not None and proc.returncode == returncode
        except subprocess.TimeoutExpired:
            return returncode is None
        finally:
            os.unlink(path)

    lines = code.split("\n")
    i = len(lines) - 1
    while i >= 0 and time.monotonic() < deadline:
        line = lines[i]
        if line.startswith("    ") and not line.startswith("     ") and not line.strip().startswith(("except", "pass")):
            end = i + 4 if line.strip() == "try:" else i + 1
            cand = lines[:i] + lines[end:]
            if "g.output(" in line:
                cand = None
            if cand is not None and still("\n".join(cand)):
                lines = cand
        elif line.startswith(("_text =", "_before =")) and still("\n".join(lines[:i] + lines[i + 1:])):
            lines = lines[:i] + lines[i + 1:]
        i -= 1
    return "\n".join(lines)


def _fault_frame(stderr: str) -> str:
    m = re.findall(r'File "([^"]+)", line \d+ in (\S+)', stderr)
    for path, fn in m:
        if _is_ours(path):
            return f"{Path(path).name}:{fn}"
    return f"{Path(m[0][0]).name}:{m[0][1]}" if m else "?"


def _campaign_of(stderr: str, current: str) -> str:
    m = re.findall(r"campaign-start (\S+)", stderr)
    return m[-1] if m else "?"


def _done_campaigns(path: Path) -> set[str]:
    return set(path.read_text().split()) if path.exists() else set()


def _load(path: Path, into: dict[tuple[str, str], Finding]) -> None:
    if not path.exists():
        return
    for line in path.read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        f = Finding(**d)
        k = (f.oracle, f.key)
        old = into.get(k)
        if old is None or len(f.reproducer) < len(old.reproducer) or f.hits > old.hits:
            into[k] = f


def save(out: Path, findings: list[Finding], seed: int, examples: int, seconds: float) -> None:
    out.mkdir(parents=True, exist_ok=True)
    index = []
    for f in findings:
        slug = f"{f.oracle}-{hashlib.sha1(f.key.encode()).hexdigest()[:10]}"
        d = out / slug
        d.mkdir(exist_ok=True)
        (d / "repro.py").write_text(f.reproducer, encoding="utf-8")
        (d / "finding.json").write_text(json.dumps(f.__dict__, indent=2) + "\n", encoding="utf-8")
        index.append({"dir": slug, "oracle": f.oracle, "key": f.key, "hits": f.hits, "campaign": f.campaign})
    (out / "summary.json").write_text(json.dumps({"seed": seed, "examples": examples, "seconds": round(seconds, 1),
                                                  "findings": index}, indent=2) + "\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m fuzz.api_fuzz", description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--examples", type=int, default=500, help="graph programs (promotion calls: 3x)")
    p.add_argument("--out", default="fuzz-api-findings")
    p.add_argument("--time-limit", type=float, default=None,
                   help="stop generating work after this many seconds (the examples left run empty)")
    p.add_argument("--campaigns", default="promotion,graph,threads,compile-threads")
    p.add_argument("--quiet", action="store_true", help="no progress bar and no log of findings as they come")
    p.add_argument("--no-shrink", action="store_true", help="keep reproducers as found (faster)")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--findings", help=argparse.SUPPRESS)
    p.add_argument("--progress", help=argparse.SUPPRESS)
    p.add_argument("--deadline", type=float, default=None, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    campaigns = [c for c in args.campaigns.split(",") if c]
    if args.child:
        if args.deadline is not None:
            DEADLINE.append(time.monotonic() + args.deadline)
        done_path = Path(args.findings).with_suffix(".done")
        for c in campaigns:
            print(f"campaign-start {c}", file=sys.stderr, flush=True)
            t0 = time.monotonic()
            run_campaigns(args.seed, args.examples, Path(args.findings), Path(args.progress), [c])
            print(f"campaign-end {c} {STATS.get(c, 0)} examples {time.monotonic() - t0:.1f} s", file=sys.stderr,
                  flush=True)
            with open(done_path, "a") as fh:
                fh.write(c + "\n")
        return 0
    log = (lambda s: None) if args.quiet else (lambda s: print(s, file=sys.stderr, flush=True))
    findings = run(args.seed, args.examples, out=args.out, time_limit=args.time_limit, campaigns=campaigns, log=log,
                   shrink=not args.no_shrink, show_progress=not args.quiet)
    for f in sorted(findings, key=lambda f: (f.oracle, f.key)):
        print(f.summary())
    seconds = getattr(run, "last_seconds", 0.0)
    print(f"{len(findings)} findings in {args.examples} graph examples (+{3 * args.examples} promotion calls) "
          f"in {seconds:.0f} s; reproducers in {args.out}")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
