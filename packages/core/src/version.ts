/** Version of @agent-apis/core; kept equal to package.json (a test checks it). */
export const VERSION = '0.1.0';
