"""Device selection. This machine has no GPU: the error path is tested for real, and
the GPU selection logic is tested against a fake PJRT client with two GPUs."""

from __future__ import annotations

import jax
import numpy as np
import pytest

from latticecast.runtime import (DeviceNotFoundError, LatticecastRuntimeError, available_devices,
                                 compile, resolve_device)
from latticecast.runtime import devices as devices_mod

ADD = """func.func @main(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.add %a, %b : tensor<2xf32>
  return %0 : tensor<2xf32> }"""

pytestmark = pytest.mark.usefixtures("fresh_cache")


def test_cpu_is_the_default_and_runs() -> None:
    model = compile(ADD)
    assert model.device == jax.devices("cpu")[0]
    np.testing.assert_array_equal(model(np.ones(2, np.float32), np.ones(2, np.float32))[0], [2, 2])


@pytest.mark.parametrize("name", ["cpu", "CPU", "cpu:0", " cpu "])
def test_cpu_names(name: str) -> None:
    assert resolve_device(name) == jax.devices("cpu")[0]


def test_a_jax_device_is_accepted() -> None:
    dev = jax.devices("cpu")[0]
    assert compile(ADD, device=dev).device == dev


def test_available_devices_lists_cpu() -> None:
    assert "cpu:0" in available_devices()


@pytest.mark.skipif(any(d.platform == "gpu" for d in jax.devices()), reason="this machine has a GPU")
@pytest.mark.parametrize("name", ["gpu", "cuda", "rocm", "gpu:1"])
def test_absent_gpu_is_a_clear_error_with_the_install_hint(name: str) -> None:
    with pytest.raises(DeviceNotFoundError) as e:
        compile(ADD, device=name)
    msg = str(e.value)
    assert f"device {name!r} is not available" in msg
    assert "Devices present: cpu:0" in msg
    assert 'pip install -U "jax[cuda12]"' in msg
    assert "cpu:0" in e.value.available
    assert isinstance(e.value, RuntimeError) and isinstance(e.value, LatticecastRuntimeError)


def test_jax_platforms_env_is_mentioned(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(devices_mod, "_backends", lambda: {"cpu": jax.devices("cpu")[0].client})
    monkeypatch.setenv("JAX_PLATFORMS", "cpu")
    with pytest.raises(DeviceNotFoundError, match="JAX_PLATFORMS='cpu' is set"):
        resolve_device("gpu")


def test_out_of_range_index_and_bad_names() -> None:
    with pytest.raises(DeviceNotFoundError, match=r"cpu has 1 device\(s\) \(indices 0\.\.0\)"):
        resolve_device("cpu:7")
    with pytest.raises(DeviceNotFoundError, match="invalid device index in 'cpu:x'"):
        resolve_device("cpu:x")
    with pytest.raises(DeviceNotFoundError, match="invalid device index"):
        resolve_device("cpu:-1")
    with pytest.raises(DeviceNotFoundError, match="invalid device name"):
        resolve_device(":0")
    with pytest.raises(DeviceNotFoundError, match="(?s)no .npu. platform is present.*Devices present: cpu:0"):
        resolve_device("npu")
    with pytest.raises(TypeError, match="jax.Device"):
        resolve_device(3.5)


# -- GPU selection against a fake plug-in -------------------------------------------------------


class _FakeClient:
    def __init__(self, platform: str, n: int) -> None:
        self.platform = platform
        self.platform_version = "fake"
        self._devices = [_FakeDevice(self, i) for i in reversed(range(n))]  # unsorted on purpose

    def local_devices(self):
        return list(self._devices)

    def process_index(self) -> int:
        return 0


class _FakeDevice:
    def __init__(self, client: _FakeClient, i: int) -> None:
        self.client = client
        self.id = i
        self.process_index = 0
        self.device_kind = "Fake GPU"
        self.platform = "gpu"

    def __repr__(self) -> str:
        return f"FakeDevice({self.client.platform}:{self.id})"


@pytest.fixture
def fake_cuda(monkeypatch: pytest.MonkeyPatch) -> _FakeClient:
    cuda = _FakeClient("cuda", 2)
    cpu = jax.devices("cpu")[0].client
    monkeypatch.setattr(devices_mod, "_backends", lambda: {"cpu": cpu, "cuda": cuda})
    monkeypatch.setattr(devices_mod, "_backend_errors", lambda: {})
    return cuda


def test_gpu_selects_the_present_gpu_platform(fake_cuda: _FakeClient) -> None:
    for name, want in [("gpu", 0), ("GPU:1", 1), ("cuda", 0), ("cuda:1", 1)]:
        dev = resolve_device(name)
        assert dev.client is fake_cuda and dev.id == want, name
    assert devices_mod.device_name(resolve_device("gpu:1")) == "cuda:1"
    assert available_devices() == ["cpu:0", "cuda:0", "cuda:1"]


def test_gpu_index_out_of_range_lists_the_gpus(fake_cuda: _FakeClient) -> None:
    with pytest.raises(DeviceNotFoundError, match=r"(?s)cuda has 2 device\(s\).*Devices present: cpu:0, cuda:0, cuda:1"):
        resolve_device("gpu:2")
    with pytest.raises(DeviceNotFoundError, match="no 'rocm' platform"):
        resolve_device("rocm")


def test_a_plugin_that_failed_to_start_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    cpu = jax.devices("cpu")[0].client
    monkeypatch.setattr(devices_mod, "_backends", lambda: {"cpu": cpu})
    monkeypatch.setattr(devices_mod, "_backend_errors",
                        lambda: {"cuda": "no CUDA driver found", "tpu": "no libtpu"})
    with pytest.raises(DeviceNotFoundError) as e:
        resolve_device("gpu")
    assert "Plug-ins that failed to start: cuda: no CUDA driver found" in str(e.value)
    assert "libtpu" not in str(e.value)  # unrelated probes are not noise in a GPU error
    with pytest.raises(DeviceNotFoundError, match=r"the cuda plug-in is installed but failed to start \(no CUDA driver found\)"):
        resolve_device("cuda")
