/**
 * `pnpm mcp:update [service ...]`: reads each tool server's current tools/list result (from the server, or from
 * SPECS_MIRROR) and pins it in `specs/<service>/mcp-tools.lock.json`. The store's credentials (STORE_LOGIN +
 * STORE_AUTH_TOKEN, or the earlier STORE_MCP_* pair) go to the vendor's tool server only when STORE_BASE_URL is
 * unset or on the vendor's host; otherwise STORE_MCP_URL must name the server. See what changed first with `pnpm mcp:diff`.
 * (Syncing the pinned lists is part of `pnpm specs:sync`.)
 */
import { storeToolServerNotPointed } from './mcp-drift.ts';
import { isMcpService, MCP_SERVICES, type McpServiceName, updateToolsPin } from './mcp-tools.ts';
import { mirrorFromEnv } from './services.ts';

const USAGE = `usage: mcp-cli update [service ...]   services: ${MCP_SERVICES.join(', ')} (default: all)`;

async function main([command, ...args]: string[]): Promise<number> {
  const unknown = args.find((arg) => !isMcpService(arg));
  if (command !== 'update' || unknown) {
    console.error(`${unknown ? `unknown service "${unknown}"` : `unknown command "${command ?? ''}"`}\n${USAGE}`);
    return 2;
  }
  const services = args.length > 0 ? (args as McpServiceName[]) : [...MCP_SERVICES];
  try {
    for (const service of services) {
      // Credentials only where the user pointed them: never the vendor's tool server for a store elsewhere.
      const notPointed = service === 'store' && !mirrorFromEnv() ? storeToolServerNotPointed(process.env) : undefined;
      if (notPointed) {
        console.error(`store: ${notPointed} (or set SPECS_MIRROR)`);
        return 1;
      }
      const result = await updateToolsPin(service, { mirror: mirrorFromEnv() });
      console.log(
        result.changed
          ? `${service}: pinned ${result.next.sha256} (${result.next.tools} tools; was ${result.previous.sha256}, ${result.previous.tools} tools)`
          : `${service}: up to date (sha256 ${result.previous.sha256})`,
      );
    }
    return 0;
  } catch (error) {
    console.error(`\n${(error as Error).message}`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
