import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const dataDir = mkdtempSync(path.join(tmpdir(), 'backbeat-config-'));
const base = { DATA_DIR: dataDir, SECRET_KEY: 'a-secret-key-that-is-long-enough-0123456789' };
const stripe = {
  STRIPE_SECRET_KEY: 'sk_test_x',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_x',
  STRIPE_WEBHOOK_SECRET: 'whsec_x',
};
const razorpay = { RAZORPAY_KEY_ID: 'rzp_test_x', RAZORPAY_KEY_SECRET: 's', RAZORPAY_WEBHOOK_SECRET: 'w' };
/** Production needs a real mail server; these tests never send. */
const smtp = { SMTP_URL: 'smtp://mail.example.com:587' };
const paypal = { PAYPAL_CLIENT_ID: 'id', PAYPAL_CLIENT_SECRET: 'secret', PAYPAL_WEBHOOK_ID: 'WH-1' };

const refusal = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  return null;
};

describe('payment gateway configuration', () => {
  it('runs the three gateways against the emulator in development without keys, the sandbox off', () => {
    const config = loadConfig({ ...base, NODE_ENV: 'development' });
    expect(config.payments).toMatchObject({ emulator: true, sandbox: false, stripe: null, paypal: null });
  });

  it('uses real keys when given, with no emulator and no sandbox', () => {
    const config = loadConfig({ ...base, NODE_ENV: 'development', ...stripe, ...razorpay, ...paypal });
    expect(config.payments).toMatchObject({
      emulator: false,
      sandbox: false,
      stripe: { secretKey: 'sk_test_x', publishableKey: 'pk_test_x', webhookSecret: 'whsec_x' },
      razorpay: { keyId: 'rzp_test_x' },
      paypal: { clientId: 'id', webhookId: 'WH-1', environment: 'sandbox' },
    });
    const production = loadConfig({ ...base, NODE_ENV: 'production', ...smtp, ...paypal });
    expect(production.payments.paypal?.environment).toBe('live');
  });

  it('keeps the sandbox for tests without gateways, as before', () => {
    expect(loadConfig({ ...base, NODE_ENV: 'test' }).payments).toMatchObject({
      sandbox: true,
      emulator: false,
    });
  });

  it('names the missing variable of a partly configured gateway', () => {
    expect(refusal({ ...base, STRIPE_SECRET_KEY: 'sk_test_x' })).toBe(
      'Invalid configuration: STRIPE_PUBLISHABLE_KEY is required with STRIPE_SECRET_KEY ' +
        '(set all of STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET)',
    );
    expect(refusal({ ...base, PAYPAL_CLIENT_SECRET: 'x', PAYPAL_WEBHOOK_ID: 'y' })).toMatch(
      /^Invalid configuration: PAYPAL_CLIENT_ID is required with PAYPAL_CLIENT_SECRET/,
    );
  });

  it('refuses the emulator, the sandbox and gateway address overrides in production', () => {
    const production = { ...base, NODE_ENV: 'production', ...smtp, ...stripe };
    expect(refusal({ ...production, PAYMENTS_EMULATOR: 'true' })).toBe(
      'Invalid configuration: PAYMENTS_EMULATOR cannot be enabled in production (no money would move)',
    );
    expect(refusal({ ...production, PAYMENTS_SANDBOX: 'true' })).toBe(
      'Invalid configuration: PAYMENTS_SANDBOX cannot be enabled in production (no money would move)',
    );
    expect(refusal({ ...production, STRIPE_API_BASE: 'http://127.0.0.1:1234' })).toBe(
      'Invalid configuration: STRIPE_API_BASE points a gateway at a stand-in; it cannot be set in production',
    );
    expect(refusal({ ...production, PAYPAL_ENVIRONMENT: 'moon' })).toMatch(
      /^Invalid configuration: PAYPAL_ENVIRONMENT/,
    );
  });
});

describe('demo seed', () => {
  it('is on by default in development and tests, off by default in production', () => {
    expect(loadConfig({ ...base, NODE_ENV: 'development' }).seedDemo).toBe(true);
    expect(loadConfig({ ...base, NODE_ENV: 'test' }).seedDemo).toBe(true);
    expect(loadConfig({ ...base, ...smtp, NODE_ENV: 'production' }).seedDemo).toBe(false);
    expect(loadConfig({ ...base, ...smtp, NODE_ENV: 'production', SEED_DEMO: '' }).seedDemo).toBe(false);
  });

  it('follows an explicit SEED_DEMO everywhere', () => {
    expect(loadConfig({ ...base, ...smtp, NODE_ENV: 'production', SEED_DEMO: 'true' }).seedDemo).toBe(true);
    expect(loadConfig({ ...base, NODE_ENV: 'development', SEED_DEMO: 'false' }).seedDemo).toBe(false);
    expect(refusal({ ...base, SEED_DEMO: 'maybe' })).toMatch(
      /^Invalid configuration: SEED_DEMO must be true/,
    );
  });
});

describe('TRUST_PROXY', () => {
  it('trusts no proxy by default, in production too', () => {
    expect(loadConfig({ ...base, NODE_ENV: 'development' }).trustProxy).toBe(false);
    expect(loadConfig({ ...base, ...smtp, NODE_ENV: 'production' }).trustProxy).toBe(false);
    expect(loadConfig({ ...base, ...smtp, NODE_ENV: 'production', TRUST_PROXY: 'false' }).trustProxy).toBe(
      false,
    );
    expect(loadConfig({ ...base, TRUST_PROXY: '0' }).trustProxy).toBe(false);
  });

  it('reads a hop count or a list of addresses and CIDR ranges', () => {
    expect(loadConfig({ ...base, TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(
      loadConfig({
        ...base,
        TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1,fd00::/8,192.168.0.0/255.255.0.0,loopback',
      }).trustProxy,
    ).toEqual(['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8', '192.168.0.0/255.255.0.0', 'loopback']);
  });

  it('refuses true (anyone could choose their address) and anything that is not an address', () => {
    const hint =
      'must be false, a hop count, or a comma-separated list of proxy addresses or CIDR ranges (e.g. 10.0.0.0/8)';
    expect(refusal({ ...base, TRUST_PROXY: 'true' })).toBe(
      `Invalid configuration: TRUST_PROXY ${hint} (got "true")`,
    );
    for (const value of ['proxy.example.com', '10.0.0.0/33', '10.0.0.1,', '::1/129', '1.2.3.4/8/8']) {
      expect(refusal({ ...base, TRUST_PROXY: value })).toBe(
        `Invalid configuration: TRUST_PROXY ${hint} (got ${JSON.stringify(value)})`,
      );
    }
  });
});

describe('mail configuration', () => {
  it('refuses production without SMTP_URL: the outbox would keep reset links on the server, unsent', () => {
    expect(refusal({ ...base, NODE_ENV: 'production', ...stripe })).toBe(
      'Invalid configuration: SMTP_URL is required in production (password-reset mails must be delivered, ' +
        'not parked in the development outbox)',
    );
    expect(loadConfig({ ...base, NODE_ENV: 'production', ...smtp, ...stripe }).mail.smtpUrl).toBe(
      'smtp://mail.example.com:587',
    );
  });

  it('keeps the development outbox outside production', () => {
    expect(loadConfig({ ...base, NODE_ENV: 'development' }).mail.smtpUrl).toBeUndefined();
    expect(loadConfig({ ...base, NODE_ENV: 'test' }).mail.smtpUrl).toBeUndefined();
  });
});

describe('generated secret', () => {
  it('is written once, owner-only, into an owner-only DATA_DIR', () => {
    const fresh = path.join(dataDir, 'fresh-data');
    const config = loadConfig({ DATA_DIR: fresh, NODE_ENV: 'development' });
    expect(statSync(fresh).mode & 0o777).toBe(0o700);
    const file = path.join(fresh, 'secret.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toBe(config.secretKey);
    expect(loadConfig({ DATA_DIR: fresh, NODE_ENV: 'development' }).secretKey).toBe(config.secretKey);
  });
});

describe('an unset NODE_ENV', () => {
  it('is development on this machine, and says it was assumed', () => {
    const config = loadConfig({ ...base });
    expect(config).toMatchObject({ env: 'development', envAssumed: true, isProduction: false });
    expect(loadConfig({ ...base, NODE_ENV: 'development' }).envAssumed).toBe(false);
    expect(loadConfig({ ...base, PUBLIC_URL: 'http://127.0.0.1:3000', HOST: '::1' }).env).toBe('development');
  });

  it('stops start-up when the settings show a deployment, instead of taking test payments there', () => {
    expect(refusal({ ...base, PUBLIC_URL: 'https://music.example.com' })).toBe(
      'Invalid configuration: NODE_ENV is not set but PUBLIC_URL is https://music.example.com: set ' +
        'NODE_ENV=production to deploy (or NODE_ENV=development to run a development server there on purpose)',
    );
    expect(refusal({ ...base, HOST: '0.0.0.0' })).toMatch(/NODE_ENV is not set but HOST is 0\.0\.0\.0/);
    expect(
      refusal({ ...base, ...stripe, STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_PUBLISHABLE_KEY: 'pk_live_x' }),
    ).toMatch(/NODE_ENV is not set but live payment keys are set/);
    expect(refusal({ ...base, ...paypal, PAYPAL_ENVIRONMENT: 'live' })).toMatch(/PAYPAL_ENVIRONMENT is live/);
    // Said explicitly, both are honoured.
    expect(loadConfig({ ...base, NODE_ENV: 'development', HOST: '0.0.0.0' }).env).toBe('development');
    expect(
      loadConfig({ ...base, ...smtp, NODE_ENV: 'production', PUBLIC_URL: 'https://music.example.com' }).env,
    ).toBe('production');
  });
});

describe('NODE_ENV=test', () => {
  it('is refused where the settings show a deployment, like an unset NODE_ENV (demo payments, no Secure cookies)', () => {
    expect(refusal({ ...base, NODE_ENV: 'test', PUBLIC_URL: 'https://music.example.com' })).toBe(
      'Invalid configuration: NODE_ENV is test but PUBLIC_URL is https://music.example.com: test mode takes ' +
        'demo payments and sends cookies without Secure; set NODE_ENV=production to deploy',
    );
    expect(refusal({ ...base, NODE_ENV: 'test', HOST: '0.0.0.0' })).toMatch(
      /NODE_ENV is test but HOST is 0\.0\.0\.0/,
    );
    expect(refusal({ ...base, NODE_ENV: 'test', ...paypal, PAYPAL_ENVIRONMENT: 'live' })).toMatch(
      /NODE_ENV is test but PAYPAL_ENVIRONMENT is live/,
    );
    // On this machine it stays what the test suite runs.
    expect(loadConfig({ ...base, NODE_ENV: 'test', PUBLIC_URL: 'http://127.0.0.1:4000' }).env).toBe('test');
  });
});

describe('API documentation', () => {
  it('shows Swagger UI outside production, and in production only with API_DOCS=true', () => {
    expect(loadConfig({ ...base, NODE_ENV: 'development' }).apiDocs).toBe(true);
    expect(loadConfig({ ...base, ...smtp, NODE_ENV: 'production' }).apiDocs).toBe(false);
    expect(loadConfig({ ...base, ...smtp, NODE_ENV: 'production', API_DOCS: 'true' }).apiDocs).toBe(true);
    expect(loadConfig({ ...base, NODE_ENV: 'development', API_DOCS: 'false' }).apiDocs).toBe(false);
  });
});

describe('upload limits', () => {
  it('default to 200 MB of audio and 10 MB per image, and can be set in megabytes', () => {
    expect(loadConfig({ ...base, NODE_ENV: 'test' }).uploadLimits).toEqual({
      audioBytes: 200 * 1024 * 1024,
      imageBytes: 10 * 1024 * 1024,
      audioSeconds: 30 * 60,
    });
    expect(
      loadConfig({
        ...base,
        NODE_ENV: 'test',
        UPLOAD_MAX_AUDIO_MB: '50',
        UPLOAD_MAX_IMAGE_MB: '2',
        UPLOAD_MAX_AUDIO_MINUTES: '12',
      }).uploadLimits,
    ).toEqual({ audioBytes: 50 * 1024 * 1024, imageBytes: 2 * 1024 * 1024, audioSeconds: 12 * 60 });
    expect(refusal({ ...base, UPLOAD_MAX_AUDIO_MINUTES: '0' })).toMatch(
      /UPLOAD_MAX_AUDIO_MINUTES must be at least 1/,
    );
    expect(refusal({ ...base, UPLOAD_MAX_AUDIO_MB: '0' })).toMatch(/UPLOAD_MAX_AUDIO_MB must be at least 1/);
  });
});

describe('scale-out settings', () => {
  it('runs jobs in-process by default; JOBS=off leaves them to `npm run worker`', () => {
    expect(loadConfig(base).jobs).toBe('inline');
    expect(loadConfig({ ...base, JOBS: 'off', DATABASE_URL: 'postgres://db/backbeat' }).jobs).toBe('off');
    expect(refusal({ ...base, JOBS: 'off' })).toMatch(/^Invalid configuration: JOBS=off needs DATABASE_URL/);
    expect(refusal({ ...base, JOBS: 'sometimes' })).toBe(
      'Invalid configuration: JOBS must be inline or off (got "sometimes")',
    );
  });

  it('takes a same-origin path or an http(s) URL as SEGMENT_BASE_URL, without its trailing slash', () => {
    expect(loadConfig(base).segmentBaseUrl).toBeNull();
    expect(loadConfig({ ...base, SEGMENT_BASE_URL: '/media/' }).segmentBaseUrl).toBe('/media');
    expect(loadConfig({ ...base, SEGMENT_BASE_URL: 'https://cdn.example.com/bb' }).segmentBaseUrl).toBe(
      'https://cdn.example.com/bb',
    );
    for (const bad of [
      'media',
      '//cdn.example.com',
      '/media/../keys',
      'ftp://x.example',
      'https://c.example/?a=1',
    ])
      expect(refusal({ ...base, SEGMENT_BASE_URL: bad })).toMatch(
        /^Invalid configuration: SEGMENT_BASE_URL must be/,
      );
  });

  it('keeps media on local disk by default, and in a bucket with MEDIA_STORE=s3 and S3_BUCKET', () => {
    expect(loadConfig(base).mediaStore).toEqual({
      kind: 'local',
      dir: path.join(loadConfig(base).dataDir, 'media'),
    });
    expect(loadConfig({ ...base, MEDIA_STORE: 's3', S3_BUCKET: 'backbeat-media' }).mediaStore).toEqual({
      kind: 's3',
      bucket: 'backbeat-media',
      region: undefined,
      endpoint: undefined,
      forcePathStyle: false,
      publicPrefix: 'public',
    });
    // An S3-compatible server elsewhere: path-style addressing unless told otherwise.
    const minio = {
      ...base,
      MEDIA_STORE: 's3',
      S3_BUCKET: 'media',
      S3_ENDPOINT: 'http://minio.internal:9000',
    };
    expect(loadConfig(minio).mediaStore).toMatchObject({
      endpoint: 'http://minio.internal:9000',
      forcePathStyle: true,
    });
    expect(
      loadConfig({ ...minio, S3_FORCE_PATH_STYLE: 'false', S3_REGION: 'auto' }).mediaStore,
    ).toMatchObject({
      forcePathStyle: false,
      region: 'auto',
    });
    expect(refusal({ ...base, MEDIA_STORE: 's3' })).toMatch(/MEDIA_STORE=s3 needs S3_BUCKET/);
    expect(refusal({ ...base, MEDIA_STORE: 'nfs' })).toMatch(
      /^Invalid configuration: MEDIA_STORE must be local or s3/,
    );
    expect(refusal({ ...base, MEDIA_STORE: 's3', S3_BUCKET: 'Bad_Bucket' })).toMatch(
      /^Invalid configuration: S3_BUCKET must be/,
    );
    expect(refusal({ ...base, S3_PUBLIC_PREFIX: 'a/b' })).toMatch(
      /^Invalid configuration: S3_PUBLIC_PREFIX must be/,
    );
  });
});

describe('social sign-in providers', () => {
  const google = { OIDC_GOOGLE_CLIENT_ID: 'g-id', OIDC_GOOGLE_CLIENT_SECRET: 'g-secret' };

  it("keeps today's OIDC_GOOGLE_* variables working without OIDC_PROVIDERS", () => {
    expect(loadConfig({ ...base, NODE_ENV: 'test', ...google }).oidcProviders).toEqual([
      {
        id: 'google',
        name: 'Google',
        issuer: 'https://accounts.google.com',
        clientId: 'g-id',
        clientSecret: 'g-secret',
      },
    ]);
    expect(
      loadConfig({ ...base, NODE_ENV: 'test', ...google, OIDC_GOOGLE_ISSUER: 'https://id.example.com' })
        .oidcProviders[0]!.issuer,
    ).toBe('https://id.example.com');
    expect(loadConfig({ ...base, NODE_ENV: 'test' }).oidcProviders).toEqual([]);
  });

  it('reads any issuer by name from OIDC_PROVIDERS, with known issuers and labels filled in', () => {
    const config = loadConfig({
      ...base,
      NODE_ENV: 'test',
      OIDC_PROVIDERS: 'google, GitLab,microsoft,acme',
      ...google,
      OIDC_GITLAB_CLIENT_ID: 'l-id',
      OIDC_GITLAB_CLIENT_SECRET: 'l-secret',
      OIDC_MICROSOFT_ISSUER: 'https://login.microsoftonline.com/tenant-1/v2.0',
      OIDC_MICROSOFT_CLIENT_ID: 'm-id',
      OIDC_MICROSOFT_CLIENT_SECRET: 'm-secret',
      OIDC_ACME_ISSUER: 'https://sso.acme.test',
      OIDC_ACME_NAME: 'Acme SSO',
      OIDC_ACME_CLIENT_ID: 'a-id',
      OIDC_ACME_CLIENT_SECRET: 'a-secret',
    });
    expect(config.oidcProviders.map(({ id, name, issuer }) => ({ id, name, issuer }))).toEqual([
      { id: 'google', name: 'Google', issuer: 'https://accounts.google.com' },
      { id: 'gitlab', name: 'GitLab', issuer: 'https://gitlab.com' },
      { id: 'microsoft', name: 'Microsoft', issuer: 'https://login.microsoftonline.com/tenant-1/v2.0' },
      { id: 'acme', name: 'Acme SSO', issuer: 'https://sso.acme.test' },
    ]);
  });

  it('names the missing or bad variable', () => {
    expect(refusal({ ...base, OIDC_PROVIDERS: 'gitlab', OIDC_GITLAB_CLIENT_ID: 'x' })).toBe(
      'Invalid configuration: OIDC_GITLAB_CLIENT_SECRET is required for the gitlab sign-in provider',
    );
    expect(
      refusal({
        ...base,
        OIDC_PROVIDERS: 'microsoft',
        OIDC_MICROSOFT_CLIENT_ID: 'x',
        OIDC_MICROSOFT_CLIENT_SECRET: 'y',
      }),
    ).toBe('Invalid configuration: OIDC_MICROSOFT_ISSUER is required for the microsoft sign-in provider');
    expect(refusal({ ...base, OIDC_GOOGLE_CLIENT_ID: 'only-the-id' })).toMatch(
      /OIDC_GOOGLE_CLIENT_SECRET is required/,
    );
    expect(refusal({ ...base, OIDC_PROVIDERS: 'google;gitlab' })).toMatch(
      /^Invalid configuration: OIDC_PROVIDERS must be/,
    );
    expect(
      refusal({ ...base, ...google, OIDC_PROVIDERS: 'google', OIDC_GOOGLE_ISSUER: 'not a url' }),
    ).toMatch(/OIDC_GOOGLE_ISSUER must be a URL/);
  });

  it('runs the local test issuer in development without providers, never in production', () => {
    expect(loadConfig({ ...base, NODE_ENV: 'development' }).oidcEmulator).toBe(true);
    expect(loadConfig({ ...base, NODE_ENV: 'development', ...google }).oidcEmulator).toBe(false);
    expect(loadConfig({ ...base, NODE_ENV: 'test' }).oidcEmulator).toBe(false);
    expect(loadConfig({ ...base, NODE_ENV: 'test', OIDC_EMULATOR: 'true' }).oidcEmulator).toBe(true);
    expect(loadConfig({ ...base, ...smtp, NODE_ENV: 'production' }).oidcEmulator).toBe(false);
    expect(refusal({ ...base, ...smtp, NODE_ENV: 'production', OIDC_EMULATOR: 'true' })).toMatch(
      /OIDC_EMULATOR cannot be enabled in production/,
    );
  });
});
