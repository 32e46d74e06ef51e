import { TrustClient } from '@agent-apis/trust';
import { getDecideMockHandler, getDecideResponseMock } from '@agent-apis/trust/msw';
import { setupServer } from 'msw/node';

// A random but schema-valid decision, made to deny.
const denied = getDecideResponseMock();
denied.decision.recommended_action = 'deny';

const server = setupServer(getDecideMockHandler(denied));
server.listen({ onUnhandledFrame: 'error' });

const trust = new TrustClient({ apiKey: 'sk_ent0_test' });
console.log((await trust.decide('githvb.com')).isDenied);

server.close();
