// pitchkeeper entry page: small helpers over a form that works without them.
// - a verdict shown for some answers goes stale (its Save button hidden) as soon as an answer changes;
// - when another device saves a hand, say so (the form is kept as it is).
"use strict";
(function () {
  var form = document.getElementById("hand-form");
  if (form) {
    form.addEventListener("change", function () {
      var p = document.getElementById("preview");
      if (p) p.classList.add("stale");
    });
    var err = document.getElementById("error") || document.getElementById("preview");
    if (err && err.scrollIntoView) err.scrollIntoView({ block: "center" });
  }
  var saving = false;
  document.addEventListener("submit", function () { saving = true; });
  document.addEventListener("pitchkeeper:changed", function (e) {
    if (saving || !form) return;
    if (e.detail.before !== e.detail.after) {
      var note = document.getElementById("changed");
      if (note) note.hidden = false;
    }
  });
})();
