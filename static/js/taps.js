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
 *    Retry-After, scorer/web/middleware.py; static/js/busy.js says so) are kept, first in
 *    the queue, and sent again once Retry-After has passed: the player does not
 *    tap them twice, and the taps made meanwhile follow them in order, in the
 *    same request.
 *
 *  - a tap on 确认 is always answered (never dropped, never silent): made while
 *    taps are on their way, it waits for their answer (the bar says so) and is
 *    then sent, with the state they brought; a 确认 the state cannot record
 *    (aria-disabled: the hand is not complete, not a win ...) says at once
 *    "not recorded" and why (data-why, from the server's last answer); one sent
 *    says "recording…" until the server records it (the page moves to the table)
 *    or refuses it (its answer says why, scorer/record/page.py
 *    `refusal`); no answer at all (network, server) says so.  Before this, htmx
 *    dropped a 确认 made while a tap's answer was on its way (hx-sync drop), and
 *    the button still showed the old total.
 *
 * No scoring happens here: the server reads each tap against the state it sent.
 */
(function () {
  "use strict";
  var queue = [];
  var inFlight = []; // the taps the form's current request carries, in order
  var holdUntil = 0; // no tap is sent before this time (a busy server's Retry-After)
  // A 确认 tapped while taps were on their way: sent once they are answered.
  var confirmWaiting = null; // {url, name, value}
  var confirming = false; // a 确认's request is on its way

  // The bar's line under 确认: "waiting", "sending", "failed", "cancelled" (the
  // button's data-* texts, translated by the server), a refusal's why, or nothing.
  function say(form, key, why) {
    var state = form.querySelector(".pk-confirm-state");
    var button = form.querySelector(".pk-confirm");
    if (!state || !button) return;
    var text = why !== undefined ? why : key ? button.getAttribute("data-" + key) || "" : "";
    state.classList.toggle("pk-refused", key === "failed" || key === "refused" || key === "cancelled");
    state.textContent = text;
  }

  // A 确认 the form's state cannot record: answered here, with the server's why.
  function refuseHere(form, button) {
    var why = button.getAttribute("data-why") || "";
    var line = button.getAttribute("data-refused") || "%(why)s";
    say(form, "refused", line.replace("%(why)s", why || button.getAttribute("data-check") || ""));
  }

  function isConfirm(form, path) {
    return Array.prototype.some.call(form.querySelectorAll("button[hx-post]"), function (b) {
      return b.getAttribute("hx-post") === path;
    });
  }

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
    if (busy(form) || !document.body.contains(form)) return;
    if (Date.now() < holdUntil) return; // the timer set on the 503 sends it
    if (queue.length) {
      // Every tap waiting, in the order made: one request, one answer.
      var taps = queue.splice(0, queue.length);
      htmx.ajax("POST", form.getAttribute("hx-post"), {
        source: form,
        target: form,
        swap: "innerHTML",
        values: { tap: taps, delta: "1" },
      });
      return;
    }
    if (!confirmWaiting) return;
    // The taps before the 确认 are answered: the 确认 now, on the state they brought.
    var c = confirmWaiting;
    confirmWaiting = null;
    var button = form.querySelector('button[hx-post][name="' + c.name + '"][value="' + c.value + '"]');
    if (!button) {
      say(form, "cancelled"); // the answer took the button away (another phone's round)
      return;
    }
    if (button.getAttribute("aria-disabled") === "true") {
      refuseHere(form, button);
      return;
    }
    var values = {};
    values[c.name] = c.value;
    htmx.ajax("POST", c.url, { source: form, target: form, swap: "innerHTML", values: values });
  }

  document.addEventListener(
    "click",
    function (e) {
      var sender = e.target.closest && e.target.closest("button[hx-post]");
      if (sender && sender.form && sender.form.hasAttribute("data-tap-queue")) {
        // 确认 (or "record it as round N"): never dropped, never silent.
        var f = sender.form;
        if (busy(f) || queue.length) {
          e.preventDefault();
          e.stopPropagation();
          if (!confirming) {
            confirmWaiting = { url: sender.getAttribute("hx-post"), name: sender.name, value: sender.value };
            say(f, "waiting");
          }
        } else if (sender.getAttribute("aria-disabled") === "true") {
          e.preventDefault();
          e.stopPropagation();
          refuseHere(f, sender);
        }
        return; // else htmx sends it
      }
      var button = e.target.closest && e.target.closest('button[name="tap"]');
      if (!button || !button.form || !button.form.hasAttribute("data-tap-queue")) return;
      if (button.hasAttribute("hx-post")) return; // posts elsewhere ("record it as round N")
      var form = button.form;
      var ahead = busy(form) ? inFlight.concat(queue) : queue;
      if (button.value && plainTileTap(form, button.value, ahead)) showPending(form, button.value);
      if (confirmWaiting) {
        // A tap after 确认: the hand is changing again, so that 确认 is not sent.
        confirmWaiting = null;
        say(form, "cancelled");
      } else if (!confirming) {
        say(form, ""); // what the last 确认 came to was about the hand before this tap
      }
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

  // A mouse press on a button of the form that an answer replaces before the
  // release (the whole form is swapped when a tap changed more than the hand: a
  // seat, a tool) also makes no click: the press began on the old button and ends
  // on the new one.  The release on the button of the same name and value (the
  // same tap, drawn again) makes the click the browser did not.  A touch is left
  // alone: the browser makes its click from the gesture, on what is under the
  // finger when it lifts.  (Lost this way: the house and 陕西 flows' taps under load.)
  var pressed = null; // {button, name, value}: the button a mouse press began on
  document.addEventListener(
    "pointerdown",
    function (e) {
      var b = e.pointerType === "mouse" && e.target.closest ? e.target.closest("button") : null;
      pressed = b && b.form && b.form.hasAttribute("data-tap-queue") ? { button: b, name: b.name, value: b.value } : null;
    },
    true
  );
  document.addEventListener(
    "pointerup",
    function (e) {
      var p = pressed;
      pressed = null;
      if (!p || p.button.isConnected || e.pointerType !== "mouse") return; // the browser clicks
      var b = e.target.closest ? e.target.closest("button") : null;
      if (b && b !== p.button && b.name === p.name && b.value === p.value && !b.disabled &&
        b.form && b.form.hasAttribute("data-tap-queue")) {
        b.click();
      }
    },
    true
  );

  function tapForm(e) {
    var elt = e.detail && e.detail.elt;
    return elt && elt.closest ? elt.closest("form[data-tap-queue]") : null;
  }

  document.addEventListener("htmx:beforeRequest", function (e) {
    var form = tapForm(e);
    var path = e.detail && e.detail.requestConfig && e.detail.requestConfig.path;
    confirming = !!(form && path && isConfirm(form, path));
    if (confirming) say(form, "sending");
  });

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
    if (form && confirming) {
      confirming = false;
      // Recorded: the page moves to the table.  Refused: the answer swapped in says
      // why.  No answer (network, a server error): said here, nothing was recorded
      // (a second 确认 carries the same one-time token: recorded once at most).
      if (e.detail.successful === false) say(form, "failed");
    }
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
