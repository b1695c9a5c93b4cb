import type { StudioEntity } from './studio.api';

/**
 * Toast texts. Song successes are SPEC section 4's, word for word; failures show the server's message first and
 * else SPEC section 8's fallbacks.
 */
export const STUDIO_MESSAGES: Record<
  StudioEntity,
  {
    created: string;
    updated: string;
    deleted: string;
    createFailed: string;
    updateFailed: string;
    deleteFailed: string;
  }
> = {
  song: {
    created: 'Song created successfully',
    updated: 'Song updated successfully',
    deleted: 'Song deleted successfully',
    createFailed: 'Create song failed',
    updateFailed: 'Update song failed',
    deleteFailed: 'Delete song failed',
  },
  album: {
    created: 'Album created successfully',
    updated: 'Album updated successfully',
    deleted: 'Album deleted successfully',
    createFailed: 'Failed to create album',
    updateFailed: 'Failed to update album',
    deleteFailed: 'Failed to delete album',
  },
  artist: {
    created: 'Artist created successfully',
    updated: 'Artist updated successfully',
    deleted: 'Artist deleted successfully',
    createFailed: 'Failed to create artist',
    updateFailed: 'Failed to update artist',
    deleteFailed: 'Failed to delete artist',
  },
};

/** The forms' accessible names and their submit button when creating (an edit is saved with "Save changes"). */
export const STUDIO_FORM_TEXTS: Record<StudioEntity, { create: string; edit: string; createSubmit: string }> =
  {
    song: { create: 'Upload a song', edit: 'Edit song', createSubmit: 'Upload song' },
    album: { create: 'Create an album', edit: 'Edit album', createSubmit: 'Create album' },
    artist: {
      create: 'Create an artist profile',
      edit: 'Edit artist profile',
      createSubmit: 'Create profile',
    },
  };
