// Transfers: the list, a transfer's page with its ledger entries and Settle buttons while it is
// pending, the queue of next outcomes, and the magic values of the scenario in force.
import { isoMicros } from '../../domain/time.js'
import { query } from '../control.js'
import { brl } from '../format.js'
import { Action, Badge, Card, Empty, Id, Json, Money, Pager, Time } from '../components.js'
import type { Form, Ui } from '../router.js'
import { UI_BASE } from '../session.js'
import { read, type View } from '../view.js'

const PAGE = 25
export const transferHref = (id: string) => `${UI_BASE}/transfers/${encodeURIComponent(id)}`
const num = (v: string | undefined) => (v?.trim() ? Number(v.replace(',', '.')) : undefined)
const text = (v: string | undefined) => (v?.trim() ? v.trim() : undefined)

/** A rule's condition in words; amounts in cents and in reais. */
const when = (w: object) =>
  Object.entries(w)
    .map(([k, v]) => (k.startsWith('amount') ? `${k} = ${v} (${brl(v as number)})` : `${k} = ${v}`))
    .join(', ')

function CheatSheet({ ui }: { ui: Ui }) {
  const rules = ui.deps.sandbox.store.setup.rules()
  return (
    <Card title="Magic values (the scenario in force)">
      {rules.transfers.length + rules.charges.length === 0 ? (
        <p class="muted">This scenario has no rules.</p>
      ) : (
        <div class="scroll">
          <table>
            <thead>
              <tr>
                <th>When</th>
                <th>Then</th>
              </tr>
            </thead>
            <tbody>
              {rules.transfers.map((r) => (
                <tr>
                  <td>transfer {when(r.when)}</td>
                  <td>
                    <Badge value={r.then.status} /> {r.then.message}
                    {r.then.settle_after_seconds !== undefined && ` → ${r.then.final_status ?? 'success'} after ${r.then.settle_after_seconds} s (virtual)`}
                  </td>
                </tr>
              ))}
              {rules.charges.map((r) => (
                <tr>
                  <td>charge {when(r.when)}</td>
                  <td>
                    {r.then.auto_pay_after_seconds !== undefined && `paid after ${r.then.auto_pay_after_seconds} s (virtual)`}
                    {r.then.auto_cancel_after_seconds !== undefined && `cancelled after ${r.then.auto_cancel_after_seconds} s (virtual)`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p class="muted">A request may also pick its outcome with the header X-Sandbox-Outcome: success | pending | failed.</p>
    </Card>
  )
}

async function Outcomes({ view }: { view: View }) {
  const queued = await read(view, '/outcomes?limit=100')
  return (
    <Card title="Next outcomes" id="outcomes" live="outcome transfer">
      {queued.data.length === 0 ? (
        <p class="muted">None queued: transfers follow the rules and magic values.</p>
      ) : (
        <div class="scroll">
          <Json value={queued.data} />
          <Action path="/outcomes/clear" label="Clear queued outcomes" tone="danger" />
        </div>
      )}
      <form method="post" action={`${UI_BASE}/outcomes`} class="row">
        <label>
          Status
          <select name="status">
            <option>success</option>
            <option>pending</option>
            <option>failed</option>
          </select>
        </label>
        <label>
          Message
          <input name="message" maxlength={200} />
        </label>
        <label>
          Settle after (s)
          <input name="settle_after_seconds" size={6} inputmode="numeric" />
        </label>
        <label>
          Final status
          <select name="final_status">
            <option value="">—</option>
            <option>success</option>
            <option>failed</option>
          </select>
        </label>
        <label>
          Only for key
          <input name="pix_key" />
        </label>
        <label>
          Times
          <input name="times" size={4} value="1" inputmode="numeric" />
        </label>
        {view.scope.admin && (
          <label>
            company_id (blank: all)
            <input name="company_id" />
          </label>
        )}
        <button type="submit" class="primary">Queue</button>
      </form>
    </Card>
  )
}

export function mountTransfers(ui: Ui): void {
  const { store } = ui.deps.sandbox

  ui.page('/transfers', '/transfers', async (view, c) => {
    const status = c.req.query('status') || undefined
    const company = c.req.query('company_id') || undefined
    const cursor = c.req.query('cursor') || undefined
    const page = await read(view, `/transfers${query({ status, company_id: company, cursor, limit: PAGE })}`)
    const curl = `curl -s -u sandbox-client:sandbox-secret -H 'content-type: application/json' -d '{"amount": 2500, "pix_key": "pending@pix.example", "pix_type": "EMAIL"}' ${view.publicUrl}/api/v1/hub/transactions/out`
    return {
      title: 'Transfers',
      body: (
        <>
          <Card>
            <form method="get" action={`${UI_BASE}/transfers`} class="inline">
              <label>
                Status
                <select name="status">
                  <option value="">any</option>
                  {['pending', 'success', 'failed'].map((s) => (
                    <option selected={s === status}>{s}</option>
                  ))}
                </select>
              </label>
              {view.scope.admin && (
                <label>
                  company_id
                  <input name="company_id" value={company ?? ''} />
                </label>
              )}
              <button type="submit">Filter</button>
            </form>
          </Card>
          <Card id="transfers" live="transfer">
            {page.data.length === 0 ? (
              <Empty text={cursor ? 'No older transfers.' : 'No transfers yet: send one with'} command={cursor ? undefined : curl} />
            ) : (
              <div class="scroll">
                <table>
                  <thead>
                    <tr>
                      <th>Transfer (transaction_id)</th>
                      <th class="num">Amount</th>
                      <th>Status</th>
                      <th class="hide-narrow">Key</th>
                      <th class="hide-narrow">Created</th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.data.map((t: any) => (
                      <tr data-id={t.transaction_id}>
                        <td>
                          <Id value={t.transaction_id} href={transferHref(t.transaction_id)} />
                        </td>
                        <td class="num">
                          <Money cents={t.amount} />
                        </td>
                        <td>
                          <Badge value={t.status} />
                        </td>
                        <td class="hide-narrow">
                          <code>{t.pix_key}</code> <span class="muted">{t.pix_type}</span>
                        </td>
                        <td class="hide-narrow">
                          <Time iso={t.created_at} tz={view.tz} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <Pager base="/transfers" next={page.next_cursor} params={{ status, company_id: company, cursor }} />
          </Card>
          <Outcomes view={view} />
          <CheatSheet ui={ui} />
        </>
      ),
    }
  })

  ui.page('/transfers/:id', '/transfers', async (view, c) => {
    const t = await read(view, `/transfers/${encodeURIComponent(c.req.param('id') ?? '')}`)
    const entries = store.events.about(t.company_id, t.transaction_id).filter((e) => e.type === 'balance.changed')
    const here = transferHref(t.transaction_id)
    return {
      title: `Transfer ${t.transaction_id}`,
      body: (
        <>
          <Card id="transfer" live="transfer balance clock" ids={t.transaction_id}>
            <dl class="facts">
              <dt>Status</dt>
              <dd>
                <Badge value={t.status} /> {t.message}
              </dd>
              <dt>Amount</dt>
              <dd>
                <Money cents={t.amount} />
              </dd>
              <dt>Key</dt>
              <dd>
                <code>{t.pix_key}</code> ({t.pix_type})
              </dd>
              <dt>end_to_end_id</dt>
              <dd>
                <Id value={t.transaction_id} />
              </dd>
              <dt>Company</dt>
              <dd>
                <Id value={t.company_id} />
              </dd>
              <dt>Created</dt>
              <dd>
                <Time iso={t.created_at} tz={view.tz} />
              </dd>
              {t.settle_at && (
                <>
                  <dt>Settles</dt>
                  <dd>
                    {t.final_status} at <Time iso={t.settle_at} tz={view.tz} />
                  </dd>
                </>
              )}
              {t.settled_at && (
                <>
                  <dt>Settled</dt>
                  <dd>
                    <Time iso={t.settled_at} tz={view.tz} />
                  </dd>
                </>
              )}
            </dl>
            {t.status === 'pending' && (
              <div class="row" id="transfer-actions">
                <Action path={`/transfers/${t.transaction_id}/settle`} label="Settle success" fields={{ status: 'success' }} tone="primary" back={here} />
                <Action path={`/transfers/${t.transaction_id}/settle`} label="Settle failed" fields={{ status: 'failed' }} tone="danger" back={here} />
              </div>
            )}
          </Card>
          <Card title="Ledger entries" id="ledger" live="transfer balance" ids={t.transaction_id}>
            {entries.length === 0 ? (
              <p class="muted">No ledger entry for this transfer.</p>
            ) : (
              <table>
                <thead>
                  <tr>
                    <th>When</th>
                    <th>Kind</th>
                    <th class="num">Amount</th>
                    <th class="num">Balance after</th>
                  </tr>
                </thead>
                <tbody>
                  {entries.map((e) => (
                    <tr>
                      <td>
                        <Time iso={isoMicros(e.at)} tz={view.tz} />
                      </td>
                      <td>{String(e.data.kind)}</td>
                      <td class="num">
                        <Money cents={Number(e.data.amount)} />
                      </td>
                      <td class="num">
                        <Money cents={Number(e.data.balance)} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </Card>
        </>
      ),
    }
  })

  ui.action('/transfers/:id/settle', (form: Form, _view, c) => ({
    method: 'POST',
    path: `/transfers/${encodeURIComponent(c.req.param('id') ?? '')}/settle`,
    body: { status: form.status, ...(text(form.message) && { message: text(form.message) }) },
    ok: (r) => `Transfer settled: ${r.body.status}`,
  }))

  ui.action('/outcomes', (form: Form) => {
    const match = { ...(text(form.pix_key) && { pix_key: text(form.pix_key) }) }
    return {
      method: 'POST',
      path: '/outcomes',
      body: {
        status: form.status,
        ...(text(form.message) && { message: text(form.message) }),
        ...(num(form.settle_after_seconds) !== undefined && { settle_after_seconds: num(form.settle_after_seconds) }),
        ...(text(form.final_status) && { final_status: text(form.final_status) }),
        ...(num(form.times) !== undefined && { times: num(form.times) }),
        ...(text(form.company_id) && { company_id: text(form.company_id) }),
        match,
      },
      ok: () => 'Outcome queued',
    }
  })
  ui.action('/outcomes/clear', () => ({ method: 'DELETE', path: '/outcomes', ok: () => 'Queued outcomes cleared' }))
}
