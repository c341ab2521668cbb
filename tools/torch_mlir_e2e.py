#!/usr/bin/env python3
"""Run torch-mlir's own e2e suite through ``implicit-cast --policy torch``: comparisons against a 0-d value.

Usage::

    python tools/torch_mlir_e2e.py CHECKOUT [--torch-python PY] [--select all|eager]
                                   [-k SUBSTRING ...] [--keep DIR] [--out results.json]

``CHECKOUT`` is a directory holding ``projects/pt1/python/torch_mlir_e2e_test`` (a work tree of
llvm/torch-mlir, or ``git archive HEAD projects/pt1/python | tar -x -C DIR`` of it). Nothing of it
is copied: its test modules are imported where they are, and what this tool writes (``--keep``)
is torch-mlir's output for them, outside the project.

Two steps, in two interpreters:

1. **export** runs under ``--torch-python`` (torch 2.13 and torch-mlir; default
   ``$LATTICECAST_TORCH_PYTHON``, else ``/work/venv-torch/bin/python``) as
   ``PY tools/torch_mlir_e2e.py export CHECKOUT DIR``. It imports every module of the suite's
   ``test_suite`` with the suite's ``register_test_case`` and ``TestUtils`` replaced by this tool's
   (the suite's own ``framework`` needs ``multiprocess`` and its package ``__init__`` a built
   ``torch_mlir._version``; nothing else of the suite is replaced). Each test's invoker is called with a
   :class:`ProbeUtils` whose ``rand`` gives values that tell float32 from float64 (0.1, 1/3,
   2**24 + 1, and the numeric literals of the test's ``forward``), within the test's timeout, and its
   first ``forward`` call is recorded. PyTorch eager runs that call under
   ``tools/torch_mlir_corpus.py``'s ``Oracle`` (the promotions it makes, and the comparisons,
   ``where``, ``clamp``, ``maximum`` and ``minimum`` that meet a 0-d value or a Python scalar). Every
   test (``--select all``), or only those with such an eager site (``--select eager``, faster), is
   lowered with ``torch_mlir.fx.export_and_import(..., output_type="stablehlo")`` and written with its
   inputs, eager's outputs and the oracle, as the corpus is.
2. **judge** runs here, with latticecast. The comparisons against a 0-d value are found in torch-mlir's
   StableHLO (``torch_mlir_promotions.zero_d_compare_sites``: a ``compare`` one of whose operands comes
   from a rank-0 value or a one-element constant; the decompositions' comparisons with an op's scalar
   arguments included, which eager does not show). Each module runs twice through
   ``latticecast.compile`` and is compared with eager: as torch-mlir wrote it (torch-mlir's own
   answer), and *recovered*: the converts PyTorch's promotion made, and those that make a comparison
   against a 0-d value agree, removed (``tools/torch_mlir_promotions.py``) and put back by
   ``implicit-cast{policy=torch}``, so that the pass decides each of those comparisons.

Printed, and written to ``--out``: the tests, the ones lowered (and why the others are not); the
comparison sites against a 0-d value, how many meet another dtype, how many the pass decided, and how
many agree with PyTorch eager, recovered and as torch-mlir wrote them (a site agrees when its module's
outputs are eager's); then every module that disagrees, with the first element that differs.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import copy
import faulthandler
import importlib
import inspect
import json
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import traceback
import types
from pathlib import Path
from typing import Any, Callable, Iterator

HERE = Path(__file__).resolve().parent
SUITE = Path("projects/pt1/python/torch_mlir_e2e_test")
"""Where the e2e suite lives inside a torch-mlir checkout."""

TORCH_PYTHON = "/work/venv-torch/bin/python"
"""The interpreter with torch 2.13 and torch-mlir (``pip install torch==2.13.0 torch-mlir``)."""

COMPARISONS = frozenset({"eq", "ne", "lt", "le", "gt", "ge", "greater", "less", "greater_equal", "less_equal",
                         "not_equal"})
SIMILAR = COMPARISONS | {"where", "clamp", "clip", "clamp_min", "clamp_max", "maximum", "minimum"}

TELLING = (0.1, 1 / 3, 2.0 ** 24 + 1)
"""Float values that float32 and float64 hold differently (the issue's)."""


# -- export (torch and torch-mlir) -----------------------------------------------------------------------


class ProbeUtils:
    """The suite's ``TestUtils`` with values that tell dtypes apart: ``rand`` cycles through
    :data:`TELLING` and the test's own float literals (so that ``x > 0.6`` meets 0.6), a 0-d one taking
    the next value each time; ``randint`` cycles through ``[low, high)`` and the literals in it."""

    def __init__(self, literals: tuple[float, ...] = ()) -> None:
        import torch

        torch.manual_seed(0)
        self.floats = [*TELLING, *(float(v) for v in literals)]
        self.ints = [int(v) for v in literals if float(v).is_integer()]
        self.turn = 0

    def rand(self, *sizes: int, low: float = 0.0, high: float = 1.0) -> Any:
        import torch

        n = 1
        for s in sizes:
            n *= s
        start, self.turn = self.turn, self.turn + 1
        pick = (torch.arange(n) + start) % len(self.floats)
        values = torch.tensor(self.floats, dtype=torch.float64)[pick]
        return values.to(torch.get_default_dtype()).reshape(sizes)

    def randint(self, *sizes: int, low: int = 0, high: int = 10, dtype: Any = None) -> Any:
        import torch

        n = 1
        for s in sizes:
            n *= s
        pool = sorted({low, high - 1, (low + high) // 2, *(v for v in self.ints if low <= v < high)})
        start, self.turn = self.turn, self.turn + 1
        pick = (torch.arange(n) + start) % len(pool)
        return torch.tensor(pool, dtype=torch.int64)[pick].to(dtype or torch.int64).reshape(sizes)

    def nans(self, *sizes: int) -> Any:
        import torch

        return torch.full(sizes, float("nan"))


class SuiteUtils(ProbeUtils):
    """The suite's own ``TestUtils`` (seeded random values), for a test that fails with the probe's."""

    def rand(self, *sizes: int, low: float = 0.0, high: float = 1.0) -> Any:
        import torch

        return torch.empty(sizes).uniform_(low, high)

    def randint(self, *sizes: int, low: int = 0, high: int = 10, dtype: Any = None) -> Any:
        import torch

        return torch.randint(low, high, sizes, dtype=dtype or torch.int64)


class Registered:
    """One ``register_test_case`` of the suite."""

    def __init__(self, name: str, factory: Callable[[], Any], invoker: Callable[..., None], file: str,
                 timeout: int) -> None:
        self.name, self.factory, self.invoker, self.file, self.timeout = name, factory, invoker, file, timeout


class _Timeout(Exception):
    pass


@contextlib.contextmanager
def deadline(seconds: int) -> Iterator[None]:
    """Raise :class:`_Timeout` in this (main) thread after ``seconds``, as the suite's own runner gives
    each test its ``timeout_seconds`` (its ``TimeOutModule`` loops for ever)."""
    def expire(signum: int, frame: Any) -> None:
        raise _Timeout(f"no answer within {seconds} s (the test's timeout)")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def load_suite(checkout: Path) -> tuple[list[Registered], dict[str, str]]:
    """Import the suite's test modules from ``checkout``: the tests, and the modules that did not import
    (module name -> why)."""
    root = checkout / SUITE
    if not (root / "test_suite").is_dir():
        raise SystemExit(f"{checkout} has no {SUITE}/test_suite: pass the root of a llvm/torch-mlir checkout "
                         "(git archive HEAD projects/pt1/python | tar -x -C DIR)")
    tests: list[Registered] = []
    current = {"file": ""}

    def register_test_case(module_factory: Callable[[], Any], timeout_seconds: int = 120) -> Callable[..., Any]:
        def decorator(f: Callable[..., None]) -> Callable[..., None]:
            tests.append(Registered(f.__name__, module_factory, f, current["file"], timeout_seconds))
            return f
        return decorator

    package = types.ModuleType("torch_mlir_e2e_test")
    package.__path__ = [str(root)]
    suite = types.ModuleType("torch_mlir_e2e_test.test_suite")
    suite.__path__ = [str(root / "test_suite")]
    framework = types.ModuleType("torch_mlir_e2e_test.framework")
    framework.TestUtils = ProbeUtils  # type: ignore[attr-defined]
    registry = types.ModuleType("torch_mlir_e2e_test.registry")
    registry.register_test_case = register_test_case  # type: ignore[attr-defined]
    sys.modules.update({"torch_mlir_e2e_test": package, "torch_mlir_e2e_test.test_suite": suite,
                        "torch_mlir_e2e_test.framework": framework, "torch_mlir_e2e_test.registry": registry})
    failed: dict[str, str] = {}
    for path in sorted((root / "test_suite").glob("*.py")):
        if path.name == "__init__.py":
            continue
        current["file"] = path.name
        try:
            importlib.import_module(f"torch_mlir_e2e_test.test_suite.{path.stem}")
        except Exception as e:  # noqa: BLE001 - a module that needs what is not installed (torchvision)
            failed[path.name] = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
    return tests, failed


def _literals(module: Any) -> tuple[float, ...]:
    """The numeric literals of ``module.forward``'s source (``torch.gt(x, 0.6)`` gives 0.6)."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(type(module).forward)))
    except (OSError, TypeError, SyntaxError, IndentationError):
        return ()
    found = {node.value for node in ast.walk(tree)
             if isinstance(node, ast.Constant) and type(node.value) in (int, float)}
    return tuple(sorted(found))


class _Recorder:
    """The module as the invoker sees it: the first call of one of its methods is recorded."""

    def __init__(self, module: Any, calls: list[tuple[str, tuple[Any, ...]]]) -> None:
        self._module, self._calls = module, calls

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._module, name)

        def call(*args: Any, **kwargs: Any) -> Any:
            import torch

            if not self._calls:
                self._calls.append((name, tuple(a.clone() if isinstance(a, torch.Tensor) else a for a in args)))
            if kwargs:
                raise _Unsupported("a call with keyword arguments")
            return method(*args)

        return call


class _Unsupported(Exception):
    pass


def _clone(args: tuple[Any, ...]) -> tuple[Any, ...]:
    import torch

    return tuple(a.clone() if isinstance(a, torch.Tensor) else a for a in args)


def _capture(test: Registered, utils: Callable[[tuple[float, ...]], ProbeUtils]) -> tuple[Any, tuple[Any, ...]]:
    """The test's module and the arguments of its first ``forward`` call."""
    module = test.factory()
    calls: list[tuple[str, tuple[Any, ...]]] = []
    try:
        test.invoker(_Recorder(module, calls), utils(_literals(module)))
    except (_Timeout, _Unsupported):
        raise
    except Exception:  # noqa: BLE001 - the recorded call is run again under the Oracle, and judged there
        if not calls:
            raise
    if not calls:
        raise _Unsupported("the invoker calls nothing")
    method, args = calls[0]
    if method != "forward":
        raise _Unsupported(f"the invoker calls {method}, not forward")
    return module, args


def _eager(module: Any, args: tuple[Any, ...]) -> tuple[Any, Any]:
    """PyTorch eager's outputs of ``module(*args)``, and the Oracle that watched it."""
    import torch
    from torch_mlir_corpus import Oracle

    oracle = Oracle()
    torch.manual_seed(0)
    with torch.no_grad(), oracle:
        outputs = copy.deepcopy(module).forward(*_clone(args))
    return outputs, oracle


def _draws_random_numbers(module: Any, args: tuple[Any, ...], outputs: Any) -> bool:
    """Whether ``module(*args)`` gives other outputs under another seed (``rand``, ``dropout``,
    ``bernoulli``): XLA's generator is not PyTorch's, so no run can match eager's numbers."""
    import torch

    torch.manual_seed(1)
    with torch.no_grad():
        again = copy.deepcopy(module).forward(*_clone(args))
    first = outputs if isinstance(outputs, (tuple, list)) else (outputs,)
    second = again if isinstance(again, (tuple, list)) else (again,)

    def same(a: Any, b: Any) -> bool:
        if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)) or a.shape != b.shape:
            return True  # not tensors of one shape: nothing to tell
        if torch.equal(a, b):
            return True
        return bool((a.is_floating_point() or a.is_complex()) and torch.allclose(a, b, rtol=0, atol=0, equal_nan=True))

    return not all(same(a, b) for a, b in zip(first, second))


def export(checkout: Path, out: Path, select: str, patterns: list[str]) -> int:
    """Step 1 (under torch): write ``out/NAME.mlir``, ``out/reference.npz`` and ``out/manifest.json``."""
    import numpy as np
    import torch
    from torch_mlir import fx
    from torch_mlir_corpus import record

    tests, not_imported = load_suite(checkout)
    out.mkdir(parents=True, exist_ok=True)
    manifest: dict[str, Any] = {"torch": torch.__version__, "checkout": str(checkout), "select": select,
                                "tests": len(tests), "not_imported": not_imported, "programs": {}, "skipped": {}}
    arrays: dict[str, Any] = {}
    faulthandler.register(signal.SIGUSR1)  # kill -USR1 PID prints where a test hangs
    for test in tests:
        if patterns and not any(p in test.name or p in test.file for p in patterns):
            continue
        print(f"{test.file}: {test.name}", file=sys.stderr, flush=True)
        skipped = manifest["skipped"]
        probe = True
        try:
            with deadline(test.timeout):
                module, args = _capture(test, ProbeUtils)
                try:
                    outputs, oracle = _eager(module, args)
                except _Timeout:
                    raise
                except Exception:  # noqa: BLE001 - the probe's values are outside what the test takes
                    probe = False
                    module, args = _capture(test, SuiteUtils)
                    outputs, oracle = _eager(module, args)
        except _Unsupported as e:
            skipped[test.name] = str(e)
            continue
        except Exception as e:  # noqa: BLE001 - reported, and the test left out
            skipped[test.name] = f"eager: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
            continue
        sites = oracle.sites
        if select == "eager" and not any(s["op"] in SIMILAR for s in sites):
            continue  # no comparison, where, clamp, maximum or minimum meets a 0-d value in eager
        outputs = outputs if isinstance(outputs, (tuple, list)) else (outputs,)
        if not all(isinstance(a, torch.Tensor) for a in (*args, *outputs)):
            skipped[test.name] = "an input or output is not a tensor"
            continue
        try:
            with torch.no_grad(), deadline(test.timeout):
                text = str(fx.export_and_import(module, *_clone(args), output_type="stablehlo"))
        except Exception as e:  # noqa: BLE001 - torch-mlir cannot lower it: reported
            first = next((ln for ln in str(e).splitlines() if ln.strip()), "")
            skipped[test.name] = f"torch-mlir: {type(e).__name__}: {first[:300]}"
            continue
        (out / f"{test.name}.mlir").write_text(text)
        try:
            with deadline(test.timeout):
                random = _draws_random_numbers(module, args, outputs)
        except Exception:  # noqa: BLE001 - the second run failed: not judged as random
            random = False
        entry: dict[str, Any] = {"file": test.file, "probe_values": probe, "random": random, "inputs": [], "outputs": [],
                                 "oracle": sorted(oracle.types),
                                 "compare_pairs": sorted(list(p) for p in oracle.compare_pairs),
                                 "explicit_conversions": oracle.explicit_conversions, "sites": sites}
        record(arrays, test.name, args, outputs, entry)
        manifest["programs"][test.name] = entry
    np.savez_compressed(out / "reference.npz", **arrays)
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    return 0


# -- judge (latticecast) ---------------------------------------------------------------------------------


def _arrays(refs: Any, name: str, which: str, dtypes: list[str]) -> list[Any]:
    import ml_dtypes
    import numpy as np

    out = []
    for i, d in enumerate(dtypes):
        a = refs[f"{name}/{which}{i}"]
        out.append(a.view(ml_dtypes.bfloat16) if d == "bfloat16" else a.astype(np.dtype(d), copy=False))
    return out


TOLERANCE = {"float64": 1e-12, "float32": 1e-6, "float16": 2e-3, "bfloat16": 1e-2}


def disagreement(got: list[Any], expected: list[Any]) -> str | None:
    """``None`` when the outputs are eager's (dtype, shape, and values: exactly for integers and bools, to
    a rounding of the dtype for floats), else what differs."""
    import numpy as np

    if len(got) != len(expected):
        return f"{len(got)} outputs, PyTorch has {len(expected)}"
    for i, (g, w) in enumerate(zip(got, expected)):
        g = np.asarray(g)
        if g.dtype != w.dtype or g.shape != w.shape:
            return f"output {i}: {g.dtype}{list(g.shape)}, PyTorch has {w.dtype}{list(w.shape)}"
        tol = TOLERANCE.get(w.dtype.name)
        same = (np.array_equal(g, w) if tol is None else
                np.allclose(g.astype(np.float64), w.astype(np.float64), rtol=tol, atol=tol, equal_nan=True))
        if not same:
            flat_g, flat_w = g.reshape(-1), w.reshape(-1)
            bad = int(np.flatnonzero(flat_g != flat_w)[0]) if tol is None else int(np.flatnonzero(
                ~np.isclose(flat_g.astype(np.float64), flat_w.astype(np.float64), rtol=tol, atol=tol,
                            equal_nan=True))[0])
            return f"output {i}[{bad}]: {flat_g[bad].item()!r}, PyTorch has {flat_w[bad].item()!r}"
    return None


def _run(module: Any, inputs: list[Any], expected: list[Any]) -> tuple[str | None, list[Any] | None]:
    """``None`` when ``module`` computes eager's outputs, else what differs; and the outputs (``None`` when it
    does not run). torch-mlir returns the inputs a program mutates before its outputs (torch.export's
    signature): the last outputs are compared."""
    import latticecast as lc

    try:
        got = list(lc.compile(module)(*inputs))
    except Exception as e:  # noqa: BLE001 - a module XLA refuses is a disagreement, with its reason
        return f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}", None
    if len(got) > len(expected):
        got = got[len(got) - len(expected):]
    return disagreement(got, expected), got


def _same_outputs(a: list[Any] | None, b: list[Any] | None) -> bool:
    import numpy as np

    if a is None or b is None or len(a) != len(b):
        return False
    return all(np.asarray(x).dtype == np.asarray(y).dtype and np.array_equal(
        x, y, equal_nan=np.asarray(x).dtype.kind in "fc") for x, y in zip(a, b))


def _recover(text: str, entry: dict[str, Any], mark_weak: bool) -> tuple[Any, dict[str, Any]]:
    """torch-mlir's module with its promotion converts removed and put back by ``implicit-cast{policy=torch}``
    (``None`` and the pass's error if it refuses), and what that did."""
    from latticecast import DType
    from latticecast.dialect_utils.parsing import parse_module
    from latticecast.passes import run_pipeline
    from torch_mlir_promotions import strip_promotion_converts, zero_d_compare_sites

    module = parse_module(text, lenient=True)
    oracle = {DType.parse(d) for d in entry["oracle"]}
    own = entry["explicit_conversions"]  # the program converts dtypes itself: only the oracle's converts go
    pairs = [] if own else [[DType.parse(d) for d in p] for p in entry["compare_pairs"]]
    done: dict[str, Any] = {}
    done["removed"], done["weak"] = strip_promotion_converts(module, oracle, pairs, zero_d_compares=not own,
                                                             mark_weak=mark_weak)
    done["to_decide"] = [s["to_decide"] for s in zero_d_compare_sites(module)]
    try:
        passes = run_pipeline(module, "builtin.module(implicit-cast{policy=torch})").passes
    except Exception as e:  # noqa: BLE001 - the pass refused: its diagnostics say why
        done["error"] = "implicit-cast: " + " ".join(str(e).split())[:400]
        done["remarks"] = []
        return None, done
    done["remarks"] = [d.message for p in passes for d in p.diagnostics if d.severity == "remark"]
    return module, done


def judge_one(name: str, entry: dict[str, Any], text: str, refs: Any) -> dict[str, Any]:
    """The runs of one exported module, its comparisons against a 0-d value, and what the pass did.

    ``as_lowered``: torch-mlir's module. ``recovered``: its promotion converts removed and put back by the
    pass, the Python scalars they converted marked weak. ``recovered_0d``: the same with those constants
    left strong, so that every broadcast 0-d value is read by the 0-d rule alone (run only where it
    differs). Each is ``None`` when it computes eager's outputs, else what differs; a module that prints as
    torch-mlir's runs once. ``*_as_torch_mlir``: whether that run's outputs are exactly torch-mlir's."""
    from latticecast.dialect_utils.parsing import parse_module
    from torch_mlir_promotions import zero_d_compare_sites

    inputs = _arrays(refs, name, "in", entry["inputs"])
    expected = _arrays(refs, name, "out", entry["outputs"])
    original = parse_module(text, lenient=True)
    printed = str(original)
    found: dict[str, Any] = {"sites": zero_d_compare_sites(original)}
    found["as_lowered"], lowered = _run(original, inputs, expected)
    for key, mark_weak in (("recovered", True), ("recovered_0d", False)):
        if not mark_weak and found["weak"] == 0:  # no constant made weak: the same module
            found.update(recovered_0d=found["recovered"], recovered_0d_remarks=found["remarks"],
                         recovered_0d_as_torch_mlir=found["recovered_as_torch_mlir"])
            continue
        module, done = _recover(text, entry, mark_weak)
        result, outputs = done.pop("error", None), None
        if result is None:
            result, outputs = ((found["as_lowered"], lowered) if str(module) == printed
                               else _run(module, inputs, expected))
        found[key] = result
        found[key + "_as_torch_mlir"] = (_same_outputs(outputs, lowered) or  # or refused as torch-mlir's is
                                         (outputs is None and lowered is None and result == found["as_lowered"]))
        if mark_weak:
            found.update(removed=done["removed"], weak=done["weak"], remarks=done["remarks"])
            for site, to_decide in zip(found["sites"], done["to_decide"]):
                site["to_decide"] = to_decide
        else:
            found[key + "_remarks"] = done["remarks"]
    return found


def _verdict(entry: dict[str, Any], found: dict[str, Any], key: str) -> str:
    """What the run ``key`` says of a module's comparisons: ``agree`` (eager's outputs), ``random`` (the
    program draws random numbers, which XLA draws otherwise), ``torch-mlir`` (the recovered module computes
    exactly the outputs of torch-mlir's, which disagree with eager: torch-mlir's lowering of some op), or
    ``disagree``."""
    if found[key] is None:
        return "agree"
    if entry.get("random"):
        return "random"
    if found.get(key + "_as_torch_mlir") and found["as_lowered"] is not None:
        return "torch-mlir"
    return "disagree"


VERDICTS = ("agree", "random", "torch-mlir", "disagree")


def summarize(manifest: dict[str, Any], results: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The counts the tool prints: tests, exports, comparison sites against a 0-d value and their verdicts."""
    sites: dict[str, Any] = dict.fromkeys(("total", "constant", "tensor", "mixed", "decided"), 0)
    for key in ("recovered", "recovered_0d", "as_lowered"):
        sites[key] = dict.fromkeys(VERDICTS, 0)
    sites["mixed_recovered"] = dict.fromkeys(VERDICTS, 0)
    modules_with_sites = 0
    disagreeing: dict[str, dict[str, Any]] = {}
    for name, found in results.items():
        entry = manifest["programs"][name]
        verdicts = {key: _verdict(entry, found, key) for key in ("recovered", "recovered_0d")}
        verdicts["as_lowered"] = "agree" if found["as_lowered"] is None else \
            "random" if entry.get("random") else "disagree"
        modules_with_sites += bool(found["sites"])
        for site in found["sites"]:
            sites["total"] += 1
            sites[site["kind"]] += 1
            sites["mixed"] += site["mixed"]
            sites["decided"] += site["to_decide"]
            for key, verdict in verdicts.items():
                sites[key][verdict] += 1
            if site["mixed"]:
                sites["mixed_recovered"][verdicts["recovered"]] += 1
        if found["recovered"] is not None or found["recovered_0d"] is not None or found["as_lowered"] is not None:
            disagreeing[name] = {
                "file": entry["file"], "verdict": verdicts["recovered"], "recovered": found["recovered"],
                "recovered_0d": found["recovered_0d"], "as_lowered": found["as_lowered"],
                "sites": [f"{s['kind']} {s['dtypes'][0]} against {s['dtypes'][1]}" for s in found["sites"]]}
    return {"tests": manifest["tests"], "not_imported": manifest["not_imported"], "select": manifest["select"],
            "exported": len(manifest["programs"]), "skipped": manifest["skipped"],
            "modules_with_sites": modules_with_sites,
            "modules": {key: sum(_verdict(manifest["programs"][n], r, key) == "agree" for n, r in results.items())
                        for key in ("recovered", "recovered_0d", "as_lowered")},
            "remarks": {"recovered": sum(len(r["remarks"]) for r in results.values()),
                        "recovered_0d": sum(len(r["recovered_0d_remarks"]) for r in results.values())},
            "comparison_sites_against_0d": sites, "disagreeing": disagreeing}


def judge(directory: Path) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    import numpy as np

    manifest = json.loads((directory / "manifest.json").read_text())
    refs = dict(np.load(directory / "reference.npz"))
    results = {name: judge_one(name, entry, (directory / f"{name}.mlir").read_text(), refs)
               for name, entry in manifest["programs"].items()}
    return manifest, results


def report(summary: dict[str, Any]) -> Iterator[str]:
    s = summary["comparison_sites_against_0d"]
    chosen = "every test" if summary["select"] == "all" else "the tests whose eager run meets a 0-d value"
    yield (f"{summary['tests']} tests registered ({len(summary['not_imported'])} test modules not imported); "
           f"{summary['exported']} of {chosen} lowered by torch-mlir and run, {len(summary['skipped'])} left out")
    yield (f"comparison sites against a 0-d value in torch-mlir's StableHLO: {s['total']} in "
           f"{summary['modules_with_sites']} modules ({s['constant']} against a constant or Python scalar, "
           f"{s['tensor']} against a 0-d tensor); {s['mixed']} of another dtype; {s['decided']} decided by "
           f"implicit-cast (their operands' dtypes differ once the promotion converts are removed)")

    def said(counts: dict[str, int]) -> str:
        return (f"{counts['agree']} agree with PyTorch eager, {counts['random']} in programs that draw random "
                f"numbers, {counts['torch-mlir']} in modules that compute exactly what torch-mlir's does, "
                f"which disagrees with eager, {counts['disagree']} disagree")

    yield f"  recovered by implicit-cast --policy torch: {said(s['recovered'])}"
    yield f"    of another dtype: {said(s['mixed_recovered'])}"
    yield f"  recovered, the constants left strong 0-d values (the 0-d rule alone): {said(s['recovered_0d'])}"
    yield (f"  as torch-mlir lowered them: {s['as_lowered']['agree']} agree, {s['as_lowered']['random']} random, "
           f"{s['as_lowered']['disagree']} disagree")
    m = summary["modules"]
    yield (f"modules agreeing with eager: recovered {m['recovered']}, strong constants {m['recovered_0d']}, as "
           f"lowered {m['as_lowered']}, of {summary['exported']}; remarks of the pass: "
           f"{summary['remarks']['recovered']} (strong constants: {summary['remarks']['recovered_0d']})")
    for name, d in sorted(summary["disagreeing"].items()):
        yield (f"  {name} ({d['file']}) [{d['verdict']}]: recovered: {d['recovered'] or 'agrees'}; strong constants: "
               f"{d['recovered_0d'] or 'agrees'}; as lowered: {d['as_lowered'] or 'agrees'}")
        if d["sites"]:
            yield f"      comparisons against a 0-d value: {'; '.join(d['sites'])}"
    for name, why in sorted(summary["not_imported"].items()):
        yield f"  not imported: {name}: {why}"
    for name, why in sorted(summary["skipped"].items()):
        yield f"  left out: {name}: {why}"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "export":  # step 1, in the torch interpreter
        sys.path.insert(0, str(HERE))
        p = argparse.ArgumentParser(prog="torch_mlir_e2e.py export")
        p.add_argument("checkout", type=Path)
        p.add_argument("out", type=Path)
        p.add_argument("--select", default="all")
        p.add_argument("-k", dest="patterns", action="append", default=[])
        a = p.parse_args(argv[1:])
        return export(a.checkout, a.out, a.select, a.patterns)
    p = argparse.ArgumentParser(prog="torch_mlir_e2e.py", description=__doc__.split("\n\n")[0])
    p.add_argument("checkout", type=Path, help="a llvm/torch-mlir checkout (or git archive of projects/pt1/python)")
    p.add_argument("--torch-python", default=os.environ.get("LATTICECAST_TORCH_PYTHON", TORCH_PYTHON),
                   help="the interpreter with torch 2.13 and torch-mlir (default: $LATTICECAST_TORCH_PYTHON, "
                        f"else {TORCH_PYTHON})")
    p.add_argument("--select", choices=("all", "eager"), default="all",
                   help="the tests lowered: every test (default; its comparisons against a 0-d value are found in "
                        "torch-mlir's IR, decompositions' included), or only those whose eager run compares (or "
                        "where/clamp/maximum/minimum) against a 0-d value or Python scalar (faster)")
    p.add_argument("-k", dest="patterns", action="append", default=[],
                   help="only the tests whose name or file contains this (repeatable)")
    p.add_argument("--keep", type=Path, help="export into this directory and keep it")
    p.add_argument("--out", type=Path, help="write the summary as JSON here")
    a = p.parse_args(argv)
    if not (a.checkout / SUITE / "test_suite").is_dir():
        print(f"torch_mlir_e2e.py: {a.checkout} has no {SUITE}/test_suite: pass the root of a llvm/torch-mlir "
              "checkout (git archive HEAD projects/pt1/python | tar -x -C DIR)", file=sys.stderr)
        return 2
    sys.path.insert(0, str(HERE))
    with tempfile.TemporaryDirectory() as tmp:
        directory = a.keep or Path(tmp)
        start = time.monotonic()
        cmd = [a.torch_python, str(Path(__file__).resolve()), "export", str(a.checkout), str(directory),
               "--select", a.select, *(x for k in a.patterns for x in ("-k", k))]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True)
        except OSError as e:
            print(f"torch_mlir_e2e.py: cannot run {a.torch_python}: {e}; pass --torch-python", file=sys.stderr)
            return 2
        if proc.returncode != 0:
            print(f"torch_mlir_e2e.py: the export under {a.torch_python} failed:\n{proc.stderr[-3000:]}",
                  file=sys.stderr)
            return 1
        exported = time.monotonic() - start
        try:
            manifest, results = judge(directory)
        except Exception:  # noqa: BLE001 - a bug here: say where, not only that
            traceback.print_exc()
            return 1
    summary = summarize(manifest, results)
    summary["seconds"] = {"export": round(exported, 1), "judge": round(time.monotonic() - start - exported, 1)}
    for line in report(summary):
        print(line)
    if a.out:
        a.out.write_text(json.dumps({"summary": summary, "results": results}, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
