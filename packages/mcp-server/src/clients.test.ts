/** The clients of the tool server: with Redis, the directory's shared cache needs the fleet secret from the start. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ServiceClients } from './clients.js';

const redis = {} as never;

describe('ServiceClients with redis', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('refuses a missing or short fleet secret when the directory is served, naming the variable', () => {
    vi.stubEnv('AGENT_APIS_FLEET_SECRET', '');
    expect(() => new ServiceClients({ redis })).toThrow(/AGENT_APIS_FLEET_SECRET/);
    vi.stubEnv('AGENT_APIS_FLEET_SECRET', 'fifteen chars..');
    expect(() => new ServiceClients({ redis, services: ['directory'] })).toThrow(/at least 16 characters/);
  });

  it('takes the secret from the environment or the directory options, and needs none without the directory', () => {
    vi.stubEnv('AGENT_APIS_FLEET_SECRET', '');
    expect(() => new ServiceClients({ redis, services: ['store', 'trust'] })).not.toThrow();
    expect(
      () => new ServiceClients({ redis, directory: { cache: { redis, secret: 'sixteen chars...' } } }),
    ).not.toThrow();
    expect(() => new ServiceClients({ redis, directory: { cache: false } })).not.toThrow();
    vi.stubEnv('AGENT_APIS_FLEET_SECRET', 'sixteen chars...');
    expect(() => new ServiceClients({ redis })).not.toThrow();
  });
});
