import { createServer } from 'node:http';
import { createDeliveryLog, createWebhookListener } from '@agent-apis/store/webhooks';

// Register one hook per event, naming the event in the URL:
// store.hooks.create({ event: 'order_paid', url: 'https://example.com/hooks?event=order_paid' })
const listener = createWebhookListener({
  token: process.env.STORE_HOOKS_TOKEN ?? '',
  // A signed delivery can be re-posted by whoever saw it: the log answers a repeat `duplicate`, unhandled.
  deliveries: createDeliveryLog(),
  onEvent: (event) => {
    if (event.kind === 'order_paid') console.log(`Order ${event.data.id} paid: ${event.data.total}`);
  },
});

// The listener refuses unsigned requests unread and bounds every body in size and time; the server's own
// timeouts close connections that never finish their headers. Node checks them every
// `connectionsCheckingInterval` (30 s by default): checked every second, a slow client is cut at 10 s, not ~30 s.
const server = createServer(
  { headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 1_000 },
  listener,
);
server.listen(Number(process.env.PORT ?? 3000), () => {
  const address = server.address();
  console.log(`Listening for webhooks on port ${typeof address === 'object' && address ? address.port : '?'}`);
});
