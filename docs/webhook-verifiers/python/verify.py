import base64
import hashlib
import hmac
import sys
import time
from email.utils import parsedate_to_datetime


def verify_webhook(body, headers, secret_base64, host, tolerance_seconds=300, now=None):
    """True when a webhook is authentic, unmodified and fresh.

    body: the raw request body (bytes, before any JSON parsing); headers: lower-case names;
    secret_base64: the endpoint's signing secret; host: your endpoint's host (with its port when
    not 443); tolerance_seconds: how far x-fc-date may be from now (0 disables); now: Unix seconds.
    """
    nonce = headers.get("x-fc-nonce", "")
    date = headers.get("x-fc-date", "")
    authorization = headers.get("x-fc-authorization", "")
    if not nonce or not date or "&Signature=" not in authorization:
        return False
    if tolerance_seconds > 0:
        try:
            sent = parsedate_to_datetime(date).timestamp()
        except (TypeError, ValueError):
            return False
        if abs((time.time() if now is None else now) - sent) > tolerance_seconds:
            return False

    key = base64.b64decode(secret_base64)
    content_hash = base64.b64encode(hashlib.sha512(body).digest()).decode()
    to_sign = f"POST\n{nonce};{date};{host};{content_hash}".encode()
    signature = base64.b64encode(hmac.new(key, to_sign, hashlib.sha512).digest()).decode()
    body_signature = base64.b64encode(hmac.new(key, body, hashlib.sha512).digest()).decode()
    return (
        _equal(content_hash, headers.get("x-fc-content-sha512", ""))
        and _equal(signature, authorization.split("&Signature=", 1)[1])
        and _equal(body_signature, headers.get("x-fc-signature", ""))
    )


def _equal(expected, given):
    """Constant-time comparison of two strings."""
    return hmac.compare_digest(expected.encode(), given.encode())


# Test harness: python3 verify.py secret=… host=… [tolerance=300] [now=<Unix seconds>] x-fc-…=… < body
if __name__ == "__main__":
    args = dict(arg.split("=", 1) for arg in sys.argv[1:])
    body = sys.stdin.buffer.read()
    now = float(args["now"]) if "now" in args else None
    ok = verify_webhook(body, args, args["secret"], args["host"], int(args.get("tolerance", 300)), now)
    print("ok" if ok else "fail")
