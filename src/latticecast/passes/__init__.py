"""The ``implicit-cast`` pass and textual pipelines that include it."""

from .diagnostics import Diagnostic, LossyPromotionWarning
from .implicit_cast import ImplicitCastPass, ImplicitCastResult, run_implicit_cast
from .options import ImplicitCastOptions, PassOptionError
from .pipeline import PipelineError, build_pass_manager, run_pipeline

__all__ = ["ImplicitCastPass", "ImplicitCastOptions", "ImplicitCastResult", "run_implicit_cast",
           "Diagnostic", "LossyPromotionWarning", "PassOptionError", "PipelineError", "build_pass_manager",
           "run_pipeline"]
