export * from './common';
export * from './auth';
export * from './catalog';
export * from './dashboard';
export * from './dashboard-analytics';
export * from './playlists';
export * from './streaming';
export * from './payments';
