import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import type { TransactionRow } from './dashboard.repository';
import { defuseFormula, transactionsCsv } from './transactions-csv';

const row = (overrides: Partial<TransactionRow>): TransactionRow & { cursorAt: string } => ({
  id: '00000000-0000-4000-8000-000000000001',
  itemType: 'song',
  itemId: null,
  itemTitle: 'Plain title',
  cycle: null,
  amount: 1299,
  currency: 'USD',
  gateway: 'stripe',
  status: 'paid',
  createdAt: new Date('2025-05-01T10:00:00Z'),
  userId: null,
  userName: 'Buyer',
  userEmail: 'buyer@example.com',
  artistId: null,
  artistName: 'Artist',
  cursorAt: '2025-05-01 10:00:00+00',
  ...overrides,
});

/** OWASP's CSV injection characters, the semicolon (a separator in some locales) and the full-width forms. */
const DANGEROUS = ['=', '+', '-', '@', '\t', '\r', '\n', ';', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20'];

describe('defuseFormula', () => {
  it.each(DANGEROUS.map((first) => [JSON.stringify(first), first]))(
    'prefixes a cell starting with %s with an apostrophe',
    (_label, first) => {
      expect(defuseFormula(`${first}cmd|' /C calc'!A0`)).toBe(`'${first}cmd|' /C calc'!A0`);
    },
  );

  it('leaves ordinary text alone, including those characters later in the cell', () => {
    for (const plain of ['Night Drive', 'A-side', 'x=1', 'Tom; Jerry', '', "'quoted"]) {
      expect(defuseFormula(plain)).toBe(plain);
    }
  });
});

describe('transactionsCsv', () => {
  it('defuses every free-text cell (item, artist, buyer, e-mail) and nothing else', async () => {
    const rows = [
      row({ itemTitle: ';=HYPERLINK("http://evil")', artistName: '-2+3', userName: '@SUM(A1)' }),
      row({ id: '00000000-0000-4000-8000-000000000002', userEmail: '=x@example.com', userName: null }),
    ];
    const csv = await text(transactionsCsv({ transactionBatch: async () => rows }, {}, '-createdAt', true));
    const [, first, second] = csv.trimEnd().split('\n');
    expect(first).toContain(`,"';=HYPERLINK(""http://evil"")",'-2+3,'@SUM(A1),`);
    expect(first).toContain(',stripe,paid,12.99,USD');
    expect(second).toContain(",Deleted account,'=x@example.com,");
  });
});
