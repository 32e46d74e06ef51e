/** Version of @agent-apis/mcp, sent as the client version when connecting; kept equal to package.json (a test checks it). */
export const VERSION = '0.1.0';
