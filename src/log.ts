// A small levelled logger writing one line per message. It never receives request headers, so
// credentials cannot reach the log by accident. What it is given may come from a client (a
// request's path, a receiver's error), so control characters are escaped: a line stays one line
// and cannot command the terminal it is read on.
import type { LogLevel } from './config.js'
import { escapeControls } from './terminal.js'

export interface Log {
  debug(msg: string, fields?: Record<string, unknown>): void
  info(msg: string, fields?: Record<string, unknown>): void
  warn(msg: string, fields?: Record<string, unknown>): void
  error(msg: string, fields?: Record<string, unknown>): void
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 }

export function createLog(
  level: LogLevel,
  write: (line: string) => void = (l) => process.stdout.write(l),
): Log {
  const min = RANK[level]
  const emit =
    (lvl: Exclude<LogLevel, 'silent'>) => (msg: string, fields?: Record<string, unknown>) => {
      if (RANK[lvl] < min) return
      const extra = fields ? ' ' + JSON.stringify(fields) : ''
      write(`${new Date().toISOString()} ${lvl.padEnd(5)} ${escapeControls(msg + extra)}\n`)
    }
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') }
}

export const silentLog: Log = createLog('silent')
