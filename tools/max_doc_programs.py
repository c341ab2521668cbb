"""Programs from MAX 26.7's documentation that run a graph with ``InferenceSession``, ``Weight`` and ``gather``.

Each is written the way MAX's documentation and docstrings write it (the pages and docstrings each
follows are named in its docstring): it builds a graph, loads it with
``InferenceSession(devices=[...]).load(graph, weights_registry=...)``, executes it, and returns the
outputs as NumPy arrays (``.to_numpy()``). They run unchanged on MAX
(``tools/run_max_doc_programs.py`` wrote ``tests/data/max_doc_reference.npz`` from them) and on
latticecast with only the import lines changed (``tests/test_max_engine.py`` makes exactly that change:
``max.driver``/``max.engine`` become ``latticecast.max.driver``/``latticecast.max.engine``, and
``max.dtype``/``max.graph`` become ``latticecast.max``).

``PROGRAMS`` maps each name to its function and its arguments' (shape, dtype) list: the runner draws
them from one seeded stream and passes them in order. ``NEEDS`` names the ``ops`` a program uses
beyond the four of ``tools/max_dropin_programs.py``, so a test can skip it where an op is missing.
"""

from __future__ import annotations

import numpy as np
from max.driver import CPU, Accelerator, Buffer, accelerator_count
from max.dtype import DType
from max.engine import InferenceSession
from max.graph import DeviceRef, Graph, TensorType, TensorValue, Weight, ops


def run_addition(a: np.ndarray, b: np.ndarray) -> list[np.ndarray]:
    """The "Get started with MAX graphs" tutorial (``addition.py``): add two float32 tensors of shape (1,)."""
    input_type = TensorType(dtype=DType.float32, shape=(1,), device=DeviceRef.CPU())
    with Graph("simple_add_graph", input_types=(input_type, input_type)) as graph:
        lhs, rhs = graph.inputs
        out = ops.add(lhs, rhs)
        graph.output(out)

    session = InferenceSession(devices=[CPU()])
    model = session.load(graph)
    for tensor in model.input_metadata:
        print(f"name: {tensor.name}, shape: {tensor.shape}, dtype: {tensor.dtype}")
    ret = model.execute(Buffer.from_numpy(a), Buffer.from_numpy(b))[0]
    return [ret.to_numpy()]


def run_add_constants() -> list[np.ndarray]:
    """``InferenceSession``'s docstring: two constants on whichever device there is, a model without inputs."""
    device = Accelerator() if accelerator_count() > 0 else CPU()
    device_ref = DeviceRef.from_device(device)
    with Graph("add") as graph:
        graph.output(
            ops.add(
                ops.constant([1.0, 2.0], DType.float32, device=device_ref),
                ops.constant([3.0, 4.0], DType.float32, device=device_ref),
            )
        )

    session = InferenceSession(devices=[device])
    model = session.load(graph)
    return [model.execute()[0].to(CPU()).to_numpy()]


def run_add_one(x: np.ndarray) -> list[np.ndarray]:
    """``Model``'s docstring: a symbolic batch, the input metadata, ``execute`` on a NumPy array and a call."""
    with Graph(
        "add_one",
        input_types=[TensorType(DType.float32, ["batch"], device=DeviceRef.CPU())],
    ) as graph:
        (x_in,) = graph.inputs
        graph.output(x_in + 1.0)

    session = InferenceSession(devices=[CPU()])
    model = session.load(graph)
    for tensor in model.input_metadata:
        print(f"name: {tensor.name}, shape: {tensor.shape}, dtype: {tensor.dtype}")
    outputs = model.execute(x)
    called = model(x[:2])
    return [outputs[0].to_numpy(), called[0].to_numpy()]


def run_linear_relu(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> list[np.ndarray]:
    """``Graph``'s docstring (context manager): ``y = x @ W + b`` with two ``Weight`` s, then ReLU, with the
    weights supplied at load time."""
    W = Weight("W", DType.float32, [3, 2], DeviceRef.CPU())
    b_weight = Weight("b", DType.float32, [2], DeviceRef.CPU())

    with Graph(
        "linear_relu",
        input_types=[TensorType(DType.float32, ["batch", 3], device=DeviceRef.CPU())],
    ) as graph:
        x_in = graph.inputs[0].tensor
        y = x_in @ W + b_weight
        graph.output(ops.relu(y))

    session = InferenceSession(devices=[CPU()])
    model = session.load(graph, weights_registry={"W": w, "b": b})
    return [model.execute(x)[0].to_numpy()]


class Linear:
    """A linear layer whose parameters are ``Weight`` s (``Graph``'s docstring, constructor form)."""

    def __init__(self, in_dim: int, out_dim: int, name: str) -> None:
        self.weight = Weight(f"{name}.weight", DType.float32, [in_dim, out_dim], DeviceRef.CPU())
        self.bias = Weight(f"{name}.bias", DType.float32, [out_dim], DeviceRef.CPU())

    def __call__(self, x: TensorValue) -> TensorValue:
        return ops.matmul(x, self.weight) + self.bias


class MLP:
    """Two ``Linear`` layers with a ReLU between them."""

    def __init__(self, in_dim: int, hidden_dim: int, out_dim: int) -> None:
        self.fc1 = Linear(in_dim, hidden_dim, "fc1")
        self.fc2 = Linear(hidden_dim, out_dim, "fc2")

    def __call__(self, x: TensorValue) -> TensorValue:
        return self.fc2(ops.relu(self.fc1(x)))


def run_mlp(x: np.ndarray, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray) -> list[np.ndarray]:
    """The MLP of the graph tutorial: a graph built by a callable (``forward``), its weights by name in
    ``weights_registry``, its input a driver buffer moved to the device, its output read back on the CPU."""
    device = CPU()
    mlp = MLP(8, 16, 4)
    graph = Graph(
        "mlp",
        mlp,
        input_types=[TensorType(DType.float32, ["batch", 8], device=DeviceRef.from_device(device))],
    )
    weights = {"fc1.weight": w1, "fc1.bias": b1, "fc2.weight": w2, "fc2.bias": b2}
    session = InferenceSession(devices=[device])
    model = session.load(graph, weights_registry=weights)
    output = model.execute(Buffer.from_numpy(x).to(device))[0]
    return [output.to(CPU()).to_numpy()]


def run_gather_constants() -> list[np.ndarray]:
    """``ops.gather``'s docstring: rows 0 and 2 of a constant."""
    device = DeviceRef.CPU()
    with Graph("gather") as graph:
        x = ops.constant([[1, 2], [3, 4], [5, 6]], DType.int32, device=device)
        indices = ops.constant([0, 2], DType.int64, device=device)
        graph.output(ops.gather(x, indices, axis=0))

    model = InferenceSession().load(graph)
    return [model.execute()[0].to_numpy()]


def run_embedding(token_ids: np.ndarray, table: np.ndarray, w: np.ndarray) -> list[np.ndarray]:
    """An embedding lookup as MAX's models write one: a ``Weight`` table, ``ops.gather`` along the vocabulary,
    the mean over the sequence, and a projection (another weight)."""
    vocab_size, hidden_dim = table.shape
    embedding = Weight("embedding.weight", DType.float32, [vocab_size, hidden_dim], DeviceRef.CPU())
    proj = Weight("proj.weight", DType.float32, [hidden_dim, 3], DeviceRef.CPU())
    with Graph(
        "embed",
        input_types=[TensorType(DType.int64, ["batch", "seq_len"], device=DeviceRef.CPU())],
    ) as graph:
        ids = graph.inputs[0].tensor
        embedded = ops.gather(embedding, ids, axis=0)
        pooled = ops.mean(embedded, axis=1)
        graph.output(embedded, ops.squeeze(pooled, axis=1) @ proj)

    session = InferenceSession(devices=[CPU()])
    model = session.load(graph, weights_registry={"embedding.weight": table, "proj.weight": w})
    return [out.to_numpy() for out in model.execute(token_ids)]


F32, I64 = np.float32, np.int64

PROGRAMS = {
    "addition": (run_addition, [((1,), F32), ((1,), F32)]),
    "add_constants": (run_add_constants, []),
    "add_one": (run_add_one, [((5,), F32)]),
    "linear_relu": (run_linear_relu, [((4, 3), F32), ((3, 2), F32), ((2,), F32)]),
    "mlp": (run_mlp, [((6, 8), F32), ((8, 16), F32), ((16,), F32), ((16, 4), F32), ((4,), F32)]),
    "gather_constants": (run_gather_constants, []),
    "embedding": (run_embedding, [((2, 5), I64), ((11, 6), F32), ((6, 3), F32)]),
}
"""name -> (the program, its arguments' (shape, NumPy dtype)); int64 arguments are token ids below
``VOCAB`` (11)."""

VOCAB = 11

NEEDS = {"gather_constants": ("gather",), "embedding": ("gather",)}
"""The ``ops`` a program needs beyond those every latticecast release has."""
