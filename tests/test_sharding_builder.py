"""Shardings in the graph builder, in one process with one device: what the graph emits for a mesh
(Shardy, as ``jax.jit`` writes it), every build-time error, and the runtime's refusal to run a
partitioned graph or module on fewer devices than it was written for. Running on 8 devices is
``tests/test_sharded.py``'s job (a process of its own)."""

from __future__ import annotations

import jax
import numpy as np
import pytest
from jax.sharding import AbstractMesh, AxisType, PartitionSpec as P

import latticecast as lc
from latticecast import DType, Graph, GraphError, TensorType, ops

AUTO = (AxisType.Auto, AxisType.Auto)
MESH = AbstractMesh((4, 2), ("data", "model"), axis_types=AUTO)


def layer(mesh=MESH, out=(P("data", None),)) -> Graph:
    """A mixed-precision layer: bf16 activations, f32 weights, f16 bias."""
    with Graph("layer", input_types=[TensorType(DType.bfloat16, [16, 64], sharding=P("data", "model")),
                         TensorType(DType.float32, [64, 32], sharding=P("model")),
                         TensorType(DType.float16, [32])], mesh=mesh) as g:
        x, w, b = g.inputs
        y = ops.shard(x @ w, P("data", None))
        g.output(ops.maximum(y + b, 0), shardings=list(out))
    return g


def test_a_sharded_graph_emits_what_jax_jit_writes() -> None:
    text = layer().mlir()
    assert "module @layer attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32}" in text
    assert 'sdy.mesh @mesh = <["data"=4, "model"=2]>\n' in text
    assert ('@main(%arg0: tensor<16x64xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}, '
            '%arg1: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, '
            '%arg2: tensor<32xf16> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> '
            '(tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>})') in text
    # the builder's own convert (for the dot) and the pass's (for the add) keep their operand's layout
    assert ('stablehlo.convert %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {"model"}]>]>} : '
            '(tensor<16x64xbf16>) -> tensor<16x64xf32>') in text
    assert 'sdy.sharding_constraint %1 <@mesh, [{"data"}, {}]> : tensor<16x32xf32>' in text
    assert "stablehlo.convert %3 : (tensor<16x32xf16>) -> tensor<16x32xf32>" in text


def test_partition_specs_become_shardy_dimensions() -> None:
    with Graph("spec", input_types=[TensorType(DType.float32, [8, 4, 2], sharding=P(("data", "model"))),
                        TensorType(DType.float32, [])], mesh=MESH) as g:
        x, s = g.inputs
        y = ops.shard(x, P(None, P.UNCONSTRAINED, "model"))
        g.output(y * s, s, shardings=[P(None, "data"), None])
    text = g.mlir()
    assert '{sdy.sharding = #sdy.sharding<@mesh, [{"data", "model"}, {}, {}]>}' in text   # a tuple; padded
    assert '{sdy.sharding = #sdy.sharding<@mesh, []>}' in text                            # a scalar
    assert 'sdy.sharding_constraint %arg0 <@mesh, [{}, {?}, {"model"}]>' in text          # open dimension
    assert '-> (tensor<8x4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}, {}]>}, ' in text


def test_unsharded_inputs_and_outputs_of_a_mesh_graph_are_replicated() -> None:
    with Graph("rep", input_types=[TensorType(DType.int32, [4])], mesh=MESH) as g:
        g.output(g.inputs[0] + 1)
    text = g.mlir()
    assert "%arg0: tensor<4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}" in text
    assert "-> (tensor<4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>})" in text


def test_a_graph_without_a_mesh_is_unchanged() -> None:
    with Graph("plain", input_types=[TensorType(DType.int32, [4])]) as g:
        g.output(g.inputs[0] + 1)
    assert "sdy" not in g.mlir() and "num_partitions" not in g.mlir()


def test_the_sharding_is_a_layout_not_part_of_the_type() -> None:
    a, b = TensorType(DType.float32, [8], sharding=P("data")), TensorType(DType.float32, [8])
    assert a == b and hash(a) == hash(b) and a.sharding == P("data") and b.sharding is None
    assert layer().input_types[0].sharding == P("data", "model")


@pytest.mark.parametrize("spec, shape, message", [
    (P("data", "model", None), [16, 64],
     r"input 0: P\('data', 'model', None\) has 3 entries, but the value has rank 2 \(shape \[16, 64\]\)"),
    (P("modle"), [16], r"input 0: P\('modle',\) names axis 'modle', which the mesh "
                       r"\('data'=4, 'model'=2\) does not have"),
    (P("data", "data"), [16, 16], r"uses axis 'data' for dimensions 0 and 1; each axis splits one dimension"),
    (P("data"), [6], r"splits dimension 0 \(size 6\) 4 ways over 'data', which does not divide it; .*pad to a "
                     r"multiple of 4"),
    (P(("data", "model")), [12], r"splits dimension 0 \(size 12\) 8 ways over 'data' x 'model'"),
    (P(P.UNCONSTRAINED), [16], r"leaves dimension 0 to the partitioner \(P.UNCONSTRAINED\); graph inputs and "
                               r"outputs need a definite layout"),
    (("data",), [16], r"a sharding is a jax.sharding.PartitionSpec \(P\('data', None\)\), not tuple"),
    (P(3), [16], r"entry 0 is 3; an entry is an axis name, a tuple of axis names, None, or P.UNCONSTRAINED"),
])
def test_input_sharding_errors_are_found_at_build_time(spec, shape, message) -> None:
    with pytest.raises(GraphError, match=message):
        Graph("bad", input_types=[TensorType(DType.float32, shape, sharding=spec)], mesh=MESH)


def test_output_and_constraint_errors() -> None:
    with Graph("out", input_types=[TensorType(DType.float32, [6, 8])], mesh=MESH) as g:
        (x,) = g.inputs
        with pytest.raises(GraphError, match=r"shard: P\('x',\) names axis 'x'"):
            ops.shard(x, P("x"))
        y = ops.shard(x, P("data", "model"))  # a constraint may split unevenly: XLA pads the last tile
        with pytest.raises(GraphError, match=r"output\(\) got 1 value\(s\) and 2 sharding\(s\); give one "
                                             r"PartitionSpec \(or None\) per value"):
            g.output(y, shardings=[P(), P()])
        with pytest.raises(GraphError, match=r"output 0: P\('data',\) splits dimension 0 \(size 6\) "
                                             r"4 ways"):
            g.output(y, shardings=[P("data")])
        g.output(y, shardings=[P(None, "data")])
    assert 'sdy.sharding_constraint %arg0 <@mesh, [{"data"}, {"model"}]> : tensor<6x8xf32>' in g.mlir()


def test_meshes_must_be_jax_meshes_with_auto_axes() -> None:
    explicit = AbstractMesh((4, 2), ("data", "model"), axis_types=(AxisType.Explicit,) * 2)
    with pytest.raises(GraphError, match=r"mesh axes must be AxisType.Auto \('data' is Explicit, 'model' is "
                                         r"Explicit\).*jax.make_mesh makes Explicit axes unless told otherwise: "
                                         r"pass axis_types=\(jax.sharding.AxisType.Auto,\) \* 2"):
        Graph("e", input_types=[TensorType(DType.float32, [4])], mesh=explicit)
    with pytest.raises(GraphError, match=r"mesh must be a jax.sharding.Mesh \(or AbstractMesh\), not dict"):
        Graph("e", input_types=[TensorType(DType.float32, [4])], mesh={"data": 4})


def test_sharding_needs_a_mesh() -> None:
    with pytest.raises(GraphError, match=r"input 0 has sharding P\('data',\), but graph 'e' has no "
                                         r"mesh; pass Graph\(..., mesh=jax.sharding.Mesh\(...\)\)"):
        Graph("e", input_types=[TensorType(DType.float32, [4], sharding=P("data"))])
    with Graph("e", input_types=[TensorType(DType.float32, [4])]) as g:
        with pytest.raises(GraphError, match="shard: graph 'e' has no mesh to shard over"):
            ops.shard(g.inputs[0], P())
        with pytest.raises(GraphError, match="graph 'e' has no mesh, so its outputs cannot be sharded"):
            g.output(g.inputs[0], shardings=[P()])


def test_a_one_device_mesh_runs_here() -> None:
    mesh = jax.make_mesh((1,), ("data",), axis_types=(AxisType.Auto,))
    with Graph("one", input_types=[TensorType(DType.int16, [4], sharding=P("data"))], mesh=mesh) as g:
        g.output(g.inputs[0] * 2.5)
    model = g.compile()
    assert model.devices == (jax.devices()[0],)
    np.testing.assert_array_equal(model(np.arange(4, dtype=np.int16))[0], np.arange(4) * 2.5)


def test_a_graph_for_8_devices_is_refused_on_one() -> None:
    with pytest.raises(lc.DeviceCountError, match=r"partitioned for 8 devices \(mhlo.num_partitions = 8\), but only "
                                                  r"1 cpu device is present \(cpu:0\).*XLA_FLAGS="
                                                  r"--xla_force_host_platform_device_count=8") as e:
        layer().compile()
    assert e.value.required == 8 and e.value.present == 1
