// The `docker build` and `docker run` a newcomer copies: the Dockerfile's header and the README
// give the same lines (they once gave two), and that run keeps the store in the image's volume,
// under the volume name compose.yaml uses, published on loopback only as compose.yaml is, with the
// guard against DNS rebinding on (docs/SECURITY.md#dns-rebinding).
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { parse } from 'yaml'
import {
  containerHostGuard,
  imageSettings,
  recipeRun,
  repositoryDockerfile,
} from '../dockerfile.js'
import { readmeBlocks } from '../readme/readme.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const read = (file: string) => readFileSync(ROOT + file, 'utf8')

/** Each `docker <verb> ...` command in `text` (a `&&` chain split), whitespace normalised. */
const commands = (text: string, verb: string) =>
  text
    .split('\n')
    .flatMap((line) => line.replace(/^#\s*/, '').split('&&'))
    .map((c) => c.trim().replace(/\s+/g, ' '))
    .filter((c) => c.startsWith(`docker ${verb} `))

it('the Dockerfile and the README give one docker build and one docker run, which keeps the store in the volume compose.yaml names', () => {
  const header = read('Dockerfile')
    .split('\n')
    .filter((l) => l.startsWith('#'))
    .join('\n')
  const readme = readmeBlocks()
    .filter((b) => b.lang === 'sh')
    .map((b) => b.code)
    .join('\n')
  for (const verb of ['build', 'run']) {
    const all = [...commands(header, verb), ...commands(readme, verb)]
    expect(commands(header, verb), `the Dockerfile's docker ${verb}`).toHaveLength(1)
    expect(new Set(all), `docker ${verb}`).toEqual(new Set([all[0]]))
  }
  const run = commands(header, 'run')[0]!.split(' ')
  const volume = run[run.indexOf('-v') + 1]!
  const compose = parse(read('compose.yaml')) as any
  expect(imageSettings(repositoryDockerfile()).volumes).toContain(volume.split(':')[1])
  expect(compose.services['pix-sandbox'].volumes).toEqual([volume])
  expect(compose.services['pix-sandbox'].ports).toEqual([run[run.indexOf('-p') + 1]])
})

it('the docker run, published on loopback, sets ALLOWED_HOSTS: the container refuses a rebound name, and answers its own health check', () => {
  // The image listens on 0.0.0.0, where the guard is off unless ALLOWED_HOSTS is set; a port
  // published on 127.0.0.1 is as reachable by a rebound name as a local server.
  const run = recipeRun()
  const image = imageSettings(repositoryDockerfile())
  expect(run.published.every((p) => p.startsWith('127.0.0.1:'))).toBe(true)
  expect(image.env.HOST).toBe('0.0.0.0')
  const allows = containerHostGuard({ ...image.env, ...run.env })
  expect(allows, 'the Host guard is on in the container').toBeDefined()
  const port = image.env.PORT!
  expect(allows!(`rebind.attacker.example:${port}`)).toBe(false)
  expect(allows!(`localhost:${port}`)).toBe(true)
  // The HEALTHCHECK asks http://127.0.0.1:<PORT>/, so its Host is 127.0.0.1:<PORT>.
  expect(image.healthcheck!.argv.join(' ')).toContain("'http://127.0.0.1:'+(process.env.PORT")
  expect(allows!(`127.0.0.1:${port}`)).toBe(true)
})
