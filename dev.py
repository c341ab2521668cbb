#!/usr/bin/env python3
"""Set up and run latticecast on a machine that has only Python and pip.

    python3 dev.py demo     # the main job: build a mixed-dtype graph, show the pass, run it
    python3 dev.py test     # every test: pytest, lit + FileCheck, the docs build, mypy, a bounded fixed-seed fuzz run
    python3 dev.py fuzz     # a long fuzz run of latticecast-opt and the Python API (fuzz/README.md)
    python3 dev.py bench    # the benchmarks in benchmarks/ (ratios against JAX, and the binding floor)
    python3 dev.py bench --against main [--quick]   # before a stop that touches a hot path: every row of
                            # bench on main and on this working tree, alternating in one run; exit 1
                            # when a row is slower than main beyond its noise (benchmarks/before_after.py)
    python3 dev.py docs     # the API reference (Sphinx) in build/docs/index.html, and its examples run
    python3 dev.py setup    # only make the environment

Each command first makes ``.venv`` (once) and installs the package with its test
dependencies into it (again whenever pyproject.toml or the interpreter changes). Extra
arguments go to the underlying tool: ``python3 dev.py test -k lattice`` runs a subset of
pytest (and ``--`` ends dev.py's own options: ``dev.py test -- ...``).

``--python 3.13`` (also ``3.12``, or the path of an interpreter) runs the command on that
Python instead of the one running dev.py, in its own environment ``.venv-3.13``, with the
newest jax/jaxlib that pip gives it within pyproject.toml's bounds. A version is looked
for in ``$(pyenv root)/versions/3.13.*/bin/python3``, then as ``python3.13`` on PATH;
exit code 3 when the interpreter asked for is not there.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent
MIN_PYTHON = (3, 11)  # pyproject.toml's requires-python: jaxlib 0.10.2 has no wheel for 3.10
COMMANDS = ("demo", "test", "bench", "fuzz", "docs", "setup")
PEER_CHECKOUTS = ("LATTICECAST_JAX_CHECKOUT", "LATTICECAST_NUMPY_CHECKOUT", "LATTICECAST_ARRAY_API_TESTS_CHECKOUT",
                  "LATTICECAST_PYTORCH_CHECKOUT")
"""Checkouts of the peers whose own promotion tests `dev.py test` then runs (tests/test_peer_suites.py)."""
NOT_FOUND = 3  # the exit code when the interpreter asked for with --python is not on this machine

# What an interpreter says of itself: major.minor, then the identity its environment is built for
# (a venv's Python reports its base interpreter's prefix, and the same version string).
_PROBE = "import sys; print('%d.%d' % sys.version_info[:2]); print(sys.base_prefix); print(sys.version)"


class Env:
    """An interpreter and the virtual environment dev.py keeps for it."""

    def __init__(self, python: str, version: str, identity: str, venv: Path) -> None:
        self.python, self.version, self.identity, self.venv = python, version, identity, venv
        self.bin = venv / ("Scripts" if os.name == "nt" else "bin")
        self.py = self.bin / ("python.exe" if os.name == "nt" else "python")
        self.stamp = venv / ".latticecast-installed"

    def tool(self, name: str) -> Path:
        return self.bin / (name + ".exe" if os.name == "nt" else name)


def fail(message: str, code: int = 1) -> None:
    print(f"dev.py: {message}", file=sys.stderr, flush=True)
    sys.exit(code)


def run(*cmd: str | Path, check: bool = True) -> int:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    return subprocess.run([str(c) for c in cmd], cwd=ROOT, check=check).returncode


TIMINGS = ROOT / "build" / "dev-timings.json"
"""How long each phase took last time, per environment: the ETA of its progress bar."""


class Phases:
    """The phases of a command (pytest, lit, the docs, mypy, the fuzzers), each with a progress bar
    and an ETA from its last run's time (tqdm, from the environment dev.py runs in). Where standard
    output is a terminal, a phase's output scrolls above its bar; elsewhere (CI logs) each phase
    gets one header line with its expected time and writes as it is."""

    def __init__(self, env: Env, names: list[str]) -> None:
        self.env, self.names = env, names
        self.key = env.venv.name
        try:
            self.times: dict[str, float] = json.loads(TIMINGS.read_text()).get(self.key, {})
        except (OSError, ValueError):
            self.times = {}

    def run(self, name: str, *cmd: str | Path) -> int:
        index = self.names.index(name) + 1 if name in self.names else 0
        expected = self.times.get(name)
        title = f"[{index}/{len(self.names)}] {name}" if index else name
        about = f" (about {expected:.0f} s last time)" if expected is not None else ""
        print(f"dev.py: {title}{about}: {' '.join(str(c) for c in cmd)}", flush=True)
        start = time.monotonic()
        try:
            from tqdm import tqdm
        except ImportError:  # dev.py before its environment exists
            tqdm = None
        if tqdm is None or not sys.stdout.isatty():
            code = subprocess.run([str(c) for c in cmd], cwd=ROOT).returncode
        else:
            code = self._with_bar(tqdm, title, expected, [str(c) for c in cmd])
        self._record(name, time.monotonic() - start)
        return code

    def _with_bar(self, tqdm: "type", title: str, expected: "float | None", cmd: list[str]) -> int:
        """Run ``cmd`` with its output above a bar of the seconds it is expected to take."""
        total = max(expected or 60.0, 1.0)
        bar = tqdm(total=round(total), desc=f"dev.py {title}", unit="s", dynamic_ncols=True, leave=False,
                   bar_format="{desc}: {percentage:3.0f}%|{bar}| {elapsed}<{remaining}" if expected
                   else "{desc}: {elapsed} (no time from an earlier run yet)")
        done = threading.Event()
        start = time.monotonic()

        def tick() -> None:
            while not done.wait(0.5):
                elapsed = time.monotonic() - start
                if elapsed >= bar.total:  # longer than last time: the bar waits at its end
                    bar.total = int(elapsed) + 5
                bar.n = int(elapsed)
                bar.refresh()

        ticker = threading.Thread(target=tick, daemon=True)
        ticker.start()
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                env=dict(os.environ, PY_COLORS="1", FORCE_COLOR="1"))
        assert proc.stdout is not None
        for raw in iter(proc.stdout.readline, b""):
            bar.write(raw.decode("utf-8", "replace").rstrip("\n"))
        code = proc.wait()
        done.set()
        ticker.join()
        bar.close()
        return code

    def _record(self, name: str, seconds: float) -> None:
        try:
            data = json.loads(TIMINGS.read_text()) if TIMINGS.exists() else {}
        except (OSError, ValueError):
            data = {}
        data.setdefault(self.key, {})[name] = round(seconds, 1)
        try:
            TIMINGS.parent.mkdir(parents=True, exist_ok=True)
            TIMINGS.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        except OSError:
            pass


def probe(python: str | Path) -> tuple[str, str] | None:
    """``(major.minor, identity)`` of an interpreter, or ``None`` when it does not run (a pyenv shim
    for a version that is not selected exits non-zero)."""
    try:
        out = subprocess.run([str(python), "-c", _PROBE], capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.SubprocessError):
        return None
    lines = out.stdout.splitlines()
    if out.returncode != 0 or len(lines) < 3:
        return None
    return lines[0], "\n".join(lines[1:])


def pyenv_root() -> Path | None:
    pyenv = shutil.which("pyenv")
    if pyenv:
        try:
            out = subprocess.run([pyenv, "root"], capture_output=True, text=True, timeout=60)
            if out.returncode == 0 and out.stdout.strip():
                return Path(out.stdout.strip())
        except (OSError, subprocess.SubprocessError):
            pass
    root = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv")
    return root if root.is_dir() else None


def candidates(version: str) -> list[str]:
    """Where Python ``version`` (``"3.13"``) may be: pyenv's builds of it, newest patch first, then
    ``python3.13`` on PATH."""
    found: list[str] = []
    root = pyenv_root()
    if root is not None:
        builds = []
        for path in (root / "versions").glob(version + ".*"):
            patch = re.fullmatch(re.escape(version) + r"\.(\d+)", path.name)
            python = path / "bin" / "python3"
            if patch and python.exists():
                builds.append((int(patch.group(1)), str(python)))
        found += [python for _, python in sorted(builds, reverse=True)]
    on_path = shutil.which("python" + version)
    if on_path:
        found.append(on_path)
    return found


def find_env(spec: str | None) -> Env:
    """The interpreter to run on, and its environment: the one running dev.py and ``.venv`` by
    default; for ``--python 3.13`` or ``--python PATH``, that interpreter and ``.venv-3.13``."""
    if spec is None:
        version = "%d.%d" % sys.version_info[:2]
        if sys.version_info < MIN_PYTHON:
            fail(f"latticecast needs Python {'%d.%d' % MIN_PYTHON} or newer; this is {sys.version.split()[0]} "
                 f"(or run on another one: python3 dev.py COMMAND --python 3.13)")
        return Env(sys.executable, version, f"{sys.base_prefix}\n{sys.version}", ROOT / ".venv")
    if re.fullmatch(r"\d+\.\d+", spec):
        for python in candidates(spec):
            found = probe(python)
            if found is not None and found[0] == spec:
                break
        else:
            fail(f"no Python {spec} found (looked for $(pyenv root)/versions/{spec}.*/bin/python3 and python{spec} "
                 f"on PATH); install it, or pass an interpreter's path: --python /path/to/python{spec}", NOT_FOUND)
    else:
        python = str(Path(spec).expanduser()) if os.sep in spec else (shutil.which(spec) or spec)
        found = probe(python)
        if found is None:
            fail(f"--python {spec}: not a Python interpreter that runs here", NOT_FOUND)
    version, identity = found
    if tuple(int(n) for n in version.split(".")) < MIN_PYTHON:
        fail(f"latticecast needs Python {'%d.%d' % MIN_PYTHON} or newer; {python} is Python {version}")
    return Env(python, version, identity, ROOT / f".venv-{version}")


def stamp_for(env: Env) -> str:
    """What an environment is current for: its interpreter and pyproject.toml."""
    pyproject = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    return f"python {env.identity}\npyproject.toml {pyproject}\n"


def ensure_env(env: Env) -> None:
    """Create the virtual environment and install the package, unless already current (the stamp
    records the interpreter and the pyproject.toml it was installed from)."""
    want = stamp_for(env)
    if env.py.exists() and env.stamp.exists() and env.stamp.read_text() == want:
        return
    made = probe(env.py) if env.py.exists() else None
    if made is None or made[1] != env.identity:  # none yet, or made by another interpreter: start afresh
        print(f"creating {env.venv.relative_to(ROOT)} with {env.python} (Python {env.version}) ...", flush=True)
        run(env.python, "-m", "venv", "--clear", env.venv)
    run(env.py, "-m", "pip", "install", "--disable-pip-version-check", "-q", "-e", ".[test]")
    env.stamp.write_text(want)


# The bounded run that every `dev.py test` makes (fixed seeds, under two minutes here), and the
# long one of `dev.py fuzz`; both report findings in build/fuzz/ and fail on any.
BOUNDED_FUZZ = (["fuzz.opt_fuzz", "--seed", "0", "--iterations", "200", "--time-limit", "75", "--jobs", "2",
                 "--no-minimize", "--quiet", "--out", "build/fuzz/opt"],
                ["fuzz.api_fuzz", "--seed", "0", "--examples", "1000", "--time-limit", "60", "--no-shrink",
                 "--quiet", "--out", "build/fuzz/api"])
LONG_FUZZ = (["fuzz.opt_fuzz", "--seed", "1", "--iterations", "3000", "--time-limit", "1800", "--jobs", "2",
              "--out", "build/fuzz/opt-long"],
             ["fuzz.api_fuzz", "--seed", "1", "--examples", "3000", "--out", "build/fuzz/api-long"])


def fuzz(env: Env, runs: tuple[list[str], ...], extra: list[str], phases: "Phases | None" = None) -> int:
    """Run the fuzzers; another interpreter's findings go to their own directory (build/fuzz-3.13/)."""
    suffix = env.venv.name[len(".venv"):]
    phases = phases or Phases(env, [])
    code = 0
    for args in runs:
        args = [a.replace("build/fuzz/", f"build/fuzz{suffix}/", 1) for a in args]
        code = phases.run(args[0].split(".")[-1], env.py, "-m", *args, *extra) or code
    return code


# The API reference (docs/): HTML with Sphinx's warnings as errors, then its examples (the ``>>>``
# blocks of the pages and of the docstrings they show) run by Sphinx's doctest builder, which
# reuses the HTML build's parsed documents (build/docs/.doctrees). About 20 s here.
DOCS_HTML = ["-W", "--keep-going", "-q", "-b", "html", "-d", "build/docs/.doctrees", "docs", "build/docs"]
DOCS_DOCTEST = ["-W", "--keep-going", "-q", "-b", "doctest", "-d", "build/docs/.doctrees", "docs",
                "build/docs-doctest"]


def docs(env: Env, extra: list[str], phases: "Phases | None" = None) -> int:
    """Build the API reference in build/docs/ (failing on any warning), then run its examples; another
    interpreter's build goes to its own directories (build/docs-3.13/, build/docs-3.13-doctest/)."""
    suffix = env.venv.name[len(".venv"):]
    phases = phases or Phases(env, ["docs (html)", "docs (examples)"])
    html, doctest = ([a.replace("build/docs", f"build/docs{suffix}", 1) for a in args]
                     for args in (DOCS_HTML, DOCS_DOCTEST))
    code = phases.run("docs (html)", env.py, "-m", "sphinx", *html, *extra)
    if code:
        return code
    out = ROOT / doctest[-1]
    code = phases.run("docs (examples)", env.py, "-m", "sphinx", *doctest, *extra)
    if code:
        print(f"dev.py: the documentation's examples failed: see {doctest[-1]}/output.txt", file=sys.stderr)
        return code
    summary = out / "output.txt"
    ran = re.search(r"Doctest summary\n=+\n\s*(\d+) tests?", summary.read_text()) if summary.exists() else None
    print(f"dev.py: the API reference is in {html[-1]}/index.html; {ran.group(1) if ran else 'its'} examples "
          "passed", flush=True)
    return 0


def bench_command(extra: list[str]) -> list[str]:
    """The script ``dev.py bench EXTRA`` runs and its arguments: with ``--against REF``
    (``--against=REF``), ``benchmarks/before_after.py`` comparing revision REF with this working tree
    (the rest of EXTRA its options: ``--quick``, ``--rounds N``, ``--only TEXT``); else the table,
    ``benchmarks/run_all.py``. Exits with status 2 when ``--against`` has no REF."""
    for i, arg in enumerate(extra):
        if arg == "--against" or arg.startswith("--against="):
            ref = arg.split("=", 1)[1] if "=" in arg else (extra[i + 1] if i + 1 < len(extra) else "")
            if not ref or ref.startswith("-"):
                fail("bench --against needs the git revision to compare this working tree with, "
                     "e.g. python3 dev.py bench --against main", 2)
            rest = extra[:i] + extra[i + (1 if "=" in arg else 2):]
            return ["benchmarks/before_after.py", ref, *rest, "--prog", "dev.py bench --against"]
    return ["benchmarks/run_all.py", *extra]


def parse_args(argv: list[str]) -> tuple[str, str | None, list[str]] | None:
    """``(command, --python's value or None, the arguments for the tool)``; ``None`` for a usage error.
    ``--python`` may come before or after the command; ``--`` passes all that follows to the tool."""
    command, python, extra = None, None, []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--" and command is not None:
            extra += argv[i + 1:]
            break
        if arg == "--python":
            if i + 1 == len(argv):
                return None
            python, i = argv[i + 1], i + 2
            continue
        if arg.startswith("--python="):
            python, i = arg.split("=", 1)[1], i + 1
            continue
        if command is None:
            if arg not in COMMANDS:
                return None
            command = arg
        else:
            extra.append(arg)
        i += 1
    if command is None or python == "":
        return None
    return command, python, extra


def main(argv: list[str]) -> int:
    parsed = parse_args(argv)
    if parsed is None:
        print(__doc__)
        return 2
    command, python, extra = parsed
    script = bench_command(extra) if command == "bench" else []  # its usage errors before any set-up
    env = find_env(python)
    ensure_env(env)
    if command == "setup":
        return 0
    if command in ("test", "docs", "fuzz") and Path(sys.prefix).resolve() != env.venv.resolve():
        # on in the environment's own interpreter, whose tqdm draws the phases' progress bars
        return subprocess.call([str(env.py), str(Path(__file__).resolve()), *argv], cwd=ROOT)
    if command == "demo":
        return run(env.tool("latticecast"), "demo", *extra, check=False)
    if command == "bench":
        return run(env.py, *script, check=False)
    if command == "fuzz":
        return fuzz(env, LONG_FUZZ, extra)
    if command == "docs":
        return docs(env, extra)
    # test: pytest ("no tests collected", exit code 5, is a failure of the set-up, not a pass)
    if any(os.environ.get(var) for var in PEER_CHECKOUTS):  # the peers' own suites need their requirements
        run(env.py, "-m", "pip", "install", "--disable-pip-version-check", "-q", "-e", ".[test,peers]")
    phases = Phases(env, ["pytest"] if extra else
                    ["pytest", "lit", "docs (html)", "docs (examples)", "mypy", "opt_fuzz", "api_fuzz"])
    code = phases.run("pytest", env.py, "-m", "pytest", *extra)
    if code == 5:
        print("pytest collected no tests: the test suite is missing", file=sys.stderr)
        return 1
    if code != 0:
        return code
    if extra:  # a pytest subset was asked for; lit runs only with the full suite
        return 0
    # lit from PyPI has no __main__ module (`python -m lit` fails): run its console script.
    code = phases.run("lit", env.tool("lit"), "-sv", "lit_tests")
    if code:
        return code
    code = docs(env, [], phases)  # the API reference builds with no warning, and its examples run
    if code:
        return code
    code = phases.run("mypy", env.py, "-m", "mypy")  # strict, on src/latticecast: pyproject.toml's [tool.mypy]
    if code:
        return code
    return fuzz(env, BOUNDED_FUZZ, [], phases)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
