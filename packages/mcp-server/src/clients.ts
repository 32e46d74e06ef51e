/**
 * The API clients tool calls go through, created on first use (a server without store credentials still serves
 * the directory). With `redis`, they are fleet clients: the store's rate budget, trust's decisions and the
 * directory's HTTP cache are shared with every other client, in any process, on the same Redis.
 */
import { DirectoryClient, type DirectoryClientOptions } from '@agent-apis/directory';
import { StoreClient, type StoreClientOptions } from '@agent-apis/store';
import { TrustClient, type TrustClientOptions } from '@agent-apis/trust';

/** A connected node-redis client (v5 or later). */
export type FleetRedis = NonNullable<NonNullable<Exclude<StoreClientOptions['rateLimit'], false>>['redis']>;

export interface ClientsOptions {
  directory?: DirectoryClientOptions | undefined;
  store?: StoreClientOptions | undefined;
  trust?: TrustClientOptions | undefined;
  /** Share the store's rate budget and trust's decisions with the fleet through this Redis. */
  redis?: FleetRedis | undefined;
}

export class ServiceClients {
  readonly #options: ClientsOptions;
  #directory: DirectoryClient | undefined;
  #store: StoreClient | undefined;
  #trust: TrustClient | undefined;

  constructor(options: ClientsOptions = {}) {
    this.#options = options;
  }

  /** Throws the client's own `MissingCredentialsError` (naming the environment variables) when unconfigured. */
  directory(): DirectoryClient {
    const { redis, directory } = this.#options;
    this.#directory ??= new DirectoryClient({
      ...(redis && directory?.cache === undefined ? { cache: { redis } } : {}),
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
    return long([
      store?.authToken ?? env('STORE_AUTH_TOKEN'),
      store?.accessToken ?? env('STORE_ACCESS_TOKEN'),
      trust?.apiKey ?? env('ENTROPY0_API_KEY'),
    ]);
  }

  /** {@link secrets} and the store login: left out of error messages, not out of data (a login is not secret). */
  errorSecrets(): string[] {
    return [...this.secrets(), ...long([this.#options.store?.login ?? env('STORE_LOGIN')])];
  }
}

function env(name: string): string | undefined {
  return typeof process === 'undefined' ? undefined : process.env[name];
}

/** The values of at least 4 characters (shorter ones would scrub ordinary text). */
function long(values: (string | undefined)[]): string[] {
  return values.filter((value): value is string => typeof value === 'string' && value.length >= 4);
}
