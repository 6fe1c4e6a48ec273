// The reference app's stop, with a stand-in for python that starts as uvicorn does and then
// writes a warning line without pause, as uvicorn does for each malformed request: a line read
// between close()'s kill and the exit must not make close() wait for ever.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { startReference } from './reference.js'

const dir = mkdtempSync(join(tmpdir(), 'fake-uvicorn-'))
const python = join(dir, 'python')
writeFileSync(
  python,
  `#!/bin/sh
echo "INFO:     Uvicorn running on http://127.0.0.1:45678 (Press CTRL+C to quit)" >&2
while :; do echo "WARNING:  Invalid HTTP request received." >&2; done
`,
)
chmodSync(python, 0o755)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

it('stops a reference app that is still writing warnings', async () => {
  for (let round = 0; round < 5; round++) {
    const reference = await startReference(python)
    expect(reference.port).toBe(45678)
    await new Promise((r) => setTimeout(r, 20))
    // Stopped within seconds, or not at all (the 'exit' it waits for was lost).
    const stopped = await Promise.race([
      reference.close().then(() => 'stopped'),
      new Promise((r) => setTimeout(() => r('still waiting after 10 s'), 10_000)),
    ])
    expect(stopped, `round ${round}`).toBe('stopped')
  }
})
