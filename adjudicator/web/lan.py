"""Joining from a phone: the address other devices on the network reach this machine at, and QR
codes of links (segno: a small, pure-Python QR encoder, kept up to date, no dependencies of its own)."""

from __future__ import annotations

import io
import socket

import segno


def lan_address() -> str:
    """This machine's address on the local network: the one its route to the outside leaves from.
    Connecting a UDP socket sends nothing; without a route, the host name's address."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never answered, only routed
            return str(probe.getsockname()[0])
        except OSError:
            return socket.gethostbyname(socket.gethostname())


def qr_svg(text: str) -> str:
    """A QR code of ``text`` as an inline SVG element, for the page."""
    return str(segno.make(text, error="m").svg_inline(scale=4, border=2, title=text))


def qr_terminal(text: str) -> str:
    """A QR code of ``text`` in text blocks, for a terminal."""
    out = io.StringIO()
    segno.make(text, error="m").terminal(out=out, compact=True)
    return out.getvalue()
