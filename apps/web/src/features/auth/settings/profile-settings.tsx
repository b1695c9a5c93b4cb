import { useRef, useState, type FormEvent } from 'react';
import { ImageUp, Trash2 } from 'lucide-react';
import { toast } from '../../../lib/toast';
import { Button, FormAlert, TextField } from '../../../components/ui';
import { errorText } from '../../../lib/api';
import { authRequests } from '../auth.requests';
import { userUpdated } from '../auth.slice';
import { validateName } from '../auth.validation';
import { SettingsCard } from './settings-card';
import { useAuthStore } from './use-auth-store';

const IMAGE_ACCEPT = 'image/jpeg,image/png,image/webp,image/gif,image/avif';

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters =
    parts.length > 1 ? `${parts[0]?.[0] ?? ''}${parts.at(-1)?.[0] ?? ''}` : (parts[0]?.slice(0, 2) ?? '?');
  return letters.toUpperCase();
}

/** The name and the profile picture (uploaded through the server's image pipeline). */
export function ProfileSettings() {
  const { user, dispatch } = useAuthStore();
  const [name, setName] = useState(user?.name ?? '');
  const [nameError, setNameError] = useState<string | null>(null);
  const [savingName, setSavingName] = useState(false);
  const [pictureBusy, setPictureBusy] = useState(false);
  const [pictureError, setPictureError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  if (!user) return null;

  async function saveName(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = validateName(name);
    setNameError(problem);
    if (problem) return;
    setSavingName(true);
    try {
      const answer = await authRequests.rename(name.trim());
      dispatch(userUpdated(answer.user));
      setName(answer.user.name);
      toast.success(answer.message, { id: 'settings' });
    } catch (failure) {
      setNameError(errorText(failure, 'Your name could not be saved'));
    } finally {
      setSavingName(false);
    }
  }

  async function changePicture(change: () => ReturnType<typeof authRequests.removeAvatar>) {
    setPictureBusy(true);
    setPictureError(null);
    try {
      const answer = await change();
      dispatch(userUpdated(answer.user));
      toast.success(answer.message, { id: 'settings' });
    } catch (failure) {
      setPictureError(errorText(failure, 'The picture could not be saved'));
    } finally {
      setPictureBusy(false);
      if (fileInput.current) fileInput.current.value = '';
    }
  }

  return (
    <SettingsCard id="settings-profile" title="Profile" description="How you appear in Backbeat.">
      <div className="flex flex-col gap-6 sm:flex-row sm:items-start">
        <div className="flex items-center gap-4 sm:flex-col sm:items-center">
          {user.profileImage ? (
            <img
              src={user.profileImage}
              alt="Your profile picture"
              width={96}
              height={96}
              className="size-24 shrink-0 rounded-pill border border-line object-cover"
            />
          ) : (
            <span
              aria-hidden="true"
              className="flex size-24 shrink-0 items-center justify-center rounded-pill bg-gradient-to-br from-accent to-accent-2 text-h3 font-bold text-bg"
            >
              {initials(user.name)}
            </span>
          )}
          <div className="flex flex-col gap-2">
            <input
              ref={fileInput}
              type="file"
              accept={IMAGE_ACCEPT}
              className="sr-only"
              id="settings-avatar"
              aria-label="Choose a profile picture"
              onChange={(event) => {
                const file = event.target.files?.[0];
                if (file) void changePicture(() => authRequests.uploadAvatar(file));
              }}
            />
            <Button
              variant="secondary"
              size="sm"
              loading={pictureBusy}
              icon={<ImageUp size={16} strokeWidth={1.75} aria-hidden="true" />}
              onClick={() => fileInput.current?.click()}
            >
              {user.profileImage ? 'Change picture' : 'Upload picture'}
            </Button>
            {user.profileImage ? (
              <Button
                variant="ghost"
                size="sm"
                disabled={pictureBusy}
                icon={<Trash2 size={16} strokeWidth={1.75} aria-hidden="true" />}
                onClick={() => void changePicture(() => authRequests.removeAvatar())}
              >
                Remove picture
              </Button>
            ) : null}
            <p className="max-w-40 text-meta text-muted">JPEG, PNG, WebP, GIF or AVIF, up to 10 MB.</p>
          </div>
        </div>
        <form
          noValidate
          onSubmit={(event) => void saveName(event)}
          className="flex min-w-0 flex-1 flex-col gap-4"
        >
          {pictureError ? <FormAlert>{pictureError}</FormAlert> : null}
          <TextField
            label="Name"
            name="name"
            autoComplete="name"
            maxLength={100}
            value={name}
            error={nameError}
            onChange={(event) => setName(event.target.value)}
          />
          <Button
            type="submit"
            loading={savingName}
            disabled={name.trim() === user.name}
            className="self-start"
          >
            Save name
          </Button>
        </form>
      </div>
    </SettingsCard>
  );
}
