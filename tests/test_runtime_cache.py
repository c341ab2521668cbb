"""The compilation cache: in memory, on disk, across processes, with corrupt entries.

Assertions are on the cache's counters (``cache_info()``) and on results, never on time.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from latticecast.runtime import cache_info, clear_cache, compile, get_cache_dir, set_cache_dir
from latticecast.runtime import cache as cache_mod

ADD = """func.func @main(%a: tensor<3xi32>, %b: tensor<3xi32>) -> tensor<3xi32> {
  %0 = stablehlo.add %a, %b : tensor<3xi32>
  return %0 : tensor<3xi32>
}"""

# The same program, written differently: comments, whitespace, SSA names, a module wrapper.
ADD_REFORMATTED = """// the same program
module {
  func.func @main(%lhs: tensor<3xi32>,
                  %rhs: tensor<3xi32>) -> tensor<3xi32> {
    %sum = stablehlo.add %lhs, %rhs : tensor<3xi32>
    return %sum : tensor<3xi32>
  }
}
"""

SUB = ADD.replace("stablehlo.add", "stablehlo.subtract")

A = np.array([1, 2, 3], np.int32)
B = np.array([10, 20, 30], np.int32)

pytestmark = pytest.mark.usefixtures("fresh_cache")


def _delta(before, after, field: str) -> int:
    return getattr(after, field) - getattr(before, field)


# -- in memory ----------------------------------------------------------------------------------


def test_second_compile_is_served_from_memory() -> None:
    before = cache_info()
    first = compile(ADD)
    second = compile(ADD)
    after = cache_info()
    assert _delta(before, after, "compiles") == 1
    assert _delta(before, after, "misses") == 1
    assert _delta(before, after, "hits") == 1
    assert first.cache_source == "compiled" and second.cache_source == "memory"
    assert second.executable is first.executable
    np.testing.assert_array_equal(second(A, B)[0], A + B)


def test_reformatted_text_hits_the_canonical_entry() -> None:
    compile(ADD)
    before = cache_info()
    model = compile(ADD_REFORMATTED)
    after = cache_info()
    assert _delta(before, after, "compiles") == 0 and _delta(before, after, "hits") == 1
    assert model.cache_source == "memory"
    # and now the reformatted text is itself a fast hit
    assert compile(ADD_REFORMATTED).cache_source == "memory"


def test_a_different_program_is_a_miss() -> None:
    compile(ADD)
    before = cache_info()
    model = compile(SUB)
    assert _delta(before, cache_info(), "compiles") == 1
    np.testing.assert_array_equal(model(A, B)[0], A - B)


def test_ir_module_input_is_cached() -> None:
    from latticecast.runtime.source import parse_runnable_module

    module = parse_runnable_module(ADD)
    before = cache_info()
    compile(module)
    compile(module)
    compile(ADD)  # the same program as text: a canonical hit
    after = cache_info()
    assert _delta(before, after, "compiles") == 1 and _delta(before, after, "hits") == 2


def test_use_cache_false_always_compiles() -> None:
    compile(ADD)
    before = cache_info()
    model = compile(ADD, use_cache=False)
    after = cache_info()
    assert _delta(before, after, "compiles") == 1 and _delta(before, after, "hits") == 0
    np.testing.assert_array_equal(model(A, B)[0], A + B)


def test_input_names_are_per_model_on_a_hit() -> None:
    a = compile(ADD, input_names=["a", "b"])
    b = compile(ADD, input_names=["p", "q"])
    assert a.input_names == ("a", "b") and b.input_names == ("p", "q")
    assert b.cache_source == "memory"


def test_memory_cache_is_a_bounded_lru() -> None:
    lru: cache_mod.ExecutableCache[str] = cache_mod.ExecutableCache(max_entries=2)
    lru.store("k1", "one", "alias1")
    lru.store("k2", "two")
    assert lru.lookup("alias1") == "one"  # k1 is now most recent
    lru.store("k3", "three")
    assert lru.lookup("k2") is None and lru.lookup("k1") == "one" and lru.lookup("k3") == "three"
    lru.store("k4", "four")  # evicts k1, and its alias with it
    assert lru.lookup("alias1") is None and len(lru) == 2
    assert lru.store("k4", "other") == "four"  # the first stored entry wins


def test_key_covers_program_options_and_xla_flags(monkeypatch: pytest.MonkeyPatch) -> None:
    import jax

    dev = jax.devices("cpu")[0]
    base = cache_mod.executable_key("a" * 64, dev, b"options")
    assert cache_mod.executable_key("b" * 64, dev, b"options") != base
    assert cache_mod.executable_key("a" * 64, dev, b"other options") != base
    monkeypatch.setenv("XLA_FLAGS", "--xla_cpu_enable_fast_math=true")
    assert cache_mod.executable_key("a" * 64, dev, b"options") != base


# -- on disk ------------------------------------------------------------------------------------


def test_disk_cache_round_trip_in_process(tmp_path: Path) -> None:
    before = cache_info()
    first = compile(ADD, cache_dir=tmp_path)
    entries = list((tmp_path / cache_mod.CACHE_FORMAT).glob("*.pjrt"))
    assert len(entries) == 1 and entries[0].stem == first.fingerprint
    clear_cache(stats=False)  # forget the in-memory copy only
    second = compile(ADD, cache_dir=tmp_path)
    after = cache_info()
    assert second.cache_source == "disk"
    assert _delta(before, after, "compiles") == 1
    assert _delta(before, after, "disk_writes") == 1
    assert _delta(before, after, "disk_hits") == 1
    np.testing.assert_array_equal(second(A, B)[0], A + B)


def test_disk_cache_off_for_this_call(tmp_path: Path) -> None:
    set_cache_dir(tmp_path)
    try:
        compile(ADD, cache_dir=False)
        assert not any((tmp_path / cache_mod.CACHE_FORMAT).glob("*.pjrt"))
        compile(SUB)
        assert len(list((tmp_path / cache_mod.CACHE_FORMAT).glob("*.pjrt"))) == 1
        assert get_cache_dir() == tmp_path and cache_info().disk_dir == str(tmp_path)
    finally:
        set_cache_dir(None)
    assert get_cache_dir() is None


def _entry(tmp_path: Path) -> Path:
    (entry,) = (tmp_path / cache_mod.CACHE_FORMAT).glob("*.pjrt")
    return entry


@pytest.mark.parametrize("damage", ["truncate", "flip", "empty", "garbage-with-valid-checksum", "wrong-key"])
def test_a_corrupt_entry_is_ignored_and_rebuilt(tmp_path: Path, damage: str) -> None:
    model = compile(ADD, cache_dir=tmp_path)
    entry = _entry(tmp_path)
    data = entry.read_bytes()
    if damage == "truncate":
        entry.write_bytes(data[: len(data) // 2])
    elif damage == "flip":
        entry.write_bytes(data[:-10] + bytes(b ^ 0xFF for b in data[-10:]))
    elif damage == "empty":
        entry.write_bytes(b"")
    elif damage == "garbage-with-valid-checksum":  # intact file, but PJRT cannot load it
        entry.write_bytes(cache_mod._pack(model.fingerprint, b"not an executable"))
    elif damage == "wrong-key":  # another entry's bytes under this name
        entry.write_bytes(cache_mod._pack("0" * 64, data[cache_mod._HEADER.size:]))
    clear_cache(stats=False)
    before = cache_info()
    with pytest.warns(RuntimeWarning, match="corrupt|cannot deserialize"):
        rebuilt = compile(ADD, cache_dir=tmp_path)
    after = cache_info()
    assert rebuilt.cache_source == "compiled"
    assert _delta(before, after, "disk_errors") == 1
    assert _delta(before, after, "compiles") == 1
    assert _delta(before, after, "disk_writes") == 1
    np.testing.assert_array_equal(rebuilt(A, B)[0], A + B)
    # The rebuilt entry is whole again.
    clear_cache(stats=False)
    assert compile(ADD, cache_dir=tmp_path).cache_source == "disk"


def test_unpack_rejects_every_damage() -> None:
    packed = cache_mod._pack("ab" * 32, b"payload")
    assert cache_mod._unpack(packed, "ab" * 32) == b"payload"
    assert cache_mod._unpack(packed, "cd" * 32) is None
    assert cache_mod._unpack(packed[:-1], "ab" * 32) is None
    assert cache_mod._unpack(packed + b"x", "ab" * 32) is None
    assert cache_mod._unpack(b"LCXPJRT0" + packed[8:], "ab" * 32) is None


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX permissions")
def test_a_directory_others_can_write_is_refused(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    (shared / cache_mod.CACHE_FORMAT).mkdir(parents=True)
    os.chmod(shared / cache_mod.CACHE_FORMAT, 0o777)
    before = cache_info()
    with pytest.warns(RuntimeWarning, match="writable by other users"):
        model = compile(ADD, cache_dir=shared)
    assert model.cache_source == "compiled"
    assert not any((shared / cache_mod.CACHE_FORMAT).glob("*.pjrt"))
    assert _delta(before, cache_info(), "disk_errors") == 1


def test_an_unwritable_location_does_not_break_compile(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.warns(RuntimeWarning, match="cannot use"):
        model = compile(ADD, cache_dir=blocker / "cache")
    np.testing.assert_array_equal(model(A, B)[0], A + B)


# -- across processes ---------------------------------------------------------------------------

_CHILD = textwrap.dedent("""
    import json, sys
    import numpy as np
    from latticecast.runtime import cache_info, compile
    model = compile(sys.argv[1])
    (out,) = model(np.array([1, 2, 3], np.int32), np.array([10, 20, 30], np.int32))
    info = cache_info()
    print(json.dumps({"source": model.cache_source, "compiles": info.compiles,
                      "disk_hits": info.disk_hits, "disk_writes": info.disk_writes,
                      "disk_errors": info.disk_errors, "disk_dir": info.disk_dir,
                      "out": out.tolist()}))
""")


def _child(env_extra: dict[str, str], text: str = ADD) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LATTICECAST_")}
    env.update(env_extra)
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    proc = subprocess.run([sys.executable, "-c", _CHILD, text], env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_disk_cache_is_shared_between_processes(tmp_path: Path) -> None:
    env = {"LATTICECAST_CACHE_DIR": str(tmp_path)}
    first = _child(env)
    assert first["source"] == "compiled" and first["compiles"] == 1 and first["disk_writes"] == 1
    second = _child(env)
    assert second["source"] == "disk" and second["compiles"] == 0 and second["disk_hits"] == 1
    assert first["out"] == second["out"] == [11, 22, 33]


def test_concurrent_processes_write_one_valid_entry(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LATTICECAST_")}
    env.update({"LATTICECAST_CACHE_DIR": str(tmp_path), "TF_CPP_MIN_LOG_LEVEL": "3"})
    procs = [subprocess.Popen([sys.executable, "-c", _CHILD, ADD], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(3)]
    results = []
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
        results.append(json.loads(out.strip().splitlines()[-1]))
    assert all(r["out"] == [11, 22, 33] and r["disk_errors"] == 0 for r in results)
    entries = list((tmp_path / cache_mod.CACHE_FORMAT).iterdir())
    assert len(entries) == 1 and entries[0].suffix == ".pjrt"  # no temporary file left behind
    assert _child({"LATTICECAST_CACHE_DIR": str(tmp_path)})["source"] == "disk"


def test_disk_cache_is_off_by_default_and_env_switches(tmp_path: Path) -> None:
    off = _child({"XDG_CACHE_HOME": str(tmp_path)})
    assert off["disk_dir"] is None and off["disk_writes"] == 0
    assert not (tmp_path / "latticecast").exists()
    on = _child({"XDG_CACHE_HOME": str(tmp_path), "LATTICECAST_DISK_CACHE": "1"})
    assert on["disk_dir"] == str(tmp_path / "latticecast") and on["disk_writes"] == 1
    forced_off = _child({"LATTICECAST_CACHE_DIR": str(tmp_path / "x"), "LATTICECAST_DISK_CACHE": "0"})
    assert forced_off["disk_dir"] is None


def test_clear_cache_on_disk(tmp_path: Path) -> None:
    set_cache_dir(tmp_path)
    try:
        compile(ADD)
        compile(SUB)
        assert len(list((tmp_path / cache_mod.CACHE_FORMAT).glob("*.pjrt"))) == 2
        clear_cache(disk=True)
        assert not list((tmp_path / cache_mod.CACHE_FORMAT).glob("*.pjrt"))
        assert cache_info().entries == 0
    finally:
        set_cache_dir(None)


def test_a_model_from_the_disk_cache_runs_whatever_the_x64_setting(tmp_path: Path) -> None:
    """A model loaded from disk is a jax.stages.Compiled, which runs only under the x64 setting it
    was made with; the runtime calls it under that setting, so the caller's does not matter."""
    import jax

    for x64 in (False, True):
        clear_cache()
        compile(ADD, cache_dir=tmp_path)  # compiled and stored (the first time), or loaded
        clear_cache()
        model = compile(ADD, cache_dir=tmp_path)
        assert model.cache_source == "disk"
        a = np.arange(3, dtype=np.int32)
        with jax.enable_x64(x64):
            np.testing.assert_array_equal(model(a, a)[0], a + a)
            np.testing.assert_array_equal(model(a, a.tolist())[0], a + a)
