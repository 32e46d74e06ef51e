import { DirectoryClient } from '@agent-apis/directory';
import { getGetSkillMockHandler, getMockHandlers } from '@agent-apis/directory/msw';
import { setupServer } from 'msw/node';

// Handlers for every operation, answering with generated data…
const server = setupServer(...getMockHandlers());
server.listen({ onUnhandledFrame: 'error' });

// …and your own answer where the test needs one.
server.use(
  getGetSkillMockHandler({
    slug: 'pdf-tools',
    name: 'PDF tools',
    source: 'community',
    url: 'https://directory.example/skills/pdf-tools',
    docsUrl: 'https://docs.example/pdf-tools',
    repoUrl: 'https://git.example/pdf-tools',
  }),
);

const client = new DirectoryClient({ baseUrl: 'https://directory.example' });
const skill = await client.skills.get({ slug: 'pdf-tools' });
console.log(`${skill.name} from ${skill.source}`);

server.close();
