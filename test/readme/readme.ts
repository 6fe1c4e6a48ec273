// The README's code blocks, read as a user copies them: the tests of this folder run them, so a
// README example that stops working fails `npm test` instead of a newcomer's first hour.
import { readFileSync } from 'node:fs'

export const README = new URL('../../README.md', import.meta.url)

export interface Block {
  lang: string
  code: string
  /** 1-based line of the opening fence, for messages. */
  line: number
}

/** Every fenced block of the README, in order. */
export function readmeBlocks(text = readFileSync(README, 'utf8')): Block[] {
  const blocks: Block[] = []
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]!)
    if (!open) continue
    const start = i
    const body: string[] = []
    for (i++; i < lines.length && lines[i] !== '```'; i++) body.push(lines[i]!)
    blocks.push({ lang: open[1]!, code: body.join('\n') + '\n', line: start + 1 })
  }
  return blocks
}

/** The test-suite example: the README's one TypeScript block that imports pix-sandbox. */
export function readmeTestFile(): Block {
  const found = readmeBlocks().filter(
    (b) => b.lang === 'ts' && b.code.includes("from 'pix-sandbox'"),
  )
  if (found.length !== 1)
    throw new Error(
      `expected one \`\`\`ts block importing pix-sandbox in README.md, found ${found.length}`,
    )
  return found[0]!
}
