import { TrustClient, TrustDeniedError } from '@agent-apis/trust';

// Any fetch-compatible function can be guarded; this one answers locally so that the example stays offline.
const fetchPage: typeof fetch = async (input) =>
  new Response(`page of ${new URL(input instanceof Request ? input.url : input).hostname}`);

const trust = new TrustClient();
const safeFetch = trust.guardedFetch(fetchPage, {
  // Sandboxed targets get a placeholder instead of their content.
  onSandbox: (decision) => new Response(`withheld: ${decision.reasonCodes.join(', ')}`),
});

for (const url of ['https://github.com/about', 'https://paste.example.net/raw/1', 'https://githvb.com/login']) {
  try {
    const page = await safeFetch(url);
    console.log(url, page.status, await page.text());
  } catch (error) {
    if (!(error instanceof TrustDeniedError)) throw error;
    console.log(url, 'denied:', error.decision.reasonCodes.join(', '));
  }
}
