// svc console: the one script of every page (CSP script-src 'self'). Pages work without it; it adds the theme
// switch, sortable tables, local times and live updates. Live parts are elements with data-live: when the tenant's
// activity changes (server-sent events from /ui/live), the page fetches its own URL (or the element's data-live URL)
// and swaps each live part for its new version, keeping any form field the user is typing in (data-keep).
"use strict";
(function () {
  const root = document.documentElement;
  const stored = localStorage.getItem("svc-theme");
  if (stored === "light" || stored === "dark") {
    root.setAttribute("data-theme", stored);
  }

  function localTimes(scope) {
    scope.querySelectorAll("time[datetime]").forEach(t => {
      const d = new Date(t.getAttribute("datetime"));
      if (!isNaN(d)) {
        t.title = t.getAttribute("datetime");
        t.textContent = d.toLocaleString();
      }
    });
  }

  function sortable(scope) {
    scope.querySelectorAll("table.sortable thead th").forEach((th, col) => {
      if (th.querySelector("button.sort")) {
        return;
      }
      const button = document.createElement("button");
      button.type = "button";
      button.className = "sort";
      button.textContent = th.textContent;
      th.textContent = "";
      th.appendChild(button);
      button.addEventListener("click", () => {
        const table = th.closest("table");
        const ascending = th.getAttribute("aria-sort") !== "ascending";
        table.querySelectorAll("thead th").forEach(h => h.removeAttribute("aria-sort"));
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        const body = table.tBodies[0];
        const key = row => {
          const cell = row.cells[col];
          return cell ? (cell.getAttribute("data-sort") || cell.textContent.trim()) : "";
        };
        const rows = Array.from(body.rows).sort((a, b) =>
          key(a).localeCompare(key(b), undefined, {numeric: true}) * (ascending ? 1 : -1));
        rows.forEach(r => body.appendChild(r));
      });
    });
  }

  async function refresh() {
    const parts = Array.from(document.querySelectorAll("[data-live][id]"));
    const urls = new Set(parts.map(p => p.getAttribute("data-live") || location.href));
    for (const url of urls) {
      const answer = await fetch(url, {credentials: "same-origin", redirect: "error"});
      if (!answer.ok) {
        continue;
      }
      const fresh = new DOMParser().parseFromString(await answer.text(), "text/html");
      parts.filter(p => (p.getAttribute("data-live") || location.href) === url).forEach(part => {
        const next = fresh.getElementById(part.id);
        if (!next) {
          return;
        }
        part.querySelectorAll("[data-keep][id]").forEach(kept => {
          const slot = next.querySelector("#" + CSS.escape(kept.id));
          if (slot) {
            slot.replaceWith(kept);
          }
        });
        part.replaceChildren(...next.childNodes);
        localTimes(part);
        sortable(part);
      });
    }
    document.body.setAttribute("data-refreshed", String(Date.now()));
  }

  function live() {
    if (!document.querySelector("[data-live]") || !window.EventSource) {
      return;
    }
    let pending = null;
    const source = new EventSource("/ui/live");
    source.addEventListener("change", () => {
      clearTimeout(pending);
      pending = setTimeout(() => refresh().catch(() => {}), 250);
    });
    // on every (re)connection: what changed between rendering the page and subscribing is fetched once
    source.addEventListener("open", () => {
      refresh().catch(() => {}).finally(() => document.body.setAttribute("data-live-open", "true"));
    });
  }

  document.addEventListener("DOMContentLoaded", () => {
    const theme = document.getElementById("theme");
    if (theme) {
      theme.hidden = false;
      theme.addEventListener("click", () => {
        const dark = root.getAttribute("data-theme") === "dark"
          || (!root.hasAttribute("data-theme") && matchMedia("(prefers-color-scheme: dark)").matches);
        const next = dark ? "light" : "dark";
        root.setAttribute("data-theme", next);
        localStorage.setItem("svc-theme", next);
      });
    }
    document.querySelectorAll("header.site nav a[href]").forEach(a => {
      const href = a.getAttribute("href");
      if (href !== "/ui" ? location.pathname.startsWith(href) : location.pathname === "/ui") {
        a.setAttribute("aria-current", "page");
      }
    });
    localTimes(document);
    sortable(document);
    live();
  });
})();
