import { useState } from 'react';
import { Check, LogOut } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '../app/hooks';
import { takeReturnPath } from '../app/return-to';
import { Button, EmptyState, Logo, Skeleton, cx } from '../components/ui';
import { logout, selectUser, updateGenres } from '../features/auth';
import { useGetGenresQuery } from '../features/catalog';
import { queryErrorText } from '../lib/api-query';

export default function GenresPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const user = useAppSelector(selectUser);
  const { data: genres, isLoading, isError, error, refetch } = useGetGenresQuery();
  const [selected, setSelected] = useState<string[]>(() => user?.preferredGenres ?? []);
  const [saving, setSaving] = useState(false);
  const firstTime = (user?.preferredGenres.length ?? 0) === 0;

  const toggle = (name: string) =>
    setSelected((current) =>
      current.includes(name) ? current.filter((item) => item !== name) : [...current, name],
    );

  async function save() {
    if (selected.length === 0) return;
    setSaving(true);
    const result = await dispatch(updateGenres(selected));
    setSaving(false);
    // Back to where a guard stopped a new account on its way in, else home.
    if (updateGenres.fulfilled.match(result)) void navigate(takeReturnPath() ?? '/home');
  }

  return (
    <div className="flex min-h-dvh flex-col">
      <title>Choose your genres · Backbeat</title>
      <header className="border-b border-line">
        <div className="container-page flex h-16 items-center justify-between">
          {firstTime ? (
            <Logo height={28} />
          ) : (
            <Link to="/home" aria-label="Backbeat home">
              <Logo height={28} />
            </Link>
          )}
          <Button
            variant="ghost"
            size="sm"
            icon={<LogOut size={16} strokeWidth={1.75} aria-hidden="true" />}
            onClick={() => void dispatch(logout())}
          >
            Log out
          </Button>
        </div>
        <div aria-hidden="true" className="h-0.5 bg-gradient-to-r from-accent to-accent-2" />
      </header>
      <main id="main" className="container-page flex flex-1 flex-col py-10 md:py-16">
        <div className="mx-auto w-full max-w-3xl">
          <p className="mb-2 text-meta font-semibold uppercase tracking-wider text-accent">
            {firstTime ? `Welcome${user ? `, ${user.name.split(' ')[0]}` : ''}` : 'Your taste'}
          </p>
          <h1 className="text-h2 font-bold tracking-tight md:text-h1">What do you like to listen to?</h1>
          <p className="mt-3 text-h4 text-muted">
            Choose at least one genre. Your home screen is built from them, and you can change them any time.
          </p>

          <div className="mt-10">
            {isLoading ? (
              <div className="flex flex-wrap gap-3" aria-hidden="true">
                {Array.from({ length: 12 }, (_, index) => (
                  <Skeleton key={index} className="h-11 w-28 rounded-pill" />
                ))}
              </div>
            ) : isError ? (
              <EmptyState
                tone="error"
                title="Genres could not be loaded"
                description={queryErrorText(error, 'Failed to fetch genres')}
                action={<Button onClick={() => void refetch()}>Try again</Button>}
              />
            ) : !genres || genres.length === 0 ? (
              <EmptyState
                title="No genres yet"
                description="The catalogue has no genres yet. Please come back once music has been added."
              />
            ) : (
              <fieldset>
                <legend className="sr-only">Genres</legend>
                <ul className="flex flex-wrap gap-3">
                  {genres.map((genre) => {
                    const active = selected.includes(genre.name);
                    return (
                      <li key={genre._id}>
                        <button
                          type="button"
                          aria-pressed={active}
                          onClick={() => toggle(genre.name)}
                          className={cx(
                            'inline-flex h-11 items-center gap-2 rounded-pill border px-5 text-body font-semibold transition-colors duration-150 ease-out',
                            active
                              ? 'border-accent bg-accent text-bg'
                              : 'border-line bg-surface text-text hover:border-muted hover:bg-surface-2',
                          )}
                        >
                          {active ? <Check size={16} strokeWidth={2} aria-hidden="true" /> : null}
                          {genre.name}
                        </button>
                      </li>
                    );
                  })}
                </ul>
              </fieldset>
            )}
          </div>

          <div className="mt-10 flex flex-col-reverse items-stretch gap-4 border-t border-line pt-6 sm:flex-row sm:items-center sm:justify-between">
            <p className="text-body text-muted" aria-live="polite">
              {selected.length === 0
                ? 'Pick at least one genre to continue.'
                : `${selected.length} ${selected.length === 1 ? 'genre' : 'genres'} selected`}
            </p>
            <Button size="lg" onClick={() => void save()} loading={saving} disabled={selected.length === 0}>
              {firstTime ? 'Continue' : 'Save genres'}
            </Button>
          </div>
        </div>
      </main>
    </div>
  );
}
