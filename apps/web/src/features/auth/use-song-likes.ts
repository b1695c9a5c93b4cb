import { useCallback } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { selectLikedSongIds } from './auth.selectors';
import { toggleLikedSong } from './auth.thunks';
import type { AuthState } from './auth.types';

type AuthDispatch = ThunkDispatch<{ auth: AuthState }, unknown, UnknownAction>;

/** The signed-in user's liked song ids and a toggle (PUT /users/likedsong/:id; the toast shows the server's text). */
export function useSongLikes() {
  const dispatch = useDispatch<AuthDispatch>();
  const likedIds = useSelector((state: { auth: AuthState }) => selectLikedSongIds(state));
  const toggleLike = useCallback(
    (song: { _id: string }) => {
      void dispatch(toggleLikedSong(song._id));
    },
    [dispatch],
  );
  return { likedIds, toggleLike };
}
