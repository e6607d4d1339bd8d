/*
 * Live pages (a table's page, its 结算, ledger and round pages; a room's dashboard and
 * tables page): the server's event stream (htmx's sse extension, hx-ext="sse"
 * sse-connect) says "changed", and the page's region marked data-live-poll fetches
 * itself again.
 *
 * The invariant (docs/architecture.md, "Live pages"): a page shows the table's newest
 * version within 5 s of the network being usable, without a reload, or says it is
 * catching up ("正在同步…").
 *
 * - A table's region says the version it shows (data-live-version); its stream says
 *   each new version (`changed`, data: the version).  Any version heard that is newer
 *   than the one shown is fetched ("live:fetch"), once the fetch in flight (if any)
 *   is over: two changes during one slow fetch end with the second shown.
 * - A fetch that fails (a 5xx, a dropped answer, no network, a timeout) is retried
 *   with backoff (0.5, 1, 2, 3 s, then every 3 s) until one succeeds, and the page
 *   says it is catching up meanwhile (the stream box's data-live-syncing).
 * - Going back online, or the page shown again (a phone woken up: mobile browsers kill
 *   streams in the background: "wake"), fetches at once.
 * - Its "every 3s" poll goes out only while the stream is down, or silent for 45 s
 *   (a heartbeat comes every 20 s): a stalled or dropped stream falls back to polling
 *   within the poll's 3 s, and a healthy one costs no request at all.
 * - A poll is marked (X-Live-Poll): a closed table's poll is answered "stop polling".
 * - A region with a form being filled in, or showing a form's errors, is not replaced
 *   under the thumb; it is looked at again a little later.  A row opened in it (the
 *   ledger's) is open again after the fetch, its details loaded anew.
 * - A room's stream says "changed" with no version ("?"): its regions fetch on every
 *   nudge (hx-trigger "sse:changed"), with the same retries.
 */
(function () {
  var SILENT_MS = 45000;
  var BACKOFF_MS = [500, 1000, 2000, 3000];
  var LATER_MS = 2000;
  var STUCK_MS = 15000; // a region left alone while a form is being filled in
  var sources = [];

  function hear(e) { e.target.mahjongHeard = Date.now(); }

  function boxOf(elt) {
    return elt && elt.closest ? elt.closest("[sse-connect]") : null;
  }

  function regionOf(box) {
    return box.querySelector("[data-live-poll]");
  }

  function shown(region) {
    return parseInt(region.getAttribute("data-live-version") || "", 10);
  }

  // ------------------------------------------------------------------ the notice

  function notice(box, on) {
    var note = box.querySelector(":scope > .live-sync");
    if (!note && !on) return;
    if (!note) {
      note = document.createElement("p");
      note.className = "live-sync";
      note.setAttribute("role", "status");
      note.textContent = box.getAttribute("data-live-syncing") || "…";
      box.insertBefore(note, box.firstChild);
    }
    note.hidden = !on;
  }

  // ------------------------------------------------------------------ fetching

  function fetchNow(box) {
    var region = regionOf(box);
    if (!region || !window.htmx) return;
    if (box.mahjongTimer) { clearTimeout(box.mahjongTimer); box.mahjongTimer = null; }
    box.mahjongBusy = Date.now(); // until htmx:afterRequest (or a prevented request) says it is over
    box.mahjongWaited = false;
    window.htmx.trigger(region, "live:fetch");
  }

  // Fetch when a newer version than the one shown was heard and nothing is in flight.
  function sync(box) {
    var region = regionOf(box);
    // (A fetch whose end was never heard holds nothing up for long.)
    if (box.mahjongBusy && Date.now() - box.mahjongBusy > STUCK_MS) box.mahjongBusy = false;
    if (!region || box.mahjongBusy || box.mahjongTimer) return;
    var version = shown(region);
    if (!isNaN(version) && (box.mahjongSeen || 0) > version) fetchNow(box);
  }

  function later(box, ms) {
    if (box.mahjongTimer) clearTimeout(box.mahjongTimer);
    box.mahjongTimer = setTimeout(function () {
      box.mahjongTimer = null;
      if (document.body.contains(box)) fetchNow(box);
    }, ms);
  }

  function failed(box) {
    var n = box.mahjongFailures = (box.mahjongFailures || 0) + 1;
    notice(box, true);
    later(box, BACKOFF_MS[Math.min(n, BACKOFF_MS.length) - 1]);
  }

  function succeeded(box, swapped) {
    box.mahjongFailures = 0;
    notice(box, false);
    // A version heard while this fetch was on its way: fetched once the answer is in
    // place (htmx:afterSettle, below), or now when the answer changed nothing (304).
    if (!swapped) sync(box);
  }

  // ------------------------------------------------------------------ the stream

  document.addEventListener("htmx:sseOpen", function (e) {
    var source = e.detail && e.detail.source;
    var box = boxOf(e.target);
    if (!source || source.mahjongHeard) return;
    source.mahjongHeard = Date.now();
    source.addEventListener("ping", hear);
    source.addEventListener("open", hear);
    source.addEventListener("changed", function (m) {
      hear(m);
      var version = parseInt(m.data, 10);
      if (!box || isNaN(version)) return;
      box.mahjongSeen = Math.max(box.mahjongSeen || 0, version);
      sync(box);
    });
    sources.push(source);
  });

  function streaming() {
    var now = Date.now();
    sources = sources.filter(function (s) { return s.readyState !== 2; });
    return sources.some(function (s) { return s.readyState === 1 && now - s.mahjongHeard < SILENT_MS; });
  }

  // ------------------------------------------------------------------ the requests

  function editing(region) {
    // A form the server sent back with its errors: what went wrong stays on screen
    // until the admin has read it and sent the form again.
    if (region.querySelector(".form-errors, .has-error, .errorlist")) return true;
    var fields = region.querySelectorAll("input, textarea, select");
    for (var i = 0; i < fields.length; i++) {
      var f = fields[i];
      if (f === document.activeElement) return true;
      if ((f.type === "checkbox" || f.type === "radio") ? f.checked !== f.defaultChecked
          : f.value !== f.defaultValue && f.type !== "hidden") return true;
    }
    // An open confirm box (结束本桌? 撤销?) is not closed under the thumb either.
    return !!region.querySelector("details.undo-box[open]");
  }

  function polled(e) {
    var config = e.detail && e.detail.requestConfig;
    return !(config && config.triggeringEvent);
  }

  function live(elt) {
    return elt && elt.hasAttribute && elt.hasAttribute("data-live-poll");
  }

  document.addEventListener("htmx:beforeRequest", function (e) {
    var elt = e.detail && e.detail.elt;
    if (!live(elt)) return;
    var box = boxOf(elt);
    if (polled(e) && streaming()) e.preventDefault();
    else if (editing(elt)) {
      e.preventDefault();
      if (box && box.mahjongSeen > shown(elt)) later(box, LATER_MS);
    }
    if (e.defaultPrevented && box) box.mahjongBusy = false;
    else if (box) box.mahjongBusy = Date.now();
  });

  document.addEventListener("htmx:configRequest", function (e) {
    var elt = e.detail && e.detail.elt;
    if (live(elt) && !e.detail.triggeringEvent) e.detail.headers["X-Live-Poll"] = "1";
  });

  // After the answer (or its failure).  The region is usually replaced by then: htmx
  // tells its stream box, which is still in the page, instead.
  document.addEventListener("htmx:afterRequest", function (e) {
    var elt = e.detail && e.detail.elt;
    if (!elt || !(live(elt) || elt.hasAttribute("sse-connect"))) return;
    var box = elt.hasAttribute("sse-connect") ? elt : boxOf(elt);
    if (!box || !document.body.contains(box)) return;
    box.mahjongBusy = false;
    var xhr = e.detail.xhr;
    var status = xhr ? xhr.status : 0;
    if (status >= 200 && status < 400) succeeded(box, status !== 304 && status !== 204);
    else failed(box);
  });

  // An opened row (the ledger's) stays open across a fetch: its details load again.
  document.addEventListener("htmx:beforeSwap", function (e) {
    var target = e.detail && e.detail.target;
    var box = live(target) ? boxOf(target) : null;
    if (!box) return;
    box.mahjongOpen = Array.prototype.map.call(
      target.querySelectorAll("details[id][open]"), function (d) { return d.id; });
  });

  document.addEventListener("htmx:afterSettle", function (e) {
    var box = live(e.target) ? boxOf(e.target) : null;
    if (!box) return;
    (box.mahjongOpen || []).forEach(function (id) {
      var row = document.getElementById(id);
      if (row && e.target.contains(row)) row.open = true;
    });
    box.mahjongOpen = null;
    sync(box);
  });

  function everyBox(fn) {
    var boxes = document.querySelectorAll("[sse-connect]");
    for (var i = 0; i < boxes.length; i++) if (regionOf(boxes[i])) fn(boxes[i]);
  }

  // Back online: fetch at once, whatever the backoff was waiting for.
  window.addEventListener("online", function () {
    everyBox(function (box) { box.mahjongFailures = 0; fetchNow(box); });
  });

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState !== "visible" || !window.htmx) return;
    var regions = document.querySelectorAll("[data-live-poll]");
    for (var i = 0; i < regions.length; i++) window.htmx.trigger(regions[i], "wake");
  });
})();
