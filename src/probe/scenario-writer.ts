// --write-scenario: the scenario in force, edited in place (comments kept), with the implied
// settings, and the differences no setting can express listed at the end as comments.
import { basename, dirname, extname, resolve } from 'node:path'
import { parseDocument } from 'yaml'
import type { Implied } from './settings.js'

const FIXED_ZONE =
  ' (only the offset was observed: name the real zone if you know it, so daylight saving follows)'

export interface WriteContext {
  target: string
  basedOn: string
  date: string
}

/** `scrub` cleans what came from the target or names it; the scenario's own text (its secrets too) is kept. */
export function calibratedScenario(
  baseText: string,
  implied: Implied,
  ctx: WriteContext,
  scrub: (s: string) => string,
): string {
  const doc = parseDocument(baseText)
  for (const [key, value] of Object.entries(implied.settings)) doc.setIn(['settings', key], value)
  doc.set(
    'description',
    `Calibrated by pix-sandbox probe against ${ctx.target} on ${ctx.date}, based on the scenario "${ctx.basedOn}".`,
  )
  const changed = Object.entries(implied.settings).map(
    ([k, v]) => `  ${k}: ${v}${k === 'timezone' && String(v).startsWith('Etc/') ? FIXED_ZONE : ''}`,
  )
  const header = [
    ` Written by pix-sandbox probe against ${ctx.target} on ${ctx.date}, from "${ctx.basedOn}".`,
    changed.length ? ' Settings changed to match the target:' : ' No setting needed a change.',
    ...changed.map((l) => ` ${l}`),
  ]
  doc.commentBefore = [doc.commentBefore, ...header.map(scrub)]
    .filter((l) => l !== null && l !== undefined)
    .join('\n')
  const rest = implied.learnNext.map(
    (r) => ` - ${r.id} (${r.topic}): sandbox ${oneLine(r.sandbox)}; target ${oneLine(r.target)}`,
  )
  doc.comment = scrub(
    [
      rest.length
        ? ' Differences no setting can express (what the sandbox should learn next):'
        : ' Every difference observed is covered by a setting above.',
      ...rest,
    ].join('\n'),
  )
  return String(doc)
}

const oneLine = (a: object) => JSON.stringify('observed' in a ? a.observed : a).slice(0, 300)

/** How to start a sandbox with the written file; the server loads scenarios by folder and name. */
export function howToLoad(file: string): string {
  const ext = extname(file)
  const name = basename(file, ext)
  if (!['.yaml', '.yml', '.json'].includes(ext) || !/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(name)) {
    return 'rename it <letters-digits-dashes>.yaml to load it'
  }
  return `start a sandbox with it: SCENARIOS_DIR=${dirname(resolve(file))} SCENARIO=${name} npm start`
}
