import type { FormEvent } from 'react';
import { Save } from 'lucide-react';
import { Link } from 'react-router';
import { Button, FormAlert, TextField, buttonClasses } from '../../../components/ui';
import { useGetAllArtistSongsQuery } from '../studio.api';
import { albumFormValues, buildAlbumForm } from '../studio.forms';
import type { Album, AlbumField, AlbumFormValues, Artist, FormMode } from '../studio.types';
import { ALBUM_FIELD_LABELS, IMAGE_ACCEPT, validateAlbumForm } from '../studio.validation';
import { useStudioForm } from '../use-studio-form';
import { AlbumSongsField } from './album-songs-field';
import { CheckboxField, FileField, SelectField, TextAreaField } from './form-fields';
import { GenreInput } from './genre-input';
import { UploadProgressList } from './upload-progress';

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

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
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
    <form
      ref={form.formRef}
      noValidate
      aria-label={mode === 'create' ? 'Create an album' : 'Edit album'}
      onSubmit={(event) => void onSubmit(event)}
      className="flex flex-col gap-6 rounded-card border border-line bg-surface p-4 md:p-6"
    >
      {errors.form ? <FormAlert>{errors.form}</FormAlert> : null}
      <div className="grid gap-5 md:grid-cols-2">
        <TextField
          label="Title"
          name="title"
          required
          maxLength={200}
          value={values.title}
          onChange={(event) => setField('title', event.target.value)}
          error={errors.title}
        />
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
          name="description"
          maxLength={5000}
          value={values.description}
          onChange={(event) => setField('description', event.target.value)}
          error={errors.description}
          className="md:col-span-2"
        />
        <GenreInput
          value={values.genre}
          onChange={(genre) => setField('genre', genre)}
          error={errors.genre}
        />
        <TextField
          label="Price"
          name="price"
          inputMode="decimal"
          autoComplete="off"
          value={values.price}
          onChange={(event) => setField('price', event.target.value)}
          error={errors.price}
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
      </div>
      <div className="grid gap-5 md:grid-cols-2">
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
      </div>
      {upload.uploading ? (
        <UploadProgressList
          progress={upload.progress}
          files={[{ field: 'cover', label: 'Cover', file: values.cover }]}
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
          {mode === 'create' ? 'Create album' : 'Save changes'}
        </Button>
      </div>
    </form>
  );
}
