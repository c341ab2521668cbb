"""The runtime layer: compile legal StableHLO with PJRT and run it on NumPy arrays.

>>> import numpy as np
>>> from latticecast.runtime import compile
>>> model = compile(text, device="cpu", input_names=["x", "y"])   # text: legal StableHLO
>>> (out,) = model(np.arange(4, dtype=np.int16), np.ones(4, np.float32))

What reaches the runtime is *legal* StableHLO: a ``builtin.module`` with a
public ``func.func @main``, as an ``ir.Module`` or as MLIR text (the output of
``Graph.mlir()`` or ``latticecast-opt``). Modules are split by job:

=================  =============================================================
``devices``        ``"cpu"``, ``"gpu"``/``"cuda"``/``"rocm"``, ``"cpu:0"``, ``jax.Device``
``source``         parsing text with ``file:line:col`` errors; module digests
``signature``      ``@main``'s input and output types, checked once
``cache``          the compilation cache: in memory, and on disk if enabled
``compiler``       ``compile()``: device, cache, PJRT compilation; a graph's (``compile_graph``)
``custom_calls``   custom calls JAX writes: LAPACK kernels readied, host callbacks refused
``polymorphic``    dynamic shapes: refined per call, one compiled model per shape
``inputs``         checking and converting call arguments (no silent casts)
``execute``        host-to-device transfer and execution, the cheapest jaxlib path
``partitioning``   modules partitioned N ways: devices chosen, refused on too few, SPMD options
``sharded``        running on N devices; ``jax.Array`` arguments checked and placed
``model``          ``Model``: a compiled program called with NumPy arrays or ``jax.Array`` s
``runtime_errors`` every error, each a ``LatticecastRuntimeError``
``pjrt``           names of PJRT's and JAX's objects, for annotations
=================  =============================================================

Element types. The runtime runs every dtype PJRT has buffers for: ``bool``
(``i1``), ``int8``..``int64``, ``uint8``..``uint64``, ``float16``, ``bfloat16``,
``float32``, ``float64``, ``complex64``, ``complex128``, and the low-precision
types: the eight float8 types, ``float4_e2m1fn``, ``int2``/``uint2`` and
``int4``/``uint4`` (on the host, their ``ml_dtypes`` arrays). ``float6_e2m3fn`` and
``float6_e3m2fn`` have buffers but XLA:CPU cannot compile them: ``compile`` refuses
them on the CPU before XLA fails (:func:`.signature.platform_problem`). ``int1`` and
``uint1`` have no StableHLO type at all. latticecast's three dtypes that PJRT has no buffers for are
gone before a module gets here: the ``implicit-cast`` pass lowers ``index`` and
``address`` (``index``, ``!latticecast.address`` in MLIR) to ``ui64``, and
``tensor_float32`` (``tf32``) to ``f32`` -- the host storage types that
:class:`~latticecast.DType` already uses for them -- so the runtime sees only PJRT
types. A module that still has one (or any other element type PJRT cannot run)
is rejected with an :class:`UnsupportedModuleError` that says so.

Calls. ``Model.__call__`` checks count, shape and dtype of every argument
against ``@main`` before anything reaches PJRT, accepts Python scalars and lists
where their values fit the parameter's dtype, never casts a NumPy array
silently, and returns a list with one NumPy array per output.

Devices: there is no separate GPU code path. A GPU is a PJRT device like the CPU,
found through JAX's plug-in discovery; asking for one that is absent raises
:class:`DeviceNotFoundError` with the devices present and how to install a plug-in.
A module partitioned N ways (``mhlo.num_partitions``, Shardy or GSPMD shardings) runs
on N devices of one platform through XLA's SPMD partitioner, and is refused with a
:class:`DeviceCountError` where fewer are present (see :mod:`.partitioning`).
"""

from __future__ import annotations

from .cache import CacheInfo, cache_info, clear_cache, default_cache_dir, get_cache_dir, set_cache_dir
from .compiler import CompilableGraph, compile, compile_graph, multi_device_target
from .devices import available_devices, resolve_device
from .runtime_errors import (CompileError, DeviceCountError, DeviceNotFoundError, Diagnostic, ExecutionError,
                     InputArrayError, InputCountError, InputDTypeError, InputError, InputRangeError,
                     InputShapeError, LatticecastRuntimeError, MLIRParseError, UnsupportedModuleError)
from .model import Model
from .partitioning import Partitioning
from .polymorphic import PolymorphicModel
from .signature import PJRT_DTYPES, TensorPattern, TensorSpec

__all__ = [
    "compile", "compile_graph", "multi_device_target", "CompilableGraph", "Model", "PolymorphicModel", "TensorSpec", "TensorPattern", "PJRT_DTYPES",
    "available_devices", "resolve_device",
    "cache_info", "clear_cache", "set_cache_dir", "get_cache_dir", "default_cache_dir", "CacheInfo",
    "LatticecastRuntimeError", "DeviceNotFoundError", "DeviceCountError", "MLIRParseError", "Diagnostic",
    "UnsupportedModuleError", "CompileError", "InputError", "InputCountError", "InputShapeError",
    "InputDTypeError", "InputRangeError", "InputArrayError", "ExecutionError", "Partitioning",
]
