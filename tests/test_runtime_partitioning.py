"""The runtime's reading of partitioned modules, its device choice and its jax.Array arguments, in a
process with one CPU device: everything that must be refused before XLA sees it (XLA would run a
partitioned module on one device without a word, or crash the process), and the API every model has
(``devices``, shardings, ``return_arrays``). Running on 8 devices: ``tests/test_sharded.py``."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import latticecast as lc
from latticecast.runtime import (DeviceCountError, InputArrayError, InputDTypeError, UnsupportedModuleError,
                                 compile)
from latticecast.runtime.partitioning import read_partitioning
from latticecast.dialect_utils.parsing import parse_module

ADD = """func.func @main(%a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<3xf32> {
  %0 = stablehlo.add %a, %b : tensor<3xf32>
  return %0 : tensor<3xf32> }"""

SHARDY = """module @m attributes {{mhlo.num_partitions = {n} : i32, mhlo.num_replicas = {r} : i32}} {{
  sdy.mesh @mesh = <["data"=4, "model"=2]>
  func.func public @main(%x: tensor<16x8xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"data"}}, {{"model"}}]>}})
      -> (tensor<16x8xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"data"}}, {{}}]>}}) {{
    return %x : tensor<16x8xf32>
  }}
}}"""

GSPMD = """module @g attributes {{mhlo.num_partitions = {n} : i32}} {{
  func.func public @main(%x: tensor<16x8xf32> {{mhlo.sharding = "{{devices=[4,2]<=[8]}}"}}) -> tensor<16x8xf32> {{
    return %x : tensor<16x8xf32>
  }}
}}"""


def test_what_a_module_asks_for_is_read() -> None:
    part = read_partitioning(parse_module(SHARDY.format(n=8, r=1)))
    assert (part.num_partitions, part.num_replicas, part.partitioner) == (8, 1, "shardy")
    assert part.meshes["mesh"].names == ("data", "model") and part.meshes["mesh"].size == 8
    assert str(part.arg_shardings[0]) == '#sdy.sharding<@mesh, [{"data"}, {"model"}]>'
    gspmd = read_partitioning(parse_module(GSPMD.format(n=8)))
    assert (gspmd.partitioner, gspmd.arg_shardings, gspmd.result_shardings) == ("gspmd", ("{devices=[4,2]<=[8]}",), (None,))
    plain = read_partitioning(parse_module(ADD))
    assert (plain.num_partitions, plain.partitioner, plain.is_partitioned) == (1, "none", False)


@pytest.mark.parametrize("text", [SHARDY.format(n=8, r=1), GSPMD.format(n=8)], ids=["shardy", "gspmd"])
def test_a_module_for_8_devices_is_refused_on_one(text: str) -> None:
    with pytest.raises(DeviceCountError, match=r"<input> is partitioned for 8 devices \(mhlo.num_partitions = 8\), "
                                               r"but only 1 cpu device is present \(cpu:0\); latticecast does not run "
                                               r"a partitioned module on fewer devices. On the CPU, start a new Python "
                                               r"process with XLA_FLAGS=--xla_force_host_platform_device_count=8 \(or "
                                               r"JAX_NUM_CPU_DEVICES=8\)") as e:
        compile(text)
    assert (e.value.required, e.value.present) == (8, 1)
    assert isinstance(e.value, lc.DeviceNotFoundError)


def test_shardings_over_more_devices_than_num_partitions_are_refused() -> None:
    """Without this, XLA compiles the module for one device and ignores every sharding."""
    with pytest.raises(UnsupportedModuleError, match=r"sdy.mesh @mesh has 8 devices \('data'=4, 'model'=2\), but the "
                                                     r"module says mhlo.num_partitions = 1; .*Set `mhlo.num_partitions "
                                                     r"= 8 : i32`"):
        compile(SHARDY.format(n=1, r=1))
    with pytest.raises(UnsupportedModuleError, match=r'input 0 of @main has mhlo.sharding = "\{devices=\[4,2\]<=\[8\]\}", '
                                                     r"over 8 devices, but the module says mhlo.num_partitions = 1"):
        compile(GSPMD.format(n=1))


def test_replicated_programs_are_refused() -> None:
    with pytest.raises(UnsupportedModuleError, match=r"asks for mhlo.num_replicas = 2: replicated programs "
                                                     r"\(pmap-style, one program per replica\) are not supported"):
        compile(SHARDY.format(n=8, r=2))


def test_device_arguments() -> None:
    with pytest.raises(TypeError, match="compile takes device= .* or devices= .*, not both"):
        compile(ADD, "cpu", devices=["cpu:0"])
    with pytest.raises(ValueError, match="devices= lists cpu:0 more than once"):
        compile(ADD, devices=["cpu:0", jax.devices()[0]])
    with pytest.raises(ValueError, match="devices= is empty"):
        compile(ADD, devices=[])
    with pytest.raises(TypeError, match="devices must be a sequence of devices .*for one device, pass device="):
        compile(ADD, devices="cpu:0")
    with pytest.raises(TypeError, match="devices must hold device names .* or jax.Device objects; got int"):
        compile(ADD, devices=[0])
    with pytest.raises(lc.DeviceNotFoundError, match="device 'cpu:1' is not available"):
        compile(ADD, devices=["cpu:1"])
    with pytest.raises(DeviceCountError, match=r"partitioned for 8 devices .*but devices= lists 1; pass 8 devices"):
        compile(SHARDY.format(n=8, r=1), devices=["cpu:0"])
    assert compile(ADD, devices=["cpu:0"]).devices == (jax.devices()[0],)


def test_every_model_lists_its_devices_and_layouts() -> None:
    model = compile(ADD)
    cpu0 = jax.devices()[0]
    assert model.devices == (cpu0,) and model.device is cpu0
    assert model.input_shardings == (jax.sharding.SingleDeviceSharding(cpu0),) * 2
    assert model.output_shardings == (jax.sharding.SingleDeviceSharding(cpu0),)
    assert model.partitioning.num_partitions == 1
    x = np.arange(3, dtype=np.float32)
    (arr,) = model(x, x, return_arrays=True)
    assert isinstance(arr, jax.Array) and arr.sharding == model.output_shardings[0]
    np.testing.assert_array_equal(np.asarray(arr), x * 2)


def test_jax_arrays_are_taken_as_they_are() -> None:
    model = compile(ADD)
    a = jnp.arange(3, dtype=jnp.float32)
    runner = model._program.runner
    placer = runner.placer  # jax.Arrays on another device are moved here
    for _ in range(3):
        np.testing.assert_array_equal(model(a, np.ones(3, np.float32))[0], [1, 2, 3])
    assert placer.moved == 0 and model.dispatch == "jax.jit"
    with pytest.raises(InputDTypeError, match=r"input 1: expected float32\[3\], got a jax.Array of int32\[3\]; "
                                              r"latticecast does not cast implicitly"):
        model(a, jnp.ones(3, jnp.int32))
    deleted = jnp.ones(3)
    deleted.delete()
    with pytest.raises(InputArrayError, match=r"input 1: the jax.Array has been deleted \(donated to an earlier call"):
        model(a, deleted)
    assert model.dispatch == "jax.jit"  # refused before the dispatcher saw it


def test_a_donated_buffer_passed_twice_is_refused() -> None:
    donating = jax.jit(lambda x, y: x * 2 + y, donate_argnums=0).lower(np.zeros(4, np.float32),
                                                                        np.zeros(4, np.float32)).as_text()
    assert "tf.aliasing_output" in donating
    model = compile(donating)
    a = jnp.arange(4, dtype=jnp.float32)
    with pytest.raises(InputArrayError, match=r"input 0 is donated .*also input 1; the call would free it while "
                                              r"reading it. Pass a copy to one of them"):
        model(a, a)
    np.testing.assert_array_equal(model(a, np.ones(4, np.float32))[0], [1, 3, 5, 7])
    assert a.is_deleted()


def test_return_arrays_is_not_an_input_name() -> None:
    with pytest.raises(ValueError, match="input_names cannot include 'return_arrays'"):
        compile(ADD, input_names=["x", "return_arrays"])
