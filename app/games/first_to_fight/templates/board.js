// First to Fight board: linked once from the table page's head (GET /games/first_to_fight/board.js),
// never inline (the page's Content-Security-Policy allows no inline script).
//
// A highlighted order tile, region, soldier card or mission card answers the seat's own pending
// decision: the choice it carries is sent through the board's one small form. A tap on a card's
// "History" opens its note and answers nothing.
(function () {
  "use strict";

  function send(choice) {
    var form = document.getElementById("ftf-answer-form");
    if (!form) return;
    form.querySelector("input.ftf-choice").value = choice;
    if (form.requestSubmit) form.requestSubmit(); else form.dispatchEvent(new Event("submit", {bubbles: true, cancelable: true}));
  }

  function onClick(event) {
    var t = event.target;
    if (!t.closest || !t.closest(".ftf")) return;
    if (t.closest("details, summary, a")) return;  // a note opened, a rules link followed
    var el = t.closest("[data-choice]");
    if (!el) return;
    send(el.getAttribute("data-choice"));
  }

  document.addEventListener("click", onClick);
  // Enter or Space on a focused tile, region or card is a click
  document.addEventListener("keyup", function (event) {
    if (event.key !== "Enter" && event.key !== " ") return;
    var el = event.target.closest && event.target.closest(".ftf [data-choice]");
    if (el && !event.target.closest("details, summary, a")) send(el.getAttribute("data-choice"));
  });
})();
