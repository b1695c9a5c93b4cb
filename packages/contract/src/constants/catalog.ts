// The plain values of the catalogue writes, without zod (see ./index.ts).
/** The highest price a form may set, in minor units (1000.00). */
export const MAX_PRICE_MINOR = 100_000;
