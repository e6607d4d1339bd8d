// "Try again" (scorer/web/middleware.py): htmx leaves a 503 unswapped, so its message is
// shown here, above the page, which stays as it was.  Nothing was saved; the
// next tap repeats the step safely (one-time tokens).
(function () {
  "use strict";
  document.addEventListener("htmx:responseError", function (e) {
    var xhr = e.detail && e.detail.xhr;
    if (!xhr || xhr.status !== 503) return;
    var old = document.querySelector(".busy-msg");
    if (old) old.remove();
    var box = document.createElement("div");
    box.innerHTML = xhr.responseText; // our own answer: one <p role="alert">
    var msg = box.querySelector(".busy-msg");
    if (!msg) return;
    var main = document.querySelector("main") || document.body;
    main.insertBefore(msg, main.firstChild);
    setTimeout(function () { msg.remove(); }, 8000);
  });
})();
