/**
 * Five multi-step tasks over the stand-ins of the three APIs, each done two ways: as an agent with direct tools does
 * it (one tool call per operation, each decided from the answers before), and in code mode (one describe, one
 * execute). The code-mode test checks both ways reach the same answer; `pnpm bench code-mode` counts the calls and
 * the bytes each way hands the agent. No runtime imports: the bench loads this file as it is.
 */

/** Calls a direct tool, answering its `data`; throws on a tool error. */
export type DirectCall = (tool: string, args: Record<string, unknown>) => Promise<unknown>;

export interface CodeTask {
  name: string;
  /** What the agent asks `describe_operations` before writing the script. */
  describe: string;
  /** The operations the script calls (`service.operationId`): the describe answer must declare each. */
  uses: readonly string[];
  /** The script for `execute`. */
  code: string;
  /** The same task through direct tools; answers what the script returns. */
  direct(call: DirectCall): Promise<unknown>;
}

interface McpServer {
  owner: string;
  repo: string;
  stars: number;
  docsUrl: string;
  installCommand: string;
}
interface Product {
  id: number;
  name: string;
  price: number;
  stock: number;
  categories: { name: string }[];
}
interface Order {
  id: number;
  total: number;
  customer: { id: number };
  products: { id: number; qty: number }[];
}

const store = (call: DirectCall, operationId: string, args: Record<string, unknown> = {}) =>
  call('store_call_operation', { operationId, arguments: args });
const decide = async (call: DirectCall, domain: string) =>
  (
    (await call('trust_decide', { body: { target: { type: 'domain', value: domain } } })) as {
      decision: { recommended_action: string };
    }
  ).decision.recommended_action;
const host = (url: string) => url.split('/')[2] ?? '';

export const CODE_TASKS: readonly CodeTask[] = [
  {
    name: 'top 3 MCP servers by stars, trust decision for each docs domain',
    describe: 'directory list mcp servers, get mcp server, trust decide',
    uses: ['directory.listMcpServers', 'directory.getMcpServer', 'trust.decide'],
    code: `
      const { results } = await directory.listMcpServers({ limit: 100 });
      const top = results.sort((a, b) => b.stars - a.stars).slice(0, 3);
      return Promise.all(top.map(async ({ owner, repo }) => {
        const server = await directory.getMcpServer({ owner, repo });
        const domain = server.docsUrl.split('/')[2];
        const decision = await trust.decide({ body: { target: { type: 'domain', value: domain } } });
        return { server: owner + '/' + repo, domain, action: decision.decision.recommended_action };
      }));`,
    async direct(call) {
      const { results } = (await call('directory_list_mcp_servers', { limit: 100 })) as { results: McpServer[] };
      const top = results.sort((a, b) => b.stars - a.stars).slice(0, 3);
      const rows = [];
      for (const { owner, repo } of top) {
        const server = (await call('directory_get_mcp_server', { owner, repo })) as McpServer;
        const domain = host(server.docsUrl);
        rows.push({ server: `${owner}/${repo}`, domain, action: await decide(call, domain) });
      }
      return rows;
    },
  },
  {
    name: 'the 3 cheapest Brewing products with their variant SKUs',
    describe: 'store list products, list product variants',
    uses: ['store.listProducts', 'store.listProductVariants'],
    code: `
      const products = (await store.listProducts({ limit: 100 })).map((entry) => entry.product);
      const cheapest = products
        .filter((p) => p.categories.some((c) => c.name === 'Brewing'))
        .sort((a, b) => a.price - b.price)
        .slice(0, 3);
      return Promise.all(cheapest.map(async (p) => ({
        name: p.name,
        price: p.price,
        skus: (await store.listProductVariants({ id: p.id })).map((entry) => entry.variant.sku),
      })));`,
    async direct(call) {
      const listed = (await store(call, 'listProducts', { limit: 100 })) as { product: Product }[];
      const cheapest = listed
        .map((entry) => entry.product)
        .filter((p) => p.categories.some((c) => c.name === 'Brewing'))
        .sort((a, b) => a.price - b.price)
        .slice(0, 3);
      const rows = [];
      for (const p of cheapest) {
        const variants = (await store(call, 'listProductVariants', { id: p.id })) as { variant: { sku: string } }[];
        rows.push({ name: p.name, price: p.price, skus: variants.map((entry) => entry.variant.sku) });
      }
      return rows;
    },
  },
  {
    name: 'order count and total spent per customer',
    describe: 'store list customers, list orders',
    uses: ['store.listCustomers', 'store.listOrders'],
    code: `
      const [customers, orders] = await Promise.all([store.listCustomers({}), store.listOrders({})]);
      return customers.map(({ customer }) => {
        const mine = orders.map((entry) => entry.order).filter((o) => o.customer.id === customer.id);
        return { name: customer.fullname, orders: mine.length, spent: mine.reduce((sum, o) => sum + o.total, 0) };
      });`,
    async direct(call) {
      const customers = (await store(call, 'listCustomers')) as { customer: { id: number; fullname: string } }[];
      const orders = ((await store(call, 'listOrders')) as { order: Order }[]).map((entry) => entry.order);
      return customers.map(({ customer }) => {
        const mine = orders.filter((o) => o.customer.id === customer.id);
        return { name: customer.fullname, orders: mine.length, spent: mine.reduce((sum, o) => sum + o.total, 0) };
      });
    },
  },
  {
    name: "the products in one customer's orders, with their stock",
    describe: 'store get customer by email, list orders, get product',
    uses: ['store.getCustomerByEmail', 'store.listOrders', 'store.getProduct'],
    code: `
      const { customer } = await store.getCustomerByEmail({ email: 'ana.silva@example.org' });
      const orders = (await store.listOrders({})).map((entry) => entry.order).filter((o) => o.customer.id === customer.id);
      const ids = [...new Set(orders.flatMap((o) => o.products.map((line) => line.id)))];
      return Promise.all(ids.map(async (id) => {
        const { product } = await store.getProduct({ id });
        return { name: product.name, stock: product.stock };
      }));`,
    async direct(call) {
      const { customer } = (await store(call, 'getCustomerByEmail', { email: 'ana.silva@example.org' })) as {
        customer: { id: number };
      };
      const orders = ((await store(call, 'listOrders')) as { order: Order }[])
        .map((entry) => entry.order)
        .filter((o) => o.customer.id === customer.id);
      const ids = [...new Set(orders.flatMap((o) => o.products.map((line) => line.id)))];
      const rows = [];
      for (const id of ids) {
        const { product } = (await store(call, 'getProduct', { id })) as { product: Product };
        rows.push({ name: product.name, stock: product.stock });
      }
      return rows;
    },
  },
  {
    name: 'MCP servers matching "sql": install command and docs-domain decision',
    describe: 'directory search, get mcp server, trust decide',
    uses: ['directory.search', 'directory.getMcpServer', 'trust.decide'],
    code: `
      const { results } = await directory.search({ q: 'sql', type: 'mcp' });
      return Promise.all(results.map(async (found) => {
        const [owner, repo] = found.url.split('/').slice(3, 5);
        const server = await directory.getMcpServer({ owner, repo });
        const domain = server.docsUrl.split('/')[2];
        const decision = await trust.decide({ body: { target: { type: 'domain', value: domain } } });
        return { name: found.name, install: server.installCommand, action: decision.decision.recommended_action };
      }));`,
    async direct(call) {
      const { results } = (await call('directory_search', { q: 'sql', type: 'mcp' })) as {
        results: { name: string; url: string }[];
      };
      const rows = [];
      for (const found of results) {
        const [owner, repo] = found.url.split('/').slice(3, 5);
        const server = (await call('directory_get_mcp_server', { owner, repo })) as McpServer;
        const action = await decide(call, host(server.docsUrl));
        rows.push({ name: found.name, install: server.installCommand, action });
      }
      return rows;
    },
  },
];
