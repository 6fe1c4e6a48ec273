import autocannon from 'autocannon'
const AUTH = `Basic ${Buffer.from('sandbox-client:sandbox-secret').toString('base64')}`
const headers = { authorization: AUTH, 'content-type': 'application/json' }
const MIX = [
  { method: 'POST' as const, path: '/api/v1/hub/transactions/in', headers, body: '{"amount":1000,"description":"soak"}' },
  { method: 'POST' as const, path: '/api/v1/hub/transactions/out', headers, body: '{"amount":1,"pix_key":"maria@example.com","pix_type":"EMAIL"}' },
  { method: 'GET' as const, path: '/api/v1/user/company', headers: { authorization: AUTH } },
]
await autocannon({ url: process.env.URL!, requests: MIX, connections: 16, overallRate: 5000, duration: Number(process.env.D ?? 120) })
