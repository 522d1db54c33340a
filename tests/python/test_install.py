"""pip install ./python: the package installs with pip (here without build isolation: the build backend is
Debian's setuptools, as no package index is reachable) and works from where it was installed."""

import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_pip_install_then_import(tmp_path):
    for module in ("pip", "setuptools"):
        if subprocess.run([sys.executable, "-c", "import " + module], capture_output=True).returncode:
            pytest.skip("%s has no %s (Debian: python3-%s)" % (sys.executable, module, module))
    # A copy of python/, so that the build's scratch files stay out of the source tree.
    src = tmp_path / "src"
    shutil.copytree(os.path.join(ROOT, "python"), src, ignore=shutil.ignore_patterns("__pycache__", "build",
                                                                                      "*.egg-info"))
    target = tmp_path / "site"
    r = subprocess.run([sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-deps",
                        "--no-index", "--target", str(target), str(src)], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert {"__init__.py", "_lib.py", "_play.py", "cs50.py"} <= set(os.listdir(target / "ttt"))
    env = dict(os.environ, PYTHONPATH=str(target))
    code = "import ttt, ttt.cs50; print(ttt.__file__); print(ttt.cs50.minimax(ttt.cs50.initial_state()))"
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    where, move = r.stdout.splitlines()
    assert where == str(target / "ttt" / "__init__.py")
    assert move.startswith("(")
