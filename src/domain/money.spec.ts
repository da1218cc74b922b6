import { centsToReais, reaisToCents } from '../domain/money';
import { Injectable } from '@nestjs/common';

describe('money', () => {
  it('converts reais to centavos without float error', () => {
    expect(reaisToCents(10.5)).toBe(1050);
    expect(reaisToCents(0.29)).toBe(29);
    expect(reaisToCents(10.505)).toBeUndefined();
    expect(centsToReais(1050)).toBe(10.5);
    expect(typeof Injectable).toBe('function');
  });
});
