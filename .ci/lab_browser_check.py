"""Open a notebook in real JupyterLab (headless Chromium): it must stay saved; save it: same bytes.

Not run by CI (it starts JupyterLab and a kernel, a minute); ``tests/test_lab.py`` automates what
can be automated without a browser. Run it after changing ``make lab`` or
``companion/_notebook_metadata.py``::

    apt-get install -y chromium                      # Debian's Chromium, /usr/bin/chromium
    .venv/bin/python .ci/lab_browser_check.py notebooks/02_prism_contact_lenses.ipynb

(Playwright comes with ``.venv`` from requirements.lock; it drives the machine's Chromium and
downloads no browser.) It copies the notebook to a scratch folder, starts ``.venv/bin/jupyter lab``
there with the options ``make lab`` gives it (read from ``make -n lab``; on loopback, port 8899),
opens the notebook in a fresh workspace, waits for the kernel to be idle, checks that the
notebook's tab is not marked unsaved, presses Ctrl+S, and compares the saved file with the
original. With ``--plain`` it starts JupyterLab without ``make lab``'s options: the notebook is
then marked unsaved at once and the saved file differs (the kernel's Python version is added),
which shows that both checks can fail.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("COMPANION_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def make_lab_options() -> list[str]:
    """The ``--Class.trait=value`` options of ``make lab``'s command."""
    out = subprocess.run(["make", "-n", "lab"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return re.findall(r"--[A-Za-z]+\.[A-Za-z_]+=\S+", out.replace("\\\n", " "))


def open_and_save(folder: Path, name: str, port: int) -> bool:
    """Open ``name`` in JupyterLab, wait for its kernel, save it; whether it was unsaved before saving."""
    from playwright.sync_api import sync_playwright

    url = f"http://127.0.0.1:{port}/lab/workspaces/check{uuid.uuid4().hex[:8]}/tree/{name}?reset&token=check"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS)
        page = browser.new_page()
        page.goto(url, timeout=120_000)
        notebook = page.locator(".jp-Notebook:visible").first
        notebook.wait_for(timeout=120_000)
        page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']:visible").first.wait_for(timeout=120_000)
        time.sleep(10)  # let the kernel's info reach the notebook's metadata
        tab = page.locator(f"li.lm-TabBar-tab[title*='{name}']").first
        dirty = "jp-mod-dirty" in (tab.get_attribute("class") or "")
        notebook.click()
        page.keyboard.press("Control+s")
        time.sleep(5)
        browser.close()
    return dirty


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebook", type=Path)
    parser.add_argument("--plain", action="store_true", help="start JupyterLab without make lab's options")
    parser.add_argument("--port", type=int, default=8899)
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="lab-check-"))
    original = args.notebook.read_bytes()
    shutil.copy(args.notebook, folder / args.notebook.name)
    command = [str(ROOT / ".venv/bin/jupyter"), "lab", "--allow-root", "--no-browser", f"--port={args.port}",
               "--ip=127.0.0.1", "--IdentityProvider.token=check", "--ServerApp.port_retries=0"]
    if not args.plain:
        command += make_lab_options()
    server = subprocess.Popen([*command, str(folder)], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(15)
        before = (folder / args.notebook.name).stat().st_mtime_ns
        dirty = open_and_save(folder, args.notebook.name, args.port)
        saved = folder / args.notebook.name
        assert saved.stat().st_mtime_ns != before, "JupyterLab did not save the notebook"
        same = saved.read_bytes() == original
    finally:
        server.kill()
        server.wait()
        shutil.rmtree(folder, ignore_errors=True)
    how = "without" if args.plain else "with"
    print(f"{args.notebook.name} in JupyterLab {how} make lab's options: "
          f"{'marked unsaved on open' if dirty else 'still saved after opening'}; "
          f"saved bytes {'unchanged' if same else 'CHANGED'}")
    return 0 if same and not dirty else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
