// "← 返回" on a page reached from a table's page (a fan's meaning, opened from a
// round): back to where the player came from, as the phone's own back does; without
// script, or opened from elsewhere (a shared link), the link's own address.
(function () {
  "use strict";
  document.addEventListener("click", function (e) {
    var link = e.target.closest && e.target.closest("[data-back]");
    if (!link || !document.referrer) return;
    var from;
    try { from = new URL(document.referrer); } catch (err) { return; }
    if (from.origin !== window.location.origin || window.history.length < 2) return;
    e.preventDefault();
    window.history.back();
  });
})();
