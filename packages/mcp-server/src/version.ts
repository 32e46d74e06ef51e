/** The package's name and version, as the server reports them in `initialize`. */
export const SERVER_NAME = '@agent-apis/mcp-server';
export const SERVER_VERSION = '0.1.0';
