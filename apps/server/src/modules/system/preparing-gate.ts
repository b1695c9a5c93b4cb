import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  preparationHeadline,
  preparationStepText,
  type CataloguePreparation,
  type PreparationSnapshot,
} from '../../platform/catalogue-preparation';
import { quietRequests } from '../../platform/request-log';
import { waitingPage } from './waiting-page';

/** Seconds a client is asked to wait before asking again; the page reloads itself at the same pace. */
export const PREPARING_RETRY_AFTER_SEC = 3;

export const CATALOGUE_PREPARING = 'CATALOGUE_PREPARING';

/** What answers while the demo catalogue is prepared: the API's own description and health. */
const OPEN_API_PATHS = ['/api/health', '/api/openapi.json', '/api/docs'];

const isOpenApiPath = (path: string) =>
  OPEN_API_PATHS.some((open) => path === open || path.startsWith(`${open}/`));

/**
 * While the first start prepares the demo catalogue (platform/catalogue-preparation.ts):
 * - every page a browser asks for is a small server page, "Preparing the demo catalogue: 12 of 40 songs", that
 *   reloads itself every few seconds and so becomes the app, at the address the visitor asked for, once ready;
 * - every API call but health and the API description answers 503 `CATALOGUE_PREPARING` with Retry-After;
 * - files (the built app's assets) are served as usual.
 * It is a server page rather than the web app because the app would start by calling the API (session, user,
 * catalogue) and turn each 503 into an error state; one honest page that needs nothing is clearer, and the
 * browser loads the app once, when it can work.
 * Registered only on a start that prepares: later starts never pay for the hook.
 */
export const preparingGate = fp<{ preparation: CataloguePreparation }>(
  async (app: FastifyInstance, { preparation }) => {
    app.addHook('onRequest', (request, reply, done) => {
      if (preparation.isReady) return done();
      const path = request.url.split('?')[0] ?? '/';
      const isApi = path === '/api' || path.startsWith('/api/');
      if (isApi && isOpenApiPath(path)) return done();
      if (isApi) return answerApi(request, reply, preparation.snapshot());
      const isPage = (request.method === 'GET' || request.method === 'HEAD') && !/\.[a-z0-9]+$/i.test(path);
      if (isPage) return answerPage(request, reply, preparation.snapshot());
      done();
    });
  },
  { name: 'preparing-gate' },
);

/** A 503 "try again shortly", kept out of the request log (see quietRequests). */
function preparing(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  quietRequests.add(request);
  return reply
    .code(503)
    .header('retry-after', String(PREPARING_RETRY_AFTER_SEC))
    .header('cache-control', 'no-store');
}

function answerApi(request: FastifyRequest, reply: FastifyReply, snapshot: PreparationSnapshot) {
  void preparing(request, reply).send({
    message: `${preparationHeadline(snapshot)}. Backbeat answers as soon as it is ready; try again in a moment.`,
    code: CATALOGUE_PREPARING,
  });
}

function answerPage(request: FastifyRequest, reply: FastifyReply, snapshot: PreparationSnapshot) {
  void preparing(request, reply)
    .type('text/html; charset=utf-8')
    .send(
      waitingPage({
        title: 'Preparing the demo catalogue',
        headline: preparationHeadline(snapshot),
        step: preparationStepText(snapshot),
        progress: { value: snapshot.songsReady, max: snapshot.songsTotal },
        note:
          'The first start makes the demo songs on this machine: it synthesises the audio, transcodes it to ' +
          'encrypted streams and writes a sales history for the dashboards. This page reloads by itself and opens ' +
          'Backbeat, at the address you asked for, when everything is ready.',
        refreshSec: PREPARING_RETRY_AFTER_SEC,
      }),
    );
}
