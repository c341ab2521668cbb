"""Progress with an ETA on long work, and ``-q``/``-v`` on both tools (issue 28).

Bars are tqdm's on standard error, only on a terminal, and only once the work has run for
:data:`~latticecast.cli.progress.DELAY` seconds: the tests make standard error a terminal
(:class:`TTY`) and the delay zero, and look for the bar's ETA (tqdm's ``elapsed<remaining``).
"""

from __future__ import annotations

import importlib.util
import io
import re
import sys
from pathlib import Path

import pytest

from latticecast.cli import progress
from latticecast.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
ETA = re.compile(r"\d\d:\d\d<\d\d:\d\d")   # tqdm's "[elapsed<remaining"


class TTY(io.StringIO):
    """A standard error that is a terminal of 100 columns."""

    def isatty(self) -> bool:
        return True

    def fileno(self) -> int:
        raise io.UnsupportedOperation("no descriptor")


@pytest.fixture
def tty(monkeypatch: pytest.MonkeyPatch) -> TTY:
    """A terminal as standard error, installed when the test first writes (pytest's own capture is
    installed after the fixtures are: see :meth:`TTY.install`)."""
    stream = TTY()
    stream.monkeypatch = monkeypatch  # type: ignore[attr-defined]
    monkeypatch.setattr(progress, "DELAY", 0.0)
    monkeypatch.setattr(progress, "MININTERVAL", 0.0)
    monkeypatch.setenv("COLUMNS", "100")
    progress.set_verbosity(progress.NORMAL)
    yield stream
    progress.set_verbosity(progress.NORMAL)


def install(stream: TTY) -> TTY:
    stream.monkeypatch.setattr(sys, "stderr", stream)  # type: ignore[attr-defined]
    return stream


def screen(stream: TTY) -> str:
    """What a terminal keeps: each carriage return starts the line again (tqdm redraws that way)."""
    return "\n".join(part.strip() for part in re.split(r"[\r\n]", stream.getvalue()) if part.strip())


def big_table(tmp_path: Path) -> str:
    names = [f"t{i}" for i in range(60)]   # a chain: t_i . t_j = t_max(i, j), a lattice of 60 labels
    lines = ["," + ",".join(names)] + [n + "," + ",".join(names[max(i, j)] for j in range(60))
                                       for i, n in enumerate(names)]
    path = tmp_path / "chain.csv"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_an_audit_shows_a_bar_with_an_eta_per_stage(tty: TTY, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    install(tty)
    assert main(["audit", big_table(tmp_path)]) == 0
    shown = tty.getvalue()
    assert "audit: associativity" in shown and "audit: lattice" in shown and ETA.search(shown), shown[-500:]


def test_quiet_shows_no_bar_and_verbose_times_each_stage(tty: TTY, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    table = big_table(tmp_path)
    install(tty)
    assert main(["audit", table, "-q"]) == 0
    assert tty.getvalue() == ""
    assert main(["-v", "audit", table]) == 0
    assert re.search(r"^audit: associativity: \d+\.\d\d s$", screen(tty), re.M)


def test_no_bar_on_a_pipe(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(progress, "DELAY", 0.0)
    assert main(["audit", big_table(tmp_path)]) == 0
    assert capsys.readouterr().err == ""                         # standard error is not a terminal here


def test_compare_shows_its_stages(tty: TTY, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    program = tmp_path / "m.mlir"
    program.write_text('func.func @f(%a: tensor<2xi32>, %b: tensor<2xf16>) -> tensor<2xf16> {\n'
                       '  %0 = "stablehlo.add"(%a, %b) : (tensor<2xi32>, tensor<2xf16>) -> tensor<2xf16>\n'
                       '  return %0 : tensor<2xf16>\n}\n')
    install(tty)
    assert main(["-v", "compare", str(program), "--policy", "jax", "--vs", "numpy"]) == 0
    shown = screen(tty)
    for stage in ("reading", "parsing", "inferring", "writing"):
        assert re.search(rf"^compare: {stage}: \d+\.\d\d s$", shown, re.M), shown


def test_quiet_and_verbose_exclude_each_other(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["table", "-q", "-v"]) == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_the_options_go_before_or_after_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["-q", "policies"]) == 0 and main(["policies", "--quiet"]) == 0
    assert main(["--verbose", "explain", "i8", "u8"]) == 0


# -- dev.py's phases ---------------------------------------------------------------------------------


@pytest.fixture
def dev(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    spec = importlib.util.spec_from_file_location("latticecast_dev_progress", ROOT / "dev.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "TIMINGS", tmp_path / "timings.json")
    return module


def test_a_phase_is_timed_for_the_next_eta(dev, capsys: pytest.CaptureFixture[str]) -> None:
    env = dev.find_env(None)
    phases = dev.Phases(env, ["hello"])
    assert phases.run("hello", sys.executable, "-c", "print('hi')") == 0
    out = capsys.readouterr().out
    assert out.startswith("dev.py: [1/1] hello: ") and "hi" in out
    again = dev.Phases(env, ["hello"])
    assert again.times["hello"] >= 0.0 and "hello" in again.times
    again.run("hello", sys.executable, "-c", "print('hi')")
    assert re.search(r"\[1/1\] hello \(about \d+ s last time\)", capsys.readouterr().out)


def test_on_a_terminal_a_phase_has_a_bar_with_its_eta(dev, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    env = dev.find_env(None)
    dev.TIMINGS.write_text('{"%s": {"slow": 3.0}}' % env.venv.name)
    err = TTY()
    out = TTY()
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(sys, "stdout", out)
    code = dev.Phases(env, ["slow"]).run("slow", sys.executable, "-c",
                                          "import time; print('working', flush=True); time.sleep(1.5)")
    assert code == 0
    assert "working" in out.getvalue()                          # the phase's output, above the bar
    assert "dev.py [1/1] slow" in err.getvalue() and ETA.search(err.getvalue()), err.getvalue()[-300:]
