"""The options of ``implicit-cast``, parsed from MLIR's ``{key=value key2=value}`` syntax."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..policies import policy as get_policy

__all__ = ["ImplicitCastOptions", "PassOptionError"]

_LOSSY_LEVELS = ("off", "remark", "warning", "error")


class PassOptionError(ValueError):
    """A pass option that does not exist or has a bad value; the message lists the valid ones."""


@dataclass(frozen=True)
class ImplicitCastOptions:
    """``policy``: the promotion policy (``jax``, ``max``, ...).
    ``diagnose_lossy``: report promotions that can lose magnitude (``int64 -> float16``):
    ``off`` (default), ``remark``, ``warning`` or ``error``.
    ``lower_dtypes``: lower ``index``/``address`` to ``ui64`` and ``tensor_float32`` to ``f32``
    (with ``reduce_precision``), so the output is plain StableHLO (default on)."""

    policy: str = "jax"
    diagnose_lossy: str = "off"
    lower_dtypes: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "policy", get_policy(self.policy).name)  # validates the name
        if self.diagnose_lossy not in _LOSSY_LEVELS:
            raise PassOptionError(f"diagnose-lossy must be one of {', '.join(_LOSSY_LEVELS)}, "
                                  f"not {self.diagnose_lossy!r}")

    @classmethod
    def parse(cls, text: str) -> "ImplicitCastOptions":
        """``"policy=max diagnose-lossy=warning"`` (spaces or commas between options; a bare
        ``diagnose-lossy`` means ``warning``)."""
        opts = cls()
        for item in text.replace(",", " ").split():
            key, _, value = item.partition("=")
            key = key.strip().replace("_", "-")
            if key == "policy":
                opts = replace(opts, policy=value)
            elif key == "diagnose-lossy":
                value = value or "warning"
                value = {"true": "warning", "false": "off", "1": "warning", "0": "off"}.get(value, value)
                opts = replace(opts, diagnose_lossy=value)
            elif key == "lower-dtypes":
                if value not in ("", "true", "false", "1", "0"):
                    raise PassOptionError(f"lower-dtypes must be true or false, not {value!r}")
                opts = replace(opts, lower_dtypes=value in ("", "true", "1"))
            else:
                raise PassOptionError(f"implicit-cast has no option {key!r}; its options are "
                                      "policy=<name>, diagnose-lossy=off|remark|warning|error, "
                                      "lower-dtypes=true|false")
        return opts

    def __str__(self) -> str:
        return (f"policy={self.policy} diagnose-lossy={self.diagnose_lossy} "
                f"lower-dtypes={'true' if self.lower_dtypes else 'false'}")
