"""latticecast: implicit type promotion for StableHLO, driven by a promotion lattice.

Three layers, usable one at a time: promotion (dtypes, lattices, policies; no
MLIR), IR (a MAX-style graph builder and the ``implicit-cast`` pass), runtime
(PJRT). Importing the package loads only the promotion layer; the others load
on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .audit import AuditReport, audit  # eager: a lazy name would be shadowed by the submodule once imported
from .device_ref import DeviceRef
from .dims import SymbolicDim
from .dtypes import DType, Kind, UnknownDTypeError
from .errors import (AxisError, DomainError, GraphError, LatticecastError, LatticecastWarning, LiteralRangeError, NoCurrentGraphError, PromotionError,
                     RegionTypeError, UnknownPolicyError,
                     UnsupportedOpError, GraphTypeError, OperandDTypeError)
from .lattice import Lattice, LatticeError
from .policies import Policy, policy, register_policy
# After the package import above, so that ``lc.policies`` is the function (the names of the policies), and
# the package stays importable by its path: ``from latticecast.policies import Policy``.
from .policies.registry import policies
from .promotion import (default_policy, explain, implicit_cast_type, promote_types, result_type,
                        set_default_policy)
from .tables import PromotionTable, TableFormatError
from .tensor_type import TensorType
from .weak import PType, Weak, weak
from ._versions import UnsupportedVersionWarning, check_supported_versions as _check_supported_versions, \
    package_version as _package_version

__version__ = _package_version()  # pyproject.toml's, as installed
_check_supported_versions()  # warns when the installed jax/jaxlib is outside the tested range

if TYPE_CHECKING:  # the lazy names below, as tools see them (never imported here at run time)
    from . import ops
    from .dialect_utils.parsing import SourceFileError, parse
    from .evidence import evidence
    from .graph import Graph, PassFailure, Value
    from .passes import ImplicitCastOptions, ImplicitCastPass, Pipeline, run_pipeline
    from .retargeting import lift, retarget
    from .runtime import (CompileError, DeviceCountError, DeviceNotFoundError, InputError, InputShapeError,
                          LatticecastRuntimeError, MLIRParseError, Model, PolymorphicModel, TensorSpec,
                          UnsupportedModuleError, available_devices, compile)

# The IR and runtime layers import jaxlib.mlir; load them on first use so that the
# promotion layer stays importable (and fast) on its own.
_LAZY = {
    "Graph": ("latticecast.graph", "Graph"), "Value": ("latticecast.graph", "Value"),
    "PassFailure": ("latticecast.errors", "PassFailure"), "ops": ("latticecast.ops", None),
    "compile": ("latticecast.runtime", "compile"), "Model": ("latticecast.runtime", "Model"),
    "PolymorphicModel": ("latticecast.runtime", "PolymorphicModel"),
    "UnsupportedModuleError": ("latticecast.runtime", "UnsupportedModuleError"),
    "InputShapeError": ("latticecast.runtime", "InputShapeError"),
    "TensorSpec": ("latticecast.runtime", "TensorSpec"), "MLIRParseError": ("latticecast.runtime", "MLIRParseError"),
    "SourceFileError": ("latticecast.dialect_utils.parsing", "SourceFileError"),
    "LatticecastRuntimeError": ("latticecast.runtime", "LatticecastRuntimeError"),
    "DeviceNotFoundError": ("latticecast.runtime", "DeviceNotFoundError"),
    "DeviceCountError": ("latticecast.runtime", "DeviceCountError"),
    "InputError": ("latticecast.runtime", "InputError"),
    "CompileError": ("latticecast.runtime", "CompileError"),
    "available_devices": ("latticecast.runtime", "available_devices"),
    "ImplicitCastPass": ("latticecast.passes", "ImplicitCastPass"),
    "ImplicitCastOptions": ("latticecast.passes", "ImplicitCastOptions"),
    "run_pipeline": ("latticecast.passes", "run_pipeline"), "Pipeline": ("latticecast.passes", "Pipeline"),
    "parse": ("latticecast.dialect_utils.parsing", "parse"),
    "evidence": ("latticecast.evidence", "evidence"),
    "lift": ("latticecast.retargeting", "lift"), "retarget": ("latticecast.retargeting", "retarget"),
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib
        module, attr = _LAZY[name]
        mod = importlib.import_module(module)
        value = mod if attr is None else getattr(mod, attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'latticecast' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))

__all__ = [
    "DType", "Kind", "Weak", "weak", "PType", "Lattice", "LatticeError", "PromotionTable", "TableFormatError",
    "AuditReport", "audit", "Policy", "policy", "policies", "register_policy", "promote_types",
    "implicit_cast_type", "result_type", "explain", "default_policy", "set_default_policy",
    "LatticecastError", "PromotionError", "LiteralRangeError", "DomainError", "UnknownDTypeError",
    "UnknownPolicyError", "NoCurrentGraphError", "RegionTypeError", "UnsupportedOpError", "AxisError",
    "GraphTypeError", "OperandDTypeError",
    "Graph", "TensorType", "DeviceRef", "SymbolicDim", "Value", "GraphError", "PassFailure", "ops", "compile",
    "Model", "TensorSpec", "PolymorphicModel", "UnsupportedModuleError", "InputShapeError",
    "LatticecastRuntimeError", "DeviceNotFoundError", "DeviceCountError", "InputError", "CompileError", "available_devices",
    "MLIRParseError", "SourceFileError", "ImplicitCastPass", "ImplicitCastOptions", "run_pipeline", "parse", "Pipeline",
    "evidence", "lift", "retarget",
    "LatticecastWarning",
    "UnsupportedVersionWarning",
]
