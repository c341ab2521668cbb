"""A corpus of JAX programs, lowered at test time, and what the tests do with each.

Nothing here is committed IR: every module is what the installed JAX writes today, so
the tests follow JAX as it changes. :func:`programs` lists the single-device programs
(x64 off, and the ones that also run x64 on), :func:`sharded_programs` the ones on an
8-device mesh, which need ``XLA_FLAGS=--xla_force_host_platform_device_count=8`` before
jax is imported (``python tests/jax_corpus.py sharded`` runs them in a process of their
own and prints a JSON report).

The programs mix dtypes on purpose (bf16 weights with f32 activations, int8 weights
with f32 scales, integer positions added to floats, uint8 images), so JAX's modules
have converts feeding binary ops and dots: :func:`strip_promoting_converts` removes the
ones that promotion would recreate, giving the mixed-dtype module latticecast's
``implicit-cast`` must turn back into a module that computes what JAX's does.
"""

from __future__ import annotations

import io
import json
import os
import sys
from dataclasses import dataclass, field
from typing import Any, Callable

import ml_dtypes
import numpy as np

BF16 = ml_dtypes.bfloat16
F8 = ml_dtypes.float8_e4m3fn


@dataclass(frozen=True)
class Program:
    """One JAX function and its arguments.

    ``kind``: ``"jit"`` (``jax.jit(fn, keep_unused=True).lower(*args)``), ``"export"``
    (``jax.export`` with the symbolic shapes ``poly``, one per argument, ``None`` for a static
    one; ``runs`` are further argument tuples of other sizes) or ``"jit_poly"`` (``jax.jit(fn)
    .lower`` with symbolic shapes: ``@main`` takes each dimension variable's value first).
    ``modes``: ``"x32"`` (JAX's default) and/or ``"x64"`` (``jax.enable_x64``).
    ``callbacks``: the module calls back into Python, and the runtime must refuse it.
    """

    name: str
    fn: Callable[..., Any]
    args: Callable[[], tuple]
    kind: str = "jit"
    modes: tuple[str, ...] = ("x32",)
    poly: tuple[str | None, ...] | None = None
    runs: Callable[[], list[tuple]] | None = None
    dim_values: Callable[[tuple], tuple] | None = None
    callbacks: bool = False


def rng(seed: int = 0) -> np.random.Generator:
    return np.random.default_rng(seed)


def f32(*shape: int, seed: int = 0) -> np.ndarray:
    return rng(seed).standard_normal(shape).astype(np.float32)


def ints(*shape: int, lo: int = -5, hi: int = 6, dtype: Any = np.int32, seed: int = 0) -> np.ndarray:
    return rng(seed).integers(lo, hi, shape).astype(dtype)


def spd(n: int = 4, seed: int = 0, dtype: Any = np.float32) -> np.ndarray:
    a = rng(seed).standard_normal((n, n))
    return (a @ a.T + n * np.eye(n)).astype(dtype)


# -- model pieces ------------------------------------------------------------------------------


def _jnp():
    import jax
    import jax.numpy as jnp
    from jax import lax

    return jax, jnp, lax


def mlp_bf16(x, w1, b1, w2, scale):
    jax, jnp, _ = _jnp()
    h = jnp.dot(x, w1, preferred_element_type=jnp.float32) + b1          # f32 + f32
    h = jax.nn.gelu(h).astype(jnp.bfloat16) * scale                     # bf16 * f32 -> f32
    return jnp.dot(h, w2)                                               # f32 . bf16


def mlp_int8(x, w_q, scale, bias_bf16):
    jax, jnp, _ = _jnp()
    w = w_q * scale                                                     # int8 * f32
    return jax.nn.relu(x @ w + bias_bf16)                               # f32 + bf16


def attention(q, k, v, positions):
    jax, jnp, _ = _jnp()
    s = jnp.einsum("qd,kd->qk", q, k) / np.sqrt(q.shape[-1]).astype(np.float32)
    s = s + positions[:, None] * 0.01                                   # i32 * weak, + f32
    mask = positions[:, None] >= positions[None, :]
    s = jnp.where(mask, s, -1e9)
    return jax.nn.softmax(s, axis=-1) @ v


def attention_bf16(q, k, v):
    jax, jnp, _ = _jnp()
    s = jnp.einsum("qd,kd->qk", q, k)                                   # bf16 . f32
    p = jax.nn.softmax(s.astype(jnp.float32), axis=-1).astype(jnp.bfloat16)
    return p @ v                                                        # bf16 . f32


def conv_uint8(image, w, bias):
    _, jnp, lax = _jnp()
    x = image / 255.0                                                   # u8 / weak -> f32
    y = lax.conv_general_dilated(x, w, window_strides=(1, 1), padding="SAME",
                                 dimension_numbers=("NCHW", "OIHW", "NCHW"))
    return y + bias[None, :, None, None]                                # f32 + bf16


def layer_norm(x, g, b):
    _, jnp, lax = _jnp()
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) * lax.rsqrt(v + 1e-5) * g + b


def block(params, x, positions):
    jax, jnp, _ = _jnp()
    x = x + positions[:, None] * params["pos"]                          # i32 * f32
    h = layer_norm(x, params["g1"], params["b1"])
    q, k, v = h @ params["wq"], h @ params["wk"], h @ params["wv"]      # f32 . bf16
    x = x + attention(q, k, v, positions) @ params["wo"]
    h = layer_norm(x, params["g2"], params["b2"])
    return x + jax.nn.relu(h @ params["w1"]) @ params["w2"]


def block_params(d: int = 8, seed: int = 1) -> dict:
    r = rng(seed)

    def mk(*s, dtype=np.float32):
        return (r.standard_normal(s) / np.sqrt(s[0])).astype(dtype)

    return {"g1": np.ones(d, np.float32), "b1": np.zeros(d, np.float32), "wq": mk(d, d, dtype=BF16),
            "wk": mk(d, d, dtype=BF16), "wv": mk(d, d), "wo": mk(d, d), "g2": np.ones(d, np.float32),
            "b2": np.zeros(d, np.float32), "w1": mk(d, 4 * d), "w2": mk(4 * d, d), "pos": mk(d)}


def block_loss(params, x, positions):
    _, jnp, _ = _jnp()
    return jnp.mean(block(params, x, positions) ** 2)


def transformer_grad(params, x, positions):
    jax, _, _ = _jnp()
    return jax.grad(block_loss)(params, x, positions)


def mixed_block(params, tokens, positions):
    """A decoder block as mixed-precision code is written: int32 token ids and positions, bfloat16
    weights and embeddings, float32 norms and softmax, Python scalars throughout."""
    jax, jnp, _ = _jnp()
    d = params["embed"].shape[1]
    x = params["embed"][tokens] + params["pos"][positions]              # bf16 + bf16 (gathers)
    x = x * params["scale"]                                             # bf16 * a 0-d float32 array
    h = x * params["g1"] / jnp.sqrt((x * x).mean(-1, keepdims=True) + 1e-6)   # bf16 * f32 (RMS norm)
    q = h @ params["wq"]                                                # f32 @ bf16
    k = h @ params["wk"]
    v = (h @ params["wv"]).astype(jnp.bfloat16)                         # astype: the author's
    s = q @ k.T / d ** 0.5                                              # f32 / Python float
    s = s - jnp.abs(positions[:, None] - positions[None, :]) * 0.125    # ALiBi: int32 * Python float
    s = jnp.where(positions[:, None] >= positions[None, :], s, -1e9)
    o = jax.nn.softmax(s, axis=-1) @ v                                  # f32 @ bf16
    x = x + o @ params["wo"]                                            # bf16 + (f32 @ bf16)
    h = jax.nn.gelu(x @ params["w1"]) * 0.5                            # f32 * Python float
    steps = jnp.arange(tokens.shape[0]) // 2 + 1                       # int32 // Python int
    return x + h @ params["w2"] / steps[:, None]                        # f32 / int32


def mixed_block_params(d: int = 8, vocab: int = 11, length: int = 6, seed: int = 2) -> dict:
    r = rng(seed)

    def mk(*s, dtype=BF16):
        return (r.standard_normal(s) / np.sqrt(s[-1])).astype(dtype)

    return {"embed": mk(vocab, d), "pos": mk(length, d), "scale": np.float32(np.sqrt(d)), "g1": np.ones(d, np.float32),
            "wq": mk(d, d),
            "wk": mk(d, d), "wv": mk(d, d), "wo": mk(d, d), "w1": mk(d, 4 * d), "w2": mk(4 * d, d)}


def scan_mixed(xs):
    _, jnp, lax = _jnp()

    def step(c, xi):                                                    # f32 carry + i32 element
        c = c + xi
        return c, c * 2
    return lax.scan(step, jnp.zeros(xs.shape[1:], jnp.float32), xs)


def while_mixed(x):
    _, _, lax = _jnp()
    return lax.while_loop(lambda c: c[0] < 10, lambda c: (c[0] + 1, c[1] * 1.5 + c[0]), (0, x))[1]


def cond_mixed(p, x, k):
    _, jnp, lax = _jnp()
    return lax.cond(p > 0, lambda v: jnp.sin(v) * k, lambda v: jnp.cos(v) - k, x)   # f32 . i32


def fori_mixed(x):
    _, _, lax = _jnp()
    return lax.fori_loop(0, 5, lambda i, v: v * 0.5 + i, x)


def argmax_mixed(x, w):
    _, jnp, _ = _jnp()
    i = jnp.argmax(x, axis=-1)
    return i, i * w                                                     # i32 * f32


def gather_mixed(x, idx, w):
    return x[idx] * w                                                   # f32 * i32


def scatter_mixed(x, idx, u, v):
    y = x.at[idx].set(u)                                                # f32 <- i8 updates
    return y.at[idx].add(v) + idx.sum()                                 # f32 + i32


def sort_mixed(x):
    _, jnp, _ = _jnp()
    return jnp.sort(x) + jnp.argsort(x, stable=True)                    # f32 + i32


def top_k_cumsum(x):
    _, jnp, lax = _jnp()
    vals, idx = lax.top_k(x, 3)
    return vals * idx, jnp.cumsum(x, axis=0)                            # f32 * i32


def maxpool_u8(x):
    _, jnp, lax = _jnp()
    return lax.reduce_window(x, jnp.uint8(0), lax.max, (1, 2, 2), (1, 2, 2), "VALID") * 0.5


def cholesky_solve(a, b):
    _, jnp, _ = _jnp()
    return jnp.linalg.cholesky(a), jnp.linalg.solve(a, b), jnp.linalg.det(a) * b.sum()   # f32 * i32


def eigh_svd_qr(a, m):
    _, jnp, _ = _jnp()
    return jnp.linalg.eigh(a)[0], jnp.linalg.svd(m, compute_uv=False), jnp.abs(jnp.linalg.qr(m)[1])


def inv_batched(a):
    _, jnp, _ = _jnp()
    return jnp.linalg.inv(a), jnp.linalg.cholesky(a)


def sparse_matvec(data, indices, indptr, v, k):
    from jax.experimental import sparse

    return (sparse.BCSR((data, indices, indptr), shape=(3, 4)) @ v) * k   # jaxlib's CPU sparse kernel


def sparse_args() -> tuple:
    from jax.experimental import sparse

    a = sparse.BCSR.fromdense(np.array([[1, 0, 2, 0], [0, 3, 0, 0], [4, 0, 0, 5]], np.float32))
    return np.asarray(a.data), np.asarray(a.indices), np.asarray(a.indptr), f32(4), ints(3)


def fp8_roundtrip(x, y):
    _, jnp, _ = _jnp()
    return x.astype(jnp.float8_e4m3fn).astype(jnp.float32) * y        # f32 * bf16


def fp8_dot(a, b):
    _, jnp, _ = _jnp()
    return jnp.dot(a, b, preferred_element_type=jnp.float32)


def fp8_cast(x):
    _, jnp, _ = _jnp()
    return x.astype(jnp.float8_e4m3fn)


def complex_mixed(z, x):
    _, jnp, _ = _jnp()
    return jnp.abs(jnp.fft.fft(z)) + jnp.real(z * x)                   # c64 * f32


def ints_and_bools(x, n):
    _, jnp, _ = _jnp()
    return x > 0, (x * 10).astype(jnp.int8) + n, jnp.uint32(7) + n.astype(jnp.uint8)   # i8 + i32, u32 + u8


def pytree_io(d):
    return {"s": d["a"] + d["b"], "p": (d["a"] * d["b"],)}


def random_normal(key_data):
    jax, _, _ = _jnp()
    return jax.random.normal(jax.random.wrap_key_data(key_data), (4,))


def remat_grad(x):
    jax, jnp, _ = _jnp()
    return jax.grad(lambda v: jnp.sum(jax.checkpoint(lambda u: jnp.sin(u) ** 2)(v)))(x)


def vmap_dynamic_slice(x, i):
    jax, _, lax = _jnp()
    return jax.vmap(lambda r, j: lax.dynamic_slice(r, (j,), (2,)) * j)(x, i)


def chlo_special(x):
    _, jnp, lax = _jnp()
    return lax.erf_inv(jnp.tanh(x) * 0.9) + lax.lgamma(jnp.abs(x) + 1)


def debug_print(x):
    jax, _, _ = _jnp()
    jax.debug.print("x = {x}", x=x)
    return x * 2


def debug_print_ordered(x):
    jax, _, _ = _jnp()
    jax.debug.print("x = {x}", x=x, ordered=True)
    return x * 2


def io_callback_ordered(x):
    jax, _, _ = _jnp()
    from jax.experimental import io_callback

    return io_callback(lambda v: np.asarray(v) + 1, jax.ShapeDtypeStruct(x.shape, x.dtype), x, ordered=True) * 2


def pure_callback(x):
    jax, _, _ = _jnp()
    return jax.pure_callback(lambda v: np.asarray(v) * 3, jax.ShapeDtypeStruct(x.shape, x.dtype), x) + 1


def poly_mixed(x, k):
    _, jnp, _ = _jnp()
    return jnp.sin(x) * k + x.shape[0]                                 # f32 * i32, + dimension


def poly_mlp(x, w):
    jax, _, _ = _jnp()
    return jax.nn.relu(x @ w).mean(0)


def poly_sum(x):
    _, jnp, _ = _jnp()
    return jnp.sin(x) * x.shape[0] + jnp.sum(x, axis=0)


def jit_poly(x):
    return x * 2 + x.shape[0]


def x64_mixed(x, i):
    _, jnp, _ = _jnp()
    return x * 2.0 + i, jnp.sum(i)                                      # f64 + i64


def x64_weak(x):
    return x + 1.5                                                      # i64 + weak float


def x64_uint64(x, y):
    return (x >> 3) ^ np.uint64(0xFFFF), x + y                          # u64 + u32


def x64_complex128(z, x):
    return z * z.conj() + x                                             # c128 + f32 (-> c128)


def programs() -> list[Program]:
    """The single-device corpus."""
    both = ("x32", "x64")
    return [
        Program("mlp_bf16", mlp_bf16, lambda: (f32(4, 8).astype(BF16), f32(8, 16, seed=1).astype(BF16),
                                               f32(16, seed=2), f32(16, 4, seed=3).astype(BF16), f32(16, seed=4)),
                modes=both),
        Program("mlp_int8", mlp_int8, lambda: (f32(4, 8), ints(8, 16, dtype=np.int8), f32(16, seed=1),
                                               f32(16, seed=2).astype(BF16))),
        Program("attention", attention, lambda: (f32(6, 8), f32(6, 8, seed=1), f32(6, 8, seed=2),
                                                 np.arange(6, dtype=np.int32))),
        Program("attention_bf16", attention_bf16, lambda: (f32(6, 8).astype(BF16), f32(6, 8, seed=1),
                                                           f32(6, 8, seed=2))),
        Program("conv_uint8", conv_uint8, lambda: (ints(1, 2, 6, 6, lo=0, hi=256, dtype=np.uint8),
                                                   f32(3, 2, 3, 3, seed=1), f32(3, seed=2).astype(BF16))),
        Program("transformer_block", block, lambda: (block_params(), f32(5, 8), np.arange(5, dtype=np.int32))),
        Program("mixed_block", mixed_block, lambda: (mixed_block_params(), np.array([3, 1, 4, 1, 5, 9], np.int32),
                                                      np.arange(6, dtype=np.int32)), modes=both),
        Program("transformer_grad", transformer_grad,
                lambda: (block_params(), f32(5, 8), np.arange(5, dtype=np.int32)), modes=both),
        Program("scan", scan_mixed, lambda: (ints(5, 3),)),
        Program("while_loop", while_mixed, lambda: (f32(3),)),
        Program("cond", cond_mixed, lambda: (np.float32(1.0), f32(3), ints(3, seed=1))),
        Program("fori_loop", fori_mixed, lambda: (f32(3),)),
        Program("argmax", argmax_mixed, lambda: (f32(4, 7), f32(4, seed=1)), modes=both),
        Program("gather", gather_mixed, lambda: (f32(6, 3), np.array([4, 0, 2], np.int32), ints(3, 3))),
        Program("scatter", scatter_mixed, lambda: (f32(6, 3), np.array([4, 0], np.int32),
                                                   ints(2, 3, dtype=np.int8), f32(2, 3, seed=1)), modes=both),
        Program("sort", sort_mixed, lambda: (f32(9),), modes=both),
        Program("top_k_cumsum", top_k_cumsum, lambda: (f32(8),)),
        Program("maxpool_uint8", maxpool_u8, lambda: (ints(1, 4, 4, lo=0, hi=256, dtype=np.uint8),)),
        Program("cholesky_solve", cholesky_solve, lambda: (spd(), ints(4)), modes=both),
        Program("eigh_svd_qr", eigh_svd_qr, lambda: (spd(), f32(5, 3))),
        Program("inv_batched", inv_batched, lambda: (np.stack([spd(), spd(seed=1)]),)),
        Program("sparse_matvec", sparse_matvec, sparse_args),
        Program("fp8_roundtrip", fp8_roundtrip, lambda: (f32(8), f32(8, seed=1).astype(BF16))),
        Program("fp8_dot", fp8_dot, lambda: (f32(4, 8).astype(F8), f32(8, 2, seed=1).astype(F8))),
        Program("fp8_cast", fp8_cast, lambda: (f32(8),)),
        Program("complex_mixed", complex_mixed, lambda: ((f32(8) + 1j * f32(8, seed=1)).astype(np.complex64),
                                                         f32(8, seed=2))),
        Program("ints_and_bools", ints_and_bools, lambda: (f32(4), np.int32(3))),
        Program("pytree_io", pytree_io, lambda: ({"a": f32(3), "b": ints(3)},)),
        Program("no_inputs", lambda: np.arange(5, dtype=np.int32) * 2.5, lambda: ()),
        Program("random_normal", random_normal, lambda: (np.array([0, 42], np.uint32),)),
        Program("remat_grad", remat_grad, lambda: (f32(4),)),
        Program("vmap_dynamic_slice", vmap_dynamic_slice, lambda: (f32(3, 6), np.array([0, 2, 4], np.int32))),
        Program("chlo_special", chlo_special, lambda: (f32(5),)),
        Program("x64_mixed", x64_mixed, lambda: (f32(4).astype(np.float64), np.arange(4, dtype=np.int64)),
                modes=("x64",)),
        Program("x64_weak", x64_weak, lambda: (np.arange(3, dtype=np.int64),), modes=("x64",)),
        Program("x64_uint64", x64_uint64, lambda: (np.arange(4, dtype=np.uint64) * 1000,
                                                   np.arange(4, dtype=np.uint32)), modes=("x64",)),
        Program("x64_complex128", x64_complex128, lambda: (np.arange(3) * (1 + 2j), f32(3)), modes=("x64",)),
        Program("export_poly_sum", poly_sum, lambda: (f32(3, 4),), kind="export", poly=("b, 4",),
                runs=lambda: [(f32(1, 4),), (f32(7, 4, seed=1),)]),
        Program("export_poly_mixed", poly_mixed, lambda: (f32(3, 4), ints(3, 4)), kind="export",
                poly=("b, 4", "b, 4"), runs=lambda: [(f32(6, 4), ints(6, 4, seed=1))]),
        Program("export_poly_mlp", poly_mlp, lambda: (f32(5, 4), f32(4, 3, seed=1)), kind="export",
                poly=("b, 4", None), runs=lambda: [(f32(2, 4, seed=2), f32(4, 3, seed=1))]),
        Program("jit_lower_poly", jit_poly, lambda: (f32(3, 4),), kind="jit_poly", poly=("b, 4",),
                runs=lambda: [(f32(5, 4, seed=1),)], dim_values=lambda args: (args[0].shape[0],)),
        Program("debug_print", debug_print, lambda: (f32(3),), callbacks=True),
        Program("debug_print_ordered", debug_print_ordered, lambda: (f32(3),), callbacks=True),
        Program("io_callback_ordered", io_callback_ordered, lambda: (f32(3),), callbacks=True),
        Program("pure_callback", pure_callback, lambda: (f32(3),), callbacks=True),
    ]


# -- lowering -----------------------------------------------------------------------------------


@dataclass
class Lowered:
    """A program as JAX lowered and ran it.

    ``text``/``text_debug``: JAX's own print of the module without and with locations;
    ``jax_module``: the module in JAX's own context (``compiler_ir("stablehlo")``);
    ``source``: what the runtime compiles (the text, or ``jax.export``'s portable artifact);
    ``runs``: (flat NumPy inputs, JAX's flat outputs) per call; ``policy``: the policy that is
    JAX's promotion in this mode.
    """

    program: Program
    mode: str
    text: str
    text_debug: str
    jax_module: Any
    source: "str | bytes"
    runs: list[tuple[list[np.ndarray], list[np.ndarray]]] = field(default_factory=list)

    @property
    def id(self) -> str:
        return f"{self.program.name}[{self.mode}]"

    def __repr__(self) -> str:  # pytest shows fixtures on failure: not the whole module
        return f"<Lowered {self.id}: {self.text.count(chr(10))} lines>"

    @property
    def policy(self) -> str:
        return "jax" if self.mode == "x64" else "jax-x32"


def _flat(tree: Any) -> list[np.ndarray]:
    import jax

    return [np.asarray(leaf) for leaf in jax.tree.leaves(tree)]


def lower(program: Program, mode: str) -> Lowered:
    """Lower ``program`` with JAX in ``mode`` and record JAX's outputs (callbacks are not run)."""
    import jax
    from jax import export

    with jax.enable_x64(mode == "x64"):
        args = program.args()
        jitted = jax.jit(program.fn, keep_unused=True)
        if program.kind == "jit":
            lowered = jitted.lower(*args)
            text, text_debug = lowered.as_text(), lowered.as_text(debug_info=True)
            result = Lowered(program, mode, text, text_debug, lowered.compiler_ir("stablehlo"), text)
            calls = [args]
        else:
            scope = None
            specs = []
            for a, p in zip(args, program.poly or ()):
                if p is None:
                    specs.append(jax.ShapeDtypeStruct(a.shape, a.dtype))
                    continue
                shape = export.symbolic_shape(p, scope=scope)
                scope = next((d.scope for d in shape if hasattr(d, "scope")), scope)
                specs.append(jax.ShapeDtypeStruct(shape, a.dtype))
            calls = [args] + (program.runs() if program.runs else [])
            if program.kind == "export":
                exported = export.export(jitted)(*specs)
                text_debug = exported.mlir_module()
                module = _jax_context_module(text_debug)
                result = Lowered(program, mode, _print(module, False), text_debug, module,
                                 exported.mlir_module_serialized)
            else:
                lowered = jitted.lower(*specs)
                text = lowered.as_text()
                result = Lowered(program, mode, text, lowered.as_text(debug_info=True),
                                 lowered.compiler_ir("stablehlo"), text)
        if not program.callbacks:
            for call in calls:
                inputs = _flat(call)
                if program.dim_values is not None:
                    inputs = [np.asarray(v, np.int32) for v in program.dim_values(call)] + inputs
                result.runs.append((inputs, _flat(jitted(*call))))
    return result


def _jax_context_module(text: str) -> Any:
    """``text`` parsed in a context exactly like JAX's (the one of a module JAX lowered)."""
    import jax
    import jax.numpy as jnp
    from jaxlib.mlir import ir

    context = jax.jit(jnp.sin).lower(np.float32(0)).compiler_ir("stablehlo").context
    return ir.Module.parse(text, context=context)


def _print(module: Any, debug: bool) -> str:
    """A module printed as JAX prints it (``jax._src.interpreters.mlir.module_to_string``)."""
    out = io.StringIO()
    module.operation.print(file=out, enable_debug_info=debug)
    return out.getvalue()


# -- recovery -----------------------------------------------------------------------------------


def strip_promoting_converts(module: Any, policy_name: str) -> int:
    """Remove every convert that feeds a promoted operand of a binary op or a dot when the policy's
    promotion of the op's operands (with that operand unconverted) recreates it: the mixed-dtype
    module a promotion-aware front end would have written. Returns how many operands changed."""
    from jaxlib.mlir import ir

    import latticecast as lc
    from latticecast.dialect_utils.types import type_cache
    from latticecast.promotion.op_rules import STABLEHLO, decide

    policy = lc.policy(policy_name)
    tc = type_cache(module.context)

    def dtype(t: Any) -> Any:
        try:
            return tc.tensor_info(t)[0]
        except TypeError:
            return None

    candidates: list[tuple[Any, Any]] = []

    def visit(op: Any) -> Any:
        rule = STABLEHLO.get(op.name)
        if rule is not None:
            candidates.append((op, rule))
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    changed = 0
    touched: dict[Any, None] = {}
    for op, rule in candidates:
        positions = rule.operands if rule.operands is not None else tuple(range(len(op.operands)))
        for k, i in enumerate(positions):
            value = op.operands[i]
            convert = value.owner
            if isinstance(convert, ir.Block) or convert.name != "stablehlo.convert":
                continue
            source, target = dtype(convert.operands[0].type), dtype(value.type)
            types = [dtype(op.operands[j].type) for j in positions]
            if source is None or target is None or None in types:
                continue
            types[k] = source
            try:
                decision = decide(policy, rule, types)
            except lc.PromotionError:
                continue
            if decision.target is target:
                op.operands[i] = convert.operands[0]
                touched[convert] = None
                changed += 1
    for convert in touched:
        if not list(convert.results[0].uses):
            convert.erase()
    return changed


def count_ops(text: str, name: str) -> int:
    return text.count(f"{name} ") + text.count(f'"{name}"')


# -- the sharded part (its own process) ---------------------------------------------------------


def sharded_programs(mesh: Any) -> list[tuple[str, Callable, Callable[[], tuple], dict]]:
    """(name, fn, args, jit keyword arguments) on a 2x4 mesh with axes x and y."""
    import jax
    import jax.numpy as jnp
    from jax.sharding import NamedSharding, PartitionSpec as P

    def sh(*spec):
        return NamedSharding(mesh, P(*spec))

    rep = sh()

    def constrained(x, k):
        y = jax.lax.with_sharding_constraint(k * 3, sh("y", None))       # i32, constrained
        return jnp.sin(x) * y                                             # f32 * i32

    def psum_mixed(a, k):
        f = jax.shard_map(lambda u, v: jax.lax.psum((u * v).sum(0, keepdims=True), "x"), mesh=mesh,
                          in_specs=(P("x", None), P("x", None)), out_specs=P(None, None))
        return f(a, k)

    params = block_params(d=8)
    return [
        ("sharded_mixed_args", lambda x, k: x * k + 1, lambda: (f32(8, 8), ints(8, 8)),
         {"in_shardings": (sh("x", "y"), sh("x", "y")), "out_shardings": rep}),
        ("sharded_matmul_bf16", lambda x, w: jnp.tanh(x @ w), lambda: (f32(8, 16).astype(BF16), f32(16, 4, seed=1)),
         {"in_shardings": (sh("x", "y"), sh("y", None)), "out_shardings": rep}),
        ("sharded_constraint", constrained, lambda: (f32(8, 8), ints(8, 8)),
         {"in_shardings": (sh("x", "y"), sh("x", None)), "out_shardings": rep}),
        ("shard_map_psum", psum_mixed, lambda: (f32(8, 4), ints(8, 4)),
         {"in_shardings": (sh("x", None), sh("x", None)), "out_shardings": rep}),
        ("sharded_transformer_grad", transformer_grad, lambda: (params, f32(8, 8), np.arange(8, dtype=np.int32)),
         {"in_shardings": (rep, sh("x", None), sh("x")), "out_shardings": rep}),
        ("sharded_cholesky", lambda a, b: jnp.linalg.cholesky(a) * b,
         lambda: (np.stack([spd(seed=i) for i in range(8)]), ints(8, 4, 4)),
         {"in_shardings": (sh("x", None, None), sh("x", None, None)), "out_shardings": rep}),
    ]


def _expected_sharding(module: Any, value: Any) -> str | None:
    """The sharding a convert of ``value`` must carry, read from the text JAX wrote (an argument's
    ``sdy.sharding``/``mhlo.sharding``, or a sharding constraint), as the convert would print it."""
    from jaxlib.mlir import ir

    owner = value.owner
    if isinstance(owner, ir.Block):
        parent = owner.owner.operation
        if parent.name != "func.func" or "arg_attrs" not in parent.attributes:
            return None
        attrs = ir.DictAttr(ir.ArrayAttr(parent.attributes["arg_attrs"])[value.arg_number])
        if "sdy.sharding" in attrs:
            return "sdy.sharding = #sdy.sharding_per_value<[" + str(attrs["sdy.sharding"])[len("#sdy.sharding"):] + "]>"
        if "mhlo.sharding" in attrs:
            return f"mhlo.sharding = {attrs['mhlo.sharding']}"
        return None
    if owner.name == "sdy.sharding_constraint":
        return "sdy.sharding = #sdy.sharding_per_value<[" + str(owner.attributes["sharding"])[len("#sdy.sharding"):] + "]>"
    if owner.name == "stablehlo.custom_call" and "mhlo.sharding" in owner.attributes:
        return f"mhlo.sharding = {owner.attributes['mhlo.sharding']}"
    return None


def check_sharded(shardy: bool) -> list[dict]:
    """Lower every sharded program; check invariance, recovery (with the shardings of the converts
    the pass inserts) and, on the 8 devices, that the recovered module, through ``latticecast.compile``
    (from NumPy and from ``jax.Array`` s laid out as jit's), computes JAX's outputs."""
    import jax
    from jax.sharding import Mesh

    import latticecast as lc
    from latticecast.dialect_utils.parsing import parse_module
    from latticecast.passes import run_pipeline

    jax.config.update("jax_use_shardy_partitioner", shardy)
    devices = jax.devices("cpu")[:8]
    mesh = Mesh(np.array(devices).reshape(2, 4), ("x", "y"))
    report = []
    for name, fn, make_args, kwargs in sharded_programs(mesh):
        name = f"{name}[{'shardy' if shardy else 'gspmd'}]"
        entry: dict[str, Any] = {"name": name}
        report.append(entry)
        try:
            args = make_args()
            lowered = jax.jit(fn, keep_unused=True, **kwargs).lower(*args)
            text = lowered.as_text()
            entry["invariant"] = all(_opt(text, policy) == text for policy in ("jax", "max", "numpy"))
            jax_module = lowered.compiler_ir("stablehlo")
            run_pipeline(jax_module, "builtin.module(implicit-cast{policy=max})")
            entry["invariant_in_jax_context"] = _print(jax_module, False) == text
            module = parse_module(text)
            entry["stripped"] = strip_promoting_converts(module, "jax-x32")
            run_pipeline(module, "builtin.module(implicit-cast{policy=jax-x32})")
            module.operation.verify()
            entry["verifies"] = True
            checked = wrong = 0
            from jaxlib.mlir import ir

            converts: list[Any] = []
            module.operation.walk(lambda op: (converts.append(op) if op.name == "stablehlo.convert" else None)
                                  or ir.WalkResult.ADVANCE)
            for op in converts:
                want = _expected_sharding(module, op.operands[0])
                if want is None:
                    continue
                checked += 1
                if want not in str(op):
                    wrong += 1
                    entry.setdefault("missing_sharding", []).append(str(op)[:300])
            entry["shardings_checked"], entry["shardings_wrong"] = checked, wrong
            expected = _flat(jax.jit(fn, **kwargs)(*args))
            model = lc.compile(_print(module, False))
            entry["devices"] = len(model.devices)
            shardings = [s for s, a in zip(kwargs["in_shardings"], args) for _ in jax.tree.leaves(a)]
            placed = [jax.device_put(x, s) for x, s in zip(_flat(args), shardings)]
            from_numpy, from_arrays = model(*_flat(args)), model(*placed)
            entry["outputs_match"] = len(from_numpy) == len(expected) and all(
                close(g, w) for g, w in zip(from_numpy, expected))
            entry["bitwise"] = all(_same_bits(g, w) for g, w in zip(from_numpy, expected))
            entry["arrays_match_numpy"] = all(_same_bits(g, w) for g, w in zip(from_arrays, from_numpy))
        except Exception as e:  # noqa: BLE001 - reported, and the test fails on it
            entry["error"] = f"{type(e).__name__}: {str(e)[:500]}"
    return report


def _opt(text: str, policy: str) -> str:
    """``latticecast-opt --implicit-cast --policy POLICY`` on ``text``, in this process."""
    import tempfile

    from latticecast.cli.opt.driver import run
    from latticecast.cli.opt.args import parse_args

    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
    try:
        out, err = io.StringIO(), io.StringIO()
        code = run(parse_args([f.name, "--implicit-cast", "--policy", policy]), out, err)
        if code != 0:
            raise AssertionError(f"latticecast-opt failed ({code}): {err.getvalue()}")
        return out.getvalue()
    finally:
        os.unlink(f.name)


def _same_bits(got: np.ndarray, want: np.ndarray) -> bool:
    got, want = np.asarray(got), np.asarray(want)
    return got.dtype == want.dtype and got.shape == want.shape and got.tobytes() == want.tobytes()


def close(got: np.ndarray, want: np.ndarray) -> bool:
    """Equal dtype and shape, and values equal (integers, bools) or close (floats: relative to
    the dtype's precision)."""
    got, want = np.asarray(got), np.asarray(want)
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if want.dtype.kind in "biu":
        return bool(np.array_equal(got, want))
    wide = np.complex128 if want.dtype.kind == "c" else np.float64
    tol = 1e-5 if want.dtype.itemsize >= 4 and want.dtype.kind in "fc" else 2e-2
    if want.dtype.kind not in "fc":  # bfloat16, float8: ml_dtypes' kind is 'V'
        tol = 6e-2
    return bool(np.allclose(got.astype(wide), want.astype(wide), rtol=tol, atol=tol, equal_nan=True))


def _main(argv: list[str]) -> None:
    """``sharded``: the sharded report (JSON); ``lower NAME MODE [--debug]``: one program's module as JAX
    prints it (with its Python locations under ``--debug``), for the command-line tools."""
    if argv == ["sharded"]:
        print(json.dumps(check_sharded(True) + check_sharded(False)))
        return
    if len(argv) in (3, 4) and argv[0] == "lower" and argv[3:] in ([], ["--debug"]):
        found = [p for p in programs() if p.name == argv[1] and argv[2] in p.modes]
        if found:
            low = lower(found[0], argv[2])
            sys.stdout.write(low.text_debug if argv[3:] else low.text)
            return
        sys.exit(f"no program {argv[1]!r} in mode {argv[2]!r}")
    sys.exit("usage: XLA_FLAGS=--xla_force_host_platform_device_count=8 python tests/jax_corpus.py sharded\n"
             "       python tests/jax_corpus.py lower NAME x32|x64 [--debug]")


if __name__ == "__main__":
    _main(sys.argv[1:])
