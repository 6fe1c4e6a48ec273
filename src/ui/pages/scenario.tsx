// The Overview's Scenario card: the scenario in force; for the admin, a scenario applied on top of
// the state (a shipped one, or a file of one's own, checked as `pix-sandbox scenario check` checks
// it, its problems shown in the form), and reset.
import { Card, FormFlash, Select } from '../components.js'
import type { Form, Ui } from '../router.js'
import { lintScenario } from '../scenario-text.js'
import { UI_BASE } from '../session.js'
import { refuse, type View } from '../view.js'

interface Shipped {
  name: string
  description: string
}

export function ScenarioCard({
  view,
  inForce,
  scenarios,
}: {
  view: View
  inForce: string | null
  scenarios: Shipped[]
}) {
  const described = scenarios.find((s) => s.name === inForce)?.description
  const names = scenarios.map((s) => s.name)
  return (
    <Card title="Scenario" id="scenario">
      <p>
        In force: <code>{inForce ?? '—'}</code>
        {described && <span class="muted"> · {described}</span>}
      </p>
      {view.scope.admin && (
        <div class="stack">
          <FormFlash view={view} form="scenario" />
          <form method="post" action={`${UI_BASE}/scenarios`} class="fields two">
            <Select
              class="all"
              label="Apply on top of the state"
              name="name"
              options={scenarios.map((s) => [s.name, `${s.name}: ${s.description}`] as const)}
            />
            <button type="submit">Apply</button>
          </form>
          <form
            method="post"
            action={`${UI_BASE}/scenarios`}
            enctype="multipart/form-data"
            class="fields two"
          >
            <label class="all">
              Or a scenario file of yours (YAML or JSON)
              <input type="file" name="file" accept=".yaml,.yml,.json" required />
            </label>
            <button type="submit">Check and apply the file</button>
          </form>
          <p class="muted">
            Applied on top: settings merge key by key, companies and keys with an existing id are
            replaced, others added, rules appended.
          </p>
          <form method="post" action={`${UI_BASE}/reset`} class="apart">
            <div class="inline">
              <Select
                label="Reset everything to"
                name="scenario"
                options={names}
                selected={inForce ?? undefined}
              />
              <button type="submit" class="danger">
                Reset
              </button>
            </div>
          </form>
        </div>
      )}
    </Card>
  )
}

export function mountScenario(ui: Ui): void {
  ui.action('/scenarios', (form: Form) => {
    const ok = (r: { body: { scenario: string } }) => ({
      kind: 'ok' as const,
      text: `Applied ${r.body.scenario === 'inline' ? (form['file:file'] ?? 'the file') : r.body.scenario} on top of the state`,
      form: 'scenario',
    })
    if (form.file === undefined)
      return { method: 'POST', path: '/scenarios', body: { name: form.name }, ok, form: 'scenario' }
    const file = form['file:file'] || 'the file'
    const linted = lintScenario(form.file, file)
    if ('problems' in linted)
      refuse(
        `${file} is not a valid scenario: nothing was applied. ${linted.problems.length === 1 ? 'The problem' : 'Its problems'}, as pix-sandbox scenario check prints them:`,
        'scenario',
        linted.problems,
      )
    return {
      method: 'POST',
      path: '/scenarios',
      body: { document: linted.document },
      ok,
      form: 'scenario',
    }
  })

  ui.action('/reset', (form) => ({
    method: 'POST',
    path: '/reset',
    body: form.scenario ? { scenario: form.scenario } : {},
    ok: (r) => `Reset to the scenario ${r.body.scenario}`,
    goTo: () => UI_BASE,
  }))
}
