// pitchkeeper: keep a part of the page live. One EventSource on /api/events; on each new version the
// part named by #live[data-part] is fetched again and swapped in (the server renders it: no template
// here). When the table moves on to another game (the event names the new match, or the part fetched
// says so), a page marked data-follow="page" fetches itself again and swaps its whole content: the
// TV and every phone follow the next game without a reload. A part still being analysed (a hand's par,
// data-analysing) is fetched again a few seconds later, until it is done. When the log cannot be read
// (an event says `broken`), the page stops showing its score as current: a message covers it, in the
// players' words, until an event says the log is mended (the page marked data-broken="page", served while
// the log was broken, then fetches itself again; it asks its data-probe, else the match's JSON, whether the
// file was mended before its event stream opened). Hand-written, no library; runs under the page's CSP
// (script-src 'self').
"use strict";
(function () {
  var live = document.getElementById("live");
  if (!live || !window.EventSource) return;
  var partUrl = live.getAttribute("data-part");
  var targetId = live.getAttribute("data-target");
  var alsoUrl = live.getAttribute("data-also");  // a second part kept live (the phone's list of hands)
  var alsoId = live.getAttribute("data-also-target");
  var wholePage = live.getAttribute("data-follow") === "page";
  var base = live.getAttribute("data-base") || "";  // the path the page is served under ("/table/3/game" at a night)
  var home = live.getAttribute("data-home") || base + "/enter";  // the page to fetch when the game moves on
  var brokenPage = live.getAttribute("data-broken") === "page";  // served while the log could not be read
  var fetching = false, again = false, following = false, followAgain = null;

  function attr(id, name) {
    var el = document.getElementById(id);
    return el ? el.getAttribute(name) : null;
  }
  function pageMatch() { return attr("page", "data-match") || attr(targetId, "data-match"); }

  function pageUrl() {  // this page's own address to fetch again (a form's POST address is not one)
    var own = attr("page", "data-url");
    if (own) return own;
    var p = location.pathname;
    if (p.indexOf(base + "/enter/hand/") === 0 && /\/enter\/hand\/\d+$/.test(p)) return p;
    return p.indexOf(base + "/enter") === 0 ? base + "/enter" : p;
  }

  function follow(toNewGame) {  // another game is served now (or the page asks to be fetched again)
    if (!wholePage) { refresh(); return; }
    if (following) {  // one at a time; asked again meanwhile (a new game, say): once more when it is done
      followAgain = Boolean(followAgain) || toNewGame;
      return;
    }
    following = true;
    var url = toNewGame ? home : pageUrl();
    // a result typed on a night table's form and not sent (entry.js keeps it here): the page says so
    var unsent = live.getAttribute("data-unsent");
    var asked = unsent ? url + (url.indexOf("?") < 0 ? "?" : "&") + "unsent=" + encodeURIComponent(unsent) : url;
    live.removeAttribute("data-unsent");
    fetch(asked, { cache: "no-store", credentials: "same-origin" })
      .then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.text(); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("page"), old = document.getElementById("page");
        if (!fresh || !old) { location.assign(url); return; }
        old.replaceWith(document.importNode(fresh, true));
        document.title = doc.title;
        if (history.replaceState && location.pathname + location.search !== url) history.replaceState(null, "", url);
        document.dispatchEvent(new CustomEvent("pitchkeeper:page", { detail: { match: fresh.getAttribute("data-match") } }));
      })
      .catch(function () { live.classList.add("stale"); })
      .then(function () {
        following = false;
        if (followAgain !== null) { var toNew = followAgain; followAgain = null; follow(toNew); }
      });
  }

  var later = {};  // part id -> the timer that fetches it again while its analysis is under way
  function whileAnalysing(id, fetchIt) {
    var el = document.getElementById(id);
    if (later[id] || !el || !el.querySelector("[data-analysing]")) return;
    later[id] = setTimeout(function () { later[id] = null; fetchIt(); }, 3000);
  }

  function swapAlso() {
    fetch(alsoUrl, { cache: "no-store", credentials: "same-origin" })
      .then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.text(); })
      .then(function (html) {
        var el = document.getElementById(alsoId);
        var box = document.createElement("div");
        box.innerHTML = html.trim();
        if (el && box.firstElementChild) el.replaceWith(box.firstElementChild);
        whileAnalysing(alsoId, swapAlso);
      })
      .catch(function () { live.classList.add("stale"); });
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
        var beforeMatch = pageMatch();
        var box = document.createElement("div");
        box.innerHTML = html.trim();
        var fresh = box.firstElementChild;
        if (!fresh) return;
        el.replaceWith(fresh);
        whileAnalysing(targetId, refresh);
        var after = fresh.getAttribute("data-hands");
        if (wholePage && fresh.getAttribute("data-match") !== beforeMatch) { follow(true); return; }
        if (alsoUrl) swapAlso();
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

  function showBroken(words) {  // the log cannot be read: nothing on this page is the score now
    var box = document.getElementById("log-broken");
    if (!box) {
      box = document.createElement("div");
      box.id = "log-broken";
      box.className = "log-broken";
      box.setAttribute("role", "alert");
      box.appendChild(document.createElement("p"));
      document.body.appendChild(box);
    }
    box.firstChild.textContent = words;
    document.documentElement.classList.add("log-broken-on");
  }
  function mended() {
    var box = document.getElementById("log-broken");
    if (!box) return false;
    box.remove();
    document.documentElement.classList.remove("log-broken-on");
    return true;
  }
  function cameBack() { location.assign(pageUrl()); }

  var source = new EventSource(base + "/api/events");
  source.onopen = function () {
    live.classList.remove("stale"); live.classList.add("on");
    if (brokenPage) {  // mended before this stream opened: no event will say so
      fetch(live.getAttribute("data-probe") || base + "/api/match", { cache: "no-store", credentials: "same-origin" })
        .then(function (r) { if (r.ok) cameBack(); }).catch(function () {});
    }
  };
  source.onerror = function () { live.classList.remove("on"); live.classList.add("stale"); };
  source.onmessage = function (e) {
    var data;
    try { data = JSON.parse(e.data); } catch (err) { return; }
    if (data.broken) { if (!brokenPage) showBroken(data.broken); return; }  // a broken page says so already
    if (brokenPage) { cameBack(); return; }
    mended();
    if (data.match && data.match !== pageMatch()) { follow(true); return; }
    // a night's event may name the tables whose game kept hand by hand moved (the file's version the same)
    if (data.tables || (data.version && data.version !== attr(targetId, "data-version"))) refresh();
  };
  document.addEventListener("pitchkeeper:refresh-page", function () { follow(false); });
  whileAnalysing(targetId, refresh);
  if (alsoUrl) whileAnalysing(alsoId, swapAlso);
  window.addEventListener("pagehide", function () { source.close(); });
})();
