// docs/PYTHON.md's table of helpers, written from the table of helpers between its two markers:
// each helper's Python signature, what it answers and its doc, then `call()`, the package's way
// to any other endpoint.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { type CallModel, isCall, type Model, snake } from './model.js'

export const DOC = 'docs/PYTHON.md'
const BEGIN = '<!-- helpers: written by `npm run generate` from src/client/helpers.ts -->'
const END = '<!-- /helpers -->'

const CALL_ROW =
  '| `call(method, path, *, json=None, params=None)` | the JSON | any other control endpoint (`call("PUT", f"/webhooks/{id}/chaos", json={"drop": 0.5})`) |'

function signature(m: CallModel): string {
  const parts: string[] = []
  let starred = false
  for (const a of m.args) {
    if (a.kind === 'path') parts.push(a.ownUser ? `${a.name}=None` : a.name)
    else if (a.kind === 'field') parts.push(a.required ? a.name : `${a.name}=None`)
    else if (a.kind === 'all') parts.push(...a.fields.map((f) => `${f.key}=...`))
    else {
      if (!starred) parts.push('*')
      starred = true
      parts.push(...a.fields.map((f) => (f.required ? f.key : `${f.key}=None`)))
    }
  }
  return `${snake(m.helper.name)}(${parts.join(', ')})`
}

/** A doc's text in a table cell: a page of docs/ named (with its anchor) a link, `|` escaped. */
const cell = (text: string) =>
  text
    .replace(
      /docs\/([A-Z-]+\.md)(#[\w-]+)?/g,
      (_, file: string, anchor = '') => `[${file}](${file}${anchor})`,
    )
    .replace(/\|/g, '\\|')

export function helperRows(models: Model[]): string {
  const rows = models.map((m) => {
    const group = m.helper.group ? `${m.helper.group}.` : ''
    const [call, answers] = isCall(m)
      ? [
          signature(m),
          m.helper.answer === 'nothing' ? 'None' : (m.field?.python ?? m.answer.python),
        ]
      : [m.helper.byHand.python, m.helper.byHand.answers]
    return `| \`${group}${call}\` | \`${answers}\` | ${cell(m.helper.doc)} |`
  })
  return ['| helper | answers | what it does |', '|---|---|---|', ...rows, CALL_ROW].join('\n')
}

/** docs/PYTHON.md with the table between its markers written from `models`. */
export function pythonDoc(models: Model[]): string {
  const path = fileURLToPath(new URL(`../../${DOC}`, import.meta.url))
  const text = readFileSync(path, 'utf8')
  const start = text.indexOf(BEGIN)
  const end = text.indexOf(END)
  if (start < 0 || end < start) throw new Error(`${DOC}: the markers ${BEGIN} and ${END} are gone`)
  return `${text.slice(0, start + BEGIN.length)}\n${helperRows(models)}\n${text.slice(end)}`
}
