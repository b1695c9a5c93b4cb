/*
 * Over 400 lines on purpose: this is the one place that reads process.env (ARCHITECTURE: configuration), and the
 * schema of every setting, the checks that refuse unsafe combinations at start-up (production without Secure
 * cookies, live keys on a development start, a public NODE_ENV=test) and the typed config they produce are read
 * and reviewed together; split, a setting's rule and its refusal would sit in different files.
 */
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** Environment variables read by Backbeat. Nothing else in the server reads process.env. */
const boolish = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const optionalUrl = z.url({ error: 'must be a URL' }).optional();

const TRUST_PROXY_HINT =
  'must be false, a hop count, or a comma-separated list of proxy addresses or CIDR ranges (e.g. 10.0.0.0/8)';
/** The named ranges @fastify/proxy-addr understands besides addresses and CIDRs. */
const NAMED_PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (NAMED_PROXY_RANGES.has(entry)) return true;
  const [address = '', range, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (range === undefined) return true;
  if (/^\d{1,3}$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(range) === 4; // a netmask such as 255.255.0.0
}

/**
 * Which proxies may set X-Forwarded-For (and -Proto, -Host): none by default, in production too, so a client cannot
 * pick its own address for the rate limits. `true` (trust anyone) is refused for that reason.
 */
const trustProxy = z
  .string()
  .transform((value, ctx): false | number | string[] => {
    const text = value.trim().toLowerCase();
    if (text === 'false' || text === 'no' || text === '0') return false;
    if (/^\d+$/.test(text)) return Number(text);
    const entries = text.split(',').map((entry) => entry.trim());
    if (entries.every((entry) => entry && isProxyAddress(entry))) return entries;
    ctx.addIssue({ code: 'custom', message: TRUST_PROXY_HINT });
    return z.NEVER;
  })
  .optional();
const optionalText = z.string().min(1).optional();

/** A whole number of at least 1 (of `unit`, as its messages say), `fallback` when unset. */
const countAtLeastOne = (fallback: number, unit?: string) => {
  const wholeNumber = unit ? `must be a whole number of ${unit}` : 'must be a whole number';
  return z.coerce
    .number({ error: wholeNumber })
    .int(wholeNumber)
    .min(1, 'must be at least 1')
    .default(fallback);
};

const SEGMENT_BASE_HINT =
  'must be a path such as /media or an http(s) URL such as https://cdn.example.com/media (no query, no ..)';
/**
 * Where the encrypted segments are served from (nginx or a CDN in front of the media root): a same-origin path or
 * an absolute URL. The rewritten playlists point at `<base>/<media prefix>/seg_NNNN.ts`.
 */
const segmentBaseUrl = z
  .string()
  .transform((value, ctx) => {
    const text = value.trim().replace(/\/+$/, '');
    const isPath = /^\/[A-Za-z0-9._~/-]*$/.test(text) && !text.startsWith('//');
    let isUrl = false;
    if (!isPath) {
      try {
        const url = new URL(text);
        isUrl = (url.protocol === 'https:' || url.protocol === 'http:') && !url.search && !url.hash;
      } catch {
        isUrl = false;
      }
    }
    if ((isPath || isUrl) && !text.split('/').includes('..')) return text;
    ctx.addIssue({ code: 'custom', message: SEGMENT_BASE_HINT });
    return z.NEVER;
  })
  .optional();

const EnvSchema = z.object({
  // No default here: an unset NODE_ENV is development only where that is safe (see `environmentOf`).
  NODE_ENV: z
    .enum(['development', 'production', 'test'], { error: 'must be development, production or test' })
    .optional(),
  PORT: z.coerce
    .number({ error: 'must be a port number' })
    .int('must be a port number')
    .min(0, 'must be a port number')
    .max(65535, 'must be a port number')
    .default(3000),
  HOST: z.string().min(1).optional(),
  PUBLIC_URL: optionalUrl,
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { error: 'must be a postgres:// connection string' })
    .optional(),
  SECRET_KEY: z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SEED_DEMO: boolish.optional(),
  SEED_DEMO_WAIT: z.enum(['songs', 'all'], { error: 'must be songs or all' }).default('songs'),
  TRUST_PROXY: trustProxy,
  JOBS: z.enum(['inline', 'off'], { error: 'must be inline or off' }).default('inline'),
  SEGMENT_BASE_URL: segmentBaseUrl,
  MEDIA_STORE: z.enum(['local', 's3'], { error: 'must be local or s3' }).default('local'),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, {
      error: 'must be a bucket name (3-63 lowercase letters, digits, . or -)',
    })
    .optional(),
  S3_REGION: z.string().min(1).optional(),
  S3_ENDPOINT: optionalUrl,
  S3_FORCE_PATH_STYLE: boolish.optional(),
  S3_PUBLIC_PREFIX: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]*$/, {
      error: 'must be one path segment such as public (letters, digits, _ or -)',
    })
    .default('public'),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, { error: 'must be an smtp:// or smtps:// URL' })
    .optional(),
  MAIL_FROM: z.string().min(3).default('Backbeat <no-reply@backbeat.local>'),
  /** Social sign-in providers by name (`google,gitlab`); each reads OIDC_<NAME>_ISSUER/_CLIENT_ID/_CLIENT_SECRET. */
  OIDC_PROVIDERS: z
    .string()
    .regex(/^\s*[a-z][a-z0-9]{0,31}(\s*,\s*[a-z][a-z0-9]{0,31})*\s*$/i, {
      error: 'must be a comma-separated list of provider names such as google,gitlab (letters and digits)',
    })
    .optional(),
  OIDC_EMULATOR: boolish.optional(),
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_PUBLISHABLE_KEY: optionalText,
  STRIPE_WEBHOOK_SECRET: optionalText,
  RAZORPAY_KEY_ID: optionalText,
  RAZORPAY_KEY_SECRET: optionalText,
  RAZORPAY_WEBHOOK_SECRET: optionalText,
  PAYPAL_CLIENT_ID: optionalText,
  PAYPAL_CLIENT_SECRET: optionalText,
  PAYPAL_WEBHOOK_ID: optionalText,
  PAYMENTS_SANDBOX: boolish.optional(),
  PAYMENTS_EMULATOR: boolish.optional(),
  STRIPE_API_BASE: optionalUrl,
  RAZORPAY_API_BASE: optionalUrl,
  PAYPAL_API_BASE: optionalUrl,
  PAYPAL_ENVIRONMENT: z.enum(['sandbox', 'live'], { error: 'must be sandbox or live' }).optional(),
  FFMPEG_PATH: optionalText,
  AUTH_REGISTER_RATE_LIMIT: countAtLeastOne(20),
  UPLOAD_MAX_AUDIO_MB: countAtLeastOne(200, 'megabytes'),
  UPLOAD_MAX_AUDIO_MINUTES: countAtLeastOne(30, 'minutes'),
  UPLOAD_MAX_IMAGE_MB: countAtLeastOne(10, 'megabytes'),
  API_DOCS: boolish.optional(),
  CURRENCY: z
    .string()
    .regex(/^[A-Z]{3}$/, { error: 'must be a three-letter ISO currency code such as USD' })
    .default('USD'),
});

export class ConfigError extends Error {}

export interface StripeConfig {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  apiBase?: string;
}
export interface RazorpayConfig {
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  apiBase?: string;
}
export interface PaypalConfig {
  clientId: string;
  clientSecret: string;
  webhookId: string;
  environment: 'sandbox' | 'live';
  apiBase?: string;
}

/**
 * The payment gateways. A gateway is configured when all of its keys are set (a partial set stops start-up). In
 * development without keys the local gateway emulator stands in for all three (`emulator`); production refuses the
 * emulator, API base overrides and the demo sandbox.
 */
export interface PaymentsConfig {
  sandbox: boolean;
  emulator: boolean;
  stripe: StripeConfig | null;
  razorpay: RazorpayConfig | null;
  paypal: PaypalConfig | null;
}

/** Largest accepted upload per file kind, in bytes; larger files are refused (413) while they stream in. */
export interface UploadLimits {
  audioBytes: number;
  imageBytes: number;
  /**
   * Longest accepted audio, in seconds: a few hundred kilobytes of FLAC can hold hours of silence, so the size limit
   * alone does not bound the transcoding work. Refused (413) after the upload's probe, before anything is queued.
   */
  audioSeconds: number;
}

export interface OidcProviderConfig {
  id: string;
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The local test issuer standing in for this provider (development): its sign-in page says so. */
  testMode?: boolean;
}

/**
 * Where media lives: the local disk under DATA_DIR (the default), or an S3-compatible bucket (`MEDIA_STORE=s3`;
 * credentials come from the AWS SDK's default provider chain: environment, shared files, instance roles).
 */
export type MediaStoreConfig =
  | { kind: 'local'; dir: string }
  | {
      kind: 's3';
      bucket: string;
      /** Unset: the SDK's own default (AWS_REGION, the shared config file). */
      region: string | undefined;
      /** R2, MinIO, Ceph or another S3-compatible service; unset for Amazon S3. */
      endpoint: string | undefined;
      forcePathStyle: boolean;
      /** The one prefix a CDN or the bucket's website endpoint may serve: encrypted segments only. */
      publicPrefix: string;
    };

export interface Config {
  env: 'development' | 'production' | 'test';
  /** NODE_ENV was unset and development was assumed (start-up says so). */
  envAssumed: boolean;
  isProduction: boolean;
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  secretKey: string;
  logLevel: string;
  /**
   * Seed the demo catalogue and accounts into an empty database. Off by default in production, where demo accounts
   * never get the published passwords (see `demoAccountCredentials`).
   */
  seedDemo: boolean;
  /**
   * What the demo seed waits for before the server listens: `songs` (their streams are ready; previews are made in
   * the background afterwards) or `all` (every job the seed caused: the e2e seed cache, so runs start complete).
   */
  seedDemoWait: 'songs' | 'all';
  mail: { smtpUrl: string | undefined; from: string; outboxDir: string };
  mediaDir: string;
  mediaStore: MediaStoreConfig;
  dbDir: string;
  oidcProviders: OidcProviderConfig[];
  /**
   * Run the local OpenID Connect issuer in this process and let it stand in for Google, labelled as test mode:
   * on in development when no provider is configured (`OIDC_EMULATOR`), refused in production.
   */
  oidcEmulator: boolean;
  payments: PaymentsConfig;
  ffmpegPath: string | undefined;
  currency: string;
  /** Registrations allowed per IP address per hour. */
  registerRateLimit: number;
  uploadLimits: UploadLimits;
  /**
   * Proxies whose X-Forwarded-* headers are believed: false (none, the default), a hop count (only safe when the
   * app cannot be reached except through that many proxies) or the proxies' addresses and CIDR ranges.
   */
  trustProxy: false | number | string[];
  /**
   * `inline`: this process runs the background jobs (transcodes, receipts) besides the API, as one instance does.
   * `off`: it only queues them, for `npm run worker` processes to run (scale-out).
   */
  jobs: 'inline' | 'off';
  /**
   * Where rewritten playlists point segment URIs: `null` = the API (`/api/stream/hls/<song>/seg_NNNN.ts`), else
   * `<segmentBaseUrl>/<media prefix>/seg_NNNN.ts`, served from the media root by nginx or a CDN.
   */
  segmentBaseUrl: string | null;
  /** Swagger UI at /api/docs: on outside production, opt-in there (`API_DOCS=true`); /api/openapi.json is always served. */
  apiDocs: boolean;
}

/** Parses the environment into one Config; a bad value throws a one-line ConfigError naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings count as unset: `FOO= npm start` should mean "no FOO".
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    throw new ConfigError(
      `Invalid configuration: ${name} ${issue.message} (got ${JSON.stringify(env[name] ?? '')})`,
    );
  }
  const e = { ...parsed.data, NODE_ENV: environmentOf(parsed.data) };
  const isProduction = e.NODE_ENV === 'production';
  const dataDir = path.resolve(e.DATA_DIR);
  const host = e.HOST ?? (isProduction ? '0.0.0.0' : '127.0.0.1');
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');

  if (isProduction && !e.SECRET_KEY) {
    throw new ConfigError(
      'Invalid configuration: SECRET_KEY is required in production (at least 32 characters)',
    );
  }
  const secretKey = e.SECRET_KEY ?? readOrCreateSecret(dataDir);
  // Without SMTP, mail goes to the development outbox: reset links would sit on the server instead of reaching users.
  if (isProduction && !e.SMTP_URL) {
    throw new ConfigError(
      'Invalid configuration: SMTP_URL is required in production (password-reset mails must be delivered, ' +
        'not parked in the development outbox)',
    );
  }

  const oidcProviders = oidcProvidersOf(e.OIDC_PROVIDERS, cleaned);
  if (isProduction && e.OIDC_EMULATOR) {
    throw new ConfigError(
      'Invalid configuration: OIDC_EMULATOR cannot be enabled in production (anyone could sign in as anyone)',
    );
  }
  const oidcEmulator = e.OIDC_EMULATOR ?? (e.NODE_ENV === 'development' && oidcProviders.length === 0);

  // The embedded database is open in one process at a time: no worker could ever run the jobs.
  if (e.JOBS === 'off' && !e.DATABASE_URL) {
    throw new ConfigError(
      'Invalid configuration: JOBS=off needs DATABASE_URL (workers share a PostgreSQL; the embedded database ' +
        'is open in one process at a time, so that process must run the jobs)',
    );
  }

  const payments = paymentsConfig(e, isProduction);
  const mediaDir = path.join(dataDir, 'media');
  return {
    env: e.NODE_ENV,
    envAssumed: parsed.data.NODE_ENV === undefined,
    isProduction,
    port: e.PORT,
    host,
    publicUrl,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    secretKey,
    logLevel: e.LOG_LEVEL,
    seedDemo: e.SEED_DEMO ?? !isProduction,
    seedDemoWait: e.SEED_DEMO_WAIT,
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM, outboxDir: path.join(dataDir, 'outbox') },
    mediaDir,
    mediaStore: mediaStoreConfig(e, mediaDir),
    dbDir: path.join(dataDir, 'db'),
    oidcProviders,
    oidcEmulator,
    payments,
    ffmpegPath: e.FFMPEG_PATH,
    currency: e.CURRENCY,
    registerRateLimit: e.AUTH_REGISTER_RATE_LIMIT,
    uploadLimits: {
      audioBytes: e.UPLOAD_MAX_AUDIO_MB * 1024 * 1024,
      imageBytes: e.UPLOAD_MAX_IMAGE_MB * 1024 * 1024,
      audioSeconds: e.UPLOAD_MAX_AUDIO_MINUTES * 60,
    },
    trustProxy: e.TRUST_PROXY ?? false,
    jobs: e.JOBS,
    segmentBaseUrl: e.SEGMENT_BASE_URL || null,
    apiDocs: e.API_DOCS ?? !isProduction,
  };
}

function mediaStoreConfig(e: Env, dir: string): MediaStoreConfig {
  if (e.MEDIA_STORE === 'local') return { kind: 'local', dir };
  if (!e.S3_BUCKET)
    throw new ConfigError(
      'Invalid configuration: MEDIA_STORE=s3 needs S3_BUCKET (the bucket holding the media)',
    );
  return {
    kind: 's3',
    bucket: e.S3_BUCKET,
    region: e.S3_REGION,
    endpoint: e.S3_ENDPOINT,
    // Most S3-compatible servers (MinIO, Ceph, a local test server) address buckets by path, Amazon S3 by host.
    forcePathStyle: e.S3_FORCE_PATH_STYLE ?? e.S3_ENDPOINT !== undefined,
    publicPrefix: e.S3_PUBLIC_PREFIX,
  };
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);
const isLoopbackHost = (host: string) =>
  LOOPBACK_HOSTS.has(host) || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host);

/** What in the settings shows a deployment (a public address, a non-loopback listener, live gateway keys), if any. */
function deploymentSign(e: Env): string | null {
  const publicHost = e.PUBLIC_URL ? new URL(e.PUBLIC_URL).hostname : 'localhost';
  if (!isLoopbackHost(publicHost)) return `PUBLIC_URL is ${e.PUBLIC_URL}`;
  if (e.HOST && !isLoopbackHost(e.HOST)) return `HOST is ${e.HOST}`;
  if (e.STRIPE_SECRET_KEY?.startsWith('sk_live_') || e.RAZORPAY_KEY_ID?.startsWith('rzp_live_')) {
    return 'live payment keys are set';
  }
  if (e.PAYPAL_ENVIRONMENT === 'live') return 'PAYPAL_ENVIRONMENT is live';
  return null;
}

/**
 * An unset NODE_ENV means development, which takes test payments and sends cookies without `Secure`. That is only
 * safe for a server on this machine: when the settings show a deployment (a public address, a non-loopback listener
 * or live gateway keys) start-up stops and asks for NODE_ENV instead of guessing. NODE_ENV=test is refused there
 * in every case: it is the test suite's mode (the free demo checkout, no Secure cookies, no HSTS), never a server's.
 */
function environmentOf(e: Env): 'development' | 'production' | 'test' {
  if (e.NODE_ENV === 'production' || e.NODE_ENV === 'development') return e.NODE_ENV;
  const deployedBy = deploymentSign(e);
  if (deployedBy && e.NODE_ENV === 'test') {
    throw new ConfigError(
      `Invalid configuration: NODE_ENV is test but ${deployedBy}: test mode takes demo payments and sends ` +
        'cookies without Secure; set NODE_ENV=production to deploy',
    );
  }
  if (e.NODE_ENV) return e.NODE_ENV;
  if (deployedBy) {
    throw new ConfigError(
      `Invalid configuration: NODE_ENV is not set but ${deployedBy}: set NODE_ENV=production to deploy ` +
        '(or NODE_ENV=development to run a development server there on purpose)',
    );
  }
  return 'development';
}

/** Outside production a secret is generated once and kept in DATA_DIR so sessions survive restarts. */
function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 }); // Owner-only: it holds the database, secrets and mail.
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

type Env = z.infer<typeof EnvSchema>;

/** Providers Backbeat knows the issuer and label of; any other takes OIDC_<NAME>_ISSUER (and _NAME). */
const KNOWN_OIDC_PROVIDERS: Record<string, { name: string; issuer?: string }> = {
  google: { name: 'Google', issuer: 'https://accounts.google.com' },
  gitlab: { name: 'GitLab', issuer: 'https://gitlab.com' },
  // Microsoft's issuer names the tenant: https://login.microsoftonline.com/<tenant id>/v2.0.
  microsoft: { name: 'Microsoft' },
};

/**
 * The social sign-in providers: every name in OIDC_PROVIDERS, each with OIDC_<NAME>_CLIENT_ID and _CLIENT_SECRET
 * (both required), _ISSUER (required unless Backbeat knows it) and _NAME (the button's label). Without
 * OIDC_PROVIDERS, Google when OIDC_GOOGLE_CLIENT_ID is set, as before.
 */
function oidcProvidersOf(
  list: string | undefined,
  env: Record<string, string | undefined>,
): OidcProviderConfig[] {
  const names = list
    ? [...new Set(list.split(',').map((name) => name.trim().toLowerCase()))]
    : env.OIDC_GOOGLE_CLIENT_ID || env.OIDC_GOOGLE_CLIENT_SECRET
      ? ['google']
      : [];
  return names.map((id) => {
    const prefix = `OIDC_${id.toUpperCase()}`;
    const known = KNOWN_OIDC_PROVIDERS[id];
    const variable = (suffix: string) => env[`${prefix}_${suffix}`]?.trim() || undefined;
    const required = (suffix: string, fallback?: string) => {
      const value = variable(suffix) ?? fallback;
      if (!value) {
        throw new ConfigError(
          `Invalid configuration: ${prefix}_${suffix} is required for the ${id} sign-in provider`,
        );
      }
      return value;
    };
    const issuer = required('ISSUER', known?.issuer);
    try {
      const url = new URL(issuer);
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('not http(s)');
    } catch {
      throw new ConfigError(
        `Invalid configuration: ${prefix}_ISSUER must be a URL (got ${JSON.stringify(issuer)})`,
      );
    }
    return {
      id,
      name: variable('NAME') ?? known?.name ?? id.charAt(0).toUpperCase() + id.slice(1),
      issuer,
      clientId: required('CLIENT_ID'),
      clientSecret: required('CLIENT_SECRET'),
    };
  });
}

/** All of a gateway's variables, or none: a partial set names what is missing. */
function gatewayKeys<K extends keyof Env>(e: Env, names: K[]): Record<K, string> | null {
  const present = names.filter((name) => e[name] !== undefined);
  if (present.length === 0) return null;
  const missing = names.filter((name) => e[name] === undefined);
  if (missing.length > 0) {
    throw new ConfigError(
      `Invalid configuration: ${missing[0]} is required with ${present[0]} (set all of ${names.join(', ')})`,
    );
  }
  return Object.fromEntries(names.map((name) => [name, String(e[name])])) as Record<K, string>;
}

function paymentsConfig(e: Env, isProduction: boolean): PaymentsConfig {
  const stripe = gatewayKeys(e, ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET']);
  const razorpay = gatewayKeys(e, ['RAZORPAY_KEY_ID', 'RAZORPAY_KEY_SECRET', 'RAZORPAY_WEBHOOK_SECRET']);
  const paypal = gatewayKeys(e, ['PAYPAL_CLIENT_ID', 'PAYPAL_CLIENT_SECRET', 'PAYPAL_WEBHOOK_ID']);
  const anyGateway = Boolean(stripe || razorpay || paypal);
  if (isProduction) {
    const refused = (['PAYMENTS_EMULATOR', 'PAYMENTS_SANDBOX'] as const).find((name) => e[name] === true);
    if (refused) {
      throw new ConfigError(
        `Invalid configuration: ${refused} cannot be enabled in production (no money would move)`,
      );
    }
    const base = (['STRIPE_API_BASE', 'RAZORPAY_API_BASE', 'PAYPAL_API_BASE'] as const).find(
      (name) => e[name],
    );
    if (base) {
      throw new ConfigError(
        `Invalid configuration: ${base} points a gateway at a stand-in; it cannot be set in production`,
      );
    }
  }
  const emulator = e.PAYMENTS_EMULATOR ?? (e.NODE_ENV === 'development' && !anyGateway);
  return {
    emulator,
    sandbox: e.PAYMENTS_SANDBOX ?? (!isProduction && !anyGateway && !emulator),
    stripe: stripe && {
      secretKey: stripe.STRIPE_SECRET_KEY,
      publishableKey: stripe.STRIPE_PUBLISHABLE_KEY,
      webhookSecret: stripe.STRIPE_WEBHOOK_SECRET,
      apiBase: e.STRIPE_API_BASE,
    },
    razorpay: razorpay && {
      keyId: razorpay.RAZORPAY_KEY_ID,
      keySecret: razorpay.RAZORPAY_KEY_SECRET,
      webhookSecret: razorpay.RAZORPAY_WEBHOOK_SECRET,
      apiBase: e.RAZORPAY_API_BASE,
    },
    paypal: paypal && {
      clientId: paypal.PAYPAL_CLIENT_ID,
      clientSecret: paypal.PAYPAL_CLIENT_SECRET,
      webhookId: paypal.PAYPAL_WEBHOOK_ID,
      environment: e.PAYPAL_ENVIRONMENT ?? (isProduction ? 'live' : 'sandbox'),
      apiBase: e.PAYPAL_API_BASE,
    },
  };
}
