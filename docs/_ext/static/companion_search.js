/* Search on the companion's site (docs/_ext/companion_site.py adds this file to every page).
 *
 * Snippets: Sphinx cuts each result's snippet from the page's [role="main"], which in the book
 * theme begins with the article header (the colour-mode menu: "System Settings Light Dark") and
 * the "On this page" list (and its printed copy), and keeps every formula as its TeX source. Header and list are
 * dropped and a formula shows as "(formula)".
 *
 * Opened from disk (file://), the browser refuses the requests for the pages the snippets are cut
 * from (one console error per result): the results are listed without snippets, and the page says
 * how to serve the site to have them.
 */
(() => {
  const patch = () => {
    if (typeof Search === "undefined" || !Search.htmlToText || Search.companionPatched) return;
    Search.companionPatched = true;
    const htmlToText = Search.htmlToText;
    Search.htmlToText = (htmlString, anchor) => {
      const page = new DOMParser().parseFromString(htmlString, "text/html");
      page.querySelectorAll(".bd-header-article, .bd-sidebar-secondary, .onlyprint, .prev-next-area, .bd-footer-article")
        .forEach((element) => element.remove());
      page.querySelectorAll(".math, mjx-container").forEach((element) => {
        element.replaceWith(page.createTextNode(" (formula) "));
      });
      return htmlToText(page.documentElement.outerHTML, anchor);
    };
    if (window.location.protocol === "file:" && typeof DOCUMENTATION_OPTIONS !== "undefined") {
      DOCUMENTATION_OPTIONS.SHOW_SEARCH_SUMMARY = false;
      const note = document.createElement("p");
      note.className = "companion-search-note";
      note.textContent = "Opened from disk, search lists the pages without snippets. To see them, serve "
        + "the site: python -m http.server -d build/site, then open http://127.0.0.1:8000/search.html";
      const form = document.querySelector("#search-results") || document.querySelector("form.bd-search");
      if (form && form.parentElement) form.parentElement.insertBefore(note, form);
    }
  };
  patch();
  document.addEventListener("DOMContentLoaded", patch);
})();
