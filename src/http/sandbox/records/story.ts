// The records the examples' story (test/http/examples-story.test.ts) makes after its first calls,
// for the operations whose example is a record of its own: a charge each to expire, cancel, pay by
// its code and pay by a Provider's notification, a pending transfer to settle, and the deliveries
// of the story's subscription. Each is what a sandbox started with SEED=docs
// START_TIME=2026-03-01T12:00:00Z PUBLIC_URL=http://localhost:8080 answers to the story's calls:
// when the story changes, its failing diff gives the new values.
import { VERSION } from '../../../version.js'
import { CHARGE_EXAMPLE } from './charge.js'
import { DELIVERY_EXAMPLE } from './delivery.js'
import { EVENT_EXAMPLE } from './event.js'

// Each charge is CHARGE_EXAMPLE's company's, made at the same frozen time: what differs is written.
const UNPAID = { paid_at: null, end_to_end_id: null, payer: null }

/** Pedido 1235, expired at once (POST /charges/{transaction_id}/expire). */
export const EXPIRED_CHARGE_EXAMPLE = {
  ...CHARGE_EXAMPLE,
  ...UNPAID,
  transaction_id: '087HVGqaTg0wloTu2nWfVfDaeas4dSB1',
  amount: 2500,
  description: 'Pedido 1235',
  status: 'cancelled',
  qr_code:
    '00020101021226720014br.gov.bcb.pix2550localhost:8080/pix/qr/v2/0hg91vteyo019kf5wq1o7mzu9520400005303986540525.005802BR5917Loja Exemplo Ltda6009Sao Paulo62070503***6304172D',
  qr_code_name: 'Loja Exemplo Ltda #2',
  location: 'localhost:8080/pix/qr/v2/0hg91vteyo019kf5wq1o7mzu9',
  cancelled_at: '2026-03-01T12:00:00.000000Z',
  cancel_reason: 'expired',
}

/** Pedido 1236, cancelled (POST /charges/{transaction_id}/cancel). */
export const CANCELLED_CHARGE_EXAMPLE = {
  ...CHARGE_EXAMPLE,
  ...UNPAID,
  transaction_id: '087HVGqaTg4GT8CKHFvKkoxOwvBIfEFk',
  amount: 4000,
  description: 'Pedido 1236',
  status: 'cancelled',
  qr_code:
    '00020101021226720014br.gov.bcb.pix2550localhost:8080/pix/qr/v2/0hg91vteyo015lhcjw9rtudsm520400005303986540540.005802BR5917Loja Exemplo Ltda6009Sao Paulo62070503***63048593',
  qr_code_name: 'Loja Exemplo Ltda #3',
  location: 'localhost:8080/pix/qr/v2/0hg91vteyo015lhcjw9rtudsm',
  cancelled_at: '2026-03-01T12:00:00.000000Z',
  cancel_reason: 'cancelled',
}

/** Pedido 1237, paid by its copy-and-paste code by a generated payer (POST /pay). */
export const PAID_BY_CODE_EXAMPLE = {
  ...CHARGE_EXAMPLE,
  transaction_id: '087HVGqaTg0iJK7R3STBaHBKoTfcDG5k',
  amount: 1500,
  description: 'Pedido 1237',
  status: 'paid',
  qr_code:
    '00020101021226720014br.gov.bcb.pix2550localhost:8080/pix/qr/v2/0hg91vteyo01eyigeqlu0jto2520400005303986540515.005802BR5917Loja Exemplo Ltda6009Sao Paulo62070503***63045341',
  qr_code_name: 'Loja Exemplo Ltda #4',
  location: 'localhost:8080/pix/qr/v2/0hg91vteyo01eyigeqlu0jto2',
  paid_at: '2026-03-01T12:00:00.000000Z',
  cancelled_at: null,
  cancel_reason: null,
  end_to_end_id: 'E0000000020260301120000001N4fBxm',
  payer: { name: 'Samuel Souza', document: '29344843007' },
}

/** The end-to-end id of the Provider's notification (POST /provider-webhook's example). */
export const NOTIFIED_END_TO_END_ID = 'E12345678202603011200abcdefghijk'

/** Pedido 1238, paid by the Provider's notification: its end-to-end id, no payer (none was sent). */
export const NOTIFIED_CHARGE_EXAMPLE = {
  ...CHARGE_EXAMPLE,
  transaction_id: '087HVGqaTg2wdROwpf9r3ByDr8d4zMvh',
  amount: 1000,
  description: 'Pedido 1238',
  status: 'paid',
  qr_code:
    '00020101021226720014br.gov.bcb.pix2550localhost:8080/pix/qr/v2/0hg91vteyo00868514npgs49w520400005303986540510.005802BR5917Loja Exemplo Ltda6009Sao Paulo62070503***63044D9F',
  qr_code_name: 'Loja Exemplo Ltda #5',
  location: 'localhost:8080/pix/qr/v2/0hg91vteyo00868514npgs49w',
  paid_at: '2026-03-01T12:00:00.000000Z',
  cancelled_at: null,
  cancel_reason: null,
  end_to_end_id: NOTIFIED_END_TO_END_ID,
  payer: null,
}

/** A transfer to pending@pix.example (which settles later), settled at once as a success. */
export const SETTLED_TRANSFER_EXAMPLE = {
  transaction_id: 'E00000000202603011200000000mcMfm',
  company_id: 'loja-exemplo',
  user_id: 'loja-exemplo-user',
  amount: 3000,
  description: null,
  pix_key: 'pending@pix.example',
  pix_type: 'EMAIL',
  status: 'success',
  message: 'Transfer completed',
  created_at: '2026-03-01T12:00:00.000000Z',
  settle_at: null,
  final_status: null,
  settled_at: '2026-03-01T12:00:00.000000Z',
}

/** The delivery of EVENT_EXAMPLE (the first charge's payment) to the story's subscription. */
export const CHARGE_PAID_DELIVERY_EXAMPLE = {
  ...DELIVERY_EXAMPLE,
  id: 'msg_5izNCb40wCvRa00FXveUDK5O',
  event_id: EVENT_EXAMPLE.id,
  event_type: EVENT_EXAMPLE.type,
  body: {
    type: EVENT_EXAMPLE.type,
    timestamp: '2026-03-01T12:00:00.000Z',
    data: { ...EVENT_EXAMPLE.data, company_id: EVENT_EXAMPLE.company_id },
  },
  attempts: [
    {
      at: '2026-03-01T12:00:00.000000Z',
      status_code: 204,
      latency_ms: 56.883,
      error: null,
      chaos: null,
      headers: {
        'content-type': 'application/json',
        'user-agent': `pix-sandbox/${VERSION}`,
        'webhook-id': EVENT_EXAMPLE.id,
        'webhook-timestamp': '1795814318',
        'webhook-signature': 'v1,swZzYCTxiE4uKzsDvBp4I6YTmDasNQvcSto9nD7hpzc=',
      },
    },
  ],
}

/** DELIVERY_EXAMPLE sent again: a second attempt, answered 204 too. */
export const RETRIED_DELIVERY_EXAMPLE = {
  ...DELIVERY_EXAMPLE,
  attempts: [...DELIVERY_EXAMPLE.attempts, { ...DELIVERY_EXAMPLE.attempts[0]!, latency_ms: 7.523 }],
}
