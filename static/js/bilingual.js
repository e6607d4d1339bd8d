/*
 * Fan names and payment reasons are shown in the page's language; a tap on
 * "中/EN" in the header shows the other language beside them (and hides it
 * again).  Why: players at one table read different languages, and the rule
 * book names fans in Chinese; but a page showing both at once was hard to read
 * on a phone.  The choice is kept on this phone (localStorage).  The button is
 * rendered by the server on the pages that have names in two languages
 * (templates/bi_toggle.html): shown by script after load, it moved the header.
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

  document.addEventListener("DOMContentLoaded", function () {
    var on = false;
    try { on = localStorage.getItem(KEY) === "1"; } catch (e) { /* private mode */ }
    if (on) set(true);
  });

  document.addEventListener("click", function (e) {
    var b = e.target.closest && e.target.closest(".bi-toggle");
    if (!b) return;
    var on = !document.body.classList.contains("bilingual");
    set(on);
    try { localStorage.setItem(KEY, on ? "1" : "0"); } catch (err) { /* private mode */ }
  });
})();
