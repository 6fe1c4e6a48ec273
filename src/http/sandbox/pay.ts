// Paying like a payer's bank: by copy-and-paste code, or by the Provider's BCB-shaped notification.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi'
import { chargeForCode } from '../../operations/charge-for-code.js'
import { payChargeAsBank, receivePix } from '../../operations/receive-pix.js'
import type { AppEnv, HttpDeps } from '../env.js'
import { controlRoute } from './control-route.js'
import { ChargeRecord, chargeRecord } from './records/charge.js'
import {
  NOTIFIED_CHARGE_EXAMPLE,
  NOTIFIED_END_TO_END_ID,
  PAID_BY_CODE_EXAMPLE,
} from './records/story.js'
import { jsonAnswer, jsonBody, Payer } from './schemas.js'

const Notification = z
  .object({
    pix: z
      .array(
        z.object({
          endToEndId: z
            .string()
            .regex(/^[A-Za-z0-9]{32}$/, 'must be 32 letters or digits')
            .openapi({
              description: "The PIX's end-to-end id (E + ISPB + time + 11 characters).",
              example: NOTIFIED_END_TO_END_ID,
            }),
          txid: z
            .string()
            .min(1)
            .max(35)
            .openapi({ description: 'The charge paid: its transaction_id.' }),
          valor: z
            .string()
            .regex(/^\d{1,10}\.\d{2}$/, 'must be an amount such as "10.00"')
            .openapi({
              description: "The amount paid in reais, two decimals; must equal the charge's.",
              example: '10.00',
            }),
          horario: z
            .string()
            .max(40)
            .optional()
            .openapi({ description: 'When it was paid, as the Provider wrote it.' }),
          pagador: z
            .object({
              nome: z.string().max(140).optional().openapi({ description: "The payer's name." }),
              cpf: z
                .string()
                .regex(/^\d{11}$/, 'must be 11 digits')
                .optional()
                .openapi({ description: "The payer's CPF." }),
              cnpj: z
                .string()
                .regex(/^\d{14}$/, 'must be 14 digits')
                .optional()
                .openapi({ description: "The payer's CNPJ." }),
            })
            .optional()
            .openapi({ description: 'Who paid (default: a generated payer).' }),
          infoPagador: z
            .string()
            .max(140)
            .optional()
            .openapi({ description: "The payer's message." }),
        }),
      )
      .min(1)
      .max(1000)
      .openapi({ description: 'The PIX received, at most 1,000.' }),
  })
  .openapi('PixNotification', {
    example: {
      pix: [
        {
          endToEndId: NOTIFIED_END_TO_END_ID,
          txid: NOTIFIED_CHARGE_EXAMPLE.transaction_id,
          valor: '10.00',
        },
      ],
    },
  })

export function mountPay(app: OpenAPIHono<AppEnv>, deps: HttpDeps): void {
  const ctx = deps.sandbox

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'post',
      path: '/pay',
      summary: 'Pay whatever charge a copy-and-paste code points at',
      description:
        'A dynamic code is found by its location; a code reused as `payload`, by the newest pending charge carrying it (with company ' +
        "credentials, among that company's charges only). 422 invalid code, 404 no charge for it, 409 not pending or expired, " +
        'or (admin token) pending charges of several companies carry the code: `transaction_id` names the one to pay.',
      request: {
        body: jsonBody(
          z
            .object({
              qr_code: z
                .string()
                .max(512)
                .openapi({ description: 'The copy-and-paste code, as a payer would paste it.' }),
              transaction_id: z.string().max(64).optional().openapi({
                description:
                  'Admin token: which charge, when pending charges of several companies carry the code.',
              }),
              payer: Payer.optional().openapi({
                description: 'Who pays (default: a generated payer).',
              }),
            })
            .strict()
            .openapi({
              example: { qr_code: PAID_BY_CODE_EXAMPLE.qr_code },
            }),
        ),
      },
      responses: {
        200: jsonAnswer('The paid charge.', ChargeRecord, {
          paid: { summary: 'A charge of the story, paid by its code', value: PAID_BY_CODE_EXAMPLE },
        }),
      },
    }),
    'scoped',
    async (c, { body }) => {
      const scope = c.get('scope')
      const charge = chargeForCode(ctx, body.qr_code, {
        companyId: scope.companyId,
        transactionId: body.transaction_id,
      })
      await ctx.fakes.ready()
      return c.json(
        chargeRecord(ctx, payChargeAsBank(ctx, charge.id, body.payer ?? ctx.fakes.payer()).charge),
        200,
      )
    },
  )

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'post',
      path: '/provider-webhook',
      summary: 'Receive a Provider notification of PIX payments (BCB API Pix shape)',
      description:
        'Applied whole or not at all. A repeated endToEndId for the same charge is answered as a duplicate and credits nothing.',
      request: { body: jsonBody(Notification) },
      responses: {
        200: jsonAnswer(
          'What each item did.',
          z
            .object({
              data: z
                .array(
                  z.object({
                    txid: z
                      .string()
                      .openapi({ description: "The item's txid: the charge's transaction_id." }),
                    endToEndId: z.string().openapi({ description: "The item's end-to-end id." }),
                    duplicate: z.boolean().openapi({
                      description:
                        'true: this endToEndId had already paid this charge; nothing was credited again.',
                    }),
                    charge: ChargeRecord,
                  }),
                )
                .openapi({ description: 'One result per item of `pix`, in order.' }),
            })
            .openapi('PixNotificationResult', {
              example: {
                data: [
                  {
                    txid: NOTIFIED_CHARGE_EXAMPLE.transaction_id,
                    endToEndId: NOTIFIED_END_TO_END_ID,
                    duplicate: false,
                    charge: NOTIFIED_CHARGE_EXAMPLE,
                  },
                ],
              },
            }),
        ),
      },
    }),
    'scoped',
    (c, { body }) => {
      const results = receivePix(ctx, body.pix, c.get('scope').companyId)
      return c.json(
        {
          data: results.map((r) => ({
            txid: r.txid,
            endToEndId: r.endToEndId,
            duplicate: r.duplicate,
            charge: chargeRecord(ctx, r.charge),
          })),
        },
        200,
      )
    },
  )
}
