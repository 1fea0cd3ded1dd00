"""The retry decisions and delays, without a service (the same table as the TypeScript client's)."""

import unittest
from email.utils import formatdate

from payment_rescue.retry_policy import RetryOptions, backoff_delay, decide, parse_retry_after

OPTIONS = RetryOptions()


class RetryPolicyTest(unittest.TestCase):
    def test_decisions(self):
        cases = [
            ((500, None, None, True), ("backoff", None)),
            ((502, None, None, True), ("backoff", None)),
            ((504, None, None, True), ("backoff", None)),
            ((500, None, None, False), ("no", None)),
            ((503, "503002", 1.0, True), ("no", None)),
            ((503, "503001", 2.0, False), ("retry-after", 2.0)),
            ((503, "503010", None, True), ("backoff", None)),
            ((503, "503001", 31.0, True), ("no", None)),
            ((503, None, None, True), ("no", None)),
            ((429, "429001", 1.0, False), ("retry-after", 1.0)),
            ((409, "409003", None, True), ("backoff", None)),
            ((409, "409001", None, True), ("no", None)),
            ((404, "404003", None, True), ("no", None)),
        ]
        for (status, error_id, retry_after, idempotent), expected in cases:
            with self.subTest(status=status, id=error_id):
                self.assertEqual(decide(status, error_id, retry_after, idempotent, OPTIONS), expected)

    def test_backoff_doubles_with_equal_jitter_up_to_the_ceiling(self):
        self.assertEqual([backoff_delay(n, OPTIONS, lambda: 0.0) for n in (1, 2, 3)], [0.125, 0.25, 0.5])
        self.assertEqual(backoff_delay(1, OPTIONS, lambda: 1.0), 0.25)
        self.assertEqual(backoff_delay(10, OPTIONS, lambda: 1.0), 5.0)

    def test_retry_after_in_seconds_or_as_a_date(self):
        self.assertEqual(parse_retry_after("3"), 3.0)
        self.assertAlmostEqual(parse_retry_after(formatdate(1_000_010, usegmt=True), now=1_000_000), 10.0)
        self.assertIsNone(parse_retry_after(None))
        self.assertIsNone(parse_retry_after("soon"))


if __name__ == "__main__":
    unittest.main()
