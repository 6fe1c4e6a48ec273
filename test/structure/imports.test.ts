// What may import what in src/: no import cycles (type imports included), and each layer imports
// only the layers below it, so a change low down never needs one higher up. docs/ARCHITECTURE.md
// and docs/DESIGN.md ("Layers") draw the same picture (test/structure/docs.test.ts compares the
// first with LAYERS below); the import graph is read by ./imports.ts.
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { importGraph, type Edge } from './imports.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** Top to bottom: a file imports its own layer and the layers below it. */
const LAYERS: [name: string, files: RegExp][] = [
  [
    'entry points (CLI, server, the package, the probe)',
    /^src\/((main|cli|index|embedded|public|banner|server|app|sources)\.ts$|cli\/|probe\/)/,
  ],
  ['dashboard', /^src\/ui\//],
  ['HTTP (contract and control plane)', /^src\/http\//],
  ['the typed control client', /^src\/client\//],
  ['use cases and workers', /^src\/(operations|readiness|webhooks)\//],
  ['store', /^src\/store\//],
  ['configuration, log, fakes', /^src\/(config|log|fakes)\.ts$/],
  ['scenario files', /^src\/scenarios\//],
  ['rules (domain, PIX)', /^src\/(domain|pix)\//],
  ['base (clock, ids, terminal, version)', /^src\/(clock|ids|terminal|version)\.ts$/],
]

/**
 * Where a shape is defined once (zod) and others take its type (docs/DESIGN.md, "Where each shape
 * is defined"): a type-only import of these is allowed from any layer, as types are erased and
 * nothing of zod or of the layer loads there. The scenario files' shapes, a subscription's, and
 * the control plane's records (whose report the CLI's readiness summary prints).
 */
const SHAPES = [
  /^src\/scenarios\/(schema|settings)$/,
  /^src\/webhooks\/schema$/,
  /^src\/http\/sandbox\/records\//,
]
const shape = (e: Edge) => e.typeOnly && SHAPES.some((p) => p.test(e.to))

/** The domain is pure: its own files, the clock's types and the scenario files' shapes' types; no package, no I/O. */
const DOMAIN_MAY_IMPORT = [/^src\/domain\//, /^src\/clock$/]
const DOMAIN_MAY_TYPE = [/^src\/scenarios\/(schema|settings)$/]

/**
 * The dashboard reads through the control plane (docs/DESIGN.md#the-dashboard): it imports the HTTP layer (the
 * control routes, called in process), the control client's types, the pure domain and the
 * readiness catalog (whose set-ups name control calls). Beside those, each file below names what
 * it takes and why.
 */
const DASHBOARD_MAY_IMPORT = [
  /^src\/ui\//,
  /^src\/http\//,
  /^src\/client\//,
  /^src\/domain\//,
  /^src\/readiness\/catalog$/,
]
const DASHBOARD_ALSO: Record<string, RegExp[]> = {
  // Signing in makes the scope the control plane is then called with: it cannot be asked with one.
  'src/ui/session.ts': [/^src\/store\/(index|identity)$/],
  // The secrets the admin may reveal come from scenario files; the control plane answers none.
  'src/ui/known-secrets.ts': [
    /^src\/store\/identity$/,
    /^src\/operations\/authenticate$/,
    /^src\/scenarios\/loader$/,
  ],
  // An uploaded scenario file is checked as `pix-sandbox scenario check` checks it, with its
  // lines, before the control plane (which takes a document, not a file's text) applies it.
  'src/ui/scenario-text.ts': [/^src\/scenarios\/loader$/],
  // The change hook's type: the sandbox tells the live stream what changed.
  'src/ui/live.ts': [/^src\/operations\/context$/],
}

/**
 * Known exceptions, each to go: readiness/requests.ts reaches up into the HTTP layer (and closes
 * the cycle http/auth -> http/env -> operations/context -> readiness/recorder ->
 * readiness/requests -> http/auth). The `readiness` branch removes these imports: delete the
 * lines when it merges (the last test below fails while one is listed and no longer imported).
 */
const KNOWN: string[] = []

const graph = importGraph(ROOT, 'src')
const files = new Map([...graph.keys()].map((f) => [f.replace(/\.tsx?$/, ''), f]))
const ours = (e: Edge) => e.to.startsWith('src/')
const known = (from: string, e: Edge) => KNOWN.includes(`${from} -> ${e.to}`)
const layerOf = (file: string) => LAYERS.findIndex(([, pattern]) => pattern.test(file))
const all = [...graph].flatMap(([from, edges]) => edges.map((e) => ({ from, ...e })))

describe('the import graph of src/', () => {
  it('is read whole: every file is in a layer, and every import of ours is a file', () => {
    expect([...graph.keys()].filter((f) => layerOf(f) === -1)).toEqual([])
    expect(
      all.filter((e) => ours(e) && !files.has(e.to)).map((e) => `${e.from} -> ${e.to}`),
    ).toEqual([])
  })

  it('has no cycle, type imports included', () => {
    expect(cycles().map((c) => c.join(' -> '))).toEqual([])
  })

  it("goes only downward: each layer imports its own and those below (a shape's type excepted)", () => {
    const upward = all
      .filter((e) => ours(e) && !known(e.from, e) && !shape(e))
      .filter((e) => layerOf(files.get(e.to)!) < layerOf(e.from))
      .map(
        (e) =>
          `${e.from} (${LAYERS[layerOf(e.from)]![0]}) -> ${e.to} (${LAYERS[layerOf(files.get(e.to)!)]![0]})`,
      )
    expect(upward).toEqual([])
  })

  it('keeps the domain pure: no package, no Node module, nothing of ours with I/O', () => {
    const impure = all
      .filter((e) => e.from.startsWith('src/domain/'))
      .filter(
        (e) =>
          !(
            ours(e) &&
            (DOMAIN_MAY_IMPORT.some((p) => p.test(e.to)) ||
              (e.typeOnly && DOMAIN_MAY_TYPE.some((p) => p.test(e.to))))
          ),
      )
      .map((e) => `${e.from} -> ${e.to}`)
    expect(impure).toEqual([])
  })

  it('keeps the dashboard a client of the control plane', () => {
    const around = all
      .filter((e) => e.from.startsWith('src/ui/') && ours(e))
      .filter(
        (e) =>
          !DASHBOARD_MAY_IMPORT.some((p) => p.test(e.to)) &&
          !(DASHBOARD_ALSO[e.from] ?? []).some((p) => p.test(e.to)),
      )
      .map((e) => `${e.from} -> ${e.to}`)
    expect(around).toEqual([])
  })

  it('still holds each known exception it lists (one fixed is deleted from the list)', () => {
    const edges = new Set(all.map((e) => `${e.from} -> ${e.to}`))
    expect(KNOWN.filter((k) => !edges.has(k))).toEqual([])
  })
})

/** Every cycle of the graph (its strongly connected components of more than one file), known edges left out. */
function cycles(): string[][] {
  const next = new Map(
    [...graph].map(([from, edges]) => [
      from,
      edges.filter((e) => ours(e) && !known(from, e)).map((e) => files.get(e.to)!),
    ]),
  )
  let counter = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const found: string[][] = []
  const visit = (v: string): void => {
    index.set(v, counter)
    low.set(v, counter++)
    stack.push(v)
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) !== index.get(v)) return
    const component: string[] = []
    let w: string
    do component.push((w = stack.pop()!))
    while (w !== v)
    if (component.length > 1) found.push(component.reverse())
  }
  for (const v of next.keys()) if (!index.has(v)) visit(v)
  return found
}
