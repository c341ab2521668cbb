"""The MAX-style graph builder: ``Graph``, ``TensorType``, ``Value`` and the ops."""

from . import ops
from .graph import Graph, PassFailure, current_graph
from .types import GraphError, TensorType
from .value import Value

__all__ = ["Graph", "TensorType", "Value", "GraphError", "PassFailure", "current_graph", "ops"]
