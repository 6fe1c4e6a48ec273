// Turns answers into rows with a verdict, and runs a battery check against both sides.
import type { Check } from './battery.js'
import { curlFor } from './curl.js'
import type { Side } from './http.js'
import { answerOf, sameObservation } from './observe.js'
import type { Answer, Observation, Row } from './types.js'

export type RowMeta = Omit<Row, 'sandbox' | 'target' | 'verdict'>

export function makeRow(
  meta: RowMeta,
  sandbox: Answer,
  target: Answer,
  same = sameObservation,
): Row {
  const verdict =
    'unobservable' in sandbox || 'unobservable' in target
      ? 'not observable'
      : same(sandbox.observed, target.observed)
        ? 'agree'
        : 'differ'
  return { ...meta, sandbox, target, verdict }
}

export const unobservable = (reason: string): Answer => ({ unobservable: reason })

/** Rows of a check that was not sent, with the reason on the target's side. */
export function skippedRows(check: Check, reason: string): Row[] {
  return check.rows.map((spec) =>
    makeRow(
      metaOf(check, spec.id, spec.topic, spec.setting),
      unobservable('not sent'),
      unobservable(reason),
    ),
  )
}

function metaOf(check: Check, id: string, topic: string, setting: Row['setting']): RowMeta {
  return {
    id,
    group: check.group,
    topic,
    sent: curlFor(check.request),
    ...(setting && { setting }),
    ...(check.changes && { changes: check.changes }),
    ...(check.note && { note: check.note }),
  }
}

export async function runCheck(check: Check, sandbox: Side, target: Side): Promise<Row[]> {
  if (check.needs === 'credentials' && !target.hasCredentials)
    return skippedRows(check, 'needs --client-id and --client-secret')
  if (check.needs === 'client-id' && !target.hasClientId)
    return skippedRows(check, 'needs --client-id')
  const [mine, theirs] = [await sandbox.send(check.request), await target.send(check.request)]
  return check.rows.map((spec) => {
    const observe =
      (side: Side) =>
      (r: Parameters<typeof spec.observe>[0]): Observation =>
        spec.observe(r, side.base)
    const row = makeRow(
      metaOf(check, spec.id, spec.topic, spec.setting),
      answerOf(mine, observe(sandbox)),
      answerOf(theirs, observe(target)),
    )
    if (check.changes === 'guarded' && theirs.reply?.status === 200) {
      row.changes = 'yes'
      row.note = `${row.note ?? ''}; the target ACCEPTED it (200): check what it recorded`.replace(
        /^; /,
        '',
      )
    }
    return row
  })
}
