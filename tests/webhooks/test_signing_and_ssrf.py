"""Signatures (Standard Webhooks) and the SSRF guard: no database, no network beyond
resolving names that are IP literals or localhost."""

from __future__ import annotations

import base64
import hashlib
import hmac
import ipaddress

import pytest

from webhooks import signing, ssrf

BODY = b'{"id":"msg_1","type":"turn.started"}'


def test_the_signature_is_hmac_sha256_of_id_timestamp_body_with_the_decoded_secret() -> None:
    secret = signing.new_secret()
    assert secret.startswith("whsec_")
    headers = signing.headers([secret], "msg_1", BODY, timestamp=1_700_000_000)
    key = base64.b64decode(secret.removeprefix("whsec_"))
    mac = hmac.new(key, b"msg_1.1700000000." + BODY, hashlib.sha256).digest()
    assert headers == {
        "webhook-id": "msg_1",
        "webhook-timestamp": "1700000000",
        "webhook-signature": "v1," + base64.b64encode(mac).decode(),
    }
    signing.verify(secret, headers, BODY, now=1_700_000_010)


def test_verify_refuses_a_changed_body_another_secret_or_an_old_timestamp() -> None:
    secret, other = signing.new_secret(), signing.new_secret()
    headers = signing.headers([secret], "msg_1", BODY, timestamp=1_700_000_000)
    with pytest.raises(signing.InvalidSignature):
        signing.verify(secret, headers, BODY + b" ", now=1_700_000_000)
    with pytest.raises(signing.InvalidSignature):
        signing.verify(other, headers, BODY, now=1_700_000_000)
    with pytest.raises(signing.InvalidSignature):
        signing.verify(secret, headers, BODY, now=1_700_000_000 + 301)
    with pytest.raises(signing.InvalidSignature):
        signing.verify(secret, {"webhook-id": "msg_1"}, BODY)


def test_during_a_rotation_both_secrets_sign() -> None:
    new, old = signing.new_secret(), signing.new_secret()
    headers = signing.headers([new, old], "msg_2", BODY, timestamp=1_700_000_000)
    assert len(headers["webhook-signature"].split(" ")) == 2
    signing.verify(new, headers, BODY, now=1_700_000_000)
    signing.verify(old, headers, BODY, now=1_700_000_000)


@pytest.mark.parametrize(
    ("address", "refused"),
    [
        ("127.0.0.1", "loopback"),
        ("::1", "loopback"),
        ("10.1.2.3", "private"),
        ("172.16.0.1", "private"),
        ("192.168.1.1", "private"),
        ("100.64.0.1", "private"),
        ("169.254.169.254", "metadata"),
        ("169.254.10.10", "link-local"),
        ("fe80::1", "link-local"),
        ("fc00::1", "private"),
        ("fd00:ec2::254", "metadata"),
        ("::ffff:127.0.0.1", "loopback"),
        ("::ffff:10.0.0.1", "private"),
        ("::ffff:169.254.169.254", "metadata"),
        ("64:ff9b::a00:1", "private"),
        ("2002:a00:1::", "private"),
        ("0.0.0.0", "address"),  # noqa: S104 - an address refused, not bound
        ("224.0.0.1", "reserved"),
        ("240.0.0.1", "address"),
        ("93.184.216.34", None),
        ("2606:4700::1111", None),
    ],
)
def test_address_refusals(address: str, refused: str | None) -> None:
    reason = ssrf.address_refusal(ipaddress.ip_address(address), allow_loopback=False)
    if refused is None:
        assert reason is None
    else:
        assert reason is not None and refused in reason


def test_loopback_only_when_allowed() -> None:
    loopback = ipaddress.ip_address("127.0.0.1")
    assert ssrf.address_refusal(loopback, allow_loopback=True) is None
    private = ipaddress.ip_address("10.0.0.1")
    assert ssrf.address_refusal(private, allow_loopback=True) is not None
    metadata = ipaddress.ip_address("169.254.169.254")
    assert ssrf.address_refusal(metadata, allow_loopback=True) is not None


@pytest.mark.parametrize(
    "url",
    [
        "http://localhost/x",
        "http://127.0.0.1:8000/x",
        "http://[::1]/x",
        "http://10.0.0.5/x",
        "http://169.254.169.254/latest/meta-data/",
        "http://0x7f000001/x",
        "http://2130706433/x",
        "ftp://93.184.216.34/x",
        "http://user:pw@93.184.216.34/x",
        "http://no-such-host.invalid/x",
    ],
)
def test_check_resolves_then_refuses(url: str, settings) -> None:
    settings.FB_WEBHOOK_ALLOW_LOOPBACK = False
    with pytest.raises(ssrf.UrlRefused):
        ssrf.check(url)


def test_check_accepts_a_public_address_and_pins_it(settings) -> None:
    settings.FB_WEBHOOK_ALLOW_LOOPBACK = False
    target = ssrf.check("https://93.184.216.34:8443/hooks?a=1")
    assert (target.scheme, target.port, target.path, target.address) == (
        "https",
        8443,
        "/hooks?a=1",
        "93.184.216.34",
    )
    settings.FB_WEBHOOK_ALLOW_LOOPBACK = True
    assert ssrf.check("http://localhost:9/x").address in ("127.0.0.1", "::1")
