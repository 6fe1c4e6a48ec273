// Whom a form acts as: the users the signed-in person may see (the admin every company's, while
// they fit in a list; a company its own), each with its balance and what its calls would get
// (inactive, no Provider, no permission), grouped by company. The contract forms send a user's
// credential (client_id); Set a balance sends the user's id.
import { brl } from './format.js'
import { read, type View } from './view.js'

/** Companies listed at most; past that many, the admin types a client_id or a user id. */
const LISTED = 100

export interface User {
  userId: string
  name: string
  companyId: string
  company: string
  balance: number
  /** Its first credential that may call the sandbox (sandbox keys, not revoked), if any. */
  clientId: string | undefined
  /** What its calls would get, in words ("API inactive: 403"); empty when everything is allowed. */
  state: string[]
}

export interface Users {
  list: User[]
  /** More companies than a list holds: the form asks for an id instead. */
  more: boolean
  /** The credential to preselect: the one the person signed in with. */
  preferred: string | undefined
}

type Provider = { operations: string[] } | null

function stateOf(
  apiActive: boolean,
  permissions: string[],
  providers: { in: Provider; out: Provider },
) {
  const state: string[] = []
  if (!apiActive) state.push('API inactive: POSTs answer 403')
  for (const [op, dir] of [
    ['charge', 'in'],
    ['transfer', 'out'],
  ] as const) {
    const provider = providers[dir]
    if (!permissions.includes(op)) state.push(`no ${op} permission: 403`)
    else if (!provider) state.push(`no ${op} Provider: 422`)
    else if (!provider.operations.includes(op))
      state.push(`${op}s unsupported by its Provider: 501`)
  }
  return state
}

export async function usersOf(view: View): Promise<Users> {
  const page = await read(view, '/companies', { query: { limit: LISTED } })
  const list = page.data.flatMap((co) =>
    co.users.map((u) => ({
      userId: u.user_id,
      name: u.name,
      companyId: co.company_id,
      company: co.name,
      balance: u.balance,
      clientId: u.credentials.find((c) => c.environment === 'sandbox' && !c.revoked)?.client_id,
      state: stateOf(co.api_active, u.permissions, u.providers),
    })),
  )
  return {
    list,
    more: page.next_cursor !== null,
    preferred: view.scope.admin ? undefined : view.scope.principal.clientId,
  }
}

const describe = (u: User) =>
  [`${u.name} (${u.clientId ?? u.userId})`, brl(u.balance), ...u.state].join(' · ')

/**
 * A select of users grouped by company: by credential (`by="client"`, the users who may call the
 * sandbox) or by user id (`by="user"`). With too many companies to list, a text field.
 */
export function UserSelect({
  users,
  by,
  label,
  selected,
}: {
  users: Users
  by: 'client' | 'user'
  label: string
  /** The value to select (a refused form's); default: the credential signed in with. */
  selected?: string
}) {
  const name = by === 'client' ? 'as' : 'user_id'
  if (users.more)
    return (
      <label class="c3">
        {label} ({by === 'client' ? 'client_id' : 'user id'})
        <input name={name} required maxlength={200} value={selected ?? users.preferred ?? ''} />
      </label>
    )
  const listed = users.list.filter((u) => by === 'user' || u.clientId !== undefined)
  const groups = [...new Map(listed.map((u) => [u.companyId, u.company])).entries()]
  return (
    <label class="c3">
      {label}
      <select name={name} required>
        {groups.map(([companyId, company]) => (
          <optgroup label={company}>
            {listed
              .filter((u) => u.companyId === companyId)
              .map((u) => {
                const value = by === 'client' ? u.clientId! : u.userId
                const chosen =
                  selected === undefined ? u.clientId === users.preferred : value === selected
                return (
                  <option value={value} selected={chosen}>
                    {describe(u)}
                  </option>
                )
              })}
          </optgroup>
        ))}
      </select>
    </label>
  )
}
