"""webhooks.verify / parse on the vendor's published signed delivery (test/helpers/vendor-webhook-vector.ts).

The vector comes as JSON in PR_VENDOR_VECTOR (the jest runner passes it), so the one copy stays there.
"""

import base64
import json
import os
import unittest

from payment_rescue import WebhookVerificationError, webhooks


def load_vector():
    if "PR_VENDOR_VECTOR" not in os.environ:
        raise unittest.SkipTest("PR_VENDOR_VECTOR is not set (test/client/python-client.test.ts sets it)")
    return json.loads(os.environ["PR_VENDOR_VECTOR"])


class VendorVectorTest(unittest.TestCase):
    def setUp(self):
        v = load_vector()
        self.sent_at = v["sentAtSeconds"]
        self.args = dict(body=v["payload"], headers=v["headers"], secrets=v["secretBase64"], host=v["host"], now=self.sent_at)

    def test_accepts_the_published_delivery_and_returns_its_envelope(self):
        self.assertTrue(webhooks.verify(**self.args))
        envelope = webhooks.parse(**self.args)
        self.assertEqual(envelope["Event"], "order.completed")
        self.assertEqual(envelope["OrderId"], "ac9674ed-cbfe-49aa-bc8b-eb1d2b74c429")

    def test_rotation_any_header_case_and_bytes(self):
        other = base64.b64encode(bytes([7] * 64)).decode()
        self.assertTrue(webhooks.verify(**{**self.args, "secrets": [other, self.args["secrets"]]}))
        self.assertFalse(webhooks.verify(**{**self.args, "secrets": [other]}))
        upper = {k.upper(): v for k, v in self.args["headers"].items()}
        self.assertTrue(webhooks.verify(**{**self.args, "headers": upper}))
        self.assertTrue(webhooks.verify(**{**self.args, "body": self.args["body"].encode()}))

    def test_rejections_with_their_reason(self):
        headers = self.args["headers"]
        cases = [
            ({"body": self.args["body"].replace('"IsTestMode":true', '"IsTestMode":false')}, "content-hash"),
            ({"host": "attacker.example"}, "signature"),
            ({"now": self.sent_at + 301}, "stale"),
            ({"now": self.sent_at - 301}, "stale"),
            ({"headers": {**headers, "x-fc-signature": ""}}, "missing-headers"),
            ({"headers": {**headers, "x-fc-signature": headers["x-fc-content-sha512"]}}, "signature"),
        ]
        for change, reason in cases:
            with self.subTest(reason=reason, change=list(change)):
                bad = {**self.args, **change}
                self.assertFalse(webhooks.verify(**bad))
                with self.assertRaises(WebhookVerificationError) as raised:
                    webhooks.parse(**bad)
                self.assertEqual(raised.exception.reason, reason)

    def test_a_wider_tolerance_when_told_and_no_parsed_json(self):
        later = self.sent_at + 600
        self.assertFalse(webhooks.verify(**{**self.args, "now": later}))
        self.assertTrue(webhooks.verify(**{**self.args, "now": later, "tolerance": 660}))
        with self.assertRaises(TypeError):
            webhooks.verify(**{**self.args, "body": json.loads(self.args["body"])})


if __name__ == "__main__":
    unittest.main()
