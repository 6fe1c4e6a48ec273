// Whether a PIX key matches its declared type (docs/CONTRACT.md#body-rules). Returns the reason when it does not.
// Per-function entry points: the package root loads all of it (cities, banks...), ~18 MB.
import { isValidCnpj } from '@brazilian-utils/brazilian-utils/is-valid-cnpj'
import { isValidCpf } from '@brazilian-utils/brazilian-utils/is-valid-cpf'
import { isValidEmail } from '@brazilian-utils/brazilian-utils/is-valid-email'
import type { PixType } from '../domain/enums.js'

const PHONE = /^\+[1-9]\d{1,14}$/
/** The longest key of any type (an email address). */
export const MAX_PIX_KEY_LENGTH = 77

export function pixKeyProblem(type: PixType, key: string): string | null {
  switch (type) {
    case 'CPF':
      return /^\d{11}$/.test(key) && isValidCpf(key)
        ? null
        : 'must be a CPF of 11 digits with valid check digits'
    case 'CNPJ':
      return /^\d{14}$/.test(key) && isValidCnpj(key)
        ? null
        : 'must be a CNPJ of 14 digits with valid check digits'
    case 'EMAIL':
      return key.length <= 77 && isValidEmail(key)
        ? null
        : 'must be a valid email address of at most 77 characters'
    case 'PHONE':
      if (!PHONE.test(key) || (key.startsWith('+55') && !/^\+55\d{10,11}$/.test(key))) {
        return 'must be a phone number in E.164 format, e.g. +5511987654321'
      }
      return null
  }
}
