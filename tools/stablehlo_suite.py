"""Run StableHLO's own test suite (a checkout of openxla/stablehlo) against latticecast.

    python tools/stablehlo_suite.py /path/to/stablehlo-checkout            # both parts
    python tools/stablehlo_suite.py CHECKOUT --part invariance --policies jax,max,numpy
    python tools/stablehlo_suite.py CHECKOUT --part interpret --list       # every non-pass named

Nothing of the checkout is copied: its files are read where they are.

**Invariance** (``stablehlo/tests/**/*.mlir``): each file is cut at ``// -----`` as
``latticecast-opt --split-input-file`` cuts it, and each chunk goes through latticecast's
parser and verifier (as ``latticecast-opt`` does), through the runtime's parser, and through
``implicit-cast`` under every policy asked for. A chunk that jaxlib's own parser and verifier
accept (unregistered ops allowed, as the suite's ``-allow-unregistered-dialect``) is *legal*: it must
print exactly as jaxlib prints it, under every policy, and never be rejected. Every chunk,
legal or not, must end in a printed module or located diagnostics: no Python traceback and
no death by a signal. Where both reject a chunk, the first error's line must be the one
jaxlib reports.

**Execution** (``stablehlo/tests/interpret/**/*.mlir`` and ``stablehlo/tests/math/*.mlir``):
each function that ends in ``check.expect_*`` ops becomes a ``@main`` that returns the
checked values, which :func:`latticecast.compile` runs; the results are compared with the
expected values as StableHLO's checks compare them (exactly; within ``tolerance``; within
``max_ulp_difference`` ULPs). The same program also goes to plain XLA (the PJRT client's
compile, without latticecast), so that what XLA itself gets wrong or cannot run is labelled
as XLA's. Expected constants are read with jaxlib's StableHLO reference interpreter.

Each chunk runs in a worker process that is restarted if it dies, so a chunk that kills
its process is reported, with the signal, instead of ending the run.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
import traceback
from collections import Counter
from pathlib import Path
from typing import Any, Iterator

TESTS = Path("stablehlo") / "tests"
DEFAULT_POLICIES = ("jax", "max", "numpy")


# -- chunks -----------------------------------------------------------------------------------


def invariance_files(checkout: Path) -> list[Path]:
    root = checkout / TESTS
    if not root.is_dir():
        raise SystemExit(f"{checkout} is not a checkout of openxla/stablehlo (no {TESTS})")
    return sorted(root.rglob("*.mlir"))


def interpret_files(checkout: Path) -> list[Path]:
    root = checkout / TESTS
    return sorted((root / "interpret").rglob("*.mlir")) + sorted((root / "math").glob("*.mlir"))


def chunks_of(path: Path) -> list[tuple[str, int]]:
    from latticecast.cli.opt.split import split_input

    return [(c.text, c.first_line) for c in split_input(path.read_text(encoding="utf-8"), True)]


# -- the worker ---------------------------------------------------------------------------------


class _Worker:
    """The worker's state: contexts and one pipeline per policy, built once."""

    def __init__(self) -> None:
        from latticecast.dialect_utils.context import make_context

        self.lenient = make_context(lenient=True)
        self.strict = make_context(lenient=False)
        self.runners: dict[str, Any] = {}

    def runner(self, policy: str | None) -> Any:
        """The runner of ``implicit-cast{policy=...}``, or for ``None`` the one that only verifies (as
        ``latticecast-opt`` without passes)."""
        from latticecast.passes import ImplicitCastOptions, Pipeline, PipelineRunner

        key = policy or ""
        if key not in self.runners:
            pipeline = Pipeline((ImplicitCastOptions(policy=policy),)) if policy else Pipeline()
            self.runners[key] = PipelineRunner(pipeline, self.lenient, verify_input=True)
        return self.runners[key]

    # one chunk of the invariance check, in steps (a step that kills the process is named by the parent)
    def invariance(self, req: dict, emit: Any) -> None:
        from latticecast.cli.opt.chunk import process_chunk

        text, name, first = req["text"], req["file"], req["first_line"]
        for policy in [None, *req["policies"]]:
            step = policy or "verify"
            emit({"step": step})
            try:
                r = process_chunk(text, name, self.runner(policy), self.lenient, first_line=first)
                errors = [d.format() for d in r.diagnostics if d.severity == "error"]
                emit({"result": step, "ok": r.ok, "output": r.output if r.ok else None, "errors": errors[:3],
                      "lines": [d.line for d in r.diagnostics if d.severity == "error"][:3]})
            except BaseException:  # noqa: BLE001 - the point is to see it
                emit({"result": step, "traceback": traceback.format_exc(limit=6)})
        emit({"step": "runtime-parse"})  # the runtime's parser (latticecast.compile of text): strict
        from latticecast.dialect_utils.diagnostics import MLIRParseError
        from latticecast.dialect_utils.parsing import parse_module

        try:
            parse_module(text, self.strict, source_name=name, first_line=first)
            emit({"result": "runtime-parse", "ok": True})
        except MLIRParseError as e:
            emit({"result": "runtime-parse", "ok": False, "errors": [str(e).splitlines()[0][:300]]})
        except BaseException:  # noqa: BLE001
            emit({"result": "runtime-parse", "traceback": traceback.format_exc(limit=6)})
        emit({"step": "jaxlib"})
        from jaxlib.mlir import ir

        try:
            # jaxlib's parser and verifier, with unregistered ops allowed (the suite's RUN lines
            # pass -allow-unregistered-dialect; StableHLO's own ops are verified all the same)
            with self.lenient:
                module = ir.Module.parse("\n" * (first - 1) + text)
            emit({"result": "jaxlib", "ok": True,
                  "output": str(module.operation.get_asm(assume_verified=True)).rstrip("\n") + "\n"})
        except ir.MLIRError as e:
            from latticecast.dialect_utils.diagnostics import location_parts

            lines = [parts[1] for d in e.error_diagnostics if (parts := location_parts(d.location))]
            emit({"result": "jaxlib", "ok": False, "lines": lines[:3], "errors": [str(e)[:300]]})
        except BaseException:  # noqa: BLE001
            emit({"result": "jaxlib", "ok": False, "errors": [traceback.format_exc(limit=2)], "lines": []})

    def interpret(self, req: dict, emit: Any) -> None:
        program = req["program"]
        emit({"step": "expected"})
        try:
            expected = [_expected_values(c, self.strict) if c["const"] is not None else None for c in req["checks"]]
        except BaseException:  # noqa: BLE001
            emit({"result": "expected", "error": traceback.format_exc(limit=3)})
            return
        emit({"result": "expected", "ok": True})
        for step, runner in (("latticecast", _run_latticecast), ("xla", _run_plain_xla)):
            emit({"step": step})
            try:
                outputs = runner(program)
            except BaseException as e:  # noqa: BLE001
                emit({"result": step, "error": f"{type(e).__name__}: {' '.join(str(e).split())[:400]}"})
                continue
            try:
                verdict = _judge(req["checks"], outputs, expected)
            except BaseException:  # noqa: BLE001
                verdict = "harness: " + traceback.format_exc().strip().splitlines()[-1]
            emit({"result": step, "verdict": verdict})


def _run_latticecast(program: str) -> list[Any]:
    import latticecast as lc

    return list(lc.compile(program)())


def _run_plain_xla(program: str) -> list[Any]:
    import numpy as np
    from jax._src import xla_bridge
    from jax._src.lib import xla_client as xc

    backend = xla_bridge.get_backend("cpu")
    exe = backend.compile_and_load(program, xc.DeviceList((backend.devices()[0],)), xc.CompileOptions())
    return [np.asarray(a[0]) for a in exe.execute_sharded([]).disassemble_into_single_device_arrays()]


def worker_main() -> int:
    w = _Worker()
    out = sys.stdout

    def emit(msg: dict) -> None:
        out.write(json.dumps(msg) + "\n")
        out.flush()

    for line in sys.stdin:
        req = json.loads(line)
        getattr(w, req["kind"])(req, emit)
        emit({"done": True})
    return 0


class Pool:
    """One worker process at a time, restarted when a chunk kills it."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen | None = None

    def _start(self) -> subprocess.Popen:
        env = dict(os.environ, PYTHONFAULTHANDLER="0")
        return subprocess.Popen([sys.executable, __file__, "--worker"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True, env=env, bufsize=1)

    def run(self, req: dict) -> tuple[list[dict], str | None, str | None]:
        """The messages of one request, and the step and the signal if the worker died in it."""
        if self.proc is None or self.proc.poll() is not None:
            self.proc = self._start()
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        messages: list[dict] = []
        step = None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                code = self.proc.wait()
                self.proc = None
                import signal

                try:
                    how = signal.Signals(-code).name if code < 0 else f"exit {code}"
                except ValueError:
                    how = f"signal {-code}"
                return messages, step, how
            msg = json.loads(line)
            if msg.get("done"):
                return messages, None, None
            if "step" in msg:
                step = msg["step"]
            else:
                messages.append(msg)

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            assert self.proc.stdin
            self.proc.stdin.close()
            self.proc.wait(timeout=60)


# -- invariance -----------------------------------------------------------------------------------


def run_invariance(checkout: Path, policies: list[str], pool: Pool, only: str | None, log: Any) -> dict:
    counts: Counter = Counter()
    problems: list[str] = []
    for path in invariance_files(checkout):
        rel = path.relative_to(checkout)
        if only and only not in str(rel):
            continue
        for text, first in chunks_of(path):
            if not text.strip():
                continue
            counts["chunks"] += 1
            req = {"kind": "invariance", "file": str(rel), "text": text, "first_line": first, "policies": policies}
            messages, died_in, how = pool.run(req)
            results = {m["result"]: m for m in messages}
            where = f"{rel}:{first}"
            for step, m in results.items():
                if "traceback" in m:
                    counts["traceback"] += 1
                    problems.append(f"{where}: traceback under {step}: {m['traceback'].splitlines()[-1]}")
            if died_in is not None:
                if died_in == "jaxlib":
                    counts["jaxlib crashes (latticecast refused cleanly)"] += 1
                    problems.append(f"{where}: jaxlib's own parser/verifier dies ({how}); latticecast: "
                                    f"{(results.get('verify', {}).get('errors') or ['?'])[0]}")
                else:
                    counts["latticecast killed"] += 1
                    problems.append(f"{where}: the process died ({how}) under {died_in}")
                continue
            ref = results["jaxlib"]
            if ref["ok"]:
                counts["legal"] += 1
                if not results.get("runtime-parse", {}).get("ok"):
                    counts["legal, with unregistered ops (the runtime's strict parser refuses them)"] += 1
                bad = []
                for policy in policies:
                    m = results.get(policy, {})
                    if "traceback" in m:
                        bad.append(f"{policy}: traceback")
                    elif not m.get("ok"):
                        counts[f"legal, rejected under {policy}"] += 1
                        bad.append(f"{policy}: rejected: {(m.get('errors') or ['?'])[0]}")
                    elif m["output"] != ref["output"]:
                        counts[f"legal, changed under {policy}"] += 1
                        bad.append(f"{policy}: changed")
                v = results.get("verify", {})
                if not v.get("ok") or v.get("output") != ref["output"]:
                    counts["legal, not reproduced by latticecast's parser"] += 1
                    bad.append(f"parse: {(v.get('errors') or ['printed differently'])[0]}")
                if bad:
                    problems.append(f"{where}: legal chunk: " + "; ".join(bad))
                else:
                    counts["legal, unchanged under every policy"] += 1
            else:
                counts["not legal for jaxlib"] += 1
                v = results.get("verify", {})
                if v.get("ok"):
                    counts["not legal, accepted by latticecast's lenient parser"] += 1
                    problems.append(f"{where}: jaxlib rejects it, latticecast accepts it: {ref['errors'][0][:200]}")
                elif v.get("lines") and ref.get("lines") and v["lines"][0] != ref["lines"][0]:
                    counts["not legal, first error on another line than jaxlib's"] += 1
                    problems.append(f"{where}: first error at line {v['lines'][0]}, jaxlib says line {ref['lines'][0]}")
        print(f"  {rel}: {counts['chunks']} chunks so far", file=log, flush=True)
    return {"counts": dict(counts), "problems": problems}


# -- execution -----------------------------------------------------------------------------------

_FUNC = re.compile(r"^(\s*)func\.func\s+(?:(public|private)\s+)?@([\w$.-]+)\s*\(([^)]*)\)(.*)$")
_CHECK_START = re.compile(r"^\s*check\.(expect_\w+)\s+(.*)$")
_RETURN = re.compile(r"^(\s*)(?:func\.)?return\b.*$")


def _balance(s: str) -> int:
    s = s.replace("->", "")
    return sum(s.count(c) for c in "[(<{") - sum(s.count(c) for c in "])>}")


def _split_top(s: str, sep: str = ",") -> list[str]:
    parts, depth, cur = [], 0, []
    for ch in s:
        if ch in "[(<{":
            depth += 1
        elif ch in "])>}":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur).strip())
    return parts


def _code(line: str) -> str:
    """A line without its ``//`` comment (strings in check ops hold no ``//``)."""
    return line.split("//")[0]


def _tolerance(text: str) -> float:
    m = re.search(r"tolerance\s*=\s*([-+0-9.eE]+)", text)
    return float(m.group(1)) if m else 1e-4


def _parse_check(kind: str, rest: str) -> dict | None:
    """One check op: the values it checks, their type, and the comparison."""
    rest = " ".join(rest.split())
    original = rest
    if kind in ("expect_eq_const", "expect_almost_eq_const"):
        rest = re.sub(r"\{\s*tolerance\s*=[^}]*\}\s*$", "", rest).strip()  # the attribute-dictionary spelling
        parts = _split_top(rest)
        lhs, value = parts[0], parts[1]
        tol = _tolerance(original)
        m = re.match(r"(.*\S)\s*:\s*(tensor<.*>)$", value)
        if not m:
            return None
        return {"kind": kind, "values": [lhs], "types": [m.group(2)], "const": value, "tolerance": tol}
    if kind in ("expect_eq", "expect_almost_eq"):
        head, _, ty = rest.rpartition(" : ")
        parts = _split_top(head)
        tol = _tolerance(head)
        return {"kind": kind, "values": parts[:2], "types": [ty.strip()] * 2, "const": None, "tolerance": tol}
    if kind == "expect_close":
        head, _, tys = rest.partition(" : ")
        parts = _split_top(head)
        ulps = {"max_ulp_difference": 1, "min_ulp_difference": 0}
        for p in parts[2:]:
            m = re.match(r"(\w+)\s*=\s*(\d+)", p)
            if m:
                ulps[m.group(1)] = int(m.group(2))
        types = _split_top(tys.strip())
        return {"kind": kind, "values": parts[:2], "types": types[:2], "const": None, **ulps}
    return None


def programs_of(text: str) -> Iterator[tuple[str, str, list[dict]] | tuple[str, str, str]]:
    """``(function, program, checks)`` for each function of a chunk that has check ops, or
    ``(function, "", reason)`` when it cannot be made a program."""
    lines = text.split("\n")
    funcs: list[tuple[int, int, str]] = []  # (start, end, name)
    i = 0
    while i < len(lines):
        m = _FUNC.match(lines[i])
        if m:
            depth = _balance(lines[i])
            j = i
            while depth > 0 and j + 1 < len(lines):
                j += 1
                depth += _balance(lines[j].split("//")[0])
            funcs.append((i, j, m.group(3)))
            i = j + 1
        else:
            i += 1
    # every check op is removed from every function; each function that had some becomes @main in turn
    stripped = list(lines)
    checks_in: dict[str, list[dict]] = {}
    unreadable: dict[str, str] = {}
    for start, end, name in funcs:
        k = start
        while k <= end:
            m = _CHECK_START.match(stripped[k])
            if not m:
                k += 1
                continue
            stmt = _code(m.group(2))
            first = k
            while (_balance(stmt) > 0 or stmt.rstrip().endswith(",")) and k + 1 <= end:
                k += 1
                stmt += " " + _code(stripped[k]).strip()
            for x in range(first, k + 1):
                stripped[x] = ""
            if m.group(1) == "expect_serialized_eq":
                unreadable[name] = "check.expect_serialized_eq reads probe files the interpreter wrote"
            else:
                parsed = _parse_check(m.group(1), stmt)
                if parsed is None:
                    unreadable[name] = f"cannot read check.{m.group(1)} {stmt[:60]}"
                else:
                    checks_in.setdefault(name, []).append(parsed)
            k += 1
    names = {n for _, _, n in funcs}
    for start, end, name in funcs:
        if name in checks_in and re.search(r'"?interpreter\.\w+', "\n".join(lines[start:end + 1])):
            unreadable[name] = ("runs several processes with the interpreter's own op (interpreter.run_parallel), "
                                "which XLA has no counterpart of")
        if name in unreadable:
            yield name, "", unreadable[name]
            continue
        checks = checks_in.get(name)
        if not checks:
            continue
        m = _FUNC.match(stripped[start])
        assert m
        if m.group(4).strip():
            yield name, "", "the function takes arguments (the interpreter's --args)"
            continue
        values = [v for c in checks for v in c["values"]]
        types = [t for c in checks for t in c["types"]]
        out = list(stripped)
        rest_of_header = re.sub(r"^\s*->\s*(\([^)]*\)|[^{]*?)\s*(?=(attributes\b|\{))", " ", m.group(5))
        out[start] = f"{m.group(1)}func.func @main() -> ({', '.join(types)}){rest_of_header}"
        returns = [k for k in range(start, end + 1) if _RETURN.match(out[k])]
        if len(returns) != 1:
            yield name, "", "no single func.return in the test function"
            continue
        indent = _RETURN.match(out[returns[0]]).group(1)  # type: ignore[union-attr]
        out[returns[0]] = f"{indent}func.return {', '.join(values)} : {', '.join(types)}"
        if "main" in names and name != "main":
            out = [re.sub(r"@main\b", "@main_of_the_test", ln) if idx < start or idx > end else ln
                   for idx, ln in enumerate(out)]
        yield name, "\n".join(out), checks


def _expected_values(check: dict, ctx: Any) -> Any:
    """The expected constant of a ``*_const`` check, read by the reference interpreter, widened
    exactly (floats to f64, integers to i64/ui64, complex to its two parts)."""
    import numpy as np
    from jaxlib.mlir import ir
    from jaxlib.mlir.dialects import stablehlo

    ty = check["types"][0]
    m = re.match(r"tensor<((?:\d+x)*)(.+)>$", ty)
    assert m, ty
    dims, element = m.group(1), m.group(2)
    if element.startswith("complex"):
        part = re.match(r"complex<(\w+)>", element).group(1)  # type: ignore[union-attr]
        wide = [("real", f"tensor<{dims}f64>"), ("imag", f"tensor<{dims}f64>")]
        body = [f"%r = stablehlo.real %c : ({ty}) -> tensor<{dims}{part}>",
                f"%i = stablehlo.imag %c : ({ty}) -> tensor<{dims}{part}>",
                f"%0 = stablehlo.convert %r : (tensor<{dims}{part}>) -> tensor<{dims}f64>",
                f"%1 = stablehlo.convert %i : (tensor<{dims}{part}>) -> tensor<{dims}f64>"]
        outs = ["%0", "%1"]
    elif element.startswith(("f", "bf", "tf")) and not element.startswith(("f4E", "f6E")):
        # a float's bits, decoded here with ml_dtypes (the interpreter's own convert reads
        # f8E8M0FNU's NaN as inf)
        from latticecast import DType

        host = DType.from_mlir(element).np_dtype
        width = 8 * host.itemsize
        wide = [("bits", f"tensor<{dims}ui64>")]
        body = [f"%b = stablehlo.bitcast_convert %c : ({ty}) -> tensor<{dims}ui{width}>",
                f"%0 = stablehlo.convert %b : (tensor<{dims}ui{width}>) -> tensor<{dims}ui64>"]
        with ctx:
            module = ir.Module.parse(f"func.func @main() -> tensor<{dims}ui64> {{\n %c = stablehlo.constant "
                                     f"{check['const']}\n " + "\n ".join(body) + f"\n return %0 : tensor<{dims}ui64>\n}}")
            (bits,) = [np.array(r) for r in stablehlo.eval_module(module, [])]
        unsigned = np.dtype(f"uint{8 * host.itemsize}")
        return bits.astype(unsigned).view(host).astype(np.float64)
    else:
        # f4/f6 have neither NaN nor inf: the interpreter's convert to f64 is exact
        target = "i1" if element == "i1" else "f64" if element.startswith("f") else \
            "ui64" if element.startswith("ui") else "i64"
        wide = [("value", f"tensor<{dims}{target}>")]
        body = [f"%0 = stablehlo.convert %c : ({ty}) -> tensor<{dims}{target}>"]
        outs = ["%0"]
    types = [t for _, t in wide]
    text = (f"func.func @main() -> ({', '.join(types)}) {{\n %c = stablehlo.constant {check['const']}\n "
            + "\n ".join(body) + f"\n return {', '.join(outs)} : {', '.join(types)}\n}}")
    with ctx:
        module = ir.Module.parse(text)
        results = [np.array(r) for r in stablehlo.eval_module(module, [])]
    if len(results) == 2:
        return results[0] + 1j * results[1]
    return results[0]


def _wide(a: Any) -> Any:
    import numpy as np

    a = np.asarray(a)
    if a.dtype.kind == "c":
        return a.astype(np.complex128)
    if a.dtype.kind == "b":
        return a.astype(bool)
    if a.dtype.kind in "iu":
        return a.astype(np.int64 if a.dtype.kind == "i" else np.uint64)
    return a.astype(np.float64)


def _almost(a: Any, b: Any, tol: float) -> Any:
    import numpy as np

    both_nan = np.isnan(a) & np.isnan(b)
    equal = a == b
    finite = np.isfinite(a) & np.isfinite(b)
    with np.errstate(invalid="ignore", over="ignore"):
        close = finite & (np.abs(a - b) <= tol)
    return both_nan | equal | close


def _ulp(a: Any, b: Any) -> Any:
    """StableHLO's ULP difference, elementwise, for arrays of one float dtype."""
    import numpy as np

    bits = {2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize]
    ai, bi = a.view(bits).astype(np.uint64), b.view(bits).astype(np.uint64)
    sign = np.uint64(1) << np.uint64(8 * a.dtype.itemsize - 1)
    ma, mb = ai & ~sign, bi & ~sign
    neg_a, neg_b = (ai & sign) != 0, (bi & sign) != 0
    diff = np.where(neg_a != neg_b, ma + mb, np.maximum(ma, mb) - np.minimum(ma, mb))
    finite = np.isfinite(a.astype(np.float64)) & np.isfinite(b.astype(np.float64))
    big = np.uint64(2**64 - 1)
    nan = np.isnan(a.astype(np.float64)) & np.isnan(b.astype(np.float64))
    out = np.where(ai == bi, np.uint64(0), np.where(finite, diff, np.where(nan, np.uint64(0), big)))
    return out


def _judge(checks: list[dict], outputs: list[Any], expected: list[Any]) -> str:
    """``"pass"`` or what differs (the first check that fails)."""
    import numpy as np

    k = 0
    for check, exp in zip(checks, expected):
        got = [outputs[k + i] for i in range(len(check["values"]))]
        k += len(check["values"])
        kind = check["kind"]
        if kind == "expect_close":
            actual, want = np.asarray(got[0]), np.asarray(got[1])
            if actual.dtype.kind == "c":
                part = np.float32 if actual.dtype.itemsize == 8 else np.float64
                ulps = np.maximum(_ulp(actual.real.astype(part), want.real.astype(part)),
                                  _ulp(actual.imag.astype(part), want.imag.astype(part)))
            else:
                ulps = _ulp(actual, want)
            bad = (ulps > np.uint64(check["max_ulp_difference"])) | (ulps < np.uint64(check["min_ulp_difference"]))
            if bad.any():
                return f"{int(bad.sum())} of {bad.size} elements beyond {check['max_ulp_difference']} ULP"
            continue
        a = _wide(got[0])
        b = _wide(got[1]) if exp is None else np.asarray(exp)
        if np.shape(a) != np.shape(b) and np.ndim(b):
            return f"{kind}: result of shape {np.shape(a)}, expected {np.shape(b)}"
        if b.dtype.kind == "f" and a.dtype.kind in "iub":
            b = b.astype(a.dtype)
        if a.dtype.kind == "b" or b.dtype == bool:
            ok = a.astype(bool) == b.astype(bool)
        elif "almost" in kind:
            ok = _almost(a.real, b.real, check["tolerance"]) & _almost(np.imag(a), np.imag(b), check["tolerance"]) \
                if a.dtype.kind == "c" else _almost(a, b, check["tolerance"])
        else:
            ok = (a == b) | (_isnan(a) & _isnan(b))
        ok = np.broadcast_to(ok, np.shape(a))
        if not ok.all():
            idx = np.argwhere(~ok)[0]
            return (f"{kind}: {int((~ok).sum())} of {ok.size} elements differ, first at {tuple(idx.tolist())}: "
                    f"{a[tuple(idx)]!r} vs {b[tuple(idx)] if np.ndim(b) else b!r}")
    return "pass"


def _isnan(a: Any) -> Any:
    import numpy as np

    return np.isnan(a) if a.dtype.kind in "fc" else np.zeros(a.shape, bool)


def run_interpret(checkout: Path, pool: Pool, only: str | None, log: Any) -> dict:
    counts: Counter = Counter()
    rows: list[tuple[str, str, str]] = []
    for path in interpret_files(checkout):
        rel = path.relative_to(checkout)
        if only and only not in str(rel):
            continue
        for text, first in chunks_of(path):
            for name, program, checks in programs_of(text):
                where = f"{rel}:{first} @{name}"
                if not program:
                    counts["not a program (skipped)"] += 1
                    rows.append((where, "skipped", str(checks)))
                    continue
                counts["programs"] += 1
                messages, died_in, how = pool.run({"kind": "interpret", "program": program, "checks": checks})
                res = {m["result"]: m for m in messages}
                lc_res, xla_res = res.get("latticecast", {}), res.get("xla", {})
                if "error" in res.get("expected", {}):
                    label, why = "harness: expected values unreadable", res["expected"]["error"].splitlines()[-1]
                elif died_in == "latticecast":
                    label, why = "latticecast killed", how or ""
                elif "verdict" in lc_res and lc_res["verdict"] == "pass":
                    label, why = "pass", ""
                else:
                    xla_text = (f"XLA dies ({how})" if died_in == "xla" else xla_res.get("verdict") or
                                xla_res.get("error", "?"))
                    if "verdict" in lc_res:
                        same = "verdict" in xla_res and xla_res["verdict"] == lc_res["verdict"]
                        label = "wrong, as in plain XLA" if same else "wrong (latticecast)"
                        why = lc_res["verdict"] + ("" if same else f" | plain XLA: {xla_text}")
                    else:
                        err = lc_res.get("error", "?")
                        refused = err.startswith("UnsupportedModuleError")
                        if died_in == "xla":
                            label = "refused: XLA crashes on it" if refused else "error: XLA crashes on it"
                        elif xla_res.get("verdict") == "pass":
                            label = "refused, but plain XLA runs it" if refused else "error, but plain XLA runs it"
                        elif "error" in xla_res:
                            label = "unsupported by XLA"
                        else:
                            label = "refused, plain XLA wrong" if refused else "error, plain XLA wrong"
                        why = f"{err} | plain XLA: {xla_text}"
                counts[label] += 1
                rows.append((where, label, why))
        print(f"  {rel}: {counts['programs']} programs so far", file=log, flush=True)
    return {"counts": dict(counts), "rows": rows}


# -- command line ----------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["--worker"]:
        return worker_main()
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("checkout", type=Path, help="a checkout of openxla/stablehlo (its stablehlo/tests is read)")
    p.add_argument("--part", choices=("invariance", "interpret", "both"), default="both")
    p.add_argument("--policies", default=",".join(DEFAULT_POLICIES))
    p.add_argument("--only", help="only files whose path contains this")
    p.add_argument("--list", action="store_true", help="name every chunk or program that does not pass")
    p.add_argument("--json", type=Path, help="write the results here")
    p.add_argument("--quiet", action="store_true")
    ns = p.parse_args(args)
    log = open(os.devnull, "w") if ns.quiet else sys.stderr
    pool = Pool()
    report: dict[str, Any] = {}
    ok = True
    start = time.time()
    try:
        if ns.part in ("invariance", "both"):
            inv = run_invariance(ns.checkout, ns.policies.split(","), pool, ns.only, log)
            report["invariance"] = inv
            c = inv["counts"]
            print(f"invariance: {c.get('chunks', 0)} chunks; {c.get('legal', 0)} legal for jaxlib, "
                  f"{c.get('legal, unchanged under every policy', 0)} unchanged under {ns.policies}")
            for k, v in sorted(c.items()):
                print(f"  {k}: {v}")
            if ns.list:
                for line in inv["problems"]:
                    print(f"    {line}")
            ok &= not any(k.startswith(("legal, rejected", "legal, changed", "latticecast killed", "traceback"))
                          for k in c)
        if ns.part in ("interpret", "both"):
            ex = run_interpret(ns.checkout, pool, ns.only, log)
            report["interpret"] = ex
            c = ex["counts"]
            print(f"interpreter tests: {c.get('programs', 0)} programs; {c.get('pass', 0)} pass through "
                  f"latticecast.compile")
            for k, v in sorted(c.items()):
                print(f"  {k}: {v}")
            if ns.list:
                for where, label, why in ex["rows"]:
                    if label != "pass":
                        print(f"    {where}: {label}: {why[:300]}")
            ok &= not any(k.startswith(("latticecast killed", "refused, but", "error, but", "wrong (latticecast)"))
                          for k in c)
    finally:
        pool.close()
    print(f"({time.time() - start:.0f} s)")
    if ns.json:
        ns.json.write_text(json.dumps(report, indent=1, default=str))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
