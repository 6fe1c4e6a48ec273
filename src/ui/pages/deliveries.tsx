// The Webhooks page's deliveries: every attempt with its status code, latency and the exact
// headers it sent, the body sent, and Retry. Re-rendered live when the worker records an attempt
// (topic delivery), so nothing polls.
import { Action, Badge, Card, Cell, Id, Json, Money, Pager, Table, Time } from '../components.js'
import { millis } from '../format.js'
import { chargeHref, transferHref } from '../links.js'
import type { Answer, View } from '../view.js'

interface Attempt {
  at: string
  status_code: number | null
  latency_ms: number | null
  error: string | null
  chaos: string | null
  headers: Record<string, string> | null
}

/** The headers as they go on the wire, one `name: value` a line. */
const Headers = ({ headers }: { headers: Record<string, string> | null }) =>
  headers ? (
    <pre class="body headers">
      {Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}`)
        .join('\n')}
    </pre>
  ) : (
    <p class="muted">
      No headers recorded: nothing was sent, or the attempt is older than the store's record of
      them.
    </p>
  )

/** One attempt: its outcome as the summary, the headers it sent inside; `openKey` keeps it open across live refreshes. */
const AttemptRow = ({ a, openKey }: { a: Attempt; openKey: string }) => (
  <details class="attempt" data-key={openKey}>
    <summary>
      {a.status_code !== null ? (
        <Badge value={String(a.status_code)} />
      ) : (
        <span>{a.error ?? '—'}</span>
      )}{' '}
      <span class="muted">{millis(a.latency_ms)}</span> {a.chaos && <Badge value={a.chaos} />}
    </summary>
    <Headers headers={a.headers} />
  </details>
)

/**
 * The charge or transfer a delivery is about and its amount, read from the body it sent: the
 * standard format's `data`, or the bcb format's first `pix` (`txid`, `valor` in reais).
 */
export function subjectOf(body: unknown): { id?: string; cents?: number } {
  const b = body as { data?: Record<string, unknown>; pix?: Record<string, unknown>[] } | null
  const pix = Array.isArray(b?.pix) ? b.pix[0] : undefined
  const id = b?.data?.transaction_id ?? pix?.txid
  const amount = b?.data?.amount ?? pix?.valor
  const cents =
    typeof amount === 'number'
      ? amount
      : typeof amount === 'string' && /^\d+\.\d{2}$/.test(amount)
        ? Number(amount.replace('.', ''))
        : undefined
  return { ...(typeof id === 'string' && { id }), ...(cents !== undefined && { cents }) }
}

const Subject = ({ type, body }: { type: string; body: unknown }) => {
  const { id, cents } = subjectOf(body)
  if (id === undefined && cents === undefined) return null
  const href =
    id === undefined
      ? undefined
      : type.startsWith('charge.')
        ? chargeHref(id)
        : type.startsWith('transfer.')
          ? transferHref(id)
          : undefined
  return (
    <div class="subject">
      {id !== undefined && <Id value={id} href={href} />}{' '}
      {cents !== undefined && <Money cents={cents} />}
    </div>
  )
}

export const DeliveriesCard = ({
  view,
  deliveries,
  cursor,
}: {
  view: View
  deliveries: Answer<'/webhooks/deliveries'>
  cursor?: string
}) => (
  <Card title="Deliveries" id="deliveries" live="event delivery webhook">
    {deliveries.data.length === 0 ? (
      <p class="muted">
        No deliveries yet: they appear when a subscribed event happens (pay a charge), or with Send
        test.
      </p>
    ) : (
      <Table
        class="stacked"
        head={['Delivery', 'Event', 'Status', 'Attempts (open one for its headers)', '']}
      >
        {deliveries.data.map((d) => (
          <tr data-id={d.id}>
            <Cell label="Delivery">
              <Id value={d.id} />
              <div class="muted">
                to <code>{d.webhook_id}</code>, <Time iso={d.created_at} tz={view.tz} />
              </div>
            </Cell>
            <Cell label="Event">
              <code>{d.event_type}</code>
              <Subject type={d.event_type} body={d.body} />
            </Cell>
            <Cell label="Status">
              <Badge value={d.status} /> {d.last_error && <div class="muted">{d.last_error}</div>}
            </Cell>
            <Cell label="Attempts" class="attempts">
              {d.attempts.length === 0 && <span class="muted">none yet</span>}
              {d.attempts.map((a: Attempt, i: number) => (
                <AttemptRow a={a} openKey={`${d.id}:${i}`} />
              ))}
              <details data-key={`${d.id}:body`}>
                <summary>Body sent</summary>
                <Json value={d.body} />
              </details>
            </Cell>
            <Cell label="">
              <Action path={`/webhooks/deliveries/${d.id}/retry`} label="Retry" />
            </Cell>
          </tr>
        ))}
      </Table>
    )}
    <Pager base="/webhooks" next={deliveries.next_cursor} params={{ cursor }} />
  </Card>
)
