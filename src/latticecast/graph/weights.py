"""Checkpoints as MAX reads them (``max.graph.weights``): ``.safetensors`` and ``.gguf`` files by name.

``SafetensorWeights([path, ...])`` and ``GGUFWeights(path)`` open the files through the field's own
packages (``safetensors`` and ``gguf``) and read only the headers: a tensor's bytes are read when it is
allocated. Attribute and index access builds a name (``weights.layers[0].mlp.weight`` is
``"layers.0.mlp.weight"``), ``allocate()`` gives a :class:`~latticecast.graph.weight.Weight` of the file's
dtype and shape, and ``allocated_weights`` is the ``weights_registry`` to load the graph with, as in MAX::

    weights = SafetensorWeights([path])
    with Graph("mlp", input_types=[...]) as g:
        w = weights.fc1.weight.allocate()
        ...
    model = InferenceSession(devices=[CPU()]).load(g, weights_registry=weights.allocated_weights)

A file that is missing, cut short, or not of its format raises :class:`~latticecast.errors.WeightsFileError`
naming the file (and the tensor, where one is at fault) and the fix; MAX raises a ``ValueError`` for each
(it is one); a missing file is a :class:`~latticecast.errors.MissingWeightsFileError`, also the
``FileNotFoundError`` MAX raises for a missing GGUF file.

Example:
    >>> import numpy as np, tempfile, pathlib
    >>> from safetensors.numpy import save_file
    >>> from latticecast.graph.weights import SafetensorWeights
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "m.safetensors"
    >>> save_file({"fc.weight": np.ones((2, 3), np.float32)}, str(path))
    >>> weights = SafetensorWeights([path])
    >>> w = weights.fc.weight.allocate()
    >>> w.name, w.dtype, list(w.shape), list(weights.allocated_weights)
    ('fc.weight', DType.float32, [Dim(2), Dim(3)], ['fc.weight'])
"""

from __future__ import annotations

import difflib
import json
import os
import struct
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Mapping, Protocol, Sequence, TypeVar

import ml_dtypes
import numpy as np
import numpy.typing as npt

from ..promotion.device_ref import CPU, DeviceRef
from ..promotion.dims import Shape, ShapeLike
from ..promotion.dtypes import DType
from ..errors import MissingWeightsFileError, WeightsFileError
from .quantization import QuantizationEncoding
from .weight import Weight

if TYPE_CHECKING:
    import gguf

__all__ = ["GGUFWeights", "SafetensorWeights", "WeightData", "Weights", "WeightsAdapter", "WeightsFormat",
           "load_weights", "weights_format"]

_Self = TypeVar("_Self", bound="Weights")


class Weights(Protocol):
    """MAX's interface of a checkpoint: a name built by attribute and index access, and what lives there.

    Example:
        >>> from latticecast.graph.weights import GGUFWeights, SafetensorWeights
        >>> all(hasattr(w, "allocate") and hasattr(w, "allocated_weights") for w in (GGUFWeights, SafetensorWeights))
        True
    """

    @property
    def name(self) -> str:
        """The name (or prefix) built so far."""
        ...

    def __getattr__(self: _Self, attr: str) -> _Self: ...

    def __getitem__(self: _Self, idx: int | str) -> _Self: ...

    def exists(self) -> bool:
        """Whether a tensor has this name."""
        ...

    def items(self: _Self) -> Iterator[tuple[str, _Self]]:
        """The tensors whose names start with this one, with their weights."""
        ...

    def data(self) -> "WeightData":
        """The tensor's values."""
        ...

    def allocate(self, dtype: DType | None = None, shape: ShapeLike | None = None,
                 quantization_encoding: QuantizationEncoding | None = None,
                 device: DeviceRef = CPU) -> Weight:
        """The tensor as a :class:`Weight` to add to a graph."""
        ...

    @property
    def allocated_weights(self) -> dict[str, np.ndarray]:
        """The values of the weights allocated so far, by name: the ``weights_registry``."""
        ...


class WeightsAdapter(Protocol):
    """MAX's name for a function that renames a checkpoint's weights for a model:
    ``adapter(state_dict, **config) -> dict[str, WeightData]``.

    Example:
        >>> from latticecast.graph.weights import WeightsAdapter
        >>> WeightsAdapter.__name__
        'WeightsAdapter'
    """

    def __call__(self, state_dict: Mapping[str, Weights], **kwargs: object) -> dict[str, "WeightData"]: ...


@dataclass
class WeightData:
    """A tensor read from a checkpoint: its values, name, dtype, shape and (GGUF) block encoding.

    Example:
        >>> import numpy as np
        >>> from latticecast.graph.weights import WeightData
        >>> WeightData.from_numpy(np.zeros((2, 3), np.float32), "w")
        WeightData(DType.float32, [Dim(2), Dim(3)])
    """

    data: npt.ArrayLike
    name: str
    dtype: DType
    shape: Shape
    quantization_encoding: QuantizationEncoding | None = None

    def __dlpack__(self, *, stream: Any = None) -> Any:  # Any: DLPack's protocol, as NumPy takes it
        return np.asarray(self.data).__dlpack__(stream=stream)

    def __dlpack_device__(self) -> tuple[int, int]:
        return np.asarray(self.data).__dlpack_device__()

    def __array__(self, dtype: npt.DTypeLike | None = None, copy: bool | None = None) -> np.ndarray:
        array = np.asarray(self.data)
        return array if dtype is None else array.astype(dtype)

    def to_buffer(self) -> npt.ArrayLike:
        """The values (a NumPy array here, where MAX gives its ``Buffer``)."""
        return self.data

    @classmethod
    def from_numpy(cls, arr: np.ndarray, name: str) -> "WeightData":
        """A :class:`WeightData` of a NumPy array.

        Args:
            arr: The values.
            name: The weight's name.

        Returns:
            The weight data, of the array's dtype and shape.
        """
        return cls(arr, name, DType.from_numpy(arr.dtype), Shape(arr.shape))

    def astype(self, dtype: DType) -> "WeightData":
        """The values converted to ``dtype`` (this object when it is already of it).

        Args:
            dtype: The dtype to convert to.

        Returns:
            A :class:`WeightData` of ``dtype``.
        """
        if self.dtype == dtype:
            return self
        return WeightData(np.asarray(self.data).astype(DType.parse(dtype).to_numpy()), self.name, DType.parse(dtype),
                          self.shape, self.quantization_encoding)

    def __repr__(self) -> str:
        return f"WeightData({self.dtype!r}, {list(self.shape)!r})"


class WeightsFormat(str, Enum):
    """The checkpoint formats MAX reads, by file extension.

    Example:
        >>> from latticecast.graph.weights import WeightsFormat
        >>> WeightsFormat("gguf") is WeightsFormat.gguf
        True
    """

    gguf = "gguf"
    safetensors = "safetensors"


def weights_format(weight_paths: Sequence[Path]) -> WeightsFormat:
    """The format of a checkpoint's files, from their extensions (all must agree), as MAX decides it.

    Args:
        weight_paths: The checkpoint's files.

    Returns:
        The :class:`WeightsFormat`.

    Raises:
        ValueError: No paths, mixed formats, or an extension that is neither (MAX's message).

    Example:
        >>> from pathlib import Path
        >>> from latticecast.graph.weights import weights_format
        >>> weights_format([Path("a.safetensors"), Path("b.safetensors")])
        <WeightsFormat.safetensors: 'safetensors'>
    """
    if not weight_paths:
        raise ValueError("no weight_paths provided cannot infer weights format.")
    suffixes = {Path(p).suffix for p in weight_paths}
    if suffixes == {".gguf"}:
        return WeightsFormat.gguf
    if suffixes == {".safetensors"}:
        return WeightsFormat.safetensors
    raise ValueError(f"weights type cannot be inferred from {list(weight_paths)}")


def load_weights(paths: Sequence[Path]) -> "SafetensorWeights | GGUFWeights":
    """The checkpoint in ``paths``, by format: :class:`SafetensorWeights` or :class:`GGUFWeights` (one file).

    Args:
        paths: The checkpoint's files (several for a sharded ``.safetensors`` checkpoint).

    Returns:
        Its weights.

    Raises:
        ValueError: The format cannot be told, or several GGUF files are given (MAX's messages).

    Example:
        >>> import numpy as np, tempfile, pathlib
        >>> from safetensors.numpy import save_file
        >>> from latticecast.graph.weights import load_weights
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "m.safetensors"
        >>> save_file({"w": np.ones(2, np.float32)}, str(path))
        >>> type(load_weights([path])).__name__
        'SafetensorWeights'
    """
    kind = weights_format([Path(p) for p in paths])
    if kind is WeightsFormat.gguf:
        if len(paths) > 1:
            raise ValueError("loading multiple gguf files is not supported.")
        return GGUFWeights(paths[0])
    return SafetensorWeights(paths)


# ---- safetensors ----

_NUMPY_LACKS = {"F8_E4M3": ml_dtypes.float8_e4m3fn, "F8_E5M2": ml_dtypes.float8_e5m2,
                "F8_E8M0": ml_dtypes.float8_e8m0fnu, "F4": ml_dtypes.float4_e2m1fn}
"""safetensors dtypes whose NumPy reader looks up a ``numpy.float8_*`` attribute NumPy does not have: their
bytes are read at the offsets of the file's own header and viewed as ml_dtypes' types."""

_SAFETENSORS_DTYPES = {"BOOL": DType.bool, "U8": DType.uint8, "I8": DType.int8, "U16": DType.uint16,
                       "I16": DType.int16, "U32": DType.uint32, "I32": DType.int32, "U64": DType.uint64,
                       "I64": DType.int64, "F16": DType.float16, "BF16": DType.bfloat16, "F32": DType.float32,
                       "F64": DType.float64, "F8_E4M3": DType.float8_e4m3fn, "F8_E5M2": DType.float8_e5m2,
                       "F8_E8M0": DType.float8_e8m0fnu, "F4": DType.float4_e2m1fn}
"""safetensors' dtype names and MAX's dtypes."""


class _SafetensorsFile:
    """One ``.safetensors`` file opened through the ``safetensors`` package (its header read, its data mapped)."""

    def __init__(self, path: Path) -> None:
        from safetensors import SafetensorError, safe_open
        self.path = path
        if not path.is_file():
            raise MissingWeightsFileError(f"{path}: No such file or directory: a safetensors checkpoint file must exist; "
                                   "check the path (and that the download finished)", path=path)
        try:
            self.handle = safe_open(str(path), framework="numpy")
        except (SafetensorError, OSError, ValueError) as e:
            size = path.stat().st_size
            raise WeightsFileError(f"{path}: not a readable safetensors file ({size} bytes): {e}; a safetensors file "
                                   "starts with an 8-byte header length and a JSON header: check that the file is "
                                   "whole and is a .safetensors file (a .gguf file is read with GGUFWeights)",
                                   path=path) from None
        self.keys = list(self.handle.keys())
        self._header: dict[str, Any] | None = None  # Any: the file's JSON header, read as JSON

    def dtype_and_shape(self, name: str) -> tuple[str, list[int]]:
        view = self.handle.get_slice(name)
        return str(view.get_dtype()), [int(d) for d in view.get_shape()]

    def tensor(self, name: str) -> np.ndarray:
        """The tensor's values, read now (checked against the file's size)."""
        from safetensors import SafetensorError
        dtype, shape = self.dtype_and_shape(name)
        start, end = self._offsets(name)
        if end > self.path.stat().st_size:
            raise WeightsFileError(f"{self.path}: tensor {name!r} ({dtype}{shape}) ends at byte {end} but the file "
                                   f"has {self.path.stat().st_size} bytes: the file is cut short; download or write "
                                   "it again", path=self.path, tensor=name)
        if dtype in _NUMPY_LACKS:
            raw = np.memmap(self.path, dtype=np.uint8, mode="r", offset=start, shape=(end - start,))
            typed: np.ndarray = np.asarray(raw).view(_NUMPY_LACKS[dtype]).reshape(shape)
            return typed
        try:
            return np.asarray(self.handle.get_tensor(name))
        except (SafetensorError, ValueError, TypeError) as e:
            raise WeightsFileError(f"{self.path}: tensor {name!r} ({dtype}{shape}) cannot be read: {e}",
                                   path=self.path, tensor=name) from None

    def _offsets(self, name: str) -> tuple[int, int]:
        if self._header is None:
            with open(self.path, "rb") as f:
                (length,) = struct.unpack("<Q", f.read(8))
                self._header = {"__start__": 8 + length, **json.loads(f.read(length))}
        entry = self._header[name]
        begin, end = entry["data_offsets"]
        start = int(self._header["__start__"])
        return start + int(begin), start + int(end)


class SafetensorWeights:
    """The weights of one or more ``.safetensors`` files (MAX's ``SafetensorWeights``), read lazily.

    Args:
        filepaths: The files of the checkpoint (a sharded checkpoint has several).
        tensors: For MAX's internal clones: the names in the files.
        tensors_to_file_idx: For clones: which file holds each name.
        prefix: The name built so far.
        allocated: For clones: the values allocated so far (shared).

    Raises:
        WeightsFileError: A file is missing or is not a safetensors file; the message names it.

    Example:
        >>> import numpy as np, tempfile, pathlib
        >>> from safetensors.numpy import save_file
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "m.safetensors"
        >>> save_file({"layers.0.w": np.ones((2, 2), np.float32)}, str(path))
        >>> weights = SafetensorWeights([path])
        >>> weights.layers[0].w.exists(), [name for name, _ in weights.items()]
        (True, ['layers.0.w'])
    """

    def __init__(self, filepaths: Sequence[os.PathLike[str] | str], *, tensors: set[str] | None = None,
                 tensors_to_file_idx: Mapping[str, int] | None = None, prefix: str = "",
                 allocated: dict[str, np.ndarray] | None = None,
                 _st_file_handles: dict[Path, _SafetensorsFile] | None = None) -> None:
        self._filepaths = [Path(p) for p in filepaths]
        if _st_file_handles is None:
            _st_file_handles = {p: _SafetensorsFile(p) for p in self._filepaths}
        self._st_file_handles = _st_file_handles
        if tensors is None or tensors_to_file_idx is None:
            index: dict[str, int] = {}
            for i, path in enumerate(self._filepaths):
                index.update({k: i for k in self._st_file_handles[path].keys})
            tensors, tensors_to_file_idx = set(index), index
        self._tensors = tensors
        self._tensors_to_file_idx = dict(tensors_to_file_idx)
        self._prefix = prefix
        self._allocated: dict[str, np.ndarray] = {} if allocated is None else allocated

    def _clone(self, prefix: str) -> "SafetensorWeights":
        return SafetensorWeights(self._filepaths, tensors=self._tensors, tensors_to_file_idx=self._tensors_to_file_idx,
                                 prefix=prefix, allocated=self._allocated, _st_file_handles=self._st_file_handles)

    @property
    def name(self) -> str:
        """The name (or prefix) built so far (``weights.layers[0]`` is ``"layers.0"``)."""
        return self._prefix

    def items(self) -> Iterator[tuple[str, "SafetensorWeights"]]:
        """The tensors whose names start with this prefix, sorted by name, with their weights.

        Returns:
            An iterator of ``(name, weights)`` pairs.
        """
        for name in sorted(self._tensors):
            if name.startswith(self._prefix):
                yield name, self._clone(name)

    def __getattr__(self, attr: str) -> "SafetensorWeights":
        if attr.startswith("__"):
            raise AttributeError(attr)
        return self._clone(f"{self._prefix}.{attr}" if self._prefix else attr)

    def __getitem__(self, idx: int | str) -> "SafetensorWeights":
        return self.__getattr__(str(idx))

    def exists(self) -> bool:
        """Whether a tensor of the files has this name.

        Returns:
            ``True`` if so.
        """
        return self._prefix in self._tensors_to_file_idx

    def _file(self) -> _SafetensorsFile:
        if self._prefix not in self._tensors_to_file_idx:
            match = difflib.get_close_matches(self._prefix, list(self._tensors_to_file_idx), n=1)
            hint = f" Did you mean '{match[0]}'?" if match else ""
            raise KeyError(f"'{self._prefix}' is not a weight in the Safetensor checkpoint.{hint}")
        return self._st_file_handles[self._filepaths[self._tensors_to_file_idx[self._prefix]]]

    def _load(self) -> np.ndarray:
        return self._file().tensor(self._prefix)

    def data(self) -> WeightData:
        """The tensor's values, read from the file.

        Returns:
            A :class:`WeightData`.

        Raises:
            KeyError: No tensor has this name (MAX's message, with the closest name).
            WeightsFileError: The file is cut short.
        """
        array = self._load()
        return WeightData(array, self._prefix, DType.from_numpy(array.dtype), Shape(array.shape))

    def allocate(self, dtype: DType | None = None, shape: ShapeLike | None = None,
                 quantization_encoding: QuantizationEncoding | None = None, device: DeviceRef = CPU) -> Weight:
        """The tensor as a :class:`Weight` of the file's dtype and shape; its values join ``allocated_weights``.

        Args:
            dtype: The dtype expected (checked), or ``None``.
            shape: The shape expected (checked), or ``None``.
            quantization_encoding: Must be ``None``: safetensors files hold no GGUF blocks (MAX's message).
            device: Where the weight lives.

        Returns:
            The :class:`Weight`.

        Raises:
            ValueError: A quantization encoding, or another dtype or shape than the file's (MAX's messages).
            KeyError: No tensor has this name.
        """
        if quantization_encoding is not None:
            raise ValueError(f"Quantization encodings are not supported in safetensor format. Got: "
                             f"{quantization_encoding}")
        file = self._file()
        st_dtype, st_shape = file.dtype_and_shape(self._prefix)
        weight_dtype = _SAFETENSORS_DTYPES.get(st_dtype)
        if weight_dtype is None:
            raise WeightsFileError(f"{file.path}: tensor {self._prefix!r} has dtype {st_dtype}, which MAX has no "
                                   "DType for; convert it when the checkpoint is written", path=file.path,
                                   tensor=self._prefix)
        array = file.tensor(self._prefix)
        weight = Weight(self._prefix, weight_dtype, st_shape, device, align=1)
        self._allocated[self._prefix] = array
        if shape is not None and tuple(st_shape) != tuple(int(d) for d in shape):
            raise ValueError(f"Value provided to weight '{self._prefix}' had different shape "
                             f"(expected={tuple(shape)}, actual={tuple(st_shape)})")
        if dtype is not None and weight_dtype != dtype:
            raise ValueError(f"Value provided to weight '{self._prefix}' had different dtype "
                             f"(expected={dtype!r}, actual={weight_dtype!r})")
        return weight

    def allocate_as_bytes(self, dtype: DType | None = None) -> Weight:
        """The tensor's bytes as a ``uint8`` weight: its last axis scaled by the dtype's size (a scalar as
        ``[1]``), as MAX gives it.

        Args:
            dtype: Unused (MAX's signature).

        Returns:
            The ``uint8`` :class:`Weight`.
        """
        array = self._load()
        raw = np.ascontiguousarray(array.reshape(array.shape or (1,))).view(np.uint8)
        weight = Weight(self._prefix, DType.uint8, raw.shape, CPU)
        self._allocated[self._prefix] = raw
        return weight

    def close(self) -> None:
        """Forget the files and the values allocated (MAX's: later reads through this object fail)."""
        self._st_file_handles.clear()
        self._allocated.clear()

    @property
    def allocated_weights(self) -> dict[str, np.ndarray]:
        """The values of the weights allocated so far, by name (``weights_registry`` for
        ``InferenceSession.load``)."""
        return self._allocated


# ---- GGUF ----

def _ggml_tables() -> "tuple[dict[gguf.GGMLQuantizationType, DType], dict[gguf.GGMLQuantizationType, QuantizationEncoding]]":
    import gguf
    q = gguf.GGMLQuantizationType
    plain = {q.I8: DType.int8, q.I16: DType.int16, q.I32: DType.int32, q.I64: DType.int64, q.F16: DType.float16,
             q.F32: DType.float32, q.F64: DType.float64, q.BF16: DType.bfloat16}
    blocks = {q.Q4_0: QuantizationEncoding.Q4_0, q.Q4_K: QuantizationEncoding.Q4_K,
              q.Q5_K: QuantizationEncoding.Q5_K, q.Q6_K: QuantizationEncoding.Q6_K}
    return plain, blocks


class GGUFWeights:
    """The weights of a ``.gguf`` file (MAX's ``GGUFWeights``), read through the ``gguf`` package.

    Tensors of GGUF's block formats (Q4_0, Q4_K, Q5_K, Q6_K) are ``uint8`` weights of their packed bytes with
    a :class:`~latticecast.graph.quantization.QuantizationEncoding`; :func:`latticecast.ops.dequantize` unpacks
    them in the graph. GGUF lists sizes innermost first; here, as in MAX, they are outermost first.

    Args:
        source: The file (or a ``gguf.GGUFReader`` of it).
        tensors: For clones: the file's tensors by name.
        prefix: The name built so far.
        allocated: For clones: the values allocated so far (shared).

    Raises:
        WeightsFileError: The file is missing, cut short or not a GGUF file; the message names it.

    Example:
        >>> import numpy as np, tempfile, pathlib, gguf
        >>> from latticecast.graph.weights import GGUFWeights
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "m.gguf"
        >>> writer = gguf.GGUFWriter(str(path), "example")
        >>> writer.add_tensor("w", np.ones((2, 3), np.float32))
        >>> writer.write_header_to_file(); writer.write_kv_data_to_file(); writer.write_tensors_to_file()
        >>> writer.close()
        >>> w = GGUFWeights(path).w.allocate()
        >>> w.dtype, list(w.shape)
        (DType.float32, [Dim(2), Dim(3)])
    """

    def __init__(self, source: "os.PathLike[str] | str | gguf.GGUFReader",
                 tensors: "dict[str, gguf.ReaderTensor] | None" = None, prefix: str = "",
                 allocated: dict[str, np.ndarray] | None = None) -> None:
        import gguf
        if isinstance(source, gguf.GGUFReader):
            self._reader = source
        else:
            path = Path(source)
            if not path.is_file():
                raise MissingWeightsFileError(f"{path}: No such file or directory: a GGUF checkpoint file must exist; "
                                              "check the path (and that the download finished)", path=path)
            try:
                self._reader = gguf.GGUFReader(path)
            except (ValueError, OSError, IndexError, KeyError, struct.error) as e:
                raise WeightsFileError(f"{path}: not a readable GGUF file ({path.stat().st_size} bytes): {e}; a GGUF "
                                       "file starts with the magic 'GGUF', then its metadata and tensor infos: check "
                                       "that it is whole and is a .gguf file (a .safetensors file is read with "
                                       "SafetensorWeights)", path=path) from None
        self._path = Path(str(self._reader.data.filename)) if hasattr(self._reader.data, "filename") else None
        self._tensors = tensors if tensors is not None else {t.name: t for t in self._reader.tensors}
        self._prefix = prefix
        self._allocated: dict[str, np.ndarray] = {} if allocated is None else allocated

    def _clone(self, prefix: str) -> "GGUFWeights":
        return GGUFWeights(self._reader, self._tensors, prefix=prefix, allocated=self._allocated)

    @property
    def name(self) -> str:
        """The name (or prefix) built so far."""
        return self._prefix

    def items(self) -> Iterator[tuple[str, "GGUFWeights"]]:
        """The tensors whose names start with this prefix, in the file's order, with their weights.

        Returns:
            An iterator of ``(name, weights)`` pairs.
        """
        for name in self._tensors:
            if name.startswith(self._prefix):
                yield name, self._clone(name)

    def __getattr__(self, attr: str) -> "GGUFWeights":
        if attr.startswith("__"):
            raise AttributeError(attr)
        return self._clone(f"{self._prefix}.{attr}" if self._prefix else attr)

    def __getitem__(self, idx: int | str) -> "GGUFWeights":
        return self.__getattr__(str(idx))

    def exists(self) -> bool:
        """Whether a tensor of the file has this name.

        Returns:
            ``True`` if so.
        """
        return self._prefix in self._tensors

    def _raw_tensor(self) -> "gguf.ReaderTensor":
        if self._prefix not in self._tensors:
            raise KeyError(f"Could not find weight named {self._prefix}. Please check that the name is correct.")
        return self._tensors[self._prefix]

    def _typed(self, tensor: "gguf.ReaderTensor") -> tuple[DType, list[int], QuantizationEncoding | None]:
        import gguf
        plain, blocks = _ggml_tables()
        shape = [int(d) for d in reversed(tensor.shape.tolist())]
        if tensor.tensor_type in plain:
            return plain[tensor.tensor_type], shape, None
        if tensor.tensor_type in blocks:
            return DType.uint8, list(gguf.quant_shape_to_byte_shape(shape, tensor.tensor_type)), \
                blocks[tensor.tensor_type]
        raise WeightsFileError(f"{self._where()}: tensor {tensor.name!r} is of GGML type "
                               f"{gguf.GGMLQuantizationType(tensor.tensor_type).name}, which MAX reads neither as a "
                               "DType nor as one of its encodings (Q4_0, Q4_K, Q5_K, Q6_K); re-quantize the "
                               "checkpoint to one of them", path=self._path, tensor=tensor.name)

    def _where(self) -> str:
        return str(self._path) if self._path is not None else "GGUF file"

    def _values(self, tensor: "gguf.ReaderTensor", shape: list[int], dtype: DType) -> np.ndarray:
        data = tensor.data
        expected = int(np.prod(shape, dtype=np.int64)) * (1 if dtype == DType.uint8 else dtype.to_numpy().itemsize)
        if data.nbytes != expected:
            raise WeightsFileError(f"{self._where()}: tensor {tensor.name!r} should hold {expected} bytes but the file "
                                   f"has {data.nbytes} of it: the file is cut short; download or write it again",
                                   path=self._path, tensor=tensor.name)
        values = np.asarray(data)
        target = np.dtype(np.uint8) if dtype == DType.uint8 else dtype.to_numpy()
        if values.dtype != target:  # gguf gives bfloat16 (and block formats) as raw bytes
            values = np.ascontiguousarray(values).view(np.uint8).view(target)
        return values.reshape(shape)

    def data(self) -> WeightData:
        """The tensor's values (packed bytes for a block format), read from the file.

        Returns:
            A :class:`WeightData` with its encoding.

        Raises:
            KeyError: No tensor has this name (MAX's message).
        """
        tensor = self._raw_tensor()
        dtype, shape, encoding = self._typed(tensor)
        return WeightData(self._values(tensor, shape, dtype), self._prefix, dtype, Shape(shape), encoding)

    def allocate(self, dtype: DType | None = None, shape: ShapeLike | None = None,
                 quantization_encoding: QuantizationEncoding | None = None, device: DeviceRef = CPU) -> Weight:
        """The tensor as a :class:`Weight` (``uint8`` packed blocks with their encoding for a block format); its
        values join ``allocated_weights``.

        Args:
            dtype: The dtype expected (checked), or ``None``.
            shape: The shape expected, unpacked for a block format (checked), or ``None``.
            quantization_encoding: An encoding expected: the tensor must be quantized (any block format: GGUF
                checkpoints mix them).
            device: Where the weight lives.

        Returns:
            The :class:`Weight`.

        Raises:
            ValueError: Another dtype or shape, or an unquantized tensor where one was expected (MAX's messages).
        """
        import gguf
        tensor = self._raw_tensor()
        weight_dtype, weight_shape, encoding = self._typed(tensor)
        values = self._values(tensor, weight_shape, weight_dtype)
        weight = Weight(tensor.name, weight_dtype, weight_shape, device, quantization_encoding=encoding,
                        align=int(self._reader.alignment))
        self._allocated[self._prefix] = values
        if shape is not None:
            unpacked = tuple(weight_shape)
            if encoding is not None:
                unpacked = tuple(gguf.quant_shape_from_byte_shape(weight_shape, tensor.tensor_type))
            if unpacked != tuple(int(d) for d in shape):
                raise ValueError(f"Value provided to weight '{self._prefix}' had different shape "
                                 f"(expected={tuple(shape)}, actual={unpacked})")
        if dtype is not None and weight_dtype != dtype:
            raise ValueError(f"Value provided to weight '{self._prefix}' had different dtype "
                             f"(expected={dtype!r}, actual={weight_dtype!r})")
        if quantization_encoding is not None and encoding is None:
            raise ValueError(f"Expected quantized weight but checkpoint contained unquantized weight for "
                             f"{self._prefix}")
        return weight

    @property
    def allocated_weights(self) -> dict[str, np.ndarray]:
        """The values of the weights allocated so far, by name (``weights_registry``)."""
        return self._allocated

