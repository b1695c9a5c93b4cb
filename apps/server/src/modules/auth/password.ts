import { hash, verify, type Algorithm } from '@node-rs/argon2';

// `Algorithm` is an ambient const enum, which isolatedModules cannot read; 2 is Algorithm.Argon2id.
const ARGON2ID = 2 as Algorithm;
// OWASP's argon2id baseline (19 MiB, 2 passes, 1 lane), which are also the library's defaults, made explicit.
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false; // A malformed stored hash never signs anyone in.
  }
}

let dummyHash: Promise<string> | undefined;

/** Spends the same time as a real verification, so an unknown e-mail cannot be told apart by timing. */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword('backbeat-timing-equaliser');
  await verifyPassword(await dummyHash, password);
  return false;
}
