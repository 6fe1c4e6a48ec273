import { openDashboard } from './dashboard.js'
const d = await openDashboard(process.argv[2]!, 'bench-admin-token-0123456789')
await new Promise((r) => setTimeout(r, Number(process.argv[3]) * 1000))
await d.close()
console.log(d.counts())
