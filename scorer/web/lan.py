"""Where the other phones at the table can reach this server.

A table is shared by a link and a QR code.  Served on the loopback
(`make run`, 127.0.0.1) no other phone can open it; served on all interfaces
(`make run ADDR=0.0.0.0:8000`) they can, at this machine's address on the
room's Wi-Fi, which the link must then name instead of 127.0.0.1.  `make run`
tells the app where it listens (MAHJONG_LISTEN); nothing here imports Django,
so the settings can use it too.
"""

from __future__ import annotations

import ipaddress
import os
import re
import socket
from functools import lru_cache

LOOPBACK_NAMES = {"localhost", "127.0.0.1", "::1", "[::1]"}
ALL_INTERFACES = {"0.0.0.0", "::", "[::]", "0"}


def split_host(hostport: str) -> tuple[str, str]:
    """("host", "port") of "host:port", "[::1]:8000", "0.0.0.0:8000", "8000" (port only)."""
    hostport = hostport.strip()
    if hostport.startswith("["):
        host, _, rest = hostport[1:].partition("]")
        return host, rest.lstrip(":")
    if re.fullmatch(r"[0-9]+", hostport):  # a port alone (ASCII digits only)
        return "127.0.0.1", hostport
    if hostport.count(":") == 1:
        host, _, port = hostport.partition(":")
        return host, port
    return hostport, ""


def is_loopback(host: str) -> bool:
    host = host.strip("[]").lower()
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def listens_everywhere() -> bool:
    """Whether `make run` bound the server to all interfaces (ADDR=0.0.0.0:8000)."""
    host, _ = split_host(os.environ.get("MAHJONG_LISTEN", ""))
    return host in ALL_INTERFACES


@lru_cache(maxsize=1)
def lan_address() -> str | None:
    """This machine's address on its local network, or None when it has none.

    The UDP "connect" sends no packet: it only asks the kernel which interface
    would carry traffic out, and that interface's address is the one the
    room's Wi-Fi sees.
    """
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            address = str(s.getsockname()[0])
    except OSError:
        return None
    return None if is_loopback(address) or address == "0.0.0.0" else address


def banner(listen: str) -> str:
    """What `make run` prints: where to open the table, on this computer and on the phones.

    `listen` is the ADDR runserver is given ("127.0.0.1:8000", "0.0.0.0:8000").
    """
    host, port = split_host(listen)
    where = f":{port}" if port else ""
    if host in ALL_INTERFACES:
        address = lan_address()
        if address is None:
            return f"Open http://127.0.0.1{where} (no network found: other phones cannot reach it)"
        return (
            f"Open http://127.0.0.1{where} here; the phones at the table: http://{address}{where}"
        )
    if is_loopback(host):
        return (
            f"Open http://{listen} (this computer only; for the phones at the table: "
            "make run ADDR=0.0.0.0:8000)"
        )
    return f"Open http://{listen}"
