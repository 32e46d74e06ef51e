import { APIError, DirectoryClient, NotFoundError, RequestValidationError } from '@agent-apis/directory';

const client = new DirectoryClient();

try {
  await client.skills.get({ slug: 'no-such-skill' });
} catch (error) {
  if (error instanceof NotFoundError) console.log(`no skill there (${error.status} on ${error.operation})`);
  else if (error instanceof APIError) console.log(`the service answered ${error.status}`);
  else throw error;
}

try {
  await client.search({ q: 'github', limit: 50 });
} catch (error) {
  // Nothing was sent: the limit is outside 1–25.
  if (error instanceof RequestValidationError) console.log(`${error.field} ${error.reason}`);
  else throw error;
}
