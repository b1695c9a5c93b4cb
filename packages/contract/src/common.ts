import { z } from 'zod';

/** The one error body every failing API call answers with. */
export const ErrorResponse = z.object({
  message: z.string(),
  code: z.string(),
});
export type ErrorResponse = z.infer<typeof ErrorResponse>;

export const Id = z.string().uuid();

const positiveInt = (fallback: number, max: number) =>
  z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(max, `must be at most ${max}`)
    .default(fallback);

/** page from 1; limit capped at 100; defaults per SPEC section 9. */
export const pageQuery = (defaultLimit: number) =>
  z.object({
    page: positiveInt(1, 1_000_000),
    limit: positiveInt(defaultLimit, 100),
  });
export const PageQuery10 = pageQuery(10);
export const PageQuery20 = pageQuery(20);
export type PageQuery = z.infer<typeof PageQuery10>;

export const Pagination = z.object({
  page: z.number().int(),
  limit: z.number().int(),
  total: z.number().int(),
  totalPages: z.number().int(),
});
export type Pagination = z.infer<typeof Pagination>;

export const MessageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof MessageResponse>;

/** The first start's demo catalogue: `preparing` while the seed runs (the API answers 503 meanwhile), then `ready`. */
export const CataloguePreparationStatus = z.object({
  state: z.enum(['preparing', 'ready']),
  /** What the seed is doing now; null once ready. */
  step: z.enum(['artwork', 'audio', 'transcoding', 'previews', 'sales']).nullable(),
  /** Demo songs that play so far, of `songsTotal` (0 of 0 when no seed ran in this process). */
  songsReady: z.number().int(),
  songsTotal: z.number().int(),
});
export type CataloguePreparationStatus = z.infer<typeof CataloguePreparationStatus>;

export const HealthResponse = z.object({
  status: z.literal('ok'),
  database: z.string(),
  uptimeSec: z.number(),
  catalogue: CataloguePreparationStatus,
});
export type HealthResponse = z.infer<typeof HealthResponse>;
