"""The webhook helper that is more than one call: waiting for a delivery (the others,
``subscribe`` and ``check``, are generated in control.py)."""

from __future__ import annotations

import time
from typing import Literal

from .control_base import HelperGroup
from .schemas import GetWebhooksDeliveriesResponse, WebhookDelivery

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


class WebhooksByHand(HelperGroup):
    """``control.webhooks``'s helpers written by hand (control.py's ``WebhookHelpers`` adds the
    generated ones)."""

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
