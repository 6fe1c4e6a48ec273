"""Every control helper against a real sandbox, through a tenant's control (its own company) or
the admin's, as a test suite would use them."""

from __future__ import annotations

import httpx
import pytest

from pix_sandbox import DEFAULT_CREDENTIALS, Sandbox, Tenant, TenantFactory

from .support import Receiver, charge, transfer


def test_health_answers_the_version_and_the_scenario(pix_sandbox: Sandbox) -> None:
    health = pix_sandbox.control.health()
    assert health["status"] == "ok"
    assert health["scenario"] == "default"
    assert health["environment"] == "sandbox"


def test_a_tenant_is_a_company_of_its_own_that_httpx_authenticates_either_way(
    pix_sandbox: Sandbox,
) -> None:
    shop = pix_sandbox.tenant(balance=2500, name="Padaria do Teste")
    assert shop.base_url == f"{pix_sandbox.url}/api/v1"
    company = httpx.get(f"{shop.base_url}/user/company", auth=shop.auth)
    assert company.status_code == 200
    same = httpx.get(f"{shop.base_url}/user/company", headers={"authorization": shop.authorization})
    assert same.json() == company.json()
    who = httpx.get(f"{pix_sandbox.url}/_sandbox/whoami", auth=shop.auth).json()
    assert (who["company_id"], who["user_id"]) == (shop.company_id, shop.user_id)
    assert shop.control.balance() == 2500
    assert "client_secret" not in repr(shop)  # a failing test's report does not print it
    other = pix_sandbox.tenant()
    assert other.company_id != shop.company_id
    assert other.control.balance() == 0


def test_the_default_credentials_are_the_default_scenarios(pix_sandbox: Sandbox) -> None:
    main = DEFAULT_CREDENTIALS.main
    assert main.auth == ("sandbox-client", "sandbox-secret")
    assert httpx.get(f"{pix_sandbox.base_url}/user/company", auth=main.auth).status_code == 200
    assert pix_sandbox.credentials.empty_balance.client_id == "empty-balance"


def test_balance_reads_a_tenants_own_or_the_user_the_admin_names(
    pix_sandbox: Sandbox, pix_tenant: Tenant
) -> None:
    pix_tenant.control.charges.pay(charge(pix_tenant, 1000))
    assert pix_tenant.control.balance() == 1000
    assert transfer(pix_tenant, 400).json()["status"] == "success"
    assert pix_tenant.control.balance() == 600
    assert pix_sandbox.control.balance(pix_tenant.user_id) == 600
    assert pix_sandbox.control.balance("loja-exemplo-empty") == 0
    with pytest.raises(TypeError, match=r"admin token is no user's; name one"):
        pix_sandbox.control.balance()


def test_charges_get_pay_expire_cancel(pix_tenant: Tenant) -> None:
    charges = pix_tenant.control.charges
    paid = charges.pay(charge(pix_tenant, 1500), {"name": "Maria Souza", "document": "52998224725"})
    assert (paid["status"], paid["payer"]) == (
        "paid",
        {"name": "Maria Souza", "document": "52998224725"},
    )
    assert charges.get(paid["transaction_id"])["paid_at"] == paid["paid_at"]
    expired = charges.expire(charge(pix_tenant, 100))
    assert (expired["status"], expired["cancel_reason"]) == ("cancelled", "expired")
    cancelled = charges.cancel(charge(pix_tenant, 100))
    assert (cancelled["status"], cancelled["cancel_reason"]) == ("cancelled", "cancelled")
    assert pix_tenant.control.balance() == 1500


def test_transfers_get_and_settle_failed_refunds(pix_tenant_factory: TenantFactory) -> None:
    shop: Tenant = pix_tenant_factory(balance=10_000)
    pending = transfer(shop, 3000, "pending@pix.example").json()
    assert pending["status"] == "pending"
    assert shop.control.balance() == 7000
    assert shop.control.transfers.get(pending["transaction_id"])["status"] == "pending"
    failed = shop.control.transfers.settle(pending["transaction_id"], "failed", "Conta encerrada")
    assert (failed["status"], failed["message"]) == ("failed", "Conta encerrada")
    assert shop.control.balance() == 10_000
    other = transfer(shop, 1000, "pending@pix.example").json()
    assert shop.control.transfers.settle(other["transaction_id"], "success")["status"] == "success"
    assert shop.control.balance() == 9000


def test_clock_advance_runs_what_falls_due(pix_sandbox: Sandbox, pix_tenant: Tenant) -> None:
    tx = charge(pix_tenant, 700)
    advanced = pix_sandbox.control.clock.advance(3600)
    expired = [e for e in advanced["events"] if e["data"].get("transaction_id") == tx]
    assert [e["type"] for e in expired] == ["charge.cancelled"]
    assert pix_tenant.control.charges.get(tx)["cancel_reason"] == "expired"


def test_outcomes_decide_the_next_transfers_until_cleared(
    pix_tenant_factory: TenantFactory,
) -> None:
    shop: Tenant = pix_tenant_factory(balance=10_000)
    queued = shop.control.outcomes.next(status="failed", message="Fila cheia", times=2)
    assert isinstance(queued["id"], int)
    for _ in range(2):
        answer = transfer(shop, 100).json()
        assert (answer["status"], answer["message"]) == ("failed", "Fila cheia")
    shop.control.outcomes.clear()
    assert transfer(shop, 100).json()["status"] == "success"


def test_faults_strike_the_contract_until_cleared(pix_tenant_factory: TenantFactory) -> None:
    shop: Tenant = pix_tenant_factory(balance=10_000)
    shop.control.faults.add(operation="transfer", status=503)
    assert transfer(shop, 100).status_code == 503
    assert transfer(shop, 100).status_code == 503
    shop.control.faults.clear()
    assert transfer(shop, 100).status_code == 200


def test_requests_count_counts_what_the_company_sent(pix_tenant: Tenant) -> None:
    path = "/api/v1/hub/transactions/in"
    assert pix_tenant.control.requests.count(path=path) == 0
    charge(pix_tenant, 100)
    charge(pix_tenant, 200)
    assert pix_tenant.control.requests.count(path=path) == 2
    assert pix_tenant.control.requests.count(path=path, status=422) == 0


def test_webhooks_subscribe_and_wait_for_the_delivery(
    pix_tenant: Tenant, receiver: Receiver
) -> None:
    hook = pix_tenant.control.webhooks.subscribe(f"{receiver.url}/shop", ["charge.paid"])
    assert hook["secret"].startswith("whsec_")
    assert (hook["company_id"], hook["events"]) == (pix_tenant.company_id, ["charge.paid"])
    tx = charge(pix_tenant, 4200)
    pix_tenant.control.charges.pay(tx)
    delivery = pix_tenant.control.webhooks.wait_for_delivery("charge.paid", transaction_id=tx)
    assert (delivery["status"], delivery["webhook_id"]) == ("delivered", hook["id"])
    sent = [r for r in receiver.received if r["headers"].get("webhook-id") == delivery["event_id"]]
    assert [(r["path"], r["body"]["type"], r["body"]["data"]["transaction_id"]) for r in sent] == [
        ("/shop", "charge.paid", tx)
    ]


def test_wait_for_delivery_gives_up_after_its_timeout(pix_tenant: Tenant) -> None:
    with pytest.raises(
        TimeoutError, match=r"no delivered delivery of charge.paid for nope within 0.2 s"
    ):
        pix_tenant.control.webhooks.wait_for_delivery("charge.paid", "nope", timeout=0.2)


def test_call_reaches_any_endpoint(pix_tenant: Tenant) -> None:
    tx = charge(pix_tenant, 300)
    page = pix_tenant.control.call("GET", "/charges", params={"status": "pending"})
    assert [c["transaction_id"] for c in page["data"]] == [tx]


def test_readiness_reports_what_the_suite_met(pix_sandbox: Sandbox) -> None:
    shop = pix_sandbox.tenant(balance=0)
    charge(shop, 100)
    report = shop.control.readiness()
    met = {b["id"] for b in report["behaviours"] if b["met"]}
    assert "charge.created" in met
    assert report["coverage"]["met"] >= 1
    assert pix_sandbox.readiness(shop.company_id)["coverage"] == report["coverage"]


def test_webhooks_check_sends_the_battery(pix_tenant: Tenant, receiver: Receiver) -> None:
    hook = pix_tenant.control.webhooks.subscribe(f"{receiver.url}/check")
    result = pix_tenant.control.webhooks.check(hook["id"])
    ids = {c["id"] for c in result["checks"]}
    assert ids == {"valid", "duplicate", "bad_signature", "stale_timestamp", "unknown_type"}
    # This receiver answers 204 to everything: it accepts a bad signature, so the check fails.
    assert result["passed"] is False
    assert [c["passed"] for c in result["checks"] if c["id"] == "bad_signature"] == [False]
