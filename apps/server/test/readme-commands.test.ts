import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';

/**
 * The README's "with real keys" commands, as a newcomer would type them (placeholders filled in), must give a
 * configuration the server starts with, not a refusal at start-up.
 */
const readme = readFileSync(path.join(import.meta.dirname, '../../../README.md'), 'utf8');
const section = readme.slice(
  readme.indexOf('**With real keys'),
  readme.indexOf('Register these webhook endpoints'),
);
const commands = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);

/** The `NAME=value` words of a shell command, with the README's placeholders filled in. */
function environmentOf(command: string): Record<string, string> {
  const words = command
    .replace(/\\\n/g, ' ')
    .replace(/\$\(openssl rand -base64 48\)/g, 'x'.repeat(64))
    .split(/\s+/);
  const env: Record<string, string> = {};
  for (const word of words) {
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(word);
    if (match)
      env[match[1]!] = match[2]!.replace(/\.\.\.$/, 'placeholder').replace(/^\.\.\.$/, 'placeholder');
  }
  return env;
}

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe("README's commands with real keys", () => {
  it('are there (one for a local machine, one for a server the providers reach)', () => {
    expect(commands).toHaveLength(2);
  });

  it.each(commands.map((command, index) => [index, command] as const))(
    'command %i starts with its gateways configured',
    (_index, command) => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'backbeat-readme-'));
      dirs.push(dataDir);
      const env = { ...environmentOf(command), DATA_DIR: dataDir };
      const config = loadConfig(env);
      expect(config.payments.stripe?.secretKey).toBe('sk_test_placeholder');
      expect(config.payments.razorpay?.keyId).toBe('rzp_test_placeholder');
      expect(config.payments.paypal?.environment).toBe('sandbox');
      expect(config.payments.emulator).toBeFalsy();
    },
  );
});
