"""latticecast's passes (``implicit-cast``, ``lower-dtypes``) and textual pipelines that include them."""

from ..dialect_utils.diagnostics import Diagnostic, LossyPromotionWarning
from .base import LatticecastPass, PassResult
from .implicit_cast import ImplicitCastPass, run_implicit_cast
from .lower_dtypes import LowerDTypesPass
from .options import ImplicitCastOptions, LossyLevel, LowerDTypesOptions, PassOptionError, PassOptions
from .pipeline import PASSES, Pipeline, PipelineError, build_pass_manager, run_pipeline

__all__ = ["LatticecastPass", "PassResult", "ImplicitCastPass", "ImplicitCastOptions", "run_implicit_cast",
           "LowerDTypesPass", "LowerDTypesOptions", "LossyLevel", "PassOptions", "PassOptionError",
           "Diagnostic", "LossyPromotionWarning", "Pipeline", "PipelineError", "PASSES", "build_pass_manager",
           "run_pipeline"]
