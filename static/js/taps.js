/*
 * Taps on the record page that arrive while the previous one is still on its
 * way to the server are queued, not lost.
 *
 * Why: every tap posts the whole picker form and the answer replaces the
 * form's inside.  On a slow chess-room Wi-Fi a player taps the next tile
 * before the answer is back; htmx then keeps only the last waiting request,
 * and that one is dropped when its button is replaced by the answer, so
 * quick taps silently went missing.  Here each tap made during a request is
 * remembered by its value ("tile:5m", "winner:2") and sent, in order, once
 * the form holds the state that answer brought.  No scoring happens here:
 * the server still reads the tap against the state it sent back.
 */
(function () {
  "use strict";
  var queue = [];

  function busy(form) {
    return form.classList.contains("htmx-request");
  }

  function sendNext(form) {
    if (!queue.length || busy(form) || !document.body.contains(form)) return;
    var value = queue.shift();
    htmx.ajax("POST", form.getAttribute("hx-post"), {
      source: form,
      target: form,
      swap: "innerHTML",
      values: { tap: value },
    });
  }

  document.addEventListener(
    "click",
    function (e) {
      var button = e.target.closest && e.target.closest('button[name="tap"]');
      if (!button || !button.form || !button.form.hasAttribute("data-tap-queue")) return;
      if (!busy(button.form) && !queue.length) return; // the usual path: htmx posts it
      e.preventDefault();
      e.stopPropagation();
      if (button.value) queue.push(button.value);
    },
    true
  );

  document.addEventListener("htmx:afterRequest", function (e) {
    var form = e.detail && e.detail.elt;
    if (form && form.hasAttribute && form.hasAttribute("data-tap-queue")) {
      // After the swap of this answer: the next tap reads the new state.
      setTimeout(function () { sendNext(form); }, 0);
    }
  });
})();
