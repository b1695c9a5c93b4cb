import { TextField } from '../../../components/ui';
import { useGetAllArtistSongsQuery } from '../studio.api';
import { albumFormValues, buildAlbumForm } from '../studio.forms';
import type { Album, AlbumField, AlbumFormValues, Artist, FormMode } from '../studio.types';
import { ALBUM_FIELD_LABELS, IMAGE_ACCEPT, validateAlbumForm } from '../studio.validation';
import { useStudioForm } from '../use-studio-form';
import { AlbumSongsField } from './album-songs-field';
import { CheckboxField, FileField, SelectField, TextAreaField } from './form-fields';
import { GenreInput } from './genre-input';
import { FormGrid, StudioFormShell, textField } from './studio-form-shell';

export interface AlbumFormProps {
  mode: FormMode;
  album: Album | null;
  /** The album's current track ids (edit). */
  trackIds?: string[];
  artists: Artist[];
  defaultArtistId: string;
  onSaved: (album: Album) => void;
}

/** The album form of SPEC section 3. After a create the form resets (SPEC section 4). */
export function AlbumForm({ mode, album, trackIds = [], artists, defaultArtistId, onSaved }: AlbumFormProps) {
  const initial = albumFormValues(album, trackIds, defaultArtistId);
  const form = useStudioForm<'album', AlbumFormValues, AlbumField>({
    entity: 'album',
    mode,
    initial,
    validate: validateAlbumForm,
    labels: ALBUM_FIELD_LABELS,
  });
  const { values, setField, errors, upload } = form;
  const songs = useGetAllArtistSongsQuery(values.artist, { skip: !values.artist });
  const chooseArtist = mode === 'create' && artists.length > 1;

  async function onSubmit() {
    const artistMissing =
      chooseArtist && !values.artist ? { artist: 'Choose the artist this album belongs to' } : {};
    const answer = await form.submit(
      (current) => buildAlbumForm(current, mode, trackIds),
      album?._id,
      artistMissing,
    );
    if (!answer) return;
    if (mode === 'create') form.reset(albumFormValues(null, [], values.artist));
    else form.reset({ ...values, cover: null });
    onSaved(answer.album);
  }

  return (
    <StudioFormShell
      form={form}
      label={mode === 'create' ? 'Create an album' : 'Edit album'}
      onSubmit={onSubmit}
      submitLabel={mode === 'create' ? 'Create album' : 'Save changes'}
      files={[{ field: 'cover', label: 'Cover', file: values.cover }]}
    >
      <FormGrid>
        <TextField label="Title" required maxLength={200} {...textField(form, 'title')} />
        {chooseArtist ? (
          <SelectField
            label="Artist"
            name="artist"
            required
            value={values.artist}
            onChange={(event) => {
              setField('artist', event.target.value);
              setField('songs', ['']);
            }}
            error={errors.artist}
            options={[
              { value: '', label: 'Choose an artist' },
              ...artists.map((artist) => ({ value: artist._id, label: artist.name })),
            ]}
          />
        ) : (
          <TextField
            label="Artist"
            name="artistName"
            readOnly
            value={album?.artist.name ?? artists.find((artist) => artist._id === values.artist)?.name ?? ''}
            hint={mode === 'edit' ? 'An album stays with its artist.' : undefined}
          />
        )}
        <TextAreaField
          label="Description"
          maxLength={5000}
          {...textField(form, 'description')}
          className="md:col-span-2"
        />
        <GenreInput
          value={values.genre}
          onChange={(genre) => setField('genre', genre)}
          error={errors.genre}
        />
        <TextField
          label="Price"
          inputMode="decimal"
          autoComplete="off"
          {...textField(form, 'price')}
          hint="The price of the whole album, e.g. 9.99."
        />
        <div className="md:col-span-2">
          <CheckboxField
            name="isPremium"
            label="Premium album"
            description="Its songs play only for people who bought the album."
            checked={values.isPremium}
            onChange={(checked) => setField('isPremium', checked)}
          />
        </div>
      </FormGrid>
      <FormGrid>
        <AlbumSongsField
          entries={values.songs}
          songs={songs.data ?? []}
          onChange={(entries) => setField('songs', entries)}
          error={errors.songs}
          loading={songs.isFetching}
          disabled={!values.artist}
        />
        <FileField
          label="Cover"
          name="cover"
          kind="image"
          accept={IMAGE_ACCEPT}
          file={values.cover}
          onChange={(file) => setField('cover', file)}
          error={errors.cover}
          currentImage={album?.cover}
          disabled={upload.uploading}
          hint="JPEG, PNG, WebP, GIF or AVIF, up to 10 MB."
        />
      </FormGrid>
    </StudioFormShell>
  );
}
