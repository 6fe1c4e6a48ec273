"""What each test gets: a company of its own, the app's client on its credentials, and the id
of its webhook subscription to the app's receiver."""

from __future__ import annotations

from dataclasses import dataclass

from pix_sandbox import Tenant

from app.pix_client import PixClient


@dataclass
class Shop:
    tenant: Tenant
    pix: PixClient
    webhook_id: str
