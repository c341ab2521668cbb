"""latticecast's passes (``implicit-cast``, its inverse ``lift-implicit-casts``, ``lower-dtypes``) and textual
pipelines that include them."""

from ..dialect_utils.diagnostics import Diagnostic, LossyPromotionWarning
from .base import LatticecastPass, PassResult
from .implicit_cast import ImplicitCastPass, run_implicit_cast
from .lift import LiftImplicitCastsPass, LiftResult, run_lift
from .lower_dtypes import LowerDTypesPass
from .options import ImplicitCastOptions, LiftOptions, LossyLevel, LowerDTypesOptions, PassOptionError, PassOptions
from .pipeline import PASSES, Pipeline, PipelineError, build_pass_manager, run_pipeline

__all__ = ["LatticecastPass", "PassResult", "ImplicitCastPass", "ImplicitCastOptions", "run_implicit_cast",
           "LiftImplicitCastsPass", "LiftOptions", "LiftResult", "run_lift", "LowerDTypesPass", "LowerDTypesOptions", "LossyLevel", "PassOptions", "PassOptionError",
           "Diagnostic", "LossyPromotionWarning", "Pipeline", "PipelineError", "PASSES", "build_pass_manager",
           "run_pipeline"]
