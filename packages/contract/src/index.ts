export * from './common';
export * from './auth';
export * from './catalog';
export * from './dashboard';
export * from './playlists';
export * from './streaming';
export * from './payments';
