// The JSON Schema of scenario files, generated from the same zod schema that validates them.
import { z } from 'zod'
import { scenarioSchema } from './schema.js'

export function scenarioJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(scenarioSchema, { io: 'input', unrepresentable: 'any' }),
    $id: 'https://github.com/pix-sandbox/pix-sandbox/scenario.schema.json',
    title: 'pix-sandbox scenario',
    description:
      'Companies, users, credentials, Providers, balances, the PIX key directory, settings and rules.',
  }
}
