// Charges: the list (newest first, by status and company, paged) and a charge's page: its QR
// code, copy-and-paste code, amount, status, countdown to expiry, payer, timeline, and the
// transitions its state allows. Plus "Pay a code", which pays whatever charge a code points at.
import { raw } from 'hono/html'
import QRCode from 'qrcode'
import { CHARGE_STATUSES } from '../../domain/enums.js'
import {
  Action,
  Badge,
  Card,
  Cell,
  CompanyFilter,
  CopyButton,
  Empty,
  Filters,
  Id,
  Money,
  Pager,
  Select,
  Table,
  Time,
} from '../components.js'
import { filters } from '../fields.js'
import { isoToMicros } from '../format.js'
import { usersOf } from '../act-as.js'
import { chargeHref } from '../links.js'
import type { Ui } from '../router.js'
import { UI_BASE } from '../session.js'
import { companyChoices, read, type Answer, type View } from '../view.js'
import { NewCharge } from './send.js'
import { KeptText } from '../kept-text.js'

const PAGE = 25
/** Events a charge's timeline shows at most. */
const TIMELINE = 100

export function PayACode() {
  return (
    <Card title="Pay a code">
      <form method="post" action={`${UI_BASE}/pay`} class="stack">
        <label>
          A copy-and-paste BR Code (as a payer's bank would read it)
          <textarea
            name="qr_code"
            class="code"
            required
            maxlength={600}
            placeholder="000201010212..."
          ></textarea>
        </label>
        <button type="submit" class="primary">
          Pay
        </button>
      </form>
    </Card>
  )
}

export function mountCharges(ui: Ui): void {
  const curl = (view: View) =>
    `curl -s -u sandbox-client:sandbox-secret -H 'content-type: application/json' -d '{"amount": 1000}' ${view.publicUrl}/api/v1/hub/transactions/in`

  ui.page('/charges', '/charges', async (view, c) => {
    const { status, company_id: company, cursor } = filters(c, 'status', 'company_id', 'cursor')
    const [page, choices, users, scenario] = await Promise.all([
      read(view, '/charges', {
        query: {
          status: status as Answer<'/charges'>['data'][number]['status'] | undefined,
          company_id: company,
          cursor,
          limit: PAGE,
        },
      }),
      companyChoices(view),
      usersOf(view),
      read(view, '/scenario'),
    ])
    return {
      title: 'Charges',
      body: (
        <>
          <NewCharge view={view} users={users} scenario={scenario} />
          <Filters path="/charges">
            <Select
              label="Status"
              name="status"
              options={[['', 'any'], ...CHARGE_STATUSES]}
              selected={status}
            />
            <CompanyFilter admin={view.scope.admin} choices={choices} selected={company} />
          </Filters>
          <Card id="charges" live="charge">
            {page.data.length === 0 ? (
              <Empty
                text={cursor ? 'No older charges.' : 'No charges yet: create one above, or with'}
                command={cursor ? undefined : curl(view)}
              />
            ) : (
              <Table
                class="stacked"
                head={[
                  'Charge',
                  ['Amount', 'num'],
                  'Status',
                  ...(view.scope.admin ? ['Company'] : []),
                  'Created',
                ]}
              >
                {page.data.map((ch) => (
                  <tr data-id={ch.transaction_id}>
                    <Cell label="Charge">
                      <Id value={ch.transaction_id} href={chargeHref(ch.transaction_id)} />
                    </Cell>
                    <Cell label="Amount" class="num">
                      <Money cents={ch.amount} />
                    </Cell>
                    <Cell label="Status">
                      <Badge value={ch.status} />
                    </Cell>
                    {view.scope.admin && <Cell label="Company">{ch.company_id}</Cell>}
                    <Cell label="Created">
                      <Time iso={ch.created_at} tz={view.tz} />
                    </Cell>
                  </tr>
                ))}
              </Table>
            )}
            <Pager
              base="/charges"
              next={page.next_cursor}
              params={{ status, company_id: company, cursor }}
            />
          </Card>
          <PayACode />
        </>
      ),
    }
  })

  ui.page('/charges/:id', '/charges', async (view, c) => {
    const ch = await read(view, '/charges/{transaction_id}', {
      path: { transaction_id: c.req.param('id') ?? '' },
    })
    const svg = await QRCode.toString(ch.qr_code, {
      type: 'svg',
      errorCorrectionLevel: 'M',
      margin: 2,
    })
    const events = (
      await read(view, '/events', {
        query: { transaction_id: ch.transaction_id, company_id: ch.company_id, limit: TIMELINE },
      })
    ).data
    const here = chargeHref(ch.transaction_id)
    const expiresMs = Math.floor(isoToMicros(ch.expiration) / 1000)
    return {
      title: `Charge ${ch.transaction_id}`,
      body: (
        <>
          <section class="card" id="charge" data-live="charge clock" data-ids={ch.transaction_id}>
            <div class="charge-top">
              <div>
                <div class="qr" id="qr" role="img" aria-label="QR code of the charge">
                  {raw(svg)}
                </div>
              </div>
              <div class="stack">
                <dl class="facts">
                  <dt>Status</dt>
                  <dd>
                    <Badge value={ch.status} />{' '}
                    {ch.cancel_reason && <span class="muted">({ch.cancel_reason})</span>}
                  </dd>
                  <dt>Amount</dt>
                  <dd class="amount">
                    <Money cents={ch.amount} />
                  </dd>
                  <dt>Transaction id</dt>
                  <dd>
                    <Id value={ch.transaction_id} />
                  </dd>
                  <dt>Company</dt>
                  <dd>
                    <Id value={ch.company_id} />
                  </dd>
                  <KeptText label="Description" value={ch.description} />
                  <dt>Created</dt>
                  <dd>
                    <Time iso={ch.created_at} tz={view.tz} />
                  </dd>
                  <dt>Expires</dt>
                  <dd>
                    <Time iso={ch.expiration} tz={view.tz} />{' '}
                    {ch.status === 'pending' && (
                      <span
                        class="badge info countdown"
                        data-expires={String(expiresMs)}
                        data-now={String(Math.floor(view.nowUs / 1000))}
                        data-frozen={String(view.frozen)}
                      ></span>
                    )}
                  </dd>
                  {ch.paid_at && (
                    <>
                      <dt>Paid</dt>
                      <dd>
                        <Time iso={ch.paid_at} tz={view.tz} />
                      </dd>
                      <dt>Payer</dt>
                      <dd class="payer">
                        {ch.payer ? `${ch.payer.name} (${ch.payer.document})` : '—'}
                      </dd>
                      <dt>End-to-end id</dt>
                      <dd>
                        <Id value={ch.end_to_end_id} />
                      </dd>
                    </>
                  )}
                </dl>
                {ch.status === 'pending' && (
                  <div class="row actions" id="charge-actions">
                    <Action
                      path={`/charges/${ch.transaction_id}/pay`}
                      label="Pay"
                      tone="primary"
                      back={here}
                    />
                    <Action
                      path={`/charges/${ch.transaction_id}/expire`}
                      label="Expire"
                      back={here}
                    />
                    <Action
                      path={`/charges/${ch.transaction_id}/cancel`}
                      label="Cancel"
                      tone="danger"
                      back={here}
                    />
                  </div>
                )}
              </div>
            </div>
            <h2>Copy and paste</h2>
            <textarea class="code" id="qr-code" readonly>
              {ch.qr_code}
            </textarea>
            <CopyButton text={ch.qr_code} label="Copy code" />
          </section>
          <Card title="Timeline" id="timeline" live="charge balance" ids={ch.transaction_id}>
            <ol class="timeline">
              {events.map((e) => (
                <li>
                  <code>{e.type}</code> <Time iso={e.at} tz={view.tz} />
                  {typeof e.data.balance === 'number' && (
                    <span class="muted">
                      {' '}
                      balance <Money cents={e.data.balance} />
                    </span>
                  )}
                </li>
              ))}
            </ol>
          </Card>
        </>
      ),
    }
  })

  for (const action of ['pay', 'expire', 'cancel'] as const) {
    ui.action(`/charges/:id/${action}`, (_form, _view, c) => ({
      method: 'POST',
      path: `/charges/${encodeURIComponent(c.req.param('id')!)}/${action}`,
      ok: (r) =>
        `Charge ${r.body.status}${r.body.cancel_reason ? ` (${r.body.cancel_reason})` : ''}`,
      page: chargeHref(c.req.param('id')!),
    }))
  }

  ui.action('/pay', (form) => ({
    method: 'POST',
    path: '/pay',
    body: { qr_code: (form.qr_code ?? '').trim() },
    ok: (r) => `Paid charge ${r.body.transaction_id}`,
    goTo: (r) => chargeHref(r.body.transaction_id),
  }))
}
