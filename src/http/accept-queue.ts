// Whether connections wait for the server to accept them: closing a listener resets every
// connection in the kernel's accept queue, and every one still half open, requests already
// written on them included, so a stopping server closes it only when none is (drain.ts). Node
// does not tell; Linux lists them in /proc/net/tcp and tcp6: the listener's line carries the
// length of its accept queue where a connection's carries its unread bytes, and a half-open
// connection is a line in state SYN_RECV. Elsewhere (no /proc) it cannot tell, and says none.
//
// The accept queue is read last, and only as far as the listeners' lines, which the kernel lists
// first: the server closes its listener right after, and a connection completed between the read
// and the close would be reset. On a loaded machine reading the whole table took 60 ms.
import { closeSync, openSync, readFileSync, readSync } from 'node:fs'

const LISTEN = '0A'
const SYN_RECV = '03'
const TABLES = ['/proc/net/tcp', '/proc/net/tcp6']
const CHUNK = 16 * 1024

/** "sl local_address rem_address st tx_queue:rx_queue ...": the fields of a line of the table. */
const fieldsOf = (line: string) => line.trim().split(/\s+/)
const localPort = (port: number) => `:${port.toString(16).toUpperCase().padStart(4, '0')}`

/** Whether a connection to the local `port` waits to finish its handshake, or to be accepted. */
export function connectionsWaiting(port: number): boolean {
  return TABLES.some((table) => halfOpen(table, port)) || TABLES.some((t) => queued(t, port))
}

function halfOpen(table: string, port: number): boolean {
  let text: string
  try {
    text = readFileSync(table, 'latin1')
  } catch {
    return false
  }
  const local = localPort(port)
  for (const line of text.split('\n')) {
    const f = fieldsOf(line)
    if (f[3] === SYN_RECV && f[1]?.endsWith(local)) return true
  }
  return false
}

/** The listener's accept queue, reading the table only up to its first line that is no listener's. */
function queued(table: string, port: number): boolean {
  let fd: number
  try {
    fd = openSync(table, 'r')
  } catch {
    return false
  }
  const local = localPort(port)
  const buffer = Buffer.alloc(CHUNK)
  let rest = ''
  try {
    for (let header = true; ; ) {
      const n = readSync(fd, buffer, 0, CHUNK, null)
      if (n === 0) return false
      const lines = (rest + buffer.toString('latin1', 0, n)).split('\n')
      rest = lines.pop()!
      for (const line of lines) {
        if (header) {
          header = false
          continue
        }
        const f = fieldsOf(line)
        if (f[3] !== LISTEN) return false
        if (f[1]!.endsWith(local)) return Number.parseInt(f[4]!.split(':')[1]!, 16) > 0
      }
    }
  } finally {
    closeSync(fd)
  }
}
