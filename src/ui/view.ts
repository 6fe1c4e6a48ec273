// What every page is rendered from: who is signed in, the control plane to ask, the scenario's
// time zone, the virtual clock, the public address, and the message of the last action.
import type { Scope } from '../http/env.js'
import type { Control, ControlReply } from './control.js'
import type { Flash } from './session.js'

export interface View {
  scope: Scope
  control: Control
  tz: string
  /** Virtual time now (ISO) and whether the clock is frozen. */
  now: string
  nowUs: number
  frozen: boolean
  publicUrl: string
  flash?: Flash
}

/** Asks the control plane a GET; throws the reply when refused so the page shows its detail. */
export async function read(view: View, path: string): Promise<any> {
  const reply = await view.control(view.scope, 'GET', path)
  if (!reply.ok) throw new Refused(reply)
  return reply.body
}

export class Refused extends Error {
  constructor(readonly reply: ControlReply) {
    super(`HTTP ${reply.status}`)
  }
}
