import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { seriousA11yViolations } from '../support/a11y';
import { launchBrowser, openPage, screenshot, viewports } from '../support/browser';
import { demoCatalogue } from '../support/catalogue';
import { demo, expectPath, loginViaApi, signedInListener } from '../support/session';

const baseUrl = inject('baseUrl');
let browser: Browser;
let ids: Awaited<ReturnType<typeof demoCatalogue>>;

/** RFC 4180 rows (quoted cells may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (char === '"') {
        quoted = false;
      } else {
        cell += char;
      }
    } else if (char === '"') {
      quoted = true;
    } else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else if (char !== '\r') {
      cell += char;
    }
  }
  if (cell || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/** The transactions table's rows as a person reads them: item, buyer and amount. */
async function tableRows(page: Page) {
  const items = page.getByRole('list', { name: 'Transactions' }).getByRole('listitem');
  await items.first().waitFor();
  return items.evaluateAll((nodes) =>
    nodes.map((node) => (node as HTMLElement).innerText.replace(/\s+/g, ' ')),
  );
}

/** Each chart drawn, or (`allowEmpty`: one artist's range may hold no subscriber change) its empty state. */
async function waitForCharts(page: Page, allowEmpty = false) {
  for (const title of ['Revenue', 'Subscribers', 'Plays']) {
    const figure = page.locator('figure', { has: page.locator('figcaption', { hasText: title }) });
    const drawn = figure.locator('svg.recharts-surface').first();
    await (allowEmpty ? drawn.or(figure.getByText('Nothing in this range')) : drawn).first().waitFor();
  }
}

beforeAll(async () => {
  browser = await launchBrowser();
  ids = await demoCatalogue();
});
afterAll(() => browser.close());

describe('the admin dashboard on the seeded demo', () => {
  it('shows the sales in charts and tables, filters by artist and dates, and downloads the same rows as CSV', async () => {
    const { context, page, consoleErrors } = await openPage(browser, viewports.desktop, {
      acceptDownloads: true,
    });
    await loginViaApi(context, demo.admin);
    await page.goto(`${baseUrl}/admin?range=90d`);
    await waitForCharts(page);
    const netCard = page.getByRole('group', { name: 'Net revenue', exact: true });
    const net = netCard.locator('p').first();
    await expect.poll(() => net.innerText()).toMatch(/^\$\d/);
    expect(await net.innerText()).not.toBe('$0.00');
    // Each card's change against the 90 days before (the demo's four months of sales reach into them).
    // The card says it on lines of their own ("Up", "+468%", "vs previous 90 days"): read as one line.
    await expect
      .poll(async () => (await netCard.getByTestId('stat-change').innerText()).replace(/\s+/g, ' ').trim())
      .toMatch(/^((Up|Down) [+\u2212]\S+|No change) vs previous 90 days$/);
    // Chart tooltips read "Songs: $1.29", not recharts' "Songs : $1.29".
    const revenue = page.locator('figure', { has: page.locator('figcaption', { hasText: 'Revenue' }) });
    // The chart's own surface (legend icons are recharts surfaces too), hovered across a few bars.
    const plot = revenue.locator('.recharts-wrapper').first();
    await plot.scrollIntoViewIfNeeded();
    const box = (await plot.boundingBox())!;
    const tooltip = revenue.locator('.recharts-tooltip-wrapper');
    await expect
      .poll(async () => {
        for (const at of [0.5, 0.65, 0.8, 0.95]) {
          await page.mouse.move(box.x + box.width * at, box.y + box.height * 0.4, { steps: 3 });
          const text = await tooltip.innerText().catch(() => '');
          if (/Songs: /.test(text)) return text;
        }
        return '';
      })
      .toMatch(/Songs: /);
    expect(await tooltip.innerText()).not.toMatch(/ : /);
    // The heading is drawn at once, over a skeleton: wait for the loaded list (the range has sales).
    await page.getByRole('heading', { name: 'Top songs' }).waitFor();
    await expect
      .poll(() => page.locator('section[aria-labelledby="top-song"] ol > li').count())
      .toBeGreaterThan(0);
    await screenshot(page, 'dashboard-admin-desktop');
    const violations = await seriousA11yViolations(page);
    expect.soft(violations, violations.join('\n')).toEqual([]);

    // Filter by artist and by a custom range of days.
    await page.getByRole('combobox', { name: 'Artist', exact: true }).selectOption({ label: ids.artistName });
    await expect.poll(() => new URL(page.url()).searchParams.get('artist')).toBe(ids.artistId);
    const to = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 75 * 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('From', { exact: true }).fill(from);
    await page.getByLabel('To', { exact: true }).fill(to);
    const filtered = page.waitForResponse((response) => {
      const url = new URL(response.url());
      return url.pathname === '/api/admin/dashboard/transactions' && url.searchParams.get('from') === from;
    });
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('from')).toBe(from);
    // Until the new page arrives the previous count stays on screen (the section is aria-busy).
    await filtered;
    await page.locator('section[aria-labelledby="dashboard-transactions"][aria-busy="false"]').waitFor();
    await page.getByText(/^\d+ transactions?$/).waitFor();
    const rows = await tableRows(page);
    for (const row of rows) expect(row).toContain(ids.artistName);
    const counted = Number((await page.getByText(/^\d+ transactions?$/).innerText()).split(' ')[0]);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^backbeat-transactions-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = parseCsv(await readFile((await download.path())!, 'utf8'));
    const [header, ...records] = csv;
    expect(header).toEqual([
      'Date (UTC)',
      'Order',
      'Type',
      'Item',
      'Artist',
      'Buyer',
      'Buyer e-mail',
      'Gateway',
      'Status',
      'Amount',
      'Currency',
    ]);
    expect(records).toHaveLength(counted);
    // Row by row, the first page of the table is the start of the CSV, in the same order.
    rows.forEach((row, index) => {
      const [, , type, item, artist, buyer, , , , amount, currency] = records[index]!;
      expect(currency).toBe('USD');
      expect(artist).toBe(ids.artistName);
      expect(row).toContain(`${type}: ${item}`);
      expect(row).toContain(buyer!);
      expect(row).toContain(`$${amount}`);
    });
    for (const record of records) {
      expect(record[0]! >= `${from}T00:00:00`).toBe(true);
      expect(record[4]).toBe(ids.artistName);
    }
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('reads well at 390 px: the charts and the list fit the screen', async () => {
    const { context, page, consoleErrors } = await openPage(browser, viewports.mobile);
    await loginViaApi(context, demo.admin);
    await page.goto(`${baseUrl}/admin`);
    await waitForCharts(page);
    await tableRows(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'dashboard-admin-mobile');
    const violations = await seriousA11yViolations(page);
    expect.soft(violations, violations.join('\n')).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});

describe("an artist's own dashboard", () => {
  it('is reached from the account menu and shows its own figures only', async () => {
    const { context, page, consoleErrors } = await openPage(browser, viewports.desktop);
    await loginViaApi(context, demo.artist);
    await page.goto(`${baseUrl}/studio`);
    const menu = page.getByRole('button', { name: 'Account menu' });
    await menu.click();
    await page
      .locator(`[id="${await menu.getAttribute('aria-controls')}"]`)
      .getByRole('link', { name: 'Your dashboard' })
      .click();
    await expectPath(page, '/studio/dashboard');
    await page.getByRole('heading', { name: ids.artistName, level: 1 }).waitFor();
    await waitForCharts(page, true);

    const summary = await context.request.get(
      `${baseUrl}/api/admin/dashboard/revenue-summary/${ids.artistId}`,
    );
    const { revenue } = (await summary.json()) as { revenue: { totalRevenue: number } };
    const total = page.getByRole('group', { name: 'Total revenue', exact: true }).locator('p').first();
    await expect.poll(() => total.innerText()).toBe(`$${(revenue.totalRevenue / 100).toFixed(2)}`);
    await tableRows(page);

    // Another artist's figures are refused; its own are the only ones the server gives it.
    const { artists } = (await (await context.request.get(`${baseUrl}/api/artists/all`)).json()) as {
      artists: Array<{ _id: string; name: string }>;
    };
    const other = artists.find((artist) => artist._id !== ids.artistId)!;
    const refused = await context.request.get(
      `${baseUrl}/api/admin/dashboard/overview?artistId=${other._id}`,
    );
    expect(refused.status()).toBe(403);
    const own = await context.request.get(`${baseUrl}/api/admin/dashboard/transactions?limit=100`);
    const { transactions } = (await own.json()) as { transactions: Array<{ artist: { _id: string } }> };
    expect(transactions.length).toBeGreaterThan(0);
    for (const transaction of transactions) expect(transaction.artist._id).toBe(ids.artistId);
    await screenshot(page, 'dashboard-artist-desktop');
    const violations = await seriousA11yViolations(page);
    expect.soft(violations, violations.join('\n')).toEqual([]);
    expect(consoleErrors).toEqual([]);

    // The SPEC's /admin stays admin-only: an artist lands on /home.
    await page.goto(`${baseUrl}/admin`);
    await expectPath(page, '/home');
    await context.close();
  });

  it('a listener opening /admin lands on /home', async () => {
    const { context, page } = await openPage(browser, viewports.desktop);
    await signedInListener(context);
    await page.goto(`${baseUrl}/admin`);
    await expectPath(page, '/home');
    await page.goto(`${baseUrl}/studio/dashboard`);
    await expectPath(page, '/home');
    await context.close();
  });
});
