import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Suspense, type ComponentType } from 'react';
import { Link, MemoryRouter, Outlet, useNavigate, type RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RouteTable, ScrollOnNavigate, usePendingScreens } from './route-renderer';

afterEach(cleanup);
// jsdom does not scroll; the renderer's calls are what the tests read.
beforeEach(() => {
  vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
});

/** A screen module whose loading the test finishes (or fails) itself. */
function deferredScreen(name: string) {
  let settle!: { resolve: (value: { Component: ComponentType }) => void; reject: (error: Error) => void };
  const loaded = new Promise<{ Component: ComponentType }>((resolve, reject) => {
    settle = { resolve, reject };
  });
  const load = vi.fn(() => loaded);
  return {
    load,
    finish: () => settle.resolve({ Component: () => <p>{name} screen</p> }),
    fail: () => settle.reject(new Error(`${name} chunk is gone`)),
  };
}

function Root() {
  const busy = usePendingScreens();
  const navigate = useNavigate();
  return (
    <>
      <p>{busy ? 'loading code' : 'idle'}</p>
      <Link to="/two">to two</Link>
      <button type="button" onClick={() => void navigate(-1)}>
        back
      </button>
      <Suspense fallback={<p>first load</p>}>
        <Outlet />
      </Suspense>
      <ScrollOnNavigate />
    </>
  );
}

function table(
  one: () => Promise<{ Component: ComponentType }>,
  two: () => Promise<{ Component: ComponentType }>,
) {
  const routes: RouteObject[] = [
    {
      element: <Root />,
      errorElement: <p>something went wrong</p>,
      children: [
        { path: '/one', lazy: one as RouteObject['lazy'] },
        { path: '/two', lazy: two as RouteObject['lazy'] },
      ],
    },
  ];
  return routes;
}

describe('RouteTable (the route table without the data router)', () => {
  it('loads a screen on demand, keeps the current screen and shows progress until the next one is there', async () => {
    const one = deferredScreen('one');
    const two = deferredScreen('two');
    render(
      <MemoryRouter initialEntries={['/one']}>
        <RouteTable routes={table(one.load, two.load)} />
      </MemoryRouter>,
    );
    expect(await screen.findByText('first load')).toBeTruthy();
    await act(async () => one.finish());
    expect(await screen.findByText('one screen')).toBeTruthy();
    expect(two.load).not.toHaveBeenCalled();

    fireEvent.click(screen.getByText('to two'));
    expect(await screen.findByText('loading code')).toBeTruthy();
    // The navigation waits for the code in a transition: the old screen stays, no fallback in between.
    expect(screen.getByText('one screen')).toBeTruthy();
    expect(screen.queryByText('first load')).toBeNull();
    await act(async () => two.finish());
    expect(await screen.findByText('two screen')).toBeTruthy();
    expect(await screen.findByText('idle')).toBeTruthy();
    expect(one.load).toHaveBeenCalledTimes(1);
    expect(two.load).toHaveBeenCalledTimes(1);
  });

  it("shows the error element when a screen's code cannot load", async () => {
    const one = deferredScreen('one');
    const two = deferredScreen('two');
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <MemoryRouter initialEntries={['/two', '/one']} initialIndex={1}>
        <RouteTable routes={table(one.load, two.load)} />
      </MemoryRouter>,
    );
    await act(async () => one.fail());
    expect(await screen.findByText('something went wrong')).toBeTruthy();
  });

  it('starts a new navigation at the top and returns to the old position on back', async () => {
    const one = deferredScreen('one');
    const two = deferredScreen('two');
    one.finish();
    two.finish();
    const scrollTo = vi.mocked(window.scrollTo);
    render(
      <MemoryRouter initialEntries={['/one']}>
        <RouteTable routes={table(one.load, two.load)} />
      </MemoryRouter>,
    );
    expect(await screen.findByText('one screen')).toBeTruthy();
    Object.defineProperty(window, 'scrollY', { configurable: true, value: 640 });
    fireEvent.scroll(window);

    fireEvent.click(screen.getByText('to two'));
    expect(await screen.findByText('two screen')).toBeTruthy();
    expect(scrollTo).toHaveBeenLastCalledWith(0, 0);

    Object.defineProperty(window, 'scrollY', { configurable: true, value: 0 });
    fireEvent.click(screen.getByText('back'));
    expect(await screen.findByText('one screen')).toBeTruthy();
    expect(scrollTo).toHaveBeenLastCalledWith(0, 640);
  });
});
