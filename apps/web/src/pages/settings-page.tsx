import { useState } from 'react';
import { useAppDispatch, useAppSelector } from '../app/hooks';
import { Button, PageHeader } from '../components/ui';
import {
  DeleteAccountForm,
  EmailSettings,
  PasswordSettings,
  ProfileSettings,
  selectUser,
  updateGenres,
} from '../features/auth';
import { GenrePicker } from '../features/catalog';

/** Preferred genres with the existing call (PUT /users/update-genres); the toast is the SPEC's. */
function GenreSettings() {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);
  const saved = user?.preferredGenres ?? [];
  const [selected, setSelected] = useState<string[]>(saved);
  const [saving, setSaving] = useState(false);
  const changed = selected.length !== saved.length || selected.some((name) => !saved.includes(name));
  const toggle = (name: string) =>
    setSelected((current) =>
      current.includes(name) ? current.filter((item) => item !== name) : [...current, name],
    );
  return (
    <section
      aria-labelledby="settings-genres"
      className="rounded-card border border-line bg-surface p-5 md:p-6"
    >
      <h2 id="settings-genres" className="text-h4 font-semibold">
        Preferred genres
      </h2>
      <p className="mt-1 text-body text-muted">Your home screen is built from them. Choose at least one.</p>
      <div className="mt-5">
        <GenrePicker selected={selected} onToggle={toggle} size="sm" />
      </div>
      <div className="mt-5 flex flex-wrap items-center gap-3">
        <Button
          loading={saving}
          disabled={selected.length === 0 || !changed}
          onClick={() => {
            setSaving(true);
            void dispatch(updateGenres(selected)).finally(() => setSaving(false));
          }}
        >
          Save genres
        </Button>
        <span className="text-meta text-muted" aria-live="polite">
          {selected.length === 0
            ? 'Pick at least one genre.'
            : `${selected.length} ${selected.length === 1 ? 'genre' : 'genres'} selected`}
        </span>
      </div>
    </section>
  );
}

/** /settings: the signed-in person's account, one section per thing that can change. */
export default function SettingsPage() {
  return (
    <>
      <title>Settings · Backbeat</title>
      <PageHeader eyebrow="Account" title="Settings" description="Your profile, sign-in and taste." />
      <div className="flex max-w-3xl flex-col gap-6">
        <ProfileSettings />
        <EmailSettings />
        <PasswordSettings />
        <GenreSettings />
        <DeleteAccountForm />
      </div>
    </>
  );
}
