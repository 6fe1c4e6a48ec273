// The client under test: what an integrator's own code does against the contract's base_url
// (examples/testcontainers tests it too, against the Docker image).
export interface Charge {
  status: string
  transaction_id: string
  qr_code: string
  qr_code_name: string
  expiration_date: string
}

export interface Transfer {
  status: string
  transaction_id: string
  message: string
}

export class PixError extends Error {
  constructor(
    readonly status: number,
    readonly detail: unknown,
  ) {
    super(`${status}: ${JSON.stringify(detail)}`)
  }
}

export function pixClient(baseUrl: string, clientId: string, clientSecret: string) {
  const authorization = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`
  async function post<T>(path: string, body: unknown): Promise<T> {
    const res = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    const json = (await res.json()) as T & { detail?: unknown }
    if (!res.ok) throw new PixError(res.status, json.detail)
    return json
  }
  return {
    createCharge: (amount: number, description?: string) =>
      post<Charge>('/hub/transactions/in', { amount, description }),
    sendTransfer: (
      amount: number,
      pixKey: string,
      pixType: 'EMAIL' | 'CPF' | 'CNPJ' | 'PHONE' | 'EVP',
    ) => post<Transfer>('/hub/transactions/out', { amount, pix_key: pixKey, pix_type: pixType }),
  }
}
