"""MAX's ``max.graph.weights``: checkpoints by file (its home: :mod:`latticecast.graph.weights`).

Example:
    >>> from latticecast.max.graph.weights import WeightsFormat, weights_format
    >>> from pathlib import Path
    >>> weights_format([Path("model.gguf")])
    <WeightsFormat.gguf: 'gguf'>
"""

from ...graph.weights import (GGUFWeights, SafetensorWeights, WeightData, Weights, WeightsAdapter, WeightsFormat,
                              load_weights, weights_format)

__all__ = ["GGUFWeights", "SafetensorWeights", "WeightData", "Weights", "WeightsAdapter", "WeightsFormat",
           "load_weights", "weights_format"]
