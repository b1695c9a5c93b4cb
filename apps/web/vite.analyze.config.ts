import base from './vite.config.ts';
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { transformSync } from 'esbuild';
export default {
  ...base,
  build: { ...base.build, outDir: '/tmp/analyze-dist' },
  plugins: [
    ...(base.plugins ?? []),
    {
      name: 'graph',
      generateBundle(_o: unknown, bundle: Record<string, any>) {
        const out: Record<string, unknown> = {};
        for (const [file, chunk] of Object.entries(bundle)) {
          if (chunk.type !== 'chunk') continue;
          out[file] = {
            isEntry: chunk.isEntry,
            imports: chunk.imports,
            dynamicImports: chunk.dynamicImports,
            modules: Object.entries(chunk.modules).map(([id, m]: [string, any]) => {
              let gz = 0;
              try { gz = m.code ? gzipSync(transformSync(m.code, { minify: true, loader: 'js' }).code, { level: 9 }).length : 0; } catch { gz = -1; }
              return [id.replace(/.*node_modules\//, 'nm:').replace(/.*apps\/web\//, ''), m.renderedLength, gz];
            }).sort((a: any, b: any) => b[2] - a[2]),
          };
        }
        writeFileSync('/tmp/graph.json', JSON.stringify(out, null, 1));
      },
    },
  ],
};
