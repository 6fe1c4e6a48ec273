// The ordered list of schema migrations. Append only: a released migration is never edited.
import { sql as initial } from './001-initial.js'

export interface Migration {
  version: number
  name: string
  sql: string
}

export const migrations: Migration[] = [{ version: 1, name: 'initial', sql: initial }]
