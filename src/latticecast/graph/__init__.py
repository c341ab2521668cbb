"""The MAX-style graph builder: ``Graph``, ``Value`` and the ops (``TensorType`` lives below it)."""

from .. import dialect_utils as _dialect_utils  # noqa: F401  (first: it loads jaxlib)
from ..errors import GraphError
from ..promotion.tensor_type import TensorType
from . import ops
from .current import current_graph
from .graph import Graph, PassFailure
from .value import Value

__all__ = ["Graph", "TensorType", "Value", "GraphError", "PassFailure", "current_graph", "ops"]
