import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeUser, renderWithStore } from '../../commerce/commerce.test-fixtures';
import { PlaysChart } from './activity-charts';
import { OverviewCards } from './overview-cards';

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => vi.stubGlobal('fetch', fetchMock));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

const range = { from: '2026-11-01', to: '2026-11-30' };
const asAdmin = { user: makeUser({ role: 'admin' }), path: '/admin', pattern: '/admin' };

describe('plays and preview plays on the dashboard', () => {
  it('shows preview plays as a card of their own beside plays', async () => {
    fetchMock.mockImplementation(async () =>
      jsonResponse(200, {
        range,
        currency: 'USD',
        revenue: [],
        plays: 1234,
        previewPlays: 56,
        activeSubscribers: 0,
        newSubscribers: 0,
        endedSubscribers: 0,
        previous: {
          range: { from: '2026-10-02', to: '2026-10-31' },
          revenue: [],
          plays: 1000,
          previewPlays: 56,
          activeSubscribers: 0,
          newSubscribers: 0,
          endedSubscribers: 0,
        },
      }),
    );
    renderWithStore(<OverviewCards scope={range} />, asAdmin);
    const previews = await screen.findByRole('group', { name: 'Preview plays' });
    expect(within(previews).getByText('56')).toBeTruthy();
    const plays = screen.getByRole('group', { name: 'Plays' });
    expect(within(plays).getByText('1,234')).toBeTruthy();
    // Each card's change against the 30 days before the range.
    expect(within(plays).getByTestId('stat-change').textContent).toBe('Up +23%vs previous 30 days');
    expect(within(previews).getByTestId('stat-change').textContent).toBe('No changevs previous 30 days');
  });

  it('charts previews beside plays, in its headline and its table, and is not empty with previews only', async () => {
    fetchMock.mockImplementation(async () =>
      jsonResponse(200, {
        range,
        bucket: 'month',
        points: [{ period: '2026-11-01', plays: 0, previewPlays: 3 }],
      }),
    );
    renderWithStore(<PlaysChart args={{ ...range, bucket: 'month' }} />, asAdmin);
    expect(await screen.findByText('0 in the range · 3 previews')).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Plays and preview plays by period' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Period', 'Plays', 'Preview plays']);
    expect(
      within(table)
        .getAllByRole('cell')
        .map((cell) => cell.textContent)
        .slice(1),
    ).toEqual(['0', '3']);
  });
});
