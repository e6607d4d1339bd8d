/*
 * The table page's small behaviours, as a script file: the Content-Security-Policy
 * allows no inline script and no eval (htmx's trigger filters need eval).
 *
 * - The share link: one tap selects the whole link, ready to copy.
 * - The tallies poll every 3 s only while the page is visible: a phone in a
 *   pocket does not wake the server (or its battery) for nothing.
 */
document.addEventListener("focusin", function (e) {
  if (e.target && e.target.matches && e.target.matches("[data-select-on-focus]")) e.target.select();
});

document.addEventListener("htmx:beforeRequest", function (e) {
  var elt = e.detail && e.detail.elt;
  if (elt && elt.id === "tallies" && document.visibilityState !== "visible") e.preventDefault();
});
