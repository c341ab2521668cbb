"""``dense_resource`` constants (torch-mlir's weights, ``jax.export``'s large constants) run:
``latticecast.compile`` writes them as dense attributes of the same bytes before XLA sees them."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import latticecast as lc
from latticecast.runtime import UnsupportedModuleError
from latticecast.runtime.resources import inline_dense_resources
from latticecast.runtime.source import parse_runnable_module


def _module(element: str, shape: str, blobs: dict[str, bytes], body: str, result: str) -> str:
    resources = ",\n".join(f'      {k}: "0x04000000{v.hex().upper()}"' for k, v in blobs.items())
    return f"""module {{
  func.func @main(%arg0: tensor<{shape}x{element}>) -> tensor<{shape}x{result}> {{
{body}
  }}
}}

{{-#
  dialect_resources: {{
    builtin: {{
{resources}
    }}
  }}
#-}}
"""


@pytest.mark.parametrize("dtype, element", [(np.float32, "f32"), (ml_dtypes.bfloat16, "bf16"), (np.int8, "i8"),
                                            (np.uint16, "ui16"), (np.float64, "f64"), (np.complex64, "complex<f32>")])
def test_a_dense_resource_weight_runs(dtype, element) -> None:
    w = np.array([1.5, -2.0, 3.25, 0.0], dtype=np.float64).astype(dtype) if element != "ui16" else \
        np.array([1, 65535, 3, 0], dtype=dtype)
    body = f"""    %w = stablehlo.constant dense_resource<torch_tensor_4_torch.weight> : tensor<4x{element}>
    %0 = stablehlo.add %arg0, %w : tensor<4x{element}>
    return %0 : tensor<4x{element}>"""
    text = _module(element, "4", {"torch_tensor_4_torch.weight": w.tobytes()}, body, element)
    x = np.ones(4, dtype=dtype)
    (out,) = lc.compile(text)(x)
    np.testing.assert_array_equal(out, x + w)


def test_bool_resources_hold_a_byte_per_element() -> None:
    body = """    %w = stablehlo.constant dense_resource<mask> : tensor<3xi1>
    %0 = stablehlo.and %arg0, %w : tensor<3xi1>
    return %0 : tensor<3xi1>"""
    text = _module("i1", "3", {"mask": bytes([1, 0, 1])}, body, "i1")
    (out,) = lc.compile(text)(np.array([True, True, False]))
    np.testing.assert_array_equal(out, [True, False, False])


def test_the_callers_module_is_not_changed_and_one_without_resources_is_returned_as_is() -> None:
    body = """    %w = stablehlo.constant dense_resource<"quoted name"> : tensor<2xf32>
    %0 = stablehlo.multiply %arg0, %w : tensor<2xf32>
    return %0 : tensor<2xf32>"""
    text = _module("f32", "2", {'"quoted name"': np.array([2.0, 3.0], np.float32).tobytes()}, body, "f32")
    module = parse_runnable_module(text)
    before = str(module)
    (out,) = lc.compile(module)(np.array([1.0, 2.0], np.float32))
    np.testing.assert_array_equal(out, [2.0, 6.0])
    assert str(module) == before and "dense_resource" in before
    inlined = inline_dense_resources(module)
    assert inlined is not module and "dense_resource" not in str(inlined)
    assert inline_dense_resources(inlined) is inlined


def test_elided_weights_are_refused_clearly() -> None:
    text = """module {
  func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
    %w = stablehlo.constant dense_resource<__elided__> : tensor<2xf32>
    %0 = stablehlo.add %arg0, %w : tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}
"""
    with pytest.raises(UnsupportedModuleError, match=r"dense_resource constants whose bytes it does not hold "
                                                     r"\(__elided__\)"):
        lc.compile(text)
