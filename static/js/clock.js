// The table's clock, ticking on the page itself (scorer/present/fee.py clock_view):
// a 304 answer to the table's poll swaps nothing, so the time and the fee so far
// move here, from the billed seconds the page was served with.  The fee's steps
// come from the server (scorer/money/timefee.py TimeFee.steps): no rule is copied here.
(function () {
  "use strict";
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-clock]").forEach(function (el) {
      var data;
      try { data = JSON.parse(el.getAttribute("data-clock")); } catch (e) { return; }
      if (!el.dataset.t0) el.dataset.t0 = String(now);
      var secs = data.seconds + (data.running ? Math.floor((now - Number(el.dataset.t0)) / 1000) : 0);
      var minutes = Math.floor(secs / 60);
      var time = el.querySelector(".clock-time");
      if (time) time.textContent = Math.floor(minutes / 60) + ":" + pad(minutes % 60);
      var fee = el.querySelector(".clock-fee-value");
      if (fee && data.steps && data.steps.length) {
        var value = data.steps[0][1];
        for (var i = 0; i < data.steps.length; i++) {
          if (data.steps[i][0] < secs) value = data.steps[i][1];
        }
        fee.textContent = value;  // "57.50": money with two decimals, as every page writes it
        var next = el.querySelector(".clock-next");
        if (next) {
          var said = "";
          for (var j = 0; j < data.steps.length; j++) {
            var step = data.steps[j];
            if (step[0] >= secs) {
              var m = Math.floor(step[0] / 60);
              var diff = (Number(step[1]) - Number(value)).toFixed(2);
              said = next.getAttribute("data-format")
                .replace("%(time)s", Math.floor(m / 60) + ":" + pad(m % 60))
                .replace("%(fee)s", diff);
              break;
            }
          }
          next.textContent = said;  // the next step's cost and time ("4:10 起 +7.50")
        }
      }
    });
  }
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSettle", tick);
  setInterval(tick, 1000);
})();
