// Small pieces every page uses: ids with copy buttons, status badges, money, times, forms.
import type { Child } from 'hono/jsx'
import { brl, localTime } from './format.js'
import { UI_BASE, type Flash } from './session.js'
import type { View } from './view.js'

const TONE: Record<string, string> = {
  paid: 'ok',
  success: 'ok',
  delivered: 'ok',
  active: 'ok',
  true: 'ok',
  pending: 'warn',
  queued: 'warn',
  retrying: 'warn',
  frozen: 'info',
  running: 'ok',
  cancelled: 'bad',
  failed: 'bad',
  disabled: 'bad',
  revoked: 'bad',
  inactive: 'bad',
  false: 'bad',
  dead: 'bad',
  met: 'ok',
  error: 'bad',
  warning: 'warn',
  info: 'info',
}

const httpTone = (code: string) => (code < '300' ? 'ok' : code < '500' ? 'warn' : 'bad')

/** A status (or an HTTP status code) as a coloured badge that also says it in words (never colour alone). */
export const Badge = ({ value }: { value: string }) => (
  <span class={`badge ${TONE[value] ?? (/^\d{3}$/.test(value) ? httpTone(value) : 'muted')}`}>
    {value}
  </span>
)

export const CopyButton = ({ text, label = 'Copy' }: { text: string; label?: string }) => (
  <button
    type="button"
    class="copy"
    data-copy={text}
    aria-label={`${label}: ${text.length > 40 ? text.slice(0, 40) + '…' : text}`}
  >
    {label}
  </button>
)

/** An id shown whole, monospace, with a copy button; a link when `href` is given. */
export const Id = ({ value, href }: { value: string | null | undefined; href?: string }) =>
  value ? (
    <span class="id">
      {href ? (
        <a href={href}>
          <code>{value}</code>
        </a>
      ) : (
        <code>{value}</code>
      )}
      <CopyButton text={value} />
    </span>
  ) : (
    <span class="muted">—</span>
  )

export const Money = ({ cents }: { cents: number }) => <span class="money">{brl(cents)}</span>

export const Time = ({ iso, tz }: { iso: string | null; tz: string }) =>
  iso ? <time datetime={iso}>{localTime(iso, tz)}</time> : <span class="muted">—</span>

/** A POST form to a dashboard action: one button, optional hidden fields. */
export function Action(props: {
  path: string
  label: string
  fields?: Record<string, string>
  tone?: 'primary' | 'danger'
  back?: string
  confirm?: string
}) {
  return (
    <form method="post" action={`${UI_BASE}${props.path}`} class="inline">
      {Object.entries(props.fields ?? {}).map(([k, v]) => (
        <input type="hidden" name={k} value={v} />
      ))}
      {props.back && <input type="hidden" name="back" value={props.back} />}
      <button type="submit" class={props.tone ?? ''}>
        {props.label}
      </button>
    </form>
  )
}

/** A card; `live` names the topics that re-render it, `ids` limits that to changes of these records. */
export const Card = ({
  title,
  children,
  id,
  live,
  ids,
}: {
  title?: string
  children?: Child
  id?: string
  live?: string
  ids?: string
}) => (
  <section class="card" id={id} data-live={live} data-ids={ids}>
    {title && <h2>{title}</h2>}
    {children}
  </section>
)

/** What to do when a list is empty, with the command that fills it. */
export const Empty = ({ text, command }: { text: string; command?: string }) => (
  <div class="empty">
    <p>{text}</p>
    {command && (
      <div class="row">
        <pre>{command}</pre>
        <CopyButton text={command} />
      </div>
    )}
  </div>
)

/** "Older" and "Newest" links of a cursor-paged list (`labels` for a list oldest first). */
export const Pager = ({
  base,
  next,
  params,
  labels = ['Newest', 'Older →'],
}: {
  base: string
  next: string | null
  params: Record<string, string | undefined>
  labels?: [string, string]
}) => {
  const q = (extra: Record<string, string>) => {
    const s = new URLSearchParams()
    for (const [k, v] of Object.entries({ ...params, ...extra })) if (v) s.set(k, v)
    const t = s.toString()
    return `${UI_BASE}${base}${t ? '?' + t : ''}`
  }
  return (
    <nav class="pager" aria-label="Pages">
      {params.cursor && (
        <a class="button" href={q({ cursor: '' })}>
          {labels[0]}
        </a>
      )}
      {next && (
        <a class="button" href={q({ cursor: next })}>
          {labels[1]}
        </a>
      )}
    </nav>
  )
}

export const Json = ({ value }: { value: unknown }) => (
  <pre class="body">{typeof value === 'string' ? value : JSON.stringify(value, null, 2)}</pre>
)

/** A labelled select; an option is its value, or [value, text]. */
export function Select({
  label,
  name,
  options,
  selected,
  class: cls,
}: {
  label: string
  name: string
  options: readonly (string | readonly [string, string])[]
  selected?: string
  class?: string
}) {
  return (
    <label class={cls}>
      {label}
      <select name={name}>
        {options.map((o) => {
          const [value, text] = typeof o === 'string' ? [o, o] : o
          return (
            <option value={value} selected={value === selected}>
              {text}
            </option>
          )
        })}
      </select>
    </label>
  )
}

/** A table that scrolls sideways when narrow; a heading is its text, or [text, class]. */
export function Table({
  head,
  children,
  class: cls,
}: {
  head: (string | [string, string])[]
  children?: Child
  class?: string
}) {
  return (
    <div class="scroll">
      <table class={cls}>
        <thead>
          <tr>
            {head.map((h) => (typeof h === 'string' ? <th>{h}</th> : <th class={h[1]}>{h[0]}</th>))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  )
}

/** A table cell whose content stays one block when narrow screens stack the table (class "stacked"). */
export const Cell = ({
  label,
  class: cls,
  children,
}: {
  label: string
  class?: string
  children?: Child
}) => (
  <td data-label={label} class={cls}>
    <div>{children}</div>
  </td>
)

/** The filters of a list: a GET form in a card. */
export const Filters = ({ path, children }: { path: string; children?: Child }) => (
  <Card>
    <form method="get" action={`${UI_BASE}${path}`} class="inline">
      {children}
      <button type="submit">Filter</button>
    </form>
  </Card>
)

/**
 * For the admin, a company chosen from a list while they are few (`choices`: companyChoices),
 * else its id typed; `none` is the blank choice.
 */
function CompanyChoice({
  admin,
  choices,
  selected,
  none,
}: {
  admin: boolean
  choices: string[] | undefined
  selected: string | undefined
  none: string
}) {
  if (!admin) return null
  return choices === undefined ? (
    <label>
      Company (id)
      <input name="company_id" value={selected ?? ''} maxlength={200} placeholder={none} />
    </label>
  ) : (
    <Select
      label="Company"
      name="company_id"
      options={[['', none], ...choices]}
      selected={selected}
    />
  )
}

/** A list's filter by company (the admin's). */
export const CompanyFilter = (p: {
  admin: boolean
  choices: string[] | undefined
  selected: string | undefined
}) => <CompanyChoice {...p} none="any" />

/** The company an outcome or fault is for (the admin's; blank: every company); companies get their own. */
export const ForCompany = (p: { admin: boolean; choices: string[] | undefined }) => (
  <CompanyChoice {...p} selected={undefined} none="all companies" />
)

/** The message of the last action: its text, its lines, and values to copy once. */
export const FlashMessage = ({ flash }: { flash: Flash }) => (
  <div class={`flash ${flash.kind}`} role={flash.kind === 'error' ? 'alert' : 'status'}>
    <p>{flash.text}</p>
    {flash.lines && (
      <ul class="lines">
        {flash.lines.map((line) => (
          <li>{line}</li>
        ))}
      </ul>
    )}
    {flash.reveal?.map(([label, value]) => (
      <div class="id">
        <span class="muted">{label}</span> <code>{value}</code> <CopyButton text={value} />
      </div>
    ))}
  </div>
)

/** The message of the last action inside the form it is about (`flash.form`), instead of atop the page. */
export function FormFlash({ view, form }: { view: View; form: string }) {
  const flash = view.flash
  if (flash?.form !== form) return null
  view.flashShown = true
  return <FlashMessage flash={flash} />
}

/** What a refused form held (its flash's values), to fill it again; empty otherwise. */
export const keptValues = (view: View, form: string): Record<string, string> =>
  (view.flash?.form === form && view.flash.values) || {}
