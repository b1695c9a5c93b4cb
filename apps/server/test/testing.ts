/*
 * `@backbeat/server/testing`: the harness pieces the benches and browser journeys share with the server's tests:
 * a throwaway PostgreSQL cluster, free ports, the shipped nginx site, the readiness probe, and reading served audio
 * files back.
 */
export { probeAudioBytes, unzip, type ProbedAudio } from './audio-files';
export { startNginxSite, type RunningNginx } from './nginx-process';
export { freePort, startThrowawayCluster, type ThrowawayCluster } from './postgres-cluster';
export { servesCatalogue } from './server-ready';
