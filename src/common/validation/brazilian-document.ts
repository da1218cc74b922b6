import { registerDecorator, ValidationOptions } from 'class-validator';

/** Strips the punctuation people write documents with: `123.456.789-09`, `12.345.678/0001-95`. */
export function normaliseDocument(value: string): string {
  return value.replace(/[.\-/\s]/g, '');
}

function checkDigit(digits: string, weights: number[]): number {
  const sum = weights.reduce((acc, weight, i) => acc + Number(digits[i]) * weight, 0);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** A CPF (11 digits) with both check digits right; repeated-digit numbers are refused (they pass the arithmetic). */
export function isValidCpf(digits: string): boolean {
  if (!/^\d{11}$/.test(digits) || /^(\d)\1{10}$/.test(digits)) return false;
  return checkDigit(digits, [10, 9, 8, 7, 6, 5, 4, 3, 2]) === Number(digits[9]) && checkDigit(digits, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]) === Number(digits[10]);
}

/** A CNPJ (14 digits) with both check digits right. */
export function isValidCnpj(digits: string): boolean {
  if (!/^\d{14}$/.test(digits) || /^(\d)\1{13}$/.test(digits)) return false;
  return checkDigit(digits, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]) === Number(digits[12]) && checkDigit(digits, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]) === Number(digits[13]);
}

/** Only the punctuation of formatted documents is allowed around the digits. */
const DOCUMENT_SHAPE = /^[\d.\-/\s]+$/;

export function isValidCpfOrCnpj(value: unknown): boolean {
  if (typeof value !== 'string' || !DOCUMENT_SHAPE.test(value)) return false;
  const digits = normaliseDocument(value);
  return digits.length === 11 ? isValidCpf(digits) : digits.length === 14 ? isValidCnpj(digits) : false;
}

export function IsCpfOrCnpj(options?: ValidationOptions): PropertyDecorator {
  return (object, propertyName) =>
    registerDecorator({
      name: 'isCpfOrCnpj',
      target: object.constructor,
      propertyName: propertyName as string,
      options: { message: '$property must be a valid CPF (11 digits) or CNPJ (14 digits) with correct check digits', ...options },
      validator: { validate: isValidCpfOrCnpj },
    });
}
