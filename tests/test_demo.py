"""The README's main job, ``latticecast demo``: it builds, shows the pass, runs, and compares policies."""

import subprocess
import sys
from pathlib import Path

import numpy as np

from latticecast import DType
from latticecast.demo import INPUTS, build_program, main, run_max_program


def test_demo_walks_through_the_whole_path(capsys):
    assert main([]) == 0
    out = capsys.readouterr().out
    before = out[out.index("2. StableHLO as built"):out.index("3. After implicit-cast")]
    assert '"stablehlo.add"(%2, %arg1) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>' in before
    assert "{latticecast.weak}" in before
    after = out[out.index("3. After implicit-cast"):out.index("4. Compiled")]
    assert "stablehlo.convert %3 : (tensor<4xi16>) -> tensor<4xf32>" in after
    assert "latticecast.weak" not in after
    run = out[out.index("4. Compiled"):out.index("5. The same program")]
    assert "x * one + y - 2 = [-0.5 ,  0.25,  0.  , 10.  ]  (float32)" in run
    side = out[out.index("5. The same program"):out.index("6. A program written for MAX")]
    assert "float16" in side and "inf" in side and "float64" in side  # max and jax disagree on i8 + u64
    assert "can lose magnitude" in side
    # one device here: the sharded section says how to see it on a laptop
    assert "7. Sharded over several devices: skipped, cpu has one device here" in out
    assert "XLA_FLAGS=--xla_force_host_platform_device_count=8 latticecast demo" in out
    # the fp8 line: the same int16 + float8_e4m3fn under jax and numpy, and the lossy warning
    assert "fp8: int16 + float8_e4m3fn under jax = float8_e4m3fn [  1.5,   3. , 288. , 448. ]" in side
    assert "fp8: int16 + float8_e4m3fn under numpy: refused, np.promote_types refuses it" in side
    assert "under jax: fp8: warning: 'stablehlo.add' op implicit promotion of i16 to f8E4M3FN can lose" in side
    assert "under max: demo: warning: 'stablehlo.add' op implicit promotion of ui64 to f16" in side  # one format
    dropin = out[out.index("6. A program written for MAX"):]
    assert "from latticecast.max import DType, DeviceRef, Graph, TensorType, ops" in dropin
    assert "labels int64[4, 1]" in dropin and "against NumPy: labels equal" in dropin


def test_demo_reads_well_in_100_columns(capsys):
    """Every line fits 100 columns; the notation is explained once, at the top, before it is used."""
    from latticecast.demo import NOTATION, fit_ir

    assert main([]) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= 100
    assert out.startswith(NOTATION) and out.count("How to read this demo") == 1
    for term in ("i8 u64", "i* f* c*", "a . b = r", "policy", "diagnostics"):
        assert term in NOTATION
    assert out.index("a . b = r") < out.index("i8 . u64 under")
    assert "seed systems" not in out
    # the IR is broken only between tokens: it still parses, and prints back as it was
    import latticecast as lc

    g = build_program("jax")
    assert str(lc.parse(fit_ir(g.mlir(), 60))) == str(lc.parse(g.mlir()))


def test_demo_max_program_computes_what_numpy_does():
    (probs, labels), (want_probs, want_labels) = run_max_program()
    np.testing.assert_allclose(probs, want_probs, rtol=1e-6, atol=1e-7)
    np.testing.assert_array_equal(labels, want_labels)


def test_demo_values_are_numpy_arithmetic():
    model = build_program("jax").compile()
    x, y, a, b = (v for _, v in INPUTS.values())
    first, second = model(x, y, a, b)
    np.testing.assert_array_equal(first, (x * 1 + y - 2).astype(np.float32))
    np.testing.assert_array_equal(second, a.astype(np.float64) + b.astype(np.float64))


def test_demo_console_script():
    exe = Path(sys.executable).with_name("latticecast")
    proc = subprocess.run([str(exe), "demo", "--vs", "numpy"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "pjrt_client" not in proc.stderr  # no XLA log noise
    assert "5. The same program under jax and numpy" in proc.stdout


def test_demo_fp8_values_are_jax_arithmetic():
    import jax

    from latticecast.demo import FP8_INPUTS, fp8_lines

    x, y = FP8_INPUTS
    expected = np.asarray(jax.jit(lambda a, b: a + b)(x, y))
    assert expected.dtype == DType.float8_e4m3fn.np_dtype
    line = fp8_lines(["jax"])[0]
    assert line.endswith(np.array2string(expected.astype(np.float32), separator=", "))


def test_the_demo_goes_on_under_a_policy_that_refuses_part_of_the_program(capsys):
    """max-python and array-api refuse ``int8 + uint64`` (array-api ``int16 + float32`` too): the walk-
    through says so and runs what the policy accepts."""
    assert main(["--policy", "max-python", "--vs", "array-api"]) == 0
    out = capsys.readouterr().out
    assert "refused under max-python, left out of the program: a + b: +: no implicit promotion of i8 and u64" in out
    run = out[out.index("4. Compiled"):out.index("5. The same program")]
    assert "x * one + y - 2 = [-0.5 ,  0.25,  0.  , 10.  ]  (float32)" in run and "a + b" not in run
    side = out[out.index("5. The same program"):out.index("6. A program written for MAX")]
    assert side.count("error") == 3  # array-api refuses both outputs, max-python one
