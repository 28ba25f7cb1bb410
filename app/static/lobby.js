// The create-table form: the "your seat" list shows the seats of the table size chosen (a seat's
// countries depend on how many play), and picks that size's first seat when the size changes.
(function () {
  "use strict";
  function follow(sizeSelect) {
    var seats = document.getElementById(sizeSelect.getAttribute("data-seat-filter"));
    if (!seats) return;
    var size = sizeSelect.value;
    var groups = seats.querySelectorAll("optgroup");
    var keep = false;
    for (var i = 0; i < groups.length; i++) {
      var mine = groups[i].getAttribute("data-players") === size;
      groups[i].hidden = !mine;
      groups[i].disabled = !mine;
      if (mine && seats.selectedOptions.length && seats.selectedOptions[0].parentNode === groups[i]) keep = true;
    }
    if (!keep) {
      var first = seats.querySelector('optgroup[data-players="' + size + '"] option');
      if (first) first.selected = true;
    }
  }
  document.addEventListener("DOMContentLoaded", function () {
    var sizes = document.querySelectorAll("select[data-seat-filter]");
    for (var i = 0; i < sizes.length; i++) {
      follow(sizes[i]);
      sizes[i].addEventListener("change", function (e) { follow(e.target); });
    }
  });
})();
