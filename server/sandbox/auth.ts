// Key-pair authentication (API rules: Authentication): POST /jwt trades a private and
// a secret key for an HS256 token that lives 4 hours; a client may also sign
// its own token (iss = private key, signed with the secret key, optional aud
// = the API host, iat, optional exp). Both kinds are verified the same way.
import { SignJWT, decodeJwt, decodeProtectedHeader, errors as joseErrors, jwtVerify } from 'jose';
import type { JWTPayload } from 'jose';
import { TOKEN_LIFETIME_SECONDS } from '../contract/index.ts';
import type { Scope } from '../contract/index.ts';
import type { SandboxClock } from './clock.ts';
import type { Database } from './db.ts';
import { SandboxError } from './errors.ts';

export interface ApiClient {
  id: number;
  private_key: string;
  secret_key: string;
  /** Set for a company client: everything is scoped to this company. */
  company_id: number | null;
  /** Set for a job-board client: the channel value it is bound to. */
  channel: string | null;
  scopes: Scope[];
}

interface ClientRow {
  id: number;
  private_key: string;
  secret_key: string;
  company_id: number | null;
  channel: string | null;
  scopes: string;
}

export function clientByPrivateKey(db: Database, privateKey: string): ApiClient | undefined {
  const row = db.get<ClientRow>('SELECT * FROM api_clients WHERE private_key = ?', privateKey);
  return row === undefined ? undefined : { ...row, scopes: JSON.parse(row.scopes) as Scope[] };
}

const encoder = new TextEncoder();

/** How far ahead of the sandbox's clock a token's "iat" may be: the signer's clock may run a little fast. */
export const CLOCK_SKEW_SECONDS = 5;

/** A JWT time (seconds since 1970) as ISO text, to the second; as it is when no date is that far. */
function isoSeconds(seconds: number): string {
  const date = new Date(Math.floor(seconds) * 1000);
  return Number.isNaN(date.getTime()) ? String(seconds) : date.toISOString().replace('.000Z', 'Z');
}

export async function issueToken(
  client: ApiClient,
  clock: SandboxClock,
): Promise<{ token: string; expires_at: string }> {
  const iat = Math.floor(clock.now().getTime() / 1000);
  const exp = iat + TOKEN_LIFETIME_SECONDS;
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(client.private_key)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(encoder.encode(client.secret_key));
  return { token, expires_at: new Date(exp * 1000).toISOString() };
}

/** Verifies bearer tokens, remembering the ones already verified until they expire. */
export class TokenVerifier {
  readonly #db: Database;
  readonly #clock: SandboxClock;
  readonly #cache = new Map<string, { client: ApiClient; expiresMs: number }>();
  /** The hosts a token's "aud" may name: the sandbox's own addresses, set when it listens. */
  #audiences = new Set<string>();
  /** The host:port (as a Host header writes it) of each address the sandbox was given: where it listens, its public URL. */
  #ownHosts = new Set<string>();

  constructor(db: Database, clock: SandboxClock) {
    this.#db = db;
    this.#clock = clock;
  }

  /**
   * The sandbox's addresses (origins or host:port), from its configuration and
   * where it listens, never from a request's Host header, which the sender chooses.
   */
  setAudiences(origins: string[]): void {
    this.#audiences = new Set(origins.flatMap(hostsOf));
    this.#ownHosts = new Set(origins.map((origin) => new URL(origin).host.toLowerCase()));
  }

  /**
   * Whether a request's Host header names the sandbox: an address it was
   * given, or the address and port its connection reached (a loopback name
   * with that port included). A name that merely resolves to it does not: a
   * page of evil.example whose name was pointed at 127.0.0.1 (DNS
   * rebinding) sends "Host: evil.example:4010".
   */
  isOwnHost(
    host: string | undefined,
    reached: { localAddress?: string | undefined; localPort?: number | undefined },
  ): boolean {
    if (host === undefined) return false;
    const named = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(host.trim().toLowerCase());
    if (named === null) return false;
    if (this.#ownHosts.has(host.trim().toLowerCase())) return true;
    const [, hostname, port = '80'] = named;
    if (reached.localPort === undefined || Number(port) !== reached.localPort) return false;
    // The connection's own address, as a Host header writes it (an IPv4 client of an IPv6 socket is ::ffff:a.b.c.d).
    const local = (reached.localAddress ?? '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
    const names = ['localhost', '127.0.0.1', '[::1]', local.includes(':') ? `[${local}]` : local];
    return names.includes(hostname!);
  }

  /** Whether an Origin header names the sandbox itself (its admin surface answers only its own pages). */
  isOwnOrigin(origin: string): boolean {
    return /^https?:\/\//i.test(origin) && hostsOf(origin).every((h) => this.#audiences.has(h));
  }

  clear(): void {
    this.#cache.clear();
  }

  async verify(authorization: string | undefined): Promise<ApiClient> {
    if (authorization === undefined || authorization.trim() === '') {
      throw new SandboxError('missing_token', 'Send "Authorization: Bearer <token>"; get a token with POST /v2/jwt.');
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (match === null) {
      throw new SandboxError('invalid_token', 'The Authorization header must be "Bearer <token>".');
    }
    const token = match[1]!;
    const nowMs = this.#clock.now().getTime();
    const cached = this.#cache.get(token);
    if (cached !== undefined) {
      if (cached.expiresMs > nowMs) return cached.client;
      this.#cache.delete(token);
      throw new SandboxError('token_expired', 'The token has expired; get a new one with POST /v2/jwt.');
    }

    let payload: JWTPayload;
    try {
      const header = decodeProtectedHeader(token);
      if (header.alg !== 'HS256') throw new Error('alg');
      payload = decodeJwt(token);
    } catch {
      throw new SandboxError('invalid_token', 'The token is not a valid HS256 JWT.');
    }
    if (typeof payload.iss !== 'string' || payload.iss === '') {
      throw new SandboxError('invalid_token', 'The token has no "iss" claim (it must be your private key).');
    }
    const client = clientByPrivateKey(this.#db, payload.iss);
    if (client === undefined) {
      throw new SandboxError('invalid_token', 'The token was issued for an unknown private key.');
    }
    if (payload.exp === undefined && payload.iat === undefined) {
      throw new SandboxError('invalid_token', 'A self-signed token needs "iat" (and may have "exp").');
    }
    if (
      payload.aud !== undefined &&
      !(Array.isArray(payload.aud) ? payload.aud : [payload.aud]).some((aud) =>
        hostsOf(aud).some((h) => this.#audiences.has(h)),
      )
    ) {
      const known = [...this.#audiences].filter((h) => h.includes(':'));
      throw new SandboxError(
        'invalid_token',
        `The token's "aud" must be this API's host${known.length > 0 ? ` (${known.join(' or ')})` : ''}, or left out.`,
      );
    }
    const nowSeconds = nowMs / 1000;
    // A token signed for later would outlive its 4 hours from now; a clock a few seconds ahead of ours is forgiven.
    if (payload.iat !== undefined && payload.iat > nowSeconds + CLOCK_SKEW_SECONDS) {
      throw new SandboxError(
        'invalid_token',
        `The token's "iat" (${isoSeconds(payload.iat)}) lies in the future: it is ${Math.ceil(payload.iat - nowSeconds)} s ahead of the API's clock (${isoSeconds(nowSeconds)}), and at most ${CLOCK_SKEW_SECONDS} s are allowed. Sign it with the current time (check the clock of the machine that signs), or get one with POST /v2/jwt.`,
      );
    }
    // A token lives at most 4 hours, whoever signed it.
    const bornAt = payload.iat ?? Math.floor(nowSeconds);
    if (payload.exp !== undefined && payload.exp - bornAt > TOKEN_LIFETIME_SECONDS) {
      throw new SandboxError(
        'invalid_token',
        `The token lives longer than ${TOKEN_LIFETIME_SECONDS / 3600} hours ("exp" minus "iat"); sign one that expires sooner, or get one with POST /v2/jwt.`,
      );
    }
    try {
      await jwtVerify(token, encoder.encode(client.secret_key), {
        algorithms: ['HS256'],
        currentDate: new Date(nowMs),
      });
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) {
        throw new SandboxError('token_expired', 'The token has expired; get a new one with POST /v2/jwt.');
      }
      throw new SandboxError('invalid_token', 'The token signature or claims are not valid for this key pair.');
    }
    // A self-signed token without exp is accepted for the same 4 hours as an issued one (jose's maxTokenAge
    // would also refuse an "iat" within the skew allowed above).
    if (payload.exp === undefined && nowSeconds - bornAt > TOKEN_LIFETIME_SECONDS) {
      throw new SandboxError('token_expired', 'The token has expired; get a new one with POST /v2/jwt.');
    }
    const expiresMs =
      payload.exp !== undefined ? payload.exp * 1000 : ((payload.iat ?? 0) + TOKEN_LIFETIME_SECONDS) * 1000;
    if (this.#cache.size > 10_000) this.#cache.clear();
    this.#cache.set(token, { client, expiresMs });
    return client;
  }
}

/** The host:port and the bare host an origin or a host names, lower case ("http://Localhost:4010/v2" → localhost:4010, localhost). */
function hostsOf(value: string): string[] {
  const bare = value
    .trim()
    .toLowerCase()
    .replace(/^[a-z]+:\/\//, '')
    .replace(/\/.*$/, '');
  const hostname = bare.replace(/:\d+$/, '');
  // The loopback names one machine: a token for localhost is good at 127.0.0.1 and back.
  const loopback = ['localhost', '127.0.0.1', '[::1]'];
  const names = loopback.includes(hostname) ? loopback : [hostname];
  const port = bare.slice(hostname.length);
  return names.flatMap((name) => [`${name}${port}`, name]);
}
