"""Write the torch models of ``tests/test_max_weights_models.py``: their weights as ``.safetensors`` files that
torch writes (``safetensors.torch.save_file``), and torch's outputs on fixed inputs.

Usage (torch==2.13.0 and safetensors in that Python; the project's venv never imports torch)::

    PYTHONPATH=DIR_WITH_SAFETENSORS /work/venv-torch/bin/python tools/make_torch_reference.py tests/data/torch_models

Writes ``mlp.safetensors`` (a 2-layer MLP: Linear 8->16, GELU (tanh), Linear 16->4), ``attention.safetensors``
(a pre-norm self-attention block: LayerNorm, q/k/v/out projections, 2 heads, causal, a residual) and
``reference.npz`` (each model's input and torch's output, in float32).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import torch
from safetensors.torch import save_file


class MLP(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = torch.nn.Linear(8, 16)
        self.fc2 = torch.nn.Linear(16, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(torch.nn.functional.gelu(self.fc1(x), approximate="tanh"))


class Attention(torch.nn.Module):
    HEADS = 2

    def __init__(self, dim: int = 16) -> None:
        super().__init__()
        self.norm = torch.nn.LayerNorm(dim)
        self.q_proj = torch.nn.Linear(dim, dim)
        self.k_proj = torch.nn.Linear(dim, dim)
        self.v_proj = torch.nn.Linear(dim, dim)
        self.out_proj = torch.nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch, seq, dim = x.shape
        h = self.norm(x)

        def heads(t: torch.Tensor) -> torch.Tensor:
            return t.reshape(batch, seq, self.HEADS, dim // self.HEADS).transpose(1, 2)

        q, k, v = heads(self.q_proj(h)), heads(self.k_proj(h)), heads(self.v_proj(h))
        attended = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
        return x + self.out_proj(attended.transpose(1, 2).reshape(batch, seq, dim))


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(26)
    mlp, attention = MLP().eval(), Attention().eval()
    x_mlp = torch.randn(3, 8)
    x_attention = torch.randn(2, 5, 16)
    with torch.no_grad():
        y_mlp, y_attention = mlp(x_mlp), attention(x_attention)
    save_file(mlp.state_dict(), str(out / "mlp.safetensors"))
    save_file(attention.state_dict(), str(out / "attention.safetensors"))
    np.savez(out / "reference.npz", mlp_x=x_mlp.numpy(), mlp_y=y_mlp.numpy(), attention_x=x_attention.numpy(),
             attention_y=y_attention.numpy(), torch_version=np.array(torch.__version__))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
