"""Sharded programs on 8 host CPU devices: JAX's modules and the builder's, through ``latticecast-opt``
and ``latticecast.compile``, against ``jax.jit`` with the same shardings, bit for bit.

The device count of a process is fixed when jax starts, so the default test session (one device)
holds one test, which runs this module again with pytest in a process of its own with
``XLA_FLAGS=--xla_force_host_platform_device_count=8``; there the tests below are defined.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

DEVICES = 8
ON_MESH = os.environ.get("LATTICECAST_TEST_DEVICES") == str(DEVICES)
FLAG = f"--xla_force_host_platform_device_count={DEVICES}"

if not ON_MESH:

    def test_on_8_host_devices() -> None:
        """Runs the tests of this module in a process with 8 CPU devices (each failure is reported)."""
        env = dict(os.environ, XLA_FLAGS=FLAG, LATTICECAST_TEST_DEVICES=str(DEVICES), TF_CPP_MIN_LOG_LEVEL="3")
        proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", __file__],
                              capture_output=True, text=True, env=env, timeout=900,
                              cwd=Path(__file__).resolve().parent.parent)
        assert proc.returncode == 0, proc.stdout[-8000:] + proc.stderr[-3000:]
        assert " passed" in proc.stdout and "skipped" not in proc.stdout, proc.stdout[-2000:]

else:
    import jax
    import jax.numpy as jnp
    import ml_dtypes
    from jax.sharding import AbstractMesh, AxisType, Mesh, NamedSharding, PartitionSpec as P

    import jax_corpus as jc
    import latticecast as lc
    import latticecast.runtime as lcr
    from latticecast import DType, Graph, TensorType, ops
    from latticecast.dialect_utils.parsing import parse_module

    AUTO = (AxisType.Auto, AxisType.Auto)

    @pytest.fixture(scope="module")
    def mesh() -> Mesh:
        assert len(jax.devices()) == DEVICES
        return jax.make_mesh((4, 2), ("data", "model"), axis_types=AUTO)

    def named(mesh: Mesh, *spec: object) -> NamedSharding:
        return NamedSharding(mesh, P(*spec))

    def same_bits(got: np.ndarray, want: object) -> bool:
        want = np.asarray(want)
        return got.dtype == want.dtype and got.shape == want.shape and got.tobytes() == want.tobytes()

    # -- a mixed-precision layer, as JAX lowers it for a 4x2 mesh -----------------------------

    def jax_layer(x, w_q, scale, b):
        """bf16 activations, int8 weights with f32 scales, an f16 bias: every binary op mixes dtypes."""
        w = w_q * scale
        return jax.nn.relu(x @ w + b)

    def layer_args() -> tuple[np.ndarray, ...]:
        rng = np.random.default_rng(0)
        return (rng.standard_normal((16, 64)).astype(ml_dtypes.bfloat16),
                rng.integers(-127, 128, (64, 32)).astype(np.int8),
                (rng.random((64, 32)) / 64).astype(np.float32),
                rng.standard_normal((16, 32)).astype(np.float16))

    def layer_shardings(mesh: Mesh) -> dict:
        return {"in_shardings": (named(mesh, "data", "model"), named(mesh, "model", None),
                                 named(mesh, "model", None), named(mesh, "data", None)),
                "out_shardings": named(mesh, "data", None)}

    def stripped_layer(mesh: Mesh, shardy: bool) -> tuple[str, np.ndarray]:
        """The layer's module with the converts JAX's promotion would recreate removed, and jit's output."""
        jax.config.update("jax_use_shardy_partitioner", shardy)
        try:
            jitted = jax.jit(jax_layer, **layer_shardings(mesh))
            text = jitted.lower(*layer_args()).as_text()
            expected = np.asarray(jitted(*layer_args()))
        finally:
            jax.config.update("jax_use_shardy_partitioner", True)
        module = parse_module(text)
        assert jc.strip_promoting_converts(module, "jax-x32") >= 2
        return jc._print(module, False), expected

    @pytest.mark.parametrize("shardy", [True, False], ids=["shardy", "gspmd"])
    def test_jax_layer_for_a_4x2_mesh_through_opt_and_compile(mesh, shardy, tmp_path, run_tool) -> None:
        mixed, expected = stripped_layer(mesh, shardy)
        source = tmp_path / "layer.mlir"
        source.write_text(mixed)
        proc = run_tool("latticecast-opt", source, "--implicit-cast", "--policy", "jax-x32")
        assert proc.returncode == 0, proc.stderr.decode()
        legal = proc.stdout.decode()
        # the converts the pass recreated keep the layout of the argument they convert
        if shardy:
            assert ('stablehlo.convert %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"model"}, {}]>]>} : '
                    '(tensor<64x32xi8>) -> tensor<64x32xf32>') in legal
            assert ('stablehlo.convert %arg3 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>]>} : '
                    '(tensor<16x32xf16>) -> tensor<16x32xf32>') in legal
        else:
            assert ('stablehlo.convert %arg1 {mhlo.sharding = "{devices=[2,1,4]<=[4,2]T(1,0) last_tile_dim_replicate}"} : '
                    '(tensor<64x32xi8>) -> tensor<64x32xf32>') in legal
        model = lc.compile(legal)
        assert model.devices == tuple(jax.devices()[:DEVICES])
        (out,) = model(*layer_args())
        assert same_bits(out, expected)
        # XLA really partitioned it: per-device parameter tiles, and an all-reduce after the dot that
        # contracts over the sharded "model" dimension
        # (XLA prints replica groups as a list before jaxlib 0.11 and as an iota after)
        hlo = model.executable.hlo_modules()[0].to_string()
        assert "bf16[4,32]" in hlo and model.input_shardings[0].shard_shape(model.input_types[0].shape) == (4, 32)
        assert "all-reduce(" in hlo and ("replica_groups={{0,1},{2,3},{4,5},{6,7}}" in hlo
                                         or "replica_groups=[4,2]<=[8]" in hlo)
        # and the same module in a process with one device is refused, naming the device count
        source.write_text(legal)
        code = f"import latticecast as lc\ntry:\n    lc.compile(open({str(source)!r}).read())\n" \
               f"except lc.DeviceCountError as e:\n    print(e)\nelse:\n    print('ran on one device')\n"
        env = {k: v for k, v in os.environ.items() if k not in ("XLA_FLAGS", "JAX_NUM_CPU_DEVICES")}
        one = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
        assert ("<input> is partitioned for 8 devices (mhlo.num_partitions = 8), but only 1 cpu device is present "
                "(cpu:0)") in one.stdout, one.stdout + one.stderr[-2000:]
        assert f"XLA_FLAGS={FLAG}" in one.stdout

    def test_the_builder_layer_on_its_mesh_matches_jax_jit(mesh) -> None:
        with Graph("layer", input_types=[TensorType(DType.bfloat16, [16, 64], sharding=P("data", "model")),
                             TensorType(DType.int8, [64, 32], sharding=P("model", None)),
                             TensorType(DType.float32, [64, 32], sharding=P("model", None)),
                             TensorType(DType.float16, [16, 32], sharding=P("data", None))],
                   policy="jax-x32", mesh=mesh) as g:
            x, w_q, scale, b = g.inputs
            y = ops.shard(x @ (w_q * scale), P("data", None))
            g.output(ops.maximum(y + b, 0), shardings=[P("data", None)])
        model = g.compile()
        assert model.devices == tuple(mesh.devices.flat)
        (out,) = model(*layer_args())
        expected = jax.jit(jax_layer, **layer_shardings(mesh))(*layer_args())
        assert same_bits(out, expected)
        assert "all-reduce(" in model.executable.hlo_modules()[0].to_string()
        assert model.output_shardings[0] == named(mesh, "data", None)
        # jax.Arrays out, laid out as declared: they chain into jax.jit over the same mesh
        (arr,) = model(*layer_args(), return_arrays=True)
        assert arr.sharding == named(mesh, "data", None) and same_bits(np.asarray(arr), expected)
        doubled = jax.jit(lambda a: a * 2, in_shardings=named(mesh, "data", None))(arr)
        assert same_bits(np.asarray(doubled), np.asarray(expected) * 2)

    def test_an_abstract_mesh_runs_on_the_first_devices_of_the_platform() -> None:
        abstract = AbstractMesh((2, 4), ("x", "y"), axis_types=AUTO)
        with Graph("g", input_types=[TensorType(DType.int32, [8, 8], sharding=P("x", "y")),
                         TensorType(DType.float32, [8, 8], sharding=P("x", "y"))], mesh=abstract) as g:
            k, f = g.inputs
            g.output((k * f).sum(axis=1), shardings=[P("x")])
        model = g.compile()
        assert model.devices == tuple(jax.devices()[:DEVICES])
        k, f = np.arange(64, dtype=np.int32).reshape(8, 8), np.full((8, 8), 0.5, np.float32)
        # (the rank of a reduction's result is the builder's business; the values are this test's)
        np.testing.assert_array_equal(model(k, f)[0].reshape(-1), (k * f).sum(axis=1).astype(np.float32))

    def test_sharded_results_equal_one_device_results(mesh) -> None:
        """Integer-valued floats: every partial sum is exact, so splitting the contraction changes nothing."""
        rng = np.random.default_rng(1)
        args = (rng.integers(-8, 8, (16, 64)).astype(ml_dtypes.bfloat16), rng.integers(-8, 8, (64, 32)).astype(np.int8),
                rng.integers(1, 4, (64, 32)).astype(np.float32), rng.integers(-8, 8, (16, 32)).astype(np.float16))
        sharded = lc.compile(jax.jit(jax_layer, **layer_shardings(mesh)).lower(*args).as_text())
        single = lc.compile(jax.jit(jax_layer).lower(*args).as_text())
        assert len(sharded.devices) == DEVICES and len(single.devices) == 1
        assert same_bits(sharded(*args)[0], single(*args)[0])

    # -- arguments ------------------------------------------------------------------------------

    @pytest.fixture(scope="module")
    def layer_model(mesh):
        return lc.compile(jax.jit(jax_layer, **layer_shardings(mesh)).lower(*layer_args()).as_text())

    def test_arrays_laid_out_as_the_model_expects_are_used_without_a_copy(layer_model, mesh) -> None:
        args = layer_args()
        placed = [jax.device_put(a, s) for a, s in zip(args, layer_model.input_shardings)]
        placer = layer_model._program.runner.placer
        moved = placer.moved
        assert same_bits(layer_model(*placed)[0], layer_model(*args)[0])
        assert placer.moved == moved
        assert all(placer.place(a, i) is a for i, a in enumerate(placed))
        # jit's own NamedShardings over the same mesh are equivalent: used as they are too
        jit_placed = [jax.device_put(a, s) for a, s in zip(args, layer_shardings(mesh)["in_shardings"])]
        layer_model(*jit_placed)
        assert placer.moved == moved

    def test_arrays_laid_out_otherwise_are_moved(layer_model) -> None:
        args = layer_args()
        want = layer_model(*args)[0]
        devices = jax.devices()
        permuted = Mesh(np.array(devices)[[1, 0, 3, 2, 5, 4, 7, 6]].reshape(4, 2), ("data", "model"), axis_types=AUTO)
        subset = Mesh(np.array(devices[:4]).reshape(2, 2), ("a", "b"), axis_types=AUTO)
        layouts = [lambda a: jax.device_put(a, devices[5]),                       # one device, not the first
                   lambda a: jax.device_put(a, NamedSharding(permuted, P("data", "model"))),  # devices reordered
                   lambda a: jax.device_put(a, NamedSharding(subset, P("a"))),              # half the devices
                   lambda a: jax.device_put(a, NamedSharding(permuted, P()))]               # replicated
        placer = layer_model._program.runner.placer
        for layout in layouts:
            moved = placer.moved
            x = layout(args[0])
            assert same_bits(layer_model(x, *args[1:])[0], want)
            assert placer.moved == moved + 1
            assert not x.is_deleted()

    def test_what_would_crash_pjrt_is_refused(layer_model) -> None:
        args = layer_args()
        with pytest.raises(lc.InputError, match=r"input 0: expected bfloat16\[16, 64\], got a jax.Array of "
                                                r"float32\[16, 64\]; .*astype\(ml_dtypes.bfloat16\)"):
            layer_model(jnp.asarray(args[0], jnp.float32), *args[1:])
        with pytest.raises(lc.InputShapeError, match=r"input 3: expected shape \[16, 32\] .*got a jax.Array of "
                                                     r"shape \[8, 32\]"):
            layer_model(*args[:3], jnp.asarray(args[3][:8]))
        deleted = jnp.asarray(args[3])
        deleted.delete()
        with pytest.raises(lcr.InputArrayError, match="input 3: the jax.Array has been deleted"):
            layer_model(*args[:3], deleted)
        with pytest.raises(lcr.InputCountError, match=r"@main takes 4 input\(s\)"):
            layer_model(*args[:3])

    def test_donated_inputs(mesh) -> None:
        s = named(mesh, "data", "model")
        model = lc.compile(jax.jit(lambda x, y: x * 2 + y, in_shardings=(s, s), out_shardings=s,
                                   donate_argnums=0).lower(np.zeros((8, 8), np.float32), np.zeros((8, 8), np.float32))
                           .as_text())
        x = np.arange(64, dtype=np.float32).reshape(8, 8)
        assert same_bits(model(x, x)[0], x * 3) and same_bits(model(x, x)[0], x * 3)  # NumPy: a private copy
        a = jax.device_put(x, s)
        with pytest.raises(lcr.InputArrayError, match=r"input 0 is donated .*the same jax.Array's buffer is "
                                                             r"also input 1; .*Pass a copy"):
            model(a, a)
        assert same_bits(model(a, x)[0], x * 3) and a.is_deleted()
        with pytest.raises(lcr.InputArrayError, match="input 0: the jax.Array has been deleted"):
            model(a, x)

    def test_64_bit_inputs_with_x64_off_and_scalars(mesh) -> None:
        """With x64 off, jax narrows 64-bit host data when it places it; the runtime must not."""
        assert not jax.config.jax_enable_x64
        text = """module attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
          sdy.mesh @mesh = <["data"=4, "model"=2]>
          func.func public @main(%a: tensor<8x8xf64> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>},
                                 %b: tensor<8xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}]>},
                                 %c: tensor<f32>) -> (tensor<8x8xf64> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>},
                                                      tensor<8xi64> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
            %0 = stablehlo.convert %b : (tensor<8xi64>) -> tensor<8xf64>
            %1 = stablehlo.broadcast_in_dim %0, dims = [1] : (tensor<8xf64>) -> tensor<8x8xf64>
            %2 = stablehlo.convert %c : (tensor<f32>) -> tensor<f64>
            %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<f64>) -> tensor<8x8xf64>
            %4 = stablehlo.add %a, %1 : tensor<8x8xf64>
            %5 = stablehlo.multiply %4, %3 : tensor<8x8xf64>
            return %5, %b : tensor<8x8xf64>, tensor<8xi64>
          }
        }"""
        model = lc.compile(text)
        a, b = np.arange(64, dtype=np.float64).reshape(8, 8) + 1e-12, np.arange(8, dtype=np.int64) + 2 ** 40
        y, k = model(a, b, 2.0)
        assert same_bits(y, (a + b) * 2) and same_bits(k, b)

    # -- devices --------------------------------------------------------------------------------

    def test_devices_choose_the_partition_order(layer_model, mesh) -> None:
        text = jax.jit(jax_layer, **layer_shardings(mesh)).lower(*layer_args()).as_text()
        backwards = jax.devices()[::-1]
        model = lc.compile(text, devices=backwards)
        assert model.devices == tuple(backwards)
        assert same_bits(model(*layer_args())[0], layer_model(*layer_args())[0])
        assert lc.compile(text, devices=[f"cpu:{i}" for i in range(DEVICES)]).devices == tuple(jax.devices())
        with pytest.raises(lc.DeviceCountError, match=r"partitioned for 8 devices \(mhlo.num_partitions = 8\), but "
                                                      r"devices= lists 4; pass 8 devices"):
            lc.compile(text, devices=jax.devices()[:4])
        with pytest.raises(ValueError, match=r"device='cpu:1' names one device; pass a platform "
                                             r"\(device='cpu': its first 8 devices\) or devices=\[...\]"):
            lc.compile(text, device="cpu:1")
        with pytest.raises(ValueError, match=r"devices= lists 8 devices, but <input> is not partitioned"):
            lc.compile("func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> { return %a : tensor<2xf32> }",
                       devices=jax.devices())
        with pytest.raises(lc.DeviceNotFoundError, match=r"device 'gpu' is not available: no GPU platform"):
            lc.compile(text, device="gpu")

    @pytest.mark.parametrize("text", [
        "{devices=[2,1,4]<=[4,2]T(1,0) last_tile_dim_replicate}", "{devices=[4,2]<=[8]}", "{devices=[2,4]<=[2,4]T(1,0)}",
        "{devices=[2,2,2]<=[2,2,2]T(2,0,1)}", "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}",
        "{devices=[2,4]0,1,2,3,4,5,6,7}", "{replicated}", "{maximal device=3}"])
    def test_the_public_sharding_of_xla_answers_lays_tiles_out_as_jaxlib_does(text, monkeypatch) -> None:
        """On a jax outside the tested range the runtime builds a NamedSharding for each OpSharding XLA
        reports; it must place the same tiles on the same devices as jaxlib's GSPMDSharding, with its
        devices in partition order (the order execute_sharded takes buffers in)."""
        from jaxlib import xla_client

        from latticecast import jax_internals

        devices = jax.devices()[:DEVICES]
        proto = xla_client.HloSharding.from_string(text).to_proto()
        jaxlib_answer = jax_internals.sharding_of(proto, devices)
        monkeypatch.setattr(jax_internals, "GSPMDSharding", None)
        public = jax_internals.sharding_of(proto, devices)
        if "maximal" in text:  # the whole array on one device
            assert public == jax.sharding.SingleDeviceSharding(devices[3])
            return
        assert public.is_equivalent_to(jaxlib_answer, 3 if "2,2,2" in text else 2)
        assert list(public.addressable_devices_indices_map((8,) * 3 if "2,2,2" in text else (8, 8))) == devices

    def test_model_description(layer_model) -> None:
        assert repr(layer_model).endswith("on 8 cpu devices (cpu:0, cpu:1, cpu:2, cpu:3, cpu:4, cpu:5, cpu:6, cpu:7)>")
        assert layer_model.partitioning.num_partitions == DEVICES
        assert layer_model.partitioning.partitioner == "shardy"
        assert [str(s.spec) for s in layer_model.input_shardings] == [
            "P('data', 'model')", "P('model', None)", "P('model', None)", "P('data', None)"]

    def test_several_outputs_of_one_layout_and_the_cache(mesh, tmp_path) -> None:
        s = named(mesh, "data")
        f = jax.jit(lambda x: (x + 1, x * 2, x.sum()), in_shardings=s, out_shardings=(s, s, named(mesh)))
        x = np.arange(16, dtype=np.int32)
        text = f.lower(x).as_text()
        lcr.clear_cache()
        model = lc.compile(text)
        assert [np.asarray(o).tolist() for o in model(x)] == [(x + 1).tolist(), (x * 2).tolist(), int(x.sum())]
        again = lc.compile(text)
        assert again.cache_source == "memory" and again.devices == model.devices
        assert lc.compile(text, devices=jax.devices()[::-1]).cache_source == "compiled"
        lcr.clear_cache()
        assert lc.compile(text, cache_dir=tmp_path).cache_source == "compiled"  # and written to the disk
        lcr.clear_cache()
        from_disk = lc.compile(text, cache_dir=tmp_path)  # a partitioned executable, deserialized for 8 devices
        assert from_disk.cache_source == "disk" and from_disk.devices == model.devices
        assert [np.asarray(o).tolist() for o in from_disk(x)] == [np.asarray(o).tolist() for o in model(x)]

    def test_the_demo_shows_a_sharded_layer(capsys) -> None:
        from latticecast.demo import main

        assert main([]) == 0
        out = capsys.readouterr().out
        assert "on 8 cpu devices" in out and "sdy.sharding" in out and "all-reduce" in out
        assert "bit for bit: True" in out
