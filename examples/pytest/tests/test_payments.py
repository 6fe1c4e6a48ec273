"""The app against the sandbox: charges it creates are paid, transfers it sends fail or settle
later, and its webhook receiver verifies and acknowledges what the sandbox sends."""

from __future__ import annotations

import time
from collections.abc import Callable

import httpx
import pytest
from pix_sandbox import Sandbox

from app.pix_client import PixError
from app.webhooks import WebhookReceiver

from .shop import Shop


def test_a_paid_charge_credits_the_balance(shop: Shop) -> None:
    charge = shop.pix.create_charge(1000, "Pedido 1234")
    assert charge["status"] == "pending"
    assert charge["qr_code"].startswith("000201")

    paid = shop.tenant.control.charges.pay(charge["transaction_id"])  # as the payer's bank does

    assert paid["status"] == "paid"
    assert shop.tenant.control.balance() == 50_000 + 1000


def test_a_transfer_above_the_balance_fails(shop_with: Callable[[int], Shop]) -> None:
    shop = shop_with(1000)
    with pytest.raises(PixError) as refused:
        shop.pix.send_transfer(1001, "maria@example.com", "EMAIL")
    assert (refused.value.status, refused.value.detail) == (422, "Insufficient balance")
    assert shop.tenant.control.balance() == 1000  # nothing moved


def test_a_pending_transfer_that_settles_failed_is_refunded(
    shop: Shop, pix_sandbox: Sandbox, receiver: WebhookReceiver
) -> None:
    # 777, a magic amount: pending, and 30 s later failed.
    transfer = shop.pix.send_transfer(777, "maria@example.com", "EMAIL")
    assert transfer["status"] == "pending"
    assert shop.tenant.control.balance() == 50_000 - 777

    pix_sandbox.control.clock.advance(30)  # the admin's: the clock is the whole sandbox's

    tx = transfer["transaction_id"]
    assert shop.tenant.control.transfers.get(tx)["status"] == "failed"
    assert shop.tenant.control.balance() == 50_000  # refunded
    shop.tenant.control.webhooks.wait_for_delivery("transfer.failed", transaction_id=tx)
    told = [(e["type"], e["data"]["transaction_id"]) for e in receiver.events]
    assert ("transfer.failed", tx) in told


def test_a_webhook_is_verified_and_acknowledged(shop: Shop, receiver: WebhookReceiver) -> None:
    charge = shop.pix.create_charge(2500)
    tx = charge["transaction_id"]
    shop.tenant.control.charges.pay(tx)

    delivery = shop.tenant.control.webhooks.wait_for_delivery("charge.paid", transaction_id=tx)

    assert delivery["status"] == "delivered"
    assert [a["status_code"] for a in delivery["attempts"]] == [204]  # acknowledged at once
    got = [e for e in receiver.events if e["data"]["transaction_id"] == tx]
    assert [(e["type"], e["data"]["amount"]) for e in got] == [("charge.paid", 2500)]


def test_a_forged_or_badly_signed_delivery_is_refused(
    shop: Shop, receiver: WebhookReceiver
) -> None:
    refused = receiver.refused
    forged = httpx.post(
        receiver.url,
        content=b'{"type":"charge.paid","data":{"transaction_id":"x","amount":1}}',
        headers={
            "webhook-id": "evt_forged",
            "webhook-timestamp": str(int(time.time())),
            "webhook-signature": "v1,Zm9yZ2Vk",
        },
    )
    assert forged.status_code == 400
    # The sandbox can sign wrongly on purpose (chaos): the app refuses it, so it is not delivered.
    shop.tenant.control.call("PUT", f"/webhooks/{shop.webhook_id}/chaos", json={"bad_signature": 1})
    tx = shop.pix.create_charge(100)["transaction_id"]
    shop.tenant.control.charges.pay(tx)
    webhooks = shop.tenant.control.webhooks
    deadline = time.monotonic() + 10
    while not (pending := webhooks.wait_for_delivery("charge.paid", tx, "pending"))["attempts"]:
        assert time.monotonic() < deadline, "no attempt within 10 s"
        time.sleep(0.02)
    assert pending["attempts"][0]["status_code"] == 400  # retried later, on the schedule
    assert receiver.refused == refused + 2
    assert tx not in [e["data"]["transaction_id"] for e in receiver.events]
