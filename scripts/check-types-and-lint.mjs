// One type check for the whole repository, shared with the type-aware lint.
//
// `npm run typecheck` (tsc per workspace) and `npm run lint` (typescript-eslint's project service) each build the
// TypeScript programs of every workspace: CI paid for the type check twice. Here each workspace's program is built
// once, its diagnostics are reported as tsc reports them, and ESLint lints with those same programs
// (typescript-eslint's `parserOptions.programs`), so the type information is computed once.
//
// Exit code: 1 when there is a type error or a lint error (warnings are printed, as `eslint .` prints them).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import ts from 'typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { workspaces } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

const host = {
  getCanonicalFileName: (name) => name,
  getCurrentDirectory: () => root,
  getNewLine: () => '\n',
};

let typeErrors = 0;
const programs = [];
for (const workspace of workspaces) {
  const dir = path.join(root, workspace);
  const configPath = path.join(dir, 'tsconfig.json');
  const read = ts.readConfigFile(configPath, ts.sys.readFile);
  if (read.error) throw new Error(ts.formatDiagnostic(read.error, host));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, dir, undefined, configPath);
  const started = Date.now();
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: { ...parsed.options, noEmit: true },
    projectReferences: parsed.projectReferences,
  });
  const diagnostics = [...parsed.errors, ...ts.getPreEmitDiagnostics(program)];
  const errors = diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error).length;
  typeErrors += errors;
  if (diagnostics.length > 0)
    process.stdout.write(ts.formatDiagnosticsWithColorAndContext(diagnostics, host));
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`types  ${workspace}: ${errors} error(s), ${parsed.fileNames.length} files, ${seconds} s`);
  programs.push(program);
}

const started = Date.now();
const eslint = new ESLint({
  cwd: root,
  overrideConfig: [
    {
      files: ['**/*.{ts,tsx}'],
      languageOptions: { parserOptions: { projectService: false, project: null, programs } },
    },
  ],
});
const results = await eslint.lintFiles(['.']);
const formatter = await eslint.loadFormatter('stylish');
const output = await formatter.format(results);
if (output) console.log(output);
const lintErrors = results.reduce((sum, result) => sum + result.errorCount + result.fatalErrorCount, 0);
const seconds = ((Date.now() - started) / 1000).toFixed(1);
console.log(`lint   ${results.length} files: ${lintErrors} error(s), ${seconds} s`);

process.exitCode = typeErrors > 0 || lintErrors > 0 ? 1 : 0;
