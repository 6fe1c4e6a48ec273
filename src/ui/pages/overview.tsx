// Overview: the companies, a page at a time (balances, Providers, permissions, credential ids), the virtual clock
// and the scenario (scenario.tsx), and setting a balance; for the admin, clock controls, applying a
// scenario, reset, and creating a company in a chosen state (tenants.tsx).
import {
  Action,
  Badge,
  Card,
  Cell,
  CopyButton,
  Id,
  Money,
  Pager,
  Table,
  Time,
} from '../components.js'
import { usersOf } from '../act-as.js'
import { filters, numberField } from '../fields.js'
import { duration, eventLine, localTime } from '../format.js'
import { knownSecrets } from '../known-secrets.js'
import type { Ui } from '../router.js'
import { UI_BASE } from '../session.js'
import { read, type View } from '../view.js'
import { mountScenario, ScenarioCard } from './scenario.js'
import { mountTenants, NewCompany, SetBalance } from './tenants.js'

const PRESETS: [string, number][] = [
  ['+1 min', 60],
  ['+1 h', 3600],
  ['+1 day', 86400],
]
/** Companies a page of the overview shows: 20,000 of them made one page of 660 KB. */
const COMPANIES_PAGE = 50
/** Events an advance of the clock lists at most; the Events page has them all. */
const EVENT_LINES = 20

/** A Provider in words: its name and what it supports. */
const providerText = (p: { name: string; operations: string[] } | null) =>
  p && `${p.name} (${p.operations.join(', ') || 'no operation'})`

function Clock({ view, clock }: { view: View; clock: { offset_seconds: number } | null }) {
  return (
    <Card title="Virtual clock" id="clock-card" live="clock">
      <dl class="facts">
        <dt>Now</dt>
        <dd>
          <Time iso={view.now} tz={view.tz} /> <span class="muted">({view.tz})</span>
        </dd>
        <dt>State</dt>
        <dd>
          <Badge value={view.frozen ? 'frozen' : 'running'} />
        </dd>
        {clock && (
          <>
            <dt>Offset</dt>
            <dd>
              {clock.offset_seconds === 0
                ? 'none: it is real time'
                : `${duration(clock.offset_seconds)} ${clock.offset_seconds > 0 ? 'ahead of' : 'behind'} real time`}
            </dd>
          </>
        )}
      </dl>
      {view.scope.admin && (
        <div class="stack">
          <div class="row">
            {PRESETS.map(([label, seconds]) => (
              <Action path="/clock/advance" label={label} fields={{ seconds: String(seconds) }} />
            ))}
          </div>
          <form method="post" action={`${UI_BASE}/clock/advance`} class="inline">
            <label>
              Advance by (seconds)
              <input name="seconds" inputmode="decimal" size={8} required placeholder="e.g. 90" />
            </label>
            <button type="submit">Advance</button>
          </form>
          <div class="row">
            {view.frozen ? (
              <Action path="/clock/resume" label="Resume" />
            ) : (
              <Action path="/clock/freeze" label="Freeze" />
            )}
            <Action path="/clock/reset" label="Back to real time" />
          </div>
        </div>
      )}
    </Card>
  )
}

export function mountOverview(ui: Ui): void {
  const known = knownSecrets(ui.deps)

  ui.page('/', '', async (view, c) => {
    const admin = view.scope.admin
    const { cursor } = filters(c, 'cursor')
    const [page, health, clock, scenarios, users] = await Promise.all([
      read(view, '/companies', { query: { cursor, limit: COMPANIES_PAGE } }),
      read(view, '/health'),
      admin ? read(view, '/clock') : null,
      admin ? read(view, '/scenarios') : [],
      usersOf(view),
    ])
    const { data: companies, total } = page
    const secrets = admin ? known() : new Map<string, string>()
    return {
      title: 'Overview',
      body: (
        <>
          <div class="grid">
            <Clock view={view} clock={clock} />
            <ScenarioCard view={view} inForce={health.scenario} scenarios={scenarios} />
          </div>
          <Card
            title={
              total > companies.length
                ? `Companies (${total} in all, ${COMPANIES_PAGE} a page)`
                : 'Companies'
            }
            id="companies"
            live="balance company user scenario"
          >
            <div class="scroll">
              <Table
                class="stacked"
                head={[
                  'Company',
                  'API access',
                  'User',
                  ['Balance', 'num'],
                  'Permissions',
                  'Providers',
                  'Credentials (client id)',
                ]}
              >
                {companies.flatMap((co) =>
                  (co.users.length ? co.users : [null]).map((u, i) => (
                    <tr data-id={co.company_id} data-company={co.company_id} data-user={u?.user_id}>
                      <Cell label="Company">
                        {i === 0 && (
                          <>
                            <strong>{co.name}</strong>
                            <br />
                            <Id value={co.company_id} />
                          </>
                        )}
                      </Cell>
                      <Cell label="API access">
                        {i === 0 && <Badge value={co.api_active ? 'active' : 'inactive'} />}
                      </Cell>
                      <Cell label="User">
                        {u && (
                          <>
                            {u.name}
                            <br />
                            <Id value={u.user_id} />
                          </>
                        )}
                      </Cell>
                      <Cell label="Balance" class="num balance">
                        {u && <Money cents={u.balance} />}
                      </Cell>
                      <Cell label="Permissions">
                        {u?.permissions.join(', ') || <span class="muted">none</span>}
                      </Cell>
                      <Cell label="Providers">
                        {u && (
                          <>
                            in: {providerText(u.providers.in) ?? <span class="muted">none</span>}
                            <br />
                            out: {providerText(u.providers.out) ?? <span class="muted">none</span>}
                          </>
                        )}
                      </Cell>
                      <Cell label="Credentials">
                        {u?.credentials.map((cr) => (
                          <div>
                            <Id value={cr.client_id} />{' '}
                            {cr.environment !== 'sandbox' && <Badge value={cr.environment} />}{' '}
                            {cr.revoked && <Badge value="revoked" />}
                            {secrets.has(cr.client_id) && (
                              <details class="secret">
                                <summary>Reveal secret</summary>
                                <code>{secrets.get(cr.client_id)}</code>{' '}
                                <CopyButton text={secrets.get(cr.client_id)!} />
                              </details>
                            )}
                          </div>
                        ))}
                      </Cell>
                    </tr>
                  )),
                )}
              </Table>
            </div>
            <Pager
              base=""
              next={page.next_cursor}
              params={{ cursor }}
              labels={['First companies', 'More companies →']}
            />
            <p class="muted">
              {admin
                ? 'Secrets are stored hashed: the admin sees those the scenario file declares, and a company created here shows its secret once.'
                : 'Secrets are stored hashed: yours is the one you signed in with.'}
            </p>
          </Card>
          <div class="grid">
            {admin && <NewCompany view={view} />}
            <SetBalance view={view} users={users} />
          </div>
        </>
      ),
    }
  })

  ui.action('/clock/advance', (form, view) => ({
    method: 'POST',
    path: '/clock/advance',
    body: { seconds: numberField(form.seconds) ?? null },
    // In the scenario's zone, as every time on the pages (the answer's `now` is UTC); each event
    // the due work produced said in a line, as the Events page would list them.
    ok: (r) => {
      const events: { type: string; data: Record<string, unknown> }[] = r.body.events
      const text = `Advanced to ${localTime(r.body.now, view.tz)} (${view.tz})`
      if (events.length === 0) return `${text}: nothing was due`
      const lines = events.slice(0, EVENT_LINES).map(eventLine)
      if (events.length > EVENT_LINES)
        lines.push(`and ${events.length - EVENT_LINES} more (see Events)`)
      return {
        kind: 'ok',
        text: `${text}: ${events.length === 1 ? 'one event' : `${events.length} events`} ran`,
        lines,
      }
    },
  }))
  for (const [change, done] of [
    ['freeze', 'Clock frozen: virtual time stands still until Resume'],
    ['resume', 'Clock running again from where it stood'],
    ['reset', 'Clock back to real time'],
  ] as const) {
    ui.action(`/clock/${change}`, () => ({
      method: 'POST',
      path: `/clock/${change}`,
      ok: () => done,
    }))
  }
  mountScenario(ui)
  mountTenants(ui)
}
