"""The client against a running service, directly and through test/client/scripted-proxy.ts.

Environment (test/client/python-client.test.ts sets it): PR_BASE_URL, PR_PROXY_URL,
PR_CLIENT_ID, PR_CLIENT_SECRET, PR_TLS_CERT and PR_TLS_KEY (the run's certificate, for the
webhook receiver), PR_REPORT (a JSON file: externalOrderIds and how many orders each must have,
checked in the database afterwards).
"""

import json
import os
import ssl
import threading
import time
import unittest
import urllib.parse
import urllib.request
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from payment_rescue import PaymentRescueClient, PaymentRescueError, RetryOptions, webhooks

APPROVES = "4111111111111111"
UNAVAILABLE = "4000000000000119"  # the sandbox's processor-unavailable card: 503002
EXPECTED_ORDERS = {}  # externalOrderId -> orders the database must hold


def setUpModule():
    if "PR_BASE_URL" not in os.environ:
        raise unittest.SkipTest("PR_BASE_URL is not set: run through test/client/python-client.test.ts")


def tearDownModule():
    if os.environ.get("PR_REPORT"):
        with open(os.environ["PR_REPORT"], "w") as report:
            json.dump(EXPECTED_ORDERS, report)


def declined(card=APPROVES):
    return {
        "externalOrderId": f"python-{uuid.uuid4()}",
        "transaction": {"amount": 2500, "currency": "USD", "responseCode": "51"},
        "paymentMethod": {"cardNumber": card, "expiryMonth": 12, "expiryYear": 2030},
    }


class Proxy:
    """The scripted proxy's HTTP controls."""

    def __init__(self, url):
        self.url = url

    def script(self, method, path, script):
        body = json.dumps({"method": method, "path": path, "script": script}).encode()
        request = urllib.request.Request(f"{self.url}/__proxy/scripts", body, {"content-type": "application/json"})
        urllib.request.urlopen(request).close()

    def seen(self, method, path):
        query = urllib.parse.urlencode({"method": method, "path": path})
        with urllib.request.urlopen(f"{self.url}/__proxy/seen?{query}") as answer:
            return json.load(answer)


def keys(requests):
    return [json.loads(r["body"])["idempotencyKey"] for r in requests]


class AgainstTheStackTest(unittest.TestCase):
    def setUp(self):
        self.retries = []
        self.proxy = Proxy(os.environ["PR_PROXY_URL"])

    def client(self, base_url=None):
        return PaymentRescueClient(
            base_url or os.environ["PR_BASE_URL"],
            os.environ["PR_CLIENT_ID"],
            os.environ["PR_CLIENT_SECRET"],
            retry=RetryOptions(base_delay=0.02),
            on_retry=self.retries.append,
        )

    def test_evaluates_reads_and_refunds(self):
        client = self.client()
        request = declined()
        answer = client.evaluate(request)
        EXPECTED_ORDERS[request["externalOrderId"]] = 1
        self.assertEqual((answer["outcome"], answer["orderStatusName"]), ("APPROVED", "Completed"))
        self.assertEqual(client.orders.get(answer["orderId"])["statusName"], "SUCCESS")
        refund = client.orders.refund(answer["orderId"])
        self.assertEqual((refund["status"], refund["refundedAmount"]), ("APPROVED", 2500))
        self.assertEqual(self.retries, [])

    def test_a_401_gets_one_new_token_and_one_more_try(self):
        client = self.client(self.proxy.url)
        client.webhook_endpoints.list()  # a token, cached
        tokens_before = len(self.proxy.seen("POST", "/v1/oauth2/token"))
        refused = {"error": {"id": "401003", "name": "token_expired", "message": "expired", "requestId": "proxy"}}
        self.proxy.script("GET", "/v1/webhooks", {"kind": "answer", "status": 401, "body": refused})
        self.assertIn("data", client.webhook_endpoints.list())
        self.assertEqual(len(self.proxy.seen("POST", "/v1/oauth2/token")), tokens_before + 1)
        self.assertEqual([(r.reason, r.status, r.id) for r in self.retries], [("token-refresh", 401, "401003")])

        # Refused again after the refresh: raised, one refresh, no loop.
        self.retries.clear()
        for _ in range(2):
            self.proxy.script("GET", "/v1/webhooks", {"kind": "answer", "status": 401, "body": refused})
        with self.assertRaises(PaymentRescueError) as raised:
            client.webhook_endpoints.list()
        self.assertEqual((raised.exception.status, raised.exception.id), (401, "401003"))
        self.assertEqual([r.reason for r in self.retries], ["token-refresh"])
        self.assertEqual(len(self.proxy.seen("POST", "/v1/oauth2/token")), tokens_before + 2)

    def test_waits_retry_after_on_503001_and_retries_with_the_same_key(self):
        client = self.client(self.proxy.url)
        store_down = {"error": {"id": "503001", "name": "idempotency_store_unavailable", "message": "down", "requestId": "p"}}
        self.proxy.script("POST", "/v1/evaluate", {"kind": "answer", "status": 503, "headers": {"retry-after": "1"}, "body": store_down})
        request = declined()
        answer = client.evaluate(request)
        EXPECTED_ORDERS[request["externalOrderId"]] = 1
        self.assertEqual(answer["outcome"], "APPROVED")
        refused, retried = self.proxy.seen("POST", "/v1/evaluate")[-2:]
        self.assertEqual((refused["status"], refused["forwarded"], retried["status"]), (503, False, 200))
        self.assertEqual(len(set(keys([refused, retried]))), 1)
        # Retry-After is a lower bound on the wait.
        self.assertGreaterEqual(retried["receivedAt"] - refused["answeredAt"], 990)
        self.assertEqual([(r.reason, r.delay, r.id) for r in self.retries], [("retry-after", 1.0, "503001")])

    def test_retries_a_lost_502_answer_with_the_same_key_one_order(self):
        client = self.client(self.proxy.url)
        self.proxy.script("POST", "/v1/evaluate", {"kind": "lose-answer", "status": 502})
        request = declined()
        answer = client.evaluate(request)
        EXPECTED_ORDERS[request["externalOrderId"]] = 1
        lost, retried = self.proxy.seen("POST", "/v1/evaluate")[-2:]
        self.assertEqual((lost["status"], lost["forwarded"], retried["status"]), (502, True, 200))
        self.assertEqual(len(set(keys([lost, retried]))), 1)
        self.assertEqual(answer["outcome"], "APPROVED")
        self.assertEqual([(r.reason, r.status, r.idempotency_key) for r in self.retries], [("backoff", 502, keys([lost])[0])])

    def test_gives_up_after_3_attempts_on_5xx_with_one_key(self):
        client = self.client(self.proxy.url)
        for status in (500, 504, 502):
            self.proxy.script("POST", "/v1/evaluate", {"kind": "answer", "status": status})
        request = declined()
        with self.assertRaises(PaymentRescueError) as raised:
            client.evaluate(request)
        EXPECTED_ORDERS[request["externalOrderId"]] = 0
        error = raised.exception
        self.assertEqual((error.status, error.attempts, error.outcome_unknown), (502, 3, True))
        self.assertFalse(error.fall_back_to_original_decline)
        attempts = self.proxy.seen("POST", "/v1/evaluate")[-3:]
        self.assertEqual([a["status"] for a in attempts], [500, 504, 502])
        self.assertEqual(set(keys(attempts)), {error.idempotency_key})

    def test_never_retries_503002(self):
        client = self.client(self.proxy.url)
        before = len(self.proxy.seen("POST", "/v1/evaluate"))
        with self.assertRaises(PaymentRescueError) as raised:
            client.evaluate(declined(UNAVAILABLE))
        error = raised.exception
        self.assertEqual((error.status, error.id, error.code, error.attempts), (503, "503002", "rescue_unavailable", 1))
        self.assertTrue(error.fall_back_to_original_decline)
        self.assertTrue(error.request_id)
        self.assertEqual(len(self.proxy.seen("POST", "/v1/evaluate")), before + 1)
        self.assertEqual(self.retries, [])

    def test_a_4xx_carries_its_id_and_is_not_retried(self):
        with self.assertRaises(PaymentRescueError) as raised:
            self.client().orders.get(str(uuid.uuid4()))
        self.assertEqual((raised.exception.status, raised.exception.id, raised.exception.attempts), (404, "404003", 1))

    def test_verifies_a_live_delivery_with_rotated_secrets(self):
        receiver = Receiver()
        try:
            client = self.client()
            endpoint = client.webhook_endpoints.create({"url": receiver.url, "events": ["order.completed"]})
            answer = client.evaluate(declined())
            delivery = receiver.wait_for(lambda body: json.loads(body).get("OrderId") == answer["orderId"])
            body, headers = delivery
            args = dict(body=body, headers=headers, host=receiver.host)
            self.assertTrue(webhooks.verify(**args, secrets=endpoint["secret"]))
            envelope = webhooks.parse(**args, secrets=endpoint["secret"])
            self.assertEqual((envelope["Event"], envelope["OrderId"]), ("order.completed", answer["orderId"]))
            rotated = client.webhook_endpoints.rotate_secret(endpoint["id"])
            self.assertTrue(webhooks.verify(**args, secrets=[rotated["secret"], endpoint["secret"]]))
            self.assertFalse(webhooks.verify(**args, secrets=[rotated["secret"]]))
            tampered = body.replace(answer["orderId"].encode(), str(uuid.uuid4()).encode())
            self.assertFalse(webhooks.verify(**{**args, "body": tampered}, secrets=endpoint["secret"]))
        finally:
            receiver.stop()


class Receiver:
    """A merchant's HTTPS webhook receiver on 127.0.0.1, with the run's certificate; answers 200."""

    def __init__(self):
        received = self.received = []
        arrived = self.arrived = threading.Condition()

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                with arrived:
                    received.append((body, {k.lower(): v for k, v in self.headers.items()}))
                    arrived.notify_all()
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(os.environ["PR_TLS_CERT"], os.environ["PR_TLS_KEY"])
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.host = f"127.0.0.1:{self.server.server_address[1]}"
        self.url = f"https://{self.host}/hooks"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def wait_for(self, matches, timeout=30.0):
        """The first delivery whose body matches, waiting on arrivals (not a fixed sleep)."""
        deadline = time.monotonic() + timeout
        with self.arrived:
            while True:
                found = next((d for d in self.received if matches(d[0])), None)
                if found or time.monotonic() >= deadline:
                    break
                self.arrived.wait(deadline - time.monotonic())
        if found is None:
            raise AssertionError(f"no matching delivery within {timeout} s ({len(self.received)} received)")
        return found

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


if __name__ == "__main__":
    unittest.main()
