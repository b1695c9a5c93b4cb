import { useDispatch, useSelector } from 'react-redux';
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import type { User } from '@backbeat/contract';
import type { AuthState } from '../auth.types';

type AuthDispatch = ThunkDispatch<{ auth: AuthState }, unknown, UnknownAction>;

/** The settings forms' view of the store: the signed-in user and a dispatch (features do not import app/). */
export function useAuthStore(): { user: User | null; dispatch: AuthDispatch } {
  const dispatch = useDispatch<AuthDispatch>();
  const user = useSelector((state: { auth: AuthState }) => state.auth.user);
  return { user, dispatch };
}
