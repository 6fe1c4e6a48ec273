#!/usr/bin/env bash
# A tiny integration suite in shell and curl, as any team could write against the PIX hub API:
# each test makes one call and checks the status (and the transfer's status). Run under
#   npx --no-install pix-sandbox exec --min-coverage 70 -- bash suite.sh
# which starts a sandbox and gives this script PIX_BASE_URL, PIX_SANDBOX_URL,
# PIX_SANDBOX_ADMIN_TOKEN, PIX_CLIENT_ID and PIX_CLIENT_SECRET. Against a real service, only
# PIX_BASE_URL and the credentials would change (the fault tests need the sandbox's control plane).
set -u

: "${PIX_BASE_URL:?run me under pix-sandbox exec (or set PIX_BASE_URL)}"
ME="$PIX_CLIENT_ID:$PIX_CLIENT_SECRET"
TRANSFER='{"amount": 1000, "pix_key": "maria@example.com", "pix_type": "EMAIL"'
failed=0
n=0

# call USER:SECRET METHOD PATH [BODY] [HEADER...]: prints "<status> <body>"; a well-behaved client:
# JSON in, JSON accepted, no retry of its own.
call() {
  local user=$1 method=$2 path=$3 body=${4:-}
  shift 4 2>/dev/null || shift $#
  local args=(-s -o /tmp/pix-suite-body.$$ -w '%{http_code}' -X "$method" -H 'accept: application/json')
  [ -n "$user" ] && args+=(-u "$user")
  [ -n "$body" ] && args+=(-H 'content-type: application/json' --data "$body")
  for h in "$@"; do args+=(-H "$h"); done
  local status
  status=$(curl "${args[@]}" "$PIX_BASE_URL$path")
  echo "$status $(cat /tmp/pix-suite-body.$$)"
}

# check NAME EXPECTED_STATUS [EXPECTED_TEXT] -- CALL...
check() {
  local name=$1 want=$2 text=$3
  shift 4
  local got
  got=$(call "$@")
  n=$((n + 1))
  if [[ "$got" == "$want "* && "$got" == *"$text"* ]]; then
    echo "ok $n - $name"
  else
    echo "not ok $n - $name: wanted $want ${text:+with $text}, got ${got:0:200}"
    failed=$((failed + 1))
  fi
}

# control PATH BODY: a call of the sandbox's control plane, with the admin token.
control() {
  curl -s -o /dev/null -H "authorization: Bearer $PIX_SANDBOX_ADMIN_TOKEN" -H 'content-type: application/json' \
    --data "$2" "$PIX_SANDBOX_URL/_sandbox$1"
}

# A fault for the next call of an operation (a status, and when: before or after the write).
fault() {
  control /faults "{\"operation\": \"$1\", \"status\": $2, \"when\": \"${3:-before}\", \"times\": 1}"
}

# The validation errors of the real server's framework (a list), or the contract's documented ones.
style() {
  control /scenarios "{\"document\": {\"settings\": {\"validation_errors\": \"$1\"}}}"
}

echo "TAP version 13"
check 'a charge is created' 200 '"status":"pending"' -- "$ME" POST /hub/transactions/in '{"amount": 1000}'
check 'a wrong secret is 401' 401 'Not authenticated' -- "$PIX_CLIENT_ID:wrong" POST /hub/transactions/in '{"amount": 1000}'
check 'an inactive company is 403' 403 '' -- inactive:inactive-secret POST /hub/transactions/in '{"amount": 1000}'
check 'amount 0 is 422' 422 'amount' -- "$ME" POST /hub/transactions/in '{"amount": 0}'
check 'no Provider is 422' 422 'Provider' -- no-provider:no-provider-secret POST /hub/transactions/in '{"amount": 1000}'
fault charge 500 && check 'a 500 is said as such' 500 '' -- "$ME" POST /hub/transactions/in '{"amount": 1001}'
fault charge 501 && check 'a 501 is said as such' 501 '' -- "$ME" POST /hub/transactions/in '{"amount": 1002}'
fault charge 503 && check 'a 503 is said as such' 503 '' -- "$ME" POST /hub/transactions/in '{"amount": 1003}'
style fastapi && check 'amount 0 is 422, as the framework lists it' 422 '"loc":["body","amount"]' -- "$ME" POST /hub/transactions/in '{"amount": 0}'
style simple

check 'a transfer succeeds' 200 '"status":"success"' -- "$ME" POST /hub/transactions/out "$TRANSFER}"
check 'a transfer can pend' 200 '"status":"pending"' -- "$ME" POST /hub/transactions/out "$TRANSFER, \"description\": \"p\"}" 'X-Sandbox-Outcome: pending'
check 'a transfer to an inactive key fails' 200 '"status":"failed"' -- "$ME" POST /hub/transactions/out '{"amount": 1000, "pix_key": "failed@pix.example", "pix_type": "EMAIL"}'
check 'no balance is 422' 422 'Insufficient balance' -- empty-balance:empty-balance-secret POST /hub/transactions/out "$TRANSFER}"
check 'a key of another type is 422' 422 'pix_key' -- "$ME" POST /hub/transactions/out '{"amount": 1000, "pix_key": "maria@example.com", "pix_type": "CPF"}'
check 'transfers need credentials' 401 '' -- "$PIX_CLIENT_ID:wrong" POST /hub/transactions/out "$TRANSFER}"
check 'an inactive company cannot transfer' 403 '' -- inactive:inactive-secret POST /hub/transactions/out "$TRANSFER}"
check 'no out Provider is 422' 422 'Provider' -- no-provider:no-provider-secret POST /hub/transactions/out "$TRANSFER}"
check 'a Provider without transfers is 501' 501 '' -- charges-only:charges-only-secret POST /hub/transactions/out "$TRANSFER}"
# A failed transfer is never sent again as it was: the API has no idempotency key.
fault transfer 500 && check 'a 500 on a transfer' 500 '' -- "$ME" POST /hub/transactions/out "$TRANSFER, \"description\": \"a\"}"
fault transfer 503 && check 'a 503 on a transfer' 503 '' -- "$ME" POST /hub/transactions/out "$TRANSFER, \"description\": \"b\"}"
# Its answer is lost after it went through: a client must reconcile (its webhook, its records),
# never send it again as it is; a transfer no other test sends.
fault transfer 500 after && check 'a transfer whose answer is lost' 500 '' -- "$ME" POST /hub/transactions/out '{"amount": 1500, "pix_key": "lost@pix.example", "pix_type": "EMAIL"}'
style fastapi && check 'a key of another type is 422, as the framework lists it' 422 '"loc":["body","pix_key"]' -- "$ME" POST /hub/transactions/out '{"amount": 1000, "pix_key": "maria@example.com", "pix_type": "CPF"}'
style simple

check 'the company is active' 200 '"api_active":true' -- "$ME" GET /user/company
check 'the company needs credentials' 401 '' -- '' GET /user/company

rm -f /tmp/pix-suite-body.$$
echo "1..$n"
[ "$failed" -eq 0 ] || { echo "# $failed of $n failed"; exit 1; }
