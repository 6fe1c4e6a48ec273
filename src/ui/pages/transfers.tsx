// Transfers: the list, a transfer's page with its ledger entries and Settle buttons while it is
// pending; with the queue of next outcomes and the magic values (outcomes.tsx).
import { SETTLED_STATUSES, TRANSFER_STATUSES } from '../../domain/enums.js'
import {
  Action,
  Badge,
  Card,
  Cell,
  CompanyFilter,
  Empty,
  Filters,
  Id,
  Money,
  Pager,
  Select,
  Table,
  Time,
} from '../components.js'
import { filters, textField as text } from '../fields.js'
import { usersOf } from '../act-as.js'
import { transferHref } from '../links.js'
import type { Form, Ui } from '../router.js'
import { companyChoices, read, type Answer } from '../view.js'
import { CheatSheet, mountOutcomes, Outcomes } from './outcomes.js'
import { SendTransfer } from './send.js'
import { KeptText } from '../kept-text.js'

const PAGE = 25

export function mountTransfers(ui: Ui): void {
  mountOutcomes(ui)

  ui.page('/transfers', '/transfers', async (view, c) => {
    const { status, company_id: company, cursor } = filters(c, 'status', 'company_id', 'cursor')
    const [page, choices, scenario, users] = await Promise.all([
      read(view, '/transfers', {
        query: {
          status: status as Answer<'/transfers'>['data'][number]['status'] | undefined,
          company_id: company,
          cursor,
          limit: PAGE,
        },
      }),
      companyChoices(view),
      read(view, '/scenario'),
      usersOf(view),
    ])
    const curl = `curl -s -u sandbox-client:sandbox-secret -H 'content-type: application/json' -d '{"amount": 2500, "pix_key": "pending@pix.example", "pix_type": "EMAIL"}' ${view.publicUrl}/api/v1/hub/transactions/out`
    return {
      title: 'Transfers',
      body: (
        <>
          <SendTransfer view={view} users={users} scenario={scenario} />
          <Filters path="/transfers">
            <Select
              label="Status"
              name="status"
              options={[['', 'any'], ...TRANSFER_STATUSES]}
              selected={status}
            />
            <CompanyFilter admin={view.scope.admin} choices={choices} selected={company} />
          </Filters>
          <Card id="transfers" live="transfer">
            {page.data.length === 0 ? (
              <Empty
                text={cursor ? 'No older transfers.' : 'No transfers yet: send one above, or with'}
                command={cursor ? undefined : curl}
              />
            ) : (
              <Table
                class="stacked"
                head={[
                  'Transfer',
                  ['Amount', 'num'],
                  'Status',
                  'Key',
                  ...(view.scope.admin ? ['Company'] : []),
                  'Created',
                ]}
              >
                {page.data.map((t) => (
                  <tr data-id={t.transaction_id}>
                    <Cell label="Transfer">
                      <Id value={t.transaction_id} href={transferHref(t.transaction_id)} />
                    </Cell>
                    <Cell label="Amount" class="num">
                      <Money cents={t.amount} />
                    </Cell>
                    <Cell label="Status">
                      <Badge value={t.status} />
                    </Cell>
                    <Cell label="Key">
                      <code class="wrap">{t.pix_key}</code> <span class="muted">{t.pix_type}</span>
                    </Cell>
                    {view.scope.admin && <Cell label="Company">{t.company_id}</Cell>}
                    <Cell label="Created">
                      <Time iso={t.created_at} tz={view.tz} />
                    </Cell>
                  </tr>
                ))}
              </Table>
            )}
            <Pager
              base="/transfers"
              next={page.next_cursor}
              params={{ status, company_id: company, cursor }}
            />
          </Card>
          <Outcomes view={view} choices={choices} />
          <CheatSheet scenario={scenario} />
        </>
      ),
    }
  })

  ui.page('/transfers/:id', '/transfers', async (view, c) => {
    const t = await read(view, '/transfers/{transaction_id}', {
      path: { transaction_id: c.req.param('id') ?? '' },
    })
    const entries = (
      await read(view, '/events', {
        query: {
          transaction_id: t.transaction_id,
          company_id: t.company_id,
          type: 'balance.changed',
          limit: 100,
        },
      })
    ).data
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
              <dt>Transaction id (its end-to-end id)</dt>
              <dd>
                <Id value={t.transaction_id} />
              </dd>
              <dt>Company</dt>
              <dd>
                <Id value={t.company_id} />
              </dd>
              <KeptText label="Description" value={t.description} />
              <dt>Created</dt>
              <dd>
                <Time iso={t.created_at} tz={view.tz} />
              </dd>
              {t.settle_at && (
                <>
                  <dt>Settles</dt>
                  <dd>
                    as {t.final_status} at <Time iso={t.settle_at} tz={view.tz} />
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
              <div class="row actions" id="transfer-actions">
                {SETTLED_STATUSES.map((status) => (
                  <Action
                    path={`/transfers/${t.transaction_id}/settle`}
                    label={`Settle ${status}`}
                    fields={{ status }}
                    tone={status === 'failed' ? 'danger' : 'primary'}
                    back={here}
                  />
                ))}
              </div>
            )}
          </Card>
          <Card title="Ledger entries" id="ledger" live="transfer balance" ids={t.transaction_id}>
            {entries.length === 0 ? (
              <p class="muted">No ledger entry for this transfer.</p>
            ) : (
              <Table head={['When', 'Kind', ['Amount', 'num'], ['Balance after', 'num']]}>
                {entries.map((e) => (
                  <tr>
                    <td>
                      <Time iso={e.at} tz={view.tz} />
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
              </Table>
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
    page: transferHref(c.req.param('id') ?? ''),
  }))
}
