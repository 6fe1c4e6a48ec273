// A stopping server closes its listener only when no connection waits in the kernel's accept
// queue (closing it would reset them): read from Linux's /proc/net/tcp (src/http/accept-queue.ts).
import { existsSync } from 'node:fs'
import net from 'node:net'
import { afterEach, expect, it } from 'vitest'
import { connectionsWaiting, halfOpenIn } from '../../src/http/accept-queue.js'

const opened: { destroy(): void }[] = []
let server: net.Server | undefined
afterEach(async () => {
  for (const s of opened.splice(0)) s.destroy()
  await new Promise((r) => (server ? server.close(r) : r(undefined)))
})

it.runIf(existsSync('/proc/net/tcp'))(
  'tells connections waiting to be accepted, until the server has accepted them',
  async () => {
    server = net.createServer()
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r))
    const address = server.address() as net.AddressInfo
    const { port } = address
    expect(connectionsWaiting(address)).toBe(false)
    let n = 0
    const accepted = new Promise<void>((resolve) =>
      server!.on('connection', (s) => {
        opened.push(s)
        if (++n === 3) resolve()
      }),
    )
    for (let i = 0; i < 3; i++) opened.push(net.connect(port, '127.0.0.1').on('error', () => {}))
    // net.connect connects on the next tick; after it, the loop does not turn while this runs,
    // so nothing is accepted whatever the kernel does meanwhile.
    await new Promise((r) => process.nextTick(r))
    const end = performance.now() + 5000
    let waiting = connectionsWaiting(address)
    while (!waiting && performance.now() < end) waiting = connectionsWaiting(address)
    expect(waiting).toBe(true)
    await accepted
    expect(connectionsWaiting(address)).toBe(false)
  },
)

// A connection still in its handshake is a line in SYN_RECV (03) whose local port is the
// listener's; the same port as a remote one, or in another state, is none.
it('finds a half-open connection to the port in either table, and nothing else', () => {
  const head =
    '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode'
  const v4 = (local: string, remote: string, st: string) =>
    `  7: ${local} ${remote} ${st} 00000000:00000000 00:00000000 00000000     0        0 0 1 0000000000000000 100 0 0 10 0`
  const port = 0x1f90
  const table = (...lines: string[]) => [head, ...lines, ''].join('\n')
  expect(halfOpenIn(table(v4('0100007F:1F90', '00000000:0000', '0A')), port)).toBe(false)
  expect(halfOpenIn(table(v4('0100007F:C350', '0100007F:1F90', '03')), port)).toBe(false)
  expect(halfOpenIn(table(v4('0100007F:1F90', '0100007F:C350', '06')), port)).toBe(false)
  expect(halfOpenIn(table(v4('0100007F:1F91', '0100007F:C350', '03')), port)).toBe(false)
  expect(
    halfOpenIn(
      table(v4('0100007F:C350', '0100007F:1F90', '01'), v4('0100007F:1F90', '0100007F:C350', '03')),
      port,
    ),
  ).toBe(true)
  const v6 = '0000000000000000FFFF00000100007F:1F90 0000000000000000FFFF00000100007F:C350 03'
  expect(halfOpenIn(table(`  12: ${v6} 00000000:00000000 00:00000000 00000000 0 0 0`), port)).toBe(
    true,
  )
})
