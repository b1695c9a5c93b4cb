import { useState } from 'react';
import { LogOut } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '../app/hooks';
import { takeReturnPath } from '../app/return-to';
import { Button, Logo } from '../components/ui';
import { logout, selectUser, updateGenres } from '../features/auth';
import { GenrePicker } from '../features/catalog';

export default function GenresPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const user = useAppSelector(selectUser);
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
            <GenrePicker selected={selected} onToggle={toggle} />
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
