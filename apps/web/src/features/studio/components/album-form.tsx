import { TextField } from '../../../components/ui';
import { useGetAllArtistSongsQuery } from '../studio.api';
import { albumFormValues, buildAlbumForm } from '../studio.forms';
import type { Album, AlbumField, AlbumFormValues, Artist, FormMode } from '../studio.types';
import { ALBUM_FIELD_LABELS, validateAlbumForm } from '../studio.validation';
import { useStudioForm } from '../use-studio-form';
import { AlbumSongsField } from './album-songs-field';
import { artistField, checkboxField, decimalField, fileField, textField } from './field-bindings';
import { ArtistSelect, CheckboxField, ImageField, TextAreaField } from './form-fields';
import { GenreInput } from './genre-input';
import { FormGrid, StudioFormShell } from './studio-form-shell';

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
  const { values, setField, errors } = form;
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
      onSubmit={onSubmit}
      files={[{ field: 'cover', label: 'Cover', file: values.cover }]}
    >
      <FormGrid>
        <TextField label="Title" required maxLength={200} {...textField(form, 'title')} />
        {chooseArtist ? (
          <ArtistSelect artists={artists} {...artistField(form, 'songs', [''])} />
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
        <GenreInput {...textField(form, 'genre')} />
        <TextField
          label="Price"
          {...decimalField(form, 'price')}
          hint="The price of the whole album, e.g. 9.99."
        />
        <div className="md:col-span-2">
          <CheckboxField
            label="Premium album"
            description="Its songs play only for people who bought the album."
            {...checkboxField(form, 'isPremium')}
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
        <ImageField label="Cover" {...fileField(form, 'cover')} currentImage={album?.cover} />
      </FormGrid>
    </StudioFormShell>
  );
}
