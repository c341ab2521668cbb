"""MAX's ``ops.print``: a PJRT host callback that prints while the graph runs, in MAX's format.

The expected texts are MAX 26.7's own output for the same graphs, measured on the CPU with
``InferenceSession(devices=[CPU()]).load(graph).execute(...)`` (``/work/venv-max``).
"""

from __future__ import annotations

import numpy as np
import pytest

import latticecast as lc
from latticecast import DType, Graph, TensorType, ops
from latticecast.errors import GraphError
from latticecast.graph.ops.debug import format_tensor, max_dtype_name
from latticecast.runtime.runtime_errors import UnsupportedModuleError


def test_max_documented_example_prints_what_max_prints(capsys):
    from latticecast.max.driver import CPU
    from latticecast.max.engine import InferenceSession

    input_type = TensorType(DType.float32, (2,))
    with Graph("print_example", input_types=(input_type, input_type)) as graph:
        lhs, rhs = graph.inputs
        out = ops.add(lhs, rhs)
        ops.print(out, label="addition_output")
        graph.output(out)
    model = InferenceSession(devices=[CPU()]).load(graph)
    result = model.execute(np.array([1.0, 2.0], dtype=np.float32), np.array([3.0, 4.0], dtype=np.float32))[0]
    np.testing.assert_allclose(result.to_numpy(), [4.0, 6.0])
    assert capsys.readouterr().out == "addition_output = tensor([[4.0000, 6.0000]], dtype=f32, shape=[2])\n"


def test_prints_run_in_program_order_each_call(capsys):
    t = TensorType(DType.float32, [2])
    ti = TensorType(DType.int32, [2, 3])
    with Graph("order", input_types=[t, t, ti]) as g:
        a, b, i = g.inputs
        out = a + b
        ops.print(out, label="addition_output")
        ops.print("hello there")
        ops.print(i)
        g.output(out)
    model = g.compile()
    expected = ("addition_output = tensor([[4.0000, 6.0000]], dtype=f32, shape=[2])\n"
                "[debug_tensor] hello there\n"
                "debug_tensor = tensor([[0, 1, 2],\n[3, 4, 5]], dtype=si32, shape=[2,3])\n")
    args = (np.array([1, 2], np.float32), np.array([3, 4], np.float32), np.arange(6, dtype=np.int32).reshape(2, 3))
    model(*args)
    assert capsys.readouterr().out == expected
    model(*args)
    assert capsys.readouterr().out == expected


def test_a_print_in_a_loop_body_prints_every_iteration(capsys):
    with Graph("loop", input_types=[TensorType(DType.int32, [])]) as g:
        def body(k):
            ops.print(k, label="k")
            return [k + 1]
        g.output(*ops.while_loop([g.inputs[0]], lambda k: k < 3, body))
    assert g.compile()(np.int32(1))[0] == 3
    assert capsys.readouterr().out == ("k = tensor([[1]], dtype=si32, shape=[])\n"
                                       "k = tensor([[2]], dtype=si32, shape=[])\n")


@pytest.mark.parametrize("array, text", [
    (np.float32(-0.007), "[[-0.0070]]"),
    (np.arange(8, dtype=np.float32).reshape(2, 2, 2) * 1.5 - 0.007,
     "[[[-0.0070, 1.4930],\n[2.9930, 4.4930]],\n\n[[5.9930, 7.4930],\n[8.9930, 10.4930]]]"),
    (np.array([True, False, True]), "[[True, False, True]]"),
    (np.array([1e10, 1.23456789, -0.5]), "[[10000000000.0000, 1.2346, -0.5000]]"),
    (np.arange(6, dtype=np.int32), "[[0, 1, 2, 3, 4, 5]]"),
    (np.arange(7, dtype=np.int32), "[[0, 1, 2, ..., 4, 5, 6]]"),
    (np.arange(16, dtype=np.int32).reshape(8, 2),
     "[[0, 1],\n[2, 3],\n[4, 5],\n ..., \n\n[10, 11],\n[12, 13],\n[14, 15]]"),
    (np.arange(16, dtype=np.int32).reshape(2, 8), "[[0, 1, 2, ..., 5, 6, 7],\n[8, 9, 10, ..., 13, 14, 15]]"),
])
def test_the_format_is_max_s(array, text):
    assert format_tensor(array) == text


def test_dtype_names_are_max_s():
    assert [max_dtype_name(d) for d in (DType.float16, DType.float64, DType.bfloat16, DType.int8, DType.uint64)] == \
        ["f16", "f64", "bf16", "si8", "ui64"]


def test_a_bad_label_is_refused():
    with Graph("label", input_types=[TensorType(DType.float32, [2])]) as g:
        with pytest.raises(GraphError, match="label must be a string"):
            ops.print(g.inputs[0], label=3)  # type: ignore[arg-type]


def test_the_module_text_alone_is_refused_elsewhere():
    with Graph("text", input_types=[TensorType(DType.float32, [2])]) as g:
        ops.print(g.inputs[0])
        g.output(g.inputs[0])
    with pytest.raises(UnsupportedModuleError, match="calls back into Python"):
        lc.compile(str(g))
    with pytest.raises(UnsupportedModuleError, match="calls back into Python"):
        lc.compile(g.module, host_callbacks=[])  # no functions: refused as any host callback
    with pytest.raises(UnsupportedModuleError, match="index is out of range"):
        lc.compile(str(g).replace("index = 0", "index = 5"), host_callbacks=[print])
