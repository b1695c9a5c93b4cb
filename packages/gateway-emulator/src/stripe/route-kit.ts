import { z } from 'zod';
import { inRange, newestFirst, stripePage, type CreatedRange } from '../core/lists';
import { json, route, type RouteContext } from '../core/router';
import type { Obj } from '../core/store';
import type { StripeContext } from './context';
import { expand, listParams, refuse, stripeError, type StripeCaller } from './dialect';

export type Ctx<I> = RouteContext<I, StripeCaller>;
export type RouteKit = ReturnType<typeof routeKit>;

/** What Stripe's route tables share: answers with `expand` applied, list routes, and live customers. */
export function routeKit(ctx: StripeContext) {
  const expanded = (object: Obj, paths: string[] | undefined) => json(200, ctx.expand(object, paths ?? []));
  /** A list route: filters, then Stripe's cursor pagination, newest first. */
  type ListInput = {
    created?: CreatedRange;
    limit?: number;
    starting_after?: string;
    ending_before?: string;
    expand?: string[];
  } & Record<string, unknown>;
  const list = (
    path: string,
    collection: string,
    kind: string,
    filters: z.ZodRawShape,
    keep: (object: Obj, input: Record<string, unknown>) => boolean,
  ) =>
    route(`GET ${path}`, 'secret', {
      input: z.object({ ...listParams, ...filters }) as unknown as z.ZodType<ListInput>,
      handler: ({ input }: Ctx<ListInput>) => {
        const page = stripePage(
          newestFirst(ctx.store.values<Obj>(collection), (o) => Number(o.created)),
          (object) =>
            !object.deleted && inRange(Number(object.created), input.created) && keep(object, input),
          input,
          path,
          (param, id) =>
            stripeError(404, {
              type: 'invalid_request_error',
              code: 'resource_missing',
              message: `No such ${kind}: '${id}'`,
              param,
            }),
        );
        return json(200, {
          ...page,
          data: page.data.map((object) =>
            ctx.expand(
              object,
              (input.expand ?? []).map((p) => p.replace(/^data\./, '')),
            ),
          ),
        });
      },
    });
  /** `GET /v1/<collection>/:id`: one object by its id, with `expand` applied. */
  const retrieve = (collection: string, kind: string) =>
    route(`GET /v1/${collection}/:id`, 'secret', {
      input: z.object({ expand: expand.optional() }),
      handler: ({ input, param }) => expanded(ctx.retrieve(collection, kind, param('id')), input.expand),
    });
  const customer = (id: string, param = 'customer') => {
    const found = ctx.retrieve('customers', 'customer', id, param);
    return found.deleted
      ? refuse(404, {
          type: 'invalid_request_error',
          code: 'resource_missing',
          message: `No such customer: '${id}'`,
          param,
        })
      : found;
  };
  return { expanded, list, retrieve, customer };
}
