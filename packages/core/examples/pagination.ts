import { offsetCursor, paginate } from '@agent-apis/core/service';

const records = Array.from({ length: 7 }, (_, i) => ({ id: i + 1 }));
const requested: number[] = [];

// A listing answered with `{ total, offset, limit, results }` envelopes, three records a page.
const servers = paginate({
  ...offsetCursor(),
  fetchPage: async (offset: number) => {
    requested.push(offset);
    return { total: records.length, offset, limit: 3, results: records.slice(offset, offset + 3) };
  },
  items: (page) => page.results,
});

const firstFour = await servers.toArray({ max: 4 });
console.log(
  `first four: ${firstFour.map((record) => record.id).join(', ')} (pages at offsets ${requested.join(', ')})`,
);

for await (const page of servers.pages()) console.log(`page of ${page.results.length}`);
