// What a payer's bank fetches from a dynamic code's location (BCB API Pix): the CobPayload,
// signed as a compact JWS with a key made at first start and published as a JWKS.
import { createECDH, createHash } from 'node:crypto'
import { p256 } from '@noble/curves/nist.js'
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
  sign(payload: unknown, jku: string): string
}

/** The JSON Web Key fields this signer reads and writes (RFC 7517/7518, EC P-256). */
export interface JWK {
  kty: 'EC'
  crv: 'P-256'
  x: string
  y: string
  d?: string
  alg: string
  use: string
  kid: string
}

const b64url = (bytes: Uint8Array | string): string => Buffer.from(bytes).toString('base64url')

/**
 * Loads the signing key saved by `save`, or makes one and saves it: from `seed` when given (SEED:
 * a fresh store gets the same key every run), at random otherwise. Signatures are deterministic
 * (RFC 6979, @noble/curves): the same payload signs to the same bytes, so with SEED and
 * START_TIME a location answers the same from run to run. WebCrypto's ECDSA draws a random nonce.
 */
export function createLocationSigner(
  saved: JWK | undefined,
  save: (jwk: JWK) => void,
  seed?: string,
): LocationSigner {
  let privateJwk = saved
  if (!privateJwk) {
    const d = p256.utils.randomSecretKey(
      seed === undefined
        ? undefined
        : createHash('sha512').update(`signing-key:${seed}`).digest().subarray(0, 48),
    )
    // The public point from node's native ECDH: noble's getPublicKey builds its precomputed tables
    // first (~35 ms, most of a test suite's startSandbox(), which makes a key for every new store).
    const ecdh = createECDH('prime256v1')
    ecdh.setPrivateKey(d)
    const point = ecdh.getPublicKey()
    const x = b64url(point.subarray(1, 33))
    const y = b64url(point.subarray(33, 65))
    const kid = createHash('sha256')
      .update(JSON.stringify([x, y]))
      .digest('base64url')
      .slice(0, 16)
    privateJwk = { kty: 'EC', x, y, crv: 'P-256', d: b64url(d), alg: ALG, use: 'sig', kid }
    save(privateJwk)
  }
  const secretKey = Buffer.from(privateJwk.d!, 'base64url')
  const { d: _private, ...publicJwk } = privateJwk
  const kid = privateJwk.kid
  return {
    jwks: { keys: [publicJwk as JWK] },
    sign(payload, jku) {
      const input = `${b64url(JSON.stringify({ alg: ALG, kid, jku }))}.${b64url(JSON.stringify(payload))}`
      // ES256's signature is r || s, 32 bytes each: noble's compact format.
      return `${input}.${b64url(p256.sign(Buffer.from(input), secretKey))}`
    },
  }
}
