// Paying like a payer's bank: by copy-and-paste code, or by the Provider's BCB-shaped notification.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi'
import { LOCATION_PATH } from '../../config.js'
import { AppError } from '../../domain/errors.js'
import type { Charge } from '../../domain/types.js'
import { payChargeAsBank, receivePix } from '../../operations/receive-pix.js'
import { parseBrCode } from '../../pix/brcode.js'
import type { AppEnv, HttpDeps } from '../env.js'
import { controlRoute } from './control-route.js'
import { chargeRecord } from './records.js'
import { ChargeRecord, Payer } from './schemas.js'

const Notification = z
  .object({
    pix: z
      .array(
        z.object({
          endToEndId: z.string().regex(/^[A-Za-z0-9]{32}$/, 'must be 32 letters or digits'),
          txid: z.string().min(1).max(35),
          valor: z.string().regex(/^\d{1,10}\.\d{2}$/, 'must be an amount such as "10.00"'),
          horario: z.string().optional(),
          pagador: z.object({ nome: z.string().optional(), cpf: z.string().optional(), cnpj: z.string().optional() }).optional(),
          infoPagador: z.string().optional(),
        }),
      )
      .min(1)
      .max(1000),
  })
  .openapi('PixNotification')

export function mountPay(app: OpenAPIHono<AppEnv>, deps: HttpDeps): void {
  const ctx = deps.sandbox

  /** The charge a code points at: its location for a dynamic code, else the newest pending charge with that exact code. */
  const chargeFor = (qrCode: string): Charge | undefined => {
    const code = parseBrCode(qrCode)
    if (!code) throw new AppError('invalid_input', 'qr_code: must be a valid BR Code (format and CRC)')
    const prefix = `${ctx.locationBase}${LOCATION_PATH}`
    const byLocation = code.location?.startsWith(prefix) ? ctx.store.charges.byLocation(code.location.slice(prefix.length)) : undefined
    return byLocation ?? ctx.store.charges.newestPendingByCode(qrCode)
  }

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'post',
      path: '/pay',
      summary: 'Pay whatever charge a copy-and-paste code points at',
      description: '422 invalid code, 404 no charge for it, 409 not pending or expired.',
      request: {
        body: { required: true, content: { 'application/json': { schema: z.object({ qr_code: z.string(), payer: Payer.optional() }).strict() } } },
      },
      responses: { 200: { description: 'The paid charge.', content: { 'application/json': { schema: ChargeRecord } } } },
    }),
    'scoped',
    async (c) => {
      const { body } = c.get('input')
      const scope = c.get('scope')
      const charge = chargeFor(body.qr_code)
      if (!charge || (!scope.admin && charge.companyId !== scope.companyId)) throw new AppError('not_found', 'No charge for this code')
      await ctx.fakes.ready()
      return c.json(chargeRecord(ctx, payChargeAsBank(ctx, charge.id, body.payer ?? ctx.fakes.payer()).charge))
    },
  )

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'post',
      path: '/provider-webhook',
      summary: 'Receive a Provider notification of PIX payments (BCB API Pix shape)',
      description: 'Applied whole or not at all. A repeated endToEndId for the same charge is answered as a duplicate and credits nothing.',
      request: { body: { required: true, content: { 'application/json': { schema: Notification } } } },
      responses: {
        200: {
          description: 'What each item did.',
          content: {
            'application/json': {
              schema: z.object({
                data: z.array(z.object({ txid: z.string(), endToEndId: z.string(), duplicate: z.boolean(), charge: ChargeRecord })),
              }),
            },
          },
        },
      },
    }),
    'scoped',
    (c) => {
      const scope = c.get('scope')
      const results = receivePix(ctx, c.get('input').body.pix, scope.companyId)
      return c.json({ data: results.map((r) => ({ txid: r.txid, endToEndId: r.endToEndId, duplicate: r.duplicate, charge: chargeRecord(ctx, r.charge) })) })
    },
  )
}
