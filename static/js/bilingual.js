/*
 * Fan names and payment reasons are shown in the page's language; a tap on
 * "中/EN" in the header shows the other language beside them (and hides it
 * again).  Why: players at one table read different languages, and the rule
 * book names fans in Chinese; but a page showing both at once was hard to read
 * on a phone.  The choice is kept on this phone (localStorage).
 */
(function () {
  "use strict";
  var KEY = "mj-bilingual";

  function set(on) {
    document.body.classList.toggle("bilingual", on);
    document.querySelectorAll(".bi-toggle").forEach(function (b) {
      b.setAttribute("aria-pressed", on ? "true" : "false");
    });
  }

  // Offered only where there is something in two languages (or may be, after a
  // tap: the record form, the ledger's rounds): elsewhere the button would do
  // nothing, and on a 360-px phone it took a header row of its own.
  var BILINGUAL = ".pk-zh, .pk-en, #record-form, .ledger";

  function offer() {
    var any = !!document.querySelector(BILINGUAL);
    document.querySelectorAll(".bi-toggle").forEach(function (b) { b.hidden = !any; });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var on = false;
    try { on = localStorage.getItem(KEY) === "1"; } catch (e) { /* private mode */ }
    offer();
    set(on);
  });
  document.addEventListener("htmx:afterSettle", offer);

  document.addEventListener("click", function (e) {
    var b = e.target.closest && e.target.closest(".bi-toggle");
    if (!b) return;
    var on = !document.body.classList.contains("bilingual");
    set(on);
    try { localStorage.setItem(KEY, on ? "1" : "0"); } catch (err) { /* private mode */ }
  });
})();
