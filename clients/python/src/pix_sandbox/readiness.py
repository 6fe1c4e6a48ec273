"""The readiness report and the receiver check (SANDBOX.md, Part F).

HAND-WRITTEN, for now: ``GET /_sandbox/readiness`` and ``POST /_sandbox/webhooks/{id}/check``
are being built on another branch, and their shapes are not in ``/_sandbox/openapi.json`` yet.
These follow Part F's text. Once the endpoints land, ``npm run generate`` writes their shapes
into ``schemas.py`` and this module goes (its names kept as aliases there).
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict


class Coverage(TypedDict):
    met: int
    """How many of the catalog's behaviours the integration has met."""
    total: int
    """How many behaviours the catalog holds."""
    percent: float
    """``met`` of ``total``, in percent."""


class Behaviour(TypedDict):
    id: str
    """Its stable id, e.g. ``transfer.insufficient_balance``."""
    met: bool
    count: int
    """How many times it was met."""
    how: str
    """How to meet it: the magic value, credential or control call that produces it."""


class Finding(TypedDict):
    id: str
    """Its stable id, e.g. ``missing_content_type``."""
    severity: Literal["error", "warning", "info"]
    count: int
    example: dict[str, Any]
    """One redacted example: method, path, time, what was seen."""
    advice: str
    """What to change."""


class Readiness(TypedDict):
    since: str
    """When recording began: the company's creation or the last reset."""
    coverage: Coverage
    behaviours: list[Behaviour]
    findings: list[Finding]


class ReceiverCheckResult(TypedDict):
    id: Literal["valid", "duplicate", "bad_signature", "stale_timestamp", "unknown_type"]
    expected: str
    """What a safe receiver answers, e.g. ``2xx`` or ``4xx``."""
    status: int | None
    """What it answered; None when it did not answer."""
    ms: float
    passed: bool
    advice: str


class ReceiverCheck(TypedDict):
    passed: bool
    checks: list[ReceiverCheckResult]
