"""latticecast: implicit type promotion for StableHLO, driven by a promotion lattice.

Three layers, usable one at a time: promotion (dtypes, lattices, policies; no
MLIR), IR (a MAX-style graph builder and the ``implicit-cast`` pass), runtime
(PJRT). Importing the package loads none of them (only the errors and the version);
each loads on first use of one of its names.
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING, Any

from .errors import (AxisError, DomainError, GraphError, LatticecastError, LatticecastWarning, LiteralRangeError, NoCurrentGraphError, PromotionError,
                     RegionTypeError, UnknownPolicyError,
                     UnsupportedOpError, GraphTypeError, OperandDTypeError)
from ._versions import UnsupportedVersionWarning, installed_answers as _installed_answers, \
    warn_unsupported as _warn_unsupported

from .promotion import mlir_bridge as _mlir_bridge


def _mlir_conversions() -> _mlir_bridge.MLIRConversions:
    """MLIR's layer, where the promotion layer's graph types convert to MLIR (loaded on first use)."""
    from .dialect_utils import graph_types
    return graph_types


_mlir_bridge.install(_mlir_conversions)  # the promotion layer imports no MLIR; this is its way there

__version__, _unsupported = _installed_answers()  # pyproject.toml's version, as installed (cached)
_warn_unsupported(_unsupported)  # warns when the installed jax/jaxlib is outside the tested range

if TYPE_CHECKING:  # the lazy names below, as tools see them (never imported here at run time)
    from . import ops
    from .promotion.audit import AuditReport, audit
    from .promotion.device_ref import DeviceRef
    from .dialect_utils.parsing import SourceFileError, parse
    from .promotion.dims import SymbolicDim
    from .promotion.dtypes import DType, Kind, UnknownDTypeError
    from .evidence import evidence
    from .graph import Graph, PassFailure, Value
    from .promotion.lattice import Lattice, LatticeError
    from .passes import ImplicitCastOptions, ImplicitCastPass, Pipeline, run_pipeline
    from .policies import Policy, policy, register_policy
    from .policies.registry import policies
    from .policies.functions import (default_policy, explain, implicit_cast_type, promote_types, result_type,
                            set_default_policy)
    from .retargeting import lift, retarget
    from .runtime import (CompileError, DeviceCountError, DeviceNotFoundError, InputError, InputShapeError,
                          LatticecastRuntimeError, MLIRParseError, Model, PolymorphicModel, TensorSpec,
                          UnsupportedModuleError, available_devices, compile)
    from .promotion.tables import PromotionTable, TableFormatError
    from .promotion.tensor_type import TensorType
    from .promotion.weak import PType, Weak, weak

# Every layer loads on first use, the promotion layer too (NumPy, the tables, the policies): a
# command such as ``latticecast-opt --version`` imports this package and needs none of them.
_LAZY = {
    **{name: ("latticecast.promotion.audit", name) for name in ("AuditReport", "audit")},
    "DeviceRef": ("latticecast.promotion.device_ref", "DeviceRef"), "SymbolicDim": ("latticecast.promotion.dims", "SymbolicDim"),
    **{name: ("latticecast.promotion.dtypes", name) for name in ("DType", "Kind", "UnknownDTypeError")},
    **{name: ("latticecast.promotion.lattice", name) for name in ("Lattice", "LatticeError")},
    **{name: ("latticecast.policies", name) for name in ("Policy", "policy", "register_policy")},
    "policies": ("latticecast.policies.registry", "policies"),
    **{name: ("latticecast.policies.functions", name) for name in ("default_policy", "explain", "implicit_cast_type",
                                                          "promote_types", "result_type", "set_default_policy")},
    **{name: ("latticecast.promotion.tables", name) for name in ("PromotionTable", "TableFormatError")},
    "TensorType": ("latticecast.promotion.tensor_type", "TensorType"),
    **{name: ("latticecast.promotion.weak", name) for name in ("PType", "Weak", "weak")},
    # the modules that sat at the package's root before the promotion layer had its package, as attributes
    **{name: (f"latticecast.promotion.{name}", None) for name in ("dtypes", "lattice", "tables", "dims", "device_ref",
                                                                  "promotion_graph")},
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
"""Each lazy name: the module that defines it, and its name there (``None``: the module itself)."""

_SUBMODULES = {module.split(".")[1] for module, _ in _LAZY.values()}
"""The submodules the lazy names come from: ``lc.dtypes`` is found as when the package imported it."""


def __getattr__(name: str) -> Any:
    import importlib
    if name in _LAZY:
        module, attr = _LAZY[name]
        mod = importlib.import_module(module)
        value = mod if attr is None else getattr(mod, attr)
        globals()[name] = value
        return value
    if name in _SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")  # the import binds it here (_Package.__setattr__)
    raise AttributeError(f"module 'latticecast' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


class _Package(types.ModuleType):
    """The package's module: the import system binds a submodule to the package's attribute of the
    same name when it first loads it, and ``audit``, ``policies``, ``weak`` and ``evidence`` name a
    function here and a submodule there. The function wins, whichever loads first."""

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, types.ModuleType) and _LAZY.get(name, (None, None))[1] is not None:
            return  # left to __getattr__, which gives the function
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package

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
