// The ordered list of schema migrations. Append only: a released migration is never edited.
import { sql as initial } from './001-initial.js'
import { sql as controlPlane } from './002-control-plane.js'
import { sql as webhooks } from './003-webhooks.js'
import { sql as tenantEndToEnd } from './004-tenant-end-to-end.js'
import { sql as webhookFairness } from './005-webhook-fairness.js'
import { sql as attemptHeaders } from './006-attempt-headers.js'
import { sql as readiness } from './007-readiness.js'
import { sql as queueIndexes } from './008-queue-indexes.js'
import { sql as lostAnswers } from './009-lost-answers.js'
import { sql as reusedCodePerCompany } from './010-reused-code-per-company.js'
import { sql as webhookUserinfo } from './011-webhook-userinfo.js'
import { sql as ownerIndexesOnRowid } from './012-owner-indexes-on-rowid.js'
import { sql as keyedBySeq } from './013-keyed-by-seq.js'
import { sql as idKeys } from './014-id-keys.js'

export interface Migration {
  version: number
  name: string
  sql: string
}

export const migrations: Migration[] = [
  { version: 1, name: 'initial', sql: initial },
  { version: 2, name: 'control-plane', sql: controlPlane },
  { version: 3, name: 'webhooks', sql: webhooks },
  { version: 4, name: 'tenant-end-to-end', sql: tenantEndToEnd },
  { version: 5, name: 'webhook-fairness', sql: webhookFairness },
  { version: 6, name: 'attempt-headers', sql: attemptHeaders },
  { version: 7, name: 'readiness', sql: readiness },
  { version: 8, name: 'queue-indexes', sql: queueIndexes },
  { version: 9, name: 'lost-answers', sql: lostAnswers },
  { version: 10, name: 'reused-code-per-company', sql: reusedCodePerCompany },
  { version: 11, name: 'webhook-userinfo', sql: webhookUserinfo },
  { version: 12, name: 'owner-indexes-on-rowid', sql: ownerIndexesOnRowid },
  { version: 13, name: 'keyed-by-seq', sql: keyedBySeq },
  { version: 14, name: 'id-keys', sql: idKeys },
]
