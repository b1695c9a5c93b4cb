import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { OAuth2Server } from 'oauth2-mock-server';
import { freePort } from '@backbeat/server/testing';

/** The person the local issuer signs in next; tests change it through the control endpoint. */
export interface SocialIdentity {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
}

export const OIDC_CLIENT = { id: 'backbeat-e2e-client', secret: 'backbeat-e2e-secret' } as const;

export interface LocalIssuer {
  issuerUrl: string;
  /** `POST {controlUrl}/identity` with a SocialIdentity JSON body sets who signs in next. */
  controlUrl: string;
  /** The issuer's self-signed certificate, for the server's NODE_EXTRA_CA_CERTS. */
  certFile: string;
  stop(): Promise<void>;
}

/**
 * A local OpenID Connect issuer (oauth2-mock-server) over HTTPS with a throwaway self-signed certificate, so the
 * server keeps running in production mode (which refuses plain-http issuers) exactly as it would against Google.
 */
export async function startLocalIssuer(workDir: string): Promise<LocalIssuer> {
  const keyFile = path.join(workDir, 'issuer-key.pem');
  const certFile = path.join(workDir, 'issuer-cert.pem');
  const openssl = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { encoding: 'utf8' },
  );
  if (openssl.status !== 0)
    throw new Error(`openssl could not make the issuer certificate: ${openssl.stderr}`);

  let identity: SocialIdentity = {
    sub: 'e2e-default',
    email: 'social.default@example.com',
    email_verified: true,
    name: 'Social Default',
  };
  const issuer = new OAuth2Server(keyFile, certFile);
  await issuer.issuer.keys.generate('RS256');
  const port = await freePort();
  issuer.issuer.url = `https://127.0.0.1:${port}`;
  issuer.service.on('beforeTokenSigning', (token) => Object.assign(token.payload, identity));
  issuer.service.on('beforeUserinfo', (response) => Object.assign(response.body as object, identity));
  await issuer.start(port, '127.0.0.1');

  const control: Server = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/identity') {
      res.writeHead(404).end();
      return;
    }
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      try {
        identity = JSON.parse(body) as SocialIdentity;
        res.writeHead(204).end();
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  const controlPort = await freePort();
  await new Promise<void>((resolve) => control.listen(controlPort, '127.0.0.1', resolve));

  return {
    issuerUrl: issuer.issuer.url,
    controlUrl: `http://127.0.0.1:${controlPort}`,
    certFile,
    async stop() {
      await new Promise<void>((resolve) => control.close(() => resolve()));
      await issuer.stop();
    },
  };
}
