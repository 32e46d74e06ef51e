import { StoreClient } from '@agent-apis/store';

// HTTP Basic: the store's login and auth token, from the Account section of the Admin Panel.
const owner = new StoreClient({ login: 'your-store-login', authToken: 'your-auth-token' });

// OAuth2: an app's access token, sent as `Authorization: Bearer …`.
const app = new StoreClient({ accessToken: 'your-oauth-access-token' });

console.log(owner.authScheme, app.authScheme);
