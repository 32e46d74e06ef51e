import { createServer } from 'node:http';
import { createWebhookHandler } from '@agent-apis/store/webhooks';

// Register one hook per event, naming the event in the URL:
// store.hooks.create({ event: 'order_paid', url: 'https://example.com/hooks?event=order_paid' })
const handle = createWebhookHandler({
  token: process.env.STORE_HOOKS_TOKEN ?? '',
  onEvent: (event) => {
    if (event.kind === 'order_paid') console.log(`Order ${event.data.id} paid: ${event.data.total}`);
  },
});

const MAX_BODY_BYTES = 1_000_000;

createServer(async (request, response) => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return void response.writeHead(413).end();
    chunks.push(chunk);
  }
  // The raw bytes, not a re-serialised JSON: the signature covers exactly what was sent.
  const answer = await handle({ body: Buffer.concat(chunks), headers: request.headers, url: request.url ?? '/' });
  response.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body);
}).listen(3000);
