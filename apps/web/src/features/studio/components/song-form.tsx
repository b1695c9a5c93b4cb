import { Upload } from 'lucide-react';
import { TextField } from '../../../components/ui';
import { useGetAllArtistAlbumsQuery } from '../studio.api';
import { buildSongForm, songFormValues } from '../studio.forms';
import type { AccessType, Artist, FormMode, Song, SongField, SongFormValues } from '../studio.types';
import { AUDIO_ACCEPT, SONG_FIELD_LABELS, validateSongForm } from '../studio.validation';
import { useStudioForm } from '../use-studio-form';
import { artistField, checkboxField, decimalField, fileField, textField } from './field-bindings';
import { ArtistSelect, CheckboxField, FileField, ImageField, SelectField } from './form-fields';
import { GenreInput } from './genre-input';
import { FormGrid, StudioFormShell } from './studio-form-shell';

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
    validate: (values) => validateSongForm(values, mode, song?.status === 'ready' ? song.duration : null),
    labels: SONG_FIELD_LABELS,
  });
  const { values, setField, errors } = form;
  const albums = useGetAllArtistAlbumsQuery(values.artist, { skip: !values.artist });
  const chooseArtist = artists.length > 1;

  async function onSubmit() {
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
    <StudioFormShell
      form={form}
      onSubmit={onSubmit}
      createIcon={<Upload size={18} strokeWidth={1.75} aria-hidden="true" />}
      files={[
        { field: 'audio', label: 'Audio', file: values.audio },
        { field: 'coverImage', label: 'Cover', file: values.coverImage },
      ]}
    >
      <FormGrid>
        <TextField label="Title" required maxLength={200} {...textField(form, 'title')} />
        <TextField
          label="Singer"
          maxLength={200}
          {...textField(form, 'singer')}
          hint="Leave empty to credit the artist."
        />
        {chooseArtist ? <ArtistSelect artists={artists} {...artistField(form, 'album', '')} /> : null}
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
        <CheckboxField
          label="Free to stream"
          description="Anyone signed in can play the whole song. Listeners who buy it still get the download, and the money goes to you."
          {...checkboxField(form, 'freeToStream')}
        />
        <TextField
          label="Price"
          {...decimalField(form, 'price')}
          hint="In your currency, e.g. 1.99. 0 means it is not sold on its own."
        />
        <GenreInput {...textField(form, 'genre')} />
        <TextField
          label="Preview starts at"
          placeholder="0:30"
          {...decimalField(form, 'previewStart')}
          hint="Listeners who have not unlocked the song hear 30 seconds from here (seconds, or m:ss). Empty: 0:30."
        />
      </FormGrid>
      <FormGrid>
        <FileField
          label="Audio file"
          kind="audio"
          accept={AUDIO_ACCEPT}
          required={mode === 'create'}
          {...fileField(form, 'audio')}
          hint={
            mode === 'create'
              ? 'MP3, AAC, M4A, WAV, FLAC, OGG, AIFF or WebM, up to 200 MB.'
              : 'Leave empty to keep the current audio; a new file is processed again.'
          }
        />
        <ImageField
          label="Cover"
          {...fileField(form, 'coverImage')}
          currentImage={song?.coverImage}
          note="Without one, the album cover is shown."
        />
      </FormGrid>
    </StudioFormShell>
  );
}
