// The location of a dynamic code answers a JWS that a payer's bank can verify with our JWKS.
import { compactVerify, createLocalJWKSet, decodeProtectedHeader } from 'jose'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseBrCode } from '../../src/pix/brcode.js'
import { AUTH, startTestSandbox, type TestSandbox } from '../harness.js'

let sb: TestSandbox
beforeAll(async () => (sb = await startTestSandbox()))
afterAll(() => sb.close())

const locationPath = (qrCode: string) =>
  '/' + parseBrCode(qrCode)!.location!.split('/').slice(1).join('/')

describe('GET /pix/qr/v2/{id}', () => {
  it('answers a compact JWS of the CobPayload, verifiable with /.well-known/jwks.json', async () => {
    const charge = (
      await sb.request('POST', '/api/v1/hub/transactions/in', {
        auth: AUTH.main,
        json: { amount: 1999, description: 'Pedido 7' },
      })
    ).body
    const res = await sb.request('GET', locationPath(charge.qr_code))
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/jose')
    const header = decodeProtectedHeader(res.text)
    expect(header).toMatchObject({ alg: 'ES256', jku: `${sb.publicUrl}/.well-known/jwks.json` })
    const jwks = (await sb.request('GET', '/.well-known/jwks.json')).body
    expect(jwks.keys[0]).not.toHaveProperty('d')
    const { payload } = await compactVerify(res.text, createLocalJWKSet(jwks))
    expect(JSON.parse(new TextDecoder().decode(payload))).toEqual({
      calendario: {
        criacao: '2026-03-01T12:00:00.000Z',
        apresentacao: '2026-03-01T12:00:00.000Z',
        expiracao: 3600,
      },
      txid: charge.transaction_id,
      revisao: 0,
      status: 'ATIVA',
      valor: { original: '19.99' },
      chave: expect.stringMatching(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/,
      ),
      solicitacaoPagador: 'Pedido 7',
    })
  })

  it('follows the charge: CONCLUIDA once paid, REMOVIDA_PELO_PSP once cancelled; ?format=json answers it plain', async () => {
    const paid = (
      await sb.request('POST', '/api/v1/hub/transactions/in', {
        auth: AUTH.main,
        json: { amount: 100 },
      })
    ).body
    await sb.admin('POST', `/charges/${paid.transaction_id}/pay`)
    expect(
      (await sb.request('GET', `${locationPath(paid.qr_code)}?format=json`)).body,
    ).toMatchObject({ status: 'CONCLUIDA', revisao: 1 })
    const gone = (
      await sb.request('POST', '/api/v1/hub/transactions/in', {
        auth: AUTH.main,
        json: { amount: 100 },
      })
    ).body
    await sb.admin('POST', `/charges/${gone.transaction_id}/cancel`)
    expect((await sb.request('GET', `${locationPath(gone.qr_code)}?format=json`)).body.status).toBe(
      'REMOVIDA_PELO_PSP',
    )
  })

  it('404 for an unknown location', async () => {
    expect(await sb.request('GET', '/pix/qr/v2/unknown')).toMatchObject({
      status: 404,
      body: { detail: 'Location not found' },
    })
  })

  it('keeps its signing key across restarts of the same store, so cached JWKS stay valid', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jwks-'))
    try {
      const database = join(dir, 'store.db')
      const first = await startTestSandbox({ database })
      const before = (await first.request('GET', '/.well-known/jwks.json')).body
      const charge = (
        await first.request('POST', '/api/v1/hub/transactions/in', {
          auth: AUTH.main,
          json: { amount: 100 },
        })
      ).body
      await first.close()
      const second = await startTestSandbox({ database })
      try {
        expect((await second.request('GET', '/.well-known/jwks.json')).body).toEqual(before)
        const jws = (await second.request('GET', locationPath(charge.qr_code))).text
        const verified = await compactVerify(jws, createLocalJWKSet(before))
        expect(verified.protectedHeader).toMatchObject({ alg: 'ES256', kid: before.keys[0].kid })
      } finally {
        await second.close()
      }
      const other = await startTestSandbox()
      try {
        expect((await other.request('GET', '/.well-known/jwks.json')).body.keys[0].kid).not.toBe(
          before.keys[0].kid,
        )
      } finally {
        await other.close()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
