import { DirectoryClient, ResponseValidationError } from '@agent-apis/directory';

// Opt in to checking every JSON response against the spec's schema (zod is loaded on first use).
const client = new DirectoryClient({ validateResponses: true });

try {
  const stats = await client.stats();
  console.log(`${stats.guides} guides`);
} catch (error) {
  if (!(error instanceof ResponseValidationError)) throw error;
  for (const issue of error.issues) console.log(`${error.operation} sent a bad "${issue.path}": ${issue.message}`);
}
