import type { FormEvent } from 'react';
import { Save } from 'lucide-react';
import { Link } from 'react-router';
import { Button, FormAlert, TextField, buttonClasses } from '../../../components/ui';
import { artistFormValues, buildArtistForm } from '../studio.forms';
import type { Artist, ArtistField, ArtistFormValues, FormMode } from '../studio.types';
import { ARTIST_FIELD_LABELS, IMAGE_ACCEPT, validateArtistForm } from '../studio.validation';
import { useStudioForm } from '../use-studio-form';
import { FileField, TextAreaField } from './form-fields';
import { GenreInput } from './genre-input';
import { UploadProgressList } from './upload-progress';

export interface ArtistFormProps {
  mode: FormMode;
  artist: Artist | null;
  /** Admins may name the artist account that manages the profile. */
  canSetOwner: boolean;
  onSaved: (artist: Artist) => void;
}

/** An artist profile: name, bio, genre, monthly subscription price, image. */
export function ArtistForm({ mode, artist, canSetOwner, onSaved }: ArtistFormProps) {
  const form = useStudioForm<'artist', ArtistFormValues, ArtistField>({
    entity: 'artist',
    mode,
    initial: artistFormValues(artist),
    validate: validateArtistForm,
    labels: ARTIST_FIELD_LABELS,
  });
  const { values, setField, errors, upload } = form;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const answer = await form.submit(
      (current) => buildArtistForm(current, { includeOwner: canSetOwner }),
      artist?._id,
    );
    if (!answer) return;
    form.reset({ ...values, image: null });
    onSaved(answer.artist);
  }

  return (
    <form
      ref={form.formRef}
      noValidate
      aria-label={mode === 'create' ? 'Create an artist profile' : 'Edit artist profile'}
      onSubmit={(event) => void onSubmit(event)}
      className="flex flex-col gap-6 rounded-card border border-line bg-surface p-4 md:p-6"
    >
      {errors.form ? <FormAlert>{errors.form}</FormAlert> : null}
      <div className="grid gap-5 md:grid-cols-2">
        <TextField
          label="Name"
          name="name"
          required
          maxLength={200}
          value={values.name}
          onChange={(event) => setField('name', event.target.value)}
          error={errors.name}
        />
        <GenreInput
          value={values.genre}
          onChange={(genre) => setField('genre', genre)}
          error={errors.genre}
        />
        <TextAreaField
          label="Bio"
          name="bio"
          maxLength={5000}
          value={values.bio}
          onChange={(event) => setField('bio', event.target.value)}
          error={errors.bio}
          className="md:col-span-2"
        />
        <TextField
          label="Subscription price"
          name="subscriptionPrice"
          inputMode="decimal"
          autoComplete="off"
          value={values.subscriptionPrice}
          onChange={(event) => setField('subscriptionPrice', event.target.value)}
          error={errors.subscriptionPrice}
          hint="Per month, e.g. 4.99. Subscribers play every song marked for subscribers."
        />
        {canSetOwner ? (
          <TextField
            label="Managing account"
            name="ownerId"
            autoComplete="off"
            spellCheck={false}
            value={values.ownerId}
            onChange={(event) => setField('ownerId', event.target.value)}
            error={errors.ownerId}
            hint="Optional: the id of the artist account that manages this profile."
          />
        ) : null}
        <FileField
          label="Image"
          name="image"
          kind="image"
          accept={IMAGE_ACCEPT}
          file={values.image}
          onChange={(file) => setField('image', file)}
          error={errors.image}
          currentImage={artist?.image}
          disabled={upload.uploading}
          hint="JPEG, PNG, WebP, GIF or AVIF, up to 10 MB."
          className="md:col-span-2"
        />
      </div>
      {upload.uploading ? (
        <UploadProgressList
          progress={upload.progress}
          files={[{ field: 'image', label: 'Image', file: values.image }]}
        />
      ) : null}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Link to="/studio" className={buttonClasses({ variant: 'secondary' })}>
          Cancel
        </Link>
        <Button
          type="submit"
          loading={upload.uploading}
          icon={<Save size={18} strokeWidth={1.75} aria-hidden="true" />}
        >
          {mode === 'create' ? 'Create profile' : 'Save changes'}
        </Button>
      </div>
    </form>
  );
}
