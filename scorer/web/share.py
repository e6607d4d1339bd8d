"""The link (and QR code) by which the other phones at the table open it.

Opened on the machine that serves it (127.0.0.1), the page's own address is no
use to the other phones.  When the server listens on all interfaces the link
names this machine's LAN address instead; when it listens on the loopback
only, the page says how to serve the table to the room.  `MAHJONG_PUBLIC_URL`
(a deployment behind a proxy) wins over both.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass

import qrcode
import qrcode.image.svg
from django.conf import settings
from django.http import HttpRequest

from scorer.web import lan


@dataclass(frozen=True)
class Share:
    url: str
    # The link only works on this machine: tell the host how to serve the table.
    loopback_only: bool = False


def share_link(request: HttpRequest, path: str) -> Share:
    public = getattr(settings, "PUBLIC_URL", "")
    if public:
        return Share(f"{public}{path}")
    host, port = lan.split_host(request.get_host())
    if not lan.is_loopback(host):
        return Share(request.build_absolute_uri(path))
    address = lan.lan_address() if lan.listens_everywhere() else None
    if address is None:
        return Share(request.build_absolute_uri(path), loopback_only=True)
    where = f"{address}:{port}" if port else address
    return Share(f"{request.scheme}://{where}{path}")


def qr_svg(url: str) -> bytes:
    """The link as a QR code, an SVG file (qrcode's path image: one <path>, small)."""
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    out = io.BytesIO()
    image.save(out)
    return out.getvalue()


_XML_DECLARATION = re.compile(r"^<\?xml[^>]*\?>\s*")
_FIXED_SIZE = re.compile(r' (?:width|height)="[^"]*"| id="[^"]*"')


def qr_svg_inline(url: str) -> str:
    """The same code to put inside an HTML page (a sheet of many): no XML declaration,
    no fixed size (the page's stylesheet sizes it), no id (one per page only)."""
    svg = qr_svg(url).decode()
    head, rest = _XML_DECLARATION.sub("", svg).split(">", 1)
    return _FIXED_SIZE.sub("", head) + ">" + re.sub(r' id="[^"]*"', "", rest)
