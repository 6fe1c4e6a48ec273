import { createRequestJournal } from '../src/http/request-journal.js'
const j = createRequestJournal(['sandbox-secret'])
const raw = ['Host', '127.0.0.1:18088', 'authorization', 'Basic c2FuZGJveC1jbGllbnQ6c2FuZGJveC1zZWNyZXQ=', 'User-Agent', 'wrk']
const body = '{"api_active":true,"created_at":"2026-11-25T23:02:29.141020Z","updated_at":"2026-11-25T23:02:29.141020Z"}'
const mk = (i: number) => ({ arrival: { id: i, seen: i }, at: 1795647531033041 + i, method: 'GET', path: '/api/v1/user/company', query: '', status: 200, durationMs: 0.1, companyId: 'loja-exemplo', rawHeaders: raw, requestBody: null, responseBody: body, dropped: false })
const N = 1_000_000
for (let k = 0; k < 3; k++) {
  const t0 = performance.now()
  for (let i = 0; i < N; i++) j.record(mk(i))
  console.log('record', (((performance.now() - t0) * 1000) / N).toFixed(3), 'µs')
}
