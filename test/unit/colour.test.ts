// exec's COMMAND writes into a pipe, not exec's terminal (src/cli/colour.ts): it is told to colour
// where exec's stdout is a terminal, and never against a choice the user made in the environment.
import { describe, expect, it } from 'vitest'
import { colourEnv } from '../../src/cli/colour.js'

describe("the colours of exec's COMMAND", () => {
  it('are forced where exec writes to a terminal and the user chose nothing', () => {
    expect(colourEnv({ PATH: '/bin' }, true)).toEqual({ FORCE_COLOR: '1' })
  })

  it('are left alone where exec writes to a file or a pipe (CI logs, | tee)', () => {
    expect(colourEnv({ PATH: '/bin' }, false)).toEqual({})
  })

  it.each([
    { NO_COLOR: '1' },
    { NO_COLOR: '' },
    { FORCE_COLOR: '0' },
    { FORCE_COLOR: '3' },
    { FORCE_COLOR: '' },
  ])('are left to the user who set %o, even on a terminal', (chosen) => {
    expect(colourEnv({ PATH: '/bin', ...chosen }, true)).toEqual({})
  })
})
