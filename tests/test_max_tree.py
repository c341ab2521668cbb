"""``latticecast.max``'s module tree against MAX 26.7's (``tests/data/max_tree_26_7.json``, measured by
``tools/measure_max_tree.py``; live when ``LATTICECAST_MAX_PYTHON`` names a Python with ``max`` installed).

Every name a MAX module exports is either in latticecast's module of the same name (``max.`` becomes
``latticecast.max.``) or in :data:`NOT_PROVIDED` with the reason. A new MAX version's additions fail
:func:`test_every_name_of_max_is_provided_or_declared_absent` until they are one or the other.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TREE = json.loads((ROOT / "tests/data/max_tree_26_7.json").read_text())

_RUNTIME = ("MAX's runtime: its device queues, events, launch traces, peer access and virtual devices; latticecast's "
            "runtime is PJRT, whose client owns devices and streams (latticecast.max.driver has CPU, Accelerator, "
            "Buffer, Device and accelerator_count)")
_ENGINE = ("MAX's compiler and its artifacts (MEF files, compile-only models, compilation statistics, debug "
           "printing); latticecast compiles StableHLO with PJRT (InferenceSession and Model are provided)")
_NN = ("MAX's model library (layers, attention, KV caches, samplers, MoE): models built from graph ops, outside "
       "the graph API this package mirrors; they run here when written with the ops (tests/test_max_weights_models.py "
       "builds an MLP and an attention block that way)")
_GRAPH_INTERNALS = ("MAX's graph internals: its MLIR blocks and modules, its debug and profiling configuration, its "
                    "Mojo kernel extensions")
_OPS_MODULES = "MAX's own implementation modules of ops (their ops are provided under ops' own names)"
_PROTOCOLS = "MAX's typing protocols and aliases of its MLIR and DLPack types, which no latticecast function takes"

NOT_PROVIDED: dict[str, dict[str, str]] = {
    "max.driver": {name: _RUNTIME for name in (
        "CompletionFlag", "DLPackArray", "DeviceEvent", "DeviceQueue", "DeviceSpec", "HostHazardError",
        "LaunchTraceEntry", "SymmetricPool", "Usage", "accelerator_api", "accelerator_architecture_name",
        "batch_inplace_copy", "begin_launch_trace", "calculate_virtual_device_count",
        "calculate_virtual_device_count_from_cli", "copy_pinned_to_destinations", "devices_exist",
        "enable_all_peer_access", "get_virtual_cpu_target", "get_virtual_device_api", "get_virtual_device_count",
        "get_virtual_device_target_arch", "is_virtual_device_mode", "launch_trace", "load_devices", "load_max_buffer",
        "scan_available_devices", "set_virtual_cpu_target", "set_virtual_device_api", "set_virtual_device_count",
        "set_virtual_device_target_arch", "take_launch_trace")},
    "max.engine": {name: _ENGINE for name in (
        "ArtifactBodyMismatch", "CompilationStopped", "CompileOnlyExecutionError", "CompileOnlyModel", "CompiledModel",
        "CustomExtensionsType", "DebugConfig", "GPUProfilingMode", "LogLevel", "MefStore", "MissingArtifactError",
        "PrintStyle", "api", "mlrt", "read")},
    "max.graph": {name: _GRAPH_INTERNALS for name in (
        "GraphBlock", "GraphDebugConfig", "Module", "ProfileScopeColor",
        "default_custom_extensions", "default_custom_extensions_scope")},
    "max.graph.ops": {name: _OPS_MODULES for name in (
        "broadcast", "buffer", "bundled_allreduce", "conditional", "conv_transpose", "debug", "nms", "pooling",
        "quantized", "sequence", "support", "utils", "validation")},
    "max.graph.ops.random": {"SEEDS": "MAX's table of each graph's seed; here a graph holds its own seed"},
    "max.graph.type": {"MlirType": _PROTOCOLS, "OpaqueParameter": _PROTOCOLS},
    "max.graph.value": {name: _PROTOCOLS for name in ("DLPackArray", "HasBufferValue", "HasTensorValue", "MlirType")},
    "max.nn": {name: _NN for name in (
        "Allreduce", "AttentionWithRope", "ColumnParallelLinear", "ConstantLayerNorm", "Conv1D", "Conv2d", "Conv3D",
        "ConvTranspose1d", "DistributedAttentionImpl", "DistributedTransformer", "DistributedTransformerBlock",
        "DynamicRotaryEmbedding", "Embedding", "FusedMLP", "GGUFQAttentionWithRope", "GPTQAttentionWithRope",
        "GPTQLinear", "GroupNorm", "HyperConnection", "Identity", "InputScaleSpec", "KVCacheInputs", "KVCacheMetrics",
        "KVCacheParams", "LatentAttentionWithRope", "Layer", "LayerList", "LayerNorm", "Linear", "LinearScalingParams",
        "Llama3RopeScalingParams", "Llama3RotaryEmbedding", "LongRoPERotaryEmbedding", "LongRoPEScalingParams", "MLP",
        "MinPSampler", "MissingLayer", "MoE", "MoEGate", "MoEQuantized", "Module", "MultiheadAttention", "QuantConfig",
        "QuantFormat", "RMSNorm", "RaggedAttention", "RejectionSampler", "RejectionSamplerWithResiduals",
        "ReturnHiddenStates", "ReturnLogits", "RotaryEmbedding", "ScaleGranularity", "ScaleOrigin", "Sequential",
        "Shardable", "StackedLinear", "TensorParallelAttentionWithRope", "TensorParallelLatentAttentionWithRope",
        "Transformer", "TransformerBlock", "VocabParallelEmbedding", "WeightNormConvTranspose1d", "WeightScaleSpec",
        "YarnRotaryEmbedding", "YarnScalingParams", "build_max_lengths_tensors", "clamp", "forward_moe_sharded_layers",
        "split_batch", "split_batch_replicated")},
}
"""MAX 26.7's names latticecast does not provide, by module, each with the reason."""

KIND_DIFFERS: dict[str, dict[str, str]] = {
    "max.graph.ops": {"conv": "MAX's module of its conv ops; here ops.conv is latticecast's N-d convolution (MAX's "
                              "conv2d and conv3d are provided under their names)"},
}
"""Names latticecast provides as another kind than MAX's, with the reason."""


def ours(module: str) -> object:
    """latticecast's module for MAX's ``module``."""
    return importlib.import_module("latticecast." + module)


def test_the_recorded_tree_is_max_26_7s():
    assert TREE["version"] == "26.7.0"
    assert set(TREE["modules"]) == {
        "max.graph", "max.graph.ops", "max.graph.ops.random", "max.graph.ops.allreduce", "max.graph.ops.elementwise",
        "max.graph.ops.reduction", "max.graph.ops.complex", "max.graph.ops.irfft", "max.graph.ops.distributed_ep",
        "max.graph.type", "max.graph.value", "max.graph.weight", "max.graph.weights", "max.graph.quantization",
        "max.graph.dim", "max.dtype", "max.driver", "max.engine", "max.nn"}


@pytest.mark.parametrize("module", sorted(TREE["modules"]))
def test_every_name_of_max_is_provided_or_declared_absent(module):
    mine = ours(module)
    absent = NOT_PROVIDED.get(module, {})
    missing = [n for n in TREE["modules"][module] if not hasattr(mine, n) and n not in absent]
    assert not missing, f"{module}: MAX exports {missing}, which latticecast.{module} lacks and NOT_PROVIDED omits"
    stale = [n for n in absent if hasattr(mine, n) or n not in TREE["modules"][module]]
    assert not stale, f"{module}: NOT_PROVIDED lists {stale}, which latticecast provides or MAX does not export"


@pytest.mark.parametrize("module", sorted(TREE["modules"]))
def test_a_provided_name_is_of_maxs_kind(module):
    """A MAX submodule is a module here, and a MAX class or function is not a plain value."""
    import types
    mine = ours(module)
    for name, kind in TREE["modules"][module].items():
        if not hasattr(mine, name) or name in KIND_DIFFERS.get(module, {}):
            continue
        value = getattr(mine, name)
        if kind == "module":
            assert isinstance(value, types.ModuleType), f"{module}.{name}"
        elif kind in ("class", "function"):
            assert callable(value), f"{module}.{name}"


def test_ops_irfft_is_the_function_and_its_module_holds_normalization():
    import latticecast.max.graph.ops as ops
    from latticecast.max.graph.ops.irfft import Normalization
    assert callable(ops.irfft) and not isinstance(ops.irfft, type(ops))
    assert [n.value for n in Normalization] == ["backward", "ortho", "forward"]


def test_the_top_level_names_of_earlier_releases_still_import():
    import latticecast.max as m
    import latticecast.max.dtype_promotion as dp
    for name in ("DType", "DeviceRef", "Graph", "TensorType", "TensorValue", "Weight", "ops", "MAX_POLICY",
                 "default_policy", "KernelLibrary", "ShardingStrategy", "FilterLayout", "BufferType"):
        assert hasattr(m, name), name
    assert dp is m.graph.dtype_promotion and m.ops is m.graph.ops
    assert m.Graph is m.graph.Graph and m.DType is m.dtype.DType


def test_each_name_has_one_home():
    """The tree re-exports: MAX's modules hold latticecast's own objects, not copies."""
    import latticecast.graph.weights as home
    import latticecast.max.graph.weights as face
    import latticecast.ops
    import latticecast.max.graph.ops as max_ops
    assert face.SafetensorWeights is home.SafetensorWeights
    assert max_ops.relu is latticecast.ops.relu and max_ops.random.uniform is latticecast.ops.random.uniform


@pytest.mark.skipif(not os.environ.get("LATTICECAST_MAX_PYTHON"),
                    reason="set LATTICECAST_MAX_PYTHON to a Python with max==26.7.0 to compare with MAX live")
def test_the_recorded_tree_matches_the_live_max():
    run = subprocess.run([os.environ["LATTICECAST_MAX_PYTHON"], str(ROOT / "tools/measure_max_tree.py")],
                         capture_output=True, text=True, check=True)
    live = json.loads(run.stdout)
    assert live["modules"] == TREE["modules"], "MAX's tree changed: re-measure tests/data/max_tree_26_7.json"


def test_the_tool_rule_reads_a_module_as_measured(tmp_path, monkeypatch):
    """The rule of tools/measure_max_tree.py, on a stand-in package: imports from typing/numpy and from
    MAX's internals are not exports; definitions, imports from MAX's public modules and submodules are."""
    pkg = tmp_path / "max" / "graph"
    pkg.mkdir(parents=True)
    (tmp_path / "max" / "__init__.py").write_text("")
    (tmp_path / "max" / "_core.py").write_text("kgen = 1\n")
    (pkg / "sub.py").write_text("X = 1\n")
    (pkg / "__init__.py").write_text("from typing import Any\nimport numpy as np\nfrom max._core import kgen\n"
                                     "from .sub import X\ndef f(): pass\nclass C: pass\nY: int = 2\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.syspath_prepend(str(ROOT / "tools"))
    for name in [n for n in sys.modules if n == "max" or n.startswith("max.")]:
        monkeypatch.delitem(sys.modules, name)
    import measure_max_tree
    try:
        module = importlib.import_module("max.graph")
        assert measure_max_tree.exports(module) == ["C", "X", "Y", "f", "sub"]
    finally:  # the stand-in must not look like an installed MAX to later tests
        for name in [n for n in sys.modules if n == "max" or n.startswith("max.")]:
            del sys.modules[name]
