import { lookup as dnsLookup } from 'node:dns/promises';
import { Inject, Injectable, Optional } from '@nestjs/common';
import ipaddr from 'ipaddr.js';
import { AppConfig } from '../../config/app-config';
import { within } from '../timeout';

/**
 * Where merchant webhook URLs may point. The gateway POSTs to these URLs from
 * inside its own network, so an unchecked URL is a server-side request forgery: a merchant could
 * make the gateway call its database, the cloud metadata service (169.254.169.254) or an admin port
 * on loopback. With `WEBHOOK_ALLOW_PRIVATE_URLS=false` (the production default) only `https:` URLs
 * whose host resolves to public unicast addresses are accepted, at save time and again at delivery.
 */

/** Long enough for any real endpoint; short enough that a URL is not a storage channel. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** How long the save-time check waits for DNS before refusing the URL. */
export const RESOLVE_TIMEOUT_MS = 5000;

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has (the same answers the HTTP client would use). */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface WebhookUrlPolicyOptions {
  /** `config.webhookAllowPrivateUrls`: true allows `http:` and loopback/private targets (development). */
  allowPrivate: boolean;
  /** Defaults to the operating system's resolver (`dns.lookup`, so /etc/hosts counts, as it does for the client). */
  resolve?: HostResolver;
}

/** Why a URL was refused; `message` is safe to show to the admin who entered it. */
export class WebhookUrlRejectedError extends Error {
  /** Lets a delivery worker tell a policy refusal from a network failure (`err.code`). */
  readonly code = 'EWEBHOOKURLBLOCKED';
  constructor(message: string) {
    super(message);
    this.name = 'WebhookUrlRejectedError';
  }
}

export const systemResolver: HostResolver = async (hostname) => {
  const answers = await within(dnsLookup(hostname, { all: true, verbatim: true }), RESOLVE_TIMEOUT_MS, () => {
    throw new Error(`DNS lookup timed out after ${RESOLVE_TIMEOUT_MS} ms`);
  });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

// IPv6 ranges that carry an IPv4 address inside them: a translator on the way may deliver them to
// that IPv4 address, so they are judged by the address they carry.
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
const SIX_TO_FOUR = ipaddr.IPv6.parseCIDR('2002::/16');
/** Deprecated IPv4-compatible addresses (`::a.b.c.d`, RFC 4291); ipaddr.js calls them plain unicast. */
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');
/** The only IPv6 space allocated for global unicast; anything outside it is special or unassigned. */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const bytes = address.toByteArray();
  const range = address.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145' || address.match(NAT64_WELL_KNOWN)) return new ipaddr.IPv4(bytes.slice(12, 16));
  if (address.match(SIX_TO_FOUR)) return new ipaddr.IPv4(bytes.slice(2, 6));
  return undefined;
}

/**
 * The special range an address belongs to (`loopback`, `private`, `linkLocal`, `ipv4Mapped:private`…),
 * or `null` when it is public unicast and may receive webhooks. Everything not positively public is
 * refused: reserved, documentation and benchmarking blocks, unassigned IPv6 space, deprecated
 * IPv4-compatible addresses, and Teredo (whose embedded client address is obfuscated).
 */
export function nonPublicRange(ip: string): string | null {
  if (!ipaddr.isValid(ip)) return 'invalid';
  const address = ipaddr.parse(ip);
  if (address.kind() === 'ipv4') {
    const range = address.range();
    return range === 'unicast' ? null : range;
  }
  const v6 = address as ipaddr.IPv6;
  const range = v6.range();
  if (range === 'unspecified' || range === 'loopback') return range;
  const v4 = embeddedIpv4(v6);
  if (v4) {
    const inner = v4.range();
    return inner === 'unicast' ? null : `${range}:${inner}`;
  }
  if (v6.match(IPV4_COMPATIBLE)) return 'ipv4Compatible';
  if (range !== 'unicast') return range;
  return v6.match(GLOBAL_UNICAST_V6) ? null : 'unassigned';
}

export function isPublicAddress(ip: string): boolean {
  return nonPublicRange(ip) === null;
}

/** `[::1]` → `::1`; a bracketed host is an IPv6 literal. */
function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/**
 * The checks that need no network: scheme, credentials, length, host. Returns the parsed URL, whose
 * `href` is the canonical form to store (the WHATWG parser has already turned `0x7f.1` and
 * `2130706433` into `127.0.0.1`, so the address checks see what a client would connect to).
 */
export function parseWebhookUrl(raw: string, options: Pick<WebhookUrlPolicyOptions, 'allowPrivate'>): URL {
  if (typeof raw !== 'string' || raw.trim() === '') throw new WebhookUrlRejectedError('must be an absolute http(s) URL');
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) throw new WebhookUrlRejectedError(`must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
  if (/[\s\x00-\x1f\x7f]/.test(raw)) throw new WebhookUrlRejectedError('must not contain spaces or control characters');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookUrlRejectedError('must be an absolute http(s) URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new WebhookUrlRejectedError('must use https (or http in development)');
  if (!options.allowPrivate && url.protocol !== 'https:') throw new WebhookUrlRejectedError('must use https');
  // Credentials would be sent to the merchant on every delivery and shown in the dashboard.
  if (url.username !== '' || url.password !== '') throw new WebhookUrlRejectedError('must not contain a user name or password');
  if (url.hostname === '') throw new WebhookUrlRejectedError('must name a host');
  if (url.href.length > MAX_WEBHOOK_URL_LENGTH) throw new WebhookUrlRejectedError(`must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
  return url;
}

/** The URL's IP literal, or every address its host name resolves to (resolver errors propagate). */
async function addressesOf(url: URL, resolve: HostResolver): Promise<ResolvedAddress[]> {
  const host = bareHost(url.hostname);
  if (ipaddr.isValid(host)) return [{ address: host, family: host.includes(':') ? 6 : 4 }];
  const addresses = await resolve(host);
  if (addresses.length === 0) throw new Error(`host "${host}" has no addresses`);
  return addresses;
}

/**
 * Every address, not just the first, must be public: with one public and one private record the
 * client could pick the private one.
 */
function assertAllPublic(url: URL, addresses: ResolvedAddress[]): void {
  const host = bareHost(url.hostname);
  for (const { address } of addresses) {
    const range = nonPublicRange(address);
    if (range === null) continue;
    throw new WebhookUrlRejectedError(
      address === host ? `must point to a public address (${address} is ${range})` : `must point to a public address ("${host}" resolves to ${address}, which is ${range})`,
    );
  }
}

/**
 * Save-time check: returns the canonical URL to store, or throws WebhookUrlRejectedError. When
 * private URLs are allowed nothing is resolved (a development host may not resolve yet).
 */
export async function checkWebhookUrl(raw: string, options: WebhookUrlPolicyOptions): Promise<string> {
  const url = parseWebhookUrl(raw, options);
  if (options.allowPrivate) return url.href;
  assertAllPublic(url, await resolvedOrRefused(url, options));
  return url.href;
}

/** The host's addresses, or WebhookUrlRejectedError when it does not resolve. */
async function resolvedOrRefused(url: URL, options: WebhookUrlPolicyOptions): Promise<ResolvedAddress[]> {
  try {
    return await addressesOf(url, options.resolve ?? systemResolver);
  } catch {
    throw new WebhookUrlRejectedError(`must name a host that resolves ("${bareHost(url.hostname)}" did not)`);
  }
}

/**
 * The `lookup` option of `http.request`, `https.request`, `net.connect`, `http(s).Agent` and axios
 * (typed narrowly enough to be assignable to both Node's and axios's declarations).
 */
export type LookupFunction = (
  hostname: string,
  options: object | number | undefined,
  callback: (err: NodeJS.ErrnoException | null, address: string | ResolvedAddress[], family?: 4 | 6) => void,
) => void;

/** A `lookup` that answers every host name with the one address given: the connection goes where it was checked. */
export function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (typeof options === 'object' && options !== null && (options as { all?: boolean }).all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  };
}

export interface DeliveryTarget {
  url: URL;
  /** The checked address the request must connect to. */
  address: string;
  family: 4 | 6;
  /** Pass as `lookup` to axios / http(s).request so the socket goes to `address`, never to a fresh DNS answer. */
  lookup: LookupFunction;
}

/**
 * Delivery-time check against DNS rebinding. A host that was public when the merchant was saved
 * can later resolve to 127.0.0.1 or 169.254.169.254; so resolve it again right before each
 * attempt, require every answer to be public, and pin the connection to the checked address:
 *
 * ```ts
 * const target = await resolveDeliveryTarget(merchant.webhookUrl, { allowPrivate: config.webhookAllowPrivateUrls });
 * await axios.post(target.url.href, body, {
 *   lookup: target.lookup,   // connect to target.address; Host header and TLS SNI/certificate stay the host name
 *   maxRedirects: 0,         // a redirect could point anywhere: never follow one
 *   timeout: 10_000,
 *   validateStatus: () => true,
 * });
 * ```
 *
 * A shared keep-alive agent still works: it reuses sockets already opened to a checked address,
 * and opens new ones through this request's `lookup`. Node skips `lookup` for IP-literal hosts;
 * those are checked here before any socket is opened. A refused address throws WebhookUrlRejectedError (`code: 'EWEBHOOKURLBLOCKED'`); a DNS failure
 * throws the resolver's own error (ENOTFOUND…, worth a retry). Either is the attempt's error.
 * With private URLs allowed the first answer is pinned without the range check.
 */
export async function resolveDeliveryTarget(raw: string, options: WebhookUrlPolicyOptions): Promise<DeliveryTarget> {
  const url = parseWebhookUrl(raw, options);
  const addresses = await addressesOf(url, options.resolve ?? systemResolver);
  if (!options.allowPrivate) assertAllPublic(url, addresses);
  const pinned = addresses[0]!;
  return { url, address: pinned.address, family: pinned.family, lookup: pinnedLookup(pinned) };
}

/**
 * Cloud metadata services (AWS, GCP, Azure, OpenStack: 169.254.169.254; AWS over IPv6:
 * fd00:ec2::254; GCP's name). They hand out the machine's credentials, so no URL the gateway calls
 * with secrets may point there, whatever WEBHOOK_ALLOW_PRIVATE_URLS says.
 */
const METADATA_ADDRESSES = new Set(['169.254.169.254', ipaddr.IPv6.parse('fd00:ec2::254').toNormalizedString()]);
const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata.google.internal.', 'metadata', 'metadata.']);

/** Whether an address is a cloud metadata service's, IPv4-mapped and NAT64 forms included. */
export function isMetadataAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  const address = ipaddr.parse(ip);
  if (address.kind() === 'ipv6') {
    const v4 = embeddedIpv4(address as ipaddr.IPv6);
    if (v4) return METADATA_ADDRESSES.has(v4.toString());
    return METADATA_ADDRESSES.has((address as ipaddr.IPv6).toNormalizedString());
  }
  return METADATA_ADDRESSES.has(address.toString());
}

/**
 * Save-time check of a provider account's `base_url` / `token_url`: the gateway sends credentials
 * there, so `https:` only (even in development), no user information, the merchant webhook rules
 * for private addresses (WEBHOOK_ALLOW_PRIVATE_URLS), and never a cloud metadata address. Returns
 * the canonical URL, or throws WebhookUrlRejectedError.
 */
export async function checkProviderHostUrl(raw: string, options: WebhookUrlPolicyOptions): Promise<string> {
  const url = parseWebhookUrl(raw, { allowPrivate: false });
  const host = bareHost(url.hostname).toLowerCase();
  if (METADATA_HOSTS.has(host) || isMetadataAddress(host)) throw new WebhookUrlRejectedError('must not point to a cloud metadata service');
  // As for merchant URLs, nothing is resolved when private URLs are allowed (a development host may not resolve yet).
  if (options.allowPrivate) return url.href;
  const addresses = await resolvedOrRefused(url, options);
  if (addresses.some((a) => isMetadataAddress(a.address))) throw new WebhookUrlRejectedError(`must not point to a cloud metadata service ("${host}" resolves to one)`);
  assertAllPublic(url, addresses);
  return url.href;
}

/** Lets tests (and unusual deployments) replace the system resolver. */
export const WEBHOOK_HOST_RESOLVER = Symbol('WEBHOOK_HOST_RESOLVER');

/** The policy with the gateway's configuration applied; inject it where URLs are saved or called. */
@Injectable()
export class WebhookUrlPolicy {
  constructor(
    private readonly config: AppConfig,
    @Optional() @Inject(WEBHOOK_HOST_RESOLVER) private readonly resolver?: HostResolver,
  ) {}

  private get options(): WebhookUrlPolicyOptions {
    return { allowPrivate: this.config.webhookAllowPrivateUrls, resolve: this.resolver ?? systemResolver };
  }

  /** Canonical URL to store, or WebhookUrlRejectedError. */
  checkForSave(raw: string): Promise<string> {
    return checkWebhookUrl(raw, this.options);
  }

  /** A provider account's API or token URL (checkProviderHostUrl): canonical URL, or WebhookUrlRejectedError. */
  checkProviderUrl(raw: string): Promise<string> {
    return checkProviderHostUrl(raw, this.options);
  }

  /** See resolveDeliveryTarget. */
  resolveForDelivery(raw: string): Promise<DeliveryTarget> {
    return resolveDeliveryTarget(raw, this.options);
  }
}
