import {
  checkProviderHostUrl,
  checkWebhookUrl,
  isMetadataAddress,
  HostResolver,
  isPublicAddress,
  MAX_WEBHOOK_URL_LENGTH,
  nonPublicRange,
  resolveDeliveryTarget,
  WebhookUrlRejectedError,
} from './webhook-url-policy';

/** A resolver with a fixed zone, so no test touches the network. */
function zone(records: Record<string, string[]>): HostResolver {
  return async (hostname) => {
    const addresses = records[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

const strict = (records: Record<string, string[]> = {}) => ({ allowPrivate: false, resolve: zone(records) });
const relaxed = (records: Record<string, string[]> = {}) => ({ allowPrivate: true, resolve: zone(records) });

async function rejection(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookUrlRejectedError);
  return (error as Error).message;
}

describe('nonPublicRange', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.10', 'private'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.254', 'carrierGradeNat'],
    ['169.254.169.254', 'linkLocal'],
    ['169.254.0.1', 'linkLocal'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['203.0.113.9', 'reserved'],
    ['240.0.0.1', 'reserved'],
  ])('refuses IPv4 %s (%s)', (ip, range) => {
    expect(nonPublicRange(ip)).toBe(range);
  });

  it.each([
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fe80::1%eth0', 'linkLocal'],
    ['febf::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456:789a::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['fec0::1', 'deprecatedSiteLocal'],
    ['100::1', 'discard'],
    ['2001:db8::1', 'reserved'],
    ['2001::1', 'teredo'],
    ['64:ff9b:1::1', 'rfc6052'],
    ['::7f00:1', 'ipv4Compatible'],
    ['::808:808', 'ipv4Compatible'],
    ['4000::1', 'unassigned'],
  ])('refuses IPv6 %s (%s)', (ip, range) => {
    expect(nonPublicRange(ip)).toBe(range);
  });

  it.each([
    ['::ffff:127.0.0.1', 'ipv4Mapped:loopback'],
    ['::ffff:7f00:1', 'ipv4Mapped:loopback'],
    ['::ffff:10.1.2.3', 'ipv4Mapped:private'],
    ['::ffff:169.254.169.254', 'ipv4Mapped:linkLocal'],
    ['::ffff:100.64.0.1', 'ipv4Mapped:carrierGradeNat'],
    ['::ffff:0:192.168.0.1', 'rfc6145:private'],
    ['64:ff9b::127.0.0.1', 'rfc6052:loopback'],
    ['64:ff9b::a9fe:a9fe', 'rfc6052:linkLocal'],
    ['2002:7f00:1::', '6to4:loopback'],
    ['2002:c0a8:101::1', '6to4:private'],
  ])('judges IPv6 %s by the IPv4 address it carries (%s)', (ip, range) => {
    expect(nonPublicRange(ip)).toBe(range);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '100.63.255.255',
    '100.128.0.0',
    '172.32.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('accepts public %s', (ip) => {
    expect(nonPublicRange(ip)).toBeNull();
    expect(isPublicAddress(ip)).toBe(true);
  });

  it('calls a non-address invalid', () => {
    expect(nonPublicRange('example.com')).toBe('invalid');
    expect(isPublicAddress('')).toBe(false);
  });
});

describe('checkWebhookUrl (save time)', () => {
  describe('with private URLs refused (production)', () => {
    it('accepts https to a public IP literal and returns the canonical URL', async () => {
      await expect(checkWebhookUrl('HTTPS://93.184.216.34:8443/hooks?x=1', strict())).resolves.toBe('https://93.184.216.34:8443/hooks?x=1');
      await expect(checkWebhookUrl('https://[2606:4700:4700::1111]/h', strict())).resolves.toBe('https://[2606:4700:4700::1111]/h');
    });

    it('accepts a host name whose every address is public', async () => {
      const resolve = zone({ 'shop.example': ['93.184.216.34', '2606:2800:220:1::248'] });
      await expect(checkWebhookUrl('https://shop.example/pix', { allowPrivate: false, resolve })).resolves.toBe('https://shop.example/pix');
    });

    it('refuses http', async () => {
      expect(await rejection(checkWebhookUrl('http://93.184.216.34/h', strict()))).toBe('must use https');
    });

    it.each([
      'https://127.0.0.1/h',
      'https://10.0.0.5/h',
      'https://172.20.1.1/h',
      'https://192.168.0.10/h',
      'https://100.64.1.1/h',
      'https://169.254.169.254/latest/meta-data/',
      'https://0.0.0.0/h',
      'https://224.0.0.1/h',
      'https://[::1]/h',
      'https://[fd00::1]/h',
      'https://[fe80::1]/h',
      'https://[::ffff:127.0.0.1]/h',
      'https://[::ffff:169.254.169.254]/h',
      'https://[64:ff9b::10.0.0.1]/h',
    ])('refuses the IP literal in %s', async (url) => {
      expect(await rejection(checkWebhookUrl(url, strict()))).toMatch(/^must point to a public address \(.+ is \w+/);
    });

    it.each(['https://2130706433/h', 'https://0x7f.1/h', 'https://017700000001/h', 'https://127.1/h', 'https://0xa9.0xfe.0xa9.0xfe/h'])(
      'sees through the numeric host spelling %s',
      async (url) => {
        expect(await rejection(checkWebhookUrl(url, strict()))).toMatch(/is (loopback|linkLocal)\)$/);
      },
    );

    it('refuses a host name that resolves to a private address, naming it', async () => {
      const message = await rejection(checkWebhookUrl('https://intranet.example/h', strict({ 'intranet.example': ['10.1.2.3'] })));
      expect(message).toBe('must point to a public address ("intranet.example" resolves to 10.1.2.3, which is private)');
    });

    it('refuses a host name when any one of its addresses is not public', async () => {
      const resolve = zone({ 'mixed.example': ['93.184.216.34', '2606:2800:220:1::248', '::ffff:127.0.0.1'] });
      expect(await rejection(checkWebhookUrl('https://mixed.example/h', { allowPrivate: false, resolve }))).toMatch(/::ffff:127\.0\.0\.1, which is ipv4Mapped:loopback/);
    });

    it('refuses localhost and the metadata host name through their resolved addresses', async () => {
      const resolve = zone({ localhost: ['127.0.0.1', '::1'], 'metadata.google.internal': ['169.254.169.254'] });
      expect(await rejection(checkWebhookUrl('https://localhost/h', { allowPrivate: false, resolve }))).toMatch(/loopback/);
      expect(await rejection(checkWebhookUrl('https://metadata.google.internal/h', { allowPrivate: false, resolve }))).toMatch(/linkLocal/);
    });

    it('refuses a host that does not resolve or resolves to nothing', async () => {
      expect(await rejection(checkWebhookUrl('https://nowhere.example/h', strict()))).toBe('must name a host that resolves ("nowhere.example" did not)');
      expect(await rejection(checkWebhookUrl('https://empty.example/h', strict({ 'empty.example': [] })))).toBe('must name a host that resolves ("empty.example" did not)');
    });
  });

  describe('with private URLs allowed (development)', () => {
    it.each(['http://127.0.0.1:4000/hook', 'http://localhost:3000/h', 'https://[::1]/h', 'http://10.0.0.5/h', 'http://not-resolvable.invalid/h'])(
      'accepts %s without resolving',
      async (url) => {
        const resolve = jest.fn<ReturnType<HostResolver>, Parameters<HostResolver>>();
        await expect(checkWebhookUrl(url, { allowPrivate: true, resolve })).resolves.toBe(new URL(url).href);
        expect(resolve).not.toHaveBeenCalled();
      },
    );
  });

  describe('always', () => {
    it.each([
      ['ftp://example.com/h', 'must use https (or http in development)'],
      ['file:///etc/passwd', 'must use https (or http in development)'],
      ['javascript:alert(1)', 'must use https (or http in development)'],
      ['gopher://127.0.0.1:6379/_INFO', 'must use https (or http in development)'],
      ['not a url', 'must not contain spaces or control characters'],
      ['/relative/path', 'must be an absolute http(s) URL'],
      ['', 'must be an absolute http(s) URL'],
      ['https://user:pass@example.com/h', 'must not contain a user name or password'],
      ['https://user@example.com/h', 'must not contain a user name or password'],
      ['https://example.com/a\nb', 'must not contain spaces or control characters'],
    ])('refuses %j', async (url, message) => {
      expect(await rejection(checkWebhookUrl(url, relaxed()))).toBe(message);
      expect(await rejection(checkWebhookUrl(url, strict()))).toBe(message);
    });

    it('refuses URLs over the length limit, and accepts one just under it', async () => {
      const base = 'https://93.184.216.34/';
      expect(await rejection(checkWebhookUrl(base + 'a'.repeat(MAX_WEBHOOK_URL_LENGTH), relaxed()))).toBe(`must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
      await expect(checkWebhookUrl(base + 'a'.repeat(MAX_WEBHOOK_URL_LENGTH - base.length), strict())).resolves.toHaveLength(MAX_WEBHOOK_URL_LENGTH);
    });
  });
});

describe('resolveDeliveryTarget (delivery time)', () => {
  it('pins the connection to the checked address', async () => {
    const target = await resolveDeliveryTarget('https://shop.example/pix', strict({ 'shop.example': ['93.184.216.34'] }));
    expect(target).toMatchObject({ address: '93.184.216.34', family: 4 });
    expect(target.url.hostname).toBe('shop.example');
  });

  it('refuses a host that was public at save time and now resolves to loopback (DNS rebinding)', async () => {
    let answer = '93.184.216.34';
    const resolve: HostResolver = async () => [{ address: answer, family: 4 }];
    await expect(checkWebhookUrl('https://rebind.example/h', { allowPrivate: false, resolve })).resolves.toBe('https://rebind.example/h');
    answer = '127.0.0.1';
    const error = await resolveDeliveryTarget('https://rebind.example/h', { allowPrivate: false, resolve }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookUrlRejectedError);
    expect(error).toMatchObject({ code: 'EWEBHOOKURLBLOCKED' });
  });

  it('lets a DNS failure through as the resolver error (a retry may succeed), not as a policy refusal', async () => {
    const error = await resolveDeliveryTarget('https://gone.example/h', strict()).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(WebhookUrlRejectedError);
    expect(error).toMatchObject({ code: 'ENOTFOUND' });
  });

  it('checks IP literals too (Node does not call lookup for them)', async () => {
    expect(await rejection(resolveDeliveryTarget('https://169.254.169.254/', strict()))).toMatch(/linkLocal/);
  });

  it('with private URLs allowed, pins whatever the host resolves to', async () => {
    const target = await resolveDeliveryTarget('http://localhost:4000/h', relaxed({ localhost: ['::1', '127.0.0.1'] }));
    expect(target).toMatchObject({ address: '::1', family: 6 });
  });
});

describe('checkProviderHostUrl (provider account hosts)', () => {
  const dns = zone({ 'psp.example': ['200.160.1.10'], 'internal.example': ['10.0.0.5'], 'sneaky.example': ['200.160.1.10', '169.254.169.254'] });
  const strict = { allowPrivate: false, resolve: dns };
  const relaxedHosts = { allowPrivate: true, resolve: dns };

  it('accepts https on public addresses, and private ones only where private URLs are allowed', async () => {
    await expect(checkProviderHostUrl('https://psp.example/v2', strict)).resolves.toBe('https://psp.example/v2');
    await expect(checkProviderHostUrl('https://internal.example/v2', strict)).rejects.toThrow(/public address/);
    await expect(checkProviderHostUrl('https://127.0.0.1:8443/v2', relaxedHosts)).resolves.toBe('https://127.0.0.1:8443/v2');
  });

  it('refuses http, user information and cloud metadata hosts whatever the setting', async () => {
    for (const options of [strict, relaxedHosts]) {
      await expect(checkProviderHostUrl('http://psp.example/v2', options)).rejects.toThrow(WebhookUrlRejectedError);
      await expect(checkProviderHostUrl('https://u:p@psp.example/v2', options)).rejects.toThrow(/user name or password/);
      for (const url of [
        'https://169.254.169.254/',
        'https://[fd00:ec2::254]/',
        'https://[::ffff:a9fe:a9fe]/',
        'https://metadata.google.internal/',
        'https://METADATA.GOOGLE.INTERNAL./',
      ]) {
        await expect(checkProviderHostUrl(url, options)).rejects.toThrow(/cloud metadata/);
      }
    }
    await expect(checkProviderHostUrl('https://sneaky.example/', strict)).rejects.toThrow(/cloud metadata/);
  });

  it('knows the metadata addresses in their other spellings', () => {
    expect(['169.254.169.254', 'fd00:ec2:0::254', '::ffff:169.254.169.254', '64:ff9b::a9fe:a9fe'].map(isMetadataAddress)).toEqual([true, true, true, true]);
    expect(['169.254.169.253', 'fd00:ec2::253', 'not an address'].map(isMetadataAddress)).toEqual([false, false, false]);
  });
});
