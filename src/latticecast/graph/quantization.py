"""MAX's quantization encodings (``max.graph.quantization``): the GGUF block formats a weight may hold.

A quantized weight is a ``uint8`` tensor whose last axis holds whole blocks: ``elements_per_block`` values
packed into ``block_size`` bytes (scales first or last, then the packed integers, as llama.cpp lays them out).
:func:`latticecast.ops.dequantize` unpacks them to ``float32`` in the graph, with StableHLO's integer and
bitcast ops, so the compiled program reads the packed bytes as MAX's kernels do; the ``gguf`` package's own
dequantiser (``gguf.quants.dequantize``) is the reference it is tested against.

Example:
    >>> from latticecast.graph.quantization import QuantizationEncoding
    >>> [(e.name, e.elements_per_block, e.block_size, e.is_gguf) for e in QuantizationEncoding if e.is_gguf][:2]
    [('q4_0', 32, 18, True), ('q4_k', 256, 144, True)]
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

__all__ = ["BlockParameters", "QuantizationConfig", "QuantizationEncoding"]


@dataclass(frozen=True)
class BlockParameters:
    """How a block-quantized encoding packs its values.

    Example:
        >>> from latticecast.graph.quantization import BlockParameters
        >>> BlockParameters(32, 18).block_size
        18
    """

    elements_per_block: int
    """The number of tensor elements grouped into one block."""
    block_size: int
    """The bytes one encoded block takes."""


@dataclass(frozen=True)
class QuantizationConfig:
    """MAX's description of a GPTQ/AWQ-style quantization (kept as data: such weights are refused when
    dequantized, as their packing is MAX's kernels').

    Example:
        >>> from latticecast.graph.quantization import QuantizationConfig
        >>> QuantizationConfig("gptq", bits=4, group_size=128).sym
        False
    """

    quant_method: str
    """The method's name (``gptq`` ...)."""
    bits: int
    """Bits per weight element."""
    group_size: int
    """Elements that share one set of quantization parameters."""
    desc_act: bool = False
    """Activation ordering."""
    sym: bool = False
    """Symmetric quantization."""


class QuantizationEncoding(enum.Enum):
    """The quantization encodings of MAX 26.7 (``max.graph.quantization.QuantizationEncoding``).

    ``Q4_0``, ``Q4_K``, ``Q5_K`` and ``Q6_K`` are llama.cpp's GGUF block formats (``is_gguf``); ``GPTQ`` is
    MAX's GPTQ packing, which has no block parameters. ``name`` is the lowercase value, as in MAX.

    Example:
        >>> from latticecast.graph.quantization import QuantizationEncoding
        >>> QuantizationEncoding.Q6_K.name, QuantizationEncoding("Q6_K").block_size
        ('q6_k', 210)
    """

    Q4_0 = "Q4_0"
    Q4_K = "Q4_K"
    Q5_K = "Q5_K"
    Q6_K = "Q6_K"
    GPTQ = "GPTQ"

    @property
    def block_parameters(self) -> BlockParameters:
        """The block layout (a ``KeyError`` for ``GPTQ``, which has none, as in MAX).

        Returns:
            The :class:`BlockParameters`.

        Example:
            >>> from latticecast.graph.quantization import QuantizationEncoding
            >>> QuantizationEncoding.Q4_K.block_parameters
            BlockParameters(elements_per_block=256, block_size=144)
        """
        return _BLOCK_PARAMETERS[self]

    @property
    def elements_per_block(self) -> int:
        """Tensor elements per block (``QuantizationEncoding.Q4_0.elements_per_block == 32``)."""
        return self.block_parameters.elements_per_block

    @property
    def block_size(self) -> int:
        """Bytes per encoded block (``QuantizationEncoding.Q4_0.block_size == 18``)."""
        return self.block_parameters.block_size

    @property  # MAX's: the lowercase value, not the member's name
    def name(self) -> str:
        """The lowercase encoding name (``"q4_k"``), as in MAX."""
        return str(self.value).lower()

    @property
    def is_gguf(self) -> bool:
        """Whether this is one of GGUF's block formats (all but ``GPTQ``)."""
        return self in _BLOCK_PARAMETERS


_BLOCK_PARAMETERS: dict[QuantizationEncoding, BlockParameters] = {
    QuantizationEncoding.Q4_0: BlockParameters(32, 2 + 32 // 2),                          # d, 4-bit q
    QuantizationEncoding.Q4_K: BlockParameters(256, 2 + 2 + 12 + 256 // 2),               # d, dmin, scales, q
    QuantizationEncoding.Q5_K: BlockParameters(256, 2 + 2 + 12 + 256 // 8 + 256 // 2),    # d, dmin, scales, qh, qs
    QuantizationEncoding.Q6_K: BlockParameters(256, 256 // 2 + 256 // 4 + 256 // 16 + 2),  # ql, qh, scales, d
}
"""The GGUF block layouts (llama.cpp's ``block_q4_0``, ``block_q4_K``, ``block_q5_K``, ``block_q6_K``)."""
