"""No server-side request forgery: where a webhook may be sent, and sending it there.

A URL is resolved and every address it resolves to is checked: loopback, private,
link-local (which holds the cloud metadata address 169.254.169.254), shared, multicast,
reserved and unspecified addresses are refused, as are the IPv6 forms that embed them.
``FB_WEBHOOK_ALLOW_LOOPBACK`` lets loopback through, for development and tests only.

``post`` connects to the very address that was checked (no second DNS lookup an attacker
could answer differently), with a timeout on connecting and on the whole exchange, never
follows a redirect (a 3xx is a failed attempt), and reads at most a small part of the
response body.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
SHARED = ipaddress.ip_network("100.64.0.0/10")  # carrier-grade NAT
METADATA = {ipaddress.ip_address("169.254.169.254"), ipaddress.ip_address("fd00:ec2::254")}


class UrlRefused(Exception):  # noqa: N818 - names a fact
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    path: str  # with the query
    address: str  # the checked address to connect to


def _plain(address: IPAddress) -> IPAddress:
    """The IPv4 address an IPv6 form carries (mapped, 6to4, NAT64 well-known prefix)."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return address.ipv4_mapped
        if address.sixtofour is not None:
            return address.sixtofour
        if address in ipaddress.ip_network("64:ff9b::/96"):
            return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return address


def address_refusal(address: IPAddress, *, allow_loopback: bool) -> str | None:
    """Why ``address`` may not be called, or None."""
    plain = _plain(address)
    if plain in METADATA or address in METADATA:
        return "a cloud metadata address"
    if plain.is_loopback:
        return None if allow_loopback else "a loopback address"
    if plain.is_link_local:
        return "a link-local address"
    if plain.is_private or plain in SHARED:
        return "a private address"
    if plain.is_multicast or plain.is_reserved or plain.is_unspecified:
        return "a reserved address"
    if not plain.is_global:
        return "a non-public address"
    return None


def check(url: str) -> Target:
    """Resolve ``url`` and check every address; the first one is the one to use."""
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in url.strip()):
        raise UrlRefused("control characters in the URL")  # (NUL: nothing could store it)
    try:
        parts = urlsplit(url.strip())
        parts.port  # noqa: B018 - raises on a malformed port
    except ValueError:
        raise UrlRefused("a malformed URL") from None
    if parts.scheme not in ("http", "https"):
        raise UrlRefused("only http and https URLs")
    if parts.username or parts.password:
        raise UrlRefused("no credentials in the URL")
    host = parts.hostname
    if not host:
        raise UrlRefused("no host")
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError, ValueError):
        raise UrlRefused(f"the host {host} does not resolve") from None
    addresses = [ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]) for info in infos]
    if not addresses:
        raise UrlRefused(f"the host {host} does not resolve")
    allow = bool(settings.FB_WEBHOOK_ALLOW_LOOPBACK)
    for address in addresses:
        reason = address_refusal(address, allow_loopback=allow)
        if reason is not None:
            raise UrlRefused(f"{host} resolves to {reason} ({address})")
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return Target(parts.scheme, host, port, path, str(addresses[0]))


@dataclass(frozen=True)
class Response:
    status: int
    body: str  # at most FB_WEBHOOK_MAX_RESPONSE_BYTES, decoded leniently


class _Pinned(http.client.HTTPConnection):
    def __init__(self, target: Target, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout)
        self.address = target.address

    def connect(self) -> None:
        self.sock = socket.create_connection((self.address, self.port), self.timeout)


class _PinnedTLS(http.client.HTTPSConnection):
    def __init__(self, target: Target, timeout: float) -> None:
        self.tls = ssl.create_default_context()  # certificates and host names checked
        super().__init__(target.host, target.port, timeout=timeout, context=self.tls)
        self.address = target.address

    def connect(self) -> None:
        sock = socket.create_connection((self.address, self.port), self.timeout)
        self.sock = self.tls.wrap_socket(sock, server_hostname=self.host)


def post(url: str, body: bytes, headers: dict[str, str]) -> Response:
    """POST ``body`` to ``url`` after checking it. Raises ``UrlRefused``, ``OSError``
    (connection, timeout) or ``http.client.HTTPException``."""
    target = check(url)
    timeout = float(settings.FB_WEBHOOK_TIMEOUT_SECONDS)
    deadline = time.monotonic() + timeout
    conn_class = _PinnedTLS if target.scheme == "https" else _Pinned
    conn = conn_class(target, timeout)
    try:
        conn.request(
            "POST",
            target.path,
            body=body,
            headers={
                **headers,
                "Content-Type": "application/json",
                "User-Agent": "fbservice-webhooks/1",
            },
        )
        response = conn.getresponse()
        limit = int(settings.FB_WEBHOOK_MAX_RESPONSE_BYTES)
        chunks: list[bytes] = []
        size = 0
        while size < limit:
            if time.monotonic() > deadline:
                raise TimeoutError("the response took too long")
            chunk = response.read1(limit - size) if hasattr(response, "read1") else b""
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return Response(response.status, b"".join(chunks).decode("utf-8", "replace"))
    except ssl.SSLError as exc:
        raise OSError(f"TLS: {exc}") from exc
    finally:
        conn.close()
