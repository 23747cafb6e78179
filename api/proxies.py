"""Who the client is: decided once per request, here, from the connection's peer address
and ``TRUSTED_PROXIES`` (none by default).

The servers pass the peer address through as they got it: uvicorn's proxy headers are off
wherever this project starts it (``fbservice.server.UvicornWorker`` for gunicorn,
``fbservice/devserver.py`` for ``make run``). ``ProxyHeadersMiddleware`` comes first in
both middleware chains (``settings.MIDDLEWARE`` and the feed's), so by the time anything
reads the request:

- from a trusted proxy, ``REMOTE_ADDR`` is the client it forwarded for: the nearest address
  in ``X-Forwarded-For`` that is not a trusted proxy (each proxy appends the address it
  got the request from, so the right end is what a trusted proxy wrote and the left end is
  whatever the client sent), and ``X-Forwarded-Proto`` stands (Django's
  ``SECURE_PROXY_SSL_HEADER`` reads it);
- from any other peer, both headers are removed: a client cannot choose the address its
  rate limits and audit records count against, nor make plain HTTP pass for HTTPS.

The peer itself stays in ``FB_PEER_ADDR``.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest
from django.utils.deprecation import MiddlewareMixin
from rest_framework.request import Request

PEER = "FB_PEER_ADDR"
FORWARDED_HEADERS = ("HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_PROTO")


def trusted(address: str) -> bool:
    """Whether ``address`` is one of the configured proxies."""
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)  # ::ffff:10.0.0.5 from a dual-stack socket
    return any(
        ip in net or (mapped is not None and mapped in net) for net in settings.TRUSTED_PROXIES
    )


def forwarded_client(peer: str, forwarded_for: str) -> str:
    """The client a trusted ``peer`` forwarded for: the nearest hop of ``forwarded_for``
    that is not a trusted proxy (the peer itself if every hop is one, or there is none)."""
    hops = [hop.strip() for hop in forwarded_for.split(",")]
    for hop in reversed([hop for hop in hops if hop]):
        if not trusted(hop):
            return hop
    return peer


def resolve(meta: dict[str, object]) -> None:
    """Set ``REMOTE_ADDR`` to the client and drop the forwarding headers no trusted proxy
    wrote. Once per request: the peer is kept in ``FB_PEER_ADDR``."""
    if PEER in meta:
        return
    peer = str(meta.get("REMOTE_ADDR") or "")
    meta[PEER] = peer
    if settings.TRUSTED_PROXIES and trusted(peer):
        meta["REMOTE_ADDR"] = forwarded_client(peer, str(meta.get("HTTP_X_FORWARDED_FOR", "")))
    else:
        for name in FORWARDED_HEADERS:
            meta.pop(name, None)


def client_address(request: Request | HttpRequest) -> str:
    """The client's address, as ``ProxyHeadersMiddleware`` decided it (a request that
    never went through it, built by hand, counts as its peer)."""
    return str(request.META.get("REMOTE_ADDR") or "")


class ProxyHeadersMiddleware(MiddlewareMixin):
    """First in the chain: the one place X-Forwarded-For and -Proto are believed or not."""

    def process_request(self, request: HttpRequest) -> None:
        resolve(request.META)
