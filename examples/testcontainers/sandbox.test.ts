// The sandbox's Docker image, started by Testcontainers and waited on until /_sandbox/health
// answers: PIX_SANDBOX_IMAGE's (the released ghcr.io/pix-sandbox/pix-sandbox:<version>, or one you
// built), else built from the Dockerfile of the clone this example sits in; a tenant per test, so tests never reset each other.
// Without a container engine the suite is skipped, and says so. PIX_SANDBOX_URL runs the same tests
// against a sandbox you already started (started with SANDBOX_ADMIN_TOKEN=${ADMIN_TOKEN}).
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import {
  GenericContainer,
  getContainerRuntimeClient,
  Wait,
  type StartedTestContainer,
} from 'testcontainers'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { PixError, pixClient } from '../vitest/pix-client.js' // the same app client as examples/vitest

const REPOSITORY = fileURLToPath(new URL('../..', import.meta.url))
const ADMIN_TOKEN = process.env.SANDBOX_ADMIN_TOKEN ?? 'testcontainers-admin-token'
const given = process.env.PIX_SANDBOX_URL
const named = process.env.PIX_SANDBOX_IMAGE
/** Whether this example still sits in a clone of pix-sandbox, whose Dockerfile it can build. */
const inClone = (() => {
  try {
    return JSON.parse(readFileSync(`${REPOSITORY}/package.json`, 'utf8')).name === 'pix-sandbox'
  } catch {
    return false
  }
})()

const engine =
  given !== undefined ||
  (await getContainerRuntimeClient().then(
    () => true,
    (e: Error) => {
      console.info(`examples/testcontainers: skipped, no container engine answers (${e.message})`)
      return false
    },
  ))

describe.skipIf(!engine)('the sandbox image, started by Testcontainers', () => {
  let container: StartedTestContainer | undefined
  let sandbox: string

  async function admin<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${sandbox}/_sandbox${path}`, {
      method,
      headers: {
        authorization: `Bearer ${ADMIN_TOKEN}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
    return (await res.json()) as T
  }

  beforeAll(async () => {
    if (given) {
      sandbox = given.replace(/\/+$/, '')
      return
    }
    if (!named && !inClone)
      throw new Error(
        `no image to start: set PIX_SANDBOX_IMAGE (ghcr.io/pix-sandbox/pix-sandbox:<version>, or one built from a clone); ${REPOSITORY} is no clone of pix-sandbox to build it from`,
      )
    const image = named
      ? new GenericContainer(named)
      : await GenericContainer.fromDockerfile(REPOSITORY).build('pix-sandbox:testcontainers', {
          deleteOnExit: false,
        })
    container = await image
      .withExposedPorts(8080)
      .withEnvironment({ SANDBOX_ADMIN_TOKEN: ADMIN_TOKEN })
      .withWaitStrategy(Wait.forHttp('/_sandbox/health', 8080).forStatusCode(200))
      .start()
    sandbox = `http://${container.getHost()}:${container.getMappedPort(8080)}`
  }, 15 * 60_000)

  afterAll(async () => {
    await container?.stop()
  })

  let tenant: { user_id: string; client_id: string; client_secret: string }
  let pix: ReturnType<typeof pixClient>
  beforeEach(async () => {
    tenant = await admin('POST', '/companies', {
      name: `Loja ${randomUUID().slice(0, 8)}`,
      balance: 50_000,
    })
    pix = pixClient(`${sandbox}/api/v1`, tenant.client_id, tenant.client_secret)
  })
  const balance = async () =>
    (await admin<{ balance: number }>('GET', `/users/${tenant.user_id}/balance`)).balance

  it('creates a charge that QA pays, crediting the balance', async () => {
    const charge = await pix.createCharge(1000, 'Pedido 1234')
    expect(charge.status).toBe('pending')
    expect(charge.qr_code).toMatch(/^000201/)
    await admin('POST', `/charges/${charge.transaction_id}/pay`)
    expect(await admin('GET', `/charges/${charge.transaction_id}`)).toMatchObject({
      status: 'paid',
      amount: 1000,
    })
    expect(await balance()).toBe(51_000)
  })

  it('sends a transfer out of the balance', async () => {
    const transfer = await pix.sendTransfer(2500, 'maria@example.com', 'EMAIL')
    expect(transfer.status).toBe('success')
    expect(await balance()).toBe(47_500)
  })

  it('refuses a transfer above the balance, as the real API does', async () => {
    const refused = await pix
      .sendTransfer(50_001, 'maria@example.com', 'EMAIL')
      .catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(PixError)
    expect(refused).toMatchObject({ status: 422, detail: 'Insufficient balance' })
    expect(await balance()).toBe(50_000)
  })
})
