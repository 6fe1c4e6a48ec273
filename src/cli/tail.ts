// The last lines a command printed, kept while its output passes through to exec's own: when
// the command fails before its first call, exec says so and shows them before the readiness
// summary, whose checklist would otherwise bury the cause (docs/READINESS.md#exec-any-suite-in-ci).
// Bounded whatever the command prints: a few lines, each cut to a length a person reads.
import { stripVTControlCharacters } from 'node:util'
import { escapeControls } from '../terminal.js'

/** The lines kept: enough for a build tool's error and the line naming its cause. */
export const TAIL_LINES = 15
/** A longer line is cut: a minified stack or a progress bar redrawn without a line feed. */
const LINE_CHARS = 400

export interface Tail {
  /** A writer for one stream (stdout, stderr): its text, decoded, as it comes. */
  stream(): (text: string) => void
  /** The last non-blank lines of all the streams, without colours, control characters escaped. */
  lines(): string[]
}

/** A line as shown: without colours, control characters escaped, cut; undefined when blank. */
function shown(line: string): string | undefined {
  const text = escapeControls(stripVTControlCharacters(line.replace(/\r$/, ''))).trimEnd()
  if (!text.trim()) return undefined
  return text.length > LINE_CHARS ? `${text.slice(0, LINE_CHARS)}...` : text
}

export function createTail(max = TAIL_LINES): Tail {
  const kept: string[] = []
  /** Each stream's line still being written. */
  const partials: { text: string }[] = []
  const keep = (into: string[], line: string) => {
    const text = shown(line)
    if (text === undefined) return
    into.push(text)
    if (into.length > max) into.shift()
  }
  return {
    stream() {
      const partial = { text: '' }
      partials.push(partial)
      return (text) => {
        const parts = (partial.text + text).split('\n')
        // One longer than a few screens is cut, so what is kept stays bounded.
        partial.text = parts.pop()!.slice(0, LINE_CHARS * 4)
        for (const part of parts) keep(kept, part.slice(0, LINE_CHARS * 4))
      }
    },
    lines() {
      const all = [...kept]
      for (const partial of partials) keep(all, partial.text)
      return all
    },
  }
}
