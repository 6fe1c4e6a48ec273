// Holds the control plane's answers to its own published document, strictly: every JSON answer
// must match the schema /_sandbox/openapi.json declares for its route and status, and an object
// may carry no field the document does not declare (the document says nothing of extra fields;
// here every object schema is closed). The Node and Python clients' types are generated from that
// document, so what this passes is what their users can rely on. The harness checks every
// control-plane call it makes (test/harness.ts); test/sandbox/conformance.test.ts makes one of
// each operation.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'

type Json = Record<string, any>

/** A copy of the document where every object schema that lists properties admits no others. */
export function closedDocument(doc: Json): Json {
  const close = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(close)
    if (node === null || typeof node !== 'object') return node
    const out: Json = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, close(v)]))
    if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false
    return out
  }
  return close(doc) as Json
}

const pointer = (...parts: string[]) =>
  '#/' + parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')
const ERROR_BODY = {
  type: 'object',
  properties: { detail: { type: 'string' } },
  required: ['detail'],
  additionalProperties: false,
}

export interface Conformance {
  /** The paths (as the document writes them) and methods whose answers have been checked, with their statuses. */
  seen: Map<string, Set<number>>
  /** Problems with this answer (none when it conforms). `path` is under /_sandbox, without the query. */
  problems(method: string, path: string, status: number, body: unknown): string[]
}

export function conformance(doc: Json): Conformance {
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true })
  ajv.addSchema(closedDocument(doc), 'doc')
  const validators = new Map<string, ValidateFunction>()
  const validator = (ref: string): ValidateFunction => {
    let v = validators.get(ref)
    if (!v)
      validators.set(
        ref,
        (v = ref === 'error' ? ajv.compile(ERROR_BODY) : ajv.compile({ $ref: `doc${ref}` })),
      )
    return v
  }
  // Static segments before parameters: /webhooks/deliveries is not /webhooks/{webhook_id}.
  const templates = Object.keys(doc.paths)
    .map((t) => ({
      t,
      re: new RegExp(`^${t.replace(/\{\w+\}/g, '[^/]+')}$`),
      params: (t.match(/\{/g) ?? []).length,
    }))
    .sort((a, b) => a.params - b.params)
  const seen = new Map<string, Set<number>>()

  return {
    seen,
    problems(method, path, status, body) {
      const m = method.toLowerCase()
      const template = templates.find((x) => x.re.test(path) && doc.paths[x.t][m])?.t
      if (template) {
        const key = `${m.toUpperCase()} ${template}`
        if (!seen.has(key)) seen.set(key, new Set())
        seen.get(key)!.add(status)
      }
      // The framework's redirect of a trailing slash (docs/CONTRACT.md#the-framework) has no body and no declaration.
      if (status === 307 && body === undefined) return []
      const declared = template && doc.paths[template][m].responses[String(status)]
      if (!declared) {
        // The framework's 307 to a path without its trailing slash answers a path no
        // operation declares (a URL such as /clock/advance/.. that fetch resolves to /clock/), not an operation.
        if (!template && status === 307 && body === undefined) return []
        if (status < 400)
          return [
            `${method} ${path} answered ${status}, which ${template ? 'its declaration' : 'no declaration'} lists`,
          ]
        return check(validator('error'), body, `${method} ${path} ${status}`)
      }
      if (!declared.content)
        return body === undefined
          ? []
          : [`${method} ${path} ${status} declares no body but answered one`]
      return check(
        validator(
          pointer(
            'paths',
            template,
            m,
            'responses',
            String(status),
            'content',
            'application/json',
            'schema',
          ),
        ),
        body,
        `${method} ${path} ${status}`,
      )
    },
  }
}

function check(validate: ValidateFunction, body: unknown, what: string): string[] {
  if (validate(body)) return []
  return (validate.errors ?? []).map(
    (e) =>
      `${what}: ${e.instancePath || '(root)'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` "${e.params.additionalProperty}"` : ''}`,
  )
}

let shared: Promise<Conformance> | undefined

/** The checker of the control plane's document, read from the first sandbox asked: every sandbox of this code serves the same one. */
export function conformanceOf(baseUrl: string): Promise<Conformance> {
  shared ??= fetch(`${baseUrl}/_sandbox/openapi.json`).then(async (r) =>
    conformance((await r.json()) as Json),
  )
  return shared
}
