import { existsSync } from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Database } from './db/client';
import { authPlugin } from './platform/auth';
import { apiNotFound, frameworkErrorReply, registerErrorHandler } from './platform/errors';
import { AccessLogController, serializeError, serializeRequest } from './platform/request-log';
import { securityHeaders } from './platform/security-headers';
import { registerTextInputCheck } from './platform/text-input';
import { documentSharedResponses } from './platform/shared-responses';
import { paymentContentSources } from './modules/payments';
import { healthRoutes, preparingGate } from './modules/system';
import { sessionLoader } from './modules/auth';
import { createServices, registerModules, type AppServices } from './modules';

export interface AppDeps {
  config: Config;
  database: Database;
  /** Built web app to serve; omitted in API-only tests. */
  webDistDir?: string;
  /** A pino instance (main) or false (tests). */
  logger?: FastifyServerOptions['loggerInstance'];
  /** Collaborators (media store, job runner, mailer...); defaults are built from the config. */
  services?: Partial<AppServices>;
  /** The server the app answers on, when one already listens (main.ts: modules/system/early-listener.ts). */
  serverFactory?: FastifyServerOptions['serverFactory'];
}

declare module 'fastify' {
  interface FastifyInstance {
    services: AppServices;
  }
}

/** The app runs under a strict CSP; the configured payment gateways add their own origins. */
function contentSecurityPolicy(config: Config) {
  const pay = paymentContentSources(config.payments);
  // Segments on a CDN's origin (`SEGMENT_BASE_URL=https://...`): hls.js fetches them, Safari's player loads them.
  const segments = config.segmentBaseUrl?.startsWith('http') ? [new URL(config.segmentBaseUrl).origin] : [];
  return {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", ...pay.script],
      styleSrc: ["'self'", "'unsafe-inline'", ...pay.style],
      imgSrc: ["'self'", 'data:', 'blob:', ...pay.img],
      mediaSrc: ["'self'", 'blob:', ...segments],
      connectSrc: ["'self'", ...pay.connect, ...segments],
      fontSrc: ["'self'", 'data:'],
      frameSrc: ["'self'", ...pay.frame],
      workerSrc: ["'self'", 'blob:'],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      upgradeInsecureRequests: null,
    },
  };
}

/**
 * Fastify 5.12 ignores a bare hop count (it cannot tell a proxy from a client that talks to the app directly), so a
 * configured count becomes a function trusting that many hops; addresses and ranges are passed through.
 */
function fastifyTrustProxy(trust: Config['trustProxy']): FastifyServerOptions['trustProxy'] {
  if (typeof trust === 'number') return (_address: string, hop: number) => hop < trust;
  return trust;
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  const services = createServices(config, database, deps.services);
  const app = Fastify({
    // Request URLs are logged redacted: stream tokens and reset links are credentials.
    ...(deps.logger
      ? {
          loggerInstance: deps.logger.child(
            {},
            { serializers: { req: serializeRequest, err: serializeError } },
          ),
          logController: new AccessLogController(),
        }
      : { logger: false }),
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // Generous for JSON bodies; file uploads go through multipart with their own limits.
    bodyLimit: 1024 * 1024,
    // Refusals made before routing (a path parameter over the router's length, a malformed address) answer in the
    // app's `{ message, code }` shape too.
    frameworkErrors: frameworkErrorReply,
    ...(deps.serverFactory ? { serverFactory: deps.serverFactory } : {}),
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerTextInputCheck(app);
  documentSharedResponses(app);
  app.decorate('services', services);
  // Other instances' writes reach this one's caches from now on; jobs stop before the bus closes, so a job
  // finishing during shutdown still tells the others.
  await services.changes.start(app.log);
  app.addHook('onClose', async () => {
    await services.jobs.stop();
    await services.changes.close();
  });

  await app.register(securityHeaders, {
    contentSecurityPolicy: contentSecurityPolicy(config),
    crossOriginEmbedderPolicy: false,
    // PayPal's approval window is a popup on PayPal's origin that reports back to this page through
    // window.opener: `same-origin` would sever it (PayPal documents `same-origin-allow-popups`).
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    hsts: config.isProduction,
  });
  // A first start listens while it prepares the demo catalogue: pages show its progress, the API answers 503.
  if (!services.preparation.isReady) await app.register(preparingGate, { preparation: services.preparation });
  await app.register(cookie);
  await app.register(rateLimit, { global: false });
  // Forms (uploads) are parsed only by the routes that take them: modules/catalog/upload-form.ts `acceptForms`.
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Backbeat API',
        version: '0.1.0',
        description: 'Music streaming and purchase platform. Errors are always `{ message, code }`.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          cookie: { type: 'apiKey', in: 'cookie', name: 'token' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  // The OpenAPI document stays public (it is what API clients are built from, and says nothing the routes do not);
  // the interactive UI, which invites anyone to try calls against the server, is opt-in in production.
  if (config.apiDocs) await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  await app.register(authPlugin, {
    loadSession: sessionLoader(database.db, services.revocations),
    publicUrl: config.publicUrl,
    sessions: services.sessionCache,
  });

  await app.register(
    async (api) => {
      api.get('/openapi.json', { schema: { hide: true } }, () => app.swagger());
      await api.register(healthRoutes, { database, preparation: services.preparation });
      await registerModules(api, { config, database, services });
    },
    { prefix: '/api' },
  );

  const serveWeb = Boolean(deps.webDistDir && existsSync(path.join(deps.webDistDir, 'index.html')));
  if (!serveWeb)
    app.setNotFoundHandler((request, reply) =>
      reply.status(404).send(apiNotFound(request.method, request.url)),
    );
  if (serveWeb && deps.webDistDir) {
    await app.register(fastifyStatic, {
      root: deps.webDistDir,
      wildcard: false,
      index: false,
      // The web build writes x.br and x.gz beside each text asset (apps/web/vite.config.ts): the one the browser
      // accepts is sent as is, with `Vary: Accept-Encoding`; no route of their own.
      preCompressed: true,
      globIgnore: ['**/*.br', '**/*.gz'],
      setHeaders(res, filePath) {
        // Vite fingerprints everything under assets/: cache forever. index.html must always be revalidated.
        res.header(
          'Cache-Control',
          filePath.includes(`${path.sep}assets${path.sep}`)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    });
    const webDist = deps.webDistDir;
    app.setNotFoundHandler(async (request, reply) => {
      const urlPath = request.url.split('?')[0] ?? '/';
      if (
        urlPath === '/api' ||
        urlPath.startsWith('/api/') ||
        (request.method !== 'GET' && request.method !== 'HEAD')
      ) {
        return reply.status(404).send(apiNotFound(request.method, request.url));
      }
      const file = path.join(webDist, urlPath);
      const compressedCopy = /\.(br|gz)$/.test(urlPath); // sent in place of its original, never by its own name
      if (
        urlPath !== '/' &&
        !compressedCopy &&
        file.startsWith(webDist) &&
        existsSync(file) &&
        !urlPath.endsWith('/')
      ) {
        return reply.sendFile(urlPath.slice(1));
      }
      if (path.extname(urlPath) && urlPath.startsWith('/assets/')) {
        return reply.status(404).send({ message: 'Not found', code: 'NOT_FOUND' });
      }
      // Client-side routes: the app decides.
      return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
    });
  }

  return app;
}
