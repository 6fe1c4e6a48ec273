// New charge and Send a transfer: the contract's two POSTs, made from the dashboard as one of the
// credentials the person may act as (act-as.tsx), so they are the same calls a client makes:
// journaled, counted by readiness, struck by faults, answered by the contract. The scenario's magic
// values are offered by name (magic.ts) and fill the fields left blank.
import type { Child } from 'hono/jsx'
import { PIX_TYPES } from '../../domain/enums.js'
import { UserSelect, type Users } from '../act-as.js'
import { Card, FormFlash, keptValues, Select } from '../components.js'
import { centsField, textField as text } from '../fields.js'
import { chargeHref, transferHref } from '../links.js'
import { brl } from '../format.js'
import { chargePresets, presetFields, presetValue, transferPresets, type Preset } from '../magic.js'
import type { Form, Ui } from '../router.js'
import { UI_BASE } from '../session.js'
import { refuse, type Answer, type View } from '../view.js'

/** What a form sends when its amount is left blank and no magic value names one: R$ 10,00. */
const DEFAULT_AMOUNT = 1000

/** The amount in cents: the field, else the magic value's, else R$ 10,00; refused when unreadable. */
function amountOf(typed: string | undefined, preset: Preset['fields'], form: string): number {
  const cents = centsField(typed)
  if (cents === null) refuse(`Amount: "${typed}" is not an amount in reais (e.g. 10,00)`, form)
  return cents ?? preset.amount ?? DEFAULT_AMOUNT
}

function MagicSelect({
  presets,
  none,
  selected,
}: {
  presets: Preset[]
  none: string
  selected?: string
}) {
  if (presets.length === 0) return null
  return (
    <label class="c3">
      Magic value (fills the fields left blank)
      <select name="magic" data-preset>
        <option value="">{none}</option>
        {presets.map((p) => (
          <option value={presetValue(p)} selected={presetValue(p) === selected}>
            {p.label}
          </option>
        ))}
      </select>
    </label>
  )
}

/** A contract call's form: as whom, a magic value by name, its own fields (`fields`, given what a refused one held), and its button. */
function ContractForm(p: {
  view: View
  id: string
  title: string
  path: string
  users: Users
  presets: Preset[]
  none: string
  button: string
  fields: (kept: Record<string, string>) => Child
}) {
  const v = keptValues(p.view, p.id)
  return (
    <Card title={p.title} id={p.id}>
      <FormFlash view={p.view} form={p.id} />
      <form method="post" action={`${UI_BASE}${p.path}`} class="fields">
        <UserSelect users={p.users} by="client" label="As" selected={v.as} />
        <MagicSelect presets={p.presets} none={p.none} selected={v.magic} />
        {p.fields(v)}
        <button type="submit" class="primary">
          {p.button}
        </button>
      </form>
    </Card>
  )
}

interface FormProps {
  view: View
  users: Users
  scenario: Answer<'/scenario'>
}

const AmountField = ({ value }: { value: string | undefined }) => (
  <label>
    Amount (R$)
    <input name="amount" inputmode="decimal" placeholder="10,00" value={value} />
  </label>
)

export const NewCharge = ({ view, users, scenario }: FormProps) => (
  <ContractForm
    view={view}
    id="new-charge"
    title="New charge"
    path="/charges/new"
    users={users}
    presets={chargePresets(scenario)}
    none="none: it stays pending until paid, cancelled or expired"
    button="Create charge"
    fields={(v) => (
      <>
        <AmountField value={v.amount} />
        <label class="c3">
          Description
          <input
            name="description"
            maxlength={140}
            placeholder="Pedido 1234"
            value={v.description}
          />
        </label>
      </>
    )}
  />
)

export const SendTransfer = ({ view, users, scenario }: FormProps) => (
  <ContractForm
    view={view}
    id="send-transfer"
    title="Send a transfer"
    path="/transfers/new"
    users={users}
    presets={transferPresets(scenario)}
    none="none: it succeeds"
    button="Send transfer"
    fields={(v) => (
      <>
        <Select
          label="Key type"
          name="pix_type"
          options={PIX_TYPES}
          selected={v.pix_type ?? 'EMAIL'}
        />
        <label class="c2">
          Key
          <input name="pix_key" maxlength={77} placeholder="maria@example.com" value={v.pix_key} />
        </label>
        <AmountField value={v.amount} />
        <label class="c2">
          Description
          <input name="description" maxlength={140} value={v.description} />
        </label>
      </>
    )}
  />
)

export function mountSend(ui: Ui): void {
  ui.action('/charges/new', (form: Form) => {
    const preset = presetFields(form.magic)
    const amount = amountOf(form.amount, preset, 'new-charge')
    const description = text(form.description) ?? preset.description
    return {
      as: form.as ?? '',
      method: 'POST',
      path: '/hub/transactions/in',
      body: { amount, ...(description !== undefined && { description }) },
      ok: () => `Charge created: ${brl(amount)}, pending`,
      form: 'new-charge',
      page: `${UI_BASE}/charges`,
      goTo: (r) => chargeHref(r.body.transaction_id),
    }
  })

  ui.action('/transfers/new', (form: Form) => {
    const preset = presetFields(form.magic)
    // A key typed goes with the type chosen; a key left blank takes the magic value's, and its type.
    const typed = text(form.pix_key)
    const pix_key = typed ?? preset.pix_key ?? 'maria@example.com'
    const pix_type = typed ? form.pix_type : (preset.pix_type ?? form.pix_type)
    const amount = amountOf(form.amount, preset, 'send-transfer')
    const description = text(form.description)
    return {
      as: form.as ?? '',
      method: 'POST',
      path: '/hub/transactions/out',
      body: { amount, pix_key, pix_type, ...(description !== undefined && { description }) },
      ok: (r) => `Transfer ${r.body.status}: ${r.body.message} (${brl(amount)} to ${pix_key})`,
      form: 'send-transfer',
      page: `${UI_BASE}/transfers`,
      goTo: (r) => transferHref(r.body.transaction_id),
    }
  })
}
