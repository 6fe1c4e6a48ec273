// The control helpers' three generated files, from the table (src/client/helpers.ts) read against
// the control plane's document: listed in scripts/generate.ts.
import { HELPERS } from '../../src/client/helpers.js'
import { controlDocument } from '../control-types.js'
import { type Document, pythonModel } from '../python-types.js'
import { pythonDoc } from './docs.js'
import { helperModel, type Model } from './model.js'
import { nodeControl } from './node.js'
import { pythonControl } from './python.js'

async function models(): Promise<Model[]> {
  const doc = (await controlDocument()) as Document
  return helperModel(HELPERS, doc, pythonModel(doc))
}

export const nodeHelpers = async () => nodeControl(await models())
export const pythonHelpers = async () => pythonControl(await models())
export const helperDocs = async () => pythonDoc(await models())
