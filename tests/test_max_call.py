"""Graph.add_subgraph and ops.call (MAX's): subgraphs as private functions of the module, called with func.call;
MAX's errors (wording measured with MAX 26.7)."""

from __future__ import annotations

import re
import subprocess

import numpy as np
import pytest

import latticecast as lc
from latticecast.max import DType, Graph, SymbolicDim, TensorType, ops

from conftest import library_python


def test_nested_subgraphs_are_functions_called_by_func_call() -> None:
    t = TensorType(DType.float32, [3], "cpu")
    with Graph("outer", input_types=[t, t]) as g:
        with g.add_subgraph("middle", input_types=[t, t]) as middle:
            with middle.add_subgraph("inner", input_types=[t]) as inner:
                inner.output(inner.inputs[0] * 2, inner.inputs[0] + 1)
            doubled, plus = ops.call(inner, middle.inputs[0])
            middle.output(doubled + plus * middle.inputs[1])
        (first,) = ops.call(middle, *g.inputs)
        (second,) = ops.call(middle, first, g.inputs[1])
        assert second.type == t
        g.output(second)
    text = g.mlir()
    assert "func.func private @inner" in text and text.count("call @middle") == 2
    (out,) = g.compile()(np.array([1, 2, 3], np.float32), np.array([1, 0, 2], np.float32))
    step = lambda x, y: 2 * x + (x + 1) * y  # noqa: E731
    np.testing.assert_allclose(out, step(step(np.array([1, 2, 3.0]), np.array([1, 0, 2.0])), np.array([1, 0, 2.0])))


def test_call_checks_the_arguments_as_max_does() -> None:
    f = TensorType(DType.float32, [10], "cpu")
    i = TensorType(DType.int32, [10], "cpu")
    with Graph("main", input_types=[i, i]) as g:
        with g.add_subgraph("sub", input_types=[f]) as sub:
            sub.output(sub.inputs[0])
        with pytest.raises(ValueError, match=r"Expected 1 args to call to sub, got 2"):
            ops.call(sub, *g.inputs)
        with pytest.raises(ValueError, match="Subgraph sub has wrong type for argument 0"):
            ops.call(sub, g.inputs[0])
        with pytest.raises(ValueError, match="already has a function of that name"):
            g.add_subgraph("sub", input_types=[f])
        unfinished = g.add_subgraph("unfinished", input_types=[f])
        g.output(g.inputs[0])
    with pytest.raises(ValueError, match="subgraph 'unfinished' of graph 'main' has no output"):
        g.mlir()
    del unfinished


def test_a_subgraphs_text_is_its_modules() -> None:
    t = TensorType(DType.float32, [2], "cpu")
    with Graph("main", input_types=[t]) as g:
        with g.add_subgraph("twice", input_types=[t]) as sub:
            sub.output(sub.inputs[0] * 2)
        assert 'sym_name = "twice"' in str(sub)  # while the root is open: the module as built (generic form)
        g.output(*ops.call(sub, g.inputs[0]))
    assert sub.mlir() == g.mlir() and "func.func private @twice" in sub.mlir()
    with pytest.raises(ValueError, match="compile that graph"):
        sub.compile()


# -- the parameter union (MAX's add_subgraph: the subgraph's parameters are its inputs' and its parent's) ----------

P, K, N = SymbolicDim("P"), SymbolicDim("K"), SymbolicDim("N")
F = DType.float32


def _total_as_p(sub: Graph) -> None:
    """The subgraph's output: the sum of its input, broadcast to its parent's dimension P."""
    sub.output(ops.broadcast_to(ops.sum(sub.inputs[0], axis=0), [P]))


@pytest.mark.parametrize("graph_class", [Graph, lc.Graph], ids=["latticecast.max", "latticecast"])
def test_a_subgraph_uses_its_parents_dimension_and_the_call_passes_its_size(graph_class: type[Graph]) -> None:
    """MAX's test_add_subgraph_unions_parent_and_callee_params: the callee's input names K, the parent's P; the
    subgraph has both, and a body that uses P runs, for sizes that change from call to call."""
    with graph_class("main_params_union", input_types=[TensorType(F, [P], "cpu"), TensorType(F, [K], "cpu")]) as g:
        with g.add_subgraph("sg_union", input_types=[TensorType(F, [K], "cpu")]) as sub:
            _total_as_p(sub)
        assert sub.parameters == (K, P) and g.parameters == (P, K)
        (r,) = ops.call(sub, g.inputs[1])
        assert r.shape == [P]
        g.output(r + g.inputs[0])
    assert sub.dimension_arguments == (P,)
    text = g.mlir()
    assert 'func.func private @sg_union(%arg0: tensor<i64> {jax.global_constant = "P"}, %arg1: tensor<?xf32>)' in text
    model = g.compile()
    for p, k in [(3, 5), (1, 2), (4, 1)]:
        x, y = np.arange(p, dtype=np.float32), np.arange(k, dtype=np.float32)
        np.testing.assert_array_equal(model(x, y)[0], x + y.sum())


def test_a_dimension_the_parent_names_by_rebind_is_a_parameter_of_the_subgraph() -> None:
    """MAX's test_call_refreshes_subgraph_input_parameters_from_internal_ops: the parent names K by rebind; the
    subgraph has K (its input's) and N (the parent's), and runs. Its body uses neither size: no dimension argument."""
    with Graph("main_refresh", input_types=[TensorType(F, [N], "cpu")]) as g:
        y = ops.rebind(g.inputs[0], [K])
        with g.add_subgraph("callee_refresh", input_types=[TensorType(F, [K], "cpu")]) as sub:
            sub.output(sub.inputs[0] * 2)
        assert g.parameters == (N, K) and sub.parameters == (K, N)
        g.output(*ops.call(sub, y))
    assert sub.dimension_arguments == ()
    assert "func.func private @callee_refresh(%arg0: tensor<?xf32>) -> tensor<?xf32>" in g.mlir()
    np.testing.assert_array_equal(g.compile()(np.arange(3, dtype=np.float32))[0], [0, 2, 4])


def test_a_parents_dimension_reaches_nested_subgraphs_through_each_call() -> None:
    """inner uses the root's P; middle passes its own argument for P on; the root calls both."""
    with Graph("outer", input_types=[TensorType(F, [P], "cpu"), TensorType(F, [K], "cpu")]) as g:
        with g.add_subgraph("middle", input_types=[TensorType(F, [K], "cpu")]) as middle:
            with middle.add_subgraph("inner", input_types=[TensorType(F, [K], "cpu")]) as inner:
                _total_as_p(inner)
            middle.output(*ops.call(inner, middle.inputs[0]))
        assert middle.parameters == inner.parameters == (K, P)
        (through_middle,) = ops.call(middle, g.inputs[1])
        (direct,) = ops.call(inner, g.inputs[1])
        g.output(through_middle + direct + g.inputs[0])
    assert middle.dimension_arguments == inner.dimension_arguments == (P,)
    assert "call @inner(%arg0, %arg1) : (tensor<i64>, tensor<?xf32>)" in g.mlir()
    (out,) = g.compile()(np.ones(2, np.float32), np.array([1, 2, 3], np.float32))
    np.testing.assert_array_equal(out, [13, 13])


def test_rebind_in_a_subgraph_to_its_parents_dimension_checks_the_size_when_run() -> None:
    """P is a parameter of the subgraph, so rebinding K to P there asserts that they are equal, as it would in the
    parent: the call of sizes that differ fails naming them."""
    with Graph("same", input_types=[TensorType(F, [P], "cpu"), TensorType(F, [K], "cpu")]) as g:
        with g.add_subgraph("as_p", input_types=[TensorType(F, [K], "cpu")]) as sub:
            sub.output(ops.rebind(sub.inputs[0], [P]))
        (r,) = ops.call(sub, g.inputs[1])
        assert r.shape == [P]
        g.output(r)
    model = g.compile()
    np.testing.assert_array_equal(model(np.ones(3, np.float32), np.arange(3, dtype=np.float32))[0], [0, 1, 2])
    with pytest.raises(lc.InputShapeError, match=r"rebind of \[K\] to \[P\]: axis 0 has size 4, not P \(= 3\)"):
        model(np.ones(3, np.float32), np.ones(4, np.float32))


def test_a_subgraph_made_before_its_parent_names_a_dimension_does_not_have_it() -> None:
    """As MAX: the union is taken when the subgraph is made (add_subgraph), so a name the parent gets later is
    not the subgraph's; the subgraph that uses it is refused (the MAX graph builds it and refuses to compile)."""
    with lc.Graph("early", input_types=[TensorType(F, [N], "cpu"), TensorType(F, [K], "cpu")]) as g:
        with g.add_subgraph("before", input_types=[TensorType(F, [K], "cpu")]) as sub:
            with pytest.raises(ValueError, match="graph 'before' has no input with the symbolic dimension 'P'"):
                ops.broadcast_to(ops.sum(sub.inputs[0], axis=0), [P])
            sub.output(sub.inputs[0])
        ops.rebind(g.inputs[0], [P])
        assert P in g.parameters and P not in sub.parameters


def test_calling_a_subgraph_from_a_graph_without_its_dimension_is_refused_naming_it() -> None:
    """Every subgraph has its root's dimensions, but not one its parent named after making it: ``early``, made
    before the root rebinds to P, cannot call ``uses_p``, made after."""
    with Graph("main", input_types=[TensorType(F, [N], "cpu"), TensorType(F, [K], "cpu")]) as g:
        early = g.add_subgraph("early", input_types=[TensorType(F, [K], "cpu")])
        as_p = ops.rebind(g.inputs[0], [P])
        with g.add_subgraph("uses_p", input_types=[TensorType(F, [K], "cpu")]) as uses_p:
            _total_as_p(uses_p)
        with early:
            with pytest.raises(ValueError, match=r"call: subgraph uses_p uses the symbolic dimension 'P' of the graph "
                                                 r"it was made in \('main'\), and graph 'early' has no size for it"):
                ops.call(uses_p, early.inputs[0])
            early.output(early.inputs[0])
        (r,) = ops.call(uses_p, g.inputs[1])
        g.output(r + as_p)
    x, y = np.arange(3, dtype=np.float32), np.ones(2, np.float32)
    np.testing.assert_array_equal(g.compile()(x, y)[0], x + 2)


def test_bool_arithmetic_in_a_max_subgraph_builds_and_the_root_graph_refuses_to_compile() -> None:
    """A subgraph of latticecast.max's Graph builds what MAX builds, as its parent does: bool ``-`` and ``//``
    (MAX 26.7 builds both; its compiler then fails with the words compile() gives)."""
    b = TensorType(DType.bool, [3], "cpu")
    with Graph("g", input_types=[b]) as g:
        with g.add_subgraph("s", input_types=[b]) as s:
            s.output((s.inputs[0] - s.inputs[0]) // s.inputs[0])
        g.output(*ops.call(s, g.inputs[0]))
    with pytest.raises(ValueError, match=r"graph 'g' does not compile: subgraph 's': - of bool operands: "
                                         r"Failed to compile the model\. Please file an issue"):
        g.compile()
    with lc.Graph("plain", input_types=[b]) as g:  # latticecast's own Graph refuses where it is written
        with g.add_subgraph("s", input_types=[b]) as s:
            with pytest.raises(lc.DomainError, match="-: needs numbers"):
                s.inputs[0] - s.inputs[0]


UNION_PROGRAM = """
import numpy as np
from max.dtype import DType
from max.graph import DeviceRef, Graph, TensorType, ops
from max.engine import InferenceSession
from max.driver import CPU
cpu = DeviceRef.CPU()
with Graph("main", input_types=[TensorType(DType.float32, ["P"], cpu), TensorType(DType.float32, ["K"], cpu)]) as g:
    with g.add_subgraph("sg", input_types=[TensorType(DType.float32, ["K"], cpu)]) as sub:
        sub.output(ops.broadcast_to(ops.sum(sub.inputs[0].tensor, axis=0), ["P"]))
    (r,) = ops.call(sub, g.inputs[1])
    g.output(r.tensor + g.inputs[0].tensor)
# parameters
try:
    model = InferenceSession(devices=[CPU()]).load(g)
    print("ran", model.execute(np.arange(3, dtype=np.float32), np.ones(5, np.float32))[0].to_numpy().tolist())
except RuntimeError as e:
    print("refused", str(e.__cause__).splitlines()[0])
"""

MAX_PARAMETERS = r"""
import re
decls = re.search(r"mo\.graph @sg<(.*?)>\(", str(sub)).group(1)
print("parameters", sorted(p.split(":")[0].strip() for p in decls.split(",")))
"""
"""A MAX subgraph's parameters, read from its IR (``mo.graph @sg<K, P>(...)`` once the root graph verifies; MAX's
own test reads the generic form's ``inputParameters``)."""


def test_max_26_7_unions_the_parameters_and_then_fails_to_compile_a_body_that_uses_the_parents(run_python) -> None:
    """Live, with MAX (``LATTICECAST_MAX_PYTHON``): MAX's subgraph declares P and K, and its compiler refuses the
    body that uses P (the difference add_subgraph's docstring states); latticecast runs the same program, rewritten
    by the migration's sed line only, to x + sum(y)."""
    python = library_python("max", "LATTICECAST_MAX_PYTHON")
    program = UNION_PROGRAM.replace("# parameters\n", MAX_PARAMETERS)
    measured = subprocess.run([python, "-c", program], capture_output=True, text=True, timeout=900)
    assert measured.returncode == 0, measured.stderr
    assert measured.stdout.splitlines() == ["parameters ['K', 'P']", 'refused Failed to convert model to MEF. error: '
                                            'unsupported attribute #kgen.param.decl.ref<"P"> : !kgen.scalar<si64>']
    ours = re.sub(r"^from max import", "from latticecast.max import",
                  re.sub(r"\bmax\.", "latticecast.max.", UNION_PROGRAM), flags=re.M)
    result = run_python(ours.replace("# parameters\n", "print('parameters', sorted(d.name for d in sub.parameters))\n"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["parameters ['K', 'P']", "ran [5.0, 6.0, 7.0]"]
