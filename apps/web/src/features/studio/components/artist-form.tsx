import { TextField } from '../../../components/ui';
import { artistFormValues, buildArtistForm } from '../studio.forms';
import type { Artist, ArtistField, ArtistFormValues, FormMode } from '../studio.types';
import { ARTIST_FIELD_LABELS, IMAGE_ACCEPT, validateArtistForm } from '../studio.validation';
import { useStudioForm } from '../use-studio-form';
import { CheckboxField, FileField, TextAreaField } from './form-fields';
import { GenreInput } from './genre-input';
import { FormGrid, StudioFormShell, textField } from './studio-form-shell';

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

  async function onSubmit() {
    const answer = await form.submit(
      (current) => buildArtistForm(current, { includeOwner: canSetOwner }),
      artist?._id,
    );
    if (!answer) return;
    form.reset({ ...values, image: null });
    onSaved(answer.artist);
  }

  return (
    <StudioFormShell
      form={form}
      label={mode === 'create' ? 'Create an artist profile' : 'Edit artist profile'}
      onSubmit={onSubmit}
      submitLabel={mode === 'create' ? 'Create profile' : 'Save changes'}
      files={[{ field: 'image', label: 'Image', file: values.image }]}
    >
      <FormGrid>
        <TextField label="Name" required maxLength={200} {...textField(form, 'name')} />
        <GenreInput
          value={values.genre}
          onChange={(genre) => setField('genre', genre)}
          error={errors.genre}
        />
        <TextAreaField label="Bio" maxLength={5000} {...textField(form, 'bio')} className="md:col-span-2" />
        <TextField
          label="Subscription price"
          inputMode="decimal"
          autoComplete="off"
          {...textField(form, 'subscriptionPrice')}
          hint="Per month, e.g. 4.99. Subscribers play every song marked for subscribers."
        />
        <CheckboxField
          name="allowSubscriberDownloads"
          label="Subscribers may download"
          description="Let active subscribers download your subscription songs as MP3 (and FLAC when lossless). Buyers can always download what they bought."
          checked={values.allowSubscriberDownloads}
          onChange={(checked) => setField('allowSubscriberDownloads', checked)}
        />
        {canSetOwner ? (
          <TextField
            label="Managing account"
            autoComplete="off"
            spellCheck={false}
            {...textField(form, 'ownerId')}
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
      </FormGrid>
    </StudioFormShell>
  );
}
