import { AgentApiError } from '@agent-apis/core';
import { readEnv } from '@agent-apis/core/service';
import { DirectoryToolMethods } from './gen/directory.gen.js';
import type { ToolClientOptions } from './tool-client.js';

/** Environment variable holding the directory's tool server endpoint. */
export const DIRECTORY_MCP_URL_ENV_VAR = 'DIRECTORY_MCP_URL';
/** @deprecated Use {@link DIRECTORY_MCP_URL_ENV_VAR} (every package names environment variables `*_ENV_VAR`). */
export const DIRECTORY_MCP_URL_ENV = DIRECTORY_MCP_URL_ENV_VAR;

export interface DirectoryToolsOptions extends ToolClientOptions {
  /** The tool server's endpoint (env `DIRECTORY_MCP_URL`). Required: the directory does not publish it. */
  url?: string | undefined;
}

/**
 * The directory's agent tool server: `searchMcpServers`, `searchSkills`, `searchPlugins`. Needs no key; connects
 * on the first call; `close()` ends the session.
 */
export class DirectoryTools extends DirectoryToolMethods {
  constructor(options: DirectoryToolsOptions = {}) {
    const url = options.url ?? readEnv(DIRECTORY_MCP_URL_ENV_VAR);
    if (!url) {
      throw new AgentApiError(
        `DirectoryTools needs the tool server's URL: pass { url } or set ${DIRECTORY_MCP_URL_ENV_VAR} ` +
          '(the directory does not publish its address)',
      );
    }
    super({
      url,
      headers: {},
      fetch: options.fetch,
      timeout: options.timeout,
      validateResponses: options.validateResponses,
      maxResponseBytes: options.maxResponseBytes,
    });
  }
}
