// Requests (the journal, newest first, filtered by path and status; a row opens the request and
// response as journaled, redacted), Events (the log, latest first) and Faults (add, clear).
import { query } from '../control.js'
import { filters, numberField as num } from '../fields.js'
import { millis } from '../format.js'
import {
  Action,
  Badge,
  Card,
  Cell,
  Empty,
  Filters,
  ForCompany,
  Id,
  Json,
  Pager,
  Select,
  Table,
  Time,
} from '../components.js'
import type { Form, Ui } from '../router.js'
import { UI_BASE } from '../session.js'
import { companyChoices, read } from '../view.js'

const LATEST_EVENTS = 100

export function mountObserve(ui: Ui): void {
  ui.page('/requests', '/requests', async (view, c) => {
    const { path, status, cursor } = filters(c, 'path', 'status', 'cursor')
    const page = await read(view, '/requests', {
      query: { path, status: status === undefined ? undefined : Number(status), cursor, limit: 25 },
    })
    return {
      title: 'Requests',
      body: (
        <>
          <Filters path="/requests">
            <label>
              Path (exact)
              <input name="path" value={path ?? ''} placeholder="/api/v1/hub/transactions/in" />
            </label>
            <label>
              Status
              <input name="status" value={status ?? ''} size={4} inputmode="numeric" />
            </label>
          </Filters>
          <Card id="requests" live="request">
            {page.data.length === 0 ? (
              <Empty
                text="No requests yet: they appear here as your application calls the sandbox, e.g."
                command={`curl -s -u sandbox-client:sandbox-secret ${view.publicUrl}/api/v1/user/company`}
              />
            ) : (
              <Table
                class="stacked"
                head={['When', 'Request', 'Status', ['Took', 'num'], 'Company']}
              >
                {page.data.map((r) => (
                  <tr data-id={String(r.id)}>
                    <Cell label="When">
                      <Time iso={r.at} tz={view.tz} />
                    </Cell>
                    <Cell label="Request">
                      <details>
                        <summary>
                          <code class="wrap">
                            {r.method} {r.path}
                            {r.query}
                          </code>
                        </summary>
                        <h3>Request headers</h3>
                        <Json value={r.request.headers} />
                        <h3>Request body</h3>
                        <Json value={r.request.body ?? '(none)'} />
                        <h3>Response body</h3>
                        <Json value={r.response.body ?? '(none)'} />
                      </details>
                    </Cell>
                    <Cell label="Status">
                      <Badge value={String(r.status)} />
                      {r.dropped && <span class="muted"> dropped: not answered</span>}
                    </Cell>
                    <Cell label="Took" class="num">
                      {millis(r.duration_ms)}
                    </Cell>
                    <Cell label="Company">{r.company_id ?? <span class="muted">—</span>}</Cell>
                  </tr>
                ))}
              </Table>
            )}
            <Pager base="/requests" next={page.next_cursor} params={{ path, status, cursor }} />
          </Card>
        </>
      ),
    }
  })

  ui.page('/events', '/events', async (view, c) => {
    const { type, cursor, order: asked } = filters(c, 'type', 'cursor', 'order')
    // Newest first from the log's end, unless read from its start (then each page is still shown newest first).
    const order = asked === 'oldest' ? 'oldest' : 'newest'
    const page = await read(view, '/events', {
      query: { type, cursor, order, limit: LATEST_EVENTS },
    })
    const rows = order === 'newest' ? page.data : [...page.data].reverse()
    return {
      title: 'Events',
      body: (
        <>
          <Filters path="/events">
            <label>
              Type
              <input name="type" value={type ?? ''} placeholder="charge.paid" />
            </label>
          </Filters>
          <Card id="events" live="event">
            {page.data.length === 0 ? (
              <p class="muted">
                No recent events. Events are written as charges, transfers and balances change.
              </p>
            ) : (
              <Table class="stacked events" head={['At (virtual)', 'Type', 'Data', 'Event id']}>
                {rows.map((e) => (
                  <tr data-id={e.id}>
                    <Cell label="At">
                      <Time iso={e.at} tz={view.tz} />
                    </Cell>
                    <Cell label="Type">
                      <code>{e.type}</code>
                      {e.company_id && <div class="muted">{e.company_id}</div>}
                    </Cell>
                    <Cell label="Data" class="data">
                      <code class="wrap">{JSON.stringify(e.data)}</code>
                    </Cell>
                    <Cell label="Event id">
                      <Id value={e.id} />
                    </Cell>
                  </tr>
                ))}
              </Table>
            )}
            <nav class="pager">
              {order === 'newest' ? (
                <a class="button" href={`${UI_BASE}/events${query({ type, order: 'oldest' })}`}>
                  From the start
                </a>
              ) : (
                <a class="button" href={`${UI_BASE}/events${query({ type })}`}>
                  Latest
                </a>
              )}
              {page.next_cursor && (
                <a
                  class="button"
                  href={`${UI_BASE}/events${query({ type, order, cursor: page.next_cursor })}`}
                >
                  {order === 'newest' ? 'Older →' : 'Newer →'}
                </a>
              )}
            </nav>
          </Card>
        </>
      ),
    }
  })

  ui.page('/faults', '/faults', async (view) => {
    const [faults, choices] = await Promise.all([
      read(view, '/faults', { query: { limit: 100 } }),
      companyChoices(view),
    ])
    return {
      title: 'Faults',
      body: (
        <>
          <Card id="faults" live="fault">
            {faults.data.length === 0 ? (
              <p class="muted">
                No faults: the contract answers normally. Add one below to make its operations fail
                or slow down.
              </p>
            ) : (
              <div class="scroll">
                <Table
                  head={['Operation', 'Status', ['Delay', 'num'], 'Calls left', 'Company', 'Since']}
                >
                  {faults.data.map((f) => (
                    <tr>
                      <td>{f.operation}</td>
                      <td>{f.status ? <Badge value={String(f.status)} /> : '—'}</td>
                      <td class="num">{f.delay_ms} ms</td>
                      <td>{f.times ?? 'until cleared'}</td>
                      <td>{f.company_id ?? 'every company'}</td>
                      <td>
                        <Time iso={f.created_at} tz={view.tz} />
                      </td>
                    </tr>
                  ))}
                </Table>
                <Action path="/faults/clear" label="Remove all faults" tone="danger" />
              </div>
            )}
          </Card>
          <Card title="Add a fault">
            <form method="post" action={`${UI_BASE}/faults`} class="row">
              <Select
                label="Operation"
                name="operation"
                options={['charge', 'transfer', 'company']}
              />
              <Select
                label="Status"
                name="status"
                options={[['', 'none (delay only)'], '500', '501', '503']}
                selected="500"
              />
              <label>
                Delay (ms)
                <input name="delay_ms" size={6} value="0" inputmode="numeric" />
              </label>
              <label>
                Times (blank: until cleared)
                <input name="times" size={6} inputmode="numeric" />
              </label>
              <ForCompany admin={view.scope.admin} choices={choices} />
              <button type="submit" class="primary">
                Add fault
              </button>
            </form>
          </Card>
        </>
      ),
    }
  })

  ui.action('/faults', (form: Form) => ({
    method: 'POST',
    path: '/faults',
    body: {
      operation: form.operation,
      ...(num(form.status) !== undefined && { status: num(form.status) }),
      ...(num(form.delay_ms) !== undefined && { delay_ms: num(form.delay_ms) }),
      ...(num(form.times) !== undefined && { times: num(form.times) }),
      ...(form.company_id?.trim() && { company_id: form.company_id.trim() }),
    },
    ok: () => 'Fault added',
  }))
  ui.action('/faults/clear', () => ({
    method: 'DELETE',
    path: '/faults',
    ok: () => 'Faults removed',
  }))
}
