"""latticecast's passes (``implicit-cast``, its inverse ``lift-implicit-casts``, ``lower-dtypes``) and textual
pipelines that include them.

The options (:mod:`.options`) load without MLIR, so that a command line can be read (and
``latticecast-opt --help`` printed) before jaxlib is; every other name here loads MLIR on first use.
"""

from typing import TYPE_CHECKING, Any

from .options import (PASS_OPTIONS, ImplicitCastOptions, LiftOptions, LossyLevel, LowerDTypesOptions,
                      PassOptionError, PassOptions)

if TYPE_CHECKING:
    from ..dialect_utils.diagnostics import Diagnostic, LossyPromotionWarning
    from .base import LatticecastPass, PassResult
    from .implicit_cast import ImplicitCastPass, run_implicit_cast
    from .lift import LiftImplicitCastsPass, LiftResult, run_lift
    from .lower_dtypes import LowerDTypesPass
    from .pipeline import MLIRPass, Pipeline, PipelineError
    from .runner import PASSES, PipelineResult, PipelineRunner, build_pass_manager, run_pipeline

_LAZY = {"Diagnostic": "..dialect_utils.diagnostics", "LossyPromotionWarning": "..dialect_utils.diagnostics",
         "LatticecastPass": ".base", "PassResult": ".base", "ImplicitCastPass": ".implicit_cast",
         "run_implicit_cast": ".implicit_cast", "LiftImplicitCastsPass": ".lift", "LiftResult": ".lift",
         "run_lift": ".lift", "LowerDTypesPass": ".lower_dtypes", "PASSES": ".runner",
         "Pipeline": ".pipeline", "PipelineError": ".pipeline", "MLIRPass": ".pipeline",
         "build_pass_manager": ".runner", "run_pipeline": ".runner", "PipelineRunner": ".runner",
         "PipelineResult": ".runner"}
"""The names that load MLIR, each with the module (relative to this package) that defines it."""


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib
        value = getattr(importlib.import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["LatticecastPass", "PassResult", "ImplicitCastPass", "ImplicitCastOptions", "run_implicit_cast",
           "LiftImplicitCastsPass", "LiftOptions", "LiftResult", "run_lift", "LowerDTypesPass", "LowerDTypesOptions", "LossyLevel", "PassOptions", "PassOptionError",
           "Diagnostic", "LossyPromotionWarning", "Pipeline", "PipelineError", "MLIRPass", "PASSES", "build_pass_manager",
           "run_pipeline", "PipelineRunner", "PipelineResult", "PASS_OPTIONS"]
