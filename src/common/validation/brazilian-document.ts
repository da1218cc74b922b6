import { ApiProperty } from '@nestjs/swagger';
import { registerDecorator, ValidationOptions } from 'class-validator';

/**
 * Strips the punctuation people write documents with (`123.456.789-09`, `12.345.678/0001-95`,
 * `12.ABC.345/01DE-35`) and upper-cases the letters an alphanumeric CNPJ may have: the form the
 * gateway stores and sends.
 */
export function normaliseDocument(value: string): string {
  return value.replace(/[.\-/\s]/g, '').toUpperCase();
}

/**
 * Module 11 over each character's value, its ASCII code minus 48: a digit keeps its value and a
 * letter of an alphanumeric CNPJ counts A=17 … Z=42, so numeric CNPJs keep their check digits
 * (https://welyab.dev/2024/06/29/como-validar-o-novo-formato-do-cnpj-do-brasil).
 */
function checkDigit(digits: string, weights: number[]): number {
  const sum = weights.reduce((acc, weight, i) => acc + (digits.charCodeAt(i) - 48) * weight, 0);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** A CPF (11 digits) with both check digits right; repeated-digit numbers are refused (they pass the arithmetic). */
export function isValidCpf(digits: string): boolean {
  if (!/^\d{11}$/.test(digits) || /^(\d)\1{10}$/.test(digits)) return false;
  return checkDigit(digits, [10, 9, 8, 7, 6, 5, 4, 3, 2]) === Number(digits[9]) && checkDigit(digits, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]) === Number(digits[10]);
}

/**
 * A CNPJ with both check digits right: 12 digits or upper-case letters (letters since July 2026,
 * IN RFB 2.229/2024), then two digits. Repeated-digit numbers are refused (they pass the arithmetic).
 */
export function isValidCnpj(digits: string): boolean {
  if (!/^[0-9A-Z]{12}\d{2}$/.test(digits) || /^(\d)\1{13}$/.test(digits)) return false;
  return checkDigit(digits, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]) === Number(digits[12]) && checkDigit(digits, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]) === Number(digits[13]);
}

/** Only the punctuation of formatted documents is allowed around the digits and a CNPJ's letters. */
const DOCUMENT_SHAPE = /^[0-9A-Za-z.\-/\s]+$/;

export function isValidCpfOrCnpj(value: unknown): boolean {
  if (typeof value !== 'string' || !DOCUMENT_SHAPE.test(value)) return false;
  const digits = normaliseDocument(value);
  return digits.length === 11 ? isValidCpf(digits) : digits.length === 14 ? isValidCnpj(digits) : false;
}

export function IsCpfOrCnpj(options?: ValidationOptions): PropertyDecorator {
  // The document says the shape; the count and check digits are beyond a pattern (docs/api.md, "Rules beyond the schema").
  const documented = ApiProperty({ type: 'string', pattern: '^[0-9A-Za-z./ -]+$', minLength: 11 });
  return (object, propertyName) => {
    documented(object, propertyName);
    registerDecorator({
      name: 'isCpfOrCnpj',
      target: object.constructor,
      propertyName: propertyName as string,
      options: { message: '$property must be a valid CPF (11 digits) or CNPJ (14 characters: 12 digits or letters, then 2 digits) with correct check digits', ...options },
      validator: { validate: isValidCpfOrCnpj },
    });
  };
}
