"""Honest metadata: one version, one supported jax range (warned about at import), the licence,
``python -m latticecast``, and dev.py's choice of interpreter and environment."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import re
import subprocess
import sys
import tomllib
import warnings
from pathlib import Path

import pytest

import latticecast
from latticecast import _versions
from latticecast._versions import UnsupportedVersionWarning

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PROJECT = PYPROJECT["project"]
FIX = 'pip install "jax>=0.10.2,<0.13" "jaxlib>=0.10.2,<0.13"'


def run_python(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=300, cwd=ROOT,
                          env={**os.environ, **(env or {})})


# -- python -m latticecast ----------------------------------------------------------------------


def test_python_m_latticecast_runs_the_cli() -> None:
    done = run_python("-m", "latticecast", "--help")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: latticecast")
    done = run_python("-m", "latticecast", "--version")
    assert done.returncode == 0 and done.stdout.splitlines()[0] == f"latticecast {latticecast.__version__}"


# -- one version ----------------------------------------------------------------------------------


def test_version_is_pyprojects() -> None:
    assert latticecast.__version__ == PROJECT["version"] == importlib.metadata.version("latticecast")


def test_version_is_written_nowhere_else() -> None:
    """pyproject.toml is its one home: no ``__version__ = "..."`` (or the number itself) in the package."""
    version = re.escape(PROJECT["version"])
    for path in (ROOT / "src" / "latticecast").rglob("*.py"):
        text = path.read_text()
        assert not re.search(r"__version__\s*=\s*['\"]", text), path
        assert not re.search(rf"['\"]{version}['\"]", text), path


# -- the supported range ---------------------------------------------------------------------------


def test_supported_range_is_pyprojects() -> None:
    """The range the import-time check uses is read from the installed metadata; it equals
    pyproject.toml's (a stale install, made before pyproject.toml changed, fails here)."""
    declared = {}
    for text in PROJECT["dependencies"]:
        parsed = _versions.parse_requirement(text)
        if parsed and parsed[0] in ("jax", "jaxlib"):
            declared[parsed[0]] = parsed[1]
    assert declared == _versions.supported_ranges()
    assert declared == {name: [(">=", "0.10.2"), ("<", "0.13")] for name in ("jax", "jaxlib")}


def test_readme_gpu_hint_keeps_within_the_range() -> None:
    readme = (ROOT / "README.md").read_text()
    assert 'pip install "jax[cuda12]>=0.10.2,<0.13"' in readme
    assert "pip install -U \"jax[cuda12]\"" not in readme


@pytest.mark.parametrize(("text", "expected"), [
    ("jax<0.13,>=0.10.2", ("jax", [(">=", "0.10.2"), ("<", "0.13")])),
    ("jaxlib (>=0.10.2, <0.13)", ("jaxlib", [(">=", "0.10.2"), ("<", "0.13")])),
    ("Jax[cuda12]>=0.10.2", ("jax", [(">=", "0.10.2")])),
    ("ml_dtypes>=0.6", ("ml-dtypes", [(">=", "0.6")])),
    ('pytest>=8; extra == "test"', None),
])
def test_parse_requirement(text: str, expected: object) -> None:
    assert _versions.parse_requirement(text) == expected


@pytest.mark.parametrize(("version", "inside"), [
    ("0.10.2", True), ("0.10.3", True), ("0.11.0", True), ("0.12.0", True), ("0.12.0.1", True),
    ("0.12.9+cuda12", True), ("0.10.1", False), ("0.9.2", False), ("0.4.38", False), ("0.13.0", False),
    ("0.13", False), ("0.13.0.dev20260101", False), ("1.0.0", False),
])
def test_satisfies(version: str, inside: bool) -> None:
    assert _versions.satisfies(version, [(">=", "0.10.2"), ("<", "0.13")]) is inside


@pytest.mark.parametrize("installed", [{"jax": "0.9.0", "jaxlib": "0.9.0"}, {"jax": "0.12.0", "jaxlib": "0.13.0"},
                                       {"jax": "0.10.1", "jaxlib": "0.10.2"}])
def test_import_check_warns_outside_the_range(monkeypatch: pytest.MonkeyPatch, installed: dict[str, str]) -> None:
    monkeypatch.setattr(_versions, "_installed", installed.get)
    with pytest.warns(UnsupportedVersionWarning) as record:
        _versions.check_supported_versions()
    (warning,) = record
    message = str(warning.message)
    for name, version in installed.items():  # names what is installed (when outside), the range, the fix
        assert (f"{name} {version}" in message) is (not _versions.satisfies(version, [(">=", "0.10.2"), ("<", "0.13")]))
    assert "jax>=0.10.2,<0.13 and jaxlib>=0.10.2,<0.13" in message
    assert message.endswith(FIX)
    assert issubclass(UnsupportedVersionWarning, UserWarning) and latticecast.UnsupportedVersionWarning is UnsupportedVersionWarning


@pytest.mark.parametrize("installed", [{"jax": "0.10.2", "jaxlib": "0.10.2"}, {"jax": "0.12.0.1", "jaxlib": "0.12.0.1"},
                                       {}])  # {}: not installed, not judged
def test_import_check_is_silent_inside_the_range(monkeypatch: pytest.MonkeyPatch, installed: dict[str, str]) -> None:
    monkeypatch.setattr(_versions, "_installed", installed.get)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _versions.check_supported_versions()


def test_installed_stack_is_supported() -> None:
    assert _versions.unsupported_message(_versions.supported_ranges()) is None


def test_import_warns_on_an_unsupported_jax(tmp_path: Path) -> None:
    """End to end: a jax 0.9.0 found first on sys.path (its metadata only) makes ``import latticecast``
    warn, without importing jax; the real stack does not."""
    dist = tmp_path / "jax-0.9.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: jax\nVersion: 0.9.0\n")
    code = "import sys, latticecast; print('jax' in sys.modules, 'jaxlib' in sys.modules)"
    done = run_python("-c", code, env={"PYTHONPATH": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "False"]  # the check reads metadata; importing stays cheap
    assert "UnsupportedVersionWarning" in done.stderr and "jax 0.9.0 is installed" in done.stderr
    assert FIX in done.stderr
    done = run_python("-c", code)
    assert done.returncode == 0 and done.stdout.split() == ["False", "False"]
    assert "UnsupportedVersionWarning" not in done.stderr, done.stderr


# -- the rest of the metadata ------------------------------------------------------------------------


def test_requires_python_and_classifiers() -> None:
    assert PROJECT["requires-python"] == ">=3.11"
    versions = {c.rsplit(" :: ", 1)[1] for c in PROJECT["classifiers"] if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)}
    assert versions == {"3.11", "3.12", "3.13"}
    assert "Topic :: Software Development :: Compilers" in PROJECT["classifiers"]
    assert set(PROJECT["urls"]) >= {"Homepage", "Documentation", "Issues"}
    assert all(url.startswith("https://github.com/latticecast/latticecast") for url in PROJECT["urls"].values())


def test_license() -> None:
    assert PROJECT["license"] == "Apache-2.0" and PROJECT["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text()
    assert text.split()[:4] == ["Apache", "License", "Version", "2.0,"]
    assert "END OF TERMS AND CONDITIONS" in text and len(text.splitlines()) == 202
    metadata = importlib.metadata.metadata("latticecast")
    assert metadata["License-Expression"] == "Apache-2.0"


# -- dev.py ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def dev():
    spec = importlib.util.spec_from_file_location("latticecast_dev", ROOT / "dev.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("argv", "expected"), [
    (["test"], ("test", None, [])),
    (["test", "-k", "lattice"], ("test", None, ["-k", "lattice"])),
    (["test", "--python", "3.13", "-k", "lattice"], ("test", "3.13", ["-k", "lattice"])),
    (["--python=3.12", "demo"], ("demo", "3.12", [])),
    (["setup", "--python", "/opt/py/bin/python3"], ("setup", "/opt/py/bin/python3", [])),
    (["test", "--python", "3.13", "--"], ("test", "3.13", [])),
    (["test", "--", "--python", "x"], ("test", None, ["--python", "x"])),
    (["bench", "--python"], None), (["-k", "x"], None), ([], None), (["frobnicate"], None),
])
def test_dev_parse_args(dev, argv: list[str], expected: object) -> None:
    assert dev.parse_args(argv) == expected


def test_dev_default_env_is_dot_venv(dev) -> None:
    env = dev.find_env(None)
    assert env.venv == ROOT / ".venv" and env.python == sys.executable


def test_dev_env_of_an_interpreter_path(dev) -> None:
    env = dev.find_env(sys.executable)
    assert env.venv == ROOT / (".venv-%d.%d" % sys.version_info[:2])
    assert env.identity == dev.find_env(None).identity


def test_dev_stamp_covers_the_interpreter(dev) -> None:
    one = dev.Env("python3", "3.13", "/pythons/3.13.0\n3.13.0 (main)", ROOT / ".venv-3.13")
    other = dev.Env("python3", "3.13", "/pythons/3.13.1\n3.13.1 (main)", ROOT / ".venv-3.13")
    assert dev.stamp_for(one) != dev.stamp_for(other)
    assert "/pythons/3.13.0" in dev.stamp_for(one)


def test_dev_finds_pyenv_builds_newest_first(dev, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("3.13.0", "3.13.10", "3.13.2t", "3.12.1", "3.130.1"):
        (tmp_path / "versions" / name / "bin").mkdir(parents=True)
        (tmp_path / "versions" / name / "bin" / "python3").touch()
    monkeypatch.setattr(dev, "pyenv_root", lambda: tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert dev.candidates("3.13") == [str(tmp_path / "versions" / v / "bin" / "python3") for v in ("3.13.10", "3.13.0")]


def test_dev_reports_a_missing_interpreter(dev, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(dev, "pyenv_root", lambda: tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(SystemExit) as exit_info:
        dev.find_env("3.99")
    assert exit_info.value.code == dev.NOT_FOUND
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("dev.py: no Python 3.99 found") and "--python /path/to/python3.99" in err
    with pytest.raises(SystemExit) as exit_info:
        dev.find_env(str(tmp_path / "python9"))
    assert exit_info.value.code == dev.NOT_FOUND
    assert "not a Python interpreter" in capsys.readouterr().err


def test_ci_script_is_valid_bash() -> None:
    assert subprocess.run(["bash", "-n", str(ROOT / ".ci" / "run")]).returncode == 0


def test_installed_answers_are_cached_until_a_package_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The version and the warning come from the cache the tools write, until a directory on sys.path
    changes (pip adds or removes a .dist-info there): then from the metadata again."""
    monkeypatch.setenv("LATTICECAST_CACHE_DIR", str(tmp_path / "cache"))
    reads: list[str] = []
    monkeypatch.setattr(_versions, "package_version", lambda: reads.append("read") or "9.9.9")
    first = _versions.installed_answers()
    assert reads == ["read"] and first[0] == "9.9.9"
    assert _versions.installed_answers() == first and reads == ["read", "read"]  # nothing saved yet: read again
    _versions.save_installed_answers()
    assert _versions.installed_answers() == first and reads == ["read", "read"]  # from the cache
    site = tmp_path / "site-packages"
    site.mkdir()
    monkeypatch.setattr(sys, "path", [sys.path[0], str(site), *sys.path[1:]])  # [0]: the script's directory
    assert _versions.installed_answers() == first and reads == ["read", "read", "read"]  # sys.path changed
    (site / "jax-0.9.0.dist-info").mkdir()  # an install there
    _versions.save_installed_answers()
    assert _versions.installed_answers() == first and len(reads) == 4


def test_a_warm_start_reads_no_metadata(tmp_path: Path) -> None:
    """After one run of a tool, ``import latticecast`` does not load importlib.metadata (tens of ms)."""
    env = dict(os.environ, LATTICECAST_CACHE_DIR=str(tmp_path))
    subprocess.run([sys.executable, "-m", "latticecast.cli.opt", "--version"], env=env, check=True,
                   capture_output=True)
    probe = "import sys, latticecast; print('importlib.metadata' in sys.modules, latticecast.__version__)"
    out = subprocess.run([sys.executable, "-c", probe], env=env, check=True, capture_output=True, text=True).stdout
    assert out.split() == ["False", _versions.package_version()]
    mlir = tmp_path / "small.mlir"  # a run of the pass too: the runtime's version gates read the cache
    mlir.write_text('func.func @f(%a: tensor<2xi8>, %b: tensor<2xf32>) -> tensor<2xf32> {\n'
                    '  %0 = "stablehlo.add"(%a, %b) : (tensor<2xi8>, tensor<2xf32>) -> tensor<2xf32>\n'
                    '  return %0 : tensor<2xf32>\n}\n')
    run = ("import sys, io, contextlib; from latticecast.cli.opt import main\n"
           f"with contextlib.redirect_stdout(io.StringIO()): code = main([{str(mlir)!r}, '--implicit-cast'])\n"
           "print(code, 'importlib.metadata' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", run], env=env, check=True, capture_output=True, text=True).stdout
    assert out.split() == ["0", "False"]
