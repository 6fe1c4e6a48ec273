"""The contract as a plain FastAPI app: what the real service's framework answers.

A test fixture for test/fidelity/differential.test.ts, which sends the same raw bytes to this
app (under uvicorn) and to the sandbox and compares the answers. It is written the way an
ordinary FastAPI service is: stock HTTPBasic, pydantic models, HTTPException for the
application's own errors, nothing tuned to match the sandbox. Its state is the default
scenario's (docs/CONTRACT.md, README), with the clock frozen: no charge is paid or expires and
no pending transfer settles while the test runs.

Not modelled (listed in docs/CONTRACT.md's deviations): the sandbox's PIX key and BR Code
checks, the X-Sandbox-Outcome header, the 1 MiB body limit.

STRICT_CONTENT_TYPE=0 in the environment gives FastAPI's `strict_content_type=False` (a body
without Content-Type parsed as JSON, as FastAPI 0.122-0.131 did).
"""

from __future__ import annotations

import os
import secrets
import string
from dataclasses import dataclass, field
from typing import Annotated, Literal

from fastapi import Depends, FastAPI, HTTPException
from fastapi.security import HTTPBasic, HTTPBasicCredentials
from pydantic import BaseModel, Field

Operation = Literal["charge", "transfer"]


@dataclass
class User:
    secret: str
    environment: str = "sandbox"
    api_active: bool = True
    permissions: tuple[str, ...] = ("charge", "transfer")
    # Direction -> the operations its Provider supports; a missing direction has no Provider.
    providers: dict[str, tuple[str, ...]] = field(
        default_factory=lambda: {"in": ("charge",), "out": ("transfer",)}
    )
    balance: int = 0


def default_users() -> dict[str, User]:
    main = User("sandbox-secret", balance=1_000_000)
    return {
        "sandbox-client": main,
        # The same user's production keys: refused in a sandbox.
        "production-client": User("production-secret", environment="production"),
        "no-provider": User("no-provider-secret", providers={}, balance=100_000),
        "charges-only": User(
            "charges-only-secret",
            providers={"in": ("charge",), "out": ()},
            balance=100_000,
        ),
        "empty-balance": User("empty-balance-secret", balance=0),
        "inactive": User("inactive-secret", api_active=False, balance=100_000),
    }


USERS = default_users()
# The key directory and the transfer rules of the default scenario.
INACTIVE_KEYS = {"failed@pix.example"}
PENDING_KEYS = {"pending@pix.example"}

strict = os.environ.get("STRICT_CONTENT_TYPE", "1") != "0"
app = FastAPI(openapi_url=None, docs_url=None, redoc_url=None, strict_content_type=strict)
security = HTTPBasic()


def authenticated(credentials: Annotated[HTTPBasicCredentials, Depends(security)]) -> User:
    user = USERS.get(credentials.username)
    if (
        user is None
        or not secrets.compare_digest(user.secret.encode(), credentials.password.encode())
        or user.environment != "sandbox"
    ):
        raise HTTPException(
            status_code=401,
            detail="Not authenticated",
            headers={"WWW-Authenticate": "Basic"},
        )
    return user


def allowed(op: Operation):
    def check(user: Annotated[User, Depends(authenticated)]) -> User:
        if not user.api_active:
            raise HTTPException(status_code=403, detail="API access is not active for this company")
        if op not in user.permissions:
            raise HTTPException(status_code=403, detail="Not enough permissions")
        return user

    return check


def provider(user: User, op: Operation) -> None:
    operations = user.providers.get("in" if op == "charge" else "out")
    if operations is None:
        raise HTTPException(
            status_code=422,
            detail="User does not have a Provider configured. Please contact support.",
        )
    if op not in operations:
        raise HTTPException(status_code=501, detail="Provider does not support this operation")


class ChargeRequest(BaseModel):
    amount: int = Field(gt=0, le=999_999_999_999)
    description: str | None = Field(default=None, max_length=140)
    payload: str | None = None


class TransferRequest(BaseModel):
    amount: int = Field(gt=0, le=999_999_999_999)
    pix_key: str
    pix_type: Literal["CPF", "CNPJ", "EMAIL", "PHONE"]
    description: str | None = Field(default=None, max_length=140)


def random_id(n: int) -> str:
    return "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(n))


charges = 0


@app.post("/api/v1/hub/transactions/in")
def create_charge(body: ChargeRequest, user: Annotated[User, Depends(allowed("charge"))]):
    global charges
    provider(user, "charge")
    charges += 1
    return {
        "status": "pending",
        "transaction_id": random_id(32),
        "qr_code": "00020101021226" + random_id(40),
        "qr_code_name": f"Loja Exemplo Ltda #{charges}",
        "expiration_date": "2026-03-01T10:00:00",
    }


@app.post("/api/v1/hub/transactions/out")
def create_transfer(body: TransferRequest, user: Annotated[User, Depends(allowed("transfer"))]):
    provider(user, "transfer")
    # Balance, then the key directory, then the scenario's rules.
    if user.balance < body.amount:
        raise HTTPException(status_code=422, detail="Insufficient balance")
    transaction_id = "E00000000202603011200" + random_id(11)
    if body.pix_key in INACTIVE_KEYS:
        status, message = "failed", "Pix key not found or inactive"
    elif body.pix_key in PENDING_KEYS or body.amount == 777:
        status, message = "pending", "Transfer is being processed"
    elif body.amount == 666:
        status, message = "failed", "Transfer rejected by the receiving institution"
    else:
        status, message = "success", "Transfer completed"
    if status != "failed":
        user.balance -= body.amount
    return {"status": status, "transaction_id": transaction_id, "message": message}


def company(user: Annotated[User, Depends(authenticated)]):
    stamp = "2026-03-01T12:00:00.000000Z"
    return {"api_active": user.api_active, "created_at": stamp, "updated_at": stamp}


app.get("/api/v1/user/company")(company)
app.get("/api/v1/oauth/user/company")(company)
