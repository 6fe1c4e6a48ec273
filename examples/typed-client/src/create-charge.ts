// Creates a charge with a client typed from the sandbox's own /openapi.json: `npm run generate`
// writes src/pix-api.d.ts, and a wrong path, field or type is then a compile error.
import createClient from 'openapi-fetch'
import type { paths } from './pix-api.js'

// The document's paths are relative to its server, the contract's base_url.
const baseUrl = `${process.env.PIX_SANDBOX_URL ?? 'http://localhost:8080'}/api/v1`
const credentials = Buffer.from('sandbox-client:sandbox-secret').toString('base64')
const pix = createClient<paths>({ baseUrl, headers: { authorization: `Basic ${credentials}` } })

const { data, error, response } = await pix.POST('/hub/transactions/in', {
  body: { amount: 1000, description: 'Pedido 1234' },
})
if (error) {
  // The contract's errors are {detail} bodies: the types know it.
  console.error(`${response.status}: ${JSON.stringify(error.detail)}`)
  process.exit(1)
}
console.log(
  JSON.stringify({
    transaction_id: data.transaction_id,
    status: data.status,
    qr_code: data.qr_code,
  }),
)
