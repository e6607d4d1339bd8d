// The QR sheet's "Print" button (no inline script: the site's CSP allows none).
document.querySelectorAll("[data-print]").forEach(function (button) {
  button.addEventListener("click", function () { window.print(); });
});
