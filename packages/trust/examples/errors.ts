import { APIError, RateLimitError, TrustClient } from '@agent-apis/trust';

const trust = new TrustClient();

try {
  await trust.decide('github.com');
} catch (error) {
  if (error instanceof RateLimitError) {
    console.log(`rate limited, retry in ${error.retryAfter} ms`);
  } else if (error instanceof APIError) {
    console.log(`${error.status} from ${error.operation}`);
  } else {
    throw error;
  }
}
