"""Build the companion's site and read every page of it in a real browser (Chromium, Playwright).

``tests/test_site.py`` uses it; by hand, after ``make site``::

    .venv/bin/python -m tests._site build/site          # every problem, one line each; exit 1 if any
    .venv/bin/python -m tests._site build/site notebooks/01_decision_list_machine.html   # one page

:func:`build_site` runs the command ``make site`` runs (Sphinx with ``docs/conf.py``) into a given
folder. :func:`check_site` serves a built site on a loopback port, opens every page in headless
Chromium (the machine's: Debian's ``chromium``, found by :func:`find_chromium`; Playwright drives
it and downloads no browser), lets MathJax typeset, and reports, page by page:

* ``console``: an error written to the browser console, or an uncaught script error;
* ``network``: a request that failed, answered 400 or more or was still loading at the timeout
  (charged to the page that sent it; the abort of a request cut by opening the next page is
  not one), and any request that leaves the machine (a CDN): it is refused, the site must work
  offline;
* ``image``: an ``<img>`` that did not load (missing file, undecodable data);
* ``link`` / ``anchor``: a link inside the site to a file that does not exist, or to a ``#id``
  that the target page does not hold;
* ``math``: a formula MathJax could not typeset (``mjx-merror``), a math element left without
  typeset output, or TeX left in the text: a ``$`` (or ``\\(``, ``\\[``) outside code, which is
  what a formula MyST did not recognise looks like;
* ``id``: the same ``id`` twice on one page;
* ``notebook``: a numbered notebook of the source tree without its page, or not in the
  navigation of the landing page; a notebook page without its provenance line (command, seed,
  companion version);
* ``glance``: in the README's glance block, a number that is not a link (a notebook's key,
  ``01``, aside);
* ``search``: the search page finds nothing for a word every notebook uses, or a snippet of a
  result shows the theme's colour menu ("System Settings Light Dark") or a formula's TeX;
* ``width``: at 1280 x 800 or at 390 x 844 (:data:`VIEWPORTS`), a page wider than the screen (it
  scrolls sideways; the widest elements that are not inside a box of their own are named);
* ``menu``: at either size, a menu that cannot be opened: the site navigation or "On this page"
  whose links are all hidden while its toggle is hidden too, or a toggle whose click changes
  nothing (pydata-sphinx-theme #2451: the visible toggle never got its listener);
* ``verdict``: a verdict's first layer (``span.verdict-headline``, written by
  :func:`companion.claims._report.headline`) longer than
  :data:`~companion.claims._report.HEADLINE_WORDS` words, or without its statistics folded
  beneath it (a ``details`` element in the same list item);
* ``length``: a numbered notebook's page whose story — the words open on it at 1280 x 800 —
  exceeds :data:`STORY_WORDS`;
* ``first-screen``: at 1280 x 800, a notebook page whose verdict box (the first output under
  "Verdicts at a glance") does not begin, with room for a line of it, on the first screen, and a
  landing page whose glance block lists central claims that run below the first screen.
"""

from __future__ import annotations

import functools
import http.server
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urldefrag, urlsplit

from companion.claims._report import HEADLINE_WORDS, headline_words

ROOT = Path(__file__).resolve().parents[1]
NUMBERED = re.compile(r"^\d\d_.*\.ipynb$")

#: Chromium's options for a headless run as root in a container, without any background traffic.
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage"]

#: The screens every page is read at: a laptop's (the first, where the main checks run) and a phone's.
VIEWPORTS = ((1280, 800), (390, 844))

#: How long a menu may take to open or close (the sidebar slides; the 2 MB API page on a loaded
#: machine took over 2 s): the click counts as doing nothing after that.
MENU_MS = 10_000

#: The budget of a notebook page's story: the words open on the page at 1280 x 800 (the box,
#: the claims, our numbers beside the paper's, the verdicts' first layers); code, detail sections
#: (tagged ``detail`` or ``detail-text`` in the notebook), statistics and discussions' elaborations
#: are folded and not counted. 4,000 words are ten minutes at a skimming pace of 400 words a minute
#: (issue 56: "a notebook reads in ten minutes").
STORY_WORDS = 4000
#: A numbered notebook's page.
NOTEBOOK_PAGE = re.compile(r"^notebooks/\d\d_[^/]*\.html$")

#: Room a box needs on the first screen to count as seen there: one line of text.
LINE_PX = 24
#: Alt text that is only a file's name or path (what myst-nb writes when it has nothing better).
FILE_NAME = re.compile(r"(^|/)[^\s/]+\.(png|jpe?g|svg|gif)$|^[0-9a-f]{64}", re.I)

#: The provenance line of a notebook page (docs/_ext/companion_site.py writes it).
PROVENANCE = re.compile(
    r"Executed by python -m companion\.reproduce[^,]*, (seed -?\d+|no seed \(nothing in it is random\)), "
    r"companion version \d+\.\d+\.\d+"
)


def find_chromium() -> str | None:
    """The machine's Chromium: ``$COMPANION_CHROMIUM``, else ``chromium`` on the PATH, else None."""
    candidate = os.environ.get("COMPANION_CHROMIUM") or shutil.which("chromium")
    if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
        return candidate
    return None


def site_command(source: Path, out: Path) -> list[str]:
    """The Sphinx command of ``make site``: ``docs/conf.py`` over ``source``, HTML into ``out``."""
    return [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-E", "-c", str(ROOT / "docs"),
            str(source), str(out)]


def build_site(out: Path, source: Path = ROOT, wrap=None) -> tuple[float, list[str]]:
    """Build the site of ``source`` into ``out``; its processor time and its warnings (one per line).

    ``wrap``, when given, maps the command to the one run (``unshare -rn ...``: no network). The
    time is the build's processor time (user + system), which on an idle machine is its wall time
    (Sphinx reads and writes in one process) and which other work on a shared machine does not
    inflate.

    Raises
    ------
    RuntimeError
        When Sphinx exits with an error.
    """
    import resource

    command = site_command(source, out)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    completed = subprocess.run(wrap(command) if wrap else command, capture_output=True, text=True, cwd=source)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if completed.returncode != 0:
        raise RuntimeError(f"sphinx-build failed ({completed.returncode}):\n{completed.stderr[-4000:]}")
    warnings = [line for line in completed.stderr.splitlines() if "WARNING" in line or "ERROR" in line]
    return seconds, warnings


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with one page."""

    page: str
    kind: str
    detail: str

    def __str__(self) -> str:
        return f"{self.page}: {self.kind}: {self.detail}"


@dataclass
class Report:
    """What :func:`check_site` found."""

    pages: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    links: int = 0
    anchors: int = 0
    images: int = 0
    #: images in notebook outputs (each needs a caption and alt text)
    figures: int = 0
    #: notebook page -> whether a click on its first figure enlarged it and Escape closed it
    enlarged: dict = field(default_factory=dict)
    formulas: int = 0
    #: verdicts' first layers found (each within the word budget, its statistics folded beneath)
    headlines: int = 0
    glance_links: int = 0
    #: notebook page -> top of its verdict box at 1280 x 800, in px from the top of the page
    verdict_tops: dict = field(default_factory=dict)
    #: notebook page -> the words open on it at 1280 x 800 (its story; :data:`STORY_WORDS`)
    story_words: dict = field(default_factory=dict)
    #: landing page's glance block: bottom of its last central claim at 1280 x 800, in px
    glance_bottom: float | None = None
    #: (page, viewport width) -> the page's width in px there
    widths: dict = field(default_factory=dict)
    #: (page, viewport width, "primary" | "secondary") -> links shown (closed, open) by its toggle
    menus: dict = field(default_factory=dict)
    seconds: float = 0.0

    def kinds(self) -> set[tuple[str, str]]:
        """The ``(page, kind)`` pairs of the problems."""
        return {(p.page, p.kind) for p in self.problems}

    def summary(self) -> str:
        lines = [f"{len(self.pages)} pages, {self.links} internal links ({self.anchors} to an anchor), "
                 f"{self.images} images ({self.figures} figures), {self.formulas} formulas, {self.glance_links} glance links, "
                 f"{len(self.problems)} problems, {self.seconds:.1f} s",
                 "verdict box tops at 1280 x 800: " + ", ".join(
                     f"{page} {top:.0f} px" for page, top in sorted(self.verdict_tops.items())),
                 f"last central claim of the glance at 1280 x 800: {self.glance_bottom} px",
                 "story words per notebook page: " + ", ".join(
                     f"{page} {words}" for page, words in sorted(self.story_words.items())),
                 "widest page per screen: " + ", ".join(
                     f"{w}: {max((v for (_, ww), v in self.widths.items() if ww == w), default=0)} px"
                     for w, _ in VIEWPORTS)]
        return "\n".join(lines + [str(p) for p in sorted(self.problems)])


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class _Ids(HTMLParser):
    """The ids (and ``<a name>``) of an HTML file, for link targets the browser did not open."""

    def __init__(self):
        super().__init__()
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if value and (name == "id" or (tag == "a" and name == "name")):
                self.ids.add(value)


#: Run in the page once it has loaded and MathJax has typeset: what the checks read.
_READ_PAGE = r"""
async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
    await MathJax.startup.promise;
  }
  await document.fonts.ready;  // the fonts the typeset formulas asked for
  const ids = [...document.querySelectorAll('[id]')].map(e => e.id)
    .concat([...document.querySelectorAll('a[name]')].map(e => e.getAttribute('name')));
  const links = [...document.querySelectorAll('a[href]')].map(a => a.href);
  const images = [...document.querySelectorAll('img')].map(i => {
    const figure = i.closest('figure');
    const caption = figure && figure.querySelector('figcaption');
    return {src: i.currentSrc || i.src, ok: i.complete && i.naturalWidth > 0, alt: i.getAttribute('alt') || '',
            output: !!i.closest('.cell_output'), caption: caption ? caption.textContent.trim() : '',
            enlargeable: i.classList.contains('enlargeable')};
  });
  const empty = [...(document.querySelector('article') || document.body).querySelectorAll('td, th')]
    .map(c => c.textContent.trim()).filter(t => /^(NaN|nan|None|<NA>|NaT)$/.test(t));
  const maths = [...document.querySelectorAll('.math')];
  const untypeset = maths.filter(m => !m.querySelector('mjx-container') && !m.closest('mjx-container'))
    .map(m => m.textContent.trim().slice(0, 80));
  const merrors = [...document.querySelectorAll('mjx-merror')].map(e => {
    const math = e.closest('mjx-container');
    return (e.getAttribute('data-mjx-error') || e.textContent || '').slice(0, 80)
      + (math && math.parentElement ? ' in ' + math.parentElement.textContent.slice(0, 60) : '');
  });
  const main = document.querySelector('article') || document.body;
  const skip = 'code, pre, script, style, kbd, samp, mjx-container, .highlight, .math, textarea';
  const raw = [];
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const t = n.nodeValue;
    if (/\$|\\\(|\\\[/.test(t) && !(n.parentElement && n.parentElement.closest(skip))) {
      raw.push(t.trim().slice(0, 100));
    }
  }
  // the README's glance block: between the comments <!-- claims:glance --> and <!-- /claims:glance -->
  const glance = {found: false, links: [], unlinked: []};
  const comments = document.createTreeWalker(document.body, NodeFilter.SHOW_COMMENT);
  let start = null, end = null;
  for (let c = comments.nextNode(); c; c = comments.nextNode()) {
    const v = c.nodeValue.trim();
    if (v === 'claims:glance') start = c;
    if (v === '/claims:glance') end = c;
  }
  if (start && end) {
    glance.found = true;
    const range = document.createRange();
    range.setStartAfter(start); range.setEndBefore(end);
    const inside = n => range.intersectsNode(n);
    for (const a of document.querySelectorAll('a[href]')) if (inside(a)) glance.links.push(a.href);
    const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = texts.nextNode(); n; n = texts.nextNode()) {
      if (!inside(n) || !/\d/.test(n.nodeValue)) continue;
      if (n.parentElement.closest('a[href]')) continue;
      if (/^\s*\d\d\s*$/.test(n.nodeValue)) continue;  // a notebook's key ("01"), not a result
      glance.unlinked.push(n.nodeValue.trim().slice(0, 80));
    }
  }
  const nav = [...document.querySelectorAll('nav a[href], .bd-sidebar a[href]')].map(a => a.href);
  const provenance = [...document.querySelectorAll('div.provenance')].map(d => d.textContent.replace(/\s+/g, ' ').trim());
  // the first layer of every verdict, as rendered, and whether its statistics are folded beneath it
  const headlines = [...document.querySelectorAll('span.verdict-headline')].map(h => ({
    text: h.textContent.replace(/\s+/g, ' ').trim(),
    folded: !!(h.closest('li') && h.closest('li').querySelector('details > summary'))}));
  return {ids, links, images, empty, formulas: maths.length, untypeset, merrors, raw, glance, nav, provenance,
          headlines};
}
"""


#: Run in a page at each of :data:`VIEWPORTS`, scrolled to its top: its width, what makes it wider
#: than the screen, the first screen's verdict box and central claims.
_READ_LAYOUT = r"""
async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
    await MathJax.startup.promise;
  }
  await document.fonts.ready;
  window.scrollTo(0, 0);
  const root = document.documentElement;
  const boxed = e => {  // inside an element that scrolls or clips sideways: its own box
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== 'visible') return true;
    }
    return false;
  };
  const wide = [];
  if (root.scrollWidth > root.clientWidth) {
    for (const e of document.querySelectorAll('body *')) {
      const r = e.getBoundingClientRect();
      if (e.closest('.bd-sidebar-primary, .bd-sidebar-secondary, dialog')) continue;  // off-screen drawers
      if (r.right > root.clientWidth + 1 && r.width > 0 && !boxed(e)
          && !(e.parentElement && e.parentElement.getBoundingClientRect().right > root.clientWidth + 1)) {
        wide.push(`<${e.tagName.toLowerCase()} class="${e.className}"> to ${Math.round(r.right)} px: `
                  + (e.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 60));
      }
      if (wide.length >= 3) break;
    }
  }
  // the verdict box: the first output under the heading "Verdicts at a glance"
  let box = null;
  const section = document.getElementById('verdicts-at-a-glance');
  if (section) {
    const output = section.querySelector('.cell_output');
    box = output ? output.getBoundingClientRect().top + window.scrollY : -1;
  }
  // the central claims of the landing page's glance block: its list items
  let glance = null;
  const comments = document.createTreeWalker(document.body, NodeFilter.SHOW_COMMENT);
  let start = null, end = null;
  for (let c = comments.nextNode(); c; c = comments.nextNode()) {
    if (c.nodeValue.trim() === 'claims:glance') start = c;
    if (c.nodeValue.trim() === '/claims:glance') end = c;
  }
  if (start && end) {
    const range = document.createRange();
    range.setStartAfter(start); range.setEndBefore(end);
    const items = [...document.querySelectorAll('li')].filter(li => range.intersectsNode(li));
    if (items.length) glance = Math.max(...items.map(li => li.getBoundingClientRect().bottom + window.scrollY));
  }
  // the story: the words a reader sees open on the page (folded code, outputs and text not counted)
  const article = document.querySelector('article');
  const story = article ? article.innerText.split(/\s+/).filter(w => /[A-Za-z0-9]/.test(w)).length : null;
  return {width: root.scrollWidth, screen: root.clientWidth, height: window.innerHeight, wide, box, glance, story};
}
"""

#: The links a menu shows: its sidebar's and its dialog's (phones), counted where they are visible.
_MENU_LINKS = r"""
(kind) => {
  const shown = e => {
    const r = e.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0 || r.right <= 0 || r.left >= window.innerWidth) return false;
    for (let a = e; a; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.display === 'none' || s.visibility === 'hidden' || s.opacity === '0') return false;
    }
    return true;
  };
  const places = [`#pst-${kind}-sidebar`, `#pst-${kind}-sidebar-modal`].map(s => document.querySelector(s)).filter(Boolean);
  const links = places.flatMap(p => [...p.querySelectorAll('a[href]')]);
  const toggle = [...document.querySelectorAll(`.${kind}-toggle`)].find(shown) || null;
  return {links: links.length, shown: links.filter(shown).length, toggle: !!toggle,
          dialog: !!document.querySelector(`#pst-${kind}-sidebar-modal[open]`)};
}
"""


def _check_menus(page, name: str, width: int, report: "Report", problems: set) -> None:
    """Open the site navigation and "On this page" with their visible toggles, at this width."""
    for kind in ("primary", "secondary"):
        before = page.evaluate(_MENU_LINKS, kind)
        if before["links"] == 0:
            continue  # the page has no such menu
        if not before["toggle"]:
            if before["shown"] == 0:
                problems.add(Problem(name, "menu", f"at {width} px the {kind} menu is hidden and has no toggle"))
            continue
        page.locator(f".{kind}-toggle:visible").first.click()
        try:
            page.wait_for_function(f"""() => ({_MENU_LINKS})("{kind}").shown !== {before["shown"]}""",
                                   timeout=MENU_MS)
        except Exception:  # noqa: BLE001 (Playwright's timeout: the click changed nothing)
            pass
        after = page.evaluate(_MENU_LINKS, kind)
        report.menus[(name, width, kind)] = (before["shown"], after["shown"])
        if after["shown"] == before["shown"] or max(before["shown"], after["shown"]) == 0:
            problems.add(Problem(name, "menu", f"at {width} px the {kind} toggle does not open its menu "
                                               f"({before['shown']} links shown before the click, {after['shown']} after)"))
            continue
        # back as it was: a dialog is closed, a sidebar the click hid is shown again (and must be)
        if after["dialog"]:
            page.keyboard.press("Escape")
        else:
            page.locator(f".{kind}-toggle:visible").first.click()
        try:
            page.wait_for_function(f"""() => ({_MENU_LINKS})("{kind}").shown === {before["shown"]}""",
                                   timeout=MENU_MS)
        except Exception:  # noqa: BLE001
            problems.add(Problem(name, "menu", f"at {width} px the {kind} menu does not come back as it was "
                                               "after a second click or Escape"))


def _check_layout(page, name: str, width: int, report: "Report", problems: set) -> None:
    """The page's width at this screen, and at the first one its verdict box and central claims."""
    layout = page.evaluate(_READ_LAYOUT)
    report.widths[(name, width)] = layout["width"]
    if layout["width"] > layout["screen"]:
        problems.add(Problem(name, "width", f"at {width} px the page is {layout['width']} px wide: "
                                            + "; ".join(layout["wide"])))
    if (width, layout["height"]) != VIEWPORTS[0]:
        return
    if NOTEBOOK_PAGE.match(name) and layout["story"] is not None:
        report.story_words[name] = layout["story"]
        if layout["story"] > STORY_WORDS:
            problems.add(Problem(name, "length", f"the story (what is open on the page) is {layout['story']} words, "
                                                 f"over its budget of {STORY_WORDS}"))
    if layout["box"] is not None:
        if layout["box"] < 0:
            problems.add(Problem(name, "first-screen", "the section Verdicts at a glance has no output (no box)"))
        else:
            report.verdict_tops[name] = layout["box"]
            if layout["box"] + LINE_PX > layout["height"]:
                problems.add(Problem(name, "first-screen", f"the verdict box begins {layout['box']:.0f} px down, "
                                                           f"below the first screen ({layout['height']} px)"))
    if layout["glance"] is not None:
        report.glance_bottom = round(layout["glance"])
        if layout["glance"] > layout["height"]:
            problems.add(Problem(name, "first-screen", f"the central claims of the glance run to {layout['glance']:.0f} px, "
                                                       f"below the first screen ({layout['height']} px)"))


def _serve(folder: Path):
    handler = functools.partial(_Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server


def _pages(site: Path) -> list[str]:
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html")
                  if not p.relative_to(site).parts[0].startswith("_"))


def check_site(site: Path, *, source: Path = ROOT, chromium: str | None = None,
               search_word: str = "claims", timeout_ms: int = 60_000, only: list[str] | None = None) -> Report:
    """Open every page of the built site ``site`` in headless Chromium and report what is wrong.

    Parameters
    ----------
    site : pathlib.Path
        A built site (``make site``'s ``build/site``).
    source : pathlib.Path, default=the checkout
        The tree it was built from: its ``notebooks/NN_*.ipynb`` must all have a page.
    chromium : str, optional
        The browser's executable (default :func:`find_chromium`).
    search_word : str, default="claims"
        A word the search page must find.
    timeout_ms : int, default=60000
        Per page.
    only : list of str, optional
        Open these pages only (paths in the site, ``notebooks/01_x.html``); the links they hold
        are still checked against every page, the notebooks' pages only where opened.

    Returns
    -------
    Report
    """
    from playwright.sync_api import sync_playwright

    site = Path(site).resolve()
    chromium = chromium or find_chromium()
    if chromium is None:
        raise FileNotFoundError("no Chromium: apt-get install chromium, or set COMPANION_CHROMIUM")
    report = Report(pages=[p for p in _pages(site) if only is None or p in only])
    start = time.perf_counter()
    server = _serve(site)
    host, port = server.server_address[:2]
    base = f"http://{host}:{port}/"
    seen: dict[str, dict] = {}
    problems: set[Problem] = set()

    def local_path(url: str) -> str | None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or parts.netloc != f"{host}:{port}":
            return None
        return unquote(parts.path).lstrip("/") or "index.html"

    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_FLAGS)
            # One tab for every page (a browser process per page would double the time), each page
            # opened as on a first visit: the storage is emptied before any of its scripts runs.
            context = browser.new_context(viewport=dict(zip(("width", "height"), VIEWPORTS[0])))
            context.add_init_script("try { localStorage.clear(); sessionStorage.clear(); } catch (e) {}")
            # A request belongs to the page that was open when it left (not to the one open when it
            # fails), and a page is finished before the next one opens: its requests are awaited up
            # to the timeout, and one still loading then is a problem of that page. A request the
            # checker cut by opening the next page (net::ERR_ABORTED) is no defect of the site.
            current = {"page": None}
            pending: dict = {}

            def note(page_name, kind, detail):
                problems.add(Problem(page_name, kind, detail))

            def route(route, request):
                if local_path(request.url) is None and not request.url.startswith(("data:", "blob:")):
                    note(current["page"], "network", f"request leaving the machine refused: {request.url}")
                    return route.abort()
                return route.continue_()

            def request_failed(request):
                issued_by = pending.pop(request, current["page"])
                if local_path(request.url) is None:
                    return
                if issued_by != current["page"] and request.failure == "net::ERR_ABORTED":
                    return
                note(issued_by, "network", f"{request.url} failed: {request.failure}")

            def response(answer):
                if answer.status >= 400:
                    note(pending.get(answer.request, current["page"]), "network",
                         f"{answer.url} answered {answer.status}")

            def finish(name):
                deadline = time.monotonic() + timeout_ms / 1000
                while name in pending.values() and time.monotonic() < deadline:
                    page.wait_for_timeout(20)
                for request, issued_by in list(pending.items()):
                    if issued_by == name:
                        note(name, "network", f"{request.url} still loading after {timeout_ms / 1000:g} s")

            context.route("**/*", route)
            page = context.new_page()
            page.on("console", lambda m: note(current["page"], "console", m.text[:200]) if m.type == "error" else None)
            page.on("pageerror", lambda e: note(current["page"], "console", f"uncaught: {str(e)[:200]}"))
            page.on("request", lambda r: pending.__setitem__(r, current["page"]) if local_path(r.url) is not None else None)
            page.on("requestfinished", lambda r: pending.pop(r, None))
            page.on("requestfailed", request_failed)
            page.on("response", response)
            for name in report.pages:
                current["page"] = name
                page.goto(base + name, wait_until="load", timeout=timeout_ms)
                if name == "index.html":  # sends the browser to the landing page, read on its own
                    try:
                        page.wait_for_url(lambda url: not url.endswith("/index.html"), timeout=10_000)
                        page.wait_for_load_state("load", timeout=timeout_ms)
                    except Exception:  # noqa: BLE001 (Playwright's timeout: it stayed)
                        pass
                    landed = local_path(page.url)
                    if landed is None or landed == "index.html" or not (site / landed).is_file():
                        problems.add(Problem(name, "link", f"does not lead to the landing page ({page.url})"))
                    data = {"ids": [], "links": [page.url], "images": [], "empty": [], "formulas": 0, "untypeset": [],
                            "merrors": [], "raw": [], "glance": {"found": False}, "nav": [], "provenance": [], "headlines": []}
                else:
                    data = page.evaluate(_READ_PAGE)
                    # a click enlarges the first figure open on the page (one in a folded section is hidden)
                    if page.locator("img.enlargeable:visible").count():
                        page.locator("img.enlargeable:visible").first.click()
                        enlarged = page.locator(".companion-enlarged img").count()
                        page.keyboard.press("Escape")
                        report.enlarged[name] = enlarged == 1 and page.locator(".companion-enlarged").count() == 0
                        if not report.enlarged[name]:
                            problems.add(Problem(name, "figure", "a click does not enlarge the figure, or Escape leaves it"))
                    _check_layout(page, name, VIEWPORTS[0][0], report, problems)
                    _check_menus(page, name, VIEWPORTS[0][0], report, problems)
                finish(name)
                seen[name] = data
                counts = {}
                for i in data["ids"]:
                    counts[i] = counts.get(i, 0) + 1
                for i, n in counts.items():
                    if n > 1:
                        problems.add(Problem(name, "id", f"id {i!r} appears {n} times"))
                for image in data["images"]:
                    report.images += 1
                    if not image["ok"]:
                        problems.add(Problem(name, "image", f"does not load: {image['src'][:120]}"))
                    if image["output"]:  # a notebook's figure: a caption, and alt text that is not a file name
                        report.figures += 1
                        if not image["caption"]:
                            problems.add(Problem(name, "figure", f"no caption: {image['src'][-60:]}"))
                        if not image["alt"] or FILE_NAME.search(image["alt"]):
                            problems.add(Problem(name, "figure", f"no alt text but {image['alt'][:60]!r}"))
                for headline in data["headlines"]:  # the short verdict: within its budget, statistics folded
                    report.headlines += 1
                    words = headline_words(headline["text"])
                    if words > HEADLINE_WORDS:
                        problems.add(Problem(name, "verdict", f"a verdict's first layer has {words} words "
                                             f"(budget {HEADLINE_WORDS}): {headline['text'][:80]!r}"))
                    if not headline["folded"]:
                        problems.add(Problem(name, "verdict", f"no folded statistics under {headline['text'][:60]!r}"))
                if data["empty"]:
                    problems.add(Problem(name, "table", f"{len(data['empty'])} table cells show "
                                         + ", ".join(sorted(set(data["empty"])))))
                report.formulas += data["formulas"]
                for text in data["untypeset"]:
                    problems.add(Problem(name, "math", f"not typeset: {text}"))
                for text in data["merrors"]:
                    problems.add(Problem(name, "math", f"TeX error: {text}"))
                for text in data["raw"]:
                    problems.add(Problem(name, "math", f"TeX left in the text: {text!r}"))
            # the other screens: the width of every page and its menus (the phone's are dialogs)
            for width, height in VIEWPORTS[1:]:
                page.set_viewport_size({"width": width, "height": height})
                for name in report.pages:
                    if name == "index.html":
                        continue
                    current["page"] = name
                    page.goto(base + name, wait_until="load", timeout=timeout_ms)
                    _check_layout(page, name, width, report, problems)
                    _check_menus(page, name, width, report, problems)
                    finish(name)
                page.set_viewport_size(dict(zip(("width", "height"), VIEWPORTS[0])))
            # the search page finds what the pages say
            current["page"] = "search.html"
            page.goto(base + f"search.html?q={search_word}", wait_until="load", timeout=timeout_ms)
            try:
                page.wait_for_selector("#search-results li, ul.search li", timeout=timeout_ms)
                found = page.locator("ul.search li").count()
            except Exception:  # noqa: BLE001 (Playwright's timeout: nothing found)
                found = 0
            if not found:
                problems.add(Problem("search.html", "search", f"nothing found for {search_word!r}"))
            else:  # the snippets: the page's text, not the theme's menus nor a formula's TeX
                try:
                    page.wait_for_selector("ul.search li p.context", timeout=timeout_ms)
                except Exception:  # noqa: BLE001 (Playwright's timeout: no snippet)
                    problems.add(Problem("search.html", "search", "no result has a snippet"))
                for snippet in page.evaluate(
                        "() => [...document.querySelectorAll('ul.search li p.context')].map(p => p.textContent)"):
                    if re.search(r"System Settings|Light\s+Dark|\\\(|\\\[|\$", snippet):
                        problems.add(Problem("search.html", "search",
                                             f"a snippet shows the theme's menu or TeX: {snippet[:80]!r}"))
            finish("search.html")
            context.close()
            browser.close()
    finally:
        server.shutdown()
        server.server_close()

    # links and anchors, now that every page's ids are known
    static_ids: dict[str, set[str]] = {}

    def ids_of(path: str) -> set[str]:
        if path in seen:
            return set(seen[path]["ids"])
        if path not in static_ids:
            parser = _Ids()
            parser.feed((site / path).read_text(encoding="utf-8", errors="replace"))
            static_ids[path] = parser.ids
        return static_ids[path]

    for name, data in seen.items():
        for url in set(data["links"]):
            target, fragment = urldefrag(url)
            path = local_path(target)
            if path is None:
                continue
            report.links += 1
            if path.endswith("/"):
                path += "index.html"
            if not (site / path).is_file():
                problems.add(Problem(name, "link", f"to a missing file: {path}"))
                continue
            if fragment and path.endswith(".html"):
                report.anchors += 1
                if unquote(fragment) not in ids_of(path):
                    problems.add(Problem(name, "anchor", f"{path}#{fragment} is not on that page"))

    # every notebook has its page, in the landing page's navigation, with its provenance line
    landing = next((n for n in ("README.html",) if n in seen), None)
    navigation = {local_path(urldefrag(u)[0]) for u in seen.get(landing, {}).get("nav", [])}
    for notebook in sorted(p for p in (Path(source) / "notebooks").glob("*.ipynb") if NUMBERED.match(p.name)):
        page = f"notebooks/{notebook.stem}.html"
        if only is not None and page not in only:
            continue
        if page not in seen:
            problems.add(Problem(page, "notebook", f"{notebook.name} has no page"))
            continue
        if page not in navigation and (landing is not None or only is None):
            problems.add(Problem(landing or "README.html", "notebook", f"{page} is not in the navigation"))
        lines = seen[page]["provenance"]
        if len(lines) != 1 or not PROVENANCE.search(lines[0]):
            problems.add(Problem(page, "notebook", f"no provenance line (command, seed, version): {lines}"))

    # the README glance: every number a link (and the links were checked above)
    if landing is not None and seen[landing]["glance"]["found"]:
        glance = seen[landing]["glance"]
        report.glance_links = len(glance["links"])
        for text in glance["unlinked"]:
            problems.add(Problem(landing, "glance", f"a number that is not a link: {text!r}"))
        if not glance["links"]:
            problems.add(Problem(landing, "glance", "no link in the glance block"))
    report.problems = sorted(problems)
    report.seconds = time.perf_counter() - start
    return report


def main(argv: list[str]) -> int:
    site = Path(argv[0]) if argv else ROOT / "build" / "site"
    report = check_site(site, only=argv[1:] or None)
    print(report.summary())
    return 1 if report.problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
