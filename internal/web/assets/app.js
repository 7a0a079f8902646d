// mnemo ui: keyboard review in the inbox (j/k move, x select, a approve,
// e edit, r reject) and confirmation of deletes. No other script runs.
"use strict";
(function () {
  const drafts = () => Array.from(document.querySelectorAll(".draft"));
  let cur = 0;
  function mark(i) {
    const ds = drafts();
    if (!ds.length) return;
    cur = Math.max(0, Math.min(i, ds.length - 1));
    ds.forEach((d, j) => d.classList.toggle("current", j === cur));
    ds[cur].scrollIntoView({block: "nearest"});
  }
  function typing(e) {
    const t = e.target.tagName;
    return t === "INPUT" || t === "TEXTAREA" || t === "SELECT";
  }
  document.addEventListener("keydown", (e) => {
    if (e.metaKey || e.ctrlKey || e.altKey) return;
    if (e.key === "/" && !typing(e)) {
      e.preventDefault();
      document.querySelector(".search input").focus();
      return;
    }
    if (typing(e) || document.body.dataset.page !== "inbox") return;
    const d = drafts()[cur];
    if (!d) return;
    switch (e.key) {
      case "j": mark(cur + 1); break;
      case "k": mark(cur - 1); break;
      case "x": { const c = d.querySelector("input[type=checkbox]"); c.checked = !c.checked; break; }
      case "a": { const f = d.querySelector("form.approve"); f.requestSubmit(f.querySelector("button")); break; }
      case "e": location.href = d.querySelector("a.button").getAttribute("href"); break;
      case "r": e.preventDefault(); rejecting = true; break;
      default: return;
    }
  });
  // r moves into the reason on keyup, after the key's own character, so
  // the r is not typed into it; Enter there rejects.
  let rejecting = false;
  document.addEventListener("keyup", (e) => {
    if (e.key !== "r" || !rejecting) return;
    rejecting = false;
    const d = drafts()[cur];
    if (d) d.querySelector("form.reject input[name=reason]").focus();
  });
  document.addEventListener("submit", (e) => {
    const f = e.target;
    if (f.classList.contains("confirm") && !confirm(f.dataset.confirm)) e.preventDefault();
  });
  const hash = location.hash.slice(1);
  const ed = document.getElementById(hash);
  if (ed && ed.tagName === "DETAILS") ed.open = true; // #edit opens the editor
  const at = drafts().findIndex((d) => d.id === hash);
  mark(at < 0 ? 0 : at);
})();
