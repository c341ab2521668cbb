"""Fixtures shared by the test modules: a fresh compilation cache, MLIR contexts, and the CLI
tools run as a user runs them (in a subprocess, so a crash is a failed test, not a dead run)."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Callable, Sequence

import pytest

ToolRunner = Callable[..., "subprocess.CompletedProcess[bytes]"]


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


def _run_refined(graph, *arrays):
    """Run a graph with symbolic dimensions on ``arrays``: its module refined to their shapes with JAX's
    public ``jax.extend.mlir.refine_polymorphic_shapes``, then compiled. The runtime will do this itself
    (issue 10: ``g.compile()`` of a dynamic module); until then the symbolic-dimension tests check the
    builder's IR by numbers this way. Each argument gets its static type, converted back to the dynamic
    one inside (as JAX calls an exported function)."""
    import io

    import jax.extend.mlir
    from jaxlib.mlir import ir

    from latticecast.dialect_utils.context import strict_context
    from latticecast.runtime import compile

    ctx = strict_context()
    module = ir.Module.parse(graph.mlir(), context=ctx)
    main = next(op.operation for op in module.body.operations if op.operation.name == "func.func")
    block = main.regions[0].blocks[0]
    with ctx, ir.Location.unknown():
        ftype = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value)
        static = []
        for arg, dynamic, array in zip(block.arguments, ftype.inputs, arrays):
            t = ir.RankedTensorType.get(list(array.shape), ir.RankedTensorType(dynamic).element_type)
            static.append(t)
            arg.set_type(t)
            back = ir.Operation.create("stablehlo.convert", results=[dynamic], operands=[arg],
                                       ip=ir.InsertionPoint.at_block_begin(block))
            arg.replace_all_uses_except(back.result, back)
        main.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(static, ftype.results))
    buf = io.BytesIO()
    module.operation.write_bytecode(buf)
    refined = jax.extend.mlir.refine_polymorphic_shapes(buf.getvalue(), enable_shape_assertions=True,
                                                        validate_static_shapes=True)
    return compile(ir.Module.parse(refined, context=ctx))(*arrays)


@pytest.fixture
def run_refined():
    """``run_refined(graph, *arrays)`` -> outputs of a graph with symbolic dimensions (see :func:`_run_refined`)."""
    return _run_refined
