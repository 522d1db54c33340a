"""The README's ten-line example runs as it stands and prints what the README shows."""

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_readme_example(tmp_path):
    readme = open(os.path.join(ROOT, "README.md")).read()
    section = readme[readme.index("Ten lines, run as they stand"):]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    shown = re.search(r"```text\n(.*?)```", section, re.S).group(1)
    assert len(code.splitlines()) == 10
    (tmp_path / "example.py").write_text(code)
    r = subprocess.run([sys.executable, "example.py"], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout == shown
