// A click on a figure shows it at the size of the window; a click anywhere (or Escape) closes it.
document.addEventListener("DOMContentLoaded", () => {
  const close = () => document.querySelectorAll(".companion-enlarged").forEach(e => e.remove());
  document.addEventListener("keydown", event => { if (event.key === "Escape") close(); });
  for (const img of document.querySelectorAll("img.enlargeable")) {
    img.addEventListener("click", () => {
      const overlay = document.createElement("div");
      overlay.className = "companion-enlarged";
      overlay.setAttribute("role", "dialog");
      overlay.setAttribute("aria-label", img.alt);
      const big = document.createElement("img");
      big.src = img.currentSrc || img.src;
      big.alt = img.alt;
      overlay.appendChild(big);
      overlay.addEventListener("click", close);
      document.body.appendChild(overlay);
    });
  }
});
