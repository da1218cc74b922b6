import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { generateSigningSecret, signingSecretProblem } from './signing-secret';

describe('generateSigningSecret', () => {
  it('makes whsec_ + padded base64 of 32 random bytes', () => {
    const secret = generateSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
  });

  it('never repeats', () => {
    const secrets = new Set(Array.from({ length: 200 }, generateSigningSecret));
    expect(secrets.size).toBe(200);
  });

  it('is accepted as is by the Standard Webhooks library a merchant verifies with', () => {
    const secret = generateSigningSecret();
    const body = '{"event":"payment.confirmed"}';
    const timestamp = new Date();
    const signature = new Webhook(secret).sign('msg_1', timestamp, body);
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)), 'webhook-signature': signature };
    expect(new Webhook(secret).verify(body, headers)).toEqual({ event: 'payment.confirmed' });
    expect(signingSecretProblem(secret)).toBeNull();
  });
});

describe('signingSecretProblem', () => {
  it.each([
    ['16 characters', '0123456789abcdef'],
    ['punctuation', 'a-long/secret_with.punctuation!'],
    ['256 characters', 'x'.repeat(256)],
    ['whsec_ of 24 bytes', `whsec_${randomBytes(24).toString('base64')}`],
    ['whsec_ of 64 bytes', `whsec_${randomBytes(64).toString('base64')}`],
    ['the Standard Webhooks test vector secret', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
  ])('accepts %s', (_label, secret) => {
    expect(signingSecretProblem(secret)).toBeNull();
  });

  it.each([
    ['short', /16 to 256 characters/],
    ['257 characters'.padEnd(257, 'x'), /16 to 256 characters/],
    ['has a space in it ok', /printable ASCII without spaces/],
    ['ünïcödé-secret-value', /printable ASCII without spaces/],
    ['tab\tseparated-secret', /printable ASCII without spaces/],
    ['whsec_', /padded base64/],
    ['whsec_not*base64*at*all*', /padded base64/],
    ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaS', /padded base64/],
    ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'.replace(/\+/g, '-') + '-_-_', /padded base64/],
    [`whsec_${randomBytes(16).toString('base64')}`, /24 to 64 bytes \(it encodes 16\)/],
    [`whsec_${randomBytes(65).toString('base64')}`, /24 to 64 bytes \(it encodes 65\)/],
  ])('refuses %j', (secret, message) => {
    expect(signingSecretProblem(secret)).toMatch(message);
  });
});
