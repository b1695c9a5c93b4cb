import type { FormEvent } from 'react';
import { Save, Upload } from 'lucide-react';
import { Link } from 'react-router';
import { Button, FormAlert, TextField, buttonClasses } from '../../../components/ui';
import { useGetAllArtistAlbumsQuery } from '../studio.api';
import { buildSongForm, songFormValues } from '../studio.forms';
import type { AccessType, Artist, FormMode, Song, SongField, SongFormValues } from '../studio.types';
import { AUDIO_ACCEPT, IMAGE_ACCEPT, SONG_FIELD_LABELS, validateSongForm } from '../studio.validation';
import { useStudioForm } from '../use-studio-form';
import { FileField, SelectField } from './form-fields';
import { GenreInput } from './genre-input';
import { UploadProgressList } from './upload-progress';

const ACCESS_OPTIONS: ReadonlyArray<{ value: AccessType; label: string }> = [
  { value: 'subscription', label: 'Subscribers of the artist' },
  { value: 'purchase-only', label: 'Buyers only (purchase-only)' },
];

export interface SongFormProps {
  mode: FormMode;
  song: Song | null;
  /** The artists this account may upload for; an artist account has its own profile only. */
  artists: Artist[];
  defaultArtistId: string;
  /** Called with the saved song (status 'processing' after a new audio file). */
  onSaved: (song: Song, sentAudio: boolean) => void;
}

/** Upload a song or edit one (SPEC section 3 fields), with per-file upload progress. */
export function SongForm({ mode, song, artists, defaultArtistId, onSaved }: SongFormProps) {
  const form = useStudioForm<'song', SongFormValues, SongField>({
    entity: 'song',
    mode,
    initial: songFormValues(song, defaultArtistId),
    validate: (values) => validateSongForm(values, mode),
    labels: SONG_FIELD_LABELS,
  });
  const { values, setField, errors, upload } = form;
  const albums = useGetAllArtistAlbumsQuery(values.artist, { skip: !values.artist });
  const chooseArtist = artists.length > 1;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const artistMissing =
      chooseArtist && !values.artist ? { artist: 'Choose the artist this song belongs to' } : {};
    const answer = await form.submit(buildSongForm, song?._id, artistMissing);
    if (!answer) return;
    const sentAudio = Boolean(values.audio);
    // Files were sent; clear them so a second save does not upload them again.
    form.reset({ ...values, audio: null, coverImage: null });
    onSaved(answer.song, sentAudio);
  }

  return (
    <form
      ref={form.formRef}
      noValidate
      aria-label={mode === 'create' ? 'Upload a song' : 'Edit song'}
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
        <TextField
          label="Singer"
          name="singer"
          maxLength={200}
          value={values.singer}
          onChange={(event) => setField('singer', event.target.value)}
          error={errors.singer}
          hint="Leave empty to credit the artist."
        />
        {chooseArtist ? (
          <SelectField
            label="Artist"
            name="artist"
            required
            value={values.artist}
            onChange={(event) => {
              setField('artist', event.target.value);
              setField('album', '');
            }}
            error={errors.artist}
            options={[
              { value: '', label: 'Choose an artist' },
              ...artists.map((artist) => ({ value: artist._id, label: artist.name })),
            ]}
          />
        ) : null}
        <SelectField
          label="Album"
          name="album"
          value={values.album}
          onChange={(event) => setField('album', event.target.value)}
          error={errors.album}
          disabled={!values.artist || albums.isFetching}
          hint={albums.isError ? 'The albums could not be loaded.' : 'Optional.'}
          options={[
            { value: '', label: 'No album (single)' },
            ...(albums.data ?? []).map((album) => ({ value: album._id, label: album.title })),
            // Keep the current album selectable while the list loads.
            ...(song?.album && !albums.data?.some((album) => album._id === song.album?._id)
              ? [{ value: song.album._id, label: song.album.title }]
              : []),
          ]}
        />
        <SelectField
          label="Who can play it"
          name="accessType"
          value={values.accessType}
          onChange={(event) => setField('accessType', event.target.value as AccessType)}
          error={errors.accessType}
          options={ACCESS_OPTIONS}
        />
        <TextField
          label="Price"
          name="price"
          inputMode="decimal"
          autoComplete="off"
          value={values.price}
          onChange={(event) => setField('price', event.target.value)}
          error={errors.price}
          hint="In your currency, e.g. 1.99. 0 means it is not sold on its own."
        />
        <GenreInput
          value={values.genre}
          onChange={(genre) => setField('genre', genre)}
          error={errors.genre}
        />
      </div>
      <div className="grid gap-5 md:grid-cols-2">
        <FileField
          label="Audio file"
          name="audio"
          kind="audio"
          accept={AUDIO_ACCEPT}
          required={mode === 'create'}
          file={values.audio}
          onChange={(file) => setField('audio', file)}
          error={errors.audio}
          disabled={upload.uploading}
          hint={
            mode === 'create'
              ? 'MP3, AAC, M4A, WAV, FLAC, OGG, AIFF or WebM, up to 200 MB.'
              : 'Leave empty to keep the current audio; a new file is processed again.'
          }
        />
        <FileField
          label="Cover"
          name="coverImage"
          kind="image"
          accept={IMAGE_ACCEPT}
          file={values.coverImage}
          onChange={(file) => setField('coverImage', file)}
          error={errors.coverImage}
          currentImage={song?.coverImage}
          disabled={upload.uploading}
          hint="JPEG, PNG, WebP, GIF or AVIF, up to 10 MB. Without one, the album cover is shown."
        />
      </div>
      {upload.uploading ? (
        <UploadProgressList
          progress={upload.progress}
          files={[
            { field: 'audio', label: 'Audio', file: values.audio },
            { field: 'coverImage', label: 'Cover', file: values.coverImage },
          ]}
        />
      ) : null}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Link to="/studio" className={buttonClasses({ variant: 'secondary' })}>
          Cancel
        </Link>
        <Button
          type="submit"
          loading={upload.uploading}
          icon={
            mode === 'create' ? (
              <Upload size={18} strokeWidth={1.75} aria-hidden="true" />
            ) : (
              <Save size={18} strokeWidth={1.75} aria-hidden="true" />
            )
          }
        >
          {mode === 'create' ? 'Upload song' : 'Save changes'}
        </Button>
      </div>
    </form>
  );
}
