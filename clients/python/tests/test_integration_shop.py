"""The readiness catalog's regression suite, in Python, under the pytest plugin: the merchant
integration of shop.py and its own tests. The correct shop passes them and raises no finding,
whatever their order (forward, reversed, shuffled, each fault test right before a test that sends
the same payout), with one company for the whole suite (a clean slate before each test) or a
tenant per test (``pix_tenant``); each one-bug variant is caught with the right finding and
severity. The Node shop does the same (test/readiness/integrations.test.ts)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from pix_sandbox import Tenant, TenantFactory
from pix_sandbox.schemas import Readiness

from .shop import Bugs, Order, PermanentError, PixClient, Receiver


@dataclass
class Shop:
    tenant: Tenant
    receiver: Receiver
    hook_id: str
    bugs: Bugs

    def client(self, timeout: float = 5.0, secret: str | None = None) -> PixClient:
        auth = (self.tenant.client_id, secret or self.tenant.client_secret)
        return PixClient(self.tenant.base_url, auth, self.receiver, timeout=timeout, bugs=self.bugs)


def open_shop(tenant: Tenant, bugs: Bugs | None = None) -> Shop:
    receiver = Receiver(bugs or Bugs())
    receiver.start()
    hook = tenant.control.webhooks.subscribe(receiver.url)
    receiver.secret = hook["secret"]
    return Shop(tenant, receiver, hook["id"], bugs or Bugs())


def supplier(order_id: str) -> Order:
    return Order(order_id, 1000, "fornecedor@example.com")


# The shop's tests, one function each, as its team wrote them.


def test_a_paid_charge_is_credited_once(shop: Shop) -> None:
    charge = shop.client().create_charge(25.0, "Pedido C1")
    shop.tenant.control.charges.pay(charge["transaction_id"])
    assert shop.receiver.wait_for(["charge.paid"], transaction_id=charge["transaction_id"])


def test_a_wrong_secret_is_refused_not_retried(shop: Shop) -> None:
    with pytest.raises(PermanentError):
        shop.client(secret="not-the-secret").create_charge(10.0, "Pedido C2")


def test_pays_a_supplier_out(shop: Shop) -> None:
    assert shop.client().payout(supplier("P1")) == "paid"


def test_a_pending_payout_is_paid_when_it_settles(shop: Shop) -> None:
    order = Order("P2", 1500, "pending@pix.example")
    assert shop.client().payout(order) == "pending"
    pending = shop.receiver.wait_for(["transfer.pending"], description="Pedido P2")
    assert pending is not None
    shop.tenant.control.transfers.settle(pending["data"]["transaction_id"], "success")
    assert shop.receiver.wait_for(["transfer.succeeded"], description="Pedido P2")


def test_a_payout_whose_answer_is_lost_is_reconciled(shop: Shop) -> None:
    shop.tenant.control.faults.add(operation="transfer", status=500, when="after", times=1)
    assert shop.client().payout(supplier("P3")) == "paid"


def test_a_payout_that_times_out_is_reconciled(shop: Shop) -> None:
    shop.tenant.control.faults.add(operation="transfer", when="after", delay_ms=1500, times=1)
    assert shop.client(timeout=0.3).payout(supplier("P4")) == "paid"


def test_a_charge_waits_out_a_503(shop: Shop) -> None:
    shop.tenant.control.faults.add(operation="charge", status=503, retry_after=1, times=1)
    started = time.monotonic()
    shop.client().create_charge(10.0, "Pedido C3")
    assert time.monotonic() - started >= 1


def test_a_provider_that_cannot_pay_out_is_said(shop: Shop) -> None:
    shop.tenant.control.faults.add(operation="transfer", status=501)
    with pytest.raises(PermanentError):
        shop.client().payout(supplier("P5"))


def test_the_receiver_passes_the_check(shop: Shop) -> None:
    assert shop.tenant.control.webhooks.check(shop.hook_id)["passed"]


def test_pays_the_same_supplier_again_for_a_new_order(shop: Shop) -> None:
    assert shop.client().payout(supplier("P6")) == "paid"


Scenario = Callable[[Shop], None]
SCENARIOS: list[Scenario] = [
    test_a_paid_charge_is_credited_once,
    test_a_wrong_secret_is_refused_not_retried,
    test_pays_a_supplier_out,
    test_a_pending_payout_is_paid_when_it_settles,
    test_a_payout_whose_answer_is_lost_is_reconciled,
    test_a_payout_that_times_out_is_reconciled,
    test_a_charge_waits_out_a_503,
    test_a_provider_that_cannot_pay_out_is_said,
    test_the_receiver_passes_the_check,
    test_pays_the_same_supplier_again_for_a_new_order,
]

# Each fault test right before one that sends the same payout (as JUnit's MethodName order did).
FAULT_FIRST = [
    test_a_payout_whose_answer_is_lost_is_reconciled,
    test_pays_the_same_supplier_again_for_a_new_order,
    test_a_payout_that_times_out_is_reconciled,
    test_pays_a_supplier_out,
    test_a_provider_that_cannot_pay_out_is_said,
]
ORDERS: dict[str, list[Scenario]] = {
    "forward": SCENARIOS,
    "reverse": SCENARIOS[::-1],
    "shuffled-7": random.Random(7).sample(SCENARIOS, len(SCENARIOS)),
    "fault-first": FAULT_FIRST + [s for s in SCENARIOS if s not in FAULT_FIRST],
}


@pytest.fixture
def shop(pix_tenant_factory: TenantFactory) -> Iterator[Shop]:
    """The shop's own fixture: its company, with its receiver subscribed."""
    opened = open_shop(pix_tenant_factory(balance=1_000_000))
    yield opened
    opened.receiver.close()


def settled(report: Callable[[], Readiness]) -> Readiness:
    """A report once the webhook attempts under way are recorded."""
    time.sleep(0.3)
    return report()


def run(shop: Shop, order: list[Scenario], *, fresh: Callable[[], Shop] | None = None) -> list[str]:
    """Runs the tests in ``order`` as a runner would; ``fresh``: a company of its own per test."""
    failed: list[str] = []
    for scenario in order:
        own = fresh() if fresh else shop
        own.tenant.control.faults.clear()
        try:
            scenario(own)
        except Exception as err:
            failed.append(f"{scenario.__name__}: {err!r}")
        finally:
            if own is not shop:
                own.receiver.close()
    return failed


@pytest.mark.parametrize("order", list(ORDERS))
def test_the_correct_shop_raises_no_finding_in_any_order(shop: Shop, order: str) -> None:
    assert run(shop, ORDERS[order]) == []
    report = settled(shop.tenant.control.readiness)
    assert report["findings"] == []
    met = {b["id"] for b in report["behaviours"] if b["met"]}
    assert {"transfer.answer_lost", "transfer.pending_settled", "charge.unavailable"} <= met


def test_the_correct_shop_with_a_tenant_per_test_raises_no_finding(
    shop: Shop, pix_tenant_factory: TenantFactory
) -> None:
    shops: list[Shop] = []

    def fresh() -> Shop:
        shops.append(open_shop(pix_tenant_factory(balance=1_000_000)))
        return shops[-1]

    assert run(shop, ORDERS["fault-first"], fresh=fresh) == []
    time.sleep(0.3)
    for own in shops:
        assert own.tenant.control.readiness()["findings"] == []


BUGGY: list[tuple[str, list[Scenario], str, str]] = [
    ("resend_after_timeout", [test_a_payout_that_times_out_is_reconciled], "paid_twice", "error"),
    (
        "retry_with_new_description",
        [test_a_payout_whose_answer_is_lost_is_reconciled],
        "paid_twice",
        "error",
    ),
    (
        "resend_once_reconciled",
        [test_a_payout_whose_answer_is_lost_is_reconciled],
        "paid_twice_unconfirmed",
        "warning",
    ),
    (
        "retry_permanent",
        [test_a_provider_that_cannot_pay_out_is_said],
        "retried_permanent_error",
        "error",
    ),
    ("ignore_retry_after", [test_a_charge_waits_out_a_503], "ignored_retry_after", "warning"),
    (
        "literal_key",
        [test_a_paid_charge_is_credited_once],
        "receiver_rejects_valid_signature",
        "error",
    ),
    (
        "no_verification",
        [test_the_receiver_passes_the_check],
        "receiver_accepts_bad_signature",
        "error",
    ),
    (
        "no_verification",
        [test_the_receiver_passes_the_check],
        "receiver_accepts_stale_timestamp",
        "error",
    ),
    ("float_amount", [test_a_paid_charge_is_credited_once], "lenient_amount", "warning"),
    ("no_content_type", [test_pays_a_supplier_out], "missing_content_type", "error"),
]


@pytest.mark.parametrize(("bug", "tests", "finding", "severity"), BUGGY)
def test_each_bug_is_caught(
    pix_tenant_factory: TenantFactory, bug: str, tests: list[Scenario], finding: str, severity: str
) -> None:
    buggy = open_shop(pix_tenant_factory(balance=1_000_000), Bugs(**{bug: True}))
    if bug == "retry_with_new_description":
        # The webhook is late: the retry cannot have been made knowing the first went through
        # (after it, the sandbox could not tell it from a new order: paid_twice_unconfirmed).
        buggy.tenant.control.call(
            "PUT", f"/webhooks/{buggy.hook_id}/chaos", json={"delay_ms": 1000}
        )
    try:
        run(buggy, tests)
        report = settled(buggy.tenant.control.readiness)
    finally:
        buggy.receiver.close()
    found: dict[str, Any] | None = next(
        (dict(f) for f in report["findings"] if f["id"] == finding), None
    )
    assert found is not None, report["findings"]
    assert found["severity"] == severity
    assert found["example"]["company_id"] == buggy.tenant.company_id
