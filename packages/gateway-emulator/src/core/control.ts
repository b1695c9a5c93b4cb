import { z } from 'zod';
import type { Clock } from './clock';
import { escapeHtml, page } from './pages';
import { html, json, route, type RouteSpec } from './router';
import type { GatewayName } from './store';
import { WEBHOOK_MODES, type WebhookDispatcher, type WebhookMode } from './webhooks';

const eventIds = z.object({ eventIds: z.array(z.string()).optional() });

/**
 * The `/_emulator/*` routes every provider's port has: the clock, the webhook deliveries and their steering (mode,
 * held events, release in a given order, drop, redeliver). Documented in the README's control-route table.
 */
export function controlRoutes(
  gateway: GatewayName,
  clock: Clock,
  webhooks: WebhookDispatcher,
): Array<RouteSpec<unknown, unknown>> {
  const notHeld = (error: unknown) =>
    json(409, { message: error instanceof Error ? error.message : 'not held' });
  return [
    route('GET /_emulator/deliveries', 'none', {
      handler: () =>
        json(200, {
          mode: webhooks.mode(gateway),
          deliveries: webhooks.deliveries.filter((d) => d.gateway === gateway),
          events: webhooks.events(gateway),
        }),
    }),
    route('POST /_emulator/events/:id/redeliver', 'none', {
      handler: async ({ param }) => {
        const delivery = await webhooks.redeliverNow(param('id'));
        return delivery ? json(200, { ok: true, delivery }) : json(404, { message: 'no such event' });
      },
    }),
    route('GET /_emulator/webhooks/held', 'none', {
      handler: () => json(200, { mode: webhooks.mode(gateway), held: webhooks.held(gateway) }),
    }),
    route('POST /_emulator/webhooks/mode', 'none', {
      input: z.object({ mode: z.enum(WEBHOOK_MODES as [WebhookMode, ...WebhookMode[]]) }),
      handler: ({ input }) => {
        webhooks.setMode(gateway, input.mode);
        return json(200, { mode: input.mode });
      },
    }),
    route('POST /_emulator/webhooks/release', 'none', {
      input: eventIds,
      handler: async ({ input }) => {
        try {
          return json(200, { deliveries: await webhooks.release(gateway, input.eventIds) });
        } catch (error) {
          return notHeld(error);
        }
      },
    }),
    route('POST /_emulator/webhooks/drop', 'none', {
      input: eventIds,
      handler: ({ input }) => {
        try {
          return json(200, { dropped: webhooks.drop(gateway, input.eventIds) });
        } catch (error) {
          return notHeld(error);
        }
      },
    }),
    route('GET /_emulator/clock', 'none', {
      handler: () => json(200, { now: clock.now().toISOString(), offsetMs: clock.offset }),
    }),
    route('POST /_emulator/clock/advance', 'none', {
      input: z.object({ seconds: z.coerce.number().optional(), days: z.coerce.number().optional() }),
      handler: async ({ input }) => {
        const seconds = (input.seconds ?? 0) + (input.days ?? 0) * 86_400;
        if (!Number.isFinite(seconds) || seconds <= 0)
          return json(400, { message: 'give seconds or days > 0' });
        await clock.advance(seconds * 1000);
        return json(200, { now: clock.now().toISOString() });
      },
    }),
    route('GET /_emulator', 'none', {
      handler: () =>
        html(
          200,
          page(
            `${gateway} emulator`,
            '#444',
            `<h1>${escapeHtml(gateway)} — local gateway emulator</h1><p class="muted">Control routes: see packages/gateway-emulator/README.md.</p>`,
          ),
        ),
    }),
  ];
}
