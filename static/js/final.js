// "Save as a picture": the final page's SVG drawn onto a canvas and shared (or
// downloaded) as a PNG, a picture a chat app takes.  Drawn on the phone, whose
// fonts have the players' names; without script the link opens the picture's page
// (data-svg: the SVG itself, where the link is that page).
(function () {
  "use strict";
  function toPng(link) {
    return fetch(link.getAttribute("data-svg") || link.href, { credentials: "same-origin" })
      .then(function (r) { return r.text(); })
      .then(function (svg) {
        return new Promise(function (resolve, reject) {
          var img = new Image();
          img.onload = function () {
            var canvas = document.createElement("canvas");
            canvas.width = img.naturalWidth || 1080;
            canvas.height = img.naturalHeight || 1350;
            canvas.getContext("2d").drawImage(img, 0, 0);
            canvas.toBlob(function (blob) { return blob ? resolve(blob) : reject(new Error("no PNG")); }, "image/png");
          };
          img.onerror = reject;
          img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg);
        });
      });
  }
  window.mahjongFinalPng = toPng;
  document.addEventListener("click", function (e) {
    var link = e.target.closest && e.target.closest("[data-png-from-svg]");
    if (!link) return;
    e.preventDefault();
    toPng(link).then(function (blob) {
      var name = link.getAttribute("data-filename") || "mahjong.png";
      var file = new File([blob], name, { type: "image/png" });
      if (navigator.canShare && navigator.canShare({ files: [file] })) {
        return navigator.share({ files: [file] });
      }
      var a = document.createElement("a");
      a.href = URL.createObjectURL(blob);
      a.download = name;
      document.body.appendChild(a);
      a.click();
      a.remove();
    }).catch(function () { window.location.href = link.href; });
  });
})();
