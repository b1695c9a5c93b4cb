import { describe, expect, it } from 'vitest';
import {
  albumFormValues,
  artistFormValues,
  buildAlbumForm,
  buildArtistForm,
  buildSongForm,
  songFormValues,
} from './studio.forms';
import {
  ALBUM_FIELD_LABELS,
  SONG_FIELD_LABELS,
  checkPreviewStart,
  checkPrice,
  clockText,
  hasErrors,
  minorToPrice,
  priceToMinor,
  serverFieldErrors,
  validateAlbumForm,
  validateArtistForm,
  validateSongForm,
} from './studio.validation';

const audio = (size = 2048, name = 'take.wav', type = 'audio/wav') =>
  new File([new Uint8Array(size)], name, { type });
const image = (name = 'cover.png', type = 'image/png') => new File([new Uint8Array(64)], name, { type });

/** A File whose size is reported without allocating it. */
function sized(file: File, size: number): File {
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

describe('price fields', () => {
  it.each(['', '0', '1', '1.9', '1.99', '1000', '1000.00', '  2.50 '])('accepts %j', (value) => {
    expect(checkPrice('Price', value)).toBeUndefined();
  });

  it.each(['abc', '1.999', '-1', '1,99', '12345', '.5'])('refuses %j as a format error', (value) => {
    expect(checkPrice('Price', value)).toBe('Price must be an amount such as 1.99 (at most two decimals)');
  });

  it('refuses more than 1000.00', () => {
    expect(checkPrice('Price', '1000.01')).toBe('Price must be at most 1000.00');
  });

  it('converts between decimal strings and minor units like the server', () => {
    expect(priceToMinor('1.9')).toBe(190);
    expect(priceToMinor('12')).toBe(1200);
    expect(minorToPrice(199)).toBe('1.99');
    expect(minorToPrice(0)).toBe('0.00');
  });
});

describe('validateSongForm', () => {
  const valid = { ...songFormValues(null, 'artist-1'), title: 'Night Drive', audio: audio() };

  it('passes a complete upload', () => {
    expect(validateSongForm(valid, 'create')).toEqual({});
  });

  it('requires a title and, on create, an audio file', () => {
    const errors = validateSongForm({ ...valid, title: '   ', audio: null }, 'create');
    expect(errors).toEqual({ title: 'Title is required', audio: 'Choose an audio file' });
    expect(hasErrors(errors)).toBe(true);
  });

  it('keeps the current audio on edit when no file is chosen', () => {
    expect(validateSongForm({ ...valid, audio: null }, 'edit')).toEqual({});
  });

  it('limits text lengths, the genre and the price', () => {
    const errors = validateSongForm(
      { ...valid, title: 'x'.repeat(201), singer: 'y'.repeat(201), genre: '!!!', price: '9.999' },
      'create',
    );
    expect(errors).toEqual({
      title: 'Title must be at most 200 characters',
      singer: 'Singer must be at most 200 characters',
      genre: 'Genre must contain letters or digits',
      price: 'Price must be an amount such as 1.99 (at most two decimals)',
    });
  });

  it('checks the audio file type, emptiness and size limit', () => {
    expect(validateSongForm({ ...valid, audio: audio(10, 'notes.txt', 'text/plain') }, 'create').audio).toBe(
      'Choose an audio file (MP3, AAC, M4A, WAV, FLAC, OGG, AIFF or WebM)',
    );
    // Some systems give no type; the name decides then.
    expect(validateSongForm({ ...valid, audio: audio(10, 'take.flac', '') }, 'create')).toEqual({});
    expect(validateSongForm({ ...valid, audio: audio(0) }, 'create').audio).toBe('The audio file is empty');
    expect(validateSongForm({ ...valid, audio: sized(audio(), 200 * 1024 * 1024 + 1) }, 'create').audio).toBe(
      'The audio file must be at most 200 MB',
    );
  });

  it('checks the cover image', () => {
    expect(
      validateSongForm({ ...valid, coverImage: image('c.svg', 'image/svg+xml') }, 'create').coverImage,
    ).toBe('The cover must be a JPEG, PNG, WebP, GIF or AVIF image');
    expect(
      validateSongForm({ ...valid, coverImage: sized(image(), 10 * 1024 * 1024 + 1) }, 'create').coverImage,
    ).toBe('The cover must be at most 10 MB');
  });
});

describe('validateAlbumForm and validateArtistForm', () => {
  it('requires an album title and refuses a song listed twice', () => {
    const values = { ...albumFormValues(null), songs: ['s1', '', 's1'] };
    expect(validateAlbumForm(values)).toEqual({
      title: 'Title is required',
      songs: 'A song is listed twice',
    });
  });

  it('ignores the empty song entry the form starts with', () => {
    expect(validateAlbumForm({ ...albumFormValues(null), title: 'Blue Hours' })).toEqual({});
  });

  it('requires an artist name and checks the subscription price', () => {
    expect(validateArtistForm({ ...artistFormValues(null), subscriptionPrice: 'free' })).toEqual({
      name: 'Name is required',
      subscriptionPrice: 'Subscription price must be an amount such as 1.99 (at most two decimals)',
    });
  });
});

describe('serverFieldErrors', () => {
  it("puts a field's message on that field, read with its label", () => {
    expect(serverFieldErrors('price: must be at most 1000.00', SONG_FIELD_LABELS)).toEqual({
      price: 'Price must be at most 1000.00',
    });
    expect(serverFieldErrors('audio: the file is not audio (MP3, ...)', SONG_FIELD_LABELS)).toEqual({
      audio: 'The file is not audio (MP3, ...)',
    });
  });

  it('maps list items to their field', () => {
    expect(serverFieldErrors('songs.0: Invalid id', ALBUM_FIELD_LABELS)).toEqual({ songs: 'Invalid id' });
  });

  it('keeps other messages for the whole form', () => {
    expect(serverFieldErrors('Create your artist profile first', SONG_FIELD_LABELS)).toEqual({
      form: 'Create your artist profile first',
    });
    expect(serverFieldErrors('mystery: is odd', SONG_FIELD_LABELS)).toEqual({ form: 'mystery: is odd' });
  });
});

describe('preview start', () => {
  it('accepts seconds, m:ss or nothing, inside the song when its length is known', () => {
    expect(checkPreviewStart('', 200)).toBeUndefined();
    expect(checkPreviewStart('45', 200)).toBeUndefined();
    expect(checkPreviewStart('1:05.5', 200)).toBeUndefined();
    expect(checkPreviewStart('3:20', 200)).toBe('Preview start must be within the song (before 3:20)');
    expect(checkPreviewStart('3:20', null)).toBeUndefined();
    expect(checkPreviewStart('soon', null)).toBe('Preview start must be a time such as 45 or 1:05');
    expect(checkPreviewStart('1:75', null)).toBe('Preview start must be a time such as 45 or 1:05');
  });

  it('shows a stored start as m:ss', () => {
    expect(clockText(30)).toBe('0:30');
    expect(clockText(65.5)).toBe('1:05.5');
    expect(clockText(600)).toBe('10:00');
  });
});

describe('form bodies', () => {
  it('sends song text fields first and files last, trimmed, with 0 for an empty price', () => {
    const cover = image();
    const take = audio();
    const form = buildSongForm({
      ...songFormValues(null, 'artist-1'),
      title: ' Night Drive ',
      price: '',
      audio: take,
      coverImage: cover,
    });
    expect([...form.keys()]).toEqual([
      'title',
      'singer',
      'genre',
      'accessType',
      'freeToStream',
      'price',
      'album',
      'artist',
      'previewStart',
      'audio',
      'coverImage',
    ]);
    expect(form.get('title')).toBe('Night Drive');
    expect(form.get('previewStart')).toBe('');
    expect(form.get('price')).toBe('0');
    expect(form.get('accessType')).toBe('subscription');
    expect(form.get('freeToStream')).toBe('false');
    expect((form.get('audio') as File).name).toBe('take.wav');
  });

  it('leaves the artist out for an artist account and the files out when none is chosen', () => {
    const form = buildSongForm({ ...songFormValues(null), title: 'x' });
    expect(form.has('artist')).toBe(false);
    expect(form.has('audio')).toBe(false);
    expect(form.has('coverImage')).toBe(false);
  });

  it('sends the album songs as one JSON list without empty entries', () => {
    const values = { ...albumFormValues(null, [], 'artist-1'), title: 'Blue Hours', songs: ['s1', '', 's2'] };
    const form = buildAlbumForm(values, 'create');
    expect(form.get('songs')).toBe('["s1","s2"]');
    expect(form.get('artist')).toBe('artist-1');
    expect(form.get('isPremium')).toBe('false');
  });

  it('on album edit sends the songs only when the list changed, and never the artist', () => {
    const values = { ...albumFormValues(null, ['s1', 's2'], 'artist-1'), title: 'Blue Hours' };
    expect(buildAlbumForm(values, 'edit', ['s1', 's2']).has('songs')).toBe(false);
    expect(buildAlbumForm(values, 'edit', ['s1', 's2']).has('artist')).toBe(false);
    expect(buildAlbumForm({ ...values, songs: [''] }, 'edit', ['s1', 's2']).get('songs')).toBe('[]');
  });

  it('starts the album songs with one empty entry', () => {
    expect(albumFormValues(null).songs).toEqual(['']);
  });

  it('sends the artist owner only for admins', () => {
    const values = { ...artistFormValues(null), name: 'Nova', ownerId: 'user-9' };
    expect(buildArtistForm(values, { includeOwner: false }).has('ownerId')).toBe(false);
    expect(buildArtistForm(values, { includeOwner: true }).get('ownerId')).toBe('user-9');
  });
});
