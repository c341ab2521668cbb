"""MAX's ``max._core.safetensors``: :func:`safe_open`, a ``.safetensors`` file's header and tensors, read through
the ``safetensors`` package (as :class:`~latticecast.graph.weights.SafetensorWeights` reads them).

Example:
    >>> import numpy as np, tempfile, pathlib
    >>> from safetensors.numpy import save_file
    >>> from latticecast.max._core.safetensors import safe_open
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "m.safetensors"
    >>> save_file({"w": np.ones(2, np.float32)}, str(path), metadata={"format": "np"})
    >>> with safe_open(path) as f:
    ...     f.keys(), f.metadata(), f.get_tensor("w").tolist()
    (['w'], {'format': 'np'}, [1.0, 1.0])
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from ...graph.weights import _SafetensorsFile

__all__ = ["SafeTensor", "safe_open"]


class SafeTensor:
    """An open ``.safetensors`` file (MAX's ``SafeTensor``).

    Args:
        path: The file.

    Raises:
        WeightsFileError: The file is missing or is not a safetensors file.
    """

    def __init__(self, path: "os.PathLike[str] | str") -> None:
        self._file = _SafetensorsFile(Path(path))

    def keys(self) -> list[str]:
        """The tensors' names, in the file's order.

        Returns:
            The names.
        """
        return list(self._file.keys)

    def metadata(self) -> dict[str, str]:
        """The file's ``__metadata__`` (``{}`` when it has none, as MAX gives it).

        Returns:
            The metadata.
        """
        return dict(self._file.handle.metadata() or {})

    def get_tensor(self, name: str) -> np.ndarray:
        """A tensor's values.

        Args:
            name: The tensor.

        Returns:
            A NumPy array of its dtype (ml_dtypes' for the float8 and float4 types).
        """
        return self._file.tensor(name)

    def __enter__(self) -> "SafeTensor":
        return self

    def __exit__(self, *exc: object) -> None:
        return None


def safe_open(path: "os.PathLike[str] | str") -> SafeTensor:
    """Open a ``.safetensors`` file (MAX's ``safe_open``; no ``framework`` argument: NumPy arrays).

    Args:
        path: The file.

    Returns:
        A :class:`SafeTensor`, also a context manager.
    """
    return SafeTensor(path)
