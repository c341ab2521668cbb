"""Promotion policies: one module per system, all behind :func:`policy`."""

from .base import LatticePolicy, Policy
from .registry import policies, policy, register_policy

__all__ = ["Policy", "LatticePolicy", "policy", "policies", "register_policy"]
