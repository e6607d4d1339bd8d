/*
 * Live pages (a table's tallies, a room's dashboard and tables page): the server's
 * event stream (htmx's sse extension, hx-ext="sse" sse-connect) says "changed" and
 * the region marked data-live-poll fetches itself (hx-trigger "sse:changed").
 *
 * - Its "every 3s" poll goes out only while the stream is down, or silent for 45 s
 *   (a heartbeat comes every 20 s): a stalled or dropped stream falls back to polling
 *   within the poll's 3 s, and a healthy one costs no request at all.
 * - A page shown again (a phone woken up: mobile browsers kill streams in the
 *   background) fetches at once ("wake").
 * - A poll is marked (X-Live-Poll): a closed table's poll is answered "stop polling".
 * - A region with a form being filled in, or showing a form's errors, is not replaced
 *   under the admin's thumb.
 */
(function () {
  var SILENT_MS = 45000;
  var sources = [];

  function hear(e) { e.target.mahjongHeard = Date.now(); }

  document.addEventListener("htmx:sseOpen", function (e) {
    var source = e.detail && e.detail.source;
    if (!source || source.mahjongHeard) return;
    source.mahjongHeard = Date.now();
    source.addEventListener("ping", hear);
    source.addEventListener("changed", hear);
    source.addEventListener("open", hear);
    sources.push(source);
  });

  function streaming() {
    var now = Date.now();
    sources = sources.filter(function (s) { return s.readyState !== 2; });
    return sources.some(function (s) { return s.readyState === 1 && now - s.mahjongHeard < SILENT_MS; });
  }

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
    return false;
  }

  function polled(e) {
    var config = e.detail && e.detail.requestConfig;
    return !(config && config.triggeringEvent);
  }

  document.addEventListener("htmx:beforeRequest", function (e) {
    var elt = e.detail && e.detail.elt;
    if (!elt || !elt.hasAttribute || !elt.hasAttribute("data-live-poll")) return;
    if (polled(e) && streaming()) e.preventDefault();
    else if (editing(elt)) e.preventDefault();
  });

  document.addEventListener("htmx:configRequest", function (e) {
    var elt = e.detail && e.detail.elt;
    if (elt && elt.hasAttribute && elt.hasAttribute("data-live-poll") && !e.detail.triggeringEvent) {
      e.detail.headers["X-Live-Poll"] = "1";
    }
  });

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState !== "visible" || !window.htmx) return;
    var regions = document.querySelectorAll("[data-live-poll]");
    for (var i = 0; i < regions.length; i++) window.htmx.trigger(regions[i], "wake");
  });
})();
