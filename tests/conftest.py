"""Fixtures shared by the test modules: a fresh compilation cache, MLIR contexts, and the CLI
tools run as a user runs them (in a subprocess, so a crash is a failed test, not a dead run)."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Callable, Sequence

import pytest
from hypothesis import settings

ToolRunner = Callable[..., "subprocess.CompletedProcess[bytes]"]


# Property tests draw the same examples on every run of the test command, so CI on a commit passes or
# fails as it did on the author's machine; HYPOTHESIS_PROFILE=explore draws new ones (and `python3
# dev.py fuzz` runs the API fuzzer long and at random).
settings.register_profile("fixed", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "fixed"))


@pytest.fixture(autouse=True)
def jax_configuration_is_left_as_found():
    """A test (or a benchmark it runs) that changes JAX's global configuration changes every later
    test: the JAX corpus lowers in x32 unless a test asks for x64 in a ``with jax.enable_x64()``."""
    import jax

    before = jax.config.jax_enable_x64
    yield
    after = jax.config.jax_enable_x64
    if after != before:
        jax.config.update("jax_enable_x64", before)
        pytest.fail(f"the test left jax_enable_x64 {after} (it was {before}); use `with jax.enable_x64(...)`")


@pytest.fixture
def fresh_cache():
    """The runtime's in-memory compilation cache, emptied before and after the test."""
    from latticecast.runtime import clear_cache

    clear_cache()
    yield
    clear_cache()


@pytest.fixture(scope="module")
def lenient_context():
    """A context like the builder's and latticecast-opt's: unregistered dialects allowed."""
    from latticecast.dialect_utils.context import make_context

    return make_context(lenient=True)


_MODULES = {"latticecast-opt": "latticecast.cli.opt", "latticecast": "latticecast.cli"}


def _run_tool(tool: str, *args: "str | bytes | os.PathLike[str]", input: "str | bytes | None" = None,
              timeout: float = 120, env: dict[str, str] | None = None) -> "subprocess.CompletedProcess[bytes]":
    """Run ``latticecast-opt`` or ``latticecast`` with ``args`` in a fresh interpreter; stdout and
    stderr are bytes (non-UTF-8 output is a finding, not a decode error)."""
    data = input.encode("utf-8") if isinstance(input, str) else input
    cmd: Sequence[object] = [sys.executable, "-m", _MODULES[tool], *args]
    return subprocess.run([os.fsencode(c) if isinstance(c, (str, os.PathLike)) else c for c in cmd],
                          input=data, capture_output=True, timeout=timeout,
                          env={**os.environ, **(env or {})})


@pytest.fixture
def run_tool() -> ToolRunner:
    """``run_tool("latticecast-opt", path, "--implicit-cast", input=...)`` -> CompletedProcess (bytes)."""
    return _run_tool


def _run_python(code: str, *, env: dict[str, str] | None = None, unset: Sequence[str] = (),
                timeout: float = 300) -> "subprocess.CompletedProcess[str]":
    """Run ``code`` (dedented) in a fresh interpreter with ``env`` added and ``unset`` removed."""
    import textwrap

    environ = {**os.environ, **(env or {})}
    for key in unset:
        environ.pop(key, None)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=timeout, env=environ)


@pytest.fixture
def run_python() -> Callable[..., "subprocess.CompletedProcess[str]"]:
    """``run_python(code, env={...}, unset=("HOME",))``: a fresh interpreter (for process-wide state:
    environment variables read once, the first compile of a process, crashes)."""
    return _run_python


def library_python(module: str, env_var: str) -> str:
    """An interpreter that can import ``module`` (an optional oracle: torch, tensorflow, max): this
    one, or the one ``$env_var`` names (a separate venv); the test is skipped, saying how to
    enable it, when there is neither."""
    import importlib.util

    if importlib.util.find_spec(module) is not None:
        return sys.executable
    found = os.environ.get(env_var)
    if not found:
        pytest.skip(f"{module} is not installed here; set {env_var} to an interpreter that has it")
    return found
