import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Toaster } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureStore } from '@reduxjs/toolkit';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { backbeatApi } from '../../../lib/api-query';
import { DownloadMenu } from './download-menu';

/** The menu reads and writes through RTK Query, so it renders inside a store with the API's reducer. */
function renderInStore(ui: ReactNode) {
  const store = configureStore({
    reducer: { [backbeatApi.reducerPath]: backbeatApi.reducer },
    middleware: (getDefault) => getDefault().concat(backbeatApi.middleware),
  });
  return render(<Provider store={store}>{ui}</Provider>);
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('DownloadMenu', () => {
  it('lists the formats on offer, waits while the files are made, then hands the link to the browser', async () => {
    const answers = [
      json({ itemType: 'album', itemId: 'a1', title: 'Neon Tides', formats: ['mp3', 'flac'], songCount: 4 }),
      json(
        {
          message: 'Preparing the album for download. It starts in a moment.',
          code: 'DOWNLOAD_PREPARING',
          retryAfterSec: 0,
        },
        202,
      ),
      json(
        {
          url: '/api/downloads/file?token=t',
          expiresAt: '2030-01-01T00:00:00Z',
          fileName: 'Nova - Neon Tides.zip',
        },
        201,
      ),
    ];
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => answers.shift()!);
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(`${this.getAttribute('href')} ${this.download}`);
    });
    renderInStore(
      <>
        <Toaster />
        <DownloadMenu itemType="album" id="a1" title="Neon Tides" />
      </>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Download Neon Tides' }));
    const flac = await screen.findByRole('menuitem', { name: /FLAC/ });
    expect(flac.textContent).toContain('Lossless');
    fireEvent.click(screen.getByRole('menuitem', { name: /MP3/ }));
    await waitFor(() => expect(clicked).toEqual(['/api/downloads/file?token=t Nova - Neon Tides.zip']));
    const calls = fetchSpy.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${String(url)}`);
    expect(calls).toEqual([
      'GET /api/downloads/album/a1',
      'POST /api/downloads/album/a1',
      'POST /api/downloads/album/a1',
    ]);
    await screen.findByText('Downloading Nova - Neon Tides.zip');
  });

  it('shows the server’s refusal in the menu', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      json({ message: 'You need to purchase this album to download it.', code: 'DOWNLOAD_DENIED' }, 403),
    );
    renderInStore(<DownloadMenu itemType="album" id="a1" title="Neon Tides" />);
    fireEvent.click(screen.getByRole('button', { name: 'Download Neon Tides' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'You need to purchase this album to download it.',
    );
  });
});
