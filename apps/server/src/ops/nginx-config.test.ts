import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NGINX_TEMPLATE, NginxConfigError, nginxMainConfig, renderNginxSite } from './nginx-config';

const work = mkdtempSync(path.join(tmpdir(), 'backbeat-nginx-config-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const options = { mediaRoot: '/srv/backbeat/data/media/', upstreams: ['10.0.0.11:3000', '10.0.0.12:3000'] };

describe('the nginx site template', () => {
  it('renders every placeholder, and real nginx accepts the result (nginx -t)', () => {
    const site = renderNginxSite({ ...options, listen: '127.0.0.1:8080', serverName: 'music.example.com' });
    expect(site).not.toMatch(/\{\{/);
    expect(site).toContain(
      '    server 10.0.0.11:3000 max_fails=3 fail_timeout=10s;\n    server 10.0.0.12:3000',
    );
    expect(site).toContain('alias /srv/backbeat/data/media/$1;');
    expect(site).toContain('location ~ "^/media/(songs/');
    const siteFile = path.join(work, 'site.conf');
    writeFileSync(siteFile, site);
    const conf = path.join(work, 'nginx.conf');
    writeFileSync(conf, nginxMainConfig(work, siteFile));
    const output = execFileSync('nginx', ['-t', '-p', work, '-c', conf, '-e', path.join(work, 'error.log')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(output).toBe('');
  });

  it('adds the certificate lines with --tls-cert and --tls-key, and a custom segments path', () => {
    const site = renderNginxSite({
      ...options,
      listen: '443 ssl',
      segmentsPath: '/hls-media',
      tls: { cert: '/etc/ssl/backbeat.crt', key: '/etc/ssl/backbeat.key' },
    });
    expect(site).toContain('listen 443 ssl;');
    expect(site).toContain(
      'ssl_certificate /etc/ssl/backbeat.crt;\n    ssl_certificate_key /etc/ssl/backbeat.key;',
    );
    expect(site).toContain('location ~ "^/hls-media/(songs/');
    expect(site).toContain('location /hls-media/ {\n        return 404;');
  });

  it('refuses values that would bend the configuration', () => {
    const bad: Array<Partial<Parameters<typeof renderNginxSite>[0]>> = [
      { mediaRoot: 'relative/media' },
      { mediaRoot: '/srv/media; include /etc/shadow' },
      { mediaRoot: '/srv/../etc' },
      { upstreams: [] },
      { upstreams: ['10.0.0.1:3000; return 200'] },
      { segmentsPath: '/api' },
      { segmentsPath: 'media' },
      { serverName: 'a.example b.example' },
      { listen: '80; include x' },
    ];
    for (const override of bad)
      expect(() => renderNginxSite({ ...options, ...override })).toThrow(NginxConfigError);
  });

  it('serves only segment names from the media root: the location regex', () => {
    const template = readFileSync(NGINX_TEMPLATE, 'utf8');
    const source = /location ~ "\^\{\{SEGMENTS_PATH\}\}(.*)\$" \{/.exec(template)![1]!;
    const segment = new RegExp(`^/media${source}$`);
    const song = '0b4a5d3e-1c2f-4a6b-8c9d-0e1f2a3b4c5d';
    expect(segment.test(`/media/songs/${song}/0123456789abcdef/seg_0000.ts`)).toBe(true);
    for (const other of ['enc.key', 'audio.m4a', 'index.m3u8', 'seg_0000.ts.bak', 'seg_00001.ts', ''])
      expect(segment.test(`/media/songs/${song}/0123456789abcdef/${other}`)).toBe(false);
    expect(segment.test(`/media/songs/${song}/../seg_0000.ts`)).toBe(false);
    expect(segment.test(`/media/uploads/${song}/0123456789abcdef/seg_0000.ts`)).toBe(false);
  });
});
