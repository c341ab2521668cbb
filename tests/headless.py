"""Pages in a headless Chromium, for the tests that look at what latticecast draws: the browser
where one is installed, a page's measurements (a probe script's JSON), and a screenshot's size."""

from __future__ import annotations

import json
import re
import shutil
import struct
import subprocess
from pathlib import Path
from typing import Any


def browser() -> str | None:
    """A headless Chromium, where one is installed."""
    return next((found for name in ("chromium", "chromium-browser", "google-chrome")
                 if (found := shutil.which(name))), None)


def _command(width: int, height: int) -> list[str]:
    return [browser() or "", "--headless", "--no-sandbox", "--disable-gpu", f"--window-size={width},{height}"]


def probe(page: Path, script: str, width: int, height: int) -> Any:
    """What ``script`` (a ``<script>`` that writes JSON into ``<pre id="probe">``) measures in ``page``."""
    probed = page.with_name(page.stem + "-probed.html")
    probed.write_text(page.read_text().replace("</body>", script + "</body>"))
    dom = subprocess.run([*_command(width, height), "--dump-dom", probed.as_uri()], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom)
    assert found, dom[-2000:]
    return json.loads(found.group(1).replace("&quot;", '"'))


def screenshot(page: Path, shot: Path, width: int, height: int) -> bytes:
    """``page`` as a PNG of ``width`` x ``height`` (checked), in ``shot``; its bytes."""
    subprocess.run([*_command(width, height), f"--screenshot={shot}", page.as_uri()], capture_output=True,
                   timeout=120, check=True)
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", data[16:24]) == (width, height)
    return data
