import { TextField } from '../../../components/ui';
import { artistFormValues, buildArtistForm } from '../studio.forms';
import type { Artist, ArtistField, ArtistFormValues, FormMode } from '../studio.types';
import { ARTIST_FIELD_LABELS, validateArtistForm } from '../studio.validation';
import { useStudioForm } from '../use-studio-form';
import { checkboxField, decimalField, fileField, textField } from './field-bindings';
import { CheckboxField, ImageField, TextAreaField } from './form-fields';
import { GenreInput } from './genre-input';
import { FormGrid, StudioFormShell } from './studio-form-shell';

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
  const { values } = form;

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
      onSubmit={onSubmit}
      files={[{ field: 'image', label: 'Image', file: values.image }]}
    >
      <FormGrid>
        <TextField label="Name" required maxLength={200} {...textField(form, 'name')} />
        <GenreInput {...textField(form, 'genre')} />
        <TextAreaField label="Bio" maxLength={5000} {...textField(form, 'bio')} className="md:col-span-2" />
        <TextField
          label="Subscription price"
          {...decimalField(form, 'subscriptionPrice')}
          hint="Per month, e.g. 4.99. Subscribers play every song marked for subscribers."
        />
        <CheckboxField
          label="Subscribers may download"
          description="Let active subscribers download your subscription songs as MP3 (and FLAC when lossless). Buyers can always download what they bought."
          {...checkboxField(form, 'allowSubscriberDownloads')}
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
        <ImageField
          label="Image"
          {...fileField(form, 'image')}
          currentImage={artist?.image}
          className="md:col-span-2"
        />
      </FormGrid>
    </StudioFormShell>
  );
}
