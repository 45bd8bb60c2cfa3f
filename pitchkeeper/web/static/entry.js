// pitchkeeper entry page: small helpers over a form that works without them.
// - a verdict shown for some answers goes stale (its Save button hidden) as soon as an answer changes;
// - a "Hand 4 saved." message goes once the page moves on (an answer tapped, another hand saved);
// - when another device saves a hand: a form not yet touched is fetched again (for the next hand); one
//   being filled in is kept, and says so (Check then asks: the same hand, or the next one?);
// - a tap in the auction asks the server for the next turn and swaps that part of the form in place
//   (without this script the same tap posts the form and the page comes back at the auction). One tap at
//   a time: the auction's buttons are disabled until the server has answered, so a quick second tap never
//   goes out with the calls as they were before the first (each tap also names its player, and the
//   server refuses one that is not that player's turn). An answer for another form (the hand being
//   corrected was undone meanwhile, say) replaces the whole page.
"use strict";
(function () {
  var saving = false;
  var touched = false;  // an answer given on this page since it was loaded
  var tapping = false;  // a tap in the auction is on its way to the server

  function auctionBusy(busy) {
    var box = document.getElementById("auction");
    if (!box) return;
    if (busy) box.setAttribute("aria-busy", "true"); else box.removeAttribute("aria-busy");
    var buttons = box.querySelectorAll("button[data-call]");
    for (var i = 0; i < buttons.length; i++) buttons[i].disabled = busy;
  }

  function flashGone() {
    var f = document.getElementById("flash");
    if (f) f.remove();
  }

  // a night table's result as typed (round;winner;scores), kept on #live for live.js: when the page moves
  // on without sending it (reported from another phone, the next round seated), the page says it was not sent
  function keepTyped() {
    var form = document.getElementById("hand-form"), live = document.getElementById("live");
    if (!live || !form || !form.hasAttribute("data-only-mine")) return;
    var round = form.querySelector('input[name="round"]');
    var won = form.querySelector('input[name="winner"]:checked');
    var scores = Array.prototype.map.call(form.querySelectorAll("input[data-side]"), function (i) { return i.value.trim(); });
    if (!won && !scores.some(function (v) { return v; })) { live.removeAttribute("data-unsent"); return; }
    live.setAttribute("data-unsent", [round ? round.value : "", won ? won.value : "", scores.join(",")].join(";"));
  }

  function init() {
    var form = document.getElementById("hand-form");
    keepTyped();
    if (history.replaceState && /[?&](saved|undone|started)=/.test(location.search)) {
      history.replaceState(null, "", location.pathname);  // a reload must not say it again
    }
    saving = false;
    touched = false;
    var target = document.getElementById("error") || document.getElementById("conflict") ||
                 document.getElementById("preview");
    if (target && target.scrollIntoView) {
      target.scrollIntoView({ block: "center" });
      // the form's address ends in #verdict, which the browser scrolls to once the page has loaded: a
      // message (the first question left unanswered) is what must be in view
      if (target.id === "error") window.addEventListener("load", function () { target.scrollIntoView({ block: "center" }); });
    }
    if (!form || form.getAttribute("data-ready")) return;
    form.setAttribute("data-ready", "1");
    form.addEventListener("input", keepTyped);
    form.addEventListener("change", function () {
      keepTyped();
      touched = true;
      var p = document.getElementById("preview");
      if (p) p.classList.add("stale");
      flashGone();
    });
  }

  function swap(doc, id) {
    var fresh = doc.getElementById(id), old = document.getElementById(id);
    if (fresh && old) old.replaceWith(document.importNode(fresh, true));
    return Boolean(fresh && old);
  }

  document.addEventListener("click", function (e) {
    var button = e.target.closest ? e.target.closest("button[data-call]") : null;
    var form = document.getElementById("hand-form");
    if (!button || !form || !window.fetch || !window.DOMParser) return;
    e.preventDefault();
    if (tapping) return;  // the last tap is not answered yet: this one would be made against old calls
    tapping = true;
    touched = true;
    flashGone();
    var body = new URLSearchParams(new FormData(form));
    body.set("call", button.value);
    auctionBusy(true);
    var live = document.getElementById("live");
    var base = live ? live.getAttribute("data-base") || "" : "";
    fetch(base + "/enter/auction", { method: "POST", body: body, credentials: "same-origin",
                              headers: { "Content-Type": "application/x-www-form-urlencoded" } })
      .then(function (r) { return r.text(); })
      .then(function (html) {
        tapping = false;
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("hand-form");
        var sameForm = fresh && fresh.getAttribute("data-form") === form.getAttribute("data-form");
        if (!sameForm || !doc.getElementById("auction") || !swap(doc, "auction")) {
          // the PIN page, or the form for another hand now (the one corrected was undone): show it whole
          var page = doc.getElementById("page") || doc.querySelector("main");
          var old = document.getElementById("page");
          if (page && old) {
            old.replaceWith(document.importNode(page, true));
            document.dispatchEvent(new CustomEvent("pitchkeeper:page", { detail: {} }));
          }
          return;
        }
        swap(doc, "q-bidder");
        swap(doc, "q-amount");
        var p = document.getElementById("preview");
        if (p) p.classList.add("stale");
        var at = document.getElementById("auction");
        if (at && at.scrollIntoView) at.scrollIntoView({ block: "nearest" });
      })
      .catch(function () {
        tapping = false;
        auctionBusy(false);
        form.requestSubmit ? form.requestSubmit(button) : form.submit();
      });
  });

  document.addEventListener("submit", function () { saving = true; });
  document.addEventListener("pitchkeeper:page", init);
  document.addEventListener("pitchkeeper:changed", function (e) {
    flashGone();
    var form = document.getElementById("hand-form");
    if (saving || !form) return;
    // a night table's form is redone only when its own table moved (not for every other table's result)
    if (form.hasAttribute("data-only-mine") && e.detail.before === e.detail.after) return;
    if (form.hasAttribute("data-only-mine") && e.detail.after === "reported") {  // reported from another phone:
      document.dispatchEvent(new CustomEvent("pitchkeeper:refresh-page"));  // the form closes, and says so
      return;
    }
    if (!touched && !document.getElementById("preview") && !document.getElementById("conflict")) {
      document.dispatchEvent(new CustomEvent("pitchkeeper:refresh-page"));  // nothing lost: the form for now
      return;
    }
    var note = document.getElementById("changed");
    if (note && e.detail.before !== e.detail.after) note.hidden = false;
  });
  init();
})();
