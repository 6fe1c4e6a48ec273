"""A refused control call raises SandboxRequestError with the status and the detail the sandbox
answered, and says which call it was."""

from __future__ import annotations

import pytest

from pix_sandbox import Sandbox, SandboxError, SandboxRequestError, Tenant

from .support import charge


def test_404_an_unknown_id(pix_tenant: Tenant) -> None:
    with pytest.raises(SandboxRequestError) as refused:
        pix_tenant.control.charges.get("no-such-charge")
    assert (refused.value.status, refused.value.detail) == (404, "Charge not found")
    assert str(refused.value) == "charge no-such-charge: 404 Charge not found"
    assert isinstance(refused.value, SandboxError)


def test_404_another_companys_charge(pix_sandbox: Sandbox, pix_tenant: Tenant) -> None:
    theirs = charge(pix_sandbox.tenant(), 100)
    with pytest.raises(SandboxRequestError) as refused:
        pix_tenant.control.charges.pay(theirs)
    assert (refused.value.status, refused.value.detail) == (404, "Charge not found")


def test_409_a_transition_the_state_does_not_allow(pix_tenant: Tenant) -> None:
    tx = charge(pix_tenant, 100)
    pix_tenant.control.charges.pay(tx)
    with pytest.raises(SandboxRequestError) as refused:
        pix_tenant.control.charges.pay(tx)
    assert (refused.value.status, refused.value.detail) == (409, "Charge is paid")
    assert str(refused.value) == f"pay {tx}: 409 Charge is paid"


def test_422_a_bad_body(pix_tenant: Tenant) -> None:
    with pytest.raises(SandboxRequestError) as refused:
        pix_tenant.control.webhooks.subscribe("ftp://example.com/hook")
    assert refused.value.status == 422
    assert refused.value.detail.startswith("url: must be an http(s) URL")
    with pytest.raises(SandboxRequestError) as too_long:
        pix_tenant.control.faults.add(operation="transfer", delay_ms=60_001)
    assert too_long.value.status == 422
    assert too_long.value.detail.startswith("delay_ms: ")


def test_403_a_global_operation_with_company_credentials(pix_tenant: Tenant) -> None:
    with pytest.raises(SandboxRequestError) as refused:
        pix_tenant.control.reset()
    assert refused.value.status == 403
    assert "admin token" in refused.value.detail
