"""Python client for the Payment Rescue Service (README.md): the service's token and retry rules,
typed by its OpenAPI document (payment_rescue.types), and webhook verification."""

from . import types, webhooks
from .client import VERSION, PaymentRescueClient
from .errors import PaymentRescueError, PaymentRescueNetworkError
from .retry_policy import RetryOptions
from .transport import RetryEvent
from .webhooks import WebhookVerificationError

__all__ = [
    "VERSION",
    "PaymentRescueClient",
    "PaymentRescueError",
    "PaymentRescueNetworkError",
    "RetryEvent",
    "RetryOptions",
    "WebhookVerificationError",
    "types",
    "webhooks",
]
__version__ = VERSION
