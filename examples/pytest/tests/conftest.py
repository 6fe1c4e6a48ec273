"""A shop per test: a fresh company (the pix_tenant_factory fixture of pix-sandbox), the app's
PIX client on its credentials, and its webhooks subscribed to the app's receiver."""

from __future__ import annotations

import base64
import secrets
from collections.abc import Callable, Iterator

import pytest
from pix_sandbox import TenantFactory

from app.pix_client import PixClient
from app.webhooks import WebhookReceiver

from .shop import Shop

# In real life the app's configuration; here, a new one per run.
WEBHOOK_SECRET = "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode()


@pytest.fixture(scope="session")
def receiver() -> Iterator[WebhookReceiver]:
    with WebhookReceiver(WEBHOOK_SECRET) as running:
        yield running


@pytest.fixture
def shop_with(
    pix_tenant_factory: TenantFactory, receiver: WebhookReceiver
) -> Iterator[Callable[[int], Shop]]:
    clients: list[PixClient] = []

    def make(balance: int) -> Shop:
        tenant = pix_tenant_factory(balance=balance)
        hook = tenant.control.webhooks.subscribe(receiver.url, secret=WEBHOOK_SECRET)
        clients.append(PixClient(tenant.base_url, tenant.client_id, tenant.client_secret))
        return Shop(tenant, clients[-1], hook["id"])

    yield make
    for client in clients:
        client.close()


@pytest.fixture
def shop(shop_with: Callable[[int], Shop]) -> Shop:
    return shop_with(50_000)
