// One server per DATABASE: a second start on the same file refuses, naming the file and the
// process holding it, and exits 1; the lock dies with its process, kill -9 included.
import { spawn, type ChildProcess } from 'node:child_process'
import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { silentLog } from '../../src/log.js'
import { startSandbox, StartupError } from '../../src/server.js'
import { testConfig } from '../harness.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const TSX = import.meta.resolve('tsx')

let dir: string
const children: ChildProcess[] = []
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'pix-sandbox-lock-'))))
afterEach(() => {
  for (const c of children.splice(0))
    if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL')
  rmSync(dir, { recursive: true, force: true })
})

/** A server process on `database`: resolves once it listens, or with its exit code and output. */
function server(database: string) {
  const child = spawn(process.execPath, ['--import', TSX, join(ROOT, 'src/main.ts')], {
    cwd: dir,
    env: {
      ...process.env,
      DATABASE: database,
      PORT: '0',
      LOG_LEVEL: 'warn',
      SCENARIOS_DIR: join(ROOT, 'scenarios'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.push(child)
  let out = ''
  return new Promise<{ child: ChildProcess; listening: boolean; code: number | null; out: string }>(
    (resolve) => {
      const take = (d: Buffer) => {
        out += d
        if (/listening on http/.test(out)) resolve({ child, listening: true, code: null, out })
      }
      child.stdout!.on('data', take)
      child.stderr!.on('data', take)
      child.once('exit', (code) => resolve({ child, listening: false, code, out }))
    },
  )
}

const exited = (child: ChildProcess) =>
  new Promise((r) =>
    child.exitCode !== null || child.signalCode !== null ? r(null) : child.once('exit', r),
  )

describe('a DATABASE', () => {
  it('is served by one process: a second refuses, naming the file and the other pid, and exits 1; after kill -9 the next one starts', async () => {
    const database = join(dir, 'shared.db')
    const first = await server(database)
    expect(first.listening, first.out).toBe(true)

    const second = await server(database)
    expect(second.listening, second.out).toBe(false)
    expect(second.code).toBe(1)
    expect(second.out).toContain(
      `the store ${database} is in use by another pix-sandbox server (pid ${first.child.pid} on `,
    )
    expect(second.out).not.toMatch(/\n\s+at /) // no stack trace

    first.child.kill('SIGKILL')
    await exited(first.child)
    const third = await server(database)
    expect(third.listening, third.out).toBe(true)
    third.child.kill('SIGTERM')
    expect(
      await new Promise((r) => third.child.once('exit', (code, signal) => r(code ?? signal))),
    ).toBe(0)

    // Released by a clean stop too.
    const fourth = await server(database)
    expect(fourth.listening, fourth.out).toBe(true)
  })

  it('is refused to a second sandbox of the same process until the first closes', async () => {
    const config = testConfig({ database: join(dir, 'embedded.db') })
    const first = await startSandbox(config, { log: silentLog })
    await expect(startSandbox(config, { log: silentLog })).rejects.toThrow(StartupError)
    await expect(startSandbox(config, { log: silentLog })).rejects.toThrow(`pid ${process.pid} on `)
    await first.close()
    const again = await startSandbox(config, { log: silentLog })
    await again.close()
  })

  it('is one file whatever names lead to it: a symbolic link to it, or to its folder, is refused while it is served', async () => {
    // The lock was keyed on the path as written: a second server through a symlink took a lock
    // of its own on the same file.
    mkdirSync(join(dir, 'real'))
    symlinkSync(join(dir, 'real'), join(dir, 'folder-link'))
    symlinkSync(join(dir, 'real', 'store.db'), join(dir, 'file-link.db'))
    // The first server makes the file through a symlink to a file not made yet.
    const first = await startSandbox(testConfig({ database: join(dir, 'file-link.db') }), {
      log: silentLog,
    })
    try {
      for (const other of [join(dir, 'real', 'store.db'), join(dir, 'folder-link', 'store.db')]) {
        await expect(
          startSandbox(testConfig({ database: other }), { log: silentLog }),
          other,
        ).rejects.toThrow(`is in use by another pix-sandbox server (pid ${process.pid} on `)
      }
    } finally {
      await first.close()
    }
  })

  it('with a hard link is refused, saying why', async () => {
    // A second name for the file would get its own lock and its own -wal file.
    const database = join(dir, 'linked.db')
    await (await startSandbox(testConfig({ database }), { log: silentLog })).close()
    linkSync(database, join(dir, 'other-name.db'))
    for (const name of [database, join(dir, 'other-name.db')]) {
      const start = startSandbox(testConfig({ database: name }), { log: silentLog })
      await expect(start).rejects.toThrow(StartupError)
      await expect(start).rejects.toThrow(
        `the store ${name} has 1 other name(s) (hard links to the same file)`,
      )
    }
  })
})
