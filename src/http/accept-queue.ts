// Whether connections wait for the server to accept them: closing a listener resets every
// connection in the kernel's accept queue, and every one still half open, requests already
// written on them included, so a stopping server closes it only when none is (drain.ts). Node
// does not tell; Linux lists them in /proc/net/tcp and tcp6: the listener's line carries the
// length of its accept queue where a connection's carries its unread bytes, and a half-open
// connection is a line in state SYN_RECV. Elsewhere (no /proc) it cannot tell, and says none.
//
// The accept queue is read last, and only as far as the listeners' lines, which the kernel lists
// first: the server closes its listener right after, and a connection completed between the read
// and the close would be reset. On a loaded machine reading the whole table took 60 ms; the
// half-open lines are found by one search of the text, not by splitting its thousands of lines
// (a test machine's table holds every TIME_WAIT: splitting it was a fifth of a test sandbox's
// start and close), in the table of the listener's family only (an IPv6 listener's dual-stack
// connections may be in either).
import type { AddressInfo } from 'node:net'
import { closeSync, openSync, readFileSync, readSync } from 'node:fs'

const LISTEN = '0A'
const SYN_RECV = '03'
const TCP = '/proc/net/tcp'
const TCP6 = '/proc/net/tcp6'
const CHUNK = 16 * 1024

/** "sl local_address rem_address st tx_queue:rx_queue ...": the fields of a line of the table. */
const fieldsOf = (line: string) => line.trim().split(/\s+/)
const localPort = (port: number) => `:${port.toString(16).toUpperCase().padStart(4, '0')}`

/** Whether a connection to the listener at `address` waits to finish its handshake, or to be accepted. */
export function connectionsWaiting({ port, family }: AddressInfo): boolean {
  const tables = family === 'IPv4' ? [TCP] : [TCP, TCP6]
  return tables.some((table) => halfOpen(table, port)) || tables.some((t) => queued(t, port))
}

function halfOpen(table: string, port: number): boolean {
  try {
    return halfOpenIn(readFileSync(table, 'latin1'), port)
  } catch {
    return false
  }
}

/** Whether the text of a /proc/net/tcp(6) table has a line in SYN_RECV whose local port is `port`. */
export function halfOpenIn(table: string, port: number): boolean {
  // "  12: 0100007F:1F90 0100007F:C350 03 ...": slot, local address:port, remote, state.
  return new RegExp(
    `^ *\\d+: [0-9A-F]+${localPort(port)} [0-9A-F]+:[0-9A-F]{4} ${SYN_RECV} `,
    'm',
  ).test(table)
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
