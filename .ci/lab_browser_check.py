"""Open a notebook in real JupyterLab (headless Chromium), save it, and check its bytes are unchanged.

Not run by CI (it needs a browser); ``tests/test_lab.py`` automates what can be automated. Run it
by hand after changing ``make lab`` or ``companion/_notebook_metadata.py``::

    apt-get install -y chromium                      # Debian's Chromium, /usr/bin/chromium
    python3 -m venv /tmp/pw && /tmp/pw/bin/pip install playwright   # driver only; no browser download
    /tmp/pw/bin/python .ci/lab_browser_check.py notebooks/02_prism_contact_lenses.ipynb

It copies the notebook to a scratch folder, starts ``.venv/bin/jupyter lab`` there with the
options ``make lab`` uses (on loopback, port 8899), opens the notebook in a fresh workspace, waits
for the kernel to be idle, presses Ctrl+S, and compares the saved file with the original. With
``--without-hook`` it starts JupyterLab without the pre-save hook: the saved file then differs
(the kernel's Python version is added), which shows that the check can fail.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HOOK = "--ContentsManager.pre_save_hook=companion._notebook_metadata.pre_save_hook"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def save_in_lab(folder: Path, name: str, port: int) -> None:
    from playwright.sync_api import sync_playwright

    url = f"http://127.0.0.1:{port}/lab/workspaces/check{uuid.uuid4().hex[:8]}/tree/{name}?reset&token=check"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=CHROMIUM_FLAGS)
        page = browser.new_page()
        page.goto(url, timeout=120_000)
        notebook = page.locator(".jp-Notebook:visible").first
        notebook.wait_for(timeout=120_000)
        page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']:visible").first.wait_for(timeout=120_000)
        time.sleep(10)  # let the kernel's info reach the notebook's metadata
        notebook.click()
        page.keyboard.press("Control+s")
        time.sleep(5)
        browser.close()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebook", type=Path)
    parser.add_argument("--without-hook", action="store_true", help="start JupyterLab without make lab's hook")
    parser.add_argument("--port", type=int, default=8899)
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="lab-check-"))
    original = args.notebook.read_bytes()
    shutil.copy(args.notebook, folder / args.notebook.name)
    command = [str(ROOT / ".venv/bin/jupyter"), "lab", "--allow-root", "--no-browser", f"--port={args.port}",
               "--ip=127.0.0.1", "--IdentityProvider.token=check", "--ServerApp.port_retries=0"]
    if not args.without_hook:
        command.append(HOOK)
    server = subprocess.Popen([*command, str(folder)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(15)
        before = (folder / args.notebook.name).stat().st_mtime_ns
        save_in_lab(folder, args.notebook.name, args.port)
        saved = folder / args.notebook.name
        assert saved.stat().st_mtime_ns != before, "JupyterLab did not save the notebook"
        same = saved.read_bytes() == original
    finally:
        server.kill()
        server.wait()
    print(f"{args.notebook.name}: saved in JupyterLab {'without' if args.without_hook else 'with'} the hook; "
          f"bytes {'unchanged' if same else 'CHANGED'}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
