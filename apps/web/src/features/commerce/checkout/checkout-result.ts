import { PAYMENT_RESULT_PATHS } from '../commerce.constants';

/** Where a checkout ends: the success page for its order, or the failure page with the gateway's message. */
export function successPath(orderId: string): string {
  return `${PAYMENT_RESULT_PATHS.success}?orderId=${encodeURIComponent(orderId)}`;
}

export function failurePath(orderId: string | null, message: string): string {
  const query = new URLSearchParams({ reason: message.slice(0, 300) });
  if (orderId) query.set('orderId', orderId);
  return `${PAYMENT_RESULT_PATHS.fail}?${query.toString()}`;
}

/** The text of a gateway or API failure: a message field, else the error's own message, else the fallback. */
export function failureText(error: unknown, fallback: string): string {
  if (typeof error === 'object' && error !== null) {
    const body = 'body' in error ? (error as { body: unknown }).body : error;
    if (typeof body === 'object' && body !== null && 'message' in body) {
      const message = (body as { message: unknown }).message;
      if (typeof message === 'string' && message) return message;
    }
    if (error instanceof Error && error.message) return error.message;
    if ('description' in error && typeof (error as { description: unknown }).description === 'string') {
      return (error as { description: string }).description;
    }
  }
  return fallback;
}
