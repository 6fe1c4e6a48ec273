// A stopping server closes its listener only when no connection waits in the kernel's accept
// queue (closing it would reset them): read from Linux's /proc/net/tcp (src/http/accept-queue.ts).
import { existsSync } from 'node:fs'
import net from 'node:net'
import { afterEach, expect, it } from 'vitest'
import { connectionsWaiting } from '../../src/http/accept-queue.js'

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
    const { port } = server.address() as net.AddressInfo
    expect(connectionsWaiting(port)).toBe(false)
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
    let waiting = connectionsWaiting(port)
    while (!waiting && performance.now() < end) waiting = connectionsWaiting(port)
    expect(waiting).toBe(true)
    await accepted
    expect(connectionsWaiting(port)).toBe(false)
  },
)
