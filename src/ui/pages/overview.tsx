// Overview: the companies, a page at a time (balances, Providers, permissions, credential ids), the virtual clock
// and the scenario; for the admin, clock controls, reset, and creating a company.
import {
  Action,
  Badge,
  Card,
  Cell,
  CopyButton,
  Id,
  Money,
  Pager,
  Select,
  Table,
  Time,
} from '../components.js'
import { filters, numberField, textField } from '../fields.js'
import { localTime } from '../format.js'
import { knownSecrets } from '../known-secrets.js'
import type { Ui } from '../router.js'
import { UI_BASE } from '../session.js'
import { read, type View } from '../view.js'

const PRESETS: [string, number][] = [
  ['+1 min', 60],
  ['+1 h', 3600],
  ['+1 day', 86400],
]
/** Companies a page of the overview shows: 20,000 of them made one page of 660 KB. */
const COMPANIES_PAGE = 50

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
            <dd>{clock.offset_seconds} s</dd>
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
              <input name="seconds" inputmode="decimal" size={8} required />
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
    const [page, health, clock, scenarios] = await Promise.all([
      read(view, '/companies', { query: { cursor, limit: COMPANIES_PAGE } }),
      read(view, '/health'),
      admin ? read(view, '/clock') : null,
      admin ? read(view, '/scenarios') : [],
    ])
    const { data: companies, total } = page
    const scenario = health.scenario ?? '—'
    const secrets = admin ? known() : new Map<string, string>()
    return {
      title: 'Overview',
      body: (
        <>
          <div class="grid">
            <Clock view={view} clock={clock} />
            <Card title="Scenario">
              <p>
                In force: <code>{scenario}</code>
              </p>
              {admin && (
                <form method="post" action={`${UI_BASE}/reset`} class="inline">
                  <Select
                    label="Reset everything to"
                    name="scenario"
                    options={scenarios.map((s: { name: string }) => s.name)}
                    selected={scenario}
                  />
                  <button type="submit" class="danger">
                    Reset
                  </button>
                </form>
              )}
            </Card>
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
                  'API',
                  'User',
                  ['Balance', 'num'],
                  'Permissions',
                  'Providers',
                  'Credentials (client_id)',
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
                      <Cell label="API">
                        {i === 0 && <Badge value={co.api_active ? 'active' : 'inactive'} />}
                      </Cell>
                      <Cell label="User">{u && <Id value={u.user_id} />}</Cell>
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
          {admin && (
            <Card title="New company">
              <form method="post" action={`${UI_BASE}/companies`} class="inline">
                <label>
                  Name
                  <input name="name" maxlength={100} placeholder="(a generated name)" />
                </label>
                <label>
                  Balance (cents)
                  <input name="balance" inputmode="numeric" size={10} value="0" />
                </label>
                <button type="submit" class="primary">
                  Create company
                </button>
              </form>
            </Card>
          )}
        </>
      ),
    }
  })

  ui.action('/clock/advance', (form, view) => ({
    method: 'POST',
    path: '/clock/advance',
    body: { seconds: numberField(form.seconds) ?? null },
    // In the scenario's zone, as every time on the pages (the answer's `now` is UTC).
    ok: (r) =>
      `Advanced to ${localTime(r.body.now, view.tz)} (${view.tz}); ${r.body.events.length} event(s) ran`,
  }))
  for (const change of ['freeze', 'resume', 'reset'] as const) {
    ui.action(`/clock/${change}`, () => ({
      method: 'POST',
      path: `/clock/${change}`,
      ok: () => `Clock: ${change}`,
    }))
  }
  ui.action('/reset', (form) => ({
    method: 'POST',
    path: '/reset',
    body: form.scenario ? { scenario: form.scenario } : {},
    ok: () => `Reset to the scenario ${form.scenario ?? ''}`,
    goTo: () => UI_BASE,
  }))
  ui.action('/companies', (form) => ({
    method: 'POST',
    path: '/companies',
    body: {
      ...(textField(form.name) && { name: textField(form.name) }),
      balance: numberField(form.balance) ?? 0,
    },
    ok: (r) => ({
      kind: 'ok',
      text: 'Company created. Its secret is shown this once: copy it now.',
      reveal: [
        ['company_id', r.body.company_id],
        ['client_id', r.body.client_id],
        ['client_secret', r.body.client_secret],
        ['Basic token', r.body.token],
      ],
    }),
  }))
}
