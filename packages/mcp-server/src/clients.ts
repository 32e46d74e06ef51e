/**
 * The one place the tool server's clients are built: the three API clients, created on first use (a server without
 * store credentials still serves the directory), a session's variants with its own credentials, and the Redis
 * connection of `--redis`. With Redis, they are fleet clients: the store's rate budget, trust's decisions and the
 * directory's HTTP cache are shared with every other client, in any process, on the same Redis.
 */
import { AgentApiError } from '@agent-apis/core';
import { MIN_FLEET_SECRET_LENGTH } from '@agent-apis/core/service';
import { DirectoryClient, type DirectoryClientOptions, FLEET_SECRET_ENV_VAR } from '@agent-apis/directory';
import { StoreClient, type StoreClientOptions } from '@agent-apis/store';
import { TrustClient, type TrustClientOptions } from '@agent-apis/trust';
import type { CatalogOptions } from './catalog.js';
import { SERVER_NAME } from './version.js';

/** A connected node-redis client (v5 or later). */
export type FleetRedis = NonNullable<NonNullable<Exclude<StoreClientOptions['rateLimit'], false>>['redis']>;

export interface ClientsOptions extends Pick<CatalogOptions, 'services'> {
  directory?: DirectoryClientOptions | undefined;
  store?: StoreClientOptions | undefined;
  trust?: TrustClientOptions | undefined;
  /** Share the store's rate budget, trust's decisions and the directory's cache with the fleet through this Redis. */
  redis?: FleetRedis | undefined;
}

export class ServiceClients {
  readonly #options: ClientsOptions;
  readonly #fleetSecret: string | undefined;
  readonly #close: () => void;
  #directory: DirectoryClient | undefined;
  #store: StoreClient | undefined;
  #trust: TrustClient | undefined;

  /**
   * Throws an `AgentApiError` naming `AGENT_APIS_FLEET_SECRET` when `redis` would share the directory's cache but
   * no fleet secret is set: refused now rather than on every directory call.
   */
  constructor(options: ClientsOptions = {}, close: () => void = () => {}) {
    this.#options = options;
    this.#fleetSecret = fleetSecret(options, options.redis !== undefined);
    this.#close = close;
  }

  /**
   * Clients from `options`; with `redisUrl` (and no `redis`), on a Redis connection of their own, opened after the
   * options were checked and ended by {@link close}. Needs the optional `redis` package.
   */
  static async open(options: ClientsOptions & { redisUrl?: string | undefined }): Promise<ServiceClients> {
    const { redisUrl, ...rest } = options;
    if (redisUrl === undefined || rest.redis !== undefined) return new ServiceClients(rest);
    fleetSecret(rest, true);
    const redis = await connectRedis(redisUrl);
    return new ServiceClients({ ...rest, redis: redis as unknown as FleetRedis }, () => redis.destroy());
  }

  /** Clients with a session's own credentials over these ones' options, on the same Redis (closed with these). */
  withCredentials(credentials: Pick<ClientsOptions, 'store' | 'trust'>): ServiceClients {
    const { store, trust } = this.#options;
    return new ServiceClients({
      ...this.#options,
      store: { ...store, ...credentials.store },
      trust: { ...trust, ...credentials.trust },
    });
  }

  /** Ends the Redis connection {@link open} made (a `redis` given in the options stays the caller's). */
  close(): void {
    this.#close();
  }

  /** Throws the client's own `MissingCredentialsError` (naming the environment variables) when unconfigured. */
  directory(): DirectoryClient {
    const { redis, directory } = this.#options;
    this.#directory ??= new DirectoryClient({
      ...(redis && directory?.cache === undefined ? { cache: { redis, secret: this.#fleetSecret } } : {}),
      ...directory,
    });
    return this.#directory;
  }

  store(): StoreClient {
    const { redis, store } = this.#options;
    this.#store ??= new StoreClient({
      ...(redis && store?.rateLimit === undefined ? { rateLimit: { redis } } : {}),
      ...store,
    });
    return this.#store;
  }

  trust(): TrustClient {
    const { redis, trust } = this.#options;
    this.#trust ??= new TrustClient({
      ...(redis && trust?.decisionCache === undefined ? { decisionCache: { redis } } : {}),
      ...trust,
    });
    return this.#trust;
  }

  /**
   * Secrets to scrub from every text the server sends: the tokens and keys in use (given in the options or read
   * from the clients' environment variables). The clients redact their own errors; this is the second line.
   */
  secrets(): string[] {
    const { store, trust } = this.#options;
    const login = store?.login ?? env('STORE_LOGIN');
    const tokens = long([
      store?.authToken ?? env('STORE_AUTH_TOKEN'),
      store?.accessToken ?? env('STORE_ACCESS_TOKEN'),
      trust?.apiKey ?? env('ENTROPY0_API_KEY'),
    ]);
    // The login alone stays visible in data (a shop's login is no secret); beside a token, as a `Basic` header
    // carries the pair, it is a credential: base64 of `login:token` is scrubbed as one.
    const pairs = login ? tokens.flatMap((token) => [base64(`${login}:${token}`), base64(`${token}:${login}`)]) : [];
    return [...tokens, ...pairs];
  }

  /** {@link secrets} and the store login: left out of error messages, not out of data (a login is not secret). */
  errorSecrets(): string[] {
    return [...this.secrets(), ...long([this.#options.store?.login ?? env('STORE_LOGIN')])];
  }
}

/**
 * The fleet secret signing the directory's entries in Redis, when Redis will hold them: the directory is served and
 * its cache is left to these clients. Throws when it is missing or short.
 */
function fleetSecret(options: ClientsOptions, withRedis: boolean): string | undefined {
  const servesDirectory = options.services?.includes('directory') ?? true;
  if (!withRedis || !servesDirectory || options.directory?.cache !== undefined) return undefined;
  const secret = env(FLEET_SECRET_ENV_VAR);
  if (secret === undefined || secret.length < MIN_FLEET_SECRET_LENGTH) {
    throw new AgentApiError(
      `redis: the directory's answers are shared in Redis signed with the fleet secret; set ${FLEET_SECRET_ENV_VAR} ` +
        `to a secret of at least ${MIN_FLEET_SECRET_LENGTH} characters, the same in every process of the fleet` +
        ` (or serve without the directory, or pass directory.cache)`,
    );
  }
  return secret;
}

/** A connected node-redis client from the optional `redis` peer, named after the server in Redis' client list. */
async function connectRedis(url: string) {
  let redis: {
    createClient(options: { url: string; name: string }): {
      connect(): Promise<unknown>;
      destroy(): void;
      on(event: string, listener: (error: Error) => void): unknown;
      once(event: string, listener: () => void): unknown;
    };
  };
  try {
    redis = (await import('redis')) as unknown as typeof redis;
  } catch {
    throw new AgentApiError('redis: a Redis URL is set but the `redis` package is not installed (npm install redis)');
  }
  const client = redis.createClient({ url, name: SERVER_NAME });
  client.on('error', (error) => console.error(`agent-apis-mcp-server: redis: ${error.message}`));
  // Redis being down is not fatal: the clients fall back to their in-process budget and cache while it reconnects,
  // so the server starts serving after the first failed attempt instead of waiting for Redis.
  await new Promise<void>((resolve) => {
    client.once('error', () => resolve());
    client.connect().then(
      () => resolve(),
      () => resolve(),
    );
  });
  return client;
}

function base64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function env(name: string): string | undefined {
  return typeof process === 'undefined' ? undefined : process.env[name] || undefined;
}

/** The values of at least 4 characters (shorter ones would scrub ordinary text). */
function long(values: (string | undefined)[]): string[] {
  return values.filter((value): value is string => typeof value === 'string' && value.length >= 4);
}
