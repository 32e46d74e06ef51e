import { fetchStub, jsonResponse, onlyRequest } from '@agent-apis/test-utils/fetch';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiClient } from '../../api-client.js';
import { NotFoundError, ResponseValidationError } from './answer-errors.js';
import type { ClientOptions, ServiceTransport, ValidatorsModule } from './client-options.js';
import { ConfigurationError } from './errors.js';
import type { Logger } from './logger.js';
import { REDACTED } from './redact.js';

const getServer = {
  id: 'getServer',
  method: 'GET',
  path: '/servers/{id}',
  pathParams: ['id'],
  query: {},
  bodyRequired: false,
  successJson: true,
} as const;

/** A loader of a validators module where `getServer` responses must be `{ id: number }`. */
function validatorsLoader() {
  const module: ValidatorsModule = { validators: { getServer: { response: z.object({ id: z.number() }) } } };
  return vi.fn(async () => module);
}

function service(overrides: Partial<ServiceTransport> = {}): ServiceTransport {
  return { loadValidators: validatorsLoader(), validatorsEntry: '@agent-apis/test/validators', ...overrides };
}

/** Sends getServer through a client built by the shared construction path. */
function createFetch(options: ClientOptions & { fetch: typeof fetch }, transport: ServiceTransport) {
  const client = new ApiClient(options, { client: 'TestClient', baseUrl: 'https://api.test/v1', ...transport });
  return async (_url: string) => (await client.request(getServer, { path: { id: 7 } })).response;
}

const SERVER_URL = 'https://api.test/v1/servers/7';
const clientFetchOptions = (options: ClientOptions & { fetch: typeof fetch }, transport: ServiceTransport) =>
  [options, transport] as const;

afterEach(() => vi.unstubAllEnvs());

describe('ApiClient: the construction path every service client shares', () => {
  it('passes the common options on, and names operations from the spec in errors', async () => {
    const upstream = fetchStub(() => jsonResponse({ message: 'no such server' }, { status: 404 }));
    const send = createFetch(
      ...clientFetchOptions({ fetch: upstream, maxRetries: 0, defaultHeaders: { 'x-app': 'test' } }, service()),
    );
    const error = await send(SERVER_URL).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ operation: 'getServer', route: 'GET /servers/{id}' });
    expect(onlyRequest(upstream).headers.get('x-app')).toBe('test');
  });

  it('takes the log level from AGENT_APIS_LOG unless logLevel is given', async () => {
    const lines: string[] = [];
    const logger: Logger = { debug: (line) => lines.push(line), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    vi.stubEnv('AGENT_APIS_LOG', 'debug');
    await createFetch(...clientFetchOptions({ fetch: fetchStub(() => jsonResponse({ id: 7 })), logger }, service()))(
      SERVER_URL,
    );
    expect(lines.length).toBeGreaterThan(0);

    lines.length = 0;
    await createFetch(
      ...clientFetchOptions({ fetch: fetchStub(() => jsonResponse({ id: 7 })), logger, logLevel: 'off' }, service()),
    )(SERVER_URL);
    expect(lines).toEqual([]);
  });

  it('validates responses only when asked, loading the validators at the first response to check', async () => {
    const loadValidators = validatorsLoader();
    const unchecked = createFetch(
      ...clientFetchOptions({ fetch: fetchStub(() => jsonResponse({ id: 'seven' })) }, service({ loadValidators })),
    );
    await expect(unchecked(SERVER_URL)).resolves.toBeInstanceOf(Response);
    expect(loadValidators).not.toHaveBeenCalled();

    const checked = createFetch(
      ...clientFetchOptions(
        { fetch: fetchStub(() => jsonResponse({ id: 'seven' })), validateResponses: true },
        service({ loadValidators }),
      ),
    );
    expect(loadValidators).not.toHaveBeenCalled();
    await expect(checked(SERVER_URL)).rejects.toBeInstanceOf(ResponseValidationError);
    expect(loadValidators).toHaveBeenCalledTimes(1);
  });

  it('takes the validators module itself, loading nothing (bundled code: Workers, browsers)', async () => {
    const loadValidators = validatorsLoader();
    const module: ValidatorsModule = { validators: { getServer: { response: z.object({ id: z.number() }) } } };
    const send = createFetch(
      ...clientFetchOptions(
        { fetch: fetchStub(() => jsonResponse({ id: 'seven' })), validateResponses: module },
        service({ loadValidators }),
      ),
    );
    await expect(send(SERVER_URL)).rejects.toBeInstanceOf(ResponseValidationError);
    expect(loadValidators).not.toHaveBeenCalled();
  });

  it('turns validators that cannot be loaded into a ConfigurationError naming the subpath to pass, and tries again later', async () => {
    const loadValidators = vi.fn(async (): Promise<unknown> => {
      throw new TypeError('Failed to resolve module specifier');
    });
    const send = createFetch(
      ...clientFetchOptions(
        { fetch: fetchStub(() => jsonResponse({ id: 7 })), validateResponses: true, maxRetries: 0 },
        service({ loadValidators }),
      ),
    );
    const error = await send(SERVER_URL).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toContain("validateResponses: await import('@agent-apis/test/validators')");
    await send(SERVER_URL).catch(() => undefined);
    expect(loadValidators).toHaveBeenCalledTimes(2);

    const empty = createFetch(
      ...clientFetchOptions(
        { fetch: fetchStub(() => jsonResponse({ id: 7 })), validateResponses: true, maxRetries: 0 },
        service({ loadValidators: async () => ({ default: {} }) }),
      ),
    );
    await expect(empty(SERVER_URL)).rejects.toThrow(/no `validators` export/);
  });

  it('lets responses of operations without a schema through', async () => {
    const loadValidators = vi.fn(async (): Promise<ValidatorsModule> => ({ validators: { getServer: {} } }));
    const send = createFetch(
      ...clientFetchOptions(
        { fetch: fetchStub(() => jsonResponse({ id: 'seven' })), validateResponses: true },
        service({ loadValidators }),
      ),
    );
    await expect(send(SERVER_URL)).resolves.toBeInstanceOf(Response);
    expect(loadValidators).toHaveBeenCalledTimes(1);
  });

  it("adds the service's extras: secrets to redact and hooks", async () => {
    const beforeRequest = vi.fn();
    const upstream = fetchStub(() => jsonResponse({ echoed: 'canary-secret-42' }, { status: 400 }));
    const send = createFetch(
      ...clientFetchOptions(
        { fetch: upstream, maxRetries: 0 },
        service({ redactSecrets: ['canary-secret-42'], beforeRequest }),
      ),
    );
    const error = await send(SERVER_URL).catch((caught: unknown) => caught);
    expect(beforeRequest).toHaveBeenCalledTimes(1);
    expect(error).toMatchObject({ body: { echoed: REDACTED } });
    expect(JSON.stringify(error)).not.toContain('canary-secret-42');
  });
});
