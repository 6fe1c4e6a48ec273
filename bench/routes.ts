// What the benchmark drives: the baseline's three routes and the sandbox's three contract calls.
import type { Target } from './load.js'

const AUTH = `Basic ${Buffer.from('sandbox-client:sandbox-secret').toString('base64')}`
const JSON_HEADERS = { 'content-type': 'application/json', authorization: AUTH }

export const BASE_GET: Target = { name: 'baseline GET', path: '/get', method: 'GET' }
export const BASE_POST: Target = {
  name: 'baseline POST',
  path: '/post',
  method: 'POST',
  body: '{"amount":1000}',
  headers: { 'content-type': 'application/json' },
}
// The bare POST plus one durable row: the stack's own limit for an acknowledged write (see baseline.mjs).
export const BASE_DURABLE: Target = {
  name: 'baseline durable POST',
  path: '/durable',
  method: 'POST',
  body: '{"amount":1000}',
  headers: { 'content-type': 'application/json' },
}
export const CHARGE: Target = {
  name: 'create charge',
  path: '/api/v1/hub/transactions/in',
  method: 'POST',
  body: '{"amount":1000,"description":"bench"}',
  headers: JSON_HEADERS,
}
export const TRANSFER: Target = {
  name: 'create transfer',
  path: '/api/v1/hub/transactions/out',
  method: 'POST',
  body: '{"amount":1,"pix_key":"maria@example.com","pix_type":"EMAIL"}',
  headers: JSON_HEADERS,
}
export const COMPANY: Target = {
  name: 'company',
  path: '/api/v1/user/company',
  method: 'GET',
  headers: { authorization: AUTH },
}

/** The sandbox's figures measured again on a store with history (bench/seed.ts). */
export const onHistory = (t: Target) => `${t.name}, history`
/** The sandbox's figures measured again with a QA dashboard open. */
export const withDashboard = (t: Target) => `${t.name}, dashboard open`
