import { TrustClient, TrustDeniedError } from '@agent-apis/trust';

const trust = new TrustClient();
const safeFetch = trust.guardedFetch(fetch, {
  // Sandboxed targets get a placeholder instead of their content.
  onSandbox: (decision) => new Response(`withheld: ${decision.reasonCodes.join(', ')}`),
});

for (const url of ['https://github.com/about', 'https://githvb.com/login']) {
  try {
    const page = await safeFetch(url);
    console.log(url, page.status);
  } catch (error) {
    if (!(error instanceof TrustDeniedError)) throw error;
    console.log(url, 'denied:', error.decision.reasonCodes.join(', '));
  }
}
