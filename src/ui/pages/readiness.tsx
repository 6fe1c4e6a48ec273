// Readiness (docs/READINESS.md): coverage, the findings with their example and advice, and the checklist of
// behaviours with how to meet each, live; where the control plane can set a behaviour up (a
// fault, an outcome, chaos, the receiver check, the clock, a company in a state), a button asks it to. The admin sees
// every company's report or one company's; a company its own.
import { BEHAVIOURS, type Setup } from '../../readiness/catalog.js'
import { Action, Badge, Card, Cell, CompanyFilter, Filters, Table, Time } from '../components.js'
import { query } from '../control.js'
import { filters } from '../fields.js'
import { checkFlash } from '../receiver-check.js'
import { tenantFlash } from './tenants.js'
import type { Form, Ui } from '../router.js'
import { UI_BASE } from '../session.js'
import { companyChoices, read, Refused, type View } from '../view.js'

const GROUPS: [prefix: string, title: string][] = [
  ['charge.', 'Charges: POST /api/v1/hub/transactions/in'],
  ['transfer.', 'Transfers: POST /api/v1/hub/transactions/out'],
  ['company.', 'Company: GET /api/v1/user/company'],
  ['webhook.', 'Webhooks: what your receiver answered'],
]
/** Re-rendered when a call is answered or a delivery acknowledged (and when subscriptions change). */
const LIVE = 'request delivery webhook'

interface Hook {
  id: string
  url: string
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/** The button (or form) that sets a behaviour up, when the control plane can. */
function SetUp({
  id,
  setup,
  view,
  hooks,
  companyId,
  back,
}: {
  id: string
  setup: Setup | undefined
  view: View
  hooks: Hook[]
  companyId?: string
  back: string
}) {
  if (!setup) return <span class="muted">nothing to set up</span>
  if ('call' in setup) {
    if (setup.adminOnly && !view.scope.admin)
      return setup.instead ? (
        <a href={`${UI_BASE}${setup.instead.page}`}>{setup.instead.label}</a>
      ) : null
    return (
      <Action
        path="/readiness/setup"
        label={setup.label}
        fields={{ behaviour: id, ...(companyId && { company_id: companyId }) }}
        back={back}
      />
    )
  }
  if (hooks.length === 0) return <a href={`${UI_BASE}/webhooks`}>Subscribe a receiver first</a>
  return (
    <form method="post" action={`${UI_BASE}/readiness/setup`} class="inline">
      <input type="hidden" name="behaviour" value={id} />
      <input type="hidden" name="back" value={back} />
      {hooks.length === 1 ? (
        <input type="hidden" name="webhook_id" value={hooks[0]!.id} />
      ) : (
        <select name="webhook_id" aria-label="Subscription">
          {hooks.map((h) => (
            <option value={h.id}>{h.url}</option>
          ))}
        </select>
      )}
      <button type="submit">{setup.label}</button>
    </form>
  )
}

export function mountReadiness(ui: Ui): void {
  ui.page('/readiness', '/readiness', async (view, c) => {
    const companyId = view.scope.admin ? filters(c, 'company_id').company_id : undefined
    const back = `${UI_BASE}/readiness${query({ company_id: companyId })}`
    const [report, subs, choices] = await Promise.all([
      read(view, '/readiness', { query: { company_id: companyId } }),
      read(view, '/webhooks', { query: { company_id: companyId, limit: 100 } }),
      companyChoices(view),
    ])
    const hooks: Hook[] = subs.data.filter((w) => w.format === 'standard' && !w.disabled_at)
    const setups = new Map<string, Setup | undefined>(
      BEHAVIOURS.map((b) => [b.id, 'setup' in b ? b.setup : undefined]),
    )
    const counts = ['error', 'warning', 'info']
      .map((s) => [s, report.findings.filter((f) => f.severity === s).length] as const)
      .filter(([, n]) => n > 0)
    return {
      title: 'Readiness',
      body: (
        <>
          {view.scope.admin && (
            <Filters path="/readiness">
              <CompanyFilter admin choices={choices} selected={companyId} />
            </Filters>
          )}
          <Card id="readiness-coverage" live={LIVE}>
            <div class="coverage">
              <p class="big">
                <strong>
                  {report.coverage.met} of {report.coverage.total}
                </strong>{' '}
                behaviours met ({report.coverage.percent}%)
              </p>
              <progress
                class="coverage-bar"
                max={report.coverage.total}
                value={report.coverage.met}
                aria-label="Behaviours met"
              >
                {report.coverage.percent}%
              </progress>
              <p class="muted">
                {companyId
                  ? `Company ${companyId}`
                  : view.scope.admin
                    ? 'Every company'
                    : view.scope.principal.company.name}
                , since <Time iso={report.since} tz={view.tz} /> ·{' '}
                {report.findings.length
                  ? `${plural(report.findings.length, 'finding')}: ${counts.map(([s, n]) => `${n} ${s}`).join(', ')}`
                  : 'no findings'}
              </p>
            </div>
          </Card>
          <Card title="Findings" id="readiness-findings" live={LIVE}>
            {report.findings.length === 0 ? (
              <p class="muted">None: nothing was seen that the real service would punish.</p>
            ) : (
              <ul class="findings">
                {report.findings.map((f: any) => (
                  <li data-id={f.id}>
                    <div class="row">
                      <Badge value={f.severity} /> <code>{f.id}</code>{' '}
                      <span class="muted">seen {plural(f.count, 'time')}</span>
                    </div>
                    <p class="seen">
                      <code class="wrap">
                        {f.example.method} {f.example.path}
                      </code>{' '}
                      at <Time iso={f.example.time} tz={view.tz} /> (wall clock{' '}
                      <Time iso={f.example.wall_time} tz={view.tz} />
                      {f.example.company_id && !companyId && view.scope.admin
                        ? `, ${f.example.company_id}`
                        : ''}
                      ): {f.example.seen}
                    </p>
                    <p class="advice">{f.advice}</p>
                  </li>
                ))}
              </ul>
            )}
          </Card>
          {report.receiver_checks.some((r) => !r.passed) && (
            <Card title="Receiver checks that failed" id="readiness-receivers" live={LIVE}>
              <ul class="findings">
                {report.receiver_checks
                  .filter((r) => !r.passed)
                  .map((r) => (
                    <li>
                      <code class="wrap">{r.url}</code> at <Time iso={r.wall_time} tz={view.tz} />
                      {r.failed.map((f) => (
                        <p class="seen">
                          <code>{f.id}</code>: expected {f.expected},{' '}
                          {f.error ?? `answered ${f.status}`}. {f.advice}
                        </p>
                      ))}
                    </li>
                  ))}
              </ul>
            </Card>
          )}
          <Card title="Checklist" id="readiness-checklist" live={LIVE}>
            {GROUPS.map(([prefix, title]) => (
              <>
                <h3>{title}</h3>
                <Table
                  class="stacked checklist"
                  head={['Status', 'Behaviour', ['Times', 'num'], 'How to meet it', 'Set up']}
                >
                  {report.behaviours
                    .filter((b: any) => b.id.startsWith(prefix))
                    .map((b: any) => (
                      <tr data-id={b.id}>
                        <Cell label="Status">
                          <Badge value={b.met ? 'met' : 'not met'} />
                        </Cell>
                        <Cell label="Behaviour">
                          <code>{b.id}</code>
                        </Cell>
                        <Cell label="Times" class="num">
                          {b.count}
                        </Cell>
                        <Cell label="How" class="how">
                          {b.how}
                        </Cell>
                        <Cell label="Set up">
                          <SetUp
                            id={b.id}
                            setup={setups.get(b.id)}
                            view={view}
                            hooks={hooks}
                            companyId={companyId}
                            back={back}
                          />
                        </Cell>
                      </tr>
                    ))}
                </Table>
              </>
            ))}
          </Card>
          <Card title="What the sandbox cannot see" id="readiness-not-seen">
            <p class="muted">
              No report, green or not, says anything about these: test them yourself.
            </p>
            <ul>
              {report.not_seen.map((n) => (
                <li data-id={n.id}>{n.what}</li>
              ))}
            </ul>
          </Card>
        </>
      ),
    }
  })

  // The set-up of a behaviour, as the catalog declares it: the same control call the button names.
  ui.action('/readiness/setup', (form: Form) => {
    const behaviour = BEHAVIOURS.find((b) => b.id === form.behaviour)
    const setup = behaviour && 'setup' in behaviour ? (behaviour.setup as Setup) : undefined
    if (!setup)
      throw new Refused({
        ok: false,
        status: 422,
        body: { detail: `behaviour: ${form.behaviour ?? ''} cannot be set up from here` },
      })
    const done = `${setup.label}: done. ${behaviour!.id} is met when your integration goes through it.`
    if ('call' in setup) {
      // Faults and outcomes take the company the admin is looking at; the clock is everyone's.
      const forCompany =
        form.company_id && (setup.call.path === '/faults' || setup.call.path === '/outcomes')
          ? { company_id: form.company_id }
          : {}
      return {
        method: setup.call.method,
        path: setup.call.path,
        body: { ...setup.call.body, ...forCompany },
        // A new company: its credentials, shown once, are what the integration calls with.
        ok: (r) => (setup.call.path === '/companies' ? tenantFlash(r, done) : done),
        page: '/readiness',
      }
    }
    const hook = encodeURIComponent(form.webhook_id ?? '')
    if (setup.webhook === 'check')
      return {
        method: 'POST',
        path: `/webhooks/${hook}/check`,
        ok: (r) => checkFlash(r.body),
        page: '/readiness',
      }
    return {
      method: 'PUT',
      path: `/webhooks/${hook}/chaos`,
      body: setup.body,
      ok: () => `${done} Clear the chaos on the Webhooks page.`,
      page: '/readiness',
    }
  })
}
