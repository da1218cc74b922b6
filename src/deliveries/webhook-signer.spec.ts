import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { generateSigningSecret } from '../merchants/signing-secret';
import { signingKey, WebhookSigner } from './webhook-signer';

describe('WebhookSigner', () => {
  it('reproduces the Standard Webhooks specification vector', () => {
    const signer = new WebhookSigner('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
    const signature = signer.sign('msg_p5jXN8AQM9LWM0D4loKWxJek', new Date(1614265330 * 1000), '{"test": 2432232314}');
    expect(signature).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('signs a generated whsec_ secret so that the library verifies with the secret as is', () => {
    const secret = generateSigningSecret();
    const body = '{"event":"payment.confirmed","id":"evt_1"}';
    const now = new Date();
    const headers = {
      'webhook-id': 'dlv_1',
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': new WebhookSigner(secret).sign('dlv_1', now, body),
    };
    expect(new Webhook(secret).verify(body, headers)).toEqual({ event: 'payment.confirmed', id: 'evt_1' });
  });

  it('keys a plain secret with its UTF-8 bytes, not its base64 decoding', () => {
    const secret = 'my-plain-secret/with+chars=ç';
    const body = '{"amount":10.5}';
    const signature = new WebhookSigner(secret).sign('dlv_2', new Date(1700000000 * 1000), body);
    const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`dlv_2.1700000000.${body}`).digest('base64');
    expect(signature).toBe(`v1,${expected}`);
  });

  it('signs the bytes of non-ASCII bodies as UTF-8', () => {
    const body = '{"name":"João Ação"}';
    const signature = new WebhookSigner('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw').sign('dlv_3', new Date(1700000000 * 1000), body);
    const key = Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'base64');
    expect(signature).toBe(
      `v1,${createHmac('sha256', key)
        .update(Buffer.from(`dlv_3.1700000000.${body}`, 'utf8'))
        .digest('base64')}`,
    );
  });
});

describe('signingKey', () => {
  it('decodes whsec_ secrets and takes other secrets byte for byte', () => {
    expect(Buffer.from(signingKey('whsec_AAEC')).toString('hex')).toBe('000102');
    expect(Buffer.from(signingKey('AAEC')).toString('utf8')).toBe('AAEC');
  });
});
