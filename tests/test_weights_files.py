"""Weights files that are cut short, corrupted or of another format: every one is an error naming the file (a
``WeightsFileError``, or MAX's ``KeyError``/``ValueError`` for a name or a shape), never another exception or
a silent wrong answer. Fuzzed from real files: the torch-written ``.safetensors`` of
``tests/data/torch_models`` and a ``.gguf`` written by ``gguf``'s own writer (a plain and a Q4_0 tensor)."""

from __future__ import annotations

from pathlib import Path

import gguf
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from latticecast.errors import MissingWeightsFileError, WeightsFileError
from latticecast.max.graph.weights import GGUFWeights, SafetensorWeights

DATA = Path(__file__).resolve().parent / "data" / "torch_models"
SAFETENSORS = (DATA / "mlp.safetensors").read_bytes()


def gguf_bytes(tmp: Path) -> bytes:
    path = tmp / "w.gguf"
    writer = gguf.GGUFWriter(str(path), "test")
    writer.add_tensor("plain", np.arange(6, dtype=np.float32).reshape(2, 3))
    writer.add_tensor("q", gguf.quants.quantize(np.ones((1, 32), np.float32), gguf.GGMLQuantizationType.Q4_0),
                      raw_dtype=gguf.GGMLQuantizationType.Q4_0)
    writer.write_header_to_file(); writer.write_kv_data_to_file(); writer.write_tensors_to_file(); writer.close()
    return path.read_bytes()


def read_all(weights) -> dict[str, np.ndarray]:
    out = {}
    for name, w in weights.items():
        w.allocate()
        out[name] = np.asarray(weights.allocated_weights[name])
    return out


def mangle(data: bytes, cut: int, flips: list[tuple[int, int]]) -> bytes:
    raw = bytearray(data[:cut])
    for at, value in flips:
        if raw:
            raw[at % len(raw)] = value
    return bytes(raw)


FLIPS = st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), max_size=3)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cut=st.integers(0, len(SAFETENSORS)), flips=FLIPS)
def test_a_mangled_safetensors_file_is_an_error_naming_it_or_reads(tmp_path, cut, flips):
    path = tmp_path / "mlp.safetensors"
    path.write_bytes(mangle(SAFETENSORS, cut, flips))
    try:
        read_all(SafetensorWeights([path]))
    except WeightsFileError as e:
        assert str(path) in str(e)


def test_a_cut_safetensors_file_names_the_tensor(tmp_path):
    path = tmp_path / "mlp.safetensors"
    path.write_bytes(SAFETENSORS[:-4])
    with pytest.raises(WeightsFileError, match=r"mlp\.safetensors") as e:
        read_all(SafetensorWeights([path]))
    assert e.value.path == path


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_mangled_gguf_file_is_an_error_naming_it_or_reads(tmp_path_factory, data):
    tmp = tmp_path_factory.mktemp("g")
    whole = gguf_bytes(tmp)
    cut = data.draw(st.integers(0, len(whole)))
    path = tmp / "mangled.gguf"
    path.write_bytes(mangle(whole, cut, data.draw(FLIPS)))
    try:
        read_all(GGUFWeights(path))
    except WeightsFileError as e:
        assert str(path) in str(e) or e.tensor is not None


def test_missing_files_are_file_not_found_errors_naming_them(tmp_path):
    for make in (lambda p: SafetensorWeights([p]), GGUFWeights):
        path = tmp_path / "absent.bin"
        with pytest.raises(MissingWeightsFileError, match="absent.bin") as e:
            make(path)
        assert isinstance(e.value, FileNotFoundError) and isinstance(e.value, ValueError)


def test_one_format_read_as_the_other_names_the_fix(tmp_path):
    gguf_path = tmp_path / "model.safetensors"
    gguf_path.write_bytes(gguf_bytes(tmp_path))
    with pytest.raises(WeightsFileError, match="read with GGUFWeights"):
        SafetensorWeights([gguf_path])
    st_path = tmp_path / "model.gguf"
    st_path.write_bytes(SAFETENSORS)
    with pytest.raises(WeightsFileError, match="read with SafetensorWeights"):
        GGUFWeights(st_path)
