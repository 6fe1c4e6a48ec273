// The transfer rules people can see and change: the queue of next outcomes (add, clear) and the
// magic values of the scenario in force (its inactive keys and rules), as a cheat sheet.
import { SETTLED_STATUSES, TRANSFER_STATUSES } from '../../domain/enums.js'
import { INSUFFICIENT_BALANCE, KEY_NOT_FOUND } from '../../domain/transfer.js'
import { Action, Badge, Card, Cell, ForCompany, Select, Table } from '../components.js'
import { numberField as num, textField as text } from '../fields.js'
import {
  chargeCondition,
  chargeOutcome,
  transferCondition,
  transferThen,
  UNLISTED_KEY,
} from '../magic.js'
import type { Form, Ui } from '../router.js'
import { UI_BASE } from '../session.js'
import { read, type Answer, type View } from '../view.js'

/** Inactive keys the cheat sheet lists at most. */
const INACTIVE_SHOWN = 20

/**
 * The scenario in force's rules, inactive keys and the settings that decide a transfer, as a cheat
 * sheet (test/sandbox/settings.test.ts: a setting that changes a transfer's answer changes it).
 */
export function CheatSheet({ scenario }: { scenario: Answer<'/scenario'> }) {
  const { rules, settings } = scenario
  const inactive = scenario.inactive_keys.slice(0, INACTIVE_SHOWN)
  const rejectUnknown = settings.unknown_pix_keys === 'reject'
  return (
    <Card title="Magic values (the scenario in force)">
      <div class="scroll">
        <Table head={['When', 'Then']}>
          <tr>
            <td>a transfer of more than the balance</td>
            <td>
              {settings.insufficient_balance === 'reject' ? (
                <>422 {INSUFFICIENT_BALANCE}</>
              ) : (
                <>
                  <Badge value="failed" /> {INSUFFICIENT_BALANCE} (recorded, no debit)
                </>
              )}
            </td>
          </tr>
          {inactive.map((k) => (
            <tr>
              <td>
                a transfer to <code>{k.key}</code> ({k.type}, an inactive key)
              </td>
              <td>
                <Badge value="failed" /> {KEY_NOT_FOUND}
              </td>
            </tr>
          ))}
          {rejectUnknown && (
            <tr>
              <td>
                a transfer to a key not in the scenario's key directory, such as{' '}
                <code>{UNLISTED_KEY}</code>
              </td>
              <td>
                <Badge value="failed" /> {KEY_NOT_FOUND}
              </td>
            </tr>
          )}
          {rules.transfers.map((r) => (
            <tr>
              <td>{transferCondition(r.when)}</td>
              <td>
                <Badge value={r.then.status} /> {transferThen(r.then)}
              </td>
            </tr>
          ))}
          {rules.charges.map((r) => (
            <tr>
              <td>{chargeCondition(r.when)}</td>
              <td>{chargeOutcome(r.then)}</td>
            </tr>
          ))}
        </Table>
      </div>
      <p class="muted">
        {settings.outcome_header
          ? 'A request may also pick its outcome with the header X-Sandbox-Outcome: success, pending or failed.'
          : 'This scenario ignores the X-Sandbox-Outcome header (outcome_header: false).'}{' '}
        Times are virtual: advance the clock to get there sooner.
      </p>
    </Card>
  )
}

export async function Outcomes({ view, choices }: { view: View; choices: string[] | undefined }) {
  const queued = await read(view, '/outcomes', { query: { limit: 100 } })
  return (
    <Card title="Next outcomes" id="outcomes" live="outcome transfer">
      <div class="stack">
        {queued.data.length === 0 ? (
          <p class="muted">None queued: transfers follow the rules and magic values.</p>
        ) : (
          <>
            <Table
              class="stacked"
              head={[
                'Next transfer',
                'Matching',
                ['Times left', 'num'],
                ...(view.scope.admin ? ['Company'] : []),
              ]}
            >
              {queued.data.map((o) => (
                <tr data-id={String(o.id)}>
                  <Cell label="Next transfer">
                    <Badge value={o.status} /> {transferThen(o)}
                  </Cell>
                  <Cell label="Matching">{transferCondition(o.match)}</Cell>
                  <Cell label="Times left" class="num">
                    {o.times}
                  </Cell>
                  {view.scope.admin && (
                    <Cell label="Company">
                      {o.company_id ?? <span class="muted">every company</span>}
                    </Cell>
                  )}
                </tr>
              ))}
            </Table>
            <Action path="/outcomes/clear" label="Clear queued outcomes" tone="danger" />
          </>
        )}
        <form method="post" action={`${UI_BASE}/outcomes`} class="row">
          <Select label="Status" name="status" options={TRANSFER_STATUSES} />
          <label>
            Message
            <input name="message" maxlength={200} />
          </label>
          <label>
            Settle after (s)
            <input name="settle_after_seconds" size={6} inputmode="numeric" />
          </label>
          <Select
            label="Final status"
            name="final_status"
            options={[['', '—'], ...SETTLED_STATUSES]}
          />
          <label>
            Only for key
            <input name="pix_key" />
          </label>
          <label>
            Times
            <input name="times" size={4} value="1" inputmode="numeric" />
          </label>
          <ForCompany admin={view.scope.admin} choices={choices} />
          <button type="submit" class="primary">
            Queue
          </button>
        </form>
      </div>
    </Card>
  )
}

export function mountOutcomes(ui: Ui): void {
  ui.action('/outcomes', (form: Form) => {
    const match = { ...(text(form.pix_key) && { pix_key: text(form.pix_key) }) }
    return {
      method: 'POST',
      path: '/outcomes',
      body: {
        status: form.status,
        ...(text(form.message) && { message: text(form.message) }),
        ...(num(form.settle_after_seconds) !== undefined && {
          settle_after_seconds: num(form.settle_after_seconds),
        }),
        ...(text(form.final_status) && { final_status: text(form.final_status) }),
        ...(num(form.times) !== undefined && { times: num(form.times) }),
        ...(text(form.company_id) && { company_id: text(form.company_id) }),
        match,
      },
      ok: () => 'Outcome queued',
    }
  })
  ui.action('/outcomes/clear', () => ({
    method: 'DELETE',
    path: '/outcomes',
    ok: () => 'Queued outcomes cleared',
  }))
}
