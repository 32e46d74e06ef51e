import { describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_LIMITS, runInSandbox, type SandboxCall } from './sandbox.js';

const echo: SandboxCall = async (service, id, argsJson) => JSON.stringify({ data: { service, id, args: JSON.parse(argsJson) } });

describe('sandbox smoke', () => {
  it('runs', async () => {
    const out = await runInSandbox({
      code: 'const a = await store.listProducts({ limit: 2 }); console.log("hi", a.id); return [a, 1 + 1];',
      namespaces: { store: ['listProducts'] },
      call: echo,
      limits: DEFAULT_SANDBOX_LIMITS,
    });
    console.log(JSON.stringify(out));
  });
});
