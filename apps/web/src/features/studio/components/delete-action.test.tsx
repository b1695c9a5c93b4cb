import { configureStore } from '@reduxjs/toolkit';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { backbeatApi } from '../../../lib/api-query';
import { DeleteAction } from './delete-action';

const toastMock = vi.hoisted(() => ({ error: vi.fn(), success: vi.fn() }));
vi.mock('../../../lib/toast', () => ({ toast: toastMock }));

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => vi.stubGlobal('fetch', fetchMock));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  fetchMock.mockReset();
  toastMock.success.mockClear();
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function renderAction(entity: 'song' | 'album', buyers: number) {
  fetchMock.mockImplementation((input, init) => {
    const url = String(input);
    if (url.endsWith('/buyers')) return Promise.resolve(json(200, { buyers }));
    if (init?.method === 'DELETE') {
      const message = `${entity === 'song' ? 'Song' : 'Album'} deleted successfully`;
      return Promise.resolve(json(200, { message, buyers }));
    }
    return Promise.resolve(json(404, { message: 'Not found', code: 'NOT_FOUND' }));
  });
  const store = configureStore({
    reducer: { [backbeatApi.reducerPath]: backbeatApi.reducer },
    middleware: (getDefault) => getDefault().concat(backbeatApi.middleware),
  });
  render(
    <Provider store={store}>
      <DeleteAction entity={entity} id="item-1" name="Night Drive" />
    </Provider>,
  );
  fireEvent.click(screen.getByRole('button', { name: `Delete ${entity} Night Drive` }));
  return screen.getByRole('dialog', { name: 'Delete “Night Drive”?' });
}

describe('DeleteAction: what happens to buyers', () => {
  it('asks how many bought a song, and tells the artist they keep it', async () => {
    const dialog = renderAction('song', 3);
    await waitFor(() =>
      expect(dialog.textContent).toContain(
        '3 people bought this song (on its own or with its album) and keep it: it stays in their purchases',
      ),
    );
    expect(fetchMock.mock.calls.map(([input]) => String(input))).toContain('/api/songs/item-1/buyers');
  });

  it('says one buyer keeps an album with the songs it holds now', async () => {
    const dialog = renderAction('album', 1);
    await waitFor(() =>
      expect(dialog.textContent).toContain(
        '1 person bought this album and keeps it with the songs it holds now',
      ),
    );
  });

  it('for an unsold song, says it is removed, and makes no promise about buyers', async () => {
    const dialog = renderAction('song', 0);
    await waitFor(() =>
      expect(dialog.textContent).toContain(
        'The song, its audio and its cover are removed. This cannot be undone.',
      ),
    );
    expect(dialog.textContent).not.toContain('bought');
    fireEvent.click(screen.getByRole('button', { name: 'Delete song' }));
    await waitFor(() => expect(toastMock.success).toHaveBeenCalledWith('Song deleted successfully'));
  });
});
