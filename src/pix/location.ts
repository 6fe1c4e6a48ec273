// What a payer's bank fetches from a dynamic code's location (BCB API Pix): the CobPayload,
// signed as a compact JWS with a key made at first start and published as a JWKS.
import { createHash } from 'node:crypto'
import { CompactSign, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose'
import type { Micros } from '../clock.js'
import { formatAmount } from '../domain/money.js'
import { floorToSecond, isoMillis, SECOND_US } from '../domain/time.js'
import type { Charge } from '../domain/types.js'

const ALG = 'ES256'
const STATUS = { pending: 'ATIVA', paid: 'CONCLUIDA', cancelled: 'REMOVIDA_PELO_PSP' } as const

/** A stable random-key (EVP) style PIX key for a company, which has none of its own here. */
export function companyKey(companyId: string): string {
  const h = createHash('sha256').update(`pix-key:${companyId}`).digest('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`
}

export function cobPayload(charge: Charge, now: Micros) {
  return {
    calendario: {
      criacao: isoMillis(charge.createdAt),
      apresentacao: isoMillis(now),
      expiracao: Math.round((charge.expiresAt - floorToSecond(charge.createdAt)) / SECOND_US),
    },
    txid: charge.id,
    revisao: charge.revision,
    status: STATUS[charge.status],
    valor: { original: formatAmount(charge.amount) },
    chave: companyKey(charge.companyId),
    ...(charge.description ? { solicitacaoPagador: charge.description } : {}),
  }
}

export interface LocationSigner {
  jwks: { keys: JWK[] }
  sign(payload: unknown, jku: string): Promise<string>
}

/** Loads the signing key saved by `save`, or makes one and saves it. */
export async function createLocationSigner(saved: JWK | undefined, save: (jwk: JWK) => void): Promise<LocationSigner> {
  let privateJwk = saved
  if (!privateJwk) {
    const { privateKey } = await generateKeyPair(ALG, { extractable: true })
    privateJwk = { ...(await exportJWK(privateKey)), alg: ALG, use: 'sig' }
    privateJwk.kid = createHash('sha256').update(JSON.stringify([privateJwk.x, privateJwk.y])).digest('base64url').slice(0, 16)
    save(privateJwk)
  }
  const key = await importJWK(privateJwk, ALG)
  const { d: _private, ...publicJwk } = privateJwk
  const kid = privateJwk.kid!
  return {
    jwks: { keys: [publicJwk] },
    sign: (payload, jku) =>
      new CompactSign(new TextEncoder().encode(JSON.stringify(payload))).setProtectedHeader({ alg: ALG, kid, jku }).sign(key),
  }
}
