// A JSON text already written (a 422 list written as Python writes it), handed to `c.json` so
// that the journal keeps it as it keeps every answer (journal.ts). Where no journal hooks
// `c.json`, JSON.stringify reads it back through toJSON.
export class JsonText {
  constructor(readonly text: string) {}

  toJSON(): unknown {
    return JSON.parse(this.text)
  }
}
