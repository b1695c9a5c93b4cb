import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/**
 * Renders `deploy/nginx/backbeat.conf` (the production proxy: API instances behind it, encrypted segments from
 * the media root) for one site:
 *
 *   npm run nginx:config -- --media-root /srv/backbeat/data/media --upstream 10.0.0.11:3000 \
 *     [--upstream 10.0.0.12:3000 ...] [--listen 443 ssl] [--server-name music.example.com] \
 *     [--segments-path /media] [--tls-cert /etc/ssl/backbeat.crt --tls-key /etc/ssl/backbeat.key] [--out FILE]
 */
export const NGINX_TEMPLATE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../deploy/nginx/backbeat.conf',
);

export interface NginxSiteOptions {
  /** The media root every instance and worker shares (`DATA_DIR/media`): absolute. */
  mediaRoot: string;
  /** API instances, `host:port`. */
  upstreams: string[];
  /** nginx `listen` parameters, e.g. `443 ssl` or `127.0.0.1:8080`. */
  listen?: string;
  serverName?: string;
  /** The same path as the instances' `SEGMENT_BASE_URL` (or the path a CDN maps to this server). */
  segmentsPath?: string;
  tls?: { cert: string; key: string };
}

export class NginxConfigError extends Error {}

/** Characters that would end or bend an nginx directive. */
const UNSAFE = /[\s;{}"'#$\\]/;

function checkPath(name: string, value: string): string {
  if (!path.isAbsolute(value) || UNSAFE.test(value) || value.split('/').includes('..'))
    throw new NginxConfigError(`${name} must be an absolute path without spaces, quotes, ; { } # $ or ..`);
  return value.replace(/\/+$/, '');
}

export function renderNginxSite(options: NginxSiteOptions, template = readFileSync(NGINX_TEMPLATE, 'utf8')) {
  const mediaRoot = checkPath('--media-root', options.mediaRoot);
  if (options.upstreams.length === 0)
    throw new NginxConfigError('at least one --upstream host:port is needed');
  for (const upstream of options.upstreams) {
    if (!/^[A-Za-z0-9.-]+:\d{1,5}$|^\[[0-9a-fA-F:]+\]:\d{1,5}$/.test(upstream))
      throw new NginxConfigError(`--upstream ${upstream}: must be host:port`);
  }
  const segmentsPath = (options.segmentsPath ?? '/media').replace(/\/+$/, '');
  if (!/^(\/[A-Za-z0-9_-]+)+$/.test(segmentsPath) || segmentsPath === '/api')
    throw new NginxConfigError('--segments-path must be a path such as /media (letters, digits, - and _)');
  const listen = options.listen ?? '80';
  if (UNSAFE.test(listen.replace(/ /g, '')) || !listen.trim())
    throw new NginxConfigError('--listen must be nginx listen parameters such as 443 ssl or 127.0.0.1:8080');
  const serverName = options.serverName ?? '_';
  if (UNSAFE.test(serverName)) throw new NginxConfigError('--server-name must be one host name');
  const tls = options.tls
    ? [
        `    ssl_certificate ${checkPath('--tls-cert', options.tls.cert)};`,
        `    ssl_certificate_key ${checkPath('--tls-key', options.tls.key)};`,
      ].join('\n')
    : '    # No TLS here: terminate it in front of this server, or render with --tls-cert and --tls-key.';

  const values: Record<string, string> = {
    UPSTREAM_SERVERS: options.upstreams
      .map((upstream) => `    server ${upstream} max_fails=3 fail_timeout=10s;`)
      .join('\n'),
    LISTEN: listen,
    SERVER_NAME: serverName,
    TLS: tls,
    SEGMENTS_PATH: segmentsPath,
    MEDIA_ROOT: mediaRoot,
  };
  return template.replace(/\{\{([A-Z_]+)\}\}/g, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) throw new NginxConfigError(`the template names an unknown placeholder ${whole}`);
    return value;
  });
}

/**
 * A minimal main configuration that runs a rendered site under a private prefix directory, in the foreground
 * (tests and benchmarks; production uses the distribution's nginx.conf, which includes conf.d/*.conf). As root the
 * workers stay root so they can read a DATA_DIR that is private to its owner.
 */
export function nginxMainConfig(
  prefix: string,
  siteFile: string,
  options: { workers?: number } = {},
): string {
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((name) => `  ${name}_temp_path ${path.join(prefix, `${name}_temp`)};`)
    .join('\n');
  return [
    process.getuid?.() === 0 ? 'user root;' : '',
    'daemon off;',
    `worker_processes ${options.workers ?? 1};`,
    `pid ${path.join(prefix, 'nginx.pid')};`,
    `error_log ${path.join(prefix, 'error.log')} warn;`,
    'events { worker_connections 1024; }',
    'http {',
    '  access_log off;',
    '  keepalive_requests 100000;',
    temp,
    `  include ${siteFile};`,
    '}',
    '',
  ].join('\n');
}

function cli() {
  const { values } = parseArgs({
    options: {
      'media-root': { type: 'string' },
      upstream: { type: 'string', multiple: true },
      listen: { type: 'string' },
      'server-name': { type: 'string' },
      'segments-path': { type: 'string' },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      out: { type: 'string' },
    },
  });
  if (!values['media-root']) throw new NginxConfigError('--media-root is required (DATA_DIR/media)');
  if (Boolean(values['tls-cert']) !== Boolean(values['tls-key']))
    throw new NginxConfigError('--tls-cert and --tls-key go together');
  const site = renderNginxSite({
    mediaRoot: values['media-root'],
    upstreams: values.upstream ?? [],
    listen: values.listen,
    serverName: values['server-name'],
    segmentsPath: values['segments-path'],
    tls: values['tls-cert'] ? { cert: values['tls-cert'], key: values['tls-key']! } : undefined,
  });
  if (values.out) writeFileSync(values.out, site);
  else process.stdout.write(site);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    cli();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
