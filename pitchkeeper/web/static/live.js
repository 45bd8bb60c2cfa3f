// pitchkeeper: keep a part of the page live. One EventSource on /api/events; on each new version the
// part named by #live[data-part] is fetched again and swapped in (the server renders it: no template
// here). Hand-written, no library; runs under the page's CSP (script-src 'self').
"use strict";
(function () {
  var live = document.getElementById("live");
  if (!live || !window.EventSource) return;
  var partUrl = live.getAttribute("data-part");
  var targetId = live.getAttribute("data-target");
  var fetching = false, again = false;

  function current() {
    var el = document.getElementById(targetId);
    return el ? el.getAttribute("data-version") : null;
  }

  function refresh() {
    if (fetching) { again = true; return; }
    fetching = true;
    fetch(partUrl, { cache: "no-store", credentials: "same-origin" })
      .then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.text(); })
      .then(function (html) {
        var el = document.getElementById(targetId);
        if (!el) return;
        var before = el.getAttribute("data-hands");
        var box = document.createElement("div");
        box.innerHTML = html.trim();
        var fresh = box.firstElementChild;
        if (!fresh) return;
        el.replaceWith(fresh);
        var after = fresh.getAttribute("data-hands");
        document.dispatchEvent(new CustomEvent("pitchkeeper:changed", { detail: { before: before, after: after } }));
        if (before !== after) {  // a new hand: light the board up for a moment
          fresh.addEventListener("animationend", function () { fresh.classList.remove("flash"); });
          fresh.classList.add("flash");
        }
      })
      .catch(function () { live.classList.add("stale"); })
      .then(function () {
        fetching = false;
        if (again) { again = false; refresh(); }
      });
  }

  var source = new EventSource("/api/events");
  source.onopen = function () { live.classList.remove("stale"); live.classList.add("on"); };
  source.onerror = function () { live.classList.remove("on"); live.classList.add("stale"); };
  source.onmessage = function (e) {
    var data;
    try { data = JSON.parse(e.data); } catch (err) { return; }
    if (data.version && data.version !== current()) refresh();
  };
  window.addEventListener("pagehide", function () { source.close(); });
})();
