/*
 * Quick entry (选番): find a fan by typing part of its name, Chinese or English.
 *
 * Why: the MCR list has 80 fans; at the table a player knows the name and
 * should not scroll.  Names match in Chinese, English or pinyin, whole or by
 * initials ("jian", "pph": data-fan-names, scorer/present/fan_list.py); the fans
 * already chosen stay shown whatever is typed.  The box is hidden without script (the whole list is
 * there anyway); typing hides the fans that do not match and opens the folded
 * groups that hold a match.  What was typed survives the form's re-render
 * after each tap (htmx replaces the list), so one can pick several matches.
 */
(function () {
  "use strict";
  var query = "";

  function apply(root) {
    var box = root.querySelector("[data-fan-search]");
    if (!box) return;
    box.hidden = false;
    if (box.value !== query) box.value = query;
    var q = query.trim().toLowerCase();
    root.querySelectorAll(".pk-quick-fan").forEach(function (fan) {
      var names = (fan.getAttribute("data-fan-names") || "").toLowerCase();
      // A fan already chosen stays in sight while searching: it counts, and its
      // "−" is the way to take it back (碰碰和 stays while 箭刻 is searched for).
      var chosen = fan.classList.contains("pk-on");
      fan.hidden = q !== "" && !chosen && names.indexOf(q.replace(/\s+/g, "")) < 0 &&
        names.indexOf(q) < 0;
    });
    root.querySelectorAll(".pk-quick-fold").forEach(function (fold) {
      if (q !== "" && fold.querySelector(".pk-quick-fan:not([hidden])")) fold.open = true;
    });
    // Nothing matches what was typed: a line says so (an empty list said nothing).
    var none = root.querySelector("[data-fan-no-match]");
    if (none) {
      var found = q === "" || root.querySelector(".pk-quick-fan:not(.pk-on):not([hidden])") !== null;
      none.hidden = found;
      var typed = none.querySelector("[data-fan-typed]");
      if (typed) typed.textContent = query.trim();
    }
    root.querySelectorAll(".pk-quick-list").forEach(function (list) {
      var heading = list.previousElementSibling;
      var any = list.querySelector(".pk-quick-fan:not([hidden])") !== null;
      if (heading && heading.classList.contains("pk-quick-group")) heading.hidden = !any;
      var fold = list.closest(".pk-quick-fold");
      if (fold) fold.hidden = !any;
    });
  }

  document.addEventListener("input", function (e) {
    if (e.target && e.target.matches && e.target.matches("[data-fan-search]")) {
      query = e.target.value;
      apply(document);
    }
  });
  // Typing in the box must not post the form (it is a filter, not part of the state).
  document.addEventListener(
    "change",
    function (e) {
      if (e.target && e.target.matches && e.target.matches("[data-fan-search]")) e.stopPropagation();
    },
    true
  );
  document.addEventListener("keydown", function (e) {
    if (e.key === "Enter" && e.target && e.target.matches && e.target.matches("[data-fan-search]")) {
      e.preventDefault();
    }
  });
  document.addEventListener("DOMContentLoaded", function () { apply(document); });
  document.addEventListener("htmx:afterSettle", function () { apply(document); });
})();
