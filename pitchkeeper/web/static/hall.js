// pitchkeeper hall screen: pages that do not fit one screen turn by themselves (the seating past 10 tables,
// the standings past 40 lines), and a table that has just reported lights up. The page is kept live by
// live.js (its part fetched again on each event); this keeps the page turned and marks what changed.
"use strict";
(function () {
  var PERIOD = 12000;  // ms a page stays up: time to find one's name
  var turn = 0;
  var states = null;  // table -> its state the last time the part was drawn

  function apply() {
    ["seating", "standings"].forEach(function (name) {
      var box = document.querySelector(name === "seating" ? ".seating" : ".standings-box");
      if (!box) return;
      var pages = box.querySelectorAll(".hall-page");
      if (pages.length < 2) return;
      var at = turn % pages.length;
      for (var i = 0; i < pages.length; i++) pages[i].hidden = i !== at;
      var pager = box.querySelector("[data-pager]");
      if (pager) pager.textContent = pages[at].getAttribute("data-words");
    });
  }

  function mark() {
    var now = {};
    var rows = document.querySelectorAll(".tbl[data-table]");
    for (var i = 0; i < rows.length; i++) {
      var t = rows[i].getAttribute("data-table"), s = rows[i].getAttribute("data-state");
      now[t] = s;
      if (states && states[t] !== undefined && states[t] !== s) rows[i].classList.add("just");
    }
    states = now;
  }

  document.addEventListener("pitchkeeper:changed", function () { apply(); mark(); });
  setInterval(function () { turn += 1; apply(); }, PERIOD);
  mark();
})();
