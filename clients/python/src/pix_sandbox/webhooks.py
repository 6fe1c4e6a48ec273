"""The webhook helpers: subscribe, wait for a delivery, check a receiver."""

from __future__ import annotations

import time
from typing import Literal

from .schemas import (
    GetWebhooksDeliveriesResponse,
    NewWebhook,
    ReceiverCheck,
    Webhook,
    WebhookDelivery,
)
from .transport import Caller, segment

WebhookEvent = Literal[
    "charge.paid", "charge.cancelled", "transfer.succeeded", "transfer.failed", "transfer.pending"
]
DeliveryStatus = Literal["pending", "delivered", "failed"]


def transaction_of(delivery: WebhookDelivery) -> object:
    """The charge or transfer a delivery tells of: a standard body's ``data.transaction_id``,
    a bcb body's first ``pix[].txid``."""
    body = delivery.get("body")
    if not isinstance(body, dict):
        return None
    data = body.get("data")
    if isinstance(data, dict) and "transaction_id" in data:
        return data["transaction_id"]
    pix = body.get("pix")
    if isinstance(pix, list) and pix and isinstance(pix[0], dict):
        return pix[0].get("txid")
    return None


class WebhookHelpers:
    def __init__(self, control: Caller) -> None:
        self._control = control

    def subscribe(
        self,
        url: str,
        events: list[WebhookEvent] | None = None,
        *,
        format: Literal["standard", "bcb"] | None = None,
        secret: str | None = None,
        company_id: str | None = None,
    ) -> Webhook:
        """Subscribes ``url`` to ``events`` (default: every event) and answers the subscription
        with its ``secret``. A company's subscription gets its own events; the admin's, every
        company's unless ``company_id`` names one."""
        body: NewWebhook = {"url": url}
        if events is not None:
            body["events"] = events
        if format is not None:
            body["format"] = format
        if secret is not None:
            body["secret"] = secret
        if company_id is not None:
            body["company_id"] = company_id
        result: Webhook = self._control.call(
            "POST", "/webhooks", json=body, what=f"subscribe {url}"
        )
        return result

    def wait_for_delivery(
        self,
        event: str | None = None,
        transaction_id: str | None = None,
        status: DeliveryStatus | None = None,
        timeout: float = 10,
    ) -> WebhookDelivery:
        """The first delivery of ``event`` (any, if None) for ``transaction_id`` (any, if None)
        in ``status`` (default ``delivered``), polling until ``timeout`` seconds have passed."""
        wanted: DeliveryStatus = status or "delivered"
        deadline = time.monotonic() + timeout
        while True:
            page: GetWebhooksDeliveriesResponse = self._control.call(
                "GET",
                "/webhooks/deliveries",
                params={"status": wanted, "limit": 500},
                what="deliveries",
            )
            for delivery in page["data"]:
                if event is not None and delivery["event_type"] != event:
                    continue
                if transaction_id is not None and transaction_of(delivery) != transaction_id:
                    continue
                return delivery
            if time.monotonic() > deadline:
                what = f"{event or 'any event'}" + (
                    f" for {transaction_id}" if transaction_id else ""
                )
                raise TimeoutError(f"no {wanted} delivery of {what} within {timeout:g} s")
            time.sleep(0.02)

    def check(self, webhook_id: str) -> ReceiverCheck:
        """Sends the receiver check's battery to a standard-format subscription's receiver:
        valid, duplicate, bad signature, stale timestamp, unknown type (docs/READINESS.md,
        "The receiver check")."""
        result: ReceiverCheck = self._control.call(
            "POST", f"/webhooks/{segment(webhook_id)}/check", what=f"check {webhook_id}"
        )
        return result
