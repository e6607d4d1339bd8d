/*
 * The record page's taps on a slow network: shown at once, queued, never lost.
 *
 * Why: every tap posts the picker form and the server answers with what changed
 * (for a plain tile tap only the hand, its result and that tile's count; see
 * scorer/views/record.py `_tap_delta`).  On a chess room's Wi-Fi an answer takes
 * half a second or more, so:
 *
 *  - a tile tapped on the grid appears in the hand at once (a "pending" copy,
 *    marked so), and a tile tapped in the hand leaves it at once; the answer
 *    then replaces the hand with the server's, which is the truth (fans and
 *    payments come with it);
 *  - a tap made while the previous answer is on its way is remembered by its
 *    value ("tile:5m", "winner:2"); once the form holds the state that answer
 *    brought, every tap remembered meanwhile goes in ONE request (the values in
 *    order, several "tap" fields), which the server applies one after the other
 *    as it would have one by one (scorer/views/record.py `_posted`): on a slow
 *    network the final hand and score are one answer after the last tap, not one
 *    answer per tap.  (htmx alone keeps only the last waiting request and drops
 *    it when its button is replaced, so quick taps went missing.)
 *  - taps the server could not save because the database was busy (503 with
 *    Retry-After, scorer/busy.py; static/js/busy.js says so) are kept, first in
 *    the queue, and sent again once Retry-After has passed: the player does not
 *    tap them twice, and the taps made meanwhile follow them in order, in the
 *    same request.
 *
 * No scoring happens here: the server reads each tap against the state it sent.
 */
(function () {
  "use strict";
  var queue = [];
  var inFlight = []; // the taps the form's current request carries, in order
  var holdUntil = 0; // no tap is sent before this time (a busy server's Retry-After)

  function busy(form) {
    return form.classList.contains("htmx-request");
  }

  // The tool the form will hold once the taps ahead (in flight, then waiting) are
  // applied: a tool tap picks it (or puts it down), the next tile tap uses it up.
  function toolAfter(form, ahead) {
    var input = form.querySelector('input[name="tool"]');
    var tool = input ? input.value : "";
    ahead.forEach(function (v) {
      if (/^tool:/.test(v)) {
        var t = v.slice(5);
        tool = tool === t ? "" : t;
      } else if (/^(tile|hand):/.test(v)) {
        tool = "";
      }
    });
    return tool;
  }

  function plainTileTap(form, value, ahead) {
    // Tools (a meld, the winning tile) change what a tap means: only the server knows.
    return /^(tile|hand):/.test(value) && toolAfter(form, ahead) === "" &&
      form.querySelector("#pk-live .pk-hand-tiles") !== null;
  }

  function bumpCount(form, by) {
    var count = form.querySelector("#pk-live .pk-hand-count");
    if (count) {
      count.textContent = count.textContent.replace(/\d+/, function (d) {
        return String(Math.max(0, Number(d) + by));
      });
    }
  }

  // The tile as the player expects to see it, before the server says so.
  function showPending(form, value) {
    var hand = form.querySelector("#pk-live .pk-hand-tiles");
    if (!hand) return;
    var code = value.slice(value.indexOf(":") + 1);
    if (value.indexOf("tile:") === 0) {
      var grid = document.getElementById("g-" + code);
      var slot = form.querySelector("#pk-live .pk-slot");
      if (!grid || !slot) return; // the hand is full: the server will say why
      var tile = document.createElement("span");
      tile.className = grid.className.replace(/\bpk-(has|dim)\b/g, "") + " pk-pending";
      tile.setAttribute("aria-hidden", "true");
      var face = grid.querySelector(".pk-face");
      if (face) tile.appendChild(face.cloneNode(true));
      hand.appendChild(tile);
      slot.remove();
      bumpCount(form, 1);
    } else {
      var sel = code === "win" ? ".pk-tile-win" : 'button[value="hand:' + code + '"]:not(.pk-leaving)';
      var held = hand.querySelector(sel);
      if (held) {
        held.classList.add("pk-leaving");
        bumpCount(form, -1);
      }
    }
  }

  function sendNext(form) {
    if (!queue.length || busy(form) || !document.body.contains(form)) return;
    if (Date.now() < holdUntil) return; // the timer set on the 503 sends it
    // Every tap waiting, in the order made: one request, one answer.
    var taps = queue.splice(0, queue.length);
    htmx.ajax("POST", form.getAttribute("hx-post"), {
      source: form,
      target: form,
      swap: "innerHTML",
      values: { tap: taps, delta: "1" },
    });
  }

  document.addEventListener(
    "click",
    function (e) {
      var button = e.target.closest && e.target.closest('button[name="tap"]');
      if (!button || !button.form || !button.form.hasAttribute("data-tap-queue")) return;
      if (button.hasAttribute("hx-post")) return; // posts elsewhere ("record it as round N")
      var form = button.form;
      var ahead = busy(form) ? inFlight.concat(queue) : queue;
      if (button.value && plainTileTap(form, button.value, ahead)) showPending(form, button.value);
      if (!busy(form) && !queue.length) return; // the usual path: htmx posts it
      e.preventDefault();
      e.stopPropagation();
      if (button.value) queue.push(button.value);
    },
    true
  );

  // A grid tile that an answer changed (its count, dimmed or not) is updated in
  // place rather than replaced.  A press that began on the old button and ended on
  // a new one would make no click at all (the browser sends it to the common
  // ancestor), so a mouse -- or a test's click -- pressing a tile while the answer
  // to the previous tap of that tile came back lost its tap.
  document.addEventListener("htmx:oobBeforeSwap", function (e) {
    var target = e.detail && e.detail.target;
    var fresh = e.detail && e.detail.fragment && e.detail.fragment.firstElementChild;
    if (!target || !fresh || !target.matches || !target.matches("button.pk-tile[id^='g-']") ||
      fresh.id !== target.id || fresh.tagName !== target.tagName) return;
    Array.prototype.slice.call(target.attributes).forEach(function (a) {
      if (!fresh.hasAttribute(a.name)) target.removeAttribute(a.name);
    });
    Array.prototype.slice.call(fresh.attributes).forEach(function (a) {
      if (target.getAttribute(a.name) !== a.value) target.setAttribute(a.name, a.value);
    });
    target.replaceChildren.apply(target, Array.prototype.slice.call(fresh.childNodes));
    e.detail.shouldSwap = false;
  });

  function tapForm(e) {
    var elt = e.detail && e.detail.elt;
    return elt && elt.closest ? elt.closest("form[data-tap-queue]") : null;
  }

  document.addEventListener("htmx:configRequest", function (e) {
    if (!tapForm(e)) return;
    var p = e.detail.parameters;
    var v = p && (typeof p.getAll === "function" ? p.getAll("tap") : [].concat(p.tap || []));
    inFlight = (v || []).map(String).filter(function (t) { return t !== ""; });
  });

  document.addEventListener("htmx:responseError", function (e) {
    var xhr = e.detail && e.detail.xhr;
    var form = tapForm(e);
    if (!form || !xhr || xhr.status !== 503 || !inFlight.length) return;
    // Nothing was saved: the same taps go first once the server has room again.
    queue = inFlight.concat(queue);
    inFlight = [];
    var wait = (parseInt(xhr.getResponseHeader("Retry-After"), 10) || 2) * 1000;
    holdUntil = Date.now() + wait;
    setTimeout(function () { sendNext(form); }, wait + 50);
  });

  document.addEventListener("htmx:afterRequest", function (e) {
    var form = tapForm(e);
    if (form && e.detail.successful !== false) inFlight = []; // answered: the form holds them
    if (form && e.detail.successful === false) {
      // No answer swapped in: the hand still shows the waiting taps as they were.
      setTimeout(function () { sendNext(form); }, 0);
    } else if (form) {
      // The answer replaced the hand: show again the taps still waiting their turn.
      queue.forEach(function (value, i) {
        if (plainTileTap(form, value, queue.slice(0, i))) showPending(form, value);
      });
      // After the swap of this answer: the next tap reads the new state.
      setTimeout(function () { sendNext(form); }, 0);
    }
  });
})();
