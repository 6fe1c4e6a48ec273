// The Overview's forms on tenants: a new company in the state a test needs (inactive, without a
// Provider, without a permission), whose secret is shown once; and a user's balance set (an
// adjustment entry), e.g. to 0 for an insufficient balance.
import { UserSelect, type Users } from '../act-as.js'
import { Card, FormFlash, keptValues, Select } from '../components.js'
import type { ControlReply } from '../control.js'
import { centsField, textField } from '../fields.js'
import { brl } from '../format.js'
import type { Form, Ui } from '../router.js'
import { UI_BASE, type Flash } from '../session.js'
import { refuse, type View } from '../view.js'

/** Provider set-ups a new company may start with: the body's `providers` for each choice. */
const PROVIDERS: Record<string, [text: string, body: object | undefined]> = {
  both: ['both (charges and transfers)', undefined],
  none: ['none: both POSTs answer 422', { in: null, out: null }],
  'charges-only': [
    'charges only: transfers answer 501',
    { out: { name: 'Banco Somente Cobranca', operations: [] } },
  ],
}
const PERMISSIONS: Record<string, [text: string, body: string[] | undefined]> = {
  both: ['charge and transfer', undefined],
  charge: ['charge only: transfers answer 403', ['charge']],
  transfer: ['transfer only: charges answer 403', ['transfer']],
  none: ['none: both POSTs answer 403', []],
}

const choices = (table: Record<string, [string, unknown]>) =>
  Object.entries(table).map(([value, [text]]) => [value, text] as const)

/** A tenant just made: its ids and the secret shown this once, to copy. */
export const tenantFlash = (r: ControlReply, text: string, form?: string): Flash => ({
  kind: 'ok',
  text: `${text} Its secret is shown this once: copy it now.`,
  reveal: [
    ['Company id', r.body.company_id],
    ['Client id', r.body.client_id],
    ['Client secret', r.body.client_secret],
    ['Basic token', r.body.token],
  ],
  ...(form && { form }),
})

export function NewCompany({ view }: { view: View }) {
  const v = keptValues(view, 'new-company')
  return (
    <Card title="New company" id="new-company">
      <FormFlash view={view} form="new-company" />
      <form method="post" action={`${UI_BASE}/companies`} class="fields two">
        <label class="c2">
          Name
          <input name="name" maxlength={100} placeholder="(a generated name)" value={v.name} />
        </label>
        <label>
          Opening balance (R$)
          <input name="balance" inputmode="decimal" placeholder="0,00" value={v.balance} />
        </label>
        <Select
          label="API access"
          name="api_active"
          options={[
            ['true', 'active'],
            ['false', 'inactive: both POSTs answer 403'],
          ]}
          selected={v.api_active}
        />
        <Select
          label="Providers"
          name="providers"
          options={choices(PROVIDERS)}
          selected={v.providers}
        />
        <Select
          label="Permissions"
          name="permissions"
          options={choices(PERMISSIONS)}
          selected={v.permissions}
        />
        <button type="submit" class="primary">
          Create company
        </button>
      </form>
    </Card>
  )
}

export function SetBalance({ view, users }: { view: View; users: Users }) {
  const v = keptValues(view, 'set-balance')
  return (
    <Card title="Set a balance" id="set-balance">
      <FormFlash view={view} form="set-balance" />
      <form method="post" action={`${UI_BASE}/balance`} class="fields two">
        <UserSelect users={users} by="user" label="User" selected={v.user_id} />
        <label>
          New balance (R$)
          <input name="amount" inputmode="decimal" required placeholder="0,00" value={v.amount} />
        </label>
        <button type="submit" class="primary">
          Set balance
        </button>
      </form>
      <p class="muted">
        An adjustment entry makes up the difference. R$ 0,00 makes its next transfer an insufficient
        balance.
      </p>
    </Card>
  )
}

export function mountTenants(ui: Ui): void {
  ui.action('/companies', (form: Form) => {
    const balance = centsField(form.balance)
    if (balance === null)
      refuse(`Opening balance: "${form.balance}" is not an amount in reais`, 'new-company')
    const providers = PROVIDERS[form.providers ?? '']?.[1]
    const permissions = PERMISSIONS[form.permissions ?? '']?.[1]
    const name = textField(form.name)
    return {
      method: 'POST',
      path: '/companies',
      body: {
        ...(name && { name }),
        balance: balance ?? 0,
        api_active: form.api_active !== 'false',
        ...(providers && { providers }),
        ...(permissions && { permissions }),
      },
      ok: (r) => tenantFlash(r, 'Company created.', 'new-company'),
      form: 'new-company',
    }
  })

  ui.action('/balance', (form: Form) => {
    const amount = centsField(form.amount)
    if (amount === null || amount === undefined)
      refuse(
        `New balance: "${form.amount ?? ''}" is not an amount in reais (e.g. 0,00)`,
        'set-balance',
      )
    const user = form.user_id ?? ''
    return {
      method: 'PUT',
      path: `/users/${encodeURIComponent(user)}/balance`,
      body: { amount },
      ok: (r) => ({
        kind: 'ok',
        text: `Balance of ${user} set to ${brl(r.body.balance)}`,
        form: 'set-balance',
      }),
      form: 'set-balance',
    }
  })
}
