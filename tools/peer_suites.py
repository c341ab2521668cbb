"""Run the peers' own promotion tests against latticecast: the expectations are the test files' own.

    python tools/peer_suites.py jax CHECKOUT            # jax-ml/jax: tests/dtypes_test.py, x64 off and on
    python tools/peer_suites.py numpy CHECKOUT          # numpy/numpy: its promotion tests
    python tools/peer_suites.py array-api-tests CHECKOUT --spec SPEC_CHECKOUT
    python tools/peer_suites.py torch CHECKOUT_OR_FILE  # PyTorch's test/test_type_promotion.py
    python tools/peer_suites.py SUITE ... --json OUT    # the per-test report as JSON too

CHECKOUT is a checkout of the peer's repository, or its git directory (a bare clone, as ``fetch``
brings): files are then read with ``git show REF:path``. ``--ref`` picks the revision (default: the
tag of the library version installed, where the repository has it, else HEAD). SPEC_CHECKOUT is
data-apis/array-api, the standard's repository, which array-api-tests reads its signatures from (its
submodule, at the commit array-api-tests pins).

Nothing of a checkout is copied into the project: the files needed are written to a temporary
directory for the run and removed afterwards. The tests run under pytest with the plugin
``tools/peer_standins.py``, which makes the library ask latticecast for every promotion the test asks
it for and records every assertion made after such a question as a cell: agree, disagree, or not
expressible in latticecast (with the reason). The PyTorch suite runs in the interpreter that has torch
(this one, or ``$LATTICECAST_TORCH_PYTHON``), with latticecast's promotion layer on its path.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

TOOLS = Path(__file__).resolve().parent
SRC = TOOLS.parent / "src"


# -- reading a checkout --------------------------------------------------------------------------------


class Checkout:
    """A peer's repository: a work tree, or a git directory read at ``ref``."""

    def __init__(self, path: Path, ref: str | None = None) -> None:
        self.path = path.expanduser().resolve()
        if not self.path.exists():
            raise SystemExit(f"peer_suites: {path}: no such checkout; give the path of a checkout or of a git "
                             "directory (fetch brings one)")
        self.git = self._git_dir()
        self.ref = ref or "HEAD"

    def _git_dir(self) -> Path | None:
        for candidate in (self.path, self.path / ".git"):
            if (candidate / "HEAD").is_file() and (candidate / "objects").is_dir():
                return candidate
        return None

    def read(self, path: str) -> bytes:
        if self.git is not None and (self.ref != "HEAD" or not (self.path / path).exists()):
            proc = subprocess.run(["git", "--git-dir", str(self.git), "show", f"{self.ref}:{path}"],
                                  capture_output=True)
            if proc.returncode != 0:
                raise SystemExit(f"peer_suites: {path} is not in {self.path} at {self.ref}: "
                                 f"{proc.stderr.decode(errors='replace').strip()}")
            return proc.stdout
        file = self.path / path
        if not file.is_file():
            raise SystemExit(f"peer_suites: {file}: missing; is {self.path} a checkout of the right repository?")
        return file.read_bytes()

    def listdir(self, path: str) -> list[str]:
        if self.git is not None and (self.ref != "HEAD" or not (self.path / path).exists()):
            proc = subprocess.run(["git", "--git-dir", str(self.git), "ls-tree", "-r", "--name-only", self.ref,
                                   path], capture_output=True, text=True, check=True)
            return proc.stdout.split()
        return [str(p.relative_to(self.path)) for p in (self.path / path).rglob("*") if p.is_file()]

    def has_ref(self, ref: str) -> bool:
        if self.git is None:
            return False
        return subprocess.run(["git", "--git-dir", str(self.git), "rev-parse", "--verify", "-q", ref + "^{commit}"],
                              capture_output=True).returncode == 0

    def tags(self) -> list[str]:
        if self.git is None:
            return []
        return subprocess.run(["git", "--git-dir", str(self.git), "tag"], capture_output=True, text=True).stdout.split()


def matching_ref(checkout: Checkout, prefix: str, version: str) -> str:
    """The tag of ``version`` (``prefix + version``), else the newest tag of the same major.minor at or
    below it, else HEAD."""
    exact = prefix + version
    if checkout.has_ref(exact):
        return exact
    numbers = tuple(int(x) for x in re.findall(r"\d+", version)[:3])
    best: tuple[tuple[int, ...], str] | None = None
    for tag in checkout.tags():
        m = re.fullmatch(re.escape(prefix) + r"(\d+)\.(\d+)\.(\d+)", tag)
        if m:
            t = tuple(int(x) for x in m.groups())
            if t[:2] == numbers[:2] and t <= numbers and (best is None or t > best[0]):
                best = (t, tag)
    return best[1] if best else "HEAD"


# -- the suites ------------------------------------------------------------------------------------------


@dataclass
class Run:
    """One pytest run of a suite: the files (``(path in checkout, path in the run directory)``), the
    interpreter, the environment, and the pytest selection."""

    label: str
    files: list[tuple[Checkout, str, str]]
    targets: list[str]
    python: str = sys.executable
    env: dict[str, str] = field(default_factory=dict)
    pytest_args: list[str] = field(default_factory=list)


def installed_version(python: str, module: str) -> str:
    out = subprocess.run([python, "-c", f"import {module}; print({module}.__version__)"], capture_output=True,
                         text=True)
    if out.returncode != 0:
        raise SystemExit(f"peer_suites: {module} is not importable by {python}; install it there")
    return out.stdout.strip()


def jax_runs(args: argparse.Namespace) -> list[Run]:
    checkout = Checkout(args.checkout)
    checkout.ref = args.ref or matching_ref(checkout, "jax-v", installed_version(sys.executable, "jax"))
    files = [(checkout, "tests/dtypes_test.py", "jax_peer/dtypes_test.py")]
    return [Run(f"jax ({checkout.ref}, x64 {'on' if x64 else 'off'})", files, ["jax_peer/dtypes_test.py"],
                env={"JAX_ENABLE_X64": "1" if x64 else "0"},
                pytest_args=["-k", "TestPromotionTables or DtypesTest"])
            for x64 in (False, True)]


NUMPY_FILES = ("numpy/_core/tests/test_numeric.py", "numpy/_core/tests/test_dtype.py",
               "numpy/_core/tests/test_nep50_promotions.py")


def numpy_runs(args: argparse.Namespace) -> list[Run]:
    checkout = Checkout(args.checkout)
    checkout.ref = args.ref or matching_ref(checkout, "v", installed_version(sys.executable, "numpy"))
    files = [(checkout, f, "numpy_peer/" + Path(f).name) for f in NUMPY_FILES]
    return [Run(f"numpy ({checkout.ref})", files, [dest for _, _, dest in files],
                pytest_args=["-k", "promot or result_type or Promotion or coercion or nep50 or NEP50"])]


def array_api_tests_runs(args: argparse.Namespace) -> list[Run]:
    checkout = Checkout(args.checkout, args.ref)
    if args.spec is None:
        raise SystemExit("peer_suites: array-api-tests reads the standard's signatures from data-apis/array-api: "
                         "give its checkout with --spec")
    spec = Checkout(args.spec)
    pinned = subprocess.run(["git", "--git-dir", str(checkout.git), "ls-tree", checkout.ref, "array-api"],
                            capture_output=True, text=True).stdout.split() if checkout.git else []
    spec.ref = pinned[2] if len(pinned) >= 3 and spec.has_ref(pinned[2]) else "HEAD"
    files = [(checkout, f, f) for f in checkout.listdir("array_api_tests") if f.endswith(".py")]
    for part in ("spec/2024.12/API_specification", "src/array_api_stubs"):
        files += [(spec, f, "array-api/" + f) for f in spec.listdir(part) if f.endswith((".py", ".rst", ".md"))]
    return [Run(f"array-api-tests ({checkout.ref}; standard {spec.ref[:10]}, 2024.12)", files,
                ["array_api_tests/test_data_type_functions.py"],
                env={"ARRAY_API_TESTS_MODULE": "peer_standins.array_api_namespace",
                     "ARRAY_API_TESTS_VERSION": "2024.12"},
                pytest_args=["-k", "TestResultType or test_can_cast"])]


def torch_runs(args: argparse.Namespace) -> list[Run]:
    python = os.environ.get("LATTICECAST_TORCH_PYTHON", sys.executable)
    path = Path(args.checkout).expanduser()
    if path.is_file():
        checkout, name = Checkout(path.parent), path.name
    else:
        checkout, name = Checkout(path, args.ref), "test/test_type_promotion.py"
    installed_version(python, "torch")
    return [Run("torch (test_type_promotion.py)", [(checkout, name, "torch_peer/test_type_promotion.py")],
                ["torch_peer/test_type_promotion.py"], python=python, pytest_args=["-k", "cpu"])]


SUITES: dict[str, Callable[[argparse.Namespace], list[Run]]] = {
    "jax": jax_runs, "numpy": numpy_runs, "array-api-tests": array_api_tests_runs, "torch": torch_runs}


# -- running ----------------------------------------------------------------------------------------------


def run(suite: str, r: Run, examples: int) -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory(prefix="latticecast-peer-") as tmp:
        root = Path(tmp)
        for checkout, source, dest in r.files:
            target = root / dest
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(checkout.read(source))
        report = root / "report.json"
        env = {**os.environ, **r.env, "PEER_SUITE": suite, "PEER_ROOT": str(root), "PEER_REPORT": str(report),
               "PEER_EXAMPLES": str(examples),
               "PYTHONPATH": os.pathsep.join([str(TOOLS), str(SRC), str(root), os.environ.get("PYTHONPATH", "")])}
        cmd = [r.python, "-m", "pytest", "-p", "peer_standins", "--assert=plain", "-p", "no:cacheprovider",
               "-q", "--no-header", "-o", "addopts=", "-c", os.devnull, "--rootdir", str(root), "-W", "ignore",
               *r.pytest_args, *[str(root / t) for t in r.targets]]
        proc = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True)
        if not report.exists():
            raise SystemExit(f"peer_suites: {r.label}: pytest wrote no report (exit {proc.returncode}):\n"
                             f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
        records: list[dict[str, Any]] = json.loads(report.read_text())
        return records


@dataclass
class Summary:
    """The counts of one run."""

    label: str
    tests: int = 0
    asking: int = 0
    agree: int = 0
    disagree: int = 0
    inexpressible: int = 0
    message_differs: int = 0
    errors: list[str] = field(default_factory=list)
    reasons: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)

    def text(self) -> str:
        lines = [f"{self.label}: {self.tests} tests, {self.asking} asked latticecast; cells: {self.agree} agree, "
                 f"{self.disagree} disagree, {self.inexpressible} not expressible"
                 + (f" ({self.message_differs} refusals agree in kind, in latticecast's words)"
                    if self.message_differs else "")]
        for why, n in self.reasons.most_common():
            lines.append(f"  not expressible, {n} cells: {why}")
        for f in self.failures[:40]:
            lines.append(f"  DISAGREES {f}")
        for e in self.errors[:20]:
            lines.append(f"  ERROR {e}")
        return "\n".join(lines)


def summarize(label: str, records: list[dict[str, Any]]) -> Summary:
    s = Summary(label)
    for t in records:
        if t["outcome"] == "skipped" and not t["asked"]:
            continue
        s.tests += 1
        if not t["asked"]:
            continue
        s.asking += 1
        s.agree += t["agree"]
        s.disagree += t["disagree"]
        s.inexpressible += t["inexpressible"]
        s.message_differs += t["message_differs"]
        s.reasons.update(t["reasons"])
        s.failures += [f"{t['nodeid']}: {m}" for m in t["failures"] if not m.startswith("(not a promotion)")]
        if t["outcome"] == "error":
            s.errors.append(f"{t['nodeid']}: {t['error'].strip().splitlines()[-1] if t['error'].strip() else ''}")
    return s


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suite", choices=sorted(SUITES))
    parser.add_argument("checkout", type=Path, help="the peer's checkout or git directory (torch: also the test file)")
    parser.add_argument("--ref", help="the revision to read (default: the installed version's tag, else HEAD)")
    parser.add_argument("--spec", type=Path, help="array-api-tests: the checkout of data-apis/array-api")
    parser.add_argument("--examples", type=int, default=200, help="hypothesis examples per property test")
    parser.add_argument("--json", type=Path, help="write every test's record here")
    args = parser.parse_args(argv)
    summaries, everything = [], {}
    for r in SUITES[args.suite](args):
        records = run(args.suite, r, args.examples)
        everything[r.label] = records
        summaries.append(summarize(r.label, records))
        print(summaries[-1].text(), flush=True)
    if args.json:
        args.json.write_text(json.dumps(everything, indent=1))
    return 1 if any(s.disagree or s.errors for s in summaries) else 0


if __name__ == "__main__":
    sys.exit(main())
