// deploy/kubernetes: every manifest validated against the Kubernetes schemas (kubernetes-models'
// validators, plus its types for field names the validators let through), then the promises the
// manifests make checked against the Dockerfile, the configuration and the measured memory.
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { posix } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { parseAllDocuments } from 'yaml'
import { loadConfig } from '../../src/config.js'
import { imageSettings, repositoryDockerfile } from '../dockerfile.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const DIR = 'deploy/kubernetes/'
const image = imageSettings(repositoryDockerfile())
/** The uid of the image's user: `node` is uid 1000 in the official node images. */
const IMAGE_UIDS: Record<string, number> = { node: 1000 }
/** Idle RSS of `npm start` on an empty store, measured (docs/DEPLOY.md). */
const IDLE_RSS_MB = 96

interface Manifest {
  file: string
  doc: any
}

const files = readdirSync(ROOT + DIR)
  .filter((f) => f.endsWith('.yaml'))
  .sort()
const manifests: Manifest[] = files.flatMap((file) =>
  parseAllDocuments(readFileSync(ROOT + DIR + file, 'utf8')).map((d) => {
    if (d.errors.length) throw new Error(`${file}: ${d.errors[0]!.message}`)
    return { file, doc: d.toJS() }
  }),
)
const kubernetes = manifests.filter((m) => !m.doc.apiVersion.startsWith('kustomize.config.k8s.io/'))
const only = (kind: string) => {
  const found = kubernetes.filter((m) => m.doc.kind === kind)
  expect(found, kind).toHaveLength(1)
  return found[0]!.doc
}

/** kubernetes-models' class for a manifest: `apps/v1` is in `kubernetes-models/apps/v1`. */
async function modelOf(doc: any): Promise<new (data: any) => { validate(): void }> {
  const module = await import(/* @vite-ignore */ `kubernetes-models/${doc.apiVersion}`)
  const model = module[doc.kind]
  if (!model) throw new Error(`kubernetes-models/${doc.apiVersion} has no ${doc.kind}`)
  return model
}

const megabytes = (quantity: string) => {
  const m = /^(\d+)(Mi|Gi|M|G)$/.exec(quantity)
  if (!m) throw new Error(`unexpected quantity ${quantity}`)
  return (Number(m[1]) * { Mi: 2 ** 20, Gi: 2 ** 30, M: 1e6, G: 1e9 }[m[2] as 'Mi']) / 1e6
}

describe('the Kubernetes manifests', () => {
  it('are all listed in the kustomization', () => {
    const kustomization = manifests.find((m) => m.doc.kind === 'Kustomization')!.doc
    expect([...kustomization.resources].sort()).toEqual(
      [...new Set(kubernetes.map((m) => m.file))].sort(),
    )
  })

  it("pass the Kubernetes schemas' validation", async () => {
    expect(kubernetes.map((m) => m.doc.kind).sort()).toEqual([
      'NetworkPolicy',
      'Service',
      'StatefulSet',
    ])
    for (const { file, doc } of kubernetes) {
      const Valid = await modelOf(doc)
      expect(() => new Valid(doc).validate(), file).not.toThrow()
    }
    // The validation is real: a wrong type fails it.
    const broken = structuredClone(only('StatefulSet'))
    broken.spec.template.spec.containers[0].ports[0].containerPort = 'eighty'
    const Model = await modelOf(broken)
    expect(() => new Model(broken).validate()).toThrow(/containerPort/)
  })

  it('use no field the schemas do not know (a misspelt field is otherwise silently dropped)', async () => {
    // The validators allow unknown fields; TypeScript's excess property check does not.
    // Inside the repository, so that the files resolve kubernetes-models from its node_modules.
    mkdirSync(`${ROOT}node_modules/.cache`, { recursive: true })
    const dir = mkdtempSync(`${ROOT}node_modules/.cache/pix-sandbox-k8s-check-`) + '/'
    const source = (docs: Manifest[]) =>
      docs
        .map(
          ({ doc }, i) =>
            `import { I${doc.kind} as T${i} } from 'kubernetes-models/${doc.apiVersion}'\n` +
            `export const m${i}: T${i} = ${JSON.stringify(doc)}\n`,
        )
        .join('')
    const tsc = (file: string) =>
      promisify(execFile)(`${ROOT}node_modules/.bin/tsc`, [
        '--ignoreConfig',
        '--noEmit',
        '--strict',
        '--skipLibCheck',
        '--module',
        'nodenext',
        '--types',
        '',
        dir + file,
      ])
        .then(() => '')
        .catch((e: { stdout: string }) => e.stdout)
    writeFileSync(dir + 'manifests.ts', source(kubernetes))
    const misspelt = structuredClone(only('StatefulSet'))
    misspelt.spec.template.spec.containers[0].securityContext.readOnlyRootFileSystem = true
    writeFileSync(dir + 'misspelt.ts', source([{ file: 'misspelt', doc: misspelt }]))
    const [good, bad] = await Promise.all([tsc('manifests.ts'), tsc('misspelt.ts')])
    rmSync(dir, { recursive: true, force: true })
    expect(good).toBe('')
    expect(bad).toContain('readOnlyRootFileSystem')
  })

  it('run one pod whose Service and probes reach the port of the image', () => {
    const set = only('StatefulSet')
    const service = only('Service')
    const pod = set.spec.template
    const container = pod.spec.containers[0]
    // One writer per store: more replicas would scatter the state (docs/DEPLOY.md).
    expect(set.spec.replicas).toBe(1)
    expect(set.spec.serviceName).toBe(service.metadata.name)
    expect(pod.metadata.labels).toMatchObject(set.spec.selector.matchLabels)
    expect(pod.metadata.labels).toMatchObject(service.spec.selector)
    expect(container.ports).toEqual([{ name: 'http', containerPort: Number(image.env.PORT) }])
    expect(service.spec.ports.map((p: any) => p.targetPort)).toEqual(['http'])
    for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe']) {
      expect(container[probe].httpGet, probe).toEqual({ path: '/_sandbox/health', port: 'http' })
    }
  })

  it("runs as the image's non-root user, on a read-only root file system", () => {
    const pod = only('StatefulSet').spec.template.spec
    const container = pod.containers[0]
    expect(pod.securityContext).toMatchObject({
      runAsNonRoot: true,
      runAsUser: IMAGE_UIDS[image.user!],
      fsGroup: IMAGE_UIDS[image.user!],
    })
    expect(container.securityContext).toMatchObject({
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    })
    expect(pod.automountServiceAccountToken).toBe(false)
  })

  it("keeps the store on a claimed volume at the image's volume, and gives /tmp an emptyDir", () => {
    const set = only('StatefulSet')
    const spec = set.spec.template.spec
    const mounts = Object.fromEntries(
      spec.containers[0].volumeMounts.map((m: any) => [m.mountPath, m.name]),
    )
    const dataDir = posix.dirname(image.env.DATABASE!)
    expect(image.volumes).toContain(dataDir)
    expect(set.spec.volumeClaimTemplates.map((c: any) => c.metadata.name)).toEqual([
      mounts[dataDir],
    ])
    expect(set.spec.volumeClaimTemplates[0].spec.accessModes).toEqual(['ReadWriteOnce'])
    expect(spec.volumes).toEqual([{ name: mounts['/tmp'], emptyDir: expect.any(Object) }])
    expect(Object.keys(mounts).sort()).toEqual([dataDir, '/tmp'].sort())
  })

  it('takes the admin token from the Secret its instructions create, and valid settings', () => {
    const text = readFileSync(ROOT + DIR + 'statefulset.yaml', 'utf8')
    const env = only('StatefulSet').spec.template.spec.containers[0].env as any[]
    const token = env.find((e) => e.name === 'SANDBOX_ADMIN_TOKEN')
    const { name, key } = token.valueFrom.secretKeyRef
    expect(text).toContain(`kubectl create secret generic ${name} --from-literal=${key}=`)
    expect(token.valueFrom.secretKeyRef.optional).not.toBe(true)
    const plain = Object.fromEntries(
      env.filter((e) => e.value !== undefined).map((e) => [e.name, e.value]),
    )
    const readme = readFileSync(ROOT + 'README.md', 'utf8')
    for (const variable of env.map((e) => e.name)) expect(readme).toContain(`| \`${variable}\` |`)
    expect(() =>
      loadConfig({ ...image.env, ...plain, SANDBOX_ADMIN_TOKEN: 'a-token-of-16-chars' }),
    ).not.toThrow()
  })

  it('sends webhooks only to the hosts its allow-list names, and may reach only DNS and those', () => {
    const env = only('StatefulSet').spec.template.spec.containers[0].env as any[]
    const listed = env.find((e) => e.name === 'WEBHOOK_ALLOWED_HOSTS')?.value
    // Unset or empty, any host is allowed: every company could send requests anywhere.
    const hosts = loadConfig({ ...image.env, WEBHOOK_ALLOWED_HOSTS: listed }).webhookAllowedHosts
    expect(hosts?.length, 'WEBHOOK_ALLOWED_HOSTS').toBeGreaterThan(0)
    const policy = only('NetworkPolicy')
    expect(only('StatefulSet').spec.template.metadata.labels).toMatchObject(
      policy.spec.podSelector.matchLabels,
    )
    expect(policy.spec.policyTypes).toEqual(expect.arrayContaining(['Ingress', 'Egress']))
    const [dns, ...receivers] = policy.spec.egress as any[]
    expect(dns).toEqual({
      to: [
        {
          namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } },
          podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } },
        },
      ],
      ports: [
        { port: 53, protocol: 'UDP' },
        { port: 53, protocol: 'TCP' },
      ],
    })
    // One rule per listed host, each to the pods of the Service of that name, and nothing else:
    // a rule without `to` (or an ipBlock) would let it reach anything.
    expect(receivers.map((r) => r.to)).toEqual(
      hosts!.map((h) => [
        { podSelector: { matchLabels: { 'app.kubernetes.io/name': h.split(/[.:]/)[0] } } },
      ]),
    )
  })

  it('is reached on its port from its own namespace only', () => {
    const policy = only('NetworkPolicy')
    expect(policy.spec.ingress).toEqual([
      { from: [{ podSelector: {} }], ports: [{ port: 'http' }] },
    ])
    expect(
      only('StatefulSet').spec.template.spec.containers[0].ports.map((p: any) => p.name),
    ).toContain('http')
  })

  it('requests the memory measured idle and allows the peak the benchmark measured', () => {
    const { requests, limits } = only('StatefulSet').spec.template.spec.containers[0].resources
    const performance = readFileSync(ROOT + 'docs/PERFORMANCE.md', 'utf8')
    const peak = Number(/\| peak RSS under load \| (\d+) MB/.exec(performance)![1])
    expect(megabytes(requests.memory)).toBeGreaterThanOrEqual(IDLE_RSS_MB)
    expect(megabytes(requests.memory)).toBeLessThan(peak * 1.5)
    // Room above the peak: a pod killed at its limit loses the sandbox's in-flight tests.
    expect(megabytes(limits.memory)).toBeGreaterThanOrEqual(peak * 1.5)
    expect(requests.cpu).toBeDefined()
  })
})
