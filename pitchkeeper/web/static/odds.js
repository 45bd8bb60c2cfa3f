// pitchkeeper /odds: small helpers over a form that works without them.
// - the count of cards tapped ("4 of 6") follows each tap, and a tap past a whole hand is refused on the
//   spot with a word, not only by the server;
// - choosing another ruleset draws its deck again (jokers, a stripped deck) without asking anything yet;
//   choosing another number of players asks again at once when a whole hand is tapped.
"use strict";
(function () {
  var form = document.getElementById("odds-form");
  var count = document.getElementById("count");
  if (!form || !count) return;
  var size = parseInt(count.getAttribute("data-size"), 10) || 6;

  function tapped() { return form.querySelectorAll('input[name="card"]:checked').length; }

  function show(note) {
    var n = tapped();
    count.textContent = n + " of " + size + (note ? " - " + note : "");
    count.classList.toggle("full", n === size);
    form.classList.toggle("whole-hand", n >= size);
  }

  form.addEventListener("change", function (e) {
    var t = e.target;
    if (t.name === "card") {
      if (t.checked && tapped() > size) {
        t.checked = false;
        show(size + " tapped already: untap one first");
        return;
      }
      show("");
      var answer = document.getElementById("answer");
      if (answer) answer.classList.add("stale");
      return;
    }
    if (t.id === "rules") {
      document.getElementById("go").value = "0";  // its deck first: the question once the hand is tapped
      form.submit();
    } else if (t.id === "players" && tapped() === size) {
      form.submit();
    }
  });
  show("");
})();
