"""MAX's ``max.graph.quantization`` (its home: :mod:`latticecast.graph.quantization`).

Example:
    >>> from latticecast.max.graph.quantization import QuantizationEncoding
    >>> QuantizationEncoding.Q4_0.block_size
    18
"""

from ...graph.quantization import BlockParameters, QuantizationConfig, QuantizationEncoding

__all__ = ["BlockParameters", "QuantizationConfig", "QuantizationEncoding"]
