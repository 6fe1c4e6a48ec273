// Webhooks: subscriptions (create, reveal the secret, delete, chaos, send a test) and the
// deliveries with every attempt and the exact body and headers sent, with Retry (deliveries.tsx).
import { filters, numberField as prob } from '../fields.js'
import { Action, Badge, Card, CopyButton, Empty, Id, Select } from '../components.js'
import type { Form, Ui } from '../router.js'
import { UI_BASE } from '../session.js'
import { checkFlash } from '../receiver-check.js'
import { DeliveriesCard } from './deliveries.js'
import { read } from '../view.js'

/** The chaos given as a chance per delivery, and its label. */
const CHANCES = [
  ['drop', 'Drop'],
  ['duplicate', 'Duplicate'],
  ['bad_signature', 'Bad signature'],
] as const

const EVENTS = [
  'charge.paid',
  'charge.cancelled',
  'transfer.succeeded',
  'transfer.failed',
  'transfer.pending',
]

/** A subscription's chaos in words: "drops 50% of deliveries, delays each by 200 ms". */
function chaosText(chaos: {
  drop?: number
  duplicate?: number
  bad_signature?: number
  delay_ms?: number
  reorder?: boolean
}): string {
  const share = (p: number) => (p >= 1 ? 'every delivery' : `${Math.round(p * 100)}% of deliveries`)
  return (
    [
      chaos.drop && `drops ${share(chaos.drop)}`,
      chaos.duplicate && `sends ${share(chaos.duplicate)} twice`,
      chaos.bad_signature && `signs ${share(chaos.bad_signature)} wrongly`,
      chaos.delay_ms && `delays each by ${chaos.delay_ms} ms`,
      chaos.reorder && 'holds events back and sends them newest first',
    ]
      .filter(Boolean)
      .join(', ') || 'none'
  )
}

export function mountWebhooks(ui: Ui): void {
  ui.page('/webhooks', '/webhooks', async (view, c) => {
    const { cursor } = filters(c, 'cursor')
    const [subs, deliveries] = await Promise.all([
      read(view, '/webhooks', { query: { limit: 100 } }),
      read(view, '/webhooks/deliveries', { query: { cursor, limit: 25 } }),
    ])
    return {
      title: 'Webhooks',
      body: (
        <>
          <Card title="Subscriptions" id="subscriptions" live="webhook">
            {subs.data.length === 0 ? (
              <Empty
                text="No subscriptions yet: add one below, or with"
                command={`curl -s -H "Authorization: Bearer $SANDBOX_ADMIN_TOKEN" -H 'content-type: application/json' -d '{"url": "http://127.0.0.1:3000/webhooks"}' ${view.publicUrl}/_sandbox/webhooks`}
              />
            ) : (
              subs.data.map((w) => (
                <div class="card" data-id={w.id}>
                  <dl class="facts">
                    <dt>Id</dt>
                    <dd>
                      <Id value={w.id} />{' '}
                      {w.disabled_at ? <Badge value="disabled" /> : <Badge value="active" />}{' '}
                      {w.disabled_reason}
                    </dd>
                    <dt>URL</dt>
                    <dd>
                      <code>{w.url}</code> <span class="muted">({w.format})</span>
                    </dd>
                    <dt>Events</dt>
                    <dd>{w.events.join(', ')}</dd>
                    <dt>Company</dt>
                    <dd>{w.company_id ?? 'every company'}</dd>
                    <dt>Secret</dt>
                    <dd>
                      <details>
                        <summary>Reveal</summary>
                        <code>{w.secret}</code> <CopyButton text={w.secret} />
                      </details>
                    </dd>
                    <dt>Chaos</dt>
                    <dd>{w.chaos ? chaosText(w.chaos) : <span class="muted">none</span>}</dd>
                  </dl>
                  <div class="row actions">
                    <Action path={`/webhooks/${w.id}/test`} label="Send test" />
                    {w.format === 'standard' && (
                      <Action path={`/webhooks/${w.id}/check`} label="Check receiver" />
                    )}
                  </div>
                  <form method="post" action={`${UI_BASE}/webhooks/${w.id}/chaos`}>
                    <fieldset class="fields chaos">
                      <legend>Chaos: what happens to its next deliveries</legend>
                      {CHANCES.map(([name, label]) => (
                        <label>
                          {label} (chance, 0 to 1)
                          <input name={name} inputmode="decimal" value={w.chaos?.[name] ?? ''} />
                        </label>
                      ))}
                      <label>
                        Delay (ms)
                        <input
                          name="delay_ms"
                          inputmode="numeric"
                          value={w.chaos?.delay_ms ?? ''}
                        />
                      </label>
                      <label class="check">
                        <input
                          type="checkbox"
                          name="reorder"
                          value="true"
                          checked={w.chaos?.reorder === true}
                        />{' '}
                        Reorder: hold events back, send newest first
                      </label>
                      <div class="row">
                        <button type="submit">Set chaos</button>
                        {w.chaos && (
                          <button
                            type="submit"
                            formaction={`${UI_BASE}/webhooks/${w.id}/chaos/clear`}
                          >
                            Clear chaos
                          </button>
                        )}
                      </div>
                    </fieldset>
                  </form>
                  <div class="apart">
                    <Action
                      path={`/webhooks/${w.id}/delete`}
                      label="Delete this subscription"
                      tone="danger"
                    />
                  </div>
                </div>
              ))
            )}
            <h2>New subscription</h2>
            <form method="post" action={`${UI_BASE}/webhooks`} class="row">
              <label>
                URL
                <input name="url" size={36} required placeholder="http://127.0.0.1:3000/webhooks" />
              </label>
              <Select label="Format" name="format" options={['standard', 'bcb']} />
              <fieldset class="row">
                <legend class="muted">Events (none ticked: all)</legend>
                {EVENTS.map((e) => (
                  <label class="check">
                    <input type="checkbox" name={`event:${e}`} value="on" /> {e}
                  </label>
                ))}
              </fieldset>
              <button type="submit" class="primary">
                Subscribe
              </button>
            </form>
          </Card>
          <DeliveriesCard view={view} deliveries={deliveries} cursor={cursor} />
        </>
      ),
    }
  })

  ui.action('/webhooks', (form: Form) => {
    const events = EVENTS.filter((e) => form[`event:${e}`] === 'on')
    return {
      method: 'POST',
      path: '/webhooks',
      body: { url: (form.url ?? '').trim(), format: form.format, ...(events.length && { events }) },
      ok: (r) => ({
        kind: 'ok',
        text: `Subscribed ${r.body.id}. Its signing secret:`,
        reveal: [['secret', r.body.secret]],
      }),
    }
  })
  ui.action('/webhooks/:id/delete', (_f, _v, c) => ({
    method: 'DELETE',
    path: `/webhooks/${encodeURIComponent(c.req.param('id') ?? '')}`,
    ok: () => 'Subscription deleted',
  }))
  ui.action('/webhooks/:id/test', (_f, _v, c) => ({
    method: 'POST',
    path: `/webhooks/${encodeURIComponent(c.req.param('id') ?? '')}/test`,
    ok: (r) => `Test sent: ${r.body.status}`,
  }))
  ui.action('/webhooks/:id/check', (_f, _v, c) => ({
    method: 'POST',
    path: `/webhooks/${encodeURIComponent(c.req.param('id') ?? '')}/check`,
    ok: (r) => checkFlash(r.body),
  }))
  ui.action('/webhooks/:id/chaos', (form: Form, _v, c) => {
    const body: Record<string, unknown> = {}
    for (const k of ['drop', 'duplicate', 'bad_signature', 'delay_ms'])
      if (prob(form[k]) !== undefined) body[k] = prob(form[k])
    if (form.reorder === 'true') body.reorder = true
    return {
      method: 'PUT',
      path: `/webhooks/${encodeURIComponent(c.req.param('id') ?? '')}/chaos`,
      body,
      ok: () => 'Chaos set',
    }
  })
  ui.action('/webhooks/:id/chaos/clear', (_f, _v, c) => ({
    method: 'DELETE',
    path: `/webhooks/${encodeURIComponent(c.req.param('id') ?? '')}/chaos`,
    ok: () => 'Chaos cleared',
  }))
  ui.action('/webhooks/deliveries/:id/retry', (_f, _v, c) => ({
    method: 'POST',
    path: `/webhooks/deliveries/${encodeURIComponent(c.req.param('id') ?? '')}/retry`,
    ok: (r) => `Delivery ${r.body.status}`,
  }))
}
