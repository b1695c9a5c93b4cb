import analyze from './vite.analyze.config.ts';
const groups = JSON.parse(process.env.CHUNK_GROUPS ?? '[]').map((g: any) => ({ ...g, test: g.test ? new RegExp(g.test) : undefined }));
export default {
  ...analyze,
  build: {
    ...analyze.build,
    rolldownOptions: { output: { codeSplitting: { groups } } },
  },
};
