/**
 * `mcp:diff` sends the store's credentials (the clients' names, STORE_LOGIN + STORE_AUTH_TOKEN, or the earlier
 * STORE_MCP_* pair) only where the user pointed them: to the vendor's tool server only for a store on the vendor's
 * host, else to STORE_MCP_URL, else nowhere (not configured, with the reason).
 */

import { describe, expect, it } from 'vitest';
import { checkToolDrift, storeToolServerNotPointed } from './mcp-drift.ts';

describe('mcp:diff: the store tool server only where the user pointed it', () => {
  it("is not configured for a store off the vendor's host until STORE_MCP_URL is set, naming no URL", async () => {
    const pair = { STORE_LOGIN: 'diff-login-1', STORE_AUTH_TOKEN: 'diff-token-1' };
    expect(storeToolServerNotPointed(pair)).toBeUndefined();
    expect(storeToolServerNotPointed({ ...pair, STORE_BASE_URL: 'https://api.jumpseller.com/v1' })).toBeUndefined();
    const elsewhere = { ...pair, STORE_BASE_URL: 'https://user:pw-77@shop.example/v1' };
    const drift = await checkToolDrift('store', { env: elsewhere });
    expect(drift.skipped).toMatch(/^not configured: STORE_BASE_URL is not the vendor's host.*STORE_MCP_URL/);
    expect(drift.skipped).not.toContain('pw-77');
    expect(drift.currentOrigin).toBeUndefined();

    // Pointed: the check goes to STORE_MCP_URL (here a closed loopback port), never to the vendor's address.
    const pointed = await checkToolDrift('store', { env: { ...elsewhere, STORE_MCP_URL: 'http://127.0.0.1:9/mcp' } });
    expect(pointed.skipped).toBeUndefined();
    expect(pointed.error).toMatch(/^store: cannot reach http:\/\/127\.0\.0\.1:9\/mcp/);
  });
});
