import { createServer } from 'node:http';
import { createWebhookListener } from '@agent-apis/store/webhooks';

// Register one hook per event, naming the event in the URL:
// store.hooks.create({ event: 'order_paid', url: 'https://example.com/hooks?event=order_paid' })
const listener = createWebhookListener({
  token: process.env.STORE_HOOKS_TOKEN ?? '',
  onEvent: (event) => {
    if (event.kind === 'order_paid') console.log(`Order ${event.data.id} paid: ${event.data.total}`);
  },
});

// The listener refuses unsigned requests unread and bounds every body in size and time; the server's own
// timeouts close connections that never finish their headers.
const server = createServer({ headersTimeout: 10_000, requestTimeout: 30_000 }, listener);
server.listen(Number(process.env.PORT ?? 3000), () => {
  const address = server.address();
  console.log(`Listening for webhooks on port ${typeof address === 'object' && address ? address.port : '?'}`);
});
